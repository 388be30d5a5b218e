"""Telegram adapter (python-telegram-bot 22): translates updates to core requests and replies
to Bot API calls, nothing more.

- Commands: every ``/command args`` line goes to ``Core.handle_text`` as typed; the menu is
  registered with ``setMyCommands`` in English, Spanish and Italian from ``Core.command_list``.
- Buttons: each core ``Button`` becomes an inline keyboard button whose callback data is the
  button id (at most 64 bytes); presses go to ``Core.handle_button`` and are answered at once.
  A private answer to the presser (a stranger's press, "not your turn") is the callback
  answer itself, which only they see.
- Refused commands: a refusal that reveals nothing private (``Reply.refusal``: an unknown
  game or command, bad arguments, an illegal move, not your turn) is answered in the chat
  where the command was typed, as a reply to it; other private answers go to the private chat.
- Boards: a board reply edits its message in place (``editMessageMedia``) or, when there is
  none or it is gone, posts a new photo and tells the core with ``Core.board_posted``. Board
  message ids are stored as ``"<chat_id>:<message_id>"``.
- Hidden hands (Cartas Maestras): the core's ``hand`` button becomes a button that opens an
  inline query in the current chat; ``@bot`` then lists only the asking player's cards
  (``Core.hand_buttons``) and choosing one plays it. Players who started the bot privately
  can also get their hand there (``/hand`` in the group, or the inline list's header button).
- Animated images (``/replay``: a reply whose ``image_name`` ends in ``.gif``) are sent with
  ``sendAnimation``, so they play inline; every other image is a photo.
- Everything written to a chat goes through a per-chat ``Outbox`` (flood limits, coalesced
  board edits, ``RetryAfter`` waited out, a removed bot handled quietly).

The package holds a module per concept: ``config`` (settings, update types, token redaction),
``adapter`` (the ``Application`` wired to the core: start-up, shutdown, menus, deploy step),
``updates`` (polling or the webhook server, and readiness), ``handlers`` (updates to requests,
replies routed), ``delivery`` (sending and editing), ``format`` (keyboards, ids, HTML text),
``outbox`` (Telegram's flood limits and errors), ``run`` (the ``Adapter``).

Start it from ``python -m bot`` with ``TELEGRAM_TOKEN`` set, or directly:

>>> await TelegramPlatform().run(core, settings)   # doctest: +SKIP

Settings (attributes of ``settings``, all optional but the token): ``telegram_token``,
``telegram_base_url`` (a local Bot API server), ``telegram_webhook_url`` (webhook mode instead
of long polling), ``telegram_webhook_secret``, ``telegram_webhook_port`` (default ``$PORT`` or
8443), ``telegram_webhook_listen`` (default ``0.0.0.0``), ``default_language``.
"""

from __future__ import annotations

from bot.platforms.telegram.adapter import TelegramAdapter
from bot.platforms.telegram.config import PLATFORM, TelegramConfig
from bot.platforms.telegram.format import html_text
from bot.platforms.telegram.run import TelegramPlatform

__all__ = ["PLATFORM", "TelegramAdapter", "TelegramConfig", "TelegramPlatform", "html_text"]

"""The Discord adapter: slash commands and buttons in, boards and messages out (discord.py 2.7).

It only translates. A slash command becomes a core text line (``/move w3`` ->
``Core.handle_text(req, "/move w3")``), a button press becomes ``Core.handle_button`` with the
button's custom id, and each ``Reply`` becomes a Discord call:

* a board reply (``reply.board``) edits its board message in place (image + buttons), or posts
  a new one and tells the core its id (``"<channel id>:<message id>"``);
* a private reply goes only to its user, as an **ephemeral** message: in answer to that user's
  own interaction, or as an ephemeral follow-up of their latest one (a Cartas Maestras hand when
  their turn comes). Discord cannot show an ephemeral message to someone who has not interacted,
  so then the channel gets a mention telling them to use ``/hand``; nothing private is ever
  posted in the channel;
* any other reply is a channel message.

Every interaction is acknowledged within Discord's 3 seconds: the core gets ``ACK_BUDGET``
seconds to answer, and when it is slower the interaction is deferred first. Buttons are
``DynamicItem``\\ s matched by their ``v1:...`` custom id, registered in ``setup_hook``, so boards
posted before a restart keep working.

The answer to a user's own interaction (its response, follow-ups, the pressed message's edit)
goes out at once: Discord wants it within 3 s and it has its own bucket per interaction.
Everything else written to a channel (a board edited because of a command or another player's
move, the core's pushes: turn timers, races, nudges) goes through the channel's ``Outbox``
(``bot.platforms.discord.outbox``): channels served in turn, at most 40 waiting per channel, a
waiting board edit replaced by the newer board of the same game. discord.py keeps Discord's
per-route buckets and retries its 429s; a ``retry_after`` that reaches the outbox is waited out.
A board is never drawn older than the one shown: each board delivery carries the order in which
its reply reached the adapter, and an older one is not sent over a newer one.

The package holds a module per concept: ``config`` (settings, endpoints, token redaction),
``client`` (the client, its start-up, interactions in), ``delivery`` (replies out),
``gateway`` (shard links and readiness), ``run`` (one client or shards; the ``Adapter``),
``messages`` (ids, buttons, reply content, one interaction's answer), ``slash`` (the slash
commands), ``outbox`` (Discord's outbox limits and errors).

>>> await DiscordPlatform().run(core, settings)   # doctest: +SKIP
"""

from __future__ import annotations

from bot.platforms.discord.client import ACK_BUDGET, TavoloClient
from bot.platforms.discord.config import DiscordConfig
from bot.platforms.discord.messages import PLATFORM, build_view, decode_board, encode_board
from bot.platforms.discord.run import DiscordPlatform, ShardedTavoloClient, create_client

__all__ = [
    "ACK_BUDGET",
    "PLATFORM",
    "DiscordConfig",
    "DiscordPlatform",
    "ShardedTavoloClient",
    "TavoloClient",
    "build_view",
    "create_client",
    "decode_board",
    "encode_board",
]

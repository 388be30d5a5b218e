"""The command table: names, their one-line descriptions, and parsing of a chat line.

The names are the same on every platform (Discord slash commands, Telegram setMyCommands, the
console). Descriptions are i18n keys ``cmd.<name>`` in ``bot/i18n/locales/<lang>/core.po``.

>>> parse_line("/move@TavoloBot w3")
ParsedLine(command='move', args=['w3'], rest='w3')
>>> parse_line("w3")
ParsedLine(command=None, args=['w3'], rest='w3')
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field

import engine
from bot import i18n
from bot.core.registry import Refusal

#: every command, in the order menus show them
COMMANDS: tuple[str, ...] = (
    "play",
    "move",
    "board",
    "undo",
    "hint",
    "resign",
    "autofinish",
    "challenge",
    "join",
    "leave",
    "start",
    "hand",
    "end",
    "kick",
    "addbot",
    "race",
    "daily",
    "leaderboard",
    "stats",
    "web",
    "forgetme",
    "replay",
    "rules",
    "help",
    "lang",
)

#: the games, as the engine lists them (each game's facts: ``engine.game_info(game_id)``):
#: solo games /play starts, and table games played at a /challenge table
ALL_GAMES: tuple[str, ...] = tuple(engine.GAMES)
SOLO_GAMES: tuple[str, ...] = tuple(g for g in ALL_GAMES if not engine.game_info(g).table)
TABLE_GAMES: tuple[str, ...] = tuple(g for g in ALL_GAMES if engine.game_info(g).table)

#: every card face style a player may name: those of the games that offer a choice
#: (``GameInfo.faces`` with more than one); a game's only faces are not a word to type (the
#: Squadratik cards). Italian faces cannot draw a French deck (Solitario with cards=52)
ITALIAN_FACES: tuple[str, ...] = ("napoletane", "piacentine")
FACES: tuple[str, ...] = tuple(
    dict.fromkeys(
        f for g in SOLO_GAMES if len(faces := engine.game_info(g).faces) > 1 for f in faces
    )
)

#: longest chat line the core reads; anything longer is refused before parsing
MAX_LINE = 500


@dataclass(frozen=True, slots=True)
class ParsedLine:
    """A chat line: ``command`` without slash or bot name (None for plain text), its words."""

    command: str | None
    args: list[str]
    rest: str


def parse_line(text: str) -> ParsedLine:
    """Split ``/cmd@bot args`` (or plain text) into command and arguments.

    >>> parse_line("/PLAY canfield 7")
    ParsedLine(command='play', args=['canfield', '7'], rest='canfield 7')
    """
    text = text.strip()
    if not text.startswith("/"):
        return ParsedLine(None, text.split(), text)
    head, _, rest = text[1:].partition(" ")
    command = head.split("@", 1)[0].lower()
    rest = rest.strip()
    return ParsedLine(command, rest.split(), rest)


def read_line(text: str) -> ParsedLine | None:
    """``text`` parsed once for the whole request (the rate limit, the metrics label and the
    dispatch all read this one value); None when it is longer than :data:`MAX_LINE`, which
    is refused unread.

    >>> read_line("/undo").command, read_line("x" * (MAX_LINE + 1))
    ('undo', None)
    """
    return None if len(text) > MAX_LINE else parse_line(text)


def ascii_number(word: str) -> int | None:
    """The whole number ``word`` spells in ASCII digits, else None.

    ``str.isdigit`` also accepts ``²``, ``٣`` and fullwidth digits, which ``int()`` then reads
    or refuses; players' numbers are read from ``0``-``9`` only.

    >>> ascii_number("42"), ascii_number("²"), ascii_number("٣"), ascii_number("７"), ascii_number("-1")
    (42, None, None, None, None)
    """
    if not word or not word.isascii() or not word.isdigit():
        return None
    return int(word)


#: the move words of the engine's notation a player may type in their chat's language
MOVE_WORDS: tuple[str, ...] = ("pass", "stop")


def move_word(lang: str, text: str) -> str:
    """The engine's notation for a move word typed in the chat's language or in English, any
    case (``pasar`` / ``PASSA`` -> ``pass``); any other text as it is.

    >>> move_word("es", "Pasar"), move_word("it", "basta"), move_word("it", "PASS"), move_word("es", "w3")
    ('pass', 'stop', 'pass', 'w3')
    """
    wanted = " ".join(text.split()).casefold()
    for word in MOVE_WORDS:
        spellings = {word} | {
            s.strip().casefold() for s in i18n.t(lang, f"move.words.{word}").split(",")
        }
        if wanted in spellings:
            return word
    return text


@dataclass(frozen=True, slots=True)
class MoveText:
    """A typed move, its move word read once: ``text`` as typed (what a solo game reads and
    what answers quote) and ``at_table``, the same with a table's move words in the chat's
    language turned into the engine's notation (``pasar`` -> ``pass``).

    >>> MoveText.read("es", "Pasar").notation(at_table=True), MoveText.read("es", "w3").text
    ('pass', 'w3')
    """

    text: str
    at_table: str

    @classmethod
    def read(cls, lang: str, text: str) -> MoveText:
        return cls(text, move_word(lang, text))

    def notation(self, at_table: bool) -> str:
        """The move as a game of that kind reads it (a table, or a solo game)."""
        return self.at_table if at_table else self.text


def game_id_of(word: str) -> str | None:
    """The game id a player meant (its id, a name in any language, an alias), or None.

    >>> game_id_of("klondike"), game_id_of("poker")
    ('solitario', None)
    """
    info = engine.by_word(word)
    return None if info is None else info.id


def mention_name(word: str) -> str:
    """The player a mention names: Telegram's ``@name`` without its ``@``; Discord's
    ``<@123>`` / ``<@!123>`` (what a mention looks like in a message) as the user id.

    >>> mention_name("@ana"), mention_name("<@123>"), mention_name("<@!456>"), mention_name("bo")
    ('ana', '123', '456', 'bo')
    """
    if word.startswith("<@") and word.endswith(">"):
        inner = word[2:-1].removeprefix("!")
        if ascii_number(inner) is not None:
            return inner
    return word[1:] if word.startswith("@") else word


#: random deals are among the first this many of a game's own numbers (readable)
RANDOM_DEALS = 1_000_000


def random_deal(game_id: str) -> int:
    """A deal number of ``game_id`` (``GameInfo.deals``) picked at random. Only the number is
    picked here; the shuffle itself is engine.rng's.

    >>> random_deal("freecell") in engine.game_info("freecell").deals
    True
    """
    deals = engine.game_info(game_id).deals
    return deals.first + secrets.randbelow(deals.count(at_most=RANDOM_DEALS))


@dataclass(frozen=True, slots=True)
class PlayArgs:
    """What ``/play <game> [faces] [deal] [name=value ...]`` asked for (None: not given)."""

    game_id: str
    faces: str | None = None
    deal: int | None = None
    options: dict[str, str] = field(default_factory=dict)


def parse_play(args: list[str]) -> PlayArgs | Refusal:
    """Read ``/play``'s words; a :class:`Refusal` says what is wrong with them.

    >>> parse_play(["Klondike", "piacentine", "42", "draw=3"])
    PlayArgs(game_id='solitario', faces='piacentine', deal=42, options={'draw': '3'})
    >>> parse_play(["canfield", "²"]).key
    'play.bad_argument'
    """
    if not args:
        return Refusal("play.usage", games=SOLO_GAMES)
    game_id = game_id_of(args[0])
    if game_id is None:
        return Refusal("game.unknown", {"game": args[0][:32]}, games=SOLO_GAMES)
    if game_id not in SOLO_GAMES:
        return Refusal("play.use_challenge", game_id=game_id)
    if game_id not in engine.GAMES:
        return Refusal("error.game_unavailable", game_id=game_id)
    faces: str | None = None
    deal: int | None = None
    options: dict[str, str] = {}
    for word in args[1:]:
        lowered = word.lower()
        number = ascii_number(word)
        if lowered in FACES and faces is None:
            faces = lowered
        elif number is not None and deal is None:
            deals = engine.game_info(game_id).deals
            if number not in deals:  # each game's own numbers (FreeCell: Microsoft's 1-1,000,000)
                params = {"deal": word[:20], "first": deals.first, "last": deals.last}
                return Refusal("play.deal_out_of_range", params, game_id=game_id)
            deal = number
        elif "=" in word and not word.startswith("="):
            name, _, value = word.partition("=")
            options[name.lower()] = value
        else:  # the usage line of this game: its own faces (if it has a choice) and deals
            info = engine.game_info(game_id)
            faces_words = f" [{'|'.join(info.faces)}]" if len(info.faces) > 1 else ""
            params = {
                "arg": word[:32],
                "word": game_id,
                "faces": faces_words,
                "first": info.deals.first,
                "last": info.deals.last,
            }
            return Refusal("play.bad_argument", params, game_id=game_id)
    if faces is not None and faces not in engine.game_info(game_id).faces:
        offered = tuple(g for g in engine.GAMES if len(engine.game_info(g).faces) > 1)
        return Refusal("play.faces_not_offered", games=offered)
    return PlayArgs(game_id, faces, deal, options)

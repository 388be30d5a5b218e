"""Players named in a command: ``/kick Computer 2``, ``/kick "Ana María"``, ``/kick @ana_maria``,
``/kick <@123>``, ``/stats computer 2``.

A name is looked for among names only, never among platform ids: ``/stats 12345`` names
whoever is called "12345", not the user with that id. The one way to name someone by their id
is the platform's own mention, which the adapter writes as ``<@id>`` and lists in
``Request.mentions`` (:mod:`bot.core.people` trusts such a token only when it is listed there).

A chat line is split on spaces before a command sees it, so a name of several words arrives as
several arguments: :func:`player_query` puts them back together and takes off what people put
around a name (quotes of any kind, a leading ``@``). Names are compared by :func:`name_key`:
any case, ``_`` as a space (Telegram usernames cannot hold spaces), runs of spaces as one, and
Unicode compatibility forms folded (a fullwidth ``Ａｎａ`` is ``ana``).

:func:`find_players` answers with every seat the words could mean, so a caller can act on one
and ask when there are several: an exact name (or id) wins over the start of a name, so
``/kick Computer 1`` never asks about ``Computer 10``.

>>> seats = [("u1", "Ana María"), ("cpu1", "Computer 1"), ("cpu2", "Computer 2")]
>>> find_players(player_query(["computer", "2"]), seats)
['cpu2']
>>> find_players(player_query(['"Ana', 'María"']), seats), find_players(player_query(["@ana_maría"]), seats)
(['u1'], ['u1'])
>>> find_players(player_query(["Computer"]), seats)
['cpu1', 'cpu2']
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence

#: quote marks people put around a name, in the scripts and keyboards our players use
_QUOTES = "\"'`«»‹›“”„‟‘’‚‛「」『』"
_SPACES = re.compile(r"\s+")
_DISCORD_MENTION = re.compile(r"^<@!?(\d{1,25})>$")


def name_key(name: str) -> str:
    """How two spellings of one name compare equal.

    >>> name_key("  Ana_MARÍA ") == name_key("ana maría"), name_key("Ｃｏｍｐｕｔｅｒ　２")
    (True, 'computer 2')
    """
    folded = unicodedata.normalize("NFKC", name).casefold().replace("_", " ")
    return _SPACES.sub(" ", folded).strip()


def player_query(args: Sequence[str]) -> str:
    """The player a command's arguments name, as one string: the words joined, then quotes
    and a leading ``@`` taken off. A mention token (``<@123>``, Discord's ``<@!123>``) is kept
    as ``<@123>``: whether it stands for user 123 is for the platform to say
    (:func:`mentioned_id`), a bare ``123`` is a name like any other.

    >>> player_query(["<@!42>"]), player_query(["“Computer", "2”"]), player_query(["@bo"])
    ('<@42>', 'Computer 2', 'bo')
    """
    text = " ".join(args).strip()
    mention = _DISCORD_MENTION.match(text)
    if mention:
        return f"<@{mention.group(1)}>"
    text = text.strip(_QUOTES).strip()
    if text.startswith("@"):
        text = text[1:]
    return text.strip(_QUOTES).strip()


def mentioned_id(query: str) -> str | None:
    """The user id of a mention token (``<@123>``), else None. Only a token the platform
    itself delivered (``Request.mentions``) may be taken for that user.

    >>> mentioned_id("<@42>"), mentioned_id("42"), mentioned_id("@42")
    ('42', None, None)
    """
    mention = _DISCORD_MENTION.match(query.strip())
    return mention.group(1) if mention else None


def split_names(text: str) -> list[str]:
    """The words of a command line, with a quoted name kept as one word (quotes taken off):
    ``/challenge "Ana María" @bo`` invites two people. An unmatched quote runs to the end.

    >>> split_names('"Ana María" @bo timer=5'), split_names("«Computer 2» x"), split_names('"half')
    (['Ana María', '@bo', 'timer=5'], ['Computer 2', 'x'], ['half'])
    """
    words: list[str] = []
    closing = {"«": "»", "“": "”", "„": "“", "‘": "’", "「": "」", "『": "』", "‹": "›"}
    index, length = 0, len(text)
    while index < length:
        char = text[index]
        if char.isspace():
            index += 1
            continue
        if char in _QUOTES and char not in "»”’›」』":
            end_char = closing.get(char, char)
            end = text.find(end_char, index + 1)
            if end < 0 and char == "„":
                end = text.find("”", index + 1)
            end = length if end < 0 else end
            word = text[index + 1 : end].strip()
            if word:
                words.append(word)
            index = end + 1
            continue
        end = index
        while end < length and not text[end].isspace():
            end += 1
        words.append(text[index:end])
        index = end
    return words


def find_players(query: str, seats: Iterable[tuple[str, str]], starts: bool = True) -> list[str]:
    """The ids of the seats ``query`` can mean, in seat order: those whose whole name it is;
    when there are none (and ``starts``), those whose name starts with it (``ana`` finds
    ``Ana María``, not ``Susana``). Empty when nobody fits. Only names are compared: an id
    typed as text finds nobody (a platform id is not a name to look people up by).

    >>> find_players("ana", [("1", "Susana"), ("2", "Ana María")]), find_players("x", [("1", "Bo")])
    (['2'], [])
    >>> find_players("computer 1", [("a", "Computer 1"), ("b", "Computer 10")])
    ['a']
    >>> find_players("1234", [("1234", "Bo")]), find_players("ana", [("2", "Ana María")], starts=False)
    ([], [])
    """
    listed = list(seats)
    # as written first; then without accents (a Telegram @ana_maria for "Ana María")
    for key in (name_key, _unaccented_key):
        wanted = key(query)
        if not wanted:
            return []
        exact = [pid for pid, name in listed if key(name) == wanted]
        if exact:
            return list(dict.fromkeys(exact))
        # the start of a name: whole words ("ana" of "Ana María"), or part of one ("comp")
        begun = [pid for pid, name in listed if starts and key(name).startswith(wanted)]
        if begun:
            return list(dict.fromkeys(begun))
    return []


def seat_names(names: Sequence[str]) -> list[str]:
    """Each seat's name as everyone reads it (chat texts, boards, replay images, web pages):
    seats that share a name (in any case or spelling :func:`name_key` folds) carry their seat
    number after it, so two people called Ana are "Ana 1" and "Ana 2", never their platform
    ids. A numbered name that is someone else's name ("Ana 2") is numbered again.

    >>> seat_names(["Ana", "Bo", "ana"]), seat_names(["Ana", "Ana", "Ana 2"])
    (['Ana 1', 'Bo', 'ana 3'], ['Ana 1', 'Ana 2 2', 'Ana 2 3'])
    >>> seat_names(["Ana", "Bo"])
    ['Ana', 'Bo']
    """
    shown = list(names)
    while True:
        counts: dict[str, int] = {}
        for name in shown:
            counts[name_key(name)] = counts.get(name_key(name), 0) + 1
        if all(n == 1 for n in counts.values()):
            return shown
        shown = [
            f"{name} {seat}" if counts[name_key(name)] > 1 else name
            for seat, name in enumerate(shown, start=1)
        ]


def _unaccented_key(name: str) -> str:
    """:func:`name_key` without accents and other combining marks (``maría`` -> ``maria``).

    >>> _unaccented_key("Ana_María"), _unaccented_key("Zoë")
    ('ana maria', 'zoe')
    """
    decomposed = unicodedata.normalize("NFKD", name_key(name))
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def short_name(name: str, limit: int = 24) -> str:
    """A name cut to ``limit`` characters for a line of chat text, with an ellipsis, at a word
    boundary when one is near (a long name must not push the rest of the line away).

    >>> short_name("Bartholomew Fitzgerald-Montgomery the Third of Wessex")
    'Bartholomew Fitzgerald…'
    >>> short_name("Ana"), short_name("Supercalifragilisticexpialidocious", 12)
    ('Ana', 'Supercalifr…')
    """
    name = _SPACES.sub(" ", name).strip()
    if len(name) <= limit:
        return name
    cut = name[: limit - 1]
    space = cut.rfind(" ")
    if space >= limit // 2:
        cut = cut[:space]
    return _whole_characters(cut, name).rstrip(" -_.,") + "…"


def _continues(char: str) -> bool:
    """Whether ``char`` belongs to the character before it: a combining accent, a joiner, a
    variation selector or an emoji skin tone."""
    return (
        bool(unicodedata.combining(char))
        or char in "\u200d\ufe0e\ufe0f"
        or ("\U0001f3fb" <= char <= "\U0001f3ff")
    )


def _whole_characters(cut: str, full: str) -> str:
    """``cut`` (a start of ``full``) without a character it would split: an accent cut off
    its letter, half of a joined emoji (a family is one picture), half of a flag. When even
    the first character is longer than the room, it is kept whole."""
    while cut and (cut[-1] == "\u200d" or (len(cut) < len(full) and _continues(full[len(cut)]))):
        cut = cut[:-1]
    if not cut:  # the first character alone is longer than the room: keep it whole
        end = 1
        while end < len(full) and (full[end - 1] == "\u200d" or _continues(full[end])):
            end += 1
        return full[:end]
    indicators = "".join(chr(c) for c in range(0x1F1E6, 0x1F200))
    flags = len(cut) - len(cut.rstrip(indicators))
    return cut[:-1] if flags % 2 else cut

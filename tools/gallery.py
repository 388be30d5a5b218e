"""``python -m tools.gallery out/gallery``: a PNG of every game at its start, mid-game and
end (every face style for Solitario), Cartas Maestras at 2, 4 and 8 seats early, late and over
with a hand, El Solitario early and late, names in every script, one replay GIF per game, and
each PNG again scaled to 400 px wide (``*_400.png``: what a phone shows); ``phone_*``: the
positions the phone tests measure, as a phone gets them and whole. ``python -m tools.gallery
--palette`` refits the stored board palette to ``sample_sheet()``.

Every game with a drawing (``renderer.registry``) is pictured from its engine, playing seeded
random moves (preferring foundation/scoring moves) to reach mid-game and the end; which
pictures a game gets follows from its facts (its faces, whether its drawing shows a hand).
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

from PIL import Image

import engine
import renderer
from engine.views import SquadratikView
from renderer import registry, theme
from renderer.cards_french import card_back, empty_slot, french_card
from renderer.cards_italian import italian_card, italian_slot
from renderer.cards_squadratik import squadratik_card
from renderer.fonts import text_mask, text_sprite
from renderer.palette import PALETTE_FILE, fit_palette
from tools import samples

#: who sits at a table game's pictures (as many as it seats, up to three)
SEAT_NAMES = ("ana", "bob", "cy")


def seats(game_id: str) -> list[str] | None:
    """The players of ``game_id``'s pictures: None for a solo game.

    >>> seats("maestras"), seats("canfield")
    (['ana', 'bob', 'cy'], None)
    """
    info = engine.game_info(game_id)
    if not info.table:
        return None
    return list(SEAT_NAMES[: max(info.min_players, min(len(SEAT_NAMES), info.max_players))])


def engine_class(game_id: str) -> Any:
    """The engine's class for ``game_id`` (``engine.GAMES``)."""
    return engine.GAMES[game_id]


def _play(game: Any, moves: int, rng: random.Random) -> list[str]:
    """Play up to ``moves`` moves, preferring the first-listed ones half the time (engines tend
    to list productive moves first) so games actually progress."""
    played: list[str] = []
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal or game.is_over:
            break
        move = legal[0] if rng.random() < 0.5 else rng.choice(legal)
        game.play(move)
        played.append(str(move))
    return played


MID = 12  # moves played for the "mid" picture


def engine_views(game_id: str, deal: int = 3) -> dict[str, tuple[Mapping[str, Any], list[str]]]:
    """``stage -> (view, moves so far)`` for start, mid and end from the real engine, on the
    first deal from ``deal`` on whose seeded playout lasts past the middle (a game that ends
    at move 2 makes a poor "mid" picture)."""
    cls = engine_class(game_id)
    players = seats(game_id)
    viewer = players[0] if players else None
    for tried in range(deal, deal + 20):
        rng = random.Random(tried)
        game = cls(tried, players, None)
        out: dict[str, tuple[Mapping[str, Any], list[str]]] = {"start": (game.view(viewer), [])}
        moves = _play(game, MID, rng)
        out["mid"] = (game.view(viewer), list(moves))
        if not game.is_over:
            break
    moves += _play(game, 2000, rng)
    out["end"] = (game.view(viewer), list(moves))
    return out


def _selection(game_id: str, view: Mapping[str, Any]) -> dict[str, Any]:
    """A ``selected``/``targets`` style for the gallery: the waste (or first hand card) picked,
    two places ringed as targets."""
    if "piles" not in view:  # a board of paths (Squadratik's games)
        from renderer.squadratik_boards import path_targets

        ends = sorted(path_targets(cast(SquadratikView, view)))[:2]
        return {"selected": "h1", "targets": ends}
    piles = [p["id"] for p in view.get("piles", []) if p["kind"] in ("tableau", "foundation")]
    ids = {p["id"] for p in view.get("piles", [])}
    picked = next((pile for pile in ("w", "t") if pile in ids), piles[-1])  # FreeCell: a column
    return {"selected": picked, "targets": piles[:2]}


def sample_sheet() -> Image.Image:
    """A sheet holding every kind of sprite and text, each on the colour it is drawn on: what
    the palette is fitted to."""
    sprites = [french_card(c) for c in ("Ah", "Ts", "Qd", "Kc", "Jh", "7s")]
    sprites += [
        italian_card(c, s)
        for s in ("napoletane", "piacentine")
        for c in ("Ad", "3h", "5c", "7s", "Jd", "Qc", "Kh")
    ]
    sprites += [
        card_back(),
        empty_slot("d"),
        empty_slot("+3"),
    ]
    sprites += [  # every faint suit of an empty Italian foundation
        italian_slot(suit, style) for style in ("napoletane", "piacentine") for suit in "dhcs"
    ]
    sprites += [
        squadratik_card(k, sides, p, 0, 96)
        for k, sides, p in (
            ("normal", ("R4", "B3", "0", "R1"), 8),
            ("master", ("B1", "B2", "B3", "B4"), 0),
            ("empty", ("0",) * 4, 0),
            ("central", ("0",) * 4, 0),
        )
    ]
    rows = (len(sprites) + 7) // 8
    sheet = Image.new("RGB", (110 * 8, 155 * rows + 170), theme.TABLE)
    for k, sprite in enumerate(sprites):
        sheet.paste(sprite, (5 + (k % 8) * 110, 5 + (k // 8) * 155), sprite)
    # text as boards draw it: each text colour on each background it appears on
    y = 155 * rows + 10
    for background, colours in (
        (theme.HEADER, (theme.MUTED, theme.WHITE, theme.LAST_MOVE)),
        (theme.LABEL_BG, (theme.WHITE, theme.GOLD, theme.MUTED, theme.LAST_MOVE)),
        (theme.TABLE, (theme.MUTED, theme.WHITE, theme.LABEL_TEXT)),
        (theme.TURN_BG, (theme.WHITE, theme.GOLD, theme.MUTED)),
    ):
        sheet.paste(background, (0, y, 880, y + 30))
        x = 4
        for colour in colours:
            mask = text_mask("Score 95 Moves 23 f1 w 8", 20, True)[0]
            sheet.paste(colour, (x, y + 4), mask)
            x += mask.width + 8
        y += 30
    # names through the font chain: emoji bring their own colours
    x = 4
    for name in ("Ana🎲", "❤️", "🇮🇹", "😀", "👍", "🎉"):
        sprite = text_sprite(name, 24, theme.WHITE, True)[0]
        sheet.paste(sprite, (x, y + 4), sprite)
        x += sprite.width + 8
    return sheet


def write_palette() -> Path:
    """Refit the board palette to ``sample_sheet()`` and store it (after changing card looks)."""
    PALETTE_FILE.write_text(json.dumps(fit_palette(sample_sheet())) + "\n")
    return PALETTE_FILE


# Player names in every script the font chain draws: accented Latin, Cyrillic, Greek, Hebrew
# (right to left), Chinese, an emoji; the eight-seat table adds Arabic, Japanese, Korean,
# Devanagari, Thai, a flag and a 39-character name (shortened by the room in its row).
WORLD_NAMES = ["Zoë", "José Núñez", "Жора", "Ωμέγα", "שלום", "王小明", "Ana🎲"]
EIGHT_NAMES = [
    "张伟",
    "مريم",
    "山田花子",
    "김민준",
    "प्रिया",
    "สมชาย",
    "🇮🇹 Luca",
    "Bartholomew Maximilian Fitzgerald-Smyth",
]


def _seats_and_stages(out: Path) -> list[str]:
    """Cartas Maestras with 2, 4 and 8 seats, early (3 moves), late (25) and over, with a
    hand; El Solitario early and late; names of every script on the eight-seat table."""
    written = []
    for seats in (2, 4, 8):
        players = EIGHT_NAMES[:seats] if seats == 8 else [f"Player {k + 1}" for k in range(seats)]
        for stage, moves in (("early", 3), ("late", 25), ("over", 2000)):
            game = engine.new_game("maestras", 7, players)
            _play(game, moves, random.Random(7))
            name = out / f"maestras_{seats}seats_{stage}.png"
            name.write_bytes(renderer.render("maestras", game.view()))
            written.append(f"{name} (engine)")
            if stage == "early":
                viewer = game.current_player or players[0]
                name = out / f"maestras_{seats}seats_{stage}_hand.png"
                name.write_bytes(renderer.render("maestras", game.view(viewer), hand=True))
                written.append(f"{name} (engine)")
    for stage, moves in (("early", 3), ("late", 30)):
        game = engine.new_game("squadratik", 5, None)
        _play(game, moves, random.Random(5))
        name = out / f"squadratik_{stage}.png"
        name.write_bytes(renderer.render("squadratik", game.view()))
        written.append(f"{name} (engine)")
    return written


def _phone_positions(out: Path) -> list[str]:
    """The positions the phone tests measure (``samples.phone_positions``: Cartas Maestras at
    2, 3, 4 and 8 seats early, on its longest path, late and over; El Solitario early, on
    long paths and finished), as a phone gets them and whole (``full=True``)."""
    written = []
    for name, game_id, view in samples.phone_positions():
        for suffix, style in (("", {}), ("_full", {"full": True})):
            path = out / f"phone_{name}{suffix}.png"
            path.write_bytes(renderer.render(game_id, view, **style))
            written.append(f"{path} (engine)")
    return written


def most_common_share(image: Image.Image) -> float:
    """The share of the picture taken by its most common colour (empty cloth, mostly)."""
    rgb = image.convert("RGB")
    counts = rgb.getcolors(rgb.width * rgb.height) or [(0, None)]
    return max(count for count, _ in counts) / (rgb.width * rgb.height)


def write_summary(out: Path) -> Path:
    """``summary.txt``: each board's size, its height over its width and the share of its
    most common colour."""
    lines = []
    for path in sorted(out.glob("*.png")):
        if path.stem.endswith("_400"):
            continue
        image = Image.open(path)
        share = most_common_share(image)
        aspect = image.height / image.width
        lines.append(f"{path.name:48s} {image.width}x{image.height:<6d} {aspect:5.2f} {share:6.1%}")
    target = out / "summary.txt"
    target.write_text("\n".join(lines) + "\n")
    return target


def write_phone_sized(out: Path) -> list[str]:
    """Every PNG of ``out`` also scaled to 400 px wide (``*_400.png``): what most players see
    on a phone. Look at these."""
    written = []
    for path in sorted(out.glob("*.png")):
        if path.stem.endswith("_400"):
            continue
        image = Image.open(path).convert("RGB")
        small = image.resize(
            (400, round(image.height * 400 / image.width)), Image.Resampling.LANCZOS
        )
        target = path.with_name(f"{path.stem}_400.png")
        small.save(target)
        written.append(str(target))
    return written


def _names_and_races(out: Path) -> list[str]:
    """A Cartas Maestras table seated with ``WORLD_NAMES`` (board, and hands in Spanish and
    Italian), and race boards naming their player with the race clock."""
    written = []
    # the table game (Cartas Maestras)
    table = next((cls.info.id for cls in engine.GAMES.values() if cls.info.table), None)
    if table is not None:
        game = engine.new_game(table, 4, WORLD_NAMES)
        _play(game, 10, random.Random(4))
        for name, image in (
            (
                "maestras_names.png",
                renderer.render(table, game.view(), lang="es", words=samples.GALLERY_WORDS["es"]),
            ),
            (
                "maestras_hand_jose_es.png",
                renderer.render(
                    table,
                    game.view("José Núñez"),
                    hand=True,
                    lang="es",
                    words=samples.GALLERY_WORDS["es"],
                ),
            ),
            (
                "maestras_hand_zoe_it.png",
                renderer.render(
                    table,
                    game.view("Zoë"),
                    hand=True,
                    lang="it",
                    words=samples.GALLERY_WORDS["it"],
                ),
            ),
            ("maestras_hand_cjk.png", renderer.render(table, game.view("王小明"), hand=True)),
        ):
            (out / name).write_bytes(image)
            written.append(f"{out / name} (engine)")
    for game_id, player in (("solitario", "Zoë"), ("solitario", "Жора")):
        view, _ = engine_views(game_id)["mid"]
        path = out / f"{game_id}_race_{'zoe' if player == 'Zoë' else 'zhora'}.png"
        path.write_bytes(
            renderer.render(
                game_id,
                view,
                clock="04:12",
                player=player,
                lang="es",
                words=samples.GALLERY_WORDS["es"],
            )
        )
        written.append(f"{name} (engine)")
    return written


def main(argv: list[str]) -> int:
    if argv[:1] == ["--palette"]:
        print(write_palette())
        return 0
    out = Path(argv[0] if argv else "out/gallery")
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for game_id in registry.drawn_games():
        styles: list[dict[str, Any]] = [{}]
        faces = engine.game_info(game_id).faces
        if len(faces) > 1:  # every face style a player may ask for (Solitario's three)
            styles = [{"faces": f} for f in faces]
        views = {stage: v for stage, (v, _) in engine_views(game_id).items()}
        source = "engine"
        for stage, view in views.items():
            for style in styles:
                suffix = f"_{style['faces']}" if style else ""
                name = out / f"{game_id}_{stage}{suffix}.png"
                name.write_bytes(renderer.render(game_id, view, **style))
                written.append(f"{name} ({source})")
            if stage == "mid":  # what play by buttons looks like: a pick and where it may go
                name = out / f"{game_id}_mid_selected.png"
                name.write_bytes(renderer.render(game_id, view, **_selection(game_id, view)))
                written.append(f"{name} ({source})")
            if "hand" in registry.drawing(game_id).styles:  # a private hand (Cartas Maestras)
                name = out / f"{game_id}_{stage}_hand.png"
                name.write_bytes(renderer.render(game_id, view, hand=True))
                written.append(f"{name} ({source})")
    written += _names_and_races(out)
    written += _seats_and_stages(out)
    written += _phone_positions(out)
    for game_id in registry.drawn_games():
        view, moves = engine_views(game_id)["mid"]
        name = out / f"{game_id}_replay.gif"
        name.write_bytes(renderer.replay(game_id, view["deal"], seats(game_id), None, moves))
        written.append(str(name))
    written += write_phone_sized(out)
    written.append(str(write_summary(out)))
    print("\n".join(written))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

"""``python -m renderer.gallery out/gallery``: a PNG of every game at its start, mid-game and
end (every face style for Solitario), plus one replay GIF. ``python -m renderer.gallery
--palette`` refits the stored board palette to ``sample_sheet()``.

Uses the real engines where ``engine.GAMES`` has them (playing seeded random moves, preferring
foundation/scoring moves, to reach mid-game and the end) and the hand-written views of
``renderer.samples`` otherwise.
"""

from __future__ import annotations

import importlib
import json
import random
import sys
from pathlib import Path
from typing import Any

from PIL import Image

import engine
import renderer
from renderer import registry, samples, theme
from renderer.cards_french import card_back, empty_slot, french_card
from renderer.cards_italian import italian_card, italian_slot
from renderer.cards_squadratik import squadratik_card
from renderer.fonts import text_mask
from renderer.palette import PALETTE_FILE, fit_palette

PLAYERS = {"maestras": ["ana", "bob", "cy"]}
LANDING = {
    "solitario": ("engine.solitario", "Solitario"),
    "canfield": ("engine.canfield", "Canfield"),
}


def engine_class(game_id: str) -> Any:
    """The engine's class for ``game_id``: from ``engine.GAMES``, or straight from its module
    while the game is landing and not registered yet; None when there is no engine."""
    if game_id in engine.GAMES:
        return engine.GAMES[game_id]
    if game_id in LANDING:
        module, name = LANDING[game_id]
        try:
            return getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError):
            return None
    return None


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


def engine_views(game_id: str, deal: int = 3) -> dict[str, tuple[dict, list[str]]]:
    """``stage -> (view, moves so far)`` for start, mid and end from the real engine, on the
    first deal from ``deal`` on whose seeded playout lasts past the middle (a game that ends
    at move 2 makes a poor "mid" picture)."""
    cls = engine_class(game_id)
    players = PLAYERS.get(game_id)
    viewer = players[0] if players else None
    for tried in range(deal, deal + 20):
        rng = random.Random(tried)
        game = cls(tried, players, None)
        out = {"start": (game.view(viewer), [])}
        moves = _play(game, MID, rng)
        out["mid"] = (game.view(viewer), list(moves))
        if not game.is_over:
            break
    moves += _play(game, 2000, rng)
    out["end"] = (game.view(viewer), list(moves))
    return out


def sample_views(game_id: str) -> dict[str, dict]:
    if game_id == "solitario":
        return {stage: samples.solitario_view(stage) for stage in ("start", "mid", "end")}
    if game_id == "canfield":
        return {stage: samples.canfield_view(stage) for stage in ("start", "mid", "end")}
    return {"mid": samples.squadratik_view(game_id)}


def _selection(game_id: str, view: dict[str, Any]) -> dict[str, Any]:
    """A ``selected``/``targets`` style for the gallery: the waste (or first hand card) picked,
    two places ringed as targets."""
    if game_id in ("squadratik", "maestras"):
        from renderer.squadratik_boards import path_targets

        ends = sorted(path_targets(view))[:2]
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
        italian_slot("h", "napoletane"),
        italian_slot("s", "piacentine"),
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
    sheet = Image.new("RGB", (110 * 8, 160 * 4 + 120), theme.TABLE)
    for k, sprite in enumerate(sprites):
        sheet.paste(sprite, (5 + (k % 8) * 110, 5 + (k // 8) * 155), sprite)
    # text as boards draw it: each text colour on each background it appears on
    y = 640
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
    return sheet


def write_palette() -> Path:
    """Refit the board palette to ``sample_sheet()`` and store it (after changing card looks)."""
    PALETTE_FILE.write_text(json.dumps(fit_palette(sample_sheet())) + "\n")
    return PALETTE_FILE


# Player names in several scripts: accented Latin, Cyrillic, Greek, Hebrew, Chinese and an
# emoji (the last two beyond the shipped font: drawn as the visible substitute).
WORLD_NAMES = ["Zoë", "José Núñez", "Жора", "Ωμέγα", "שלום", "王小明", "Ana🎲"]


def _names_and_races(out: Path) -> list[str]:
    """A Cartas Maestras table seated with ``WORLD_NAMES`` (board, and hands in Spanish and
    Italian), and race boards naming their player with the race clock."""
    written = []
    if "maestras" in engine.GAMES:
        game = engine.new_game("maestras", 4, WORLD_NAMES)
        _play(game, 10, random.Random(4))
        for name, image in (
            (
                "maestras_names.png",
                renderer.render(
                    "maestras", game.view(), lang="es", words=samples.GALLERY_WORDS["es"]
                ),
            ),
            (
                "maestras_hand_jose_es.png",
                renderer.render(
                    "maestras",
                    game.view("José Núñez"),
                    hand=True,
                    lang="es",
                    words=samples.GALLERY_WORDS["es"],
                ),
            ),
            (
                "maestras_hand_zoe_it.png",
                renderer.render(
                    "maestras",
                    game.view("Zoë"),
                    hand=True,
                    lang="it",
                    words=samples.GALLERY_WORDS["it"],
                ),
            ),
            ("maestras_hand_cjk.png", renderer.render("maestras", game.view("王小明"), hand=True)),
        ):
            (out / name).write_bytes(image)
            written.append(f"{out / name} (engine)")
    for game_id, player in (("solitario", "Zoë"), ("solitario", "Жора")):
        view, _ = engine_views(game_id)["mid"]
        name = out / f"{game_id}_race_{'zoe' if player == 'Zoë' else 'zhora'}.png"
        name.write_bytes(
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
        cls = engine_class(game_id)
        faces = cls.info.faces if cls is not None else ()
        if len(faces) > 1:  # every face style a player may ask for (Solitario's three)
            styles = [{"faces": f} for f in faces]
        if engine_class(game_id) is not None:
            views = {stage: v for stage, (v, _) in engine_views(game_id).items()}
            source = "engine"
        else:
            views, source = sample_views(game_id), "sample"
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
            if game_id == "maestras":
                name = out / f"{game_id}_{stage}_hand.png"
                name.write_bytes(renderer.render(game_id, view, hand=True))
                written.append(f"{name} ({source})")
    written += _names_and_races(out)
    for game_id in registry.drawn_games():
        if game_id in engine.GAMES:
            view, moves = engine_views(game_id)["mid"]
            name = out / f"{game_id}_replay.gif"
            name.write_bytes(
                renderer.replay(game_id, view["deal"], PLAYERS.get(game_id), None, moves)
            )
            written.append(str(name))
    print("\n".join(written))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

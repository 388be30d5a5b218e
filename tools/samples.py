"""Hand-written views that follow ``docs/views.md`` exactly: gallery pictures for games whose
engine has not landed, and fixtures for the renderer's tests.

>>> solitario_view()["piles"][0]["id"]
's'
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import engine


def _base(game: str, **extra: Any) -> dict[str, Any]:
    view = {
        "game": game,
        "deal": 42,
        "options": {},
        "players": ["you"],
        "viewer": None,
        "current_player": "you",
        "move_number": 0,
        "score": 0,
        "is_over": False,
        "outcome": None,
        "last_move": None,
    }
    view.update(extra)
    return view


def solitario_view(stage: str = "mid") -> dict[str, Any]:
    """Solitario (Italian 40) at ``start``, ``mid`` or ``end`` (won)."""
    if stage == "start":
        tableau = [
            (0, ["Kh"]),
            (1, ["3c"]),
            (2, ["Qd"]),
            (3, ["5s"]),
            (4, ["7h"]),
            (5, ["Jc"]),
            (6, ["2d"]),
        ]
        piles = [
            {"id": "s", "kind": "stock", "down": 9, "cards": []},
            {"id": "w", "kind": "waste", "down": 0, "cards": ["4d", "Ac", "6s"], "show": 3},
        ]
        foundations: list[list[str]] = [[], [], [], []]
        extra = {"move_number": 0, "score": 0, "last_move_piles": []}
    elif stage == "mid":
        tableau = [
            (0, ["Kh", "Qc", "Jd"]),
            (0, []),
            (1, ["Qd", "Jc", "7h", "6s"]),
            (2, ["5s"]),
            (3, ["7d", "6c", "5h", "4c"]),
            (4, ["Kc"]),
            (6, ["2h"]),
        ]
        piles = [
            {"id": "s", "kind": "stock", "down": 5, "cards": []},
            {"id": "w", "kind": "waste", "down": 0, "cards": ["4s", "3h", "7c"], "show": 2},
        ]
        foundations = [["Ad", "2d", "3d"], ["Ah"], [], ["As", "2s"]]
        extra = {
            "move_number": 23,
            "score": 95,
            "last_move_piles": ["w", "3"],
            "last_move": "w3",
            "stock_recycles": 1,
            "score_move": 23,
        }
    else:
        tableau = [(0, []) for _ in range(7)]
        piles = [
            {"id": "s", "kind": "stock", "down": 0, "cards": []},
            {"id": "w", "kind": "waste", "down": 0, "cards": [], "show": 3},
        ]
        ranks = "A234567JQK"
        foundations = [[r + s for r in ranks] for s in "dhcs"]
        extra = {
            "move_number": 131,
            "score": 640,
            "is_over": True,
            "outcome": "won",
            "current_player": None,
            "last_move_piles": ["4", "f4"],
            "last_move": "4f4",
        }
    for k, suit in enumerate("dhcs"):
        piles.append(
            {
                "id": f"f{k + 1}",
                "kind": "foundation",
                "down": 0,
                "cards": foundations[k],
                "suit": suit,
            }
        )
    for k, (down, cards) in enumerate(tableau):
        piles.append({"id": str(k + 1), "kind": "tableau", "down": down, "cards": cards})
    view = _base(
        "solitario", deck="italian40", piles=piles, stalled=False, stock_recycles=0, score_move=0
    )
    view.update(extra)
    return view


def canfield_view(stage: str = "mid") -> dict[str, Any]:
    """Canfield at ``start``, ``mid`` or ``end`` (stalled), base rank 8."""
    if stage == "start":
        reserve, stock, waste = (12, ["9c"]), 34, []
        found = [["8h"], [], [], []]
        tableau = [["4d"], ["Ks"], ["Tc"], ["2h"]]
        extra = {"move_number": 0, "score": -45, "dollars": -45, "last_move_piles": []}
    elif stage == "mid":
        reserve, stock, waste = (7, ["Jd"]), 16, ["3s", "Qh", "5c"]
        found = [["8h", "9h"], ["8s", "9s", "Ts"], ["8d"], []]
        tableau = [["4d", "3c", "2h"], ["Ks", "Qd", "Jc", "Th", "9c"], ["Ac"], ["7h", "6s"]]
        extra = {
            "move_number": 37,
            "score": -15,
            "dollars": -15,
            "last_move_piles": ["r", "4"],
            "last_move": "r4",
        }
    else:
        reserve, stock, waste = (3, ["4h"]), 0, ["Ad", "Qs", "6d", "2c", "Jh", "5s", "9d"]
        found = [["8h", "9h", "Th"], ["8s", "9s", "Ts", "Js"], ["8d", "9d"], ["8c"]]
        tableau = [["7d", "6c"], ["Kc", "Qh"], ["5h", "4s", "3d"], ["2s"]]
        extra = {
            "move_number": 88,
            "score": 0,
            "dollars": 0,
            "is_over": True,
            "outcome": "stalled",
            "stalled": True,
            "current_player": None,
            "last_move_piles": ["s", "w"],
            "last_move": "s",
        }
    piles = [
        {"id": "s", "kind": "stock", "down": stock, "cards": []},
        {"id": "w", "kind": "waste", "down": 0, "cards": waste, "show": 3},
        {"id": "r", "kind": "reserve", "down": reserve[0], "cards": reserve[1]},
    ]
    for k, cards in enumerate(found):
        piles.append({"id": f"f{k + 1}", "kind": "foundation", "down": 0, "cards": cards})
    for k, cards in enumerate(tableau):
        piles.append({"id": str(k + 1), "kind": "tableau", "down": 0, "cards": cards})
    view = _base("canfield", deck="french52", piles=piles, stalled=False, base_rank=8, redeals=1)
    view.update(extra)
    return view


def sq_card(card_id: int, kind: str, sides: list[str], rotation: int = 0) -> dict[str, Any]:
    """A Squadratik card dict as views carry it."""
    points = sum(int(s[1:]) for s in sides if s != "0") if kind == "normal" else 0
    return {"id": card_id, "kind": kind, "sides": sides, "rotation": rotation, "points": points}


CENTRAL = sq_card(0, "central", ["0"] * 4)


def squadratik_view(game: str = "squadratik") -> dict[str, Any]:
    """A mid-game Squadratik board with two paths (one turning after an empty card)."""
    board = [
        {"x": 0, "y": 0, "card": CENTRAL, "path": None},
        {"x": 0, "y": -1, "card": sq_card(20, "normal", ["R1", "B2", "0", "R3"]), "path": "N"},
        {"x": 0, "y": -2, "card": sq_card(3, "empty", ["0"] * 4), "path": "N"},
        {"x": 1, "y": 0, "card": sq_card(9, "master", ["R3", "R4", "R1", "R2"], 1), "path": "E"},
    ]
    paths = {
        "N": {
            "open": True,
            "cells": [[0, -1], [0, -2]],
            "ends": ["N", "N>e", "N>w"],
            "after_empty": 0,
        },
        "E": {"open": True, "cells": [[1, 0]], "ends": ["E"], "after_empty": 1},
        "S": None,
        "W": None,
    }
    hand = [
        sq_card(31, "normal", ["B4", "R1", "0", "B2"]),
        sq_card(5, "empty", ["0"] * 4),
        sq_card(12, "master", ["B2", "B3", "B4", "B1"]),
        sq_card(40, "normal", ["R2", "R2", "B1", "0"]),
    ]
    view = _base(
        game,
        board=board,
        paths=paths,
        hand=hand,
        stock=30,
        removed_points=12,
        last_move_cells=[[0, -2]],
        move_number=7,
        last_move="2N",
        score=12,
    )
    if engine.game_info(game).table:
        view.update(
            players=["ana", "bob", "cy"],
            viewer="ana",
            current_player="bob",
            phase="main",
            removed_points=None,
            results=None,
            seats=[
                {"player": "ana", "hand": 4, "masters": 1, "cards": 5, "timeouts": 0},
                {"player": "bob", "hand": 4, "masters": 0, "cards": 0, "timeouts": 0},
                {"player": "cy", "hand": 3, "masters": 2, "cards": 9, "timeouts": 1},
            ],
        )
        view.pop("removed_points")
    return view


#: Board words in Spanish and Italian for pictures drawn without the bot (the gallery). Players
#: only ever see the bot's catalogue words (``board.word.*``), which the bot passes to
#: ``render(..., words=...)``; a test keeps these equal to the catalogues. The games' titles
#: are not here: the drawing reads them from the games (``GameInfo.title``).
GALLERY_WORDS: dict[str, dict[str, str]] = {
    "es": {
        "score": "Puntos",
        "moves": "Jugadas",
        "stock": "Mazo",
        "waste": "Descarte",
        "reserve": "Reserva",
        "turned": "Girada",
        "next": "sig.",
        "deal": "Reparto",
        "won": "¡Ganada!",
        "lost": "Perdida",
        "stalled": "Bloqueada: sin más progreso",
        "resigned": "Abandonada",
        "completo": "¡Solitario completo!",
        "played_out": "¡Solitario!",
        "finished": "Fin de la partida",
        "hand": "Mano",
        "masters": "Maestras",
        "cards": "Cartas",
        "turn": "juega",
        "points": "Puntos",
        "your_hand": "Mano de",
        "place": "Puesto",
        "done": "hecha",
        "redeals": "Vueltas",
        "final": "Fase final",
        "empty_hand": "Sin cartas en la mano",
    },
    "it": {
        "score": "Punti",
        "moves": "Mosse",
        "stock": "Tallone",
        "waste": "Mazzetto",
        "reserve": "Riserva",
        "turned": "Girata",
        "next": "pross.",
        "deal": "Smazzata",
        "won": "Vinta!",
        "lost": "Persa",
        "stalled": "Stallo: nessun progresso possibile",
        "resigned": "Abbandonata",
        "completo": "Solitario completo!",
        "played_out": "Solitario!",
        "finished": "Partita finita",
        "hand": "Mano",
        "masters": "Maestre",
        "cards": "Carte",
        "turn": "di turno",
        "points": "Punti",
        "your_hand": "Mano di",
        "place": "Posto",
        "done": "finita",
        "redeals": "Giri",
        "final": "Fase finale",
        "empty_hand": "Nessuna carta in mano",
    },
}


def longest_path(view: Mapping[str, Any]) -> int:
    """How many cards the longest path of a Squadratik view holds."""
    return max((len(p["cells"]) for p in (view.get("paths") or {}).values() if p), default=0)


def long_path_playout(
    game_id: str, deal: int, players: Sequence[str] | None = None, moves: int = 400
) -> Iterator[Mapping[str, Any]]:
    """The public view of every position of a Squadratik game (El Solitario or Cartas
    Maestras) played to grow long paths: each move goes on the longest path it can and never
    adds a path's fourth card after its last empty card while another move is left (that
    would complete it and clear it away), ties broken by a seeded choice. Random play
    completes paths early; this reaches the 11-15-card paths of long games."""
    import random

    import engine  # the renderer's samples may play the engine (never the bot)

    game = engine.new_game(game_id, deal, list(players) if players else None)
    rng = random.Random(deal)
    yield game.view()
    for _ in range(moves):
        legal = game.legal_moves()
        if game.is_over or not legal:
            return
        view: Mapping[str, Any] = game.view()
        paths: Mapping[str, Any] = view.get("paths") or {}

        def rank(move: Any, paths: Mapping[str, Any] = paths) -> tuple[int, int, float]:
            if move.dst is None:  # pass, stop
                return (-1, 0, rng.random())
            path = paths.get(str(move.dst)[0])
            if not path:
                return (1, 0, rng.random())
            completes = path["after_empty"] >= 3
            return (0 if completes else 1, len(path["cells"]), rng.random())

        game.play(max(legal, key=rank))
        yield game.view()


#: Cartas Maestras tables (seats, deal) and the El Solitario deal whose long-path playouts
#: (``long_path_playout``) grow the longest paths among the first 30 deals: 11, 13, 7, 7 and
#: 15 cards
LONG_TABLES = ((2, 22), (3, 0), (4, 27), (8, 19))
LONG_SOLO_DEAL = 25


def phone_positions() -> list[tuple[str, str, Mapping[str, Any]]]:
    """``(name, game id, public view)`` of the boards a phone must read: Cartas Maestras at
    2, 3, 4 and 8 seats early (move 3), mid-game with its longest path, late (the last move
    before the end) and over; El Solitario early, with its longest paths, and finished."""
    positions: list[tuple[str, str, Mapping[str, Any]]] = []
    for seats, deal in LONG_TABLES:
        players = [f"Player {k + 1}" for k in range(seats)]
        views = list(long_path_playout("maestras", deal, players))
        longest = max(range(len(views)), key=lambda k: longest_path(views[k]))
        stages = {"early": 3, "long": longest, "late": len(views) - 2, "over": len(views) - 1}
        for stage, index in stages.items():
            positions.append((f"maestras_{seats}seats_{stage}", "maestras", views[index]))
    views = list(long_path_playout("squadratik", LONG_SOLO_DEAL))
    longest = max(range(len(views)), key=lambda k: longest_path(views[k]))
    for stage, index in {"early": 3, "long": longest, "finished": len(views) - 1}.items():
        positions.append((f"squadratik_{stage}", "squadratik", views[index]))
    return positions

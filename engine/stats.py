"""Play many Squadratik deals with a computer strategy and print figures as JSON.

``python -m engine.stats --game squadratik|maestras --deals N --strategy greedy|careful|random
[--seats 2,4,8] [--first-deal 0]``

``python -m engine.stats --balance [--deals N] [--solver-deals M] [--solver-nodes K]`` prints the
balance figures of docs/squadratik-deck.md at once: El Solitario for the greedy, careful (the
best player that sees only its seat) and random strategies, the solver's share of completo
lines (full knowledge of the deal, a fixed node budget per deal, so a run repeats), and Cartas
Maestras with 2, 4 and 8 greedy seats.

El Solitario: the share of deals ending completo / played out / lost, the share where the hand
was emptied (completo or played out), the share lost with cards still in the stock
(``stuck_with_stock``), the mean points removed and the mean number of moves. Cartas Maestras, for each seat count (every seat plays the same
strategy): mean moves (turns) in all and in the main phase, how often the main phase ends by
a stall (stock empty, a full round without a placement) rather than with every master won,
mean masters won per seat (in turn order) and how often the first seat wins outright.

The random strategy is seeded with the deal number, so a run repeats exactly.

>>> figures = el_solitario_stats(deals=3, strategy="random")
>>> sorted(figures)
['completo', 'deals', 'game', 'hand_emptied', 'lost', 'mean_moves', 'mean_points', 'played_out', 'strategy', 'stuck_with_stock']
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Sequence
from typing import Any

import engine
from engine.players import STRATEGIES, make_player
from engine.squadratik.deck import MASTER_IDS
from engine.squadratik.el_solitario import ElSolitario
from engine.squadratik.maestras import CartasMaestras


def el_solitario_stats(deals: int, strategy: str, first_deal: int = 0) -> dict[str, Any]:
    """Figures for El Solitario over ``deals`` consecutive deal numbers."""
    endings: Counter[str] = Counter()
    points = moves = stuck_with_stock = 0
    for deal in range(first_deal, first_deal + deals):
        game = ElSolitario(deal=deal)
        bot = make_player(strategy, seed=deal)
        while not game.is_over:
            game.play(bot.choose(game))
        endings[str(game.outcome)] += 1
        stuck_with_stock += str(game.outcome) == "lost" and len(game.stock) > 0
        points += game.score
        moves += game.move_number
    return {
        "game": "squadratik",
        "strategy": strategy,
        "deals": deals,
        "completo": round(endings["completo"] / deals, 4),
        "played_out": round(endings["played_out"] / deals, 4),
        "lost": round(endings["lost"] / deals, 4),
        "hand_emptied": round((endings["completo"] + endings["played_out"]) / deals, 4),
        "stuck_with_stock": round(stuck_with_stock / deals, 4),
        "mean_points": round(points / deals, 2),
        "mean_moves": round(moves / deals, 2),
    }


def maestras_stats(deals: int, strategy: str, seats: int, first_deal: int = 0) -> dict[str, Any]:
    """Figures for Cartas Maestras with ``seats`` players over ``deals`` deal numbers."""
    players = [f"p{i}" for i in range(1, seats + 1)]
    total_moves = main_moves = stalls = first_seat_wins = 0
    masters = [0] * seats
    for deal in range(first_deal, first_deal + deals):
        game = engine.new_game("maestras", deal=deal, players=players)
        bot = make_player(strategy, seed=deal)
        while not game.is_over:
            game.play(bot.choose(game, game.current_player))
            if game.phase == "main":  # type: ignore[attr-defined]
                main_moves += 1
        main_moves += 1  # the move that ended the main phase
        total_moves += game.move_number
        won = game.masters_won  # type: ignore[attr-defined]
        stalls += sum(won) < len(MASTER_IDS)
        masters = [a + b for a, b in zip(masters, won, strict=True)]
        places = game.results()  # type: ignore[attr-defined]
        first_seat_wins += (
            sum(1 for r in places if r["place"] == 1) == 1 and places[0]["player"] == "p1"
        )
    return {
        "seats": seats,
        "mean_moves": round(total_moves / deals, 2),
        "mean_main_phase_moves": round(main_moves / deals, 2),
        "stall_share": round(stalls / deals, 4),
        "masters_won_per_seat": [round(m / deals, 3) for m in masters],
        "first_seat_wins_alone": round(first_seat_wins / deals, 4),
    }


def solver_stats(deals: int, nodes: int, first_deal: int = 0) -> dict[str, Any]:
    """The El Solitario solver over ``deals`` deal numbers at ``nodes`` positions per deal: the
    share of deals where it found a completo line, and its best result otherwise."""
    from engine.solvers import Budget, solve

    best: Counter[str] = Counter()
    for deal in range(first_deal, first_deal + deals):
        result = solve("squadratik", deal, budget=Budget(nodes=nodes, seconds=None))
        best[str(result.outcome)] += 1
    return {
        "game": "squadratik",
        "strategy": "solver",
        "deals": deals,
        "nodes_per_deal": nodes,
        "completo": round(best["completo"] / deals, 4),
        "best_played_out": round(best["played_out"] / deals, 4),
        "best_lost_or_none": round((deals - best["completo"] - best["played_out"]) / deals, 4),
    }


def balance_report(deals: int, solver_deals: int, solver_nodes: int) -> dict[str, Any]:
    """Every figure of the El Solitario and Cartas Maestras balance (docs/squadratik-deck.md)."""
    return {
        "el_solitario": [el_solitario_stats(deals, s) for s in ("greedy", "careful", "random")]
        + [solver_stats(solver_deals, solver_nodes)],
        "cartas_maestras": [maestras_stats(deals, "greedy", seats) for seats in (2, 4, 8)],
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m engine.stats", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--game", choices=(ElSolitario.game_id, CartasMaestras.game_id))
    parser.add_argument("--balance", action="store_true", help="every balance figure at once")
    parser.add_argument("--solver-deals", type=int, default=100)
    parser.add_argument("--solver-nodes", type=int, default=20_000)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--strategy", choices=STRATEGIES, default="greedy")
    parser.add_argument("--seats", default="2,4,8", help="Cartas Maestras seat counts, e.g. 2,4,8")
    parser.add_argument("--first-deal", type=int, default=0)
    args = parser.parse_args(argv)
    if args.deals <= 0 or args.solver_deals <= 0 or args.solver_nodes <= 0:
        parser.error("--deals, --solver-deals and --solver-nodes must be positive")
    if args.balance:
        report = balance_report(args.deals, args.solver_deals, args.solver_nodes)
    elif args.game is None:
        parser.error("give --game or --balance")
    elif args.game == ElSolitario.game_id:
        report = el_solitario_stats(args.deals, args.strategy, args.first_deal)
    else:
        seat_counts = [int(s) for s in args.seats.split(",") if s.strip()]
        if any(not 2 <= s <= 8 for s in seat_counts):
            parser.error("--seats: each count must be 2-8")
        report = {
            "game": "maestras",
            "strategy": args.strategy,
            "deals": args.deals,
            "by_seats": [
                maestras_stats(args.deals, args.strategy, s, args.first_deal) for s in seat_counts
            ],
        }
    json.dump(report, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

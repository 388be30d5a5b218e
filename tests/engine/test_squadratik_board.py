"""Squadratik board geometry and paths (games.md §4): hand-built boards via Board.from_paths.

``Board.from_paths({"N": [(card, rotation), (card, rotation, turn), ...]})`` lays cards out
with the real geometry rules but without link checks, so a position is one line.
"""

import pytest

from engine.game import IllegalMove
from engine.squadratik.board import Board

EMPTY, OTHER_EMPTY = 1, 2
# normal cards used below (printed sides N E S W)
C20 = 20  # R2 R2 R4 B4
C25 = 25  # R4 R4 R2 R4
C18 = 18  # R2 R4 R4 R4
C37 = 37  # B2 R4 R4 R2
C42 = 42  # B4 B2 R2 B2


def test_central_card_is_at_the_origin_and_paths_start_on_its_four_sides():
    board = Board()
    assert list(board.cells) == [(0, 0)] and board.paths == dict.fromkeys("NESW")
    cells = {side: board.target(side, None).cell for side in "NESW"}
    # x grows east, y grows south
    assert cells == {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


def test_a_path_grows_in_a_straight_row():
    board = Board.from_paths({"N": [(C20, 0), (C25, 0)], "W": [(C18, 0)]})
    assert board.paths["N"].cells == ((0, -1), (0, -2))
    assert board.target("N", None).cell == (0, -3)
    assert board.target("W", None).cell == (-2, 0)


def test_the_path_may_turn_right_after_a_placed_empty_card():
    board = Board.from_paths({"N": [(C20, 0), (EMPTY, 0)]})
    assert board.target("N", "E").cell == (1, -2)
    assert board.target("N", "W").cell == (-1, -2)
    assert board.target("N", None).cell == (0, -3)
    turned = Board.from_paths({"N": [(C20, 0), (EMPTY, 0), (C25, 0, "E"), (C18, 0)]})
    assert turned.paths["N"].cells == ((0, -1), (0, -2), (1, -2), (2, -2))
    assert turned.paths["N"].direction == "E"


def test_no_turn_after_a_normal_card():
    board = Board.from_paths({"N": [(C20, 0)]})
    with pytest.raises(IllegalMove) as refused:
        board.target("N", "E")
    assert refused.value.reason == "not_in_line"


def test_no_turn_at_the_central_card():
    with pytest.raises(IllegalMove) as refused:
        Board().target("N", "E")
    assert refused.value.reason == "not_in_line"


def test_a_path_cannot_turn_back_on_itself():
    board = Board.from_paths({"N": [(C20, 0), (EMPTY, 0)]})
    with pytest.raises(IllegalMove) as refused:
        board.target("N", "S")
    assert refused.value.reason == "not_in_line"


def test_a_new_card_may_not_touch_a_second_card():
    # path E turns north at its empty card into (1, -1), which is next to (0, -1):
    # the first card of path N would touch two cards
    board = Board.from_paths({"E": [(EMPTY, 0), (C20, 0, "N")]})
    with pytest.raises(IllegalMove) as refused:
        board.target("N", None)
    assert refused.value.reason == "touches_two_cards"
    # and the same rule stops a turn next to another path's card
    board = Board.from_paths({"E": [(C20, 0)], "N": [(EMPTY, 0)]})
    with pytest.raises(IllegalMove) as refused:
        board.target("N", "E")
    assert refused.value.reason == "touches_two_cards"


def test_targets_list_only_free_places():
    board = Board.from_paths({"E": [(C20, 0)], "N": [(EMPTY, 0)]})
    assert [t.dst for t in board.targets("N")] == ["N", "N>w"]
    assert [t.dst for t in board.targets("S")] == ["S"]


def test_touching_sides_must_link():
    board = Board.from_paths({"N": [(C20, 0)]})  # N side R2
    target = board.target("N", None)
    assert board.links(target, C25, 0)  # its S is R2
    assert not board.links(target, 28, 0)  # its S is B2: same count, other colour
    assert not board.links(target, C18, 0)  # its S is R4: same colour, other count
    board = Board.from_paths({"N": [(C42, 0)]})  # N side B4
    assert not board.links(board.target("N", None), C25, 0)  # S R2 against B4


def test_an_empty_card_links_with_anything_either_way():
    board = Board.from_paths({"N": [(EMPTY, 0)]})
    assert all(board.links(board.target("N", None), card, 0) for card in range(7, 47))
    board = Board.from_paths({"N": [(C42, 0)]})
    assert board.links(board.target("N", None), OTHER_EMPTY, 0)


def test_any_card_links_with_the_central_card():
    board = Board()
    assert all(
        board.links(board.target("E", None), card, r) for card in range(1, 47) for r in range(4)
    )


def test_four_non_empty_cards_complete_a_path_the_central_card_counting_as_first_empty():
    board = Board.from_paths({"N": [(C20, 0), (C25, 0), (C18, 0)]})
    assert board.paths["N"].after_empty == 3 and not board.paths["N"].complete
    path = board.place(board.target("N", None), C37, 0)
    assert path.after_empty == 4 and path.complete


def test_after_an_empty_card_four_new_links_are_needed():
    board = Board.from_paths({"N": [(C20, 0), (C25, 0), (EMPTY, 0), (C18, 0), (C37, 0)]})
    assert board.paths["N"].after_empty == 2 and not board.paths["N"].complete
    board.place(board.target("N", None), 30, 0)
    path = board.place(board.target("N", None), 31, 0)
    assert path.after_empty == 4 and path.complete and len(path.cells) == 7


def test_an_empty_first_card_does_not_count_as_a_link():
    board = Board.from_paths({"S": [(EMPTY, 0), (C20, 0), (C25, 0), (C18, 0)]})
    assert board.paths["S"].after_empty == 3 and not board.paths["S"].complete


def test_removing_a_path_takes_every_card_back_to_the_central_card_and_frees_the_side():
    board = Board.from_paths(
        {"N": [(C20, 0), (EMPTY, 0), (C25, 0, "E"), (C18, 0)], "S": [(C42, 0)]}
    )
    removed = board.remove_path("N")
    assert removed == [C20, EMPTY, C25, C18]
    assert board.paths["N"] is None and board.paths["S"] is not None
    assert set(board.cells) == {(0, 0), (0, 1)}
    assert board.target("N", None).cell == (0, -1)


def test_view_lists_cells_paths_and_their_ends():
    board = Board.from_paths({"N": [(C20, 1), (EMPTY, 0)]})
    cells, paths = board.to_view()
    assert cells[0] == {
        "x": 0,
        "y": -2,
        "path": "N",
        "card": {
            "id": 1,
            "kind": "empty",
            "sides": ["0", "0", "0", "0"],
            "rotation": 0,
            "points": 0,
        },
    }
    assert cells[1]["card"]["rotation"] == 1 and cells[2]["card"]["kind"] == "central"
    assert paths["E"] is None
    assert paths["N"] == {
        "open": True,
        "cells": [[0, -1], [0, -2]],
        "ends": ["N", "N>e", "N>w"],
        "after_empty": 0,
    }


def test_text_picture_shows_every_card_where_it_lies():
    board = Board.from_paths({"E": [(C20, 0)], "N": [(7, 0)]})
    picture = board.render().splitlines()
    assert picture[0].strip() == "*R2 R4 B2 B4"
    assert picture[1].startswith("[ centre ]") and picture[1].endswith("R2 R2 R4 B4")

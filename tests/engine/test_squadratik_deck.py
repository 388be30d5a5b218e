"""The 47 Squadratik cards (games.md §4): composition, ids, rotation, linking, points."""

from collections import Counter

from engine.squadratik.deck import (
    DECK,
    EMPTY_IDS,
    MASTER_IDS,
    NORMAL_IDS,
    SIDE_LIST,
    Kind,
    deck_for_players,
    placed_side,
    placed_sides,
    sides_link,
)


def test_the_deck_has_47_cards_one_central_six_empties_eight_masters_32_normals():
    kinds = Counter(card.kind for card in DECK)
    assert len(DECK) == 47
    assert kinds == {Kind.CENTRAL: 1, Kind.EMPTY: 6, Kind.MASTER: 8, Kind.NORMAL: 32}
    assert [card.id for card in DECK] == list(range(47))
    assert DECK[0].kind is Kind.CENTRAL
    assert all(DECK[i].kind is Kind.EMPTY for i in EMPTY_IDS) and tuple(range(1, 7)) == EMPTY_IDS
    assert all(DECK[i].kind is Kind.MASTER for i in MASTER_IDS) and tuple(range(7, 15)) == MASTER_IDS
    assert all(DECK[i].kind is Kind.NORMAL for i in NORMAL_IDS) and tuple(range(15, 47)) == NORMAL_IDS


def test_side_list_has_the_listed_value_counts_in_order():
    assert len(SIDE_LIST) == 32
    assert SIDE_LIST[:4] == ("0",) * 4 and SIDE_LIST[-3:] == ("B4",) * 3
    assert Counter(SIDE_LIST) == {
        "0": 4, "R1": 4, "B1": 4, "R2": 4, "B2": 4, "R3": 3, "B3": 3, "R4": 3, "B4": 3,
    }


def test_each_side_position_of_the_normal_cards_shows_every_value_as_often_as_the_list():
    normals = [DECK[i] for i in NORMAL_IDS]
    for position in range(4):
        assert Counter(card.sides[position] for card in normals) == Counter(SIDE_LIST)


def test_normal_cards_follow_the_index_formula():
    for i in range(32):
        card = DECK[15 + i]
        assert card.sides == (
            SIDE_LIST[i],
            SIDE_LIST[(5 * i + 7) % 32],
            SIDE_LIST[(13 * i + 3) % 32],
            SIDE_LIST[(21 * i + 11) % 32],
        )


def test_no_two_normal_cards_are_the_same():
    assert len({DECK[i].sides for i in NORMAL_IDS}) == 32


def test_masters_show_one_to_four_balls_rotated_left_in_one_colour():
    assert [DECK[i].sides for i in MASTER_IDS] == [
        ("R1", "R2", "R3", "R4"), ("R2", "R3", "R4", "R1"),
        ("R3", "R4", "R1", "R2"), ("R4", "R1", "R2", "R3"),
        ("B1", "B2", "B3", "B4"), ("B2", "B3", "B4", "B1"),
        ("B3", "B4", "B1", "B2"), ("B4", "B1", "B2", "B3"),
    ]


def test_points_are_total_balls_on_normal_cards_only():
    assert DECK[19].sides == ("R1", "R4", "B3", "B4") and DECK[19].points == 12
    assert DECK[15].points == 2  # blank, R1, blank, B1
    assert all(DECK[i].points == 0 for i in (0, *EMPTY_IDS, *MASTER_IDS))
    assert sum(DECK[i].points for i in NORMAL_IDS) == sum(
        int(v[1]) for v in SIDE_LIST if v != "0"
    ) * 4


def test_empty_and_central_cards_show_nothing():
    for i in (0, *EMPTY_IDS):
        assert DECK[i].sides == ("0", "0", "0", "0") and DECK[i].is_empty


def test_a_quarter_turn_clockwise_brings_the_west_side_on_top():
    assert placed_sides(19, 0) == ("R1", "R4", "B3", "B4")
    assert placed_sides(19, 1) == ("B4", "R1", "R4", "B3")
    assert placed_sides(19, 2) == ("B3", "B4", "R1", "R4")
    assert placed_sides(19, 3) == ("R4", "B3", "B4", "R1")
    # the views.md formula: placed N = printed[(4 - r) % 4]
    for r in range(4):
        assert placed_side(19, r, "N") == DECK[19].sides[(4 - r) % 4]


def test_same_count_same_colour_links():
    # card 20 has S = R1; card 25 has N = B1, card 21 has N = R1
    assert sides_link(DECK[20], 0, "S", DECK[21], 0)  # R1 against R1
    assert not sides_link(DECK[20], 0, "S", DECK[25], 0)  # R1 against B1: colour differs
    assert not sides_link(DECK[20], 0, "S", DECK[28], 0)  # R1 against R2: count differs


def test_blank_links_blank_but_not_balls():
    # card 16: N blank; card 42: S blank; card 20: S = R1
    assert sides_link(DECK[16], 0, "N", DECK[42], 0)
    assert not sides_link(DECK[20], 0, "S", DECK[16], 0)


def test_an_empty_card_links_with_anything_on_every_side():
    for side in "NESW":
        for other in NORMAL_IDS + MASTER_IDS:
            assert sides_link(DECK[1], 0, side, DECK[other], 0)
            assert sides_link(DECK[other], 3, side, DECK[0], 0)


def test_rotation_decides_which_side_links():
    # master 7 (R1 R2 R3 R4): its S (R3) does not meet card 20's N (R1) unrotated,
    # but after two quarter turns its S shows R1
    assert not sides_link(DECK[20], 0, "N", DECK[7], 0)
    assert sides_link(DECK[20], 0, "N", DECK[7], 2)


def test_cartas_maestras_removes_three_or_five_empties_by_player_count():
    for players, in_play in ((2, 43), (3, 43), (6, 43), (7, 43), (4, 41), (5, 41), (8, 41)):
        ids = deck_for_players(players)
        assert len(ids) - 1 == in_play  # the central card is not counted
        assert 0 in ids and all(i in ids for i in MASTER_IDS + NORMAL_IDS)
    assert deck_for_players(None) == list(range(47))

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

#: sha256 of every card (id, kind, sides, points): see test_the_deck_is_pinned_card_by_card
DECK_DIGEST = "b4726797570b98fe8cf418f19cb127e2f503b3f408371e6806bbc8a56f708858"


def test_the_deck_has_47_cards_one_central_six_empties_eight_masters_32_normals():
    kinds = Counter(card.kind for card in DECK)
    assert len(DECK) == 47
    assert kinds == {Kind.CENTRAL: 1, Kind.EMPTY: 6, Kind.MASTER: 8, Kind.NORMAL: 32}
    assert [card.id for card in DECK] == list(range(47))
    assert DECK[0].kind is Kind.CENTRAL
    assert all(DECK[i].kind is Kind.EMPTY for i in EMPTY_IDS) and tuple(range(1, 7)) == EMPTY_IDS
    assert (
        all(DECK[i].kind is Kind.MASTER for i in MASTER_IDS) and tuple(range(7, 15)) == MASTER_IDS
    )
    assert (
        all(DECK[i].kind is Kind.NORMAL for i in NORMAL_IDS) and tuple(range(15, 47)) == NORMAL_IDS
    )


def test_side_list_has_the_listed_value_counts_in_order():
    # docs/squadratik-deck.md: mostly two or four balls, one blank per side position
    assert len(SIDE_LIST) == 32
    assert SIDE_LIST[:2] == ("0", "R2") and SIDE_LIST[-1] == "B4"
    assert Counter(SIDE_LIST) == {"0": 1, "R2": 9, "R4": 7, "B2": 8, "B4": 7}


def test_each_side_position_of_the_normal_cards_shows_every_value_as_often_as_the_list():
    normals = [DECK[i] for i in NORMAL_IDS]
    for position in range(4):
        assert Counter(card.sides[position] for card in normals) == Counter(SIDE_LIST)


def test_normal_cards_follow_the_index_formula():
    for i in range(32):
        card = DECK[15 + i]
        assert card.sides == (
            SIDE_LIST[i],
            SIDE_LIST[(27 * i + 29) % 32],
            SIDE_LIST[(17 * i + 26) % 32],
            SIDE_LIST[(23 * i + 8) % 32],
        )


def test_the_deck_is_pinned_card_by_card():
    # Any change to a side, a kind or a card's id changes this digest: a new deck must be a
    # deliberate change (docs/squadratik-deck.md, the balance figures, this pin).
    import hashlib

    text = ";".join(f"{card.id}:{card.kind}:{','.join(card.sides)}:{card.points}" for card in DECK)
    assert hashlib.sha256(text.encode()).hexdigest() == DECK_DIGEST


def test_no_two_normal_cards_are_the_same():
    assert len({DECK[i].sides for i in NORMAL_IDS}) == 32


def test_masters_show_two_and_four_balls_in_both_colours_rotated_left():
    assert [DECK[i].sides for i in MASTER_IDS] == [
        ("R2", "R4", "B2", "B4"),
        ("R4", "B2", "B4", "R2"),
        ("B2", "B4", "R2", "R4"),
        ("B4", "R2", "R4", "B2"),
        ("B2", "R2", "B4", "R4"),
        ("R2", "B4", "R4", "B2"),
        ("B4", "R4", "B2", "R2"),
        ("R4", "B2", "R2", "B4"),
    ]
    # every side a master shows is also shown by normal cards: a master is never a dead end
    normal_sides = {side for i in NORMAL_IDS for side in DECK[i].sides}
    assert all(set(DECK[i].sides) <= normal_sides for i in MASTER_IDS)


def test_points_are_total_balls_on_normal_cards_only():
    assert DECK[16].sides == ("R2", "B2", "R4", "B4") and DECK[16].points == 12
    assert DECK[15].points == 10  # blank, B4, B4, R2
    assert all(DECK[i].points == 0 for i in (0, *EMPTY_IDS, *MASTER_IDS))
    assert (
        sum(DECK[i].points for i in NORMAL_IDS) == sum(int(v[1]) for v in SIDE_LIST if v != "0") * 4
    )


def test_empty_and_central_cards_show_nothing():
    for i in (0, *EMPTY_IDS):
        assert DECK[i].sides == ("0", "0", "0", "0") and DECK[i].is_empty


def test_a_quarter_turn_clockwise_brings_the_west_side_on_top():
    assert placed_sides(16, 0) == ("R2", "B2", "R4", "B4")
    assert placed_sides(16, 1) == ("B4", "R2", "B2", "R4")
    assert placed_sides(16, 2) == ("R4", "B4", "R2", "B2")
    assert placed_sides(16, 3) == ("B2", "R4", "B4", "R2")
    # the views.md formula: placed N = printed[(4 - r) % 4]
    for r in range(4):
        assert placed_side(16, r, "N") == DECK[16].sides[(4 - r) % 4]


def test_same_count_same_colour_links():
    # card 18 has S = R4; card 25 has N = R4, card 34 has N = B2, card 16 has N = R2
    assert sides_link(DECK[18], 0, "S", DECK[25], 0)  # R4 against R4
    assert not sides_link(DECK[18], 0, "S", DECK[41], 0)  # R4 against B4: colour differs
    assert not sides_link(DECK[18], 0, "S", DECK[16], 0)  # R4 against R2: count differs


def test_blank_links_blank_but_not_balls():
    # card 15: N blank; card 21: S blank; card 18: S = R4
    assert sides_link(DECK[15], 0, "N", DECK[21], 0)
    assert not sides_link(DECK[18], 0, "S", DECK[15], 0)


def test_an_empty_card_links_with_anything_on_every_side():
    for side in "NESW":
        for other in NORMAL_IDS + MASTER_IDS:
            assert sides_link(DECK[1], 0, side, DECK[other], 0)
            assert sides_link(DECK[other], 3, side, DECK[0], 0)


def test_rotation_decides_which_side_links():
    # master 7 (R2 R4 B2 B4): its S (B2) does not meet card 16's N (R2) unrotated,
    # but after two quarter turns its S shows R2
    assert not sides_link(DECK[16], 0, "N", DECK[7], 0)
    assert sides_link(DECK[16], 0, "N", DECK[7], 2)


def test_cartas_maestras_removes_three_or_five_empties_by_player_count():
    for players, in_play in ((2, 43), (3, 43), (6, 43), (7, 43), (4, 41), (5, 41), (8, 41)):
        ids = deck_for_players(players)
        assert len(ids) - 1 == in_play  # the central card is not counted
        assert 0 in ids and all(i in ids for i in MASTER_IDS + NORMAL_IDS)
    assert deck_for_players(None) == list(range(47))

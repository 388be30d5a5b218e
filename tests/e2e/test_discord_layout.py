"""The adapter's translation helpers that need no server: button layout, board ids, settings."""

from __future__ import annotations

from types import SimpleNamespace

from bot.platforms.discord import DiscordConfig, build_view, decode_board, encode_board
from bot.replies import Button


def _rows(buttons: list[Button]) -> list[list[str]]:
    view = build_view(buttons)
    assert view is not None
    rows: dict[int, list[str]] = {}
    for item in view.children:
        rows.setdefault(item.row or 0, []).append(item.custom_id)  # type: ignore[attr-defined]
    return [rows[r] for r in sorted(rows)]


def test_long_core_rows_wrap_at_five_and_keep_their_order() -> None:
    buttons = [Button(f"v1:mv:s1:0:{i}", str(i), row=0) for i in range(12)]
    buttons.append(Button("v1:undo:s1:0:", "Undo", row=1))
    rows = _rows(buttons)
    assert [len(r) for r in rows] == [5, 5, 2, 1]
    assert rows[-1] == ["v1:undo:s1:0:"]


def test_more_than_25_buttons_keep_the_first_five_rows() -> None:
    buttons = [Button(f"v1:mv:s1:0:{i}", str(i), row=i // 5) for i in range(30)]
    rows = _rows(buttons)
    assert len(rows) == 5 and rows[-1][-1] == "v1:mv:s1:0:24"


def test_no_buttons_means_no_components() -> None:
    assert build_view([]) is None


def test_board_ids_round_trip_and_foreign_ids_are_refused() -> None:
    assert decode_board(encode_board(12, 34)) == (12, 34)
    assert decode_board("telegram-77:abc") is None


def test_settings_are_read_with_defaults() -> None:
    config = DiscordConfig.from_settings(SimpleNamespace(discord_token=" t0k "))
    assert (config.token, config.guild_id, config.api_base, config.default_language) == (
        "t0k",
        None,
        None,
        "en",
    )

"""Start-up work: the daily deals are chosen before anyone asks, and again after midnight."""

from datetime import UTC, datetime

from bot.features.daily import daily_choice
from bot.warmup import choose_days_deals, seconds_until_next_day


def test_next_choice_is_just_after_utc_midnight_whatever_the_offset():
    assert seconds_until_next_day(datetime(2026, 3, 1, 0, 0, 0, tzinfo=UTC)) == 86_430.0
    late = datetime.fromisoformat("2026-03-01T23:00:00-02:00")  # already 01:00 UTC on the 2nd
    assert seconds_until_next_day(late) == 23 * 3600 + 30


async def test_days_deals_are_chosen_and_stored_for_every_daily_game(core, clock, monkeypatch):
    import bot.features.daily as daily

    # A quick stand-in for the solver search (the real choice is covered in test_daily).
    monkeypatch.setattr(daily, "NODE_BUDGETS", {g: 2_000 for g in daily.DAILY_GAMES})
    chosen = await choose_days_deals(core.store, clock.now)
    assert set(chosen) == set(daily.DAILY_GAMES)
    for game_id, deal in chosen.items():
        if deal is not None:
            stored = await daily_choice(core.store, game_id, clock.now.date(), clock.now)
            assert stored.deal == deal
    assert any(deal is not None for deal in chosen.values())

"""Claims on both backends: once-only work (turn timeouts, the idle sweep, race clocks, the
day's deal) is taken by one holder at a time, with a lease that a dead holder leaves behind."""

from __future__ import annotations

import asyncio

from bot.storage import Claim, Storage


async def test_a_claim_is_taken_once_renewed_by_its_holder_and_taken_over_after_its_lease(
    db_url: str,
):
    store = await Storage.open(db_url)
    try:
        assert await store.claims.take("timeout:t1", "a", 30, now=1000.0)
        assert not await store.claims.take("timeout:t1", "b", 30, now=1029.0)  # lease still runs
        assert await store.claims.take("timeout:t1", "a", 30, now=1029.0)  # the holder again: yes
        assert await store.claims.renew("timeout:t1", "a", 30, now=1050.0)
        assert not await store.claims.renew("timeout:t1", "b", 30, now=1050.0)
        assert not await store.claims.take("timeout:t1", "b", 30, now=1079.0)  # renewed to 1080
        assert await store.claims.take("timeout:t1", "b", 30, now=1080.0)  # expired: taken over
        assert await store.claims.get("timeout:t1") == Claim("timeout:t1", "b", 1110.0)
        assert not await store.claims.renew("timeout:t1", "a", 30, now=1081.0)  # no longer a's
        await store.claims.release("timeout:t1", "a")  # not a's: stays
        assert (await store.claims.get("timeout:t1")).holder == "b"
        await store.claims.release("timeout:t1", "b")
        assert await store.claims.get("timeout:t1") is None
        assert await store.claims.take("other", "a", 30)  # names are independent
    finally:
        await store.close()


async def test_of_three_stores_claiming_at_once_exactly_one_gets_it(db_url: str):
    stores = [await Storage.open(db_url) for _ in range(3)]
    try:
        for round_number in range(5):
            name = f"race:r{round_number}"
            got = await asyncio.gather(*(s.claims.take(name, s.claims.holder, 30) for s in stores))
            assert sorted(got) == [False, False, True]
    finally:
        for store in stores:
            await store.close()


async def wait_for_lease_end(store: Storage, name: str, beyond: float) -> float:
    """The claim's lease end once its holder's renewer has pushed it past ``beyond`` (the
    renewer runs every third of a lease in real time; however slow the machine, it comes)."""
    for _ in range(600):
        claim = await store.claims.get(name)
        if claim is not None and claim.expires_at > beyond:
            return claim.expires_at
        await asyncio.sleep(0.05)
    raise AssertionError(f"the lease of {name} was never renewed past {beyond}")


async def test_claimed_block_renews_while_it_runs_and_releases_after(db_url: str):
    # leases on a clock of the test's own: the machine's speed cannot let one run out
    now = [1000.0]
    first, second = await Storage.open(db_url), await Storage.open(db_url)
    first.claims.clock = second.claims.clock = lambda: now[0]
    try:
        async with first.claims.hold("sweep", lease_seconds=0.6) as mine:
            assert mine
            assert await first.claims.get("sweep") == Claim("sweep", first.claims.holder, 1000.6)
            now[0] = 1000.5  # near the end of the first lease: the holder renews it
            assert await wait_for_lease_end(first, "sweep", beyond=1000.6) == 1001.1
            now[0] = 1000.9  # past the first lease, within the renewed one
            async with second.claims.hold("sweep", lease_seconds=0.6) as theirs:
                assert not theirs
        assert await first.claims.get("sweep") is None
        async with second.claims.hold("sweep") as theirs:
            assert theirs
    finally:
        await first.close()
        await second.close()


async def test_an_update_delivered_twice_is_handled_once_and_old_ids_are_pruned(db_url: str):
    first, second = await Storage.open(db_url), await Storage.open(db_url)
    try:
        got = await asyncio.gather(
            first.updates.first_delivery("telegram", 7, now=100.0),
            second.updates.first_delivery("telegram", 7, now=100.0),
        )
        assert sorted(got) == [False, True]
        assert await first.updates.first_delivery("discord", 7, now=100.0)  # another platform's id
        assert await first.updates.first_delivery("telegram", 8, now=200.0)
        assert await first.updates.prune(older_than=150.0) == 2
        assert not await second.updates.first_delivery("telegram", 8, now=201.0)
    finally:
        await first.close()
        await second.close()


async def test_a_private_hand_message_is_known_to_every_process_until_pruned(db_url: str):
    first, second = await Storage.open(db_url), await Storage.open(db_url)
    try:
        await first.updates.remember_private_message("telegram", "602", "17", "-100222", now=1000.0)
        assert await second.updates.private_message_origin("telegram", "602", "17") == "-100222"
        assert await second.updates.private_message_origin("telegram", "602", "18") is None
        await second.updates.prune(older_than=1000.0 + 29 * 24 * 3600)  # within the month: kept
        assert await first.updates.private_message_origin("telegram", "602", "17") == "-100222"
        await second.updates.prune(older_than=1001.0 + 30 * 24 * 3600)
        assert await first.updates.private_message_origin("telegram", "602", "17") is None
    finally:
        await first.close()
        await second.close()

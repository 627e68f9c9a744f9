import asyncio
import threading

import pytest

from bot.heavy import Scheduler
from bot.play.deal_bank import DealBank, PrivateDeal, solve_numbered
from solitaire import new_game


class Solver:
    def __init__(self) -> None:
        self.calls: list[tuple[str, int]] = []

    def __call__(self, variant: str, number: int) -> str:
        self.calls.append((variant, number))
        if number < 0:
            raise RuntimeError("cannot solve")
        return f"{variant}#{number}"


def bank(solver, *, size=2, numbers=None, jobs=None) -> DealBank:
    counter = iter(range(1, 1000))
    return DealBank(
        solver, variants=["draw3", "friday13"], size=size, jobs=jobs, numbers=numbers or (lambda: next(counter))
    )


async def settle(deals: DealBank) -> None:
    for _ in range(50):
        await asyncio.sleep(0)
    await asyncio.gather(*deals._refills.values())


async def test_start_fills_every_variant_and_take_refills():
    solver = Solver()
    deals = bank(solver)
    deals.start()
    await settle(deals)
    assert (deals.available("draw3"), deals.available("friday13")) == (2, 2)
    taken = await deals.take("draw3")
    assert taken.deal.startswith("draw3#") and deals.available("draw3") == 1
    await settle(deals)
    assert deals.available("draw3") == 2 and len(solver.calls) == 5
    await deals.close()


async def test_an_empty_bank_solves_at_once_and_a_number_never_reaches_a_private_deal():
    solver = Solver()
    deals = bank(solver, size=0)
    assert not deals.ready("draw3")
    first = await deals.take("draw3")
    assert first == PrivateDeal("draw3", "draw3#1")
    deals.add(PrivateDeal("draw3", "banked"))
    assert (await deals.numbered("draw3", 50)).deal == "draw3#50"  # solved from its public number, not the bank
    assert await deals.take("draw3") == PrivateDeal("draw3", "banked")
    with pytest.raises(KeyError):
        await deals.numbered("nope", 1)
    await deals.close()


async def test_private_and_public_deals_come_from_different_keys():
    public, private = Solver(), Solver()
    keys = iter([2**100 + 1, 2**100 + 2])
    deals = DealBank(public, private=private, variants=["draw3"], size=0, numbers=lambda: next(keys))
    assert (await deals.take("draw3")).deal == f"draw3#{2**100 + 1}"
    assert (await deals.numbered("draw3", 5)).deal == "draw3#5"
    assert (public.calls, private.calls) == ([("draw3", 5)], [("draw3", 2**100 + 1)])
    await deals.close()


def test_production_private_keys_are_128_random_bits_and_deal_apart_from_the_numbers():
    from bot.play.deal_bank import _private_key
    from solitaire.deals import numbered_deal, private_deal

    keys = {_private_key() for _ in range(64)}
    assert len(keys) == 64 and max(keys).bit_length() > 120 and all(key < 2**128 for key in keys)
    assert private_deal("draw3", 5).deck != numbered_deal("draw3", 5).deck


async def test_a_failing_solve_is_logged_and_does_not_crash(caplog):
    deals = bank(Solver(), numbers=lambda: -1)
    deals.start()
    await settle(deals)
    assert deals.available("draw3") == 0 and "could not solve" in caplog.text
    await deals.close()


async def test_solves_are_heavy_jobs_not_run_on_the_loop():
    loop_thread = []

    def solver(variant, number):
        loop_thread.append(threading.current_thread().name)
        return number

    deals = bank(solver, size=1, jobs=Scheduler(0))  # no worker process: in threads here
    deals.start()
    await settle(deals)
    assert deals.available("draw3") == 1 and all(name != "MainThread" for name in loop_thread)
    await deals.close()


@pytest.mark.processes
async def test_a_worker_process_returns_a_proven_deal():
    jobs = Scheduler(1)
    jobs.start()
    deals = DealBank(solve_numbered, variants=["draw3"], size=0, jobs=jobs)
    got = await deals.numbered("draw3", 1)
    await deals.close()
    await jobs.close()
    assert (got.number, got.deal.variant, len(got.deal.deck)) == (1, "draw3", 52)
    game = new_game("draw3", deck=got.deal.deck)
    for move in got.deal.solution:
        if not game.is_over:
            game.play(move)
    assert game.status.value == "won"


async def test_wait_idle_returns_once_every_refill_is_done():
    gate = threading.Event()

    def slow(variant: str, number: int) -> str:
        gate.wait(5)
        return f"{variant}#{number}"

    deals = bank(slow, size=1, jobs=Scheduler(0))
    await deals.wait_idle()  # nothing refilling yet
    deals.start()
    waiting = asyncio.create_task(deals.wait_idle())
    await asyncio.sleep(0.01)
    assert not waiting.done()
    gate.set()
    await asyncio.wait_for(waiting, 5)
    assert (deals.available("draw3"), deals.available("friday13")) == (1, 1)
    await deals.close()


async def test_levels_and_the_solver_queue_for_the_metrics():
    release = threading.Event()

    def slow(variant: str, number: int) -> str:
        release.wait(10)
        return f"{variant}#{number}"

    deals = bank(slow, size=1, jobs=Scheduler(0))
    deals.add(PrivateDeal("friday13", "friday13#7"))
    assert (deals.levels(), deals.solving) == ({"draw3": 0, "friday13": 1}, 0)
    deals.start()  # draw3 needs one
    waiting = asyncio.create_task(deals.numbered("draw3", 500))  # and a requested deal
    for _ in range(20):
        await asyncio.sleep(0)
    assert deals.solving == 2
    release.set()
    await waiting
    await deals.wait_idle()
    assert (deals.levels(), deals.solving) == ({"draw3": 1, "friday13": 1}, 0)
    await deals.close()


class MemoryCache:
    def __init__(self) -> None:
        self.stored: dict[tuple[str, int], str] = {}

    async def load(self, variant: str, number: int) -> str | None:
        return self.stored.get((variant, number))

    async def save(self, variant: str, number: int, deal: str) -> None:
        self.stored[(variant, number)] = deal


async def test_a_numbered_deal_is_solved_once_and_kept_in_the_cache():
    solver, cache = Solver(), MemoryCache()
    deals = bank(solver, size=0)
    deals.use_cache(cache)
    first = await deals.numbered("draw3", 77)
    again = await deals.numbered("draw3", 77)
    assert first == again and solver.calls == [("draw3", 77)] and cache.stored == {("draw3", 77): "draw3#77"}
    fresh = bank(solver, size=0)
    fresh.use_cache(cache)  # another process (a restart) with the same database
    assert (await fresh.numbered("draw3", 77)).deal == "draw3#77" and len(solver.calls) == 1
    await deals.close()
    await fresh.close()


async def test_the_stored_cache_is_keyed_by_solver_version(database_target):
    from bot.storage import Database
    from bot.storage.deals import StoredDeals
    from solitaire.deals import numbered_deal

    db = await Database.open(database_target)
    try:
        deal = numbered_deal("draw3", 1)
        await StoredDeals(db, "1").save("draw3", 1, deal)
        assert await StoredDeals(db, "1").load("draw3", 1) == deal
        assert await StoredDeals(db, "2").load("draw3", 1) is None
        assert await StoredDeals(db, "1").load("draw1", 1) is None
    finally:
        await db.close()

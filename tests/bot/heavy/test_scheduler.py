"""The heavy-work scheduler: priorities and limits on real worker processes, deadlines, deaths, keys and owners."""

from __future__ import annotations

import asyncio
import os
import signal
import tempfile
import threading
import time
from collections.abc import AsyncIterator, Callable
from functools import partial
from multiprocessing.connection import Connection
from pathlib import Path

import pytest
import pytest_asyncio

from bot.heavy import JobTimeoutError, OneJobAtATimeError, Priority, Scheduler, WorkerDiedError, limits_for
from bot.heavy.jobs import TIMEOUTS
from bot.heavy.scheduler import MAX_FAILED_STARTS, NICE, SPILL
from bot.play.deal_bank import DealBank, solve_numbered
from tests.bot.conftest import running
from tests.bot.heavy.jobs import blob, die, held, hung, mark, niceness, pid, sleep, started, stops_first, stuck_refill
from tests.support.alive import alive

pytestmark = pytest.mark.processes  # real processes: left out of the fast loop

FEW_SECONDS = 10.0
"""The longest a member's job may wait on background work (generous: the tests share two busy cores)."""


async def until(condition: Callable[[], bool], seconds: float = 30) -> None:
    """Wait until ``condition()`` holds (workers start and answer in real time)."""
    for _ in range(int(seconds * 50)):
        if condition():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the condition never held")


@pytest_asyncio.fixture
async def bot_pool() -> AsyncIterator[Scheduler]:
    """The bot's default pool: 1 worker kept for pictures, 2 for the rest, 1 for background solves (RENDER_WORKERS=1,
    DEAL_WORKERS=2)."""
    jobs = Scheduler.for_workers(1, 2)
    jobs.start()
    yield jobs
    await jobs.close()


async def test_pictures_and_starts_find_a_worker_while_a_spammer_asks_for_analyses(bot_pool, tmp_path):
    folder = str(tmp_path)
    analyses = [
        bot_pool.submit(held, folder, f"analysis-{member}", "analyses", priority=Priority.ANALYSIS, owner=member)
        for member in (1, 2, 3)
    ]
    start = bot_pool.submit(held, folder, "start-1", "starts", priority=Priority.START)
    await until(lambda: set(started(folder)) == {"analysis-1", "start-1"} and bot_pool.ready == 4)  # all warm
    picture = await asyncio.wait_for(bot_pool.submit(mark, folder, "picture", priority=Priority.PICTURE), 30)
    assert picture == "picture" and bot_pool.fallbacks == 0  # the third worker, kept for pictures
    second = bot_pool.submit(held, folder, "start-2", "starts", priority=Priority.START)
    await asyncio.sleep(0.3)
    assert bot_pool.holding == 2 and bot_pool.waiting == 3  # analyses use one worker, starts two: not the third
    (Path(folder) / "starts").touch()  # start-1 ends: start-2 goes ahead of the analyses waiting
    assert await asyncio.gather(start, second) == ["start-1", "start-2"]
    assert "analysis-2" not in started(folder)  # analysis-1 still holds the analyses' one worker
    (Path(folder) / "analyses").touch()
    assert await asyncio.gather(*analyses) == ["analysis-1", "analysis-2", "analysis-3"]
    assert started(folder)[-2:] == ["analysis-2", "analysis-3"]


async def test_a_picture_waits_a_moment_for_the_render_worker_before_it_takes_another(bot_pool, tmp_path):
    folder = str(tmp_path)
    await until(lambda: bot_pool.ready == 4)
    render = bot_pool.pids[0]
    assert await bot_pool.submit(pid, priority=Priority.PICTURE) == render  # idle: the render worker
    busy = bot_pool.submit(held, folder, "picture-1", priority=Priority.PICTURE, timeout=30)
    await until(lambda: started(folder) == ["picture-1"])
    asked = time.perf_counter()
    second = bot_pool.submit(pid, priority=Priority.PICTURE)
    assert (bot_pool.holding, bot_pool.waiting) == (1, 1)  # the other workers idle, and yet it waits
    drawn_by = await asyncio.wait_for(second, 10)
    assert drawn_by in bot_pool.pids[1:] and time.perf_counter() - asked >= SPILL and bot_pool.fallbacks == 0
    (Path(folder) / "go").touch()
    assert await busy == "picture-1"


async def test_without_render_workers_a_picture_takes_any_free_worker_at_once():
    jobs = Scheduler.for_workers(0, 2)
    jobs.start()
    try:
        await until(lambda: jobs.ready == 3)  # and one for background solves
        drawing = jobs.submit(pid, priority=Priority.PICTURE)
        assert (jobs.holding, jobs.waiting) == (1, 0)
        assert await drawing in jobs.pids
    finally:
        await jobs.close()


async def test_free_workers_go_to_the_most_urgent_job_waiting(one_worker, tmp_path):
    folder = str(tmp_path)
    busy = one_worker.submit(held, folder, "refill", priority=Priority.BACKGROUND)
    await until(lambda: started(folder) == ["refill"])
    waiting = [
        one_worker.submit(mark, folder, priority.name.lower(), priority=priority)
        for priority in (Priority.BACKGROUND, Priority.REPLAY, Priority.ANALYSIS, Priority.HINT, Priority.START)
    ]
    (Path(folder) / "go").touch()
    await asyncio.gather(busy, *waiting)
    assert started(folder) == ["refill", "start", "hint", "analysis", "replay", "background"]


async def test_less_urgent_jobs_than_starts_run_niced(bot_pool):
    mine = os.getpriority(os.PRIO_PROCESS, 0)
    await until(lambda: bot_pool.ready == 4)
    for priority in (Priority.HINT, Priority.ANALYSIS, Priority.REPLAY, Priority.BACKGROUND):
        assert await bot_pool.submit(niceness, priority=priority) == min(mine + NICE, 19)
    assert await bot_pool.submit(niceness, priority=Priority.START) == mine
    assert await bot_pool.submit(niceness, priority=Priority.PICTURE) == mine


async def test_a_stuck_bank_refill_delays_no_members_hint_analysis_start_or_picture(bot_pool, tmp_path):
    folder = str(tmp_path)
    await until(lambda: bot_pool.ready == len(bot_pool.pids))  # all warm
    bank = DealBank(solve_numbered, variants=["draw3"], size=1, jobs=bot_pool, private=partial(stuck_refill, folder))
    bank.start()
    await until(lambda: started(folder) == ["refill-draw3"])  # it holds a worker and never ends
    asked = time.perf_counter()
    members = [
        bot_pool.submit(mark, folder, priority.name.lower(), priority=priority, owner=member)
        for member, priority in enumerate((Priority.HINT, Priority.ANALYSIS, Priority.START, Priority.PICTURE))
    ]
    assert await asyncio.wait_for(asyncio.gather(*members), FEW_SECONDS) == ["hint", "analysis", "start", "picture"]
    assert time.perf_counter() - asked < FEW_SECONDS and bot_pool.stuck == 0  # nobody waited for it to be killed
    (Path(folder) / "refills").touch()
    await bank.close()


async def test_background_jobs_have_a_worker_of_their_own_and_take_no_other(bot_pool, tmp_path):
    folder = str(tmp_path)
    await until(lambda: bot_pool.ready == 4)
    jobs = [
        bot_pool.submit(held, folder, name, gate, priority=priority)
        for name, gate, priority in (
            ("refill-1", "refills", Priority.BACKGROUND),
            ("refill-2", "refills", Priority.BACKGROUND),
            ("start", "members", Priority.START),
            ("analysis", "members", Priority.ANALYSIS),
        )
    ]
    await until(lambda: set(started(folder)) == {"refill-1", "start", "analysis"})  # all at once, each on its own
    assert (bot_pool.holding, bot_pool.waiting) == (3, 1)  # the second refill waits for the background worker
    picture = bot_pool.submit(pid, priority=Priority.PICTURE)
    assert await asyncio.wait_for(picture, FEW_SECONDS) == bot_pool.pids[0] and bot_pool.fallbacks == 0
    (Path(folder) / "members").touch()
    await asyncio.gather(*jobs[2:])
    await asyncio.sleep(0.3)
    assert "refill-2" not in started(folder)  # members' workers are free, and yet it waits for its own
    (Path(folder) / "refills").touch()
    assert await asyncio.gather(*jobs[:2]) == ["refill-1", "refill-2"]
    assert await bot_pool.submit(pid, priority=Priority.BACKGROUND) == bot_pool.pids[-1]


def test_every_job_has_a_deadline_background_solves_too():
    assert max(TIMEOUTS.values()) <= 120 and set(TIMEOUTS) == set(Priority)


def test_the_limits_keep_workers_for_pictures_and_starts():
    limits = limits_for(1, 2)
    assert limits[Priority.PICTURE] == 3 and limits[Priority.START] == 2
    assert {limits[p] for p in Priority if p > Priority.START} == {1}
    assert limits_for(0, 0) == dict.fromkeys(Priority, 0)
    assert limits_for(2, 4)[Priority.ANALYSIS] == 3


async def test_a_stopped_worker_is_killed_and_replaced_and_its_job_run_here(one_worker):
    first = await one_worker.submit(pid, priority=Priority.PICTURE)
    os.kill(first, signal.SIGSTOP)  # alive, but it never answers
    here = await asyncio.wait_for(one_worker.submit(pid, priority=Priority.PICTURE, fallback=True, timeout=0.5), 30)
    assert here == os.getpid() and one_worker.fallbacks == 1  # run in this process, past its deadline
    await until(lambda: one_worker.stuck == 1 and not alive(first))
    assert one_worker.replaced == 1 and first not in one_worker.pids
    fresh = await asyncio.wait_for(one_worker.submit(pid, priority=Priority.PICTURE), 30)
    assert fresh not in (first, os.getpid())


async def test_a_job_past_its_deadline_is_refused_and_its_worker_replaced(one_worker):
    await one_worker.submit(pid, priority=Priority.ANALYSIS)  # the worker is ready
    with pytest.raises(JobTimeoutError, match="took too long"):
        await one_worker.submit(sleep, 60, priority=Priority.ANALYSIS, timeout=0.3)
    await until(lambda: one_worker.stuck == 1)
    assert await asyncio.wait_for(one_worker.submit(sleep, 0, priority=Priority.ANALYSIS), 30) == 0


async def test_a_worker_that_dies_is_replaced_and_the_job_answered(one_worker):
    first = await one_worker.submit(pid, priority=Priority.HINT)
    with pytest.raises(WorkerDiedError, match="stopped"):
        await one_worker.submit(die, priority=Priority.HINT)
    assert one_worker.replaced == 1 and first not in one_worker.pids
    assert (await one_worker.submit(pid, priority=Priority.HINT)) not in (first, os.getpid())


async def test_a_job_sent_to_a_worker_that_just_died_waits_for_the_fresh_one(one_worker):
    first = await one_worker.submit(pid, priority=Priority.START)
    os.kill(first, signal.SIGKILL)
    time.sleep(0.5)  # dead, and the event loop has not read the end of its pipe yet
    fresh = await asyncio.wait_for(one_worker.submit(pid, priority=Priority.START), 30)
    assert fresh not in (first, os.getpid()) and one_worker.replaced == 1 and one_worker.fallbacks == 0


async def test_a_worker_that_hangs_before_it_is_ready_is_replaced_and_the_job_waiting_for_it_runs(tmp_path):
    folder = str(tmp_path)
    jobs = Scheduler(1, target=partial(stops_first, folder), start_timeout=8.0)
    jobs.start()
    try:
        asked = time.perf_counter()
        solving = jobs.submit(pid, priority=Priority.START)
        await until(lambda: hung(folder) is not None)
        stopped = hung(folder)
        solved_by = await asyncio.wait_for(solving, 60)  # the start-up time, then a fresh worker's warm-up
        assert solved_by not in (stopped, os.getpid()) and time.perf_counter() - asked < 60
        assert jobs.replaced == 1 and jobs.fallbacks == 0 and stopped not in jobs.pids
        await until(lambda: stopped is not None and not alive(stopped))
    finally:
        await jobs.close()


def never_ready(conn: Connection) -> None:
    """A worker that cannot start (it exits before it is ready)."""
    raise SystemExit(3)


def hangs_before_ready(conn: Connection) -> None:
    """A worker that never says ready (it hangs while warming up)."""
    threading.Event().wait()


@pytest.mark.parametrize("target", [never_ready, hangs_before_ready])
async def test_workers_that_cannot_start_are_given_up_and_jobs_run_here(target):
    jobs = Scheduler(1, target=target, start_timeout=1.0)
    jobs.start()
    for _ in range(MAX_FAILED_STARTS + 1):  # every job answered, whatever the workers do
        assert await asyncio.wait_for(jobs.submit(pid, priority=Priority.START), 30) == os.getpid()
    await until(lambda: not jobs.running)
    assert jobs.replaced == MAX_FAILED_STARTS - 1
    assert await jobs.submit(pid, priority=Priority.PICTURE) == os.getpid()
    await jobs.close()


async def test_close_stops_every_worker_and_later_jobs_run_here():
    jobs = Scheduler(2)
    jobs.start()
    await asyncio.gather(*(jobs.submit(pid, priority=Priority.START) for _ in range(2)))
    processes = jobs.pids
    assert len(processes) == 2 and all(alive(p) for p in processes)
    await jobs.close()
    assert not jobs.running and not jobs.pids and not any(alive(p) for p in processes)
    assert await jobs.submit(pid, priority=Priority.PICTURE) == os.getpid()


# -- keys and owners (in threads: no worker process needed) ------------------------------------
class Gate:
    """A job that counts its runs and waits for the test to let it finish."""

    def __init__(self) -> None:
        self.runs = 0
        self.open = threading.Event()

    def __call__(self, answer: str) -> str:
        self.runs += 1
        self.open.wait(10)
        if answer == "fail":
            raise ValueError("no answer")
        return answer


async def test_the_same_key_joins_the_running_job_and_a_kept_result_is_reused():
    jobs, gate = Scheduler(0), Gate()
    first = jobs.submit(gate, "one", priority=Priority.ANALYSIS, owner=1, key=("analysis", 7), keep=True)
    again = jobs.submit(gate, "two", priority=Priority.ANALYSIS, owner=1, key=("analysis", 7), keep=True)
    gate.open.set()
    assert await asyncio.gather(first, again) == ["one", "one"]
    later = await jobs.submit(gate, "three", priority=Priority.ANALYSIS, owner=1, key=("analysis", 7), keep=True)
    assert later == "one" and gate.runs == 1


async def test_a_member_has_one_heavy_job_at_a_time():
    jobs, gate = Scheduler(0), Gate()
    analysis = jobs.submit(gate, "analysis", priority=Priority.ANALYSIS, owner=1, key="a")
    with pytest.raises(OneJobAtATimeError, match="Your analysis is still being prepared"):
        jobs.submit(gate, "replay", priority=Priority.REPLAY, owner=1, key="r")
    other = jobs.submit(gate, "theirs", priority=Priority.REPLAY, owner=2, key="r2")  # another member
    gate.open.set()
    assert await asyncio.gather(analysis, other) == ["analysis", "theirs"]
    assert await jobs.submit(gate, "replay", priority=Priority.REPLAY, owner=1, key="r") == "replay"  # now free


async def test_a_failed_job_is_not_kept_and_frees_its_owner():
    jobs, gate = Scheduler(0), Gate()
    gate.open.set()
    with pytest.raises(ValueError, match="no answer"):
        await jobs.submit(gate, "fail", priority=Priority.HINT, owner=1, key="k", keep=True)
    assert await jobs.submit(gate, "ok", priority=Priority.HINT, owner=1, key="k", keep=True) == "ok"
    assert gate.runs == 2


async def test_a_waiting_job_nobody_waits_for_any_more_is_dropped(one_worker, tmp_path):
    folder = str(tmp_path)
    busy = one_worker.submit(held, folder, "busy", priority=Priority.START)
    await until(lambda: started(folder) == ["busy"])
    dropped = one_worker.submit(mark, folder, "dropped", priority=Priority.REPLAY, owner=5, key="x")
    dropped.cancel()
    await asyncio.sleep(0)
    (Path(folder) / "go").touch()
    await busy
    assert await one_worker.submit(mark, folder, "next", priority=Priority.REPLAY, owner=5, key="x") == "next"
    assert started(folder) == ["busy", "next"]


async def test_a_big_answer_comes_whole_through_a_file_that_is_then_removed(tmp_path, monkeypatch):
    monkeypatch.setenv("TMPDIR", str(tmp_path))  # the worker's own temporary folder: no other test writes there
    async with running(1) as one_worker:
        assert await one_worker.submit(blob, 8 * 2**20, priority=Priority.REPLAY) == b"x" * 8 * 2**20
        assert await one_worker.submit(blob, 10, priority=Priority.REPLAY) == b"x" * 10  # small: through the pipe
        assert await one_worker.submit(tempfile.gettempdir, priority=Priority.REPLAY) == str(tmp_path)  # its folder
    assert list(tmp_path.iterdir()) == []


async def test_a_job_that_does_not_pickle_fails_alone(one_worker):
    with pytest.raises(Exception, match="pickle|local"):
        await one_worker.submit(lambda: 1, priority=Priority.HINT)
    assert await one_worker.submit(sleep, 0, priority=Priority.HINT) == 0 and one_worker.replaced == 0

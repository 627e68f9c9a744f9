"""One door for heavy work: board pictures, solves, hints, analyses and replay GIFs, in worker processes.

Every job is a picklable function and its arguments, with a :class:`~bot.heavy.jobs.Priority`, a
deadline, and optionally an owner (a member: one job of theirs at a time) and a key (the same key is
the same job: a second ask joins the first, and a kept result is handed out again without a run).

Workers are spawned processes on pipes that the event loop reads itself (``loop.add_reader``), so no
executor thread in the bot's process competes with the loop for the GIL; each holds one job at a
time. Free workers go to the most urgent job waiting, within **limits**: ``limits[p]`` is the most
workers that jobs of priority ``p`` *or less urgent* may hold at once, so the workers above that
limit are always kept for the more urgent (pictures and starts always find one). The last
``background_workers`` are background jobs' own: background jobs (nobody waits for them) go only
to them and nothing else does, so members' jobs never wait for a background solve, even a stuck
one (without such workers, background jobs share the limits like any other). Pictures go to the
first ``picture_workers`` (the render workers); a picture waits :data:`SPILL` seconds for one before it
takes any other free worker, so pictures do not spread over every process of a busy machine (on two
cores, more processes drawing answered fewer clicks) and still find a worker when a render worker is
stuck. The last ``niced`` workers run at a lower CPU priority (nice :data:`NICE`): jobs less urgent
than a start go to them first, so on a busy machine an analysis or a GIF takes CPU from nobody who is
waiting for a board or a start.

Every job has a deadline. A job not answered by its deadline is given up: a ``fallback`` job (a
picture) runs in this process instead, any other fails with :class:`~bot.heavy.jobs.JobTimeoutError`.
A worker holding one job longer than that job's time is taken for stuck (e.g. stopped with SIGSTOP):
it is killed and a fresh one takes its place. A worker that dies, or is not ready within
:data:`START_TIMEOUT` of its start (it hangs while warming up), is replaced the same way; jobs
waiting meanwhile go to another worker or the fresh one. Without worker processes (``0``, the
tests) or once workers cannot start at all, jobs run in threads of this process.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import math
import multiprocessing
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

from bot.heavy.jobs import (
    TIMEOUTS,
    HeavyJobError,
    JobTimeoutError,
    OneJobAtATimeError,
    Priority,
    SchedulerClosedError,
    WorkerDiedError,
    in_spoken_language,
    spoken_code,
)
from bot.heavy.worker import READY, Serve, Worker, receive, serve

log = logging.getLogger(__name__)

T = TypeVar("T")

MAX_FAILED_STARTS = 3
"""Workers that die or hang before they are ready, in a row, after which every job runs in this process."""
START_TIMEOUT = 20.0
"""Seconds a worker has from its start to say ready (about 1.3 s for three at once on two busy cores) before
it is taken for hung: killed and replaced."""
NICE = 10
"""How much lower the CPU priority of the niced workers is (``os.setpriority``; raising it needs no privilege)."""
KEPT = 256
"""Finished results kept for their key (``keep=True``), least recently used dropped first."""
SPILL = 0.25
"""Seconds a picture waits for a render worker before it may take any other free worker."""
real_seconds = time.perf_counter
"""The clock of deadlines: a stuck process is a matter of real seconds, whatever clock the game runs on
(``loop.time()`` reads ``time.monotonic``, which a simulated Discord may replace)."""


@dataclass(eq=False)
class _Job:
    """A job asked for, and where it stands."""

    run: Callable[..., Any]
    args: tuple[Any, ...]
    priority: Priority
    owner: int | None
    key: Hashable | None
    keep: bool
    fallback: bool
    deadline: float
    """When (:data:`real_seconds`) it must be answered by."""
    hold: float
    """Seconds a worker may hold it before it is taken for stuck."""
    asked: float
    """When (:data:`real_seconds`) it was asked for."""
    waiters: list[asyncio.Future[Any]] = field(default_factory=list)
    worker: Worker | None = None
    here: bool = False
    """Running in a thread of this process."""
    done: bool = False


def limits_for(render_workers: int, deal_workers: int) -> dict[Priority, int]:
    """The limits of a pool of ``render_workers + deal_workers`` processes.

    Pictures may use every worker; starts all but the ``render_workers``; hints, analyses, replays
    and background solves together all but one more (at least one), so a start always finds one
    (the bot's background solves have a worker of their own: see :meth:`Scheduler.for_workers`).

    >>> limits_for(1, 2)[Priority.START], limits_for(1, 2)[Priority.ANALYSIS], limits_for(1, 1)[Priority.REPLAY]
    (2, 1, 1)
    """
    after = max(deal_workers - 1, 1) if deal_workers > 0 else 0
    limits = {Priority.PICTURE: render_workers + deal_workers, Priority.START: deal_workers}
    return limits | {priority: after for priority in Priority if priority > Priority.START}


class Scheduler:
    """Runs heavy jobs in ``workers`` processes, most urgent first, within ``limits`` (see the module)."""

    def __init__(
        self,
        workers: int,
        *,
        limits: Mapping[Priority, int] | None = None,
        niced: int = 0,
        picture_workers: int | None = None,
        target: Serve = serve,
        kept: int = KEPT,
        start_timeout: float = START_TIMEOUT,
        background_workers: int = 0,
    ) -> None:
        """Run jobs in ``workers`` processes running ``target``, the last ``niced`` of them niced (see the module).

        ``picture_workers``: how many of the first workers pictures go to without waiting (default: all).
        ``start_timeout``: seconds a worker has to say ready before it is replaced.
        ``background_workers``: how many of the last workers run background jobs, and only them.

        Nothing starts until :meth:`start`.
        """
        self.workers = workers
        self.niced = niced
        self.picture_workers = workers if picture_workers is None else picture_workers
        self.background_workers = background_workers
        self.limits = {priority: workers for priority in Priority} | dict(limits or {})
        self._never = {p for p in Priority if min(self.limits[q] for q in Priority if q <= p) <= 0}
        """Priorities no worker may take: their jobs run in this process."""
        self._target = target
        self.start_timeout = start_timeout
        self._context = multiprocessing.get_context("spawn")
        self._pool: list[Worker] = []
        self._queues: dict[Priority, deque[_Job]] = {priority: deque() for priority in Priority}
        self._busy = dict.fromkeys(Priority, 0)
        self._keys: dict[Hashable, _Job] = {}
        self._owners: dict[int, _Job] = {}
        self._kept: OrderedDict[Hashable, Any] = OrderedDict()
        self._kept_size = kept
        self._loop: asyncio.AbstractEventLoop | None = None
        self._watch: asyncio.TimerHandle | None = None
        self._watch_at = math.inf
        self._failed_starts = 0
        self.replaced = 0
        """Workers replaced (they died, were stuck, or were not ready in time)."""
        self.stuck = 0
        """Workers killed for holding a job past its time."""
        self.fallbacks = 0
        """Jobs run in this process because no worker answered in time."""
        self._watchers: list[asyncio.Future[None]] = []

    @classmethod
    def for_workers(cls, render_workers: int, deal_workers: int) -> Scheduler:
        """The bot's pool: ``RENDER_WORKERS`` kept for pictures, ``DEAL_WORKERS`` for members' other jobs
        (:func:`limits_for`), and (with any deal worker) one more of its own for background solves.

        The ``DEAL_WORKERS - 1`` workers that hints, analyses and GIFs use first, and the background one, are niced.
        """
        limits = limits_for(render_workers, deal_workers)
        background = 1 if deal_workers > 0 else 0
        niced = max(deal_workers - 1, 0) + background
        return cls(
            render_workers + deal_workers + background,
            limits=limits,
            niced=niced,
            picture_workers=render_workers,
            background_workers=background,
        )

    # -- what callers see -----------------------------------------------------------------
    @property
    def pids(self) -> list[int]:
        """The worker processes' ids, in the order pictures try them (empty without workers or after close)."""
        return [worker.process.pid for worker in self._pool if worker.process.pid is not None]

    @property
    def running(self) -> bool:
        """Whether jobs go to worker processes."""
        return bool(self._pool)

    @property
    def ready(self) -> int:
        """Workers warmed up and taking jobs."""
        return sum(worker.ready for worker in self._pool)

    @property
    def holding(self) -> int:
        """Jobs in the workers' hands now."""
        return sum(worker.job is not None for worker in self._pool)

    @property
    def waiting(self) -> int:
        """Jobs waiting for a worker."""
        return sum(len(queue) for queue in self._queues.values())

    async def until(self, check: Callable[[Scheduler], bool]) -> None:
        """Wait until ``check(self)`` holds, looked at again each time a worker says ready or is replaced."""
        while not check(self):
            watcher: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._watchers.append(watcher)
            await watcher

    def _tell_watchers(self) -> None:
        """Wake every :meth:`until`: the pool changed."""
        for watcher in self._watchers:
            if not watcher.done():
                watcher.set_result(None)
        self._watchers.clear()

    def start(self) -> None:
        """Spawn the workers now (they warm up in the background; jobs asked meanwhile wait for them)."""
        if self.workers > 0 and not self._pool:
            self._loop = asyncio.get_running_loop()
            self._pool = [self._spawn(index) for index in range(self.workers)]

    def submit(
        self,
        run: Callable[..., T],
        *args: Any,
        priority: Priority,
        owner: int | None = None,
        key: Hashable | None = None,
        keep: bool = False,
        timeout: float | None = None,
        fallback: bool = False,
    ) -> asyncio.Future[T]:
        """Ask for ``run(*args)`` now and return the future of its result: ``await jobs.submit(...)`` runs a job.

        The ask itself never waits, so a refusal comes before anything else (e.g. before a defer).

        ``key``: a job with the same key waiting or running is joined; with ``keep`` its result is
        kept and handed to later asks without a run. ``owner``: a member, who may have one job at a
        time. ``timeout``: seconds to the deadline (default :data:`~bot.heavy.jobs.TIMEOUTS` of the
        priority). ``fallback``: past the deadline, or if its worker dies, run it in this process.

        :raises OneJobAtATimeError: ``owner`` has another job waiting or running.
        """
        loop = self._loop = asyncio.get_running_loop()
        if key is not None and (language := spoken_code()) is not None:
            key = (key, language)  # a result's words (an analysis's) are kept, and joined, per language
        if key is not None:
            if key in self._kept:
                self._kept.move_to_end(key)
                ready: asyncio.Future[T] = loop.create_future()
                ready.set_result(self._kept[key])
                return ready
            if (joined := self._keys.get(key)) is not None:
                return self._waiter(joined)
        if owner is not None and (busy := self._owners.get(owner)) is not None:
            raise OneJobAtATimeError(busy.priority)
        seconds = timeout if timeout is not None else TIMEOUTS[priority]
        run = in_spoken_language(run)  # its words (a hint's, an analysis's) in the asker's language
        job = _Job(run, args, priority, owner, key, keep, fallback, real_seconds() + seconds, seconds, real_seconds())
        if key is not None:
            self._keys[key] = job
        if owner is not None:
            self._owners[owner] = job
        waiter = self._waiter(job)
        if not self._pool or priority in self._never:
            self._run_here(job)
        else:
            self._queues[priority].append(job)
            self._dispatch()
            self._arm(job.deadline)
            if job.worker is None and not job.done:  # still waiting: it may take another worker at its spill time
                self._arm(self._spill_time(job))
        return waiter

    async def close(self) -> None:
        """Stop the workers and wait for them to end; jobs not answered run here (pictures) or fail."""
        pool, self._pool = self._pool, []
        if self._watch is not None:
            self._watch.cancel()
            self._watch, self._watch_at = None, math.inf
        for worker in pool:
            self._let_go(worker, SchedulerClosedError())
        for job in self._take_queued():
            self._give_up_on(job, SchedulerClosedError())
        for worker in pool:
            await asyncio.to_thread(worker.process.join, 5)
            if worker.process.is_alive():
                worker.process.kill()

    # -- handing jobs out -----------------------------------------------------------------
    def _fits(self, priority: Priority) -> bool:
        """Whether one more job of ``priority`` stays within the limit of it and of every more urgent one
        (a background job on workers of its own: within its own limit only)."""
        levels = [priority] if self._apart(priority) else [level for level in Priority if level <= priority]
        return all(self._held(level) + 1 <= self.limits[level] for level in levels)

    def _held(self, level: Priority) -> int:
        """Workers held by jobs of ``level`` or less urgent, as its limit counts them (jobs on workers of
        their own count only toward their own limit)."""
        return sum(
            self._busy[priority]
            for priority in Priority
            if priority is level or (priority > level and not self._apart(priority))
        )

    def _apart(self, priority: Priority) -> bool:
        """Whether jobs of ``priority`` run on workers of their own (background jobs, with background workers)."""
        return priority is Priority.BACKGROUND and self.background_workers > 0

    def _dispatch(self) -> None:
        """Hand waiting jobs to free workers, most urgent first, each to the worker that suits it (:meth:`_pick`)."""
        first_apart = len(self._pool) - self.background_workers
        shared = [worker for worker in self._pool[:first_apart] if worker.idle]
        apart = [worker for worker in self._pool[first_apart:] if worker.idle]
        for priority in Priority:
            free = apart if self._apart(priority) else shared
            queue = self._queues[priority]
            while queue and free and self._fits(priority):
                if (worker := self._pick(free, queue[0])) is None:
                    break  # pictures waiting for a render worker
                self._hand(worker, queue.popleft())

    def _pick(self, free: list[Worker], job: _Job) -> Worker | None:
        """Take from ``free`` the worker for ``job``: a picture a render worker (another once it has waited
        :data:`SPILL` seconds; ``None``: none yet), a start the last one not niced, a less urgent job the last
        (the niced first)."""
        if job.priority is Priority.PICTURE:
            chosen = free[0]
            if 0 < self.picture_workers <= self._pool.index(chosen) and real_seconds() < job.asked + SPILL:
                return None
        elif job.priority is Priority.START:
            plain = [worker for worker in free if not worker.niced]
            chosen = plain[-1] if plain else free[-1]
        else:
            chosen = free[-1]
        free.remove(chosen)
        return chosen

    def _spill_time(self, job: _Job) -> float | None:
        """When a waiting picture may take a worker that is not a render worker (``None``: not a picture)."""
        return job.asked + SPILL if job.priority is Priority.PICTURE else None

    def _hand(self, worker: Worker, job: _Job) -> None:
        """Send ``job`` to ``worker`` (a pipe write; its arguments are small)."""
        assert self._loop is not None
        worker.job, worker.since, job.worker = job, real_seconds(), worker
        self._busy[job.priority] += 1
        try:
            worker.conn.send((job.run, job.args))
        except OSError:  # the worker died: the job goes back to the front of its queue (the pipe's end,
            self._release(worker)  # read by the loop, replaces the worker)
            worker.broken = True
            self._queues[job.priority].appendleft(job)
        except Exception as error:  # the job does not pickle: nothing was sent
            self._release(worker)
            self._settle(job, False, error)
        else:
            self._arm(worker.since + job.hold)

    def _answered(self, worker: Worker) -> None:
        """A worker's pipe is readable: it is ready, or a job's answer, or the end of a process that died."""
        try:
            ok, value = receive(worker.conn)
        except (EOFError, OSError):
            self._died(worker)
            return
        if ok is READY:
            worker.ready = True
            self._failed_starts = 0
            self._tell_watchers()
        else:
            worker.answered += 1
            if (job := self._release(worker)) is not None:
                self._settle(job, ok, value)
        self._dispatch()

    def _release(self, worker: Worker) -> _Job | None:
        """Take the job out of ``worker``'s hands."""
        job: _Job | None = worker.job
        worker.job = None
        if job is not None:
            job.worker = None
            self._busy[job.priority] -= 1
        return job

    # -- deadlines, deaths, stuck workers ---------------------------------------------------
    def _arm(self, when: float | None) -> None:
        """Make sure the watch runs by ``when``: one timer for every deadline.

        It is armed from a context of its own, not the context of the click that happened to ask:
        a stuck worker is a matter of real seconds, whichever click or simulated clock is around.
        """
        if when is None or when >= self._watch_at or self._loop is None:
            return
        if self._watch is not None:
            self._watch.cancel()
        self._watch_at = when
        delay = max(when - real_seconds(), 0.0)
        self._watch = contextvars.Context().run(self._loop.call_later, delay, self._check)

    def _check(self) -> None:
        """Give up on jobs past their deadline; replace workers stuck on a job or not ready in time; re-arm."""
        assert self._loop is not None
        self._watch, self._watch_at = None, math.inf
        now = real_seconds()
        for queue in self._queues.values():
            for job in [job for job in queue if job.deadline <= now]:
                queue.remove(job)
                self._give_up_on(job, JobTimeoutError(job.priority))
        for worker in list(self._pool):
            if worker not in self._pool:
                continue  # every worker was given up on (see _lost)
            job = worker.job
            if not worker.ready and worker.started + self.start_timeout <= now:
                self._lost(worker, f"was not ready {now - worker.started:.1f} s after its start")
            elif job is not None and worker.since + job.hold <= now:
                self._stuck(worker)
            elif job is not None and job.deadline <= now:
                self._give_up_on(job, JobTimeoutError(job.priority))  # its worker may still answer, unheard
        self._dispatch()
        self._arm(min(self._next_times(now), default=None))

    def _next_times(self, now: float) -> Iterator[float]:
        for queue in self._queues.values():
            for job in queue:
                yield job.deadline
                if (spill := self._spill_time(job)) is not None and spill > now:
                    yield spill
        for worker in self._pool:
            if not worker.ready:
                yield worker.started + self.start_timeout
            if (job := worker.job) is not None:
                yield worker.since + job.hold
                if not job.done:
                    yield job.deadline

    def _stuck(self, worker: Worker) -> None:
        """Kill a worker holding a job past its time and start a fresh one; the job is given up."""
        job = worker.job
        assert job is not None
        log.warning(
            "worker %s held a %s for %.1f s: killed and replaced",
            worker.process.pid,
            job.priority.words,
            real_seconds() - worker.since,
        )
        self.stuck += 1
        self._replace(worker)
        self._let_go(worker, JobTimeoutError(job.priority))
        self._dispatch()

    def _died(self, worker: Worker) -> None:
        """Replace a worker that died (its job runs here or fails)."""
        if worker in self._pool:
            self._lost(worker, f"died (exit code {worker.process.exitcode})")

    def _lost(self, worker: Worker, what: str) -> None:
        """Replace a worker that died or hung before it was ready; give up on workers that cannot start."""
        if not worker.ready:
            self._failed_starts += 1
        if self._failed_starts >= MAX_FAILED_STARTS:
            log.error("heavy-work workers die or hang before they are ready: running every job in the bot's process")
            self._pool.remove(worker)
            self._let_go(worker, WorkerDiedError(Priority.BACKGROUND))
            self._stop_all()
            return
        log.warning("worker %s %s: starting a fresh one", worker.process.pid, what)
        self._replace(worker)
        job = worker.job
        self._let_go(worker, WorkerDiedError(job.priority if job is not None else Priority.BACKGROUND))
        self._dispatch()

    def _replace(self, worker: Worker) -> None:
        """Put a fresh worker in ``worker``'s place."""
        index = self._pool.index(worker)
        self._pool[index] = self._spawn(index)
        self.replaced += 1
        self._tell_watchers()

    def _stop_all(self) -> None:
        """Stop using worker processes: every job waiting or in a worker's hands runs here."""
        pool, self._pool = self._pool, []
        for worker in pool:
            if (job := self._release(worker)) is not None:
                self._run_here(job)
            self._unwatch(worker)
            worker.process.kill()
        for job in self._take_queued():
            self._run_here(job)

    def _let_go(self, worker: Worker, error: HeavyJobError) -> None:
        """Stop reading ``worker`` and end it; the job in its hands runs here (a fallback) or fails."""
        self._unwatch(worker)
        worker.process.kill()
        if (job := self._release(worker)) is not None:
            self._give_up_on(job, error)

    def _give_up_on(self, job: _Job, error: HeavyJobError) -> None:
        """A job no worker will answer in time: run it here if it may, else answer ``error``."""
        if job.done or job.here:
            return
        if job.fallback:
            self.fallbacks += 1
            self._run_here(job)
        else:
            self._settle(job, False, error)

    # -- results ----------------------------------------------------------------------------
    def _waiter(self, job: _Job) -> asyncio.Future[Any]:
        """A future of ``job``'s result for one caller (a caller who stops waiting leaves the others theirs)."""
        assert self._loop is not None
        waiter: asyncio.Future[Any] = self._loop.create_future()
        job.waiters.append(waiter)
        waiter.add_done_callback(partial(self._left, job))
        return waiter

    def _left(self, job: _Job, waiter: asyncio.Future[Any]) -> None:
        """A caller stopped waiting: a job nobody waits for any more leaves the queue."""
        if not waiter.cancelled() or job.done:
            return
        job.waiters.remove(waiter)
        queue = self._queues[job.priority]
        if not job.waiters and job in queue:
            queue.remove(job)
            self._settle(job, False, SchedulerClosedError())

    def _settle(self, job: _Job, ok: bool, value: Any) -> None:
        """Answer every caller of ``job`` (once) and free its key and owner."""
        if job.done:
            return
        job.done = True
        if job.key is not None and self._keys.get(job.key) is job:
            del self._keys[job.key]
            if ok and job.keep:
                self._kept[job.key] = value
                while len(self._kept) > self._kept_size:
                    self._kept.popitem(last=False)
        if job.owner is not None and self._owners.get(job.owner) is job:
            del self._owners[job.owner]
        for waiter in job.waiters:
            if waiter.done():
                continue
            if ok:
                waiter.set_result(value)
            else:
                waiter.set_exception(value)
                waiter.exception()  # whoever awaits it still gets the error; nobody awaiting is no bug

    def _run_here(self, job: _Job) -> None:
        """Run ``job`` in a thread of this process."""
        loop = self._loop or asyncio.get_running_loop()
        job.here = True
        running = loop.run_in_executor(None, job.run, *job.args)
        running.add_done_callback(partial(self._ran_here, job))

    def _ran_here(self, job: _Job, running: asyncio.Future[Any]) -> None:
        if running.cancelled():
            self._settle(job, False, SchedulerClosedError())
        elif (error := running.exception()) is not None:
            self._settle(job, False, error)
        else:
            self._settle(job, True, running.result())

    # -- processes ----------------------------------------------------------------------------
    def _spawn(self, index: int) -> Worker:
        """Start the worker of place ``index`` in the pool (niced if it is one of the last ``niced``)."""
        assert self._loop is not None
        worker = Worker(self._context, self._target, nice=NICE if index >= self.workers - self.niced else 0)
        self._loop.add_reader(worker.conn.fileno(), self._answered, worker)
        self._arm(worker.started + self.start_timeout)
        return worker

    def _unwatch(self, worker: Worker) -> None:
        assert self._loop is not None
        if not worker.conn.closed:
            self._loop.remove_reader(worker.conn.fileno())
            worker.conn.close()

    def _take_queued(self) -> list[_Job]:
        """Every waiting job, taken out of the queues."""
        jobs = [job for queue in self._queues.values() for job in queue]
        for queue in self._queues.values():
            queue.clear()
        return jobs

"""Pictures drawn in worker processes, so rendering and PNG encoding never hold the event loop.

A :class:`RenderPool` of ``RENDER_WORKERS`` processes takes a :data:`Picture`, a :class:`BoardPicture`
(a :class:`~solitaire.view.BoardView`, which holds only what the player may see, plus the drawing
options) or a member's :class:`~render.stats_data.StatsCard`, and gives back PNG bytes. ``workers=0``
draws in a thread of this process instead (the path before the pool existed; tests use it). A worker
that dies is replaced by a fresh one, and the picture it was drawing is drawn here in a thread, so the
click still gets its answer.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.context import SpawnContext

from render import render_board, warm_up
from render.stats_card import render_stats_card
from render.stats_data import StatsCard
from solitaire.view import BoardView

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class BoardPicture:
    """What a worker needs to draw a board: the player's view (no hidden card in it) and the options."""

    view: BoardView
    time_left: float | None = None
    selected: str | None = None
    target: str | None = None
    four_colour: bool = False


Picture = BoardPicture | StatsCard
"""What the workers draw: a board, or a member's stats card."""


def draw(picture: Picture) -> bytes:
    """Render ``picture`` as PNG bytes (in a worker process, or in a thread with ``workers=0``)."""
    if isinstance(picture, StatsCard):
        return render_stats_card(picture)
    return render_board(
        picture.view,
        time_left=picture.time_left,
        selected=picture.selected,
        target=picture.target,
        four_colour=picture.four_colour,
    )


class WorkerDiedError(RuntimeError):
    """A render worker process ended before it answered."""


def serve(conn: Connection) -> None:
    """A worker's loop: build the sprites, then draw every picture received until the pipe closes."""
    warm_up()
    while True:
        try:
            picture = conn.recv()
        except (EOFError, OSError):
            return
        try:
            answer: tuple[bool, object] = (True, draw(picture))
        except Exception as error:  # the bot sees the renderer's error as if it drew the picture itself
            answer = (False, error)
        conn.send(answer)


Serve = Callable[[Connection], None]
"""A worker process's main function (importable, for the spawned process)."""
MAX_FAILED_STARTS = 3
"""Workers that die before their first picture, in a row, after which the pool draws in this process."""


class _Worker:
    """One spawned process and its pipe; at most one picture in flight."""

    def __init__(self, context: SpawnContext, target: Serve) -> None:
        self.conn, child = context.Pipe()
        self.process = context.Process(target=target, args=(child,), daemon=True, name="render-worker")
        self.process.start()
        child.close()
        self.job: asyncio.Future[bytes] | None = None
        self.answered = 0


class RenderPool:
    """Draws pictures in ``workers`` processes (``0``: in a thread here), replacing a worker that dies.

    The event loop talks to the workers through their pipes directly (``loop.add_reader``): no
    executor threads in the bot's process compete with the loop for the GIL.
    """

    def __init__(self, workers: int, *, target: Serve = serve) -> None:
        """Draw with ``workers`` processes running ``target`` (nothing starts until :meth:`start`)."""
        self.workers = workers
        self._target = target
        self._failed_starts = 0
        self._context = multiprocessing.get_context("spawn")
        self._pool: list[_Worker] = []
        self._queue: deque[tuple[Picture, asyncio.Future[bytes]]] = deque()
        self._loop: asyncio.AbstractEventLoop | None = None
        self.replaced = 0
        """Workers replaced after one died."""
        self.fallbacks = 0
        """Pictures drawn in this process because their worker died."""

    @property
    def pids(self) -> list[int]:
        """The worker processes' ids (empty with ``workers=0``, before :meth:`start` or after :meth:`close`)."""
        return [worker.process.pid for worker in self._pool if worker.process.pid is not None]

    @property
    def drawing(self) -> int:
        """Pictures in the workers' hands now."""
        return sum(worker.job is not None for worker in self._pool)

    @property
    def running(self) -> bool:
        """Whether pictures go to worker processes."""
        return bool(self._pool)

    def start(self) -> None:
        """Spawn the workers now (they build their sprites in the background; pictures asked meanwhile wait)."""
        if self.workers > 0 and not self._pool:
            self._loop = asyncio.get_running_loop()
            for _ in range(self.workers):
                self._add_worker()

    async def render(self, picture: Picture) -> bytes:
        """Return ``picture`` as PNG bytes, drawn by a worker (or here, if there is none or it died)."""
        if not self._pool:
            return await asyncio.to_thread(draw, picture)
        job: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._queue.append((picture, job))
        self._dispatch()
        try:
            return await job
        except WorkerDiedError:
            self.fallbacks += 1
            return await asyncio.to_thread(draw, picture)

    async def close(self) -> None:
        """Stop the workers (pictures still waiting are drawn here) and wait for their processes to end."""
        pool, self._pool = self._pool, []
        for worker in pool:
            self._forget(worker, WorkerDiedError("the render pool closed"))
        for worker in pool:
            await asyncio.to_thread(worker.process.join, 5)
            if worker.process.is_alive():
                worker.process.kill()
        self._fail_waiting()

    def _add_worker(self) -> None:
        assert self._loop is not None
        worker = _Worker(self._context, self._target)
        self._loop.add_reader(worker.conn.fileno(), self._answered, worker)
        self._pool.append(worker)

    def _dispatch(self) -> None:
        """Hand waiting pictures to idle workers (a pipe write of about a kilobyte: it does not block)."""
        for worker in list(self._pool):  # a worker found dead is replaced in the pool meanwhile
            if not self._queue:
                return
            if worker.job is None and worker in self._pool:
                picture, job = self._queue.popleft()
                if job.done():  # its click was cancelled meanwhile
                    continue
                worker.job = job
                try:
                    worker.conn.send(picture)
                except OSError:
                    self._died(worker)

    def _answered(self, worker: _Worker) -> None:
        """A worker's pipe is readable: its picture (or error), or the end of a process that died."""
        try:
            ok, value = worker.conn.recv()
        except (EOFError, OSError):
            self._died(worker)
            return
        job, worker.job = worker.job, None
        worker.answered += 1
        self._failed_starts = 0
        if job is not None and not job.done():
            if ok:
                job.set_result(value)
            else:
                job.set_exception(value)
        self._dispatch()

    def _died(self, worker: _Worker) -> None:
        """Replace a worker that died (its picture is drawn here); give up on workers that cannot start."""
        if worker not in self._pool:
            return
        self._pool.remove(worker)
        self._forget(worker, WorkerDiedError(f"render worker {worker.process.pid} died"))
        if worker.answered == 0:
            self._failed_starts += 1
        if self._failed_starts >= MAX_FAILED_STARTS:
            log.error("render workers die before drawing anything: drawing in the bot's process from now on")
            self._close_all()
            return
        log.warning(
            "render worker %s died (exit code %s): starting a fresh one", worker.process.pid, worker.process.exitcode
        )
        self.replaced += 1
        self._add_worker()
        self._dispatch()

    def _close_all(self) -> None:
        """Stop using every worker: pictures in flight or waiting are drawn in this process."""
        pool, self._pool = self._pool, []
        for worker in pool:
            self._forget(worker, WorkerDiedError("the render pool stopped"))
            worker.process.kill()
        self._fail_waiting()

    def _forget(self, worker: _Worker, error: Exception) -> None:
        assert self._loop is not None
        self._loop.remove_reader(worker.conn.fileno())
        worker.conn.close()
        if worker.job is not None and not worker.job.done():
            worker.job.set_exception(error)
        worker.job = None

    def _fail_waiting(self) -> None:
        while self._queue:
            _, job = self._queue.popleft()
            if not job.done():
                job.set_exception(WorkerDiedError("the render pool closed"))

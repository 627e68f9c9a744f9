"""Board pictures drawn in worker processes, so rendering and PNG encoding never hold the event loop.

A :class:`RenderPool` of ``RENDER_WORKERS`` processes takes a :class:`BoardPicture` (a
:class:`~solitaire.view.BoardView`, which holds only what the player may see, plus the drawing
options), and gives back PNG bytes. ``workers=0`` draws in a thread of this process instead
(the path before the pool existed; tests use it). A worker that dies breaks its executor: the
pool starts a fresh one, and the picture that was waiting is drawn here in a thread, so the
click still gets its answer.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from render import render_board, warm_up
from solitaire.view import BoardView

log = logging.getLogger(__name__)

ExecutorFactory = Callable[[int], Executor]
"""Builds the executor of ``workers`` processes (tests may give their own)."""


@dataclass(frozen=True)
class BoardPicture:
    """What a worker needs to draw a board: the player's view (no hidden card in it) and the options."""

    view: BoardView
    time_left: float | None = None
    selected: str | None = None
    target: str | None = None
    four_colour: bool = False


def draw(picture: BoardPicture) -> bytes:
    """Render ``picture`` as PNG bytes (in a worker process, or in a thread with ``workers=0``)."""
    return render_board(
        picture.view,
        time_left=picture.time_left,
        selected=picture.selected,
        target=picture.target,
        four_colour=picture.four_colour,
    )


def spawn_workers(workers: int) -> Executor:
    """A pool of ``workers`` fresh (spawned) processes that build the card sprites as they start."""
    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"), initializer=warm_up)


def _ready() -> bool:
    """A no-op job: sent once per worker at start, so every process is spawned and warm before the first click."""
    return True


class RenderPool:
    """Draws board pictures in ``workers`` processes (``0``: in a thread here), replacing a broken pool."""

    def __init__(self, workers: int, *, executor_factory: ExecutorFactory = spawn_workers) -> None:
        """Draw with ``workers`` processes built by ``executor_factory`` (nothing starts until :meth:`start`)."""
        self.workers = workers
        self._factory = executor_factory
        self._executor: Executor | None = None
        self._closed = False
        self.replaced = 0
        """Executors replaced after a worker died."""
        self.fallbacks = 0
        """Pictures drawn in this process because the pool was broken."""

    @property
    def executor(self) -> Executor | None:
        """The running executor (``None`` with ``workers=0``, before :meth:`start` or after :meth:`close`)."""
        return self._executor

    def start(self) -> None:
        """Spawn the workers now (in the background: a picture asked for meanwhile waits for them)."""
        if self.workers > 0 and self._executor is None and not self._closed:
            self._executor = self._spawn()

    async def render(self, picture: BoardPicture) -> bytes:
        """Return ``picture`` as PNG bytes, drawn by a worker (or here, if the pool is off or broken)."""
        executor = self._executor
        if executor is None:
            return await asyncio.to_thread(draw, picture)
        try:
            return await asyncio.get_running_loop().run_in_executor(executor, draw, picture)
        except BrokenProcessPool:
            self.fallbacks += 1
            self._replace(executor)
            return await asyncio.to_thread(draw, picture)
        except RuntimeError:  # shut down under us (the bot is closing): draw it here
            if self._executor is executor:
                raise
            return await asyncio.to_thread(draw, picture)

    async def close(self) -> None:
        """Stop the workers (pictures not started are cancelled; running ones finish) and wait for them."""
        self._closed = True
        executor, self._executor = self._executor, None
        if executor is not None:
            await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)

    def _spawn(self) -> Executor:
        executor = self._factory(self.workers)
        for _ in range(self.workers):
            executor.submit(_ready)
        return executor

    def _replace(self, broken: Executor) -> None:
        """Swap a broken executor for a fresh one (once, however many pictures it failed)."""
        if self._executor is not broken or self._closed:
            return
        log.warning("a render worker died: starting %d fresh worker(s)", self.workers)
        broken.shutdown(wait=False, cancel_futures=True)
        self.replaced += 1
        self._executor = self._spawn()

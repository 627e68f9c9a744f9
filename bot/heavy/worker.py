"""A worker process: spawned, warmed up, then running one job at a time from its pipe.

The bot sends ``(function, args)``; the worker answers ``(True, result)`` or ``(False, error)``.
Its first message, once it has built the card sprites and drawn a board, is ``(None, pid)``: ready. Functions travel
by name, so a job is any importable function whose arguments and result pickle.
"""

from __future__ import annotations

import os
import pickle
from collections.abc import Callable
from multiprocessing.connection import Connection
from multiprocessing.context import SpawnContext
from typing import Any

from render import render_board, warm_up
from solitaire import new_game
from solitaire.variants import DEFAULT_VARIANT
from solitaire.view import view_of

Serve = Callable[[Connection], None]
"""A worker process's main function (importable, for the spawned process)."""
READY = None
"""The first element of a worker's ready message."""


def serve(conn: Connection) -> None:
    """A worker's loop: warm up the renderer, say ready, then run every job received until the pipe closes."""
    warm_up()
    render_board(view_of(new_game(DEFAULT_VARIANT, seed=0)))  # the first picture also loads fonts: not a player's
    conn.send((READY, os.getpid()))
    while True:
        try:
            job, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            answer: tuple[bool, object] = (True, job(*args))
        except Exception as error:  # the bot sees the job's error as if it had run the job itself
            answer = (False, error)
        try:
            conn.send(answer)
        except (pickle.PicklingError, TypeError, AttributeError) as error:  # an error or result that cannot travel
            conn.send((False, RuntimeError(f"{getattr(job, '__name__', job)!s}: {error}")))


class Worker:
    """One spawned process and its pipe; at most one job in its hands."""

    def __init__(self, context: SpawnContext, target: Serve) -> None:
        self.conn, child = context.Pipe()
        self.process = context.Process(target=target, args=(child,), daemon=True, name="heavy-worker")
        self.process.start()
        child.close()
        self.ready = False
        """Whether it has said ready (jobs go only to ready workers)."""
        self.job: Any = None
        """The job in its hands (``None``: idle)."""
        self.since = 0.0
        """When the job was handed over (``time.perf_counter``)."""
        self.answered = 0

    @property
    def idle(self) -> bool:
        """Ready and holding no job."""
        return self.ready and self.job is None

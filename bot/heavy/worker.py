"""A worker process: spawned, warmed up, then running one job at a time from its pipe.

The bot sends ``(function, args)``; the worker answers ``(True, result)`` or ``(False, error)``.
Its first message, once it has built the card sprites and drawn a board, is ``(None, pid)``: ready.
Functions travel by name, so a job is any importable function whose arguments and result pickle.
An answer larger than a pipe's buffer (a replay GIF) goes through a temporary file and only its
name through the pipe (``(FILE, path)``): the bot reads a pipe message whole, on its event loop,
and must never wait there for a worker to finish writing one.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import tempfile
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from multiprocessing.context import SpawnContext
from multiprocessing.reduction import ForkingPickler
from pathlib import Path
from typing import Any

from render import render_board, warm_up
from solitaire import new_game
from solitaire.variants import DEFAULT_VARIANT
from solitaire.view import view_of

Serve = Callable[[Connection], None]
"""A worker process's main function (importable, for the spawned process)."""
READY = None
"""The first element of a worker's ready message."""
FILE = "file"
"""The first element of an answer left in a file (the second is the file's path)."""
PIPE_LIMIT = 64 * 1024
"""Answers up to this many bytes go through the pipe (a pipe's buffer: written at once, read at once)."""


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
            payload = bytes(ForkingPickler.dumps(answer))
        except (pickle.PicklingError, TypeError, AttributeError) as error:  # an error or result that cannot travel
            payload = bytes(ForkingPickler.dumps((False, RuntimeError(f"{getattr(job, '__name__', job)!s}: {error}"))))
        send_answer(conn, payload)


def send_answer(conn: Connection, payload: bytes) -> None:
    """Send a pickled answer: through the pipe if small, else through a temporary file."""
    if len(payload) <= PIPE_LIMIT:
        conn.send_bytes(payload)
        return
    handle, path = tempfile.mkstemp(prefix="solitaire-answer-")
    with os.fdopen(handle, "wb") as file:
        file.write(payload)
    conn.send((FILE, path))


def receive(conn: Connection) -> tuple[bool | None, Any]:
    """Read a worker's message whole: ready, or an answer (taken from its file, which is then removed).

    :raises EOFError: the worker's end of the pipe is closed (it died).
    """
    kind, value = conn.recv()
    if kind == FILE:
        path = Path(value)
        try:
            kind, value = pickle.loads(path.read_bytes())
        finally:
            path.unlink(missing_ok=True)
    return kind, value


class Worker:
    """One spawned process and its pipe; at most one job in its hands."""

    def __init__(self, context: SpawnContext, target: Serve, *, nice: int = 0) -> None:
        self.conn, child = context.Pipe()
        self.process = context.Process(target=target, args=(child,), daemon=True, name="heavy-worker")
        self.started = time.perf_counter()
        """When it was started (``time.perf_counter``): it must say ready within the scheduler's start-up time."""
        self.process.start()
        child.close()
        self.niced = False
        """Whether it runs at a lower CPU priority than the bot (``nice`` more)."""
        if nice and (pid := self.process.pid) is not None:
            with contextlib.suppress(OSError):  # not allowed here: it runs at the bot's priority
                os.setpriority(os.PRIO_PROCESS, pid, os.getpriority(os.PRIO_PROCESS, 0) + nice)
                self.niced = True
        self.ready = False
        """Whether it has said ready (jobs go only to ready workers)."""
        self.broken = False
        """Whether a job could not be sent to it (it died; the loop replaces it when it reads the pipe's end)."""
        self.job: Any = None
        """The job in its hands (``None``: idle)."""
        self.since = 0.0
        """When the job was handed over (``time.perf_counter``)."""
        self.answered = 0

    @property
    def idle(self) -> bool:
        """Ready, not broken, and holding no job."""
        return self.ready and not self.broken and self.job is None

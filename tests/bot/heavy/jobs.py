"""Jobs for the scheduler tests, importable by a spawned worker: they mark when they start and can be held."""

from __future__ import annotations

import os
import signal
import time
from multiprocessing.connection import Connection
from pathlib import Path

from bot.heavy.worker import serve


def mark(folder: str, name: str) -> str:
    """Note that job ``name`` started (one line in ``folder/started``) and return its name."""
    with open(Path(folder) / "started", "a") as started:
        started.write(name + "\n")
    return name


def held(folder: str, name: str, gate: str = "go") -> str:
    """Mark, then wait until the file ``folder/gate`` exists (at most 60 s)."""
    mark(folder, name)
    end = time.monotonic() + 60
    while not (Path(folder) / gate).exists() and time.monotonic() < end:
        time.sleep(0.01)
    return name


def started(folder: str) -> list[str]:
    """The jobs started so far, in order."""
    path = Path(folder) / "started"
    return path.read_text().split() if path.exists() else []


def sleep(seconds: float) -> float:
    """Sleep (a job longer than its deadline)."""
    time.sleep(seconds)
    return seconds


def pid() -> int:
    """The worker's process id."""
    return os.getpid()


def die() -> None:
    """End the worker process at once, as a crash would."""
    os._exit(9)


def niceness() -> int:
    """The worker's CPU priority (its nice value)."""
    return os.getpriority(os.PRIO_PROCESS, 0)


def blob(size: int) -> bytes:
    """``size`` bytes (an answer too big for a pipe's buffer, like a replay GIF)."""
    return b"x" * size


def stops_first(folder: str, conn: Connection) -> None:
    """A worker's main: the first one started writes its pid to ``folder/hung`` and stops itself
    (SIGSTOP) before it is ready, as a worker hanging in its warm-up; the others serve."""
    try:
        handle = os.open(Path(folder) / "hung", os.O_WRONLY | os.O_CREAT | os.O_EXCL)
    except FileExistsError:
        serve(conn)
        return
    os.write(handle, str(os.getpid()).encode())
    os.close(handle)
    os.kill(os.getpid(), signal.SIGSTOP)
    serve(conn)  # only if someone lets it go on


def hung(folder: str) -> int | None:
    """The pid :func:`stops_first` stopped (``None``: none yet)."""
    path = Path(folder) / "hung"
    text = path.read_text() if path.exists() else ""
    return int(text) if text else None


def stuck_refill(folder: str, variant: str, key: int) -> str:
    """A deal bank's private solve that never ends (held until ``folder/refills`` exists, at most 60 s)."""
    return held(folder, f"refill-{variant}", "refills")

"""Jobs for the scheduler tests, importable by a spawned worker: they mark when they start and can be held."""

from __future__ import annotations

import os
import time
from pathlib import Path


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

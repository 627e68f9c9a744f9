"""The start of ``python -m bot`` in named steps: each is logged when it begins and ends, and has a time limit.

A step that fails or hangs ends the start with one line naming the step and the cause, e.g.
``cannot reach Discord: logging in got no answer in 30 s``; :class:`StartupError` carries it
and the exit status (2: fix a setting or the database, restarting cannot help; 1: worth a restart).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import TypeVar

log = logging.getLogger("bot.runtime.startup")

_T = TypeVar("_T")

DATABASE_SECONDS = 120.0
"""How long opening the database and applying its migrations may take."""
UNREACHABLE = 1
"""Exit status when Discord could not be reached (a restart may help)."""
MISCONFIGURED = 2
"""Exit status when a setting, the token or the database is wrong (a restart cannot help)."""


class StartupError(Exception):
    """A start-up step failed or took too long; the message is the one line to print, ``status`` the exit status."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Step:
    """One step of the start: what it does (logged as it begins), what it gives, its time limit and failure."""

    doing: str
    """``logging in to Discord``: logged with ``...`` when the step begins, and named if it fails."""
    done: str
    """``logged in``: logged when the step ends."""
    seconds: float
    failure: str = "cannot reach Discord"
    """What the error line says before the step and the cause."""
    status: int = UNREACHABLE


def database_step(label: str) -> Step:
    """Opening the database ``label`` and applying its migrations."""
    return Step(
        f"opening the database {label}",
        "database opened and migrated",
        DATABASE_SECONDS,
        failure=f"cannot use the database {label!r}",
        status=MISCONFIGURED,
    )


def login_step(seconds: float) -> Step:
    """Logging in to Discord over REST (the token checked, the application read)."""
    return Step("logging in to Discord", "logged in", seconds)


def gateway_step(seconds: float) -> Step:
    """The first connection to Discord's gateway, until the bot is ready."""
    return Step("connecting to the gateway", "connected to the gateway", seconds)


def sync_step(seconds: float, where: str) -> Step:
    """Syncing the slash commands (``where``: to every server, or to the development server)."""
    return Step(f"syncing the commands {where}", "commands synced", seconds)


def cause(error: BaseException) -> str:
    """An error in words, even when its message is empty (a bare ``TimeoutError``).

    >>> cause(TimeoutError()), cause(OSError("Network is unreachable"))
    ('TimeoutError', 'Network is unreachable')
    """
    return str(error).strip() or type(error).__name__


async def run_step(step: Step, work: Awaitable[_T]) -> _T:
    """Run ``work`` as ``step``: log it, give up after ``step.seconds``.

    :raises StartupError: when it takes too long (other errors pass through, for the caller to word).
    """
    log.info("%s...", step.doing)
    try:
        async with asyncio.timeout(step.seconds):
            result = await work
    except TimeoutError:
        raise StartupError(
            f"{step.failure}: {step.doing} got no answer in {step.seconds:g} s "
            "(check the network, a firewall or a proxy; STARTUP_TIMEOUT sets the limit)",
            step.status,
        ) from None
    log.info(step.done)
    return result


def step_failed(step: Step, error: BaseException) -> StartupError:
    """The error line for ``step`` failing with ``error``."""
    return StartupError(f"{step.failure}: {step.doing} failed: {cause(error)}", step.status)

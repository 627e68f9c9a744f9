"""Deadlines for database work, kept by one watchdog timer instead of a timer per statement.

Run a statement inside ``with deadlines.within(2.0):``: past its deadline, the watchdog cancels the
task, and the block raises :class:`TimeoutError` (as ``asyncio.timeout`` would). The watchdog looks every
:data:`TICK` seconds while some work is in flight (and not at all otherwise), so a deadline is met within
a tick. Why not ``asyncio.timeout``: it arms and cancels a loop timer for every statement, and the
simulated Discord the tests and benchmarks run the bot on (SimCord) runs every timer armed in the bot's
context on its own clock, at a cost that grows with the timers armed, and moves that clock (waiting for
the bot to be idle) whenever one comes due in real time (see docs/bot.md, "PostgreSQL: a vanished database,
a lost commit").
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

TICK = 0.1
"""Seconds between the watchdog's looks: a deadline is enforced within this much after it passed."""
_PATIENT_UNTIL: contextvars.ContextVar[float] = contextvars.ContextVar("database_patient_until", default=0.0)
"""Until when (``time.monotonic()``) the work of this context may take longer than its deadline."""


@contextlib.contextmanager
def patience(seconds: float) -> Iterator[None]:
    """Let each piece of database work in this block take up to ``seconds`` (for the next ``seconds``).

    For a start, whose queries (a backlog of running games to resume, a cold server) are nobody's
    move and must not stop the bot; the tasks it starts inherit what is left of it.
    """
    token = _PATIENT_UNTIL.set(time.monotonic() + seconds)
    try:
        yield
    finally:
        _PATIENT_UNTIL.reset(token)


def allowed(seconds: float | None) -> float | None:
    """The deadline to give work whose own is ``seconds``: longer while :func:`patience` lasts."""
    left = _PATIENT_UNTIL.get() - time.monotonic()
    return seconds if seconds is None or left <= 0 else max(seconds, left)


@dataclass(eq=False)
class _Work:
    """One block of work under a deadline."""

    task: asyncio.Task[object]
    deadline: float
    cancelling: int
    """The task's cancellation requests when the block began (``Task.cancelling()``)."""
    expired: bool = False


class Deadlines:
    """Work under deadlines, and the one timer that cancels what runs past its own.

    >>> async def demo() -> str:
    ...     deadlines = Deadlines(tick=0.01)
    ...     try:
    ...         with deadlines.within(0.02):
    ...             await asyncio.sleep(1)
    ...     except TimeoutError as error:
    ...         return str(error)
    ...     finally:
    ...         await deadlines.close()
    ...     return "finished"
    >>> asyncio.run(demo())
    'no answer within 0.02 s'
    """

    def __init__(self, *, tick: float = TICK, clock: Callable[[], float] = time.monotonic) -> None:
        self.tick = tick
        self.clock = clock
        self._work: set[_Work] = set()
        self._timer: asyncio.TimerHandle | None = None

    @contextlib.contextmanager
    def within(self, seconds: float | None) -> Iterator[None]:
        """Run the block's awaits within ``seconds`` from now (``None``: no deadline).

        :raises TimeoutError: the deadline passed (the block's pending await was cancelled).
        """
        task = asyncio.current_task()
        if seconds is None or task is None:
            yield
            return
        work = _Work(task, self.clock() + seconds, task.cancelling())
        self._work.add(work)
        self._start()
        try:
            yield
        except asyncio.CancelledError:
            if work.expired and task.uncancel() <= work.cancelling:
                raise TimeoutError(f"no answer within {seconds:g} s") from None
            raise
        except BaseException:
            if work.expired:  # the cancellation became another error on its way out: forget it
                task.uncancel()
            raise
        finally:
            self._work.discard(work)

    def _start(self) -> None:
        """Look again in one tick, if no look is due yet.

        The timer is armed from an empty context, so it carries none of the watched work's context
        variables (SimCord, the simulated Discord of the tests and benchmarks, runs every timer armed in
        the bot's context on its own clock: this one stays on the real clock, as in production).
        """
        if self._timer is None:
            self._timer = contextvars.Context().run(asyncio.get_running_loop().call_later, self.tick, self._look)

    def _look(self) -> None:
        """Cancel the work past its deadline; look again in a tick while there is work."""
        self._timer = None
        now = self.clock()
        for work in list(self._work):
            if not work.expired and work.deadline <= now:
                work.expired = True
                work.task.cancel()
        if self._work:
            self._start()

    async def close(self) -> None:
        """Stop looking (the work in flight keeps running, without deadlines)."""
        timer, self._timer = self._timer, None
        if timer is not None:
            timer.cancel()

"""What a heavy job is: its priority, how long it may take, and the refusals a player may get about it.

>>> Priority.PICTURE < Priority.START < Priority.HINT < Priority.ANALYSIS < Priority.REPLAY < Priority.BACKGROUND
True
>>> str(OneJobAtATimeError(Priority.ANALYSIS))
'Your analysis is still being prepared: one at a time, so wait for it before asking for another.'
"""

from __future__ import annotations

from enum import IntEnum

from bot.errors import BotError


class Priority(IntEnum):
    """Who waits for a job, most urgent first: the scheduler hands free workers out in this order."""

    PICTURE = 0
    """A board picture: a player's click waits for it (Discord wants an answer within 3 s)."""
    START = 1
    """A player's start: a numbered deal, an empty bank, the day's deal."""
    HINT = 2
    ANALYSIS = 3
    REPLAY = 4
    """A replay GIF."""
    BACKGROUND = 5
    """Nobody waits: bank refills, dailies and spares solved ahead."""

    @property
    def words(self) -> str:
        """The job in a player's words (``analysis``, ``replay``, ...)."""
        return _WORDS[self]


_WORDS = {
    Priority.PICTURE: "board picture",
    Priority.START: "game",
    Priority.HINT: "hint",
    Priority.ANALYSIS: "analysis",
    Priority.REPLAY: "replay",
    Priority.BACKGROUND: "deal",
}

TIMEOUTS: dict[Priority, float] = {
    Priority.PICTURE: 1.5,
    Priority.START: 120.0,
    Priority.HINT: 60.0,
    Priority.ANALYSIS: 120.0,
    Priority.REPLAY: 120.0,
    Priority.BACKGROUND: 120.0,
}
"""Seconds from asking to the answer, by default: every job has a deadline. A picture's is short: past it, the
picture is drawn in the bot's process and the click still answered within Discord's 3 s. A background solve
gets as long as the same solve asked for by a player (a start)."""


class HeavyJobError(BotError):
    """A heavy job that gave no answer; the player is told privately."""


class OneJobAtATimeError(HeavyJobError):
    """The member asked for a heavy job while another of theirs is still waiting or running."""

    def __init__(self, running: Priority) -> None:
        super().__init__(
            f"Your {running.words} is still being prepared: one at a time, so wait for it before asking for another."
        )
        self.running = running


class JobTimeoutError(HeavyJobError):
    """A job not answered by its deadline (its worker, if stuck, was replaced)."""

    def __init__(self, priority: Priority) -> None:
        super().__init__(f"Your {priority.words} took too long, so I gave up on it: please try again in a moment.")
        self.priority = priority


class WorkerDiedError(HeavyJobError):
    """The worker process running a job ended before it answered."""

    def __init__(self, priority: Priority) -> None:
        super().__init__(f"The worker preparing your {priority.words} stopped: please try again.")
        self.priority = priority


class SchedulerClosedError(HeavyJobError):
    """A job still waiting when the bot shut down."""

    def __init__(self) -> None:
        super().__init__("I am restarting: please try again in a moment.")

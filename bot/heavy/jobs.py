"""What a heavy job is: its priority, how long it may take, and the refusals a player may get about it.

>>> Priority.PICTURE < Priority.START < Priority.HINT < Priority.ANALYSIS < Priority.REPLAY < Priority.BACKGROUND
True
>>> str(OneJobAtATimeError(Priority.ANALYSIS))
'Your analysis is still being prepared: one at a time, so wait for it before asking for another.'
"""

from __future__ import annotations

from collections.abc import Callable
from enum import IntEnum
from functools import partial
from typing import Any, TypeVar

from bot.errors import BotError
from languages import find
from solitaire.speech import N_, _, speaking, spoken

T = TypeVar("T")


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
        """The job in English words, for the log (``analysis``, ``replay``, ...)."""
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


_STILL_PREPARED = {
    Priority.PICTURE: N_(
        "Your board picture is still being prepared: one at a time, so wait for it before asking for another."
    ),
    Priority.START: N_("Your game is still being prepared: one at a time, so wait for it before asking for another."),
    Priority.HINT: N_("Your hint is still being prepared: one at a time, so wait for it before asking for another."),
    Priority.ANALYSIS: N_(
        "Your analysis is still being prepared: one at a time, so wait for it before asking for another."
    ),
    Priority.REPLAY: N_(
        "Your replay is still being prepared: one at a time, so wait for it before asking for another."
    ),
    Priority.BACKGROUND: N_(
        "Your deal is still being prepared: one at a time, so wait for it before asking for another."
    ),
}
_TOO_LONG = {
    Priority.PICTURE: N_("Your board picture took too long, so I gave up on it: please try again in a moment."),
    Priority.START: N_("Your game took too long, so I gave up on it: please try again in a moment."),
    Priority.HINT: N_("Your hint took too long, so I gave up on it: please try again in a moment."),
    Priority.ANALYSIS: N_("Your analysis took too long, so I gave up on it: please try again in a moment."),
    Priority.REPLAY: N_("Your replay took too long, so I gave up on it: please try again in a moment."),
    Priority.BACKGROUND: N_("Your deal took too long, so I gave up on it: please try again in a moment."),
}
_WORKER_STOPPED = {
    Priority.PICTURE: N_("The worker preparing your board picture stopped: please try again."),
    Priority.START: N_("The worker preparing your game stopped: please try again."),
    Priority.HINT: N_("The worker preparing your hint stopped: please try again."),
    Priority.ANALYSIS: N_("The worker preparing your analysis stopped: please try again."),
    Priority.REPLAY: N_("The worker preparing your replay stopped: please try again."),
    Priority.BACKGROUND: N_("The worker preparing your deal stopped: please try again."),
}
"""Each refusal below, one whole sentence per kind of job."""


class OneJobAtATimeError(HeavyJobError):
    """The member asked for a heavy job while another of theirs is still waiting or running."""

    def __init__(self, running: Priority) -> None:
        super().__init__(_(_STILL_PREPARED[running]))
        self.running = running


class JobTimeoutError(HeavyJobError):
    """A job not answered by its deadline (its worker, if stuck, was replaced)."""

    def __init__(self, priority: Priority) -> None:
        super().__init__(_(_TOO_LONG[priority]))
        self.priority = priority


class WorkerDiedError(HeavyJobError):
    """The worker process running a job ended before it answered."""

    def __init__(self, priority: Priority) -> None:
        super().__init__(_(_WORKER_STOPPED[priority]))
        self.priority = priority


class SchedulerClosedError(HeavyJobError):
    """A job still waiting when the bot shut down."""

    def __init__(self) -> None:
        super().__init__(_("I am restarting: please try again in a moment."))


def in_spoken_language(run: Callable[..., T]) -> Callable[..., T]:
    """``run``, to be run in the language spoken here: a worker process (or a thread) speaks none of its own.

    English (nothing spoken) leaves ``run`` as it is; another language wraps it (:func:`speaking_in`, picklable).
    """
    code = spoken_code()
    return run if code is None else partial(speaking_in, code, run)


def spoken_code() -> str | None:
    """The catalogue code of the language spoken here (``None``: English, the source)."""
    code: str | None = getattr(spoken(), "language_code", None)
    return code


def speaking_in(code: str, run: Callable[..., T], *args: Any) -> T:
    """``run(*args)`` said in the language of catalogue ``code`` (English if no language has that code)."""
    language = find(code)
    with speaking(language.catalogue() if language is not None else None):
        return run(*args)

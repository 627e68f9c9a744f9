"""One door for heavy work (STYLE lesson 15): every picture, solve, hint, analysis and GIF goes through here."""

from bot.heavy.jobs import (
    HeavyJobError,
    JobTimeoutError,
    OneJobAtATimeError,
    Priority,
    SchedulerClosedError,
    WorkerDiedError,
)
from bot.heavy.scheduler import Scheduler, limits_for

__all__ = [
    "HeavyJobError",
    "JobTimeoutError",
    "OneJobAtATimeError",
    "Priority",
    "Scheduler",
    "SchedulerClosedError",
    "WorkerDiedError",
    "limits_for",
]

"""The bot's busy time on one game, given back to the player's clock once: pure arithmetic, no clock, no I/O.

A press keeps the bot busy from the press until its answer went out, at most :data:`MAX_CREDIT` seconds.
Presses in flight together share their seconds: the credits on a game never add up to more than the
wall time covered by those intervals (their union), whatever order they are credited in.
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_CREDIT = 3.0
"""At most this many seconds of the bot's own work on one press are given back to the player's clock."""


@dataclass(frozen=True)
class BusyTime:
    """The game's credited busy time so far: nothing before ``until`` is credited again.

    >>> busy = BusyTime(0.0)
    >>> first, busy = busy.credit(0.0, 3.0)
    >>> second, busy = busy.credit(0.1, 3.0)  # a press made while the first was being answered
    >>> first, second, busy.until
    (3.0, 0.0, 3.0)
    """

    until: float
    """The end of the last credited interval (unix seconds); 0 before any credit."""

    def credit(self, pressed: float, answered: float) -> tuple[float, BusyTime]:
        """The seconds to give back for a press's work from ``pressed`` to ``answered``, and the ledger after.

        Counts from the later of ``pressed`` and :attr:`until`, up to ``answered`` and never past
        ``pressed + MAX_CREDIT``. A press credited in steps (at its save, then at its answer) is never
        given more than :data:`MAX_CREDIT` in all.
        """
        start = max(pressed, self.until)
        end = min(answered, pressed + MAX_CREDIT)
        if end <= start:
            return 0.0, self
        return end - start, BusyTime(end)

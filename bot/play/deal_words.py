"""How a board names its deal, on every surface (the board message, the Activity's page)."""

from __future__ import annotations

from bot.rules.modes import mode_of
from bot.storage.games import GameRecord


def deal_words(record: GameRecord, *, over: bool) -> str:
    """Which kind of deal a game is on, for its board: daily, race, ranked (its seed once over) or practice.

    A ranked deal's seed is shown only once its game is over; a race board never shows it (the
    race message does, once the race is over), so no racer can pass it on mid-race.
    """
    kind = mode_of(record.mode).deal_kind
    if kind is not None:
        return f"{kind} {record.daily_date}" if record.daily_date is not None else kind
    if record.practice:
        named = f"deal #{record.deal_number}" if record.deal_number is not None else f"seed `{record.deal_seed}`"
        return f"practice, not ranked: {named}"
    return f"ranked deal (seed `{record.deal_seed}`)" if over and record.deal_seed else "ranked deal"

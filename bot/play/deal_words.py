"""How a board names its deal, on every surface (the board message, the Activity's page)."""

from __future__ import annotations

from datetime import date

from bot.rules.modes import mode_of
from bot.storage.games import GameRecord
from languages.formats import day
from solitaire.speech import _


def deal_words(record: GameRecord, *, over: bool) -> str:
    """Which kind of deal a game is on, for its board: daily, race, ranked (its seed once over) or practice.

    A ranked deal's seed is shown only once its game is over; a race board never shows it (the
    race message does, once the race is over), so no racer can pass it on mid-race.
    """
    kind = mode_of(record.mode).deal_kind
    if kind is not None:
        if record.daily_date is not None:
            # Translators: how a board names its deal: the daily deal of that day.
            return _("daily {date}", date=_day(record.daily_date))
        return _(kind)
    if record.practice:
        if record.deal_number is not None:
            return _("practice, not ranked: deal #{number}", number=record.deal_number)
        return _("practice, not ranked: seed `{seed}`", seed=record.deal_seed)
    if over and record.deal_seed:
        return _("ranked deal (seed `{seed}`)", seed=record.deal_seed)
    return _("ranked deal")


def _day(iso: str) -> str:
    """A stored daily date as the language writes a day (``2026-11-29`` in English)."""
    try:
        return day(date.fromisoformat(iso))
    except ValueError:
        return iso

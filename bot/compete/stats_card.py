"""A member's stats card (:class:`render.stats_data.StatsCard`), read from the database; drawn by the render workers."""

from __future__ import annotations

from collections import defaultdict
from datetime import date

from bot.rules.stats import MemberStats
from bot.storage import Database
from bot.storage import competition as competition_db
from bot.storage import races as races_db
from render.stats_data import RACE_POINTS, SCORES_SHOWN, DailyScore, RatingSeries, StatsCard, VariantRecord
from solitaire import VARIANTS

_ORDER = {name: n for n, name in enumerate(VARIANTS)}


async def stats_card(db: Database, guild_id: int, stats: MemberStats, *, name: str, today: date) -> StatsCard:
    """Build the card of the member of ``stats`` (their stats in server ``guild_id`` as of ``today``)."""
    user_id = stats.user_id
    days = await competition_db.daily_days(db, guild_id, user_id)
    scores = tuple(
        DailyScore(date.fromisoformat(row["daily_date"]), row["variant"], row["score"], row["status"] == "won")
        for row in await competition_db.last_dailies(db, guild_id, user_id, SCORES_SHOWN)
    )
    history: defaultdict[str, list[float]] = defaultdict(list)
    for row in await races_db.rating_history(db, guild_id, user_id):
        ratings = history[row["variant"]]
        if not ratings and row["rating_before"] is not None:
            ratings.append(float(row["rating_before"]))  # where the line starts
        ratings.append(float(row["rating_after"]))
    return StatsCard(
        name=name,
        today=today,
        scores=scores,
        played=frozenset(days),
        won=frozenset(day for day, won in days.items() if won),
        streak=stats.played.current,
        best_streak=stats.played.best,
        variants=tuple(VariantRecord(v.variant, v.games, v.wins, v.best_score) for v in stats.variants),
        ratings=tuple(
            RatingSeries(variant, tuple(history[variant][-(RACE_POINTS + 1) :]))
            for variant in sorted(history, key=lambda name: (_ORDER.get(name, len(_ORDER)), name))
        ),
    )

"""Places and rating changes of a race or a challenge, worked out against the stored ratings.

The rules themselves are pure (:mod:`bot.compete.placing`); this reads what they need (the ratings so far,
the rated games each pair already shared this server day) and returns what to store with the result.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime

from bot.compete.placing import Entry, places, rated_players
from bot.compete.ratings import Skill, newcomer, rate
from bot.rules.calendar import day_bounds
from bot.rules.stand_ins import is_stand_in
from bot.storage import Database, Transaction
from bot.storage import competition as competition_db
from bot.storage import races as races_db
from bot.storage.games import GameRecord
from bot.storage.races import Placing, Rate, Rated, RatingRecord
from solitaire.moves import is_card_move


def entry(user_id: int, record: GameRecord | None, *, left_at: float | None = None) -> Entry:
    """A player's finished game as the placing rules read it (no game: never played; ``left_at``: left a race)."""
    if record is None:
        return Entry(user_id, False, left_at is None, 0, None)
    log = json.loads(record.state).get("log", [])
    played = any(is_card_move(str(item[0])) for item in log)
    ended = record.finished_at if record.finished_at is not None else float("inf")
    stayed = left_at is None or left_at > ended  # leaving after one's game ended changes nothing
    return Entry(user_id, played, stayed, record.score, record.seconds_used)


async def rate_results(db: Database, *, guild_id: int, variant: str, entries: Sequence[Entry], now: float) -> Rate:
    """How to place every entry and rate those who played, if the event may be rated (why not, if it may not).

    The server day is read now; the ratings and the rated games each pair shared that day are read by the
    returned step, in the transaction that closes the event (:func:`bot.storage.races.record_ratings`).
    """
    since, until = await server_day(db, guild_id, now)

    async def rate_now(tx: Transaction) -> Rated:
        """Place and rate against the ratings and pair counts as the closing transaction reads them."""
        placed = places(entries)
        players = [item.user_id for item in entries if item.played]
        together = await races_db.rated_together(tx, guild_id, players, since=since, until=until)
        rated, unrated = rated_players(entries, together)
        users = [item.user_id for item in entries]
        members = [user for user in users if not is_stand_in(user)]
        stored = await races_db.ratings_of(tx, guild_id, variant, members)
        before = {user: _skill(stored.get(user)) for user in members}
        after = dict(zip(rated, rate([before[u] for u in rated], [placed[u] for u in rated]), strict=True))
        placings = [
            Placing(
                user,
                placed[user],
                before[user].display if user in before else None,
                after[user].display if user in after else None,
            )
            for user in users
        ]
        ratings = [RatingRecord(guild_id, variant, user, new.mu, new.sigma, new.races) for user, new in after.items()]
        return Rated(placings, ratings, unrated)

    return rate_now


async def server_day(db: Database, guild_id: int, now: float) -> tuple[float, float]:
    """The server's day at ``now``, as unix bounds ``[since, until)``."""
    clock = (await competition_db.guild_config(db, guild_id)).clock
    moment = datetime.fromtimestamp(now, UTC)
    today = clock.date_at(moment)
    return day_bounds(clock.zone_at(moment), today, today)


def _skill(record: RatingRecord | None) -> Skill:
    return Skill(record.mu, record.sigma, record.races) if record is not None else newcomer()

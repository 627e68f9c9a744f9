"""Forgetting a member or a server (a deletion request, a server the bot left): every table that holds their id.

:data:`MEMBER_COLUMNS` names, for every table of the schema, the columns that hold a member's id
(a test checks that no table is left out, so a new table must be placed here). A member is
forgotten everywhere at once: their own games, stats, ratings, settings and notes are deleted;
their race and challenge entries keep their place (others' places depend on them) under a stand-in
id below zero, their game there too, so no row holds their id afterwards. Nothing is forgotten while
the member (or, for a server, anyone in it) still has a game in progress, a race they entered (even one
they left) or a challenge they are in that is not over (or, for a member, a race or challenge whose
results post is still to be made): :class:`StillInPlayError` says which and when it should be over, and
the caller asks again then. So a stand-in never enters a race or challenge that is still to be rated.

Forgetting never reopens a competition: a daily of a day not yet over for its server leaves an
anonymous mark in ``used_tries`` (a keyed hash of the server, the member, the variant and the day, under
this database's own secret), so :func:`daily_try_used` still finds the day's try used;
:func:`purge_used_tries` drops each mark once its day is over for the server.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from bot.storage import Database, Transaction
from bot.storage import competition as competition_db
from solitaire.speech import N_

MEMBER_COLUMNS: dict[str, tuple[str, ...]] = {
    "announcements": ("subject",),  # a streak reminder's subject is "<user id>:<day>"
    "best_results": ("user_id",),
    "challenge_players": ("user_id",),
    "challenges": ("challenger_id",),
    "champion_holders": ("user_id",),
    "daily_activity": (),
    "daily_deals": (),
    "daily_spares": (),
    "game_moves": (),
    "games": ("user_id",),
    "guild_settings": (),
    "member_stats": ("user_id",),
    "moderation_log": ("user_id", "moderator_id"),
    "numbered_deals": (),
    "onboarding_notes": ("user_id",),
    "player_notices": ("user_id",),
    "player_settings": ("user_id",),
    "race_racers": ("user_id",),
    "race_seats": ("user_id",),
    "races": ("host_id",),
    "ratings": ("user_id",),
    "removed_results": (),
    "schema_migrations": (),
    "secrets": (),
    "shared_replays": (),
    "used_tries": (),  # an anonymous mark: a keyed hash, never the id
}
"""Every table of the schema and its columns that hold a member's id (empty: none)."""

FORGOTTEN_HOST = 0
"""The host of a race, or the challenger of a challenge, once forgotten."""


TRIES_SECRET = "forgotten-tries"
"""The name, in ``secrets``, of the key of the used-try marks (made once per database, at the first mark)."""


class StillInPlayError(Exception):
    """The member (or someone in the server) still plays: a game, a race or a challenge is not over."""

    def __init__(self, what: list[str], until: float | None = None) -> None:
        super().__init__(", ".join(what))
        self.what = what
        self.until = until
        """When the last of them should be over (unix seconds), if known: a game's, race's or challenge's deadline."""


@dataclass(frozen=True)
class Forgotten:
    """What forgetting a member removed."""

    games: int
    """Games deleted with their moves."""
    entries: int
    """Race and challenge entries kept, with their place, under a stand-in id."""
    rows: int
    """Other rows deleted (stats, ratings, settings, notes, notices, reminders) or stripped of the id."""


_MEMBER_IN_PLAY = (
    (
        N_("a game in progress"),
        "SELECT deadline AS until FROM games WHERE status = 'playing' AND user_id = ?1 ORDER BY deadline DESC LIMIT 1",
    ),
    (
        N_("an entry in a race that is not over"),  # left or not: its close still places (and rates) the entry
        "SELECT r.end_at AS until FROM race_racers AS x JOIN races AS r ON r.id = x.race_id"
        " WHERE r.status IN ('lobby', 'running') AND x.user_id = ?1 ORDER BY coalesce(r.end_at, 0) DESC LIMIT 1",
    ),
    (
        N_("an open challenge"),
        "SELECT c.deadline AS until FROM challenge_players AS p JOIN challenges AS c ON c.id = p.challenge_id"
        " WHERE c.status = 'open' AND p.user_id = ?1 ORDER BY c.deadline DESC LIMIT 1",
    ),
    (
        N_("a race or challenge whose results are still being posted"),
        "SELECT NULL AS until FROM announcements AS a WHERE a.state = 'waiting' AND ("
        "(a.kind = 'race' AND a.subject IN (SELECT CAST(race_id AS TEXT) FROM race_racers WHERE user_id = ?1))"
        " OR (a.kind = 'challenge' AND a.subject IN"
        " (SELECT CAST(challenge_id AS TEXT) FROM challenge_players WHERE user_id = ?1)))",
    ),
)
"""What makes a member wait, each with when it should be over (``until``, NULL if unknown): their entry is
still to be placed and rated, or their id still to be shown (a results post names every player)."""
_SERVER_IN_PLAY = (
    (N_("a game in progress"), "SELECT NULL AS until FROM games WHERE status = 'playing' AND guild_id = ?1"),
    (
        N_("a race that is not over"),
        "SELECT NULL AS until FROM races WHERE status IN ('lobby', 'running') AND guild_id = ?1",
    ),
    (N_("an open challenge"), "SELECT NULL AS until FROM challenges WHERE status = 'open' AND guild_id = ?1"),
)

_STAND_INS = (
    "UPDATE race_racers SET user_id = (SELECT coalesce(min(o.user_id), 0) - 1 FROM race_racers AS o"
    " WHERE o.race_id = race_racers.race_id AND o.user_id < 0) WHERE user_id = ?1",
    "UPDATE challenge_players SET user_id = (SELECT coalesce(min(o.user_id), 0) - 1 FROM challenge_players AS o"
    " WHERE o.challenge_id = challenge_players.challenge_id AND o.user_id < 0) WHERE user_id = ?1",
)
"""Give the member's race and challenge entries a stand-in id below zero, unique in their race or challenge."""

_KEPT_WITHOUT_ID = (
    f"UPDATE races SET host_id = {FORGOTTEN_HOST} WHERE host_id = ?1",
    f"UPDATE challenges SET challenger_id = {FORGOTTEN_HOST} WHERE challenger_id = ?1",
    "UPDATE games SET user_id = (SELECT r.user_id FROM race_racers AS r WHERE r.game_id = games.id)"
    " WHERE user_id = ?1 AND id IN (SELECT game_id FROM race_racers WHERE game_id IS NOT NULL)",
    "UPDATE games SET user_id = (SELECT p.user_id FROM challenge_players AS p WHERE p.game_id = games.id)"
    " WHERE user_id = ?1 AND id IN (SELECT game_id FROM challenge_players WHERE game_id IS NOT NULL)",
)
"""Keep the races and challenges they hosted, and their games there (under their entry's stand-in id)."""

_MEMBER_GAMES = "SELECT id FROM games WHERE user_id = ?1"
_SERVER_GAMES = "SELECT id FROM games WHERE guild_id = ?1"


def _game_rows(games: str) -> tuple[str, ...]:
    """Delete the games ``games`` selects, and every row about them, children first."""
    return (
        f"DELETE FROM game_moves WHERE game_id IN ({games})",
        f"DELETE FROM shared_replays WHERE game_id IN ({games})",
        f"DELETE FROM removed_results WHERE game_id IN ({games})",
        f"DELETE FROM player_notices WHERE game_id IN ({games})",
        f"DELETE FROM announcements WHERE kind = 'result' AND subject IN (SELECT CAST(id AS TEXT) FROM ({games}) AS g)",
        f"DELETE FROM games WHERE id IN ({games})",
    )


_MEMBER_ROWS = (
    "DELETE FROM best_results WHERE user_id = ?1",
    "DELETE FROM member_stats WHERE user_id = ?1",
    "DELETE FROM ratings WHERE user_id = ?1",
    "DELETE FROM race_seats WHERE user_id = ?1",
    "DELETE FROM player_settings WHERE user_id = ?1",
    "DELETE FROM player_notices WHERE user_id = ?1",
    "DELETE FROM onboarding_notes WHERE user_id = ?1",
    "DELETE FROM champion_holders WHERE user_id = ?1",
    "DELETE FROM announcements WHERE kind = 'reminder' AND subject LIKE CAST(CAST(?1 AS BIGINT) AS TEXT) || ':%'",
    "UPDATE moderation_log SET user_id = NULL WHERE user_id = ?1",
    "UPDATE moderation_log SET moderator_id = NULL WHERE moderator_id = ?1",
)
"""The member's other rows: deleted, or (the moderation log) kept without their id."""

_SERVER_ROWS = (
    "DELETE FROM race_seats WHERE guild_id = ?1",
    "DELETE FROM race_racers WHERE race_id IN (SELECT id FROM races WHERE guild_id = ?1)",
    "DELETE FROM challenge_players WHERE challenge_id IN (SELECT id FROM challenges WHERE guild_id = ?1)",
    *_game_rows(_SERVER_GAMES),
    "DELETE FROM races WHERE guild_id = ?1",
    "DELETE FROM challenges WHERE guild_id = ?1",
    "DELETE FROM moderation_log WHERE guild_id = ?1",
    "DELETE FROM best_results WHERE guild_id = ?1",
    "DELETE FROM member_stats WHERE guild_id = ?1",
    "DELETE FROM ratings WHERE guild_id = ?1",
    "DELETE FROM player_notices WHERE guild_id = ?1",
    "DELETE FROM onboarding_notes WHERE guild_id = ?1",
    "DELETE FROM champion_holders WHERE guild_id = ?1",
    "DELETE FROM announcements WHERE guild_id = ?1",
    "DELETE FROM shared_replays WHERE guild_id = ?1",
    "DELETE FROM daily_deals WHERE guild_id = ?1",
    "DELETE FROM daily_activity WHERE guild_id = ?1",
    "DELETE FROM used_tries WHERE guild_id = ?1",
    "DELETE FROM guild_settings WHERE guild_id = ?1",
)
"""Every row of a server, children first."""


async def _refuse_in_play(tx: Transaction, checks: tuple[tuple[str, str], ...], key: int) -> None:
    """:raises StillInPlayError: naming each check that finds a row, with the latest ``until`` they give."""
    found: list[str] = []
    until: float | None = None
    for what, sql in checks:
        row = await tx.fetchone(sql, (key,))
        if row is None:
            continue
        found.append(what)
        if row["until"] is not None:
            until = max(float(row["until"]), until or 0.0)
    if found:
        raise StillInPlayError(found, until)


async def _run(tx: Transaction, statements: tuple[str, ...], key: int) -> int:
    """Run each statement with ``key``; return how many rows they changed."""
    changed = 0
    for sql in statements:
        changed += (await tx.execute(sql, (key,))).rowcount
    return changed


async def forget_member(db: Database, user_id: int, *, now: float) -> Forgotten:
    """Forget a member in every server, in one transaction; their dailies of days not over keep their try used.

    :raises StillInPlayError: while they have a game in progress, a race they entered or a challenge they
        are in that is not over, or a results post naming them still to be made.
    """
    async with db.transaction() as tx:
        await _refuse_in_play(tx, _MEMBER_IN_PLAY, user_id)
        await _mark_used_tries(tx, user_id, datetime.fromtimestamp(now, UTC))
        entries = await _run(tx, _STAND_INS, user_id)
        rows = await _run(tx, _KEPT_WITHOUT_ID, user_id)
        counted = await tx.fetchone("SELECT count(*) AS n FROM games WHERE user_id = ?1", (user_id,))
        games = int(counted["n"]) if counted is not None else 0
        rows += await _run(tx, _game_rows(_MEMBER_GAMES), user_id) - games
        rows += await _run(tx, _MEMBER_ROWS, user_id)
    return Forgotten(games=games, entries=entries, rows=rows)


async def forget_server(db: Database, guild_id: int) -> int:
    """Delete every row of a server (after the bot left it), in one transaction; return how many went.

    :raises StillInPlayError: while a game, a race or a challenge there is not over.
    """
    async with db.transaction() as tx:
        await _refuse_in_play(tx, _SERVER_IN_PLAY, guild_id)
        return await _run(tx, _SERVER_ROWS, guild_id)


# -- the used-try marks --------------------------------------------------------------------------
def used_try_mark(key: str, guild_id: int, user_id: int, variant: str, daily_date: str) -> str:
    """The anonymous mark of a member's daily try: a keyed hash that keeps no id.

    >>> used_try_mark("k", 1, 2, "draw3", "2024-05-01") == used_try_mark("k", 1, 2, "draw3", "2024-05-01")
    True
    >>> used_try_mark("k", 1, 2, "draw3", "2024-05-01") == used_try_mark("k", 1, 3, "draw3", "2024-05-01")
    False
    """
    message = f"daily:{guild_id}:{user_id}:{variant}:{daily_date}".encode()
    return hmac.new(key.encode(), message, hashlib.sha256).hexdigest()


async def _tries_key(tx: Transaction) -> str:
    """This database's key of the marks, made at the first mark."""
    await tx.execute(
        "INSERT INTO secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
        (TRIES_SECRET, secrets.token_hex(32)),
    )
    row = await tx.fetchone("SELECT value FROM secrets WHERE name = ?", (TRIES_SECRET,))
    assert row is not None
    return str(row["value"])


async def _mark_used_tries(tx: Transaction, user_id: int, now: datetime) -> None:
    """Mark each daily of the member whose day is not over yet for its server (today or later there)."""
    rows = await tx.fetchall(
        "SELECT DISTINCT guild_id, variant, daily_date FROM games"
        " WHERE user_id = ? AND mode = 'daily' AND daily_date >= ?",
        (user_id, (now.date() - timedelta(days=1)).isoformat()),  # no server's day is older
    )
    key: str | None = None
    for row in rows:
        guild_id, daily_date = int(row["guild_id"]), str(row["daily_date"])
        if daily_date < (await competition_db.guild_config(tx, guild_id)).clock.date_at(now).isoformat():
            continue
        key = key or await _tries_key(tx)
        await tx.execute(
            "INSERT INTO used_tries (mark, guild_id, daily_date) VALUES (?, ?, ?) ON CONFLICT (mark) DO NOTHING",
            (used_try_mark(key, guild_id, user_id, str(row["variant"]), daily_date), guild_id, daily_date),
        )


async def daily_try_used(db: Database, guild_id: int, user_id: int, variant: str, daily_date: str) -> bool:
    """Whether a member's try of this daily was used before they were forgotten (its game is gone)."""
    key = await db.fetchone("SELECT value FROM secrets WHERE name = ?", (TRIES_SECRET,))
    if key is None:
        return False
    mark = used_try_mark(str(key["value"]), guild_id, user_id, variant, daily_date)
    return await db.fetchone("SELECT 1 AS one FROM used_tries WHERE mark = ?", (mark,)) is not None


async def purge_used_tries(db: Database, now: datetime) -> float | None:
    """Drop the marks of days over for their server; return seconds until the next of those still kept ends."""
    wait: float | None = None
    for row in await db.fetchall("SELECT DISTINCT guild_id FROM used_tries"):
        clock = (await competition_db.guild_config(db, int(row["guild_id"]))).clock
        await db.execute(
            "DELETE FROM used_tries WHERE guild_id = ? AND daily_date < ?",
            (int(row["guild_id"]), clock.date_at(now).isoformat()),
        )
        if await db.fetchone("SELECT 1 AS one FROM used_tries WHERE guild_id = ?", (int(row["guild_id"]),)):
            ends = (clock.next_rollover(now) - now).total_seconds()
            wait = ends if wait is None else min(wait, ends)
    return wait

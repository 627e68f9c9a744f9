"""Forgetting a member or a server (a deletion request, a server the bot left): every table that holds their id.

:data:`MEMBER_COLUMNS` names, for every table of the schema, the columns that hold a member's id
(a test checks that no table is left out, so a new table must be placed here). A member is
forgotten everywhere at once: their own games, stats, ratings, settings and notes are deleted;
their race and challenge entries keep their place (others' places depend on them) under a stand-in
id below zero, their game there too, so no row holds their id afterwards. Nothing is forgotten while
the member (or, for a server, anyone in it) still has a game in progress, a place in an open race,
or an open challenge (or, for a member, a race or challenge whose results post is still to be made):
:class:`StillInPlayError` says which, and the caller asks again once it is over.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage import Database, Transaction

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
}
"""Every table of the schema and its columns that hold a member's id (empty: none)."""

FORGOTTEN_HOST = 0
"""The host of a race, or the challenger of a challenge, once forgotten."""


class StillInPlayError(Exception):
    """The member (or someone in the server) still plays: a game, a race or a challenge is not over."""

    def __init__(self, what: list[str]) -> None:
        super().__init__(", ".join(what))
        self.what = what


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
    ("a game in progress", "SELECT 1 AS one FROM games WHERE status = 'playing' AND user_id = ?1"),
    ("a place in a race that is not over", "SELECT 1 AS one FROM race_seats WHERE user_id = ?1"),
    (
        "an open challenge",
        "SELECT 1 AS one FROM challenge_players AS p JOIN challenges AS c ON c.id = p.challenge_id"
        " WHERE c.status = 'open' AND p.user_id = ?1",
    ),
    (
        "a race or challenge whose results are still being posted",
        "SELECT 1 AS one FROM announcements AS a WHERE a.state = 'waiting' AND ("
        "(a.kind = 'race' AND a.subject IN (SELECT CAST(race_id AS TEXT) FROM race_racers WHERE user_id = ?1))"
        " OR (a.kind = 'challenge' AND a.subject IN"
        " (SELECT CAST(challenge_id AS TEXT) FROM challenge_players WHERE user_id = ?1)))",
    ),
)
"""What makes a member wait: their id is still to be shown (a results post names every player)."""
_SERVER_IN_PLAY = (
    ("a game in progress", "SELECT 1 AS one FROM games WHERE status = 'playing' AND guild_id = ?1"),
    ("a race that is not over", "SELECT 1 AS one FROM races WHERE status IN ('lobby', 'running') AND guild_id = ?1"),
    ("an open challenge", "SELECT 1 AS one FROM challenges WHERE status = 'open' AND guild_id = ?1"),
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
    "DELETE FROM guild_settings WHERE guild_id = ?1",
)
"""Every row of a server, children first."""


async def _refuse_in_play(tx: Transaction, checks: tuple[tuple[str, str], ...], key: int) -> None:
    """:raises StillInPlayError: naming each check that finds a row."""
    found = [what for what, sql in checks if await tx.fetchone(sql, (key,)) is not None]
    if found:
        raise StillInPlayError(found)


async def _run(tx: Transaction, statements: tuple[str, ...], key: int) -> int:
    """Run each statement with ``key``; return how many rows they changed."""
    changed = 0
    for sql in statements:
        changed += (await tx.execute(sql, (key,))).rowcount
    return changed


async def forget_member(db: Database, user_id: int) -> Forgotten:
    """Forget a member in every server, in one transaction.

    :raises StillInPlayError: while they have a game in progress, a place in an open race or an open challenge.
    """
    async with db.transaction() as tx:
        await _refuse_in_play(tx, _MEMBER_IN_PLAY, user_id)
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

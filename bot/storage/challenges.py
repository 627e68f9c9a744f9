"""The ``challenges`` and ``challenge_players`` tables (V012, V019): who is in, their one attempt, places and ratings.

Every change of a challenge is one conditional statement or transaction, so clicks arriving together,
restarts and two processes never do a thing twice: an answer only moves an invitation on, an attempt
is tied to its game in the game's own insert (:func:`attempt_link`), and a challenge closes once, with
its places, ratings and results post written together (:func:`close_challenge`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Literal

from bot.storage import Database, Row, Transaction
from bot.storage.games import Link
from bot.storage.races import Rate, record_ratings

ChallengeStatus = Literal["open", "closed", "cancelled"]
"""``cancelled``: its public message could not be shown; nobody played it, it posts nothing."""
Answer = Literal["challenger", "invited", "accepted", "declined"]

_COLUMNS = (
    "id, guild_id, channel_id, message_id, challenger_id, variant, show_scores, status, created_at, deadline,"
    " deal, deal_seed, closed_at, unrated_reason"
)
_PLAYER_COLUMNS = "challenge_id, user_id, answer, answered_at, game_id, place, rating_before, rating_after, rated"


@dataclass(frozen=True)
class ChallengeRecord:
    """One row of ``challenges``."""

    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    challenger_id: int
    variant: str
    show_scores: bool
    """Scores are shown as they come (``open:``); by default only once the challenge is closed."""
    status: ChallengeStatus
    created_at: float
    deadline: float
    deal: str
    """The shared deal's JSON: never shown while the challenge is open."""
    deal_seed: str
    closed_at: float | None
    unrated_reason: str | None

    @classmethod
    def from_row(cls, row: Row) -> ChallengeRecord:
        """Build a record from a ``SELECT`` of every column."""
        values = {field.name: row[field.name] for field in fields(cls)}
        values["show_scores"] = bool(values["show_scores"])
        return cls(**values)


@dataclass(frozen=True)
class PlayerRecord:
    """One row of ``challenge_players``: a named member (or the challenger) and their attempt."""

    challenge_id: int
    user_id: int
    answer: Answer
    answered_at: float | None
    game_id: int | None
    place: int | None
    rating_before: float | None
    rating_after: float | None
    rated: bool

    @property
    def in_it(self) -> bool:
        """Whether this member plays (the challenger, or a member who accepted)."""
        return self.answer in ("challenger", "accepted")

    @classmethod
    def from_row(cls, row: Row) -> PlayerRecord:
        """Build a record from a ``SELECT`` of every column."""
        values = {field.name: row[field.name] for field in fields(cls)}
        values["rated"] = bool(values["rated"])
        return cls(**values)


async def create_challenge(
    db: Database,
    *,
    guild_id: int,
    channel_id: int,
    challenger_id: int,
    invited: Sequence[int],
    variant: str,
    show_scores: bool,
    now: float,
    deadline: float,
    deal: str,
    deal_seed: str,
) -> ChallengeRecord:
    """Open a challenge with its challenger and the members they named, in one transaction."""
    async with db.transaction() as tx:
        row = await tx.fetchone(
            "INSERT INTO challenges (guild_id, channel_id, challenger_id, variant, show_scores, status, created_at,"
            f" deadline, deal, deal_seed) VALUES (?, ?, ?, ?, ?, 'open', ?, ?, ?, ?) RETURNING {_COLUMNS}",
            (guild_id, channel_id, challenger_id, variant, int(show_scores), now, deadline, deal, deal_seed),
        )
        assert row is not None
        named: list[tuple[int, int, int, str, float | None]] = [(row["id"], 0, challenger_id, "challenger", now)]
        named += [(row["id"], n, user_id, "invited", None) for n, user_id in enumerate(invited, start=1)]
        await tx.executemany(
            "INSERT INTO challenge_players (challenge_id, position, user_id, answer, answered_at)"
            " VALUES (?, ?, ?, ?, ?)",
            named,
        )
    return ChallengeRecord.from_row(row)


async def get_challenge(db: Database, challenge_id: int) -> ChallengeRecord | None:
    """Return challenge ``challenge_id``, or ``None``."""
    row = await db.fetchone(f"SELECT {_COLUMNS} FROM challenges WHERE id = ?", (challenge_id,))
    return ChallengeRecord.from_row(row) if row is not None else None


async def players(db: Database, challenge_id: int) -> list[PlayerRecord]:
    """The challenger, then the named members in the order they were named."""
    rows = await db.fetchall(
        f"SELECT {_PLAYER_COLUMNS} FROM challenge_players WHERE challenge_id = ? ORDER BY position", (challenge_id,)
    )
    return [PlayerRecord.from_row(row) for row in rows]


async def open_challenges(db: Database) -> list[ChallengeRecord]:
    """Every open challenge, oldest first (to re-arm their deadlines after a restart)."""
    rows = await db.fetchall(f"SELECT {_COLUMNS} FROM challenges WHERE status = 'open' ORDER BY id")
    return [ChallengeRecord.from_row(row) for row in rows]


async def open_of_member(db: Database, guild_id: int, challenger_id: int) -> list[ChallengeRecord]:
    """The open challenges a member made in a server, oldest first."""
    rows = await db.fetchall(
        f"SELECT {_COLUMNS} FROM challenges WHERE guild_id = ? AND challenger_id = ? AND status = 'open' ORDER BY id",
        (guild_id, challenger_id),
    )
    return [ChallengeRecord.from_row(row) for row in rows]


async def of_member(
    db: Database, guild_id: int, user_id: int, *, closed_since: float, limit: int
) -> list[ChallengeRecord]:
    """The challenges of a server a member is in (as challenger or named): the open ones, then those closed since
    ``closed_since``, newest first, at most ``limit`` (a challenge whose message is not shown yet is left out)."""
    rows = await db.fetchall(
        f"SELECT {_COLUMNS} FROM challenges WHERE guild_id = ? AND message_id IS NOT NULL"
        " AND (status = 'open' OR (status = 'closed' AND closed_at >= ?))"
        " AND id IN (SELECT challenge_id FROM challenge_players WHERE user_id = ?)"
        " ORDER BY CASE status WHEN 'open' THEN 0 ELSE 1 END, id DESC LIMIT ?",
        (guild_id, closed_since, user_id, limit),
    )
    return [ChallengeRecord.from_row(row) for row in rows]


async def cancel_challenge(db: Database, challenge_id: int, now: float) -> bool:
    """Cancel an open challenge nobody has played (its message could not be shown); return whether it did."""
    changed = await db.execute(
        "UPDATE challenges SET status = 'cancelled', closed_at = ? WHERE id = ? AND status = 'open'"
        " AND NOT EXISTS (SELECT 1 FROM challenge_players WHERE challenge_id = ? AND game_id IS NOT NULL)",
        (now, challenge_id, challenge_id),
    )
    return changed.rowcount == 1


async def challenge_of_game(db: Database, game_id: int) -> int | None:
    """The challenge a game is the attempt of, or ``None``."""
    row = await db.fetchone("SELECT challenge_id FROM challenge_players WHERE game_id = ?", (game_id,))
    return int(row["challenge_id"]) if row is not None else None


async def set_message(db: Database, challenge_id: int, message_id: int) -> None:
    """Remember the public challenge message."""
    await db.execute("UPDATE challenges SET message_id = ? WHERE id = ?", (message_id, challenge_id))


async def answer(
    db: Database, challenge_id: int, user_id: int, reply: Literal["accepted", "declined"], now: float
) -> bool:
    """Record a named member's answer while the challenge takes attempts; return whether it changed anything.

    An invitation may be accepted or declined; an acceptance may still be declined before its attempt.
    """
    allowed = "('invited')" if reply == "accepted" else "('invited', 'accepted')"
    changed = await db.execute(
        f"UPDATE challenge_players SET answer = ?, answered_at = ? WHERE challenge_id = ? AND user_id = ?"
        f" AND answer IN {allowed} AND game_id IS NULL AND EXISTS (SELECT 1 FROM challenges"
        " WHERE id = ? AND status = 'open' AND deadline > ?)",
        (reply, now, challenge_id, user_id, challenge_id, now),
    )
    return changed.rowcount == 1


def attempt_link(challenge_id: int, user_id: int, now: float) -> Link:
    """Tie a new game to a member's one attempt, in the game's insert: refused once they have one, when they
    are not in the challenge (an invitation is accepted by playing), or once it takes no more attempts."""

    async def link(tx: Transaction, game_id: int) -> bool:
        changed = await tx.execute(
            "UPDATE challenge_players SET game_id = ?, answer = CASE answer WHEN 'invited' THEN 'accepted'"
            " ELSE answer END, answered_at = coalesce(answered_at, ?) WHERE challenge_id = ? AND user_id = ?"
            " AND answer IN ('challenger', 'invited', 'accepted') AND game_id IS NULL AND EXISTS"
            " (SELECT 1 FROM challenges WHERE id = ? AND status = 'open' AND deadline > ?)",
            (game_id, now, challenge_id, user_id, challenge_id, now),
        )
        return changed.rowcount == 1

    return link


async def close_challenge(db: Database, challenge_id: int, *, now: float, rate: Rate) -> bool:
    """Close an open challenge once: places and ratings (``rate``, see :func:`bot.storage.races.record_ratings`)
    and its results post (``announcements``), together."""
    async with db.transaction() as tx:
        challenge = await tx.fetchone(
            "UPDATE challenges SET status = 'closed', closed_at = ? WHERE id = ? AND status = 'open'"
            " RETURNING guild_id",
            (now, challenge_id),
        )
        if challenge is None:
            return False
        rated = await record_ratings(tx, int(challenge["guild_id"]), rate, now)
        await tx.execute("UPDATE challenges SET unrated_reason = ? WHERE id = ?", (rated.unrated_reason, challenge_id))
        await tx.executemany(
            "UPDATE challenge_players SET place = ?, rating_before = ?, rating_after = ?, rated = ?"
            " WHERE challenge_id = ? AND user_id = ?",
            [(p.place, p.rating_before, p.rating_after, int(p.rated), challenge_id, p.user_id) for p in rated.placings],
        )
        await tx.execute(
            "INSERT INTO announcements (guild_id, kind, subject, channel_id, created_at, due_at)"
            " SELECT guild_id, 'challenge', CAST(id AS TEXT), channel_id, CAST(? AS DOUBLE PRECISION),"
            " CAST(? AS DOUBLE PRECISION) FROM challenges WHERE id = ? ON CONFLICT DO NOTHING",
            (now, now, challenge_id),
        )
    return True

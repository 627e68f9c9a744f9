"""The ``races``, ``race_racers`` and ``ratings`` tables (V007): lobbies, racers, results and ratings."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, fields
from typing import Literal

from bot.rules.stand_ins import is_stand_in
from bot.storage import Database, Row, Transaction

RaceStatus = Literal["lobby", "running", "finished", "cancelled", "expired"]

_RACE_COLUMNS = (
    "id, guild_id, channel_id, message_id, host_id, variant, capacity, status, created_at, lobby_deadline,"
    " start_at, end_at, deal_number, finished_at, results_posted_at, deal, deal_seed, unrated_reason"
)
_RACER_COLUMNS = "race_id, user_id, joined_at, game_id, left_at, place, rating_before, rating_after, rated"
JoinOutcome = Literal["joined", "full", "closed", "playing", "seated"]
"""What :func:`add_racer` did: added, or why not (no room, no longer a lobby, a game running, in another race)."""


@dataclass(frozen=True)
class RaceRecord:
    """One row of ``races``."""

    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    host_id: int
    variant: str
    capacity: int
    status: RaceStatus
    created_at: float
    lobby_deadline: float
    start_at: float | None
    end_at: float | None
    deal_number: int | None
    """The public deal of a race before V011 (races are dealt from the private bank since)."""
    finished_at: float | None
    results_posted_at: float | None
    deal: str | None = None
    """The shared deal's JSON (``bot.rules.daily_deals.deal_to_json``): never shown while the race runs."""
    deal_seed: str | None = None
    """The shared deal's shuffle seed, shown once the race is over."""
    unrated_reason: str | None = None
    """Why the finished race moved no rating (``None``: it was rated, or it is not finished)."""

    @classmethod
    def from_row(cls, row: Row) -> RaceRecord:
        """Build a record from a ``SELECT`` of every column."""
        return cls(**{field.name: row[field.name] for field in fields(cls)})


@dataclass(frozen=True)
class RacerRecord:
    """One row of ``race_racers``."""

    race_id: int
    user_id: int
    joined_at: float
    game_id: int | None
    left_at: float | None
    place: int | None
    rating_before: float | None
    rating_after: float | None
    rated: bool = False
    """Whether this race moved the racer's rating."""

    @classmethod
    def from_row(cls, row: Row) -> RacerRecord:
        """Build a record from a ``SELECT`` of every column."""
        values = {field.name: row[field.name] for field in fields(cls)}
        values["rated"] = bool(values["rated"])
        return cls(**values)


@dataclass(frozen=True)
class RatingRecord:
    """One member's rating in a server and variant (openskill's ``mu`` and ``sigma``)."""

    guild_id: int
    variant: str
    user_id: int
    mu: float
    sigma: float
    races: int


@dataclass(frozen=True)
class Placing:
    """A racer's final place and displayed rating change (``None``: not rated), written when the race finishes."""

    user_id: int
    place: int
    rating_before: float | None
    rating_after: float | None

    @property
    def rated(self) -> bool:
        """Whether this race moved the racer's rating."""
        return self.rating_after is not None


@dataclass(frozen=True)
class Rated:
    """What closing a race or a challenge stores: every player's place, the new ratings, why none moved (if so)."""

    placings: Sequence[Placing]
    ratings: Sequence[RatingRecord]
    unrated_reason: str | None = None


Rate = Callable[[Transaction], Awaitable[Rated]]
"""Works out a closing race's or challenge's places and ratings in its closing transaction (:func:`record_ratings`)."""


class SeatTakenError(Exception):
    """The member already sits in another open race of the server."""


async def create_race(
    db: Database,
    *,
    guild_id: int,
    channel_id: int,
    host_id: int,
    variant: str,
    capacity: int,
    now: float,
    lobby_deadline: float,
) -> RaceRecord:
    """Open a lobby with its host as the first racer (seated in it).

    :raises SeatTakenError: the host already sits in another open race of the server (nothing is written).
    """
    async with db.transaction() as tx:
        row = await tx.fetchone(
            "INSERT INTO races (guild_id, channel_id, host_id, variant, capacity, status, created_at,"
            f" lobby_deadline) VALUES (?, ?, ?, ?, ?, 'lobby', ?, ?) RETURNING {_RACE_COLUMNS}",
            (guild_id, channel_id, host_id, variant, capacity, now, lobby_deadline),
        )
        assert row is not None
        if not await _take_seat(tx, guild_id, host_id, row["id"]):
            raise SeatTakenError()  # rolls the new race back
        await tx.execute(
            "INSERT INTO race_racers (race_id, user_id, joined_at) VALUES (?, ?, ?)", (row["id"], host_id, now)
        )
    return RaceRecord.from_row(row)


async def _take_seat(tx: Transaction, guild_id: int, user_id: int, race_id: int) -> bool:
    """Seat a member in a race of a server; ``False`` if they sit in another open race there (V011)."""
    changed = await tx.execute(
        "INSERT INTO race_seats (guild_id, user_id, race_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
        (guild_id, user_id, race_id),
    )
    return changed.rowcount == 1


async def seated_race(db: Database, guild_id: int, user_id: int) -> int | None:
    """The open race (lobby or running) a member sits in, in this server, or ``None``."""
    row = await db.fetchone("SELECT race_id FROM race_seats WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
    return int(row["race_id"]) if row is not None else None


async def get_race(db: Database, race_id: int) -> RaceRecord | None:
    """Return race ``race_id``, or ``None``."""
    row = await db.fetchone(f"SELECT {_RACE_COLUMNS} FROM races WHERE id = ?", (race_id,))
    return RaceRecord.from_row(row) if row is not None else None


async def open_races(db: Database) -> list[RaceRecord]:
    """Every lobby and running race, oldest first (to resume after a restart)."""
    rows = await db.fetchall(
        f"SELECT {_RACE_COLUMNS} FROM races WHERE status IN ('lobby', 'running') ORDER BY id",
    )
    return [RaceRecord.from_row(row) for row in rows]


async def racers(db: Database, race_id: int) -> list[RacerRecord]:
    """The racers of a race in joining order."""
    rows = await db.fetchall(
        f"SELECT {_RACER_COLUMNS} FROM race_racers WHERE race_id = ? ORDER BY joined_at, user_id",
        (race_id,),
    )
    return [RacerRecord.from_row(row) for row in rows]


async def race_of_game(db: Database, game_id: int) -> int | None:
    """The race a game belongs to, or ``None``."""
    row = await db.fetchone("SELECT race_id FROM race_racers WHERE game_id = ?", (game_id,))
    return int(row["race_id"]) if row is not None else None


class _RefusedError(Exception):
    """Undo a join's transaction, saying why."""

    def __init__(self, outcome: JoinOutcome) -> None:
        self.outcome: JoinOutcome = outcome


async def add_racer(db: Database, race_id: int, user_id: int, now: float) -> JoinOutcome:
    """Seat a member in a lobby that has room, in one transaction; return ``"joined"`` or why not.

    Refused (nothing written): the lobby is full (``"full"``) or no longer a lobby (``"closed"``), the
    member has a game running in the server (``"playing"``) or sits in another open race there (``"seated"``).
    """
    try:
        async with db.transaction() as tx:
            # Lock the race's row first (PostgreSQL; SQLite's transactions already run one at a time), so
            # joins arriving together are counted one after the other and never overfill the lobby.
            await tx.execute("UPDATE races SET capacity = capacity WHERE id = ?", (race_id,))
            race = await tx.fetchone(
                "SELECT guild_id, status, capacity, (SELECT count(*) FROM race_racers WHERE race_id = ?) AS racers"
                " FROM races WHERE id = ?",
                (race_id, race_id),
            )
            if race is None or race["status"] != "lobby":
                raise _RefusedError("closed")
            if race["racers"] >= race["capacity"]:
                raise _RefusedError("full")
            guild_id = int(race["guild_id"])
            playing = await tx.fetchone(
                "SELECT 1 FROM games WHERE guild_id = ? AND user_id = ? AND status = 'playing'", (guild_id, user_id)
            )
            if playing is not None:
                raise _RefusedError("playing")
            if not await _take_seat(tx, guild_id, user_id, race_id):
                raise _RefusedError("seated")
            await tx.execute(
                "INSERT INTO race_racers (race_id, user_id, joined_at) VALUES (?, ?, ?)", (race_id, user_id, now)
            )
    except _RefusedError as refused:
        return refused.outcome
    return "joined"


async def remove_racer(db: Database, race_id: int, user_id: int) -> bool:
    """Take a racer out of a lobby (and give back their seat); return whether they were in it."""
    async with db.transaction() as tx:
        changed = await tx.execute(
            "DELETE FROM race_racers WHERE race_id = ? AND user_id = ?"
            " AND (SELECT status FROM races WHERE id = ?) = 'lobby'",
            (race_id, user_id, race_id),
        )
        if changed.rowcount == 1:
            await tx.execute("DELETE FROM race_seats WHERE race_id = ? AND user_id = ?", (race_id, user_id))
    return changed.rowcount == 1


async def set_host(db: Database, race_id: int, host_id: int) -> None:
    """Hand a lobby to another racer."""
    await db.execute("UPDATE races SET host_id = ? WHERE id = ?", (host_id, race_id))


async def set_message(db: Database, race_id: int, message_id: int) -> None:
    """Remember the public race message."""
    await db.execute("UPDATE races SET message_id = ? WHERE id = ?", (message_id, race_id))


async def close_lobby(db: Database, race_id: int, status: Literal["cancelled", "expired"], now: float) -> bool:
    """Cancel or expire a lobby once (its racers' seats given back); return whether this call closed it."""
    async with db.transaction() as tx:
        changed = await tx.execute(
            "UPDATE races SET status = ?, finished_at = ? WHERE id = ? AND status = 'lobby'", (status, now, race_id)
        )
        await tx.execute("DELETE FROM race_seats WHERE race_id = ?", (race_id,))
    return changed.rowcount == 1


async def claim_start(db: Database, race_id: int, *, start_at: float, end_at: float, deal: str, seed: str) -> bool:
    """Turn a lobby into a running race on a private deal (JSON, and its seed) once; return whether this call did."""
    changed = await db.execute(
        "UPDATE races SET status = 'running', start_at = ?, end_at = ?, deal = ?, deal_seed = ?"
        " WHERE id = ? AND status = 'lobby'",
        (start_at, end_at, deal, seed, race_id),
    )
    return changed.rowcount == 1


async def set_game(db: Database, race_id: int, user_id: int, game_id: int) -> None:
    """Link a racer to their game."""
    await db.execute(
        "UPDATE race_racers SET game_id = ? WHERE race_id = ? AND user_id = ?", (game_id, race_id, user_id)
    )


async def mark_left(db: Database, race_id: int, user_id: int, now: float) -> bool:
    """Record that a racer left a running race (their seat given back); return whether this call did."""
    async with db.transaction() as tx:
        changed = await tx.execute(
            "UPDATE race_racers SET left_at = ? WHERE race_id = ? AND user_id = ? AND left_at IS NULL",
            (now, race_id, user_id),
        )
        await tx.execute("DELETE FROM race_seats WHERE race_id = ? AND user_id = ?", (race_id, user_id))
    return changed.rowcount == 1


async def ratings_of(
    db: Database | Transaction, guild_id: int, variant: str, user_ids: Sequence[int]
) -> dict[int, RatingRecord]:
    """The stored ratings of these members (members with none are missing)."""
    if not user_ids:
        return {}
    marks = ", ".join("?" for _ in user_ids)
    rows = await db.fetchall(
        f"SELECT guild_id, variant, user_id, mu, sigma, races FROM ratings"
        f" WHERE guild_id = ? AND variant = ? AND user_id IN ({marks})",
        (guild_id, variant, *user_ids),
    )
    return {int(row["user_id"]): _rating(row) for row in rows}


async def finish_race(db: Database, race_id: int, *, now: float, rate: Rate) -> bool:
    """Write the final places and the new ratings once (``rate``, see :func:`record_ratings`), give the seats back
    and queue the results post.

    One transaction; returns whether this call did it (the post goes through ``announcements``, retried
    until the race message shows the results).
    """
    async with db.transaction() as tx:
        race = await tx.fetchone(
            "UPDATE races SET status = 'finished', finished_at = ? WHERE id = ? AND status = 'running'"
            " RETURNING guild_id",
            (now, race_id),
        )
        if race is None:
            return False
        rated = await record_ratings(tx, int(race["guild_id"]), rate, now)
        await tx.execute("UPDATE races SET unrated_reason = ? WHERE id = ?", (rated.unrated_reason, race_id))
        await tx.executemany(
            "UPDATE race_racers SET place = ?, rating_before = ?, rating_after = ?, rated = ?"
            " WHERE race_id = ? AND user_id = ?",
            [(p.place, p.rating_before, p.rating_after, int(p.rated), race_id, p.user_id) for p in rated.placings],
        )
        await tx.execute("DELETE FROM race_seats WHERE race_id = ?", (race_id,))
        await tx.execute(
            "INSERT INTO announcements (guild_id, kind, subject, channel_id, created_at, due_at)"
            " SELECT guild_id, 'race', CAST(id AS TEXT), channel_id, CAST(? AS DOUBLE PRECISION),"
            " CAST(? AS DOUBLE PRECISION) FROM races WHERE id = ? ON CONFLICT DO NOTHING",
            (now, now, race_id),
        )
    return True


async def record_ratings(tx: Transaction, guild_id: int, rate: Rate, now: float) -> Rated:
    """Rate a closing race or challenge of a server and store its new ratings, in the transaction that closes it.

    The server's ratings are locked first (:meth:`Transaction.lock`), so ``rate`` reads the ratings and the pair
    counts as the last close left them, and two closes at one instant (two processes included) both count.
    """
    await tx.lock(f"ratings:{guild_id}")
    rated = await rate(tx)
    await _write_ratings(tx, rated.ratings, now)
    return rated


async def _write_ratings(tx: Transaction, ratings: Sequence[RatingRecord], now: float) -> None:
    """Store new ratings (a race's or a challenge's), in the transaction that records their places.

    A forgotten member's stand-in never gets a rating row (:mod:`bot.rules.stand_ins`), whatever ``ratings`` says.
    """
    members = [r for r in ratings if not is_stand_in(r.user_id)]
    await tx.executemany(
        "INSERT INTO ratings (guild_id, variant, user_id, mu, sigma, races, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (guild_id, variant, user_id) DO UPDATE SET"
        " mu = excluded.mu, sigma = excluded.sigma, races = excluded.races, updated_at = excluded.updated_at",
        [(r.guild_id, r.variant, r.user_id, r.mu, r.sigma, r.races, now) for r in members],
    )


async def rated_together(
    db: Database | Transaction, guild_id: int, user_ids: Sequence[int], *, since: float, until: float
) -> dict[tuple[int, int], int]:
    """How many rated races and challenges of a server, ended in ``[since, until)``, each pair of these members
    was rated in together.

    Keys are ``(lower id, higher id)``; pairs that never were rated together are missing.
    """
    if len(user_ids) < 2:
        return {}
    marks = ", ".join("?" for _ in user_ids)
    pairs = (
        "SELECT a.user_id AS first, b.user_id AS second FROM {players} AS a"
        " JOIN {players} AS b ON b.{key} = a.{key} AND b.user_id > a.user_id JOIN {events} AS e ON e.id = a.{key}"
        " WHERE e.guild_id = ? AND e.{ended} >= ? AND e.{ended} < ? AND a.rated = 1 AND b.rated = 1"
        f" AND a.user_id IN ({marks}) AND b.user_id IN ({marks})"
    )
    races = pairs.format(players="race_racers", key="race_id", events="races", ended="finished_at")
    challenges = pairs.format(players="challenge_players", key="challenge_id", events="challenges", ended="closed_at")
    window = (guild_id, since, until, *user_ids, *user_ids)
    rows = await db.fetchall(
        f"SELECT first, second, count(*) AS together FROM ({races} UNION ALL {challenges}) AS rated"
        " GROUP BY first, second",
        window + window,
    )
    return {(int(row["first"]), int(row["second"])): int(row["together"]) for row in rows}


async def rating_board(db: Database, guild_id: int, variant: str) -> list[RatingRecord]:
    """Every member's rating of a server and variant (the caller orders them by displayed rating).

    A stand-in's row (an older version wrote some) is never listed.
    """
    rows = await db.fetchall(
        "SELECT guild_id, variant, user_id, mu, sigma, races FROM ratings WHERE guild_id = ? AND variant = ?",
        (guild_id, variant),
    )
    return [rating for rating in map(_rating, rows) if not is_stand_in(rating.user_id)]


async def member_ratings(db: Database, guild_id: int, user_id: int) -> list[RatingRecord]:
    """A member's ratings in a server, one per variant raced."""
    rows = await db.fetchall(
        "SELECT guild_id, variant, user_id, mu, sigma, races FROM ratings WHERE guild_id = ? AND user_id = ?"
        " ORDER BY variant",
        (guild_id, user_id),
    )
    return [_rating(row) for row in rows]


async def first_places(db: Database, guild_id: int, user_id: int) -> dict[str, int]:
    """How many finished races of a server a member won, per variant (variants never won are left out)."""
    rows = await db.fetchall(
        "SELECT races.variant AS variant, count(*) AS wins"
        " FROM race_racers JOIN races ON races.id = race_racers.race_id"
        " WHERE races.guild_id = ? AND race_racers.user_id = ? AND races.status = 'finished' AND race_racers.place = 1"
        " GROUP BY races.variant",
        (guild_id, user_id),
    )
    return {str(row["variant"]): int(row["wins"]) for row in rows}


async def rating_history(db: Database, guild_id: int, user_id: int, *, limit: int = 500) -> list[Row]:
    """A member's last ``limit`` rated races in a server, oldest first: ``variant, rating_before, rating_after``."""
    rows = await db.fetchall(
        "SELECT races.variant AS variant, race_racers.rating_before AS rating_before,"
        " race_racers.rating_after AS rating_after FROM race_racers JOIN races ON races.id = race_racers.race_id"
        " WHERE races.guild_id = ? AND race_racers.user_id = ? AND races.status = 'finished' AND race_racers.rated = 1"
        " AND race_racers.rating_after IS NOT NULL ORDER BY races.finished_at DESC, races.id DESC LIMIT ?",
        (guild_id, user_id, limit),
    )
    return rows[::-1]


def _rating(row: Row) -> RatingRecord:
    return RatingRecord(
        guild_id=int(row["guild_id"]),
        variant=str(row["variant"]),
        user_id=int(row["user_id"]),
        mu=float(row["mu"]),
        sigma=float(row["sigma"]),
        races=int(row["races"]),
    )

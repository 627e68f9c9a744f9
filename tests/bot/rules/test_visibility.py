"""The score rule is defined once (``bot.rules.visibility.score_public``): its SQL twin must agree with it.

Every race status and every challenge status (with and without ``open:`` scores), and games of no race or
challenge, go through the real migrations on both backends; the games the SQL calls public must be exactly
those the Python rule calls public.
"""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator
from pathlib import Path
from typing import get_args

import pytest_asyncio

from bot.rules.visibility import EventState, score_public
from bot.storage import Database
from bot.storage import challenges as challenges_db
from bot.storage import games as games_db
from bot.storage import races as races_db
from bot.storage.conditions import sql_score_public

GUILD = 5
CASES: list[EventState | None] = [
    None,
    *(EventState("race", status) for status in get_args(races_db.RaceStatus)),
    *(
        EventState("challenge", status, shown)
        for status, shown in itertools.product(get_args(challenges_db.ChallengeStatus), (False, True))
    ),
]


@pytest_asyncio.fixture
async def db(database_target: str | Path) -> AsyncIterator[Database]:
    database = await Database.open(database_target)
    yield database
    await database.close()


async def finished_game(db: Database, user_id: int, mode: games_db.Mode) -> int:
    """A finished game of ``user_id`` (its own member, so no two open races share a seat)."""
    game = await games_db.insert_game(
        db, games_db.NewGame(GUILD, 1, user_id, "draw3", mode, None, None, "{}", 0.0, 300.0)
    )
    result = games_db.Result("{}", "ended", 100, 30, 40.0, 1)
    assert await games_db.finish_game(db, game.id, result, saved_version=0) is not None
    return game.id


async def game_of(db: Database, user_id: int, event: EventState | None) -> int:
    """Store a finished game belonging to ``event`` (none: a casual game) in that state; return its id."""
    if event is None:
        return await finished_game(db, user_id, "casual")
    game_id = await finished_game(db, user_id, event.kind)
    if event.kind == "race":
        race = await races_db.create_race(
            db, guild_id=GUILD, channel_id=1, host_id=user_id, variant="draw3", capacity=2, now=0.0, lobby_deadline=9.0
        )
        await races_db.set_game(db, race.id, user_id, game_id)
        await db.execute("UPDATE races SET status = ? WHERE id = ?", (event.status, race.id))
    else:
        challenge = await challenges_db.create_challenge(
            db,
            guild_id=GUILD,
            channel_id=1,
            challenger_id=user_id,
            invited=[],
            variant="draw3",
            show_scores=event.show_scores,
            now=0.0,
            deadline=9.0,
            deal="{}",
            deal_seed="1",
        )
        await db.execute(
            "UPDATE challenge_players SET game_id = ? WHERE challenge_id = ? AND user_id = ?",
            (game_id, challenge.id, user_id),
        )
        await db.execute("UPDATE challenges SET status = ? WHERE id = ?", (event.status, challenge.id))
    return game_id


async def test_the_sql_rule_agrees_with_the_python_rule_for_every_state(db: Database) -> None:
    expected: dict[int, bool] = {}
    for user_id, event in enumerate(CASES, start=1):
        expected[await game_of(db, user_id, event)] = score_public(event)
    rows = await db.fetchall(f"SELECT id, CASE WHEN {sql_score_public()} THEN 1 ELSE 0 END AS public FROM games")
    assert {int(row["id"]): bool(row["public"]) for row in rows} == expected
    assert set(expected.values()) == {True, False}  # both answers are exercised


def test_the_rule_hides_only_a_running_race_and_a_challenge_open_with_hidden_scores() -> None:
    hidden = [event for event in CASES if not score_public(event)]
    assert hidden == [
        EventState("race", "lobby"),
        EventState("race", "running"),
        EventState("challenge", "open", False),
    ]

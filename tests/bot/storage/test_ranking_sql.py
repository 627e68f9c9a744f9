"""The ranking rule is defined once (``bot.rules.ranking.RANK_ORDER``): the SQL that ranks must agree with Python.

Random result sets with many ties go through the real migrations and triggers; every SQL ranking
(a daily's rank, the podium, the all-time board and its own-rank count, ``best_results``) is
compared with the Python order of the same results.
"""

from __future__ import annotations

import asyncio
import itertools
import tempfile
from datetime import date
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.rules.calendar import Period
from bot.rules.ranking import Ranked, best_first, rank_bests, rank_key
from bot.storage import Database
from bot.storage import competition as competition_db
from bot.storage import games as games_db
from tests.conftest import BACKENDS

GUILD = 5
DAY = "2024-05-01"

result = st.tuples(
    st.integers(1, 6),  # user
    st.sampled_from([0, 100, 250]),  # score: few values, so many ties
    st.integers(10, 12),  # seconds used
    st.sampled_from([1.0, 2.0, 2.5]),  # finished at
)


async def record(
    db: Database, numbers: itertools.count[int], mode: games_db.Mode, entry: tuple[int, int, int, float]
) -> int:
    user, score, seconds, at = entry
    game = await games_db.insert_game(
        db,
        games_db.NewGame(
            GUILD,
            1,
            user,
            "draw3",
            mode,
            None if mode == "daily" else next(numbers),
            DAY if mode == "daily" else None,
            "{}",
            0.0,
            300.0,
        ),
    )
    assert (
        await games_db.finish_game(db, game.id, games_db.Result("{}", "ended", score, seconds, at, 1), saved_version=0)
        is not None
    )
    return game.id


def ranked(entry: tuple[int, int, int, float]) -> Ranked:
    user, score, seconds, at = entry
    return Ranked(0, user, score, seconds, at)


@pytest.fixture(scope="module", params=BACKENDS)
def rank_target(request: pytest.FixtureRequest) -> tuple[str, str] | None:
    """``None``: a new SQLite file per example; PostgreSQL: the module's migrated schema and the SQL emptying it."""
    if request.param == "sqlite":
        return None
    target: tuple[str, str] = request.getfixturevalue("postgres_migrated")
    return target


def run(check: object, target: tuple[str, str] | None) -> None:
    """Run ``check(db)`` on an empty database of the backend (the PostgreSQL tables emptied first)."""

    async def main() -> None:
        with tempfile.TemporaryDirectory() as folder:
            db = await Database.open(Path(folder) / "rank.sqlite" if target is None else target[0])
            try:
                if target is not None:
                    await db.execute(target[1])  # every table emptied
                await check(db)  # type: ignore[operator]
            finally:
                await db.close()

    asyncio.run(main())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(result, max_size=12, unique_by=lambda entry: entry[0]))
def test_daily_ranks_and_podium_follow_the_python_order(
    rank_target: tuple[str, str] | None, results: list[tuple[int, int, int, float]]
) -> None:
    async def check(db: Database) -> None:
        numbers = itertools.count(1)
        games = {await record(db, numbers, "daily", entry): ranked(entry) for entry in results}
        keys = {game_id: rank_key(entry) for game_id, entry in games.items()}
        for game_id in games:
            found = await competition_db.daily_result_of(db, game_id)
            assert found is not None
            assert found.rank == 1 + sum(key < keys[game_id] for key in keys.values())
            assert found.total == len(games)
        podium = await competition_db.podium(db, GUILD, DAY, ["draw3"])
        expected = [(e.user_id, e.score, e.seconds_used, e.finished_at) for e in best_first(list(games.values()))[:3]]
        assert [(e.user_id, e.score, e.seconds_used, e.finished_at) for e in podium.places["draw3"]] == expected

    run(check, rank_target)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(result, max_size=16), st.integers(1, 6))
def test_all_time_boards_and_best_results_follow_the_python_order(
    rank_target: tuple[str, str] | None, results: list[tuple[int, int, int, float]], caller: int
) -> None:
    async def check(db: Database) -> None:
        numbers = itertools.count(1)
        for entry in results:
            await record(db, numbers, "casual", entry)
        board = await competition_db.leaderboard(
            db,
            guild_id=GUILD,
            variant="draw3",
            mode="casual",
            period=Period.ALL,
            today=date(2024, 5, 1),
            timezone="UTC",
            caller_id=caller,
            limit=3,
        )
        top, mine, total = rank_bests(results, caller, 3)
        assert board.top == top
        assert board.caller == mine
        assert board.total == total

    run(check, rank_target)

"""A forgotten member's stand-in (an id below zero) keeps its place but is never rated nor listed with a rating."""

from __future__ import annotations

import json

from bot.compete.placing import Entry, rated_players
from bot.compete.results import entry, rate_results
from bot.storage import Database
from bot.storage import games as games_db
from bot.storage import races as races_db
from bot.storage.races import Placing, Rated, RatingRecord
from tests.support.privacy import ALICE, BOB, CAROL, GUILD, db, fixed, start

__all__ = ["db"]  # the storage tests' database, on both backends


async def played(db: Database, user: int, score: int) -> int:
    """A finished race game of ``user`` with one card move."""
    game_id = await start(db, user, "race")
    state = json.dumps({"log": [["3-5", 2]]})
    assert await games_db.save_progress(
        db, game_id, first=0, moves=(("3-5", 2),), score=score, version=1, deadline=300.0
    )
    result = games_db.Result(state=state, status="ended", score=score, seconds_used=100, finished_at=200.0, version=2)
    assert await games_db.finish_game(db, game_id, result, saved_version=1) is not None
    return game_id


async def running_race(db: Database, scores: dict[int, int]) -> int:
    """A started race of these racers, each with a finished game (the first hosts)."""
    users = list(scores)
    record = await races_db.create_race(
        db, guild_id=GUILD, channel_id=1, host_id=users[0], variant="draw3", capacity=8, now=0.0, lobby_deadline=60.0
    )
    for user in users[1:]:
        assert await races_db.add_racer(db, record.id, user, 1.0) == "joined"
    assert await races_db.claim_start(db, record.id, start_at=10.0, end_at=310.0, deal="{}", seed="s")
    for user, score in scores.items():
        await races_db.set_game(db, record.id, user, await played(db, user, score))
    return record.id


def test_the_rule_never_rates_a_stand_in() -> None:
    entries = [Entry(-1, True, True, 900, 80), Entry(BOB, True, True, 500, 80), Entry(CAROL, True, True, 400, 90)]
    assert rated_players(entries, {}) == ([BOB, CAROL], None)
    assert rated_players(entries[:2], {}) == ([], "fewer than two players made a move")


async def test_a_close_never_rates_a_stand_in(db: Database) -> None:
    race_id = await running_race(db, {ALICE: 900, BOB: 500, CAROL: 400})
    await db.execute("UPDATE race_racers SET user_id = -1 WHERE user_id = ?", (ALICE,))  # a stand-in mid-race
    await db.execute("UPDATE games SET user_id = -1 WHERE user_id = ?", (ALICE,))
    entries = [
        entry(r.user_id, await games_db.get_game(db, r.game_id or 0)) for r in await races_db.racers(db, race_id)
    ]

    rate = await rate_results(db, guild_id=GUILD, variant="draw3", entries=entries, now=400.0)
    assert await races_db.finish_race(db, race_id, now=400.0, rate=rate)

    placed = {r.user_id: (r.place, r.rated, r.rating_after) for r in await races_db.racers(db, race_id)}
    assert placed[-1] == (1, False, None)  # keeps its place, so the others keep theirs
    assert (placed[BOB][0], placed[BOB][1], placed[CAROL][0], placed[CAROL][1]) == (2, True, 3, True)
    assert sorted(r.user_id for r in await races_db.rating_board(db, GUILD, "draw3")) == sorted([BOB, CAROL])
    rows = await db.fetchall("SELECT user_id FROM ratings")
    assert sorted(row["user_id"] for row in rows) == sorted([BOB, CAROL])


async def test_no_stand_in_gets_a_rating_row_nor_a_line_on_the_rating_board(db: Database) -> None:
    race_id = await running_race(db, {BOB: 500, CAROL: 400})
    placings = [Placing(BOB, 1, 25.0, 26.0), Placing(CAROL, 2, 25.0, 24.0)]
    ratings = [RatingRecord(GUILD, "draw3", user, 25.0, 8.0, 1) for user in (BOB, CAROL, -1)]
    assert await races_db.finish_race(db, race_id, now=400.0, rate=fixed(Rated(placings, ratings)))
    rows = await db.fetchall("SELECT user_id FROM ratings")
    assert sorted(row["user_id"] for row in rows) == sorted([BOB, CAROL])
    await db.execute(  # a stand-in's row an older version wrote
        "INSERT INTO ratings (guild_id, variant, user_id, mu, sigma, races, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (GUILD, "draw3", -1, 30.0, 8.0, 1, 1.0),
    )
    assert sorted(r.user_id for r in await races_db.rating_board(db, GUILD, "draw3")) == sorted([BOB, CAROL])

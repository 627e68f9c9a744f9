"""Forgetting a member or a server: no row anywhere keeps their id, others' results and places stay as they were."""

from __future__ import annotations

import secrets
from dataclasses import astuple
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.rules.calendar import DayClock, Period
from bot.shards import ONE_PROCESS
from bot.storage import (
    Database,
    champions,
    claims,
    moderation,
    onboarding,
    players,
    privacy,
    reminders,
    replays,
)
from bot.storage import challenges as challenges_db
from bot.storage import competition as competition_db
from bot.storage import games as games_db
from bot.storage import races as races_db
from bot.storage.champions import Holder
from bot.storage.races import Placing, Rated, RatingRecord
from tests.support.bot_command import run
from tests.support.privacy import ALICE, BOB, CAROL, DAY, GUILD, db, fixed, member_tables, rows_holding, start

__all__ = ["db"]  # the storage tests' database, on both backends

OTHER_GUILD = 910_000_000_000_000_002
NOW = datetime(2024, 5, 1, 12, 0, tzinfo=UTC).timestamp()
"""Noon on ``DAY`` (UTC, every server's zone here): the day's dailies are not over."""


async def finish(db: Database, game_id: int, score: int, seconds: int = 100) -> None:
    """Finish a game after one saved move."""
    assert await games_db.save_progress(
        db, game_id, first=0, moves=(("W>1", 3),), score=score, version=1, deadline=300.0
    )
    result = games_db.Result(
        state="{}", status="ended", score=score, seconds_used=seconds, finished_at=1000.0, version=2
    )
    assert await games_db.finish_game(db, game_id, result, saved_version=1) is not None


async def play(db: Database, user: int, mode: games_db.Mode, score: int, *, guild: int = GUILD) -> int:
    game_id = await start(db, user, mode, guild=guild)
    await finish(db, game_id, score)
    return game_id


async def post_results(db: Database, kind: str) -> None:
    """Post every waiting results post of ``kind`` (as the bot does once the race or challenge is over)."""
    for pending in await claims.due_announcements(db, 10**10, ONE_PROCESS):
        if pending.kind == kind:
            assert await claims.claim(db, pending.id, "test")
            assert await claims.finish(db, pending.id, "test", "posted")


async def race(
    db: Database, racers: tuple[int, ...], scores: tuple[int, ...], *, guild: int = GUILD, posted: bool = True
) -> int:
    """A finished, rated race of ``racers`` (the first hosts), placed in that order."""
    record = await races_db.create_race(
        db, guild_id=guild, channel_id=1, host_id=racers[0], variant="draw3", capacity=8, now=0.0, lobby_deadline=60.0
    )
    for user in racers[1:]:
        assert await races_db.add_racer(db, record.id, user, 1.0) == "joined"
    assert await races_db.claim_start(db, record.id, start_at=10.0, end_at=310.0, deal="{}", seed="s")
    for user, score in zip(racers, scores, strict=True):
        game_id = await start(db, user, "race", guild=guild)
        await races_db.set_game(db, record.id, user, game_id)
        await finish(db, game_id, score)
    placings = [Placing(user, n, 25.0, 25.0 + n) for n, user in enumerate(racers, start=1)]
    ratings = [RatingRecord(guild, "draw3", user, 25.0 + n, 8.0, 1) for n, user in enumerate(racers, start=1)]
    assert await races_db.finish_race(db, record.id, now=400.0, rate=fixed(Rated(placings, ratings)))
    if posted:
        await post_results(db, "race")
    return record.id


async def challenge(db: Database, players_: tuple[int, ...], *, guild: int = GUILD, close: bool = True) -> int:
    """A challenge of ``players_`` (the first challenges), each having played it; closed unless ``close`` is false."""
    record = await challenges_db.create_challenge(
        db,
        guild_id=guild,
        channel_id=1,
        challenger_id=players_[0],
        invited=players_[1:],
        variant="draw3",
        show_scores=False,
        now=0.0,
        deadline=10**9,
        deal="{}",
        deal_seed="s",
    )
    for n, user in enumerate(players_):
        game_id = await start(db, user, "challenge", guild=guild, link=challenges_db.attempt_link(record.id, user, 1.0))
        await finish(db, game_id, 100 - n)
    if close:
        placings = [Placing(user, n, None, None) for n, user in enumerate(players_, start=1)]
        assert await challenges_db.close_challenge(db, record.id, now=500.0, rate=fixed(Rated(placings, [], "test")))
        await post_results(db, "challenge")
    return record.id


async def everything_of(db: Database, user: int, *, guild: int = GUILD) -> None:
    """Give ``user`` a row in every kind of table that can hold a member's id."""
    await moderation.remove_results(  # logs, removes none
        db, guild, user, moderator_id=user, reason="testing", now=0.5, confirmation=secrets.token_hex(8)
    )
    daily = await play(db, user, "daily", 300, guild=guild)
    await play(db, user, "casual", 200, guild=guild)
    await games_db.add_notice(db, guild, user, daily, "a notice", now=1.0)
    await players.set_four_colour(db, user, True)
    await players.set_reminders(db, user, True)
    await onboarding.give_note(db, "first_board", user, guild_id=guild, now=1.0)
    await champions.begin_giving(db, guild, Holder(user, 77, DAY.isoformat(), None))
    await reminders.queue(db, guild, [user], DAY, 1.0)
    await replays.claim_replay(db, daily, guild_id=guild, channel_id=1, now=1.0)
    assert await competition_db.queue_result(db, daily, 1.0)


async def snapshot(db: Database, user: int, race_id: int, challenge_id: int) -> tuple[Any, ...]:
    """What ``user`` sees of their own results, ranks and places."""
    board = await competition_db.leaderboard(
        db,
        guild_id=GUILD,
        variant="draw3",
        mode="daily",
        period=Period.ALL,
        today=DAY,
        timezone="UTC",
        caller_id=user,
    )
    racers = {r.user_id: r for r in await races_db.racers(db, race_id)}
    players_ = {p.user_id: p for p in await challenges_db.players(db, challenge_id)}
    rating = await races_db.member_ratings(db, GUILD, user)
    assert board.caller is not None
    return (
        (board.caller.score, board.caller.seconds_used),  # its rank is live: a forgotten result moves others up
        astuple(racers[user]),
        astuple(players_[user]),
        [astuple(r) for r in rating],
        await competition_db.member_stats(db, GUILD, user, DAY),
    )


# -- the schema ------------------------------------------------------------------------
async def test_every_table_says_which_of_its_columns_hold_member_ids(db: Database) -> None:
    tables = await member_tables(db)
    assert sorted(tables) == sorted(privacy.MEMBER_COLUMNS), "place each new table in privacy.MEMBER_COLUMNS"
    for table, columns in privacy.MEMBER_COLUMNS.items():
        assert set(columns) <= set(tables[table]), table


# -- a member ----------------------------------------------------------------------------
async def test_a_forgotten_member_is_in_no_row_and_others_keep_their_results_and_places(db: Database) -> None:
    for user in (ALICE, BOB, CAROL):
        await everything_of(db, user)
        await everything_of(db, user, guild=OTHER_GUILD)
    race_id = await race(db, (ALICE, BOB, CAROL), (300, 200, 100))
    second_race = await race(db, (BOB, ALICE), (300, 200))
    challenge_id = await challenge(db, (ALICE, BOB, CAROL))
    await play(db, BOB, "casual", 250)
    before = {user: await snapshot(db, user, race_id, challenge_id) for user in (BOB, CAROL)}
    seated_only_in_play = {"race_seats"}  # a seat exists only while its race is open: forgetting waits
    member_tables_ = {table for table, columns in privacy.MEMBER_COLUMNS.items() if columns}
    assert {table for table, _ in await rows_holding(db, ALICE)} == member_tables_ - seated_only_in_play

    done = await privacy.forget_member(db, ALICE, now=NOW)

    assert await rows_holding(db, ALICE) == []
    assert done.games == 4 and done.entries == 3
    for user in (BOB, CAROL):
        assert await snapshot(db, user, race_id, challenge_id) == before[user]
    places = {r.user_id: r.place for r in await races_db.racers(db, race_id)}
    assert places == {-1: 1, BOB: 2, CAROL: 3}
    assert {r.user_id: r.place for r in await races_db.racers(db, second_race)} == {BOB: 1, -1: 2}
    forgotten = next(r for r in await races_db.racers(db, race_id) if r.user_id == -1)
    assert forgotten.game_id is not None and (await games_db.get_game(db, forgotten.game_id)).user_id == -1  # type: ignore[union-attr]
    assert (await races_db.get_race(db, race_id)).host_id == privacy.FORGOTTEN_HOST  # type: ignore[union-attr]


async def test_two_forgotten_racers_of_one_race_keep_their_places_apart(db: Database) -> None:
    race_id = await race(db, (ALICE, BOB, CAROL), (300, 200, 100))
    await privacy.forget_member(db, ALICE, now=NOW)
    await privacy.forget_member(db, CAROL, now=NOW)
    assert {r.user_id: r.place for r in await races_db.racers(db, race_id)} == {-1: 1, BOB: 2, -2: 3}


@pytest.mark.parametrize("what", ["game", "race", "left", "challenge", "results"])
async def test_nothing_is_forgotten_while_the_member_still_plays(db: Database, what: str) -> None:
    await play(db, ALICE, "daily", 300)
    until: float | None = None
    if what == "game":
        await start(db, ALICE, "casual")
        expected, until = ["a game in progress"], 300.0
    elif what in ("race", "left"):
        await races_db.create_race(
            db, guild_id=GUILD, channel_id=1, host_id=BOB, variant="draw3", capacity=4, now=0.0, lobby_deadline=60.0
        )
        race_id = (await races_db.open_races(db))[0].id
        assert await races_db.add_racer(db, race_id, ALICE, 1.0) == "joined"
        if what == "left":  # moved a card, then left: their entry is still to be placed and rated at the close
            assert await races_db.claim_start(db, race_id, start_at=10.0, end_at=310.0, deal="{}", seed="s")
            game_id = await start(db, ALICE, "race")
            await races_db.set_game(db, race_id, ALICE, game_id)
            await finish(db, game_id, 50)
            assert await races_db.mark_left(db, race_id, ALICE, 20.0)
            until = 310.0
        expected = ["an entry in a race that is not over"]
    elif what == "challenge":
        await challenge(db, (BOB, ALICE), close=False)
        expected, until = ["an open challenge"], 10.0**9
    else:
        await race(db, (BOB, ALICE), (300, 200), posted=False)  # finished, its results post not yet made
        expected = ["a race or challenge whose results are still being posted"]
    held = await rows_holding(db, ALICE)

    with pytest.raises(privacy.StillInPlayError) as refused:
        await privacy.forget_member(db, ALICE, now=NOW)

    assert (refused.value.what, refused.value.until) == (expected, until)
    assert await rows_holding(db, ALICE) == held


async def test_a_forgotten_daily_try_stays_used_anonymously_until_its_day_is_over(db: Database) -> None:
    await play(db, ALICE, "daily", 300)
    await play(db, BOB, "daily", 200)
    await competition_db.set_day_clock(db, OTHER_GUILD, DayClock("Pacific/Kiritimati"))  # UTC+14: 2 May there
    await play(db, ALICE, "daily", 100, guild=OTHER_GUILD)  # a 1 May daily, over there

    await privacy.forget_member(db, ALICE, now=NOW)

    assert await rows_holding(db, ALICE) == []
    assert await privacy.daily_try_used(db, GUILD, ALICE, "draw3", DAY.isoformat())
    assert not await privacy.daily_try_used(db, GUILD, ALICE, "draw1", DAY.isoformat())
    assert not await privacy.daily_try_used(db, GUILD, BOB, "draw3", DAY.isoformat())  # played: his game says so
    assert not await privacy.daily_try_used(db, OTHER_GUILD, ALICE, "draw3", DAY.isoformat())  # its day was over
    noon = datetime.fromtimestamp(NOW, UTC)
    assert await privacy.purge_used_tries(db, noon) == 12 * 3600  # kept until the server's day is over
    assert await privacy.purge_used_tries(db, datetime(2024, 5, 2, 0, 0, tzinfo=UTC)) is None
    assert await db.fetchall("SELECT mark FROM used_tries") == []


# -- a server --------------------------------------------------------------------------------
async def test_a_forgotten_server_is_in_no_row_and_other_servers_stay(db: Database) -> None:
    for user in (ALICE, BOB):
        await everything_of(db, user)
        await everything_of(db, user, guild=OTHER_GUILD)
    await race(db, (ALICE, BOB), (300, 200))
    await challenge(db, (ALICE, BOB))
    other_race = await race(db, (ALICE, BOB), (300, 200), guild=OTHER_GUILD)
    await competition_db.set_channel(db, GUILD, 5, podium_after="2024-04-30")
    held = await rows_holding(db, OTHER_GUILD)

    assert await privacy.forget_server(db, GUILD) > 0

    assert await rows_holding(db, GUILD) == []
    assert await rows_holding(db, OTHER_GUILD) == held
    assert [r.place for r in await races_db.racers(db, other_race)] == [1, 2]


async def test_a_server_is_not_forgotten_while_someone_plays_there(db: Database) -> None:
    await start(db, BOB, "casual")
    with pytest.raises(privacy.StillInPlayError, match="a game in progress"):
        await privacy.forget_server(db, GUILD)
    assert await rows_holding(db, GUILD) != []


# -- the owner's command line ------------------------------------------------------------------
@pytest.mark.processes
async def test_the_command_line_forgets_a_member_and_waits_for_a_server_in_play(
    db: Database, database_target: str | Path, tmp_path: Path
) -> None:
    where = (
        {"DATABASE_URL": database_target}
        if isinstance(database_target, str)
        else {"DATABASE_PATH": str(database_target)}
    )
    for user in (ALICE, BOB):
        await everything_of(db, user)
    await start(db, BOB, "casual")

    done = run(tmp_path, "forget", "member", str(ALICE), **where)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"forgot member {ALICE}: 2 games deleted, 0 race and challenge places kept")
    assert await rows_holding(db, ALICE) == []

    refused = run(tmp_path, "forget", "server", str(GUILD), **where)
    assert refused.returncode == 1 and refused.stdout == ""
    assert refused.stderr == f"not now: server {GUILD} still has a game in progress; try again once it is over\n"
    assert await rows_holding(db, GUILD) != []

"""The competition SQL: one daily attempt, ranks with tie-breaks, leaderboards, stats, settings, secrets."""

import asyncio
import itertools
import os
import subprocess
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from bot.rules.calendar import DayClock, Period
from bot.rules.daily_deals import DailyActivity
from bot.rules.stats import VariantStats
from bot.rules.streaks import Streak
from bot.shards import ONE_PROCESS, Holder, Ownership, shard_of
from bot.storage import Database, claims, load_migrations
from bot.storage import competition as competition_db
from bot.storage import games as games_db
from tests.conftest import migrations_folder

GUILD = 10
OTHER_GUILD = 11
DAY = date(2024, 5, 1)  # a Wednesday
_ids = itertools.count(1)


@pytest.fixture
async def db(database_target: str | Path) -> AsyncIterator[Database]:
    database = await Database.open(database_target)
    yield database
    await database.close()


def ts(*parts: int) -> float:
    return datetime(*parts, tzinfo=UTC).timestamp()


async def start(
    db: Database,
    user: int,
    *,
    variant: str = "draw3",
    mode: games_db.Mode = "daily",
    day: date | None = DAY,
    guild: int = GUILD,
    started: float = 0.0,
) -> int:
    record = await games_db.insert_game(
        db,
        games_db.NewGame(
            guild_id=guild,
            channel_id=1,
            user_id=user,
            variant=variant,
            mode=mode,
            deal_number=None if mode == "daily" else next(_ids),
            daily_date=day.isoformat() if mode == "daily" and day else None,
            state="{}",
            started_at=started,
            deadline=started + 300,
        ),
    )
    return record.id


async def start_old(db: Database, user: int, *, mode: games_db.Mode = "daily", day: date | None = DAY) -> int:
    """Insert a running game as the code of an older schema did (only the columns V001 has)."""
    row = await db.fetchone(
        "INSERT INTO games (guild_id, channel_id, user_id, variant, mode, deal_number, daily_date, state, status,"
        " score, started_at, deadline, version) VALUES (?, 1, ?, 'draw3', ?, ?, ?, '{}', 'playing', 0, 0, 300, 0)"
        " RETURNING id",
        (GUILD, user, mode, None if mode == "daily" else next(_ids), day.isoformat() if day else None),
    )
    assert row is not None
    return int(row["id"])


async def finish(db: Database, game_id: int, score: int, seconds: int, at: float, status: str = "ended") -> None:
    result = games_db.Result(state="{}", status=status, score=score, seconds_used=seconds, finished_at=at, version=1)
    assert await games_db.finish_game(db, game_id, result, saved_version=0) is not None


async def play(
    db: Database,
    user: int,
    score: int,
    seconds: int = 100,
    at: float = 0.0,
    *,
    status: str = "ended",
    **where: object,
) -> int:
    game_id = await start(db, user, **where)  # type: ignore[arg-type]
    await finish(db, game_id, score, seconds, at or ts(2024, 5, 1, 12), status)
    return game_id


# -- schema -------------------------------------------------------------------------
async def test_migrations_apply_in_order(db: Database) -> None:
    applied = await db.applied_migrations()
    assert applied[:2] == [1, 2] and applied == sorted(applied)  # later migrations follow


async def test_migration_counts_results_stored_before_it(
    tmp_path: Path, backend: str, empty_database_target: str | Path
) -> None:
    folder = migrations_folder(backend)
    only_v1 = tmp_path / "v1"
    only_v1.mkdir()
    (only_v1 / "V001__games.sql").write_text((folder / "V001__games.sql").read_text())
    path = empty_database_target
    old = await Database.open(path, migrations=only_v1)
    try:
        for user, score in [(1, 300), (1, 500), (2, 400)]:
            game_id = await start_old(old, user, mode="casual", day=None)
            await old.execute(  # as the code of V001's time wrote a result (today's adds later columns)
                "UPDATE games SET status = 'ended', score = ?, seconds_used = 100, finished_at = ? WHERE id = ?",
                (score, ts(2024, 5, 1, 12), game_id),
            )
        await start_old(old, 3, mode="casual", day=None)  # still running: not counted
        daily = await start_old(old, 4)
        await old.execute(
            "UPDATE games SET status = 'ended', score = 250, seconds_used = 90, finished_at = ? WHERE id = ?",
            (ts(2024, 5, 1, 12), daily),
        )
    finally:
        await old.close()

    db = await Database.open(path)
    try:
        assert (await db.applied_migrations())[:2] == [1, 2]

        async def board(mode: games_db.Mode) -> list[tuple[int, int]]:
            found = await competition_db.leaderboard(
                db, guild_id=GUILD, variant="draw3", mode=mode, period=Period.ALL, today=DAY, timezone="UTC",
                caller_id=1,
            )  # fmt: skip
            return [(e.user_id, e.score) for e in found.top]

        # every casual game of those days was on a public deal number: practice since V011, off the boards
        assert await board("casual") == []
        assert await board("daily") == [(4, 250)]
        stats = await competition_db.member_stats(db, GUILD, 1, DAY)
        assert stats.variants == (VariantStats("draw3", 2, 0, 500, 800),)  # stats keep counting them
        assert await competition_db.unannounced(db) == []  # old results are not announced again
    finally:
        await db.close()


async def test_one_daily_attempt_per_member_day_and_variant(db: Database) -> None:
    await play(db, 1, 100)
    with pytest.raises(games_db.DuplicateGameError) as caught:
        await start(db, 1)
    assert caught.value.kind == "daily"
    await play(db, 1, 100, variant="draw1")  # another variant
    await play(db, 1, 100, day=date(2024, 5, 2))  # another day
    await play(db, 1, 100, guild=OTHER_GUILD)  # another server
    await play(db, 2, 100)  # another member


async def test_a_second_start_of_a_running_daily_is_refused_as_played_on_every_backend(db: Database) -> None:
    """A running daily breaks both unique indexes; the answer must not depend on which one a backend checks first."""
    await start(db, 1)
    with pytest.raises(games_db.DuplicateGameError) as again:
        await start(db, 1)
    assert again.value.kind == "daily"
    with pytest.raises(games_db.DuplicateGameError) as casual:
        await start(db, 1, mode="casual", day=None)
    assert casual.value.kind == "active"


# -- ranks --------------------------------------------------------------------------
async def test_daily_rank_applies_the_tie_breaks(db: Database) -> None:
    await play(db, 1, 500, 200, ts(2024, 5, 1, 10))
    await play(db, 2, 600, 250, ts(2024, 5, 1, 11))  # best score
    await play(db, 3, 500, 150, ts(2024, 5, 1, 12))  # same score, less time
    await play(db, 4, 500, 200, ts(2024, 5, 1, 9))  # same score and time, finished first
    await play(db, 5, 900, 10, ts(2024, 5, 1, 9), variant="draw1")  # another board
    ranks = {}
    for user in (1, 2, 3, 4):
        result = await competition_db.daily_result(db, GUILD, user, "draw3", DAY.isoformat())
        assert result is not None
        assert result.total == 4
        ranks[user] = result.rank
    assert ranks == {2: 1, 3: 2, 4: 3, 1: 4}


async def test_daily_result_of_a_running_or_missing_game(db: Database) -> None:
    game_id = await start(db, 1)
    assert await competition_db.daily_result(db, GUILD, 1, "draw3", DAY.isoformat()) is None
    assert await competition_db.daily_result_of(db, game_id) is None
    assert (await competition_db.daily_attempt(db, GUILD, 1, "draw3", DAY.isoformat())) is not None
    assert await competition_db.daily_result(db, GUILD, 9, "draw3", DAY.isoformat()) is None
    casual = await play(db, 2, 10, mode="casual", day=None)
    assert await competition_db.daily_result_of(db, casual) is None


# -- leaderboards -------------------------------------------------------------------
async def board(
    db: Database,
    mode: games_db.Mode,
    period: Period,
    caller: int = 1,
    today: date = DAY,
    tz: str = "UTC",
    limit: int = 10,
) -> list[tuple[int, int, int]]:
    result = await competition_db.leaderboard(
        db,
        guild_id=GUILD,
        variant="draw3",
        mode=mode,
        period=period,
        today=today,
        timezone=tz,
        caller_id=caller,
        limit=limit,
    )
    rows = [(e.rank, e.user_id, e.score) for e in result.top]
    if result.caller is not None and result.caller not in result.top:
        rows.append((result.caller.rank, result.caller.user_id, result.caller.score))
    rows.append((result.total, 0, 0))
    return rows


@pytest.mark.parametrize("period", [Period.TODAY, Period.WEEK, Period.ALL])
async def test_leaderboard_ranks_with_the_tie_breaks(db: Database, period: Period) -> None:
    await play(db, 1, 500, 200, ts(2024, 5, 1, 10))
    await play(db, 2, 600, 250, ts(2024, 5, 1, 11))
    await play(db, 3, 500, 150, ts(2024, 5, 1, 12))
    await play(db, 4, 500, 200, ts(2024, 5, 1, 9))
    assert await board(db, "daily", period) == [(1, 2, 600), (2, 3, 500), (3, 4, 500), (4, 1, 500), (4, 0, 0)]


@pytest.mark.parametrize("period", [Period.TODAY, Period.ALL])
async def test_leaderboard_shows_the_caller_outside_the_top(db: Database, period: Period) -> None:
    for user in range(1, 13):
        await play(db, user, 1000 - user)
    rows = await board(db, "daily", period, caller=12)
    assert rows[:3] == [(1, 1, 999), (2, 2, 998), (3, 3, 997)]
    assert rows[-2:] == [(12, 12, 988), (12, 0, 0)]
    assert len(rows) == 12
    assert await board(db, "daily", period, caller=99, limit=2) == [(1, 1, 999), (2, 2, 998), (12, 0, 0)]


async def test_daily_periods_count_days_by_daily_date(db: Database) -> None:
    await play(db, 1, 100, day=date(2024, 4, 28))  # Sunday of the week before
    await play(db, 1, 300, day=date(2024, 4, 29))  # Monday
    await play(db, 2, 200, day=date(2024, 4, 30))
    await play(db, 1, 50, day=DAY)
    await play(db, 3, 70, day=DAY)
    assert await board(db, "daily", Period.TODAY) == [(1, 3, 70), (2, 1, 50), (2, 0, 0)]
    assert await board(db, "daily", Period.WEEK) == [(1, 1, 300), (2, 2, 200), (3, 3, 70), (3, 0, 0)]
    assert await board(db, "daily", Period.ALL) == [(1, 1, 300), (2, 2, 200), (3, 3, 70), (3, 0, 0)]


async def test_casual_days_follow_the_server_time_zone(db: Database) -> None:
    # Paris is UTC+2 in May: 1 May runs from 30 April 22:00 to 1 May 22:00 UTC.
    await play(db, 1, 100, at=ts(2024, 4, 30, 21, 59), mode="casual", day=None)  # 30 April in Paris
    await play(db, 2, 200, at=ts(2024, 4, 30, 22, 0), mode="casual", day=None)  # 1 May in Paris
    await play(db, 3, 300, at=ts(2024, 5, 1, 22, 0), mode="casual", day=None)  # 2 May in Paris
    await play(db, 4, 400, at=ts(2024, 4, 28, 21, 0), mode="casual", day=None)  # Sunday 28 April in Paris
    assert await board(db, "casual", Period.TODAY, tz="Europe/Paris") == [(1, 2, 200), (1, 0, 0)]
    assert await board(db, "casual", Period.TODAY, tz="UTC") == [(1, 3, 300), (1, 0, 0)]
    assert await board(db, "casual", Period.WEEK, tz="Europe/Paris") == [(1, 2, 200), (2, 1, 100), (2, 0, 0)]
    assert await board(db, "casual", Period.ALL) == [(1, 4, 400), (2, 3, 300), (3, 2, 200), (4, 1, 100), (4, 0, 0)]


async def test_each_member_counts_once_with_their_best(db: Database) -> None:
    await play(db, 1, 100, 50, mode="casual", day=None)
    await play(db, 1, 300, 90, mode="casual", day=None)
    await play(db, 1, 300, 80, mode="casual", day=None)  # same best score, faster
    await play(db, 2, 200, mode="casual", day=None)
    for period in (Period.TODAY, Period.ALL):
        result = await competition_db.leaderboard(
            db,
            guild_id=GUILD,
            variant="draw3",
            mode="casual",
            period=period,
            today=DAY,
            timezone="UTC",
            caller_id=2,
        )
        assert [(e.user_id, e.score, e.seconds_used) for e in result.top] == [(1, 300, 80), (2, 200, 100)]


async def test_casual_and_daily_are_ranked_apart(db: Database) -> None:
    await play(db, 1, 900, mode="casual", day=None)
    await play(db, 2, 100)
    assert await board(db, "daily", Period.ALL) == [(1, 2, 100), (1, 0, 0)]
    assert await board(db, "casual", Period.ALL) == [(1, 1, 900), (1, 0, 0)]


async def test_running_games_and_other_servers_are_not_ranked(db: Database) -> None:
    await start(db, 1)
    await play(db, 2, 100, guild=OTHER_GUILD)
    for period in Period:
        assert await board(db, "daily", period) == [(0, 0, 0)]


# -- stats and streaks --------------------------------------------------------------
async def test_member_stats(db: Database) -> None:
    await play(db, 1, 500, status="won", day=date(2024, 4, 29))
    await play(db, 1, 100, day=date(2024, 4, 30))
    await play(db, 1, 300, status="won", variant="draw1", day=date(2024, 4, 30))
    await play(db, 1, 200, status="won", day=DAY)
    await play(db, 1, 40, mode="casual", day=None)
    await play(db, 2, 999, status="won")
    await play(db, 1, 999, status="won", guild=OTHER_GUILD)
    await start(db, 1, variant="goldrush")  # running: not counted
    stats = await competition_db.member_stats(db, GUILD, 1, DAY)
    assert stats.variants == (
        VariantStats("draw1", 1, 1, 300, 300),
        VariantStats("draw3", 4, 2, 500, 840),
    )
    assert stats.played == Streak(3, 3)
    assert stats.won == Streak(3, 3)  # 29 April, 30 April (draw1) and 1 May won


async def test_streaks_break_on_a_missed_day(db: Database) -> None:
    for day in (date(2024, 4, 25), date(2024, 4, 26), date(2024, 4, 29), date(2024, 4, 30)):
        await play(db, 1, 100, status="won", day=day)
    stats = await competition_db.member_stats(db, GUILD, 1, DAY)
    assert (stats.played, stats.won) == (Streak(2, 2), Streak(2, 2))
    later = await competition_db.member_stats(db, GUILD, 1, date(2024, 5, 3))
    assert later.played == Streak(0, 2)


async def test_stats_of_a_member_who_never_played(db: Database) -> None:
    stats = await competition_db.member_stats(db, GUILD, 1, DAY)
    assert (stats.variants, stats.played, stats.won, stats.games) == ((), Streak(), Streak(), 0)


async def test_a_result_is_counted_once_even_if_finished_twice(db: Database) -> None:
    game_id = await play(db, 1, 100, status="won")
    again = games_db.Result(state="{}", status="won", score=999, seconds_used=1, finished_at=1.0, version=2)
    assert await games_db.finish_game(db, game_id, again, saved_version=0) is None  # finished: no longer at 0
    stats = await competition_db.member_stats(db, GUILD, 1, DAY)
    assert stats.variants == (VariantStats("draw3", 1, 1, 100, 100),)
    assert await board(db, "daily", Period.ALL) == [(1, 1, 100), (1, 0, 0)]


# -- podium, announcements, settings, secrets, deals ---------------------------------
async def test_podium(db: Database) -> None:
    for user, score in [(1, 100), (2, 400), (3, 300), (4, 200)]:
        await play(db, user, score)
    await play(db, 5, 50, variant="friday13")
    await play(db, 6, 999, day=date(2024, 5, 2))
    podium = await competition_db.podium(db, GUILD, DAY.isoformat(), ["draw1", "draw3", "friday13"])
    assert {v: [(e.rank, e.user_id) for e in entries] for v, entries in podium.places.items()} == {
        "draw1": [],
        "draw3": [(1, 2), (2, 3), (3, 4)],
        "friday13": [(1, 5)],
    }


async def test_result_lines_are_queued_once_and_claimed_once(db: Database) -> None:
    running = await start(db, 1)
    done = await play(db, 2, 100)
    casual = await play(db, 3, 100, mode="casual", day=None)
    assert await competition_db.unannounced(db) == [done]
    assert await competition_db.unannounced(db, since=ts(2024, 5, 1, 12)) == []  # finished at 12:00, not after
    assert not await competition_db.queue_result(db, running, 1.0)
    assert not await competition_db.queue_result(db, casual, 1.0)
    assert await competition_db.queue_result(db, done, 1.0)
    assert not await competition_db.queue_result(db, done, 2.0)
    assert await competition_db.unannounced(db) == []
    [pending] = await claims.due_announcements(db, 1.0, ONE_PROCESS)
    assert (pending.kind, pending.subject, pending.guild_id, pending.attempts) == ("result", str(done), GUILD, 0)
    me = Holder.of_this_process(ONE_PROCESS)
    assert await claims.claim(db, pending.id, me.name)
    assert not await claims.claim(db, pending.id, me.name)  # in flight
    assert await claims.due_announcements(db, 5.0, ONE_PROCESS) == []
    assert await claims.retry(db, pending.id, me.name, due_at=31.0)
    assert await claims.due_announcements(db, 30.0, ONE_PROCESS) == []
    assert await claims.next_due(db, ONE_PROCESS, 30.0) == 31.0
    [again] = await claims.due_announcements(db, 31.0, ONE_PROCESS)
    assert again.attempts == 1
    assert await claims.claim(db, again.id, me.name)
    assert await claims.finish(db, again.id, me.name, "posted")
    assert not await claims.claim(db, again.id, me.name)
    assert await claims.next_due(db, ONE_PROCESS, 40.0) is None


def gone_pid() -> int:
    """The id of a process that ran on this machine and is gone."""
    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid


@pytest.mark.processes
async def test_a_restart_takes_back_only_its_own_dead_runs_claims(db: Database) -> None:
    me = Holder.of_this_process(ONE_PROCESS)
    holders = {
        "previous run": Holder(me.label, me.machine, gone_pid()),  # this shard set, this machine, gone
        "before holders had names": me.label,  # the bare label a previous version stored
        "a live twin": Holder(me.label, me.machine, os.getppid()),  # the same shards, still running
        "other shards": Holder("1/2", me.machine, gone_pid()),
        "other machine": Holder(me.label, "elsewhere:1", gone_pid()),
    }
    posts = {}
    for user, (what, holder) in enumerate(holders.items(), start=1):
        await competition_db.queue_result(db, await play(db, user, 100), 1.0)
        name = holder if isinstance(holder, str) else holder.name
        [pending] = await claims.due_announcements(db, 1.0, ONE_PROCESS)
        assert await claims.claim(db, pending.id, name)
        posts[pending.id] = what
    assert await claims.release_own(db, me) == 2
    free = {posts[p.id] for p in await claims.due_announcements(db, 2.0, ONE_PROCESS)}
    assert free == {"previous run", "before holders had names"}


async def test_a_claim_is_a_lease_timed_by_the_databases_clock(db: Database) -> None:
    await competition_db.queue_result(db, await play(db, 2, 100), 1.0)
    [pending] = await claims.due_announcements(db, 1.0, ONE_PROCESS)
    lease = 0.4
    assert await claims.claim(db, pending.id, "dead", lease=lease)
    ahead = 1.0 + 3600  # a process whose clock runs an hour ahead: its clock does not end the lease
    assert not await claims.claim(db, pending.id, "skewed", lease=lease)
    assert await claims.due_announcements(db, ahead, ONE_PROCESS, lease=lease) == []
    due = await claims.next_due(db, ONE_PROCESS, 1.0, lease=lease)  # on the caller's clock: now + what is left
    assert due is not None and 1.0 < due <= 1.0 + lease + 0.01  # (SQLite's clock: milliseconds in a double)
    await asyncio.sleep(lease + 0.1)
    assert [p.id for p in await claims.due_announcements(db, 2.0, ONE_PROCESS, lease=lease)] == [pending.id]
    due = await claims.next_due(db, ONE_PROCESS, 2.0, lease=lease)
    assert due is not None and 1.0 < due <= 2.0  # when the lease ran out: claimable now
    assert await claims.claim(db, pending.id, "alive", lease=lease)
    assert not await claims.finish(db, pending.id, "dead", "posted")  # the old holder no longer holds it
    assert not await claims.retry(db, pending.id, "dead", 99.0)
    assert await claims.finish(db, pending.id, "alive", "posted")


async def test_only_the_owning_shards_see_a_servers_posts(db: Database) -> None:
    done = await play(db, 2, 100)
    home = shard_of(GUILD, 2)
    mine, theirs = Ownership(2, (home,)), Ownership(2, (1 - home,))
    assert await competition_db.unannounced(db, ownership=mine) == [done]
    assert await competition_db.unannounced(db, ownership=theirs) == []
    await competition_db.queue_result(db, done, 1.0)
    assert [p.guild_id for p in await claims.due_announcements(db, 1.0, mine)] == [GUILD]
    assert await claims.due_announcements(db, 1.0, theirs) == []
    assert await claims.next_due(db, theirs, 1.0) is None


async def test_guild_settings(db: Database) -> None:
    assert await competition_db.guild_config(db, GUILD) == competition_db.GuildConfig(GUILD, None, "UTC", None)
    paris = DayClock("Europe/Paris")
    await competition_db.set_day_clock(db, GUILD, paris)
    assert await competition_db.podium_guilds(db) == []
    await competition_db.set_channel(db, GUILD, 55, podium_after="2024-04-30")
    await competition_db.set_channel(db, GUILD, 56, podium_after="2024-05-09")  # keeps the first mark
    config = competition_db.GuildConfig(GUILD, 56, "Europe/Paris", "2024-04-30", paris)
    assert await competition_db.guild_config(db, GUILD) == config
    assert await competition_db.podium_guilds(db) == [config]
    assert await competition_db.claim_podium(db, GUILD, "2024-05-01", 10.0)
    assert not await competition_db.claim_podium(db, GUILD, "2024-05-01", 11.0)
    assert not await competition_db.claim_podium(db, GUILD, "2024-04-30", 12.0)
    assert await competition_db.claim_podium(db, GUILD, "2024-05-02", 13.0)
    assert [(p.kind, p.subject) for p in await claims.due_announcements(db, 20.0, ONE_PROCESS)] == [
        ("podium", "2024-05-01"),
        ("podium", "2024-05-02"),
    ]


async def test_a_zone_change_and_a_channel_problem_are_stored(db: Database) -> None:
    moment = datetime(2024, 5, 1, 20, 0, tzinfo=UTC)
    clock = DayClock("UTC").changed_to("Asia/Tokyo", moment)
    await competition_db.set_day_clock(db, GUILD, clock)
    assert (await competition_db.guild_config(db, GUILD)).clock == clock
    await competition_db.set_channel(db, GUILD, 55, podium_after="2024-04-30")
    await competition_db.set_channel_problem(db, GUILD, 54, "missing access", 7.0)  # not the configured channel
    assert (await competition_db.guild_config(db, GUILD)).channel_problem is None
    await competition_db.set_channel_problem(db, GUILD, 55, "missing access", 7.0)
    config = await competition_db.guild_config(db, GUILD)
    assert (config.channel_problem, config.channel_problem_at) == ("missing access", 7.0)
    await competition_db.set_channel(db, GUILD, 57, podium_after="2024-04-30")  # a new channel: a clean slate
    assert (await competition_db.guild_config(db, GUILD)).channel_problem is None


async def test_open_dailies_give_the_last_deadline_of_the_day(db: Database) -> None:
    assert await competition_db.open_dailies(db, GUILD, DAY.isoformat()) is None
    await start(db, 1)
    await play(db, 2, 100)
    deadline = await competition_db.open_dailies(db, GUILD, DAY.isoformat())
    assert deadline is not None
    assert await competition_db.open_dailies(db, OTHER_GUILD, DAY.isoformat()) is None


async def test_secret_is_made_once(db: Database) -> None:
    first = await competition_db.get_or_create_secret(db, "daily", lambda: "abc")
    second = await competition_db.get_or_create_secret(db, "daily", lambda: "xyz")
    assert first == second == "abc"


async def test_deal_cache(db: Database) -> None:
    assert await competition_db.cached_deal(db, GUILD, "draw3", "2024-05-01") is None
    await competition_db.store_deal(db, GUILD, "draw3", "2024-05-01", {"seed": 1})
    await competition_db.store_deal(db, GUILD, "draw3", "2024-05-01", {"seed": 2})
    assert await competition_db.cached_deal(db, GUILD, "draw3", "2024-05-01") == {"seed": 1}
    assert await competition_db.forget_deals_before(db, "2024-05-02") == 1
    assert await competition_db.cached_deal(db, GUILD, "draw3", "2024-05-01") is None


def test_migrations_are_numbered() -> None:
    assert [m.version for m in load_migrations()][:2] == [1, 2]


# -- which deals to solve ahead -------------------------------------------------------------
async def test_daily_activity_keeps_each_servers_last_daily_per_variant(db: Database) -> None:
    await start(db, 1, day=date(2024, 5, 1))
    await start(db, 2, day=date(2024, 4, 20))  # older: the later day stays
    await start(db, 3, variant="friday13", day=date(2024, 4, 30), guild=OTHER_GUILD)
    await start(db, 4, mode="casual", variant="goldrush")  # casual games do not count
    await competition_db.set_day_clock(db, OTHER_GUILD, DayClock("Asia/Tokyo"))
    assert await competition_db.recent_daily_activity(db, "2024-04-25") == [
        DailyActivity(GUILD, "draw3", "UTC", "2024-05-01"),
        DailyActivity(OTHER_GUILD, "friday13", "Asia/Tokyo", "2024-04-30"),
    ]
    assert await competition_db.recent_daily_activity(db, "2024-05-01") == [
        DailyActivity(GUILD, "draw3", "UTC", "2024-05-01")
    ]


async def test_the_activity_migration_counts_dailies_started_before_it(
    tmp_path: Path, backend: str, empty_database_target: str | Path
) -> None:
    folder = migrations_folder(backend)
    before = tmp_path / "before"
    before.mkdir()
    for migration in ("V001__games.sql", "V002__competition.sql", "V003__player_settings.sql"):
        (before / migration).write_text((folder / migration).read_text())
    path = empty_database_target
    old = await Database.open(path, migrations=before)
    await start_old(old, 1, day=date(2024, 4, 29))
    await start_old(old, 2, day=date(2024, 4, 30))
    await old.close()
    db = await Database.open(path)
    try:
        assert await competition_db.recent_daily_activity(db, "2024-01-01") == [
            DailyActivity(GUILD, "draw3", "UTC", "2024-04-30")
        ]
    finally:
        await db.close()


async def test_a_game_closed_as_broken_is_no_result(db: Database) -> None:
    """A row that could not be rebuilt is closed (V005) but never counted: no stats, no board entry."""
    game_id = await start(db, 1, mode="casual", day=None)
    record = await games_db.get_game(db, game_id)
    assert record is not None
    assert await games_db.close_broken(db, record, finished_at=ts(2024, 5, 1, 12), notice="closed")
    assert await db.fetchone("SELECT * FROM member_stats WHERE user_id = 1") is None
    assert await db.fetchone("SELECT * FROM best_results WHERE user_id = 1") is None
    await play(db, 1, 300, mode="casual", day=None)  # a real result still counts
    row = await db.fetchone("SELECT games FROM member_stats WHERE user_id = 1")
    assert row is not None and row["games"] == 1

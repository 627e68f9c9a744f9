"""The daily service without Discord: an injected clock, a list for a channel, rounds run by hand."""

from __future__ import annotations

import asyncio
import itertools
import threading
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from bot.compete import daily as service_module
from bot.compete.daily import DailyService
from bot.outbox import announcements as announcements_module
from bot.outbox.announcements import Announcements, Delivery, retry_delay
from bot.rules.calendar import DayClock, server_date
from bot.shards import ONE_PROCESS, Ownership, shard_of
from bot.storage import Database, claims
from bot.storage import competition as competition_db
from bot.storage import games as games_db
from solitaire.deals import DealRequest, ProvenDeal
from tests.conftest import make_deal_bank
from tests.support.daily import CHANNEL, GUILD, Channel, Clock, db, finish, make_service, solve, start_daily, utc
from tests.support.decks import EASY_KLONDIKE

__all__ = ["db"]  # the daily tests' database, on both backends

_numbers = itertools.count(1)


async def round_of(service: DailyService) -> float:
    """One round of the daily's work, then one of its outbox's (the runtime runs both loops); the shorter wait."""
    wait = await service.run_once()
    return min(wait, await service.announcements.deliver_due())


async def with_channel(db: Database, zone: str = "UTC", *, since: str = "2000-01-01") -> None:
    await competition_db.set_day_clock(db, GUILD, DayClock(zone))
    await competition_db.set_channel(db, GUILD, CHANNEL, podium_after=since)


# -- rollovers ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("zone", "day"),
    [
        ("UTC", date(2026, 3, 28)),
        ("Europe/Paris", date(2026, 3, 28)),  # the clocks go forward at 02:00 on the 29th
        ("Europe/Paris", date(2026, 3, 29)),  # a 23-hour day
        ("America/New_York", date(2026, 11, 1)),  # a 25-hour day
        ("Asia/Kolkata", date(2026, 3, 28)),  # +5:30
        ("Australia/Lord_Howe", date(2026, 4, 5)),  # half-hour DST, ending that day
        ("America/Santiago", date(2026, 9, 5)),  # DST starts at midnight: 00:00 on the 6th never happens
    ],
)
async def test_the_podium_comes_at_the_first_instant_of_the_next_local_day(db, zone, day):
    await with_channel(db, zone)
    noon = datetime.combine(day, time(12), tzinfo=ZoneInfo(zone)).astimezone(UTC)
    clock = Clock(noon)
    channel = Channel()
    service = make_service(db, clock, channel)
    game = await start_daily(db, 1, day, noon)
    await finish(db, service, game, 100, noon + timedelta(seconds=40))
    [line] = channel.posts
    assert line.text.endswith("rank 1 of 1 so far") and line.channel_id == CHANNEL
    rollover = DayClock(zone).next_rollover(noon)
    assert server_date(zone, rollover) == day + timedelta(days=1)
    assert server_date(zone, rollover - timedelta(seconds=1)) == day
    clock.at = rollover - timedelta(seconds=1)
    wait = await service.run_once()
    assert wait == 1.0 and channel.podiums() == []
    clock.at = rollover
    await service.run_once()
    assert channel.podiums() == [
        f"**Daily podium for {day.isoformat()}**\n__Solitaire Rush (draw 3)__\n🥇 <@1> — **100** in 0:40"
    ]
    clock.at = rollover + timedelta(days=1)
    await service.run_once()
    assert len(channel.podiums()) == 1


async def test_a_late_finisher_holds_the_podium_and_is_on_it(db):
    await with_channel(db)
    clock = Clock(utc(2026, 1, 1, 12))
    channel = Channel()
    service = make_service(db, clock, channel)
    day = date(2026, 1, 1)
    await finish(db, service, await start_daily(db, 1, day, clock.at), 50, clock.at + timedelta(seconds=60))
    clock.at = utc(2026, 1, 1, 23, 58)
    late = await start_daily(db, 2, day, clock.at)
    clock.at = utc(2026, 1, 2, 0, 0, 1)
    wait = await service.run_once()
    assert channel.podiums() == []
    assert wait == pytest.approx((utc(2026, 1, 2, 0, 3) - clock.at).total_seconds() + service_module.SETTLE)
    clock.at = utc(2026, 1, 2, 0, 0, 30)
    await finish(db, service, late, 900, clock.at)
    assert channel.posts[-2].text.endswith("rank 1 of 2")  # final: nothing of that day is still open
    assert channel.podiums()[0].splitlines()[2:] == ["🥇 <@2> — **900** in 2:30", "🥈 <@1> — **50** in 1:00"]


async def test_a_player_being_dealt_holds_the_podium(db):
    await with_channel(db)
    clock = Clock(utc(2026, 1, 1, 23, 59, 59))
    channel = Channel()
    service = make_service(db, clock, channel)
    day = date(2026, 1, 1)
    async with service.attempt(GUILD, day):
        assert not service.deal_ready(GUILD, "draw3", day)
        deal = await service.deal(GUILD, "draw3", day)
        assert service.deal_ready(GUILD, "draw3", day)
        clock.at = utc(2026, 1, 2, 0, 0, 5)
        await service.run_once()
        assert channel.podiums() == []  # the solve finished after midnight: their game still counts
        game = await start_daily(db, 3, day, clock.at)
    assert deal.deck == EASY_KLONDIKE
    clock.at = utc(2026, 1, 2, 0, 1)
    await finish(db, service, game, 10, clock.at)
    assert len(channel.podiums()) == 1


# -- posts that never vanish ---------------------------------------------------------------
async def test_a_failed_podium_is_retried_with_backoff_across_a_restart_and_posted_once(db):
    await with_channel(db)
    clock = Clock(utc(2026, 1, 1, 12))
    channel = Channel()
    service = make_service(db, clock, channel)
    await finish(db, service, await start_daily(db, 1, date(2026, 1, 1), clock.at), 5, clock.at + timedelta(seconds=9))
    channel.script = [Delivery.FAILED, Delivery.FAILED]
    clock.at = utc(2026, 1, 2)
    assert await round_of(service) == retry_delay(0)
    assert channel.podiums() == [] and channel.tries == 2
    clock.at += timedelta(seconds=retry_delay(0))
    assert await round_of(service) == retry_delay(1)
    restarted = make_service(db, clock, channel)  # a new bot: the post is still waiting in the database
    await restarted._recover()
    clock.at += timedelta(seconds=retry_delay(1) - 1)
    await round_of(restarted)
    assert channel.podiums() == []
    clock.at += timedelta(seconds=1)
    await round_of(restarted)
    clock.at += timedelta(hours=2)
    await round_of(restarted)
    assert len(channel.podiums()) == 1 and channel.tries == 4


async def test_a_cluster_process_does_only_its_own_servers_dailies(db):
    await with_channel(db)
    clock = Clock(utc(2026, 1, 1, 12))
    home = shard_of(GUILD, 2)
    elsewhere, here = Channel(), Channel()
    theirs, mine = Ownership(2, (1 - home,)), Ownership(2, (home,))
    outbox, home_outbox = Announcements(db, now=clock, ownership=theirs), Announcements(db, now=clock, ownership=mine)
    other = DailyService(db, make_deal_bank(), announcements=outbox, now=clock, solve=solve, ownership=theirs)
    other.add_listener(elsewhere)
    owner = DailyService(db, make_deal_bank(), announcements=home_outbox, now=clock, solve=solve, ownership=mine)
    owner.add_listener(here)
    await start_daily(db, 1, date(2026, 1, 1), clock.at)  # a daily started yesterday: its deal is solved ahead
    await other._recover()
    clock.at = utc(2026, 1, 2, 0, 10)  # the game's clock finished it; nobody queued its line (a crash)
    game = await games_db.get_game(db, 1)
    assert game is not None
    await games_db.finish_game(db, 1, games_db.Result("{}", "ended", 5, 60, clock() - 60, 0), saved_version=0)
    await other._recover()
    await other.run_once()
    assert elsewhere.posts == [] and other._presolve_seen == set()  # not its server: no line, podium, or deal
    await owner._recover()  # the owner queues the line the crash left out
    await owner.run_once()
    assert sorted(post.kind for post in here.posts) == ["podium", "result"]
    assert {key[0] for key in owner._presolve_seen} == {GUILD}
    assert owner._presolver is not None
    await owner._presolver
    await other.close()
    await owner.close()


async def test_a_forbidden_channel_is_noted_for_the_admins_until_a_post_goes_through(db):
    await with_channel(db)
    clock = Clock(utc(2026, 1, 1, 12))
    channel = Channel(script=[Delivery.FORBIDDEN])
    service = make_service(db, clock, channel)
    await finish(db, service, await start_daily(db, 1, date(2026, 1, 1), clock.at), 5, clock.at)
    config = await competition_db.guild_config(db, GUILD)
    assert config.channel_problem is not None and config.channel_problem_at == clock()
    clock.at += timedelta(seconds=retry_delay(0))
    await round_of(service)
    assert len(channel.posts) == 1
    assert (await competition_db.guild_config(db, GUILD)).channel_problem is None


async def test_a_post_is_retried_for_hours_then_dropped(db):
    await with_channel(db)
    clock = Clock(utc(2026, 1, 1, 12))
    channel = Channel(script=[Delivery.FAILED] * 1000)
    service = make_service(db, clock, channel)
    await finish(db, service, await start_daily(db, 1, date(2026, 1, 1), clock.at), 5, clock.at)
    queued = clock.at
    while (wait := await round_of(service)) < service_module.MAX_WAIT and clock.at - queued < timedelta(hours=12):
        clock.at += timedelta(seconds=wait)
    assert timedelta(hours=1) <= clock.at - queued
    assert clock.at - queued <= timedelta(seconds=announcements_module.RETRY_FOR + announcements_module.RETRY_MAX)
    assert await claims.next_due(db, ONE_PROCESS, clock()) is None
    assert channel.posts == []


# -- one attempt per server day -------------------------------------------------------------
async def test_a_zone_change_applies_from_the_next_day(db):
    await with_channel(db, "UTC")
    clock = Clock(utc(2026, 1, 1, 20))
    service = make_service(db, clock, Channel())
    changed = await service.change_zone(GUILD, "Asia/Tokyo")  # 05:00 on 2 January there
    assert changed.next_zone == "Asia/Tokyo"
    assert await service.today(GUILD) == date(2026, 1, 1)
    clock.at = utc(2026, 1, 2)
    assert await service.today(GUILD) == date(2026, 1, 2)
    clock.at = utc(2026, 1, 2, 15)  # midnight in Tokyo
    assert await service.today(GUILD) == date(2026, 1, 3)


async def test_a_zone_change_to_a_zone_behind_makes_one_long_day_not_a_second_one(db):
    await with_channel(db, "Asia/Tokyo")
    clock = Clock(utc(2026, 1, 1, 10))  # 19:00 on 1 January in Tokyo
    service = make_service(db, clock, Channel())
    await service.change_zone(GUILD, "America/Los_Angeles")
    clock.at = utc(2026, 1, 1, 15)  # Tokyo's midnight: 07:00 on 1 January in Los Angeles
    assert await service.today(GUILD) == date(2026, 1, 2)  # never 1 January again
    clock.at = utc(2026, 1, 3, 7, 59)  # 23:59 on 2 January in Los Angeles
    assert await service.today(GUILD) == date(2026, 1, 2)
    clock.at = utc(2026, 1, 3, 8)
    assert await service.today(GUILD) == date(2026, 1, 3)


async def test_a_second_change_the_same_day_keeps_the_day_and_the_first_is_forgotten(db):
    await with_channel(db, "UTC")
    clock = Clock(utc(2026, 1, 1, 20))
    service = make_service(db, clock, Channel())
    await service.change_zone(GUILD, "Asia/Tokyo")
    back = await service.change_zone(GUILD, "UTC")
    assert back == DayClock("UTC")
    await service.change_zone(GUILD, "Europe/Paris")
    clock.at = utc(2026, 1, 1, 23, 30)  # 00:30 in Paris, but UTC's day is not over
    assert await service.today(GUILD) == date(2026, 1, 1)
    clock.at = utc(2026, 1, 2, 22, 59)
    assert await service.today(GUILD) == date(2026, 1, 2)
    clock.at = utc(2026, 1, 2, 23)
    assert await service.today(GUILD) == date(2026, 1, 3)


async def test_deals_are_shared_stored_and_solved_ahead_for_active_servers(db):
    await with_channel(db)
    clock = Clock(utc(2026, 1, 1, 12))
    asked: list[DealRequest] = []

    def counting(request: DealRequest) -> ProvenDeal:
        asked.append(request)
        return solve(request)

    service = DailyService(
        db, make_deal_bank(), announcements=Announcements(db, now=clock), now=clock, secret=lambda: "k", solve=counting
    )
    day = date(2026, 1, 1)
    first = await service.deal(GUILD, "draw3", day)
    second = await service.deal(GUILD, "draw3", day)
    assert first == second and len(asked) == 1
    await start_daily(db, 1, day, clock.at)
    old = await games_db.insert_game(
        db, games_db.NewGame(GUILD, 1, 2, "goldrush", "daily", None, "2025-12-25", "{}", 0.0, 300.0)
    )  # 8 days before 2 January: not solved ahead
    assert old.id
    clock.at = utc(2026, 1, 2, 0, 0, 1)
    await service.run_once()
    assert service._presolver is not None
    await service._presolver
    assert await competition_db.cached_deal(db, GUILD, "draw3", "2026-01-02") is not None
    assert service.deal_ready(GUILD, "draw3", date(2026, 1, 2))
    assert [r.variant for r in asked] == ["draw3", "draw3", "draw3"]  # 1 January, then 2 and 3 ahead
    assert await competition_db.cached_deal(db, GUILD, "draw3", "2026-01-03") is not None
    assert await competition_db.cached_deal(db, GUILD, "goldrush", "2026-01-02") is None
    await service.close()


async def test_closing_stops_a_deal_being_found_before_its_database_closes(db):
    """A deal still being found when the bot stops is cancelled with the service, never left to fail later."""
    clock = Clock(utc(2026, 1, 1, 12))
    solving, released = threading.Event(), threading.Event()

    def slow(request: DealRequest) -> ProvenDeal:
        solving.set()
        released.wait(10)  # a solve that would outlive the database
        return solve(request)

    service = DailyService(
        db, make_deal_bank(), announcements=Announcements(db, now=clock), now=clock, secret=lambda: "k", solve=slow
    )
    finding = asyncio.create_task(service.deal(GUILD, "draw3", date(2026, 1, 1)))
    await asyncio.to_thread(solving.wait, 10)
    await service.close()
    released.set()
    assert service._deal_tasks and all(task.cancelled() for task in service._deal_tasks.values())
    with pytest.raises(asyncio.CancelledError):
        await finding


async def test_a_game_stuck_playing_past_its_deadline_holds_the_podium_only_briefly(db):
    await with_channel(db)
    clock = Clock(utc(2026, 1, 1, 23, 59))
    channel = Channel()
    service = make_service(db, clock, channel)
    await start_daily(db, 1, date(2026, 1, 1), clock.at)  # never finished: its clock task is gone
    await finish(db, service, await start_daily(db, 2, date(2026, 1, 1), clock.at), 5, clock.at)
    clock.at = utc(2026, 1, 2, 0, 4)  # the stuck game's deadline has passed
    assert await service.run_once() == pytest.approx(service_module.SETTLE)
    assert channel.podiums() == []
    clock.at = utc(2026, 1, 2, 0, 4) + timedelta(seconds=service_module.OVERDUE + 1)
    await service.run_once()
    assert len(channel.podiums()) == 1


# -- spare deals: a day deal nobody solved ahead never waits for the solver ----------------------
async def test_a_waiting_player_gets_a_spare_deal_and_the_spare_is_replaced(db):
    from bot.rules.daily_deals import daily_source, deal_from_json, spare_source

    asked: list[DealRequest] = []

    def recording(request: DealRequest) -> ProvenDeal:
        asked.append(request)
        return ProvenDeal(request.variant, len(asked), EASY_KLONDIKE, ())

    clock = Clock(datetime(2026, 1, 1, 12, tzinfo=UTC))
    service = DailyService(
        db,
        make_deal_bank(),
        announcements=Announcements(db, now=clock),
        now=clock,
        secret=lambda: "s3cret",
        solve=recording,
        variants=["draw3"],
        spares=1,
    )
    await service.fill_spares()
    assert [r.variant for r in asked] == ["draw3"] and await competition_db.spare_count(db, "draw3") == 1
    assert asked[0].source != daily_source("s3cret", GUILD, date(2026, 1, 1), "draw3")
    assert len(spare_source("s3cret", "x")) == len(asked[0].source)  # a secret-keyed source, nonce unknown

    deal = await service.deal(GUILD, "draw3", date(2026, 1, 1))
    assert deal.seed == 1  # the spare, not a solve of the day's source
    stored = await competition_db.cached_deal(db, GUILD, "draw3", "2026-01-01")
    assert stored is not None and deal_from_json(stored) == deal  # the spare is now the day's deal, for everyone
    await service.fill_spares()
    assert len(asked) == 2 and await competition_db.spare_count(db, "draw3") == 1  # replaced in the background
    assert await service.deal(GUILD, "draw3", date(2026, 1, 1)) == deal
    await service.close()


async def test_deals_solved_ahead_leave_the_spares_alone(db):
    clock = Clock(datetime(2026, 1, 1, 12, tzinfo=UTC))
    service = DailyService(
        db,
        make_deal_bank(),
        announcements=Announcements(db, now=clock),
        now=clock,
        secret=lambda: "s3cret",
        solve=solve,
        variants=["draw3"],
        spares=1,
    )
    await competition_db.add_spare(db, "draw3", {"variant": "draw3", "seed": 99, "deck": "", "solution": []})
    await service._presolve((GUILD, "draw3", "2026-01-02"))
    assert await competition_db.spare_count(db, "draw3") == 1  # solved from the day's own source
    await service.close()


async def test_a_spare_never_replaces_a_day_deal_already_stored(db):
    await competition_db.store_deal(db, GUILD, "draw3", "2026-01-01", {"variant": "draw3", "seed": 5})
    await competition_db.add_spare(db, "draw3", {"variant": "draw3", "seed": 99})
    assert (await competition_db.use_spare(db, GUILD, "draw3", "2026-01-01")) == {"variant": "draw3", "seed": 5}
    assert await competition_db.spare_count(db, "draw3") == 1  # not used up
    assert (await competition_db.use_spare(db, GUILD + 1, "draw3", "2026-01-01")) == {"variant": "draw3", "seed": 99}
    assert await competition_db.spare_count(db, "draw3") == 0
    assert await competition_db.use_spare(db, GUILD + 2, "draw3", "2026-01-01") is None


async def test_one_spare_goes_to_one_server_when_servers_ask_at_once(db):
    # SQLite runs these one at a time; PostgreSQL's pool runs them together on separate connections.
    await competition_db.add_spare(db, "draw3", {"variant": "draw3", "seed": 99})
    got = await asyncio.gather(*(competition_db.use_spare(db, GUILD + n, "draw3", "2026-01-01") for n in range(6)))
    assert got.count({"variant": "draw3", "seed": 99}) == 1 and got.count(None) == 5
    assert await competition_db.spare_count(db, "draw3") == 0

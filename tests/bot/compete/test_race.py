"""The race service without Discord: lobbies, the shared start, standings, results, ratings and restarts."""

from __future__ import annotations

import asyncio
import itertools
import json
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot import errors
from bot.compete import placing
from bot.compete import race as races
from bot.compete.race import RaceSnapshot
from bot.compete.ratings import PROVISIONAL_RACES
from bot.outbox.announcements import Delivery
from bot.storage import Database
from bot.storage import games as games_db
from bot.storage import races as races_db
from solitaire import DRAW, game_from_json
from tests.support.decks import EASY_KLONDIKE, EASY_NUMBER
from tests.support.fake_time import START, FakeTime, counted_database
from tests.support.races import CHANNEL, GUILD, World, lobby, started

ALICE, BOB, CAROL, DAN = 11, 12, 13, 14


@pytest_asyncio.fixture
async def db(database_target: str | Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Database]:
    async with counted_database(database_target, monkeypatch) as database:
        yield database


@pytest.fixture
def clock() -> FakeTime:
    return FakeTime()


@pytest_asyncio.fixture
async def world(db: Database, clock: FakeTime) -> AsyncIterator[World]:
    built = World(db, clock)
    yield built
    await built.close()


async def final_results(world: World) -> RaceSnapshot:
    """The results last shown, once the posts under way are delivered (after the standings interval)."""
    await world.clock.advance(races.STANDINGS_INTERVAL)
    await world.races.settle(results=True)
    return world.published.snapshots[-1][1]


async def win(world: World, race_id: int, member: int) -> None:
    session = await world.races.board(race_id, member)
    await world.sessions.play_all_to_foundations(session)
    for _ in range(8):
        await world.sessions.play(session, DRAW)
        await world.sessions.play_all_to_foundations(session)
    assert session.game.status.value == "won"


async def test_a_full_lobby_starts_by_itself_with_one_deal_and_one_clock(world, clock):
    race_id = await lobby(world, ALICE, BOB, capacity=3)
    snapshot = await world.races.join(race_id, CAROL)
    race = snapshot.race
    assert race.status == "running" and snapshot.racers == (ALICE, BOB, CAROL)
    assert race.start_at == START + races.COUNTDOWN_SECONDS and race.end_at == race.start_at + 300
    assert race.deal_number is None and race.deal_seed == str(EASY_NUMBER)  # a private deal, its seed kept back
    games = [world.sessions.active_for(GUILD, member) for member in (ALICE, BOB, CAROL)]
    assert all(g is not None for g in games)
    assert {g.record.mode for g in games} == {"race"}
    assert {tuple(g.game.deck) for g in games} == {EASY_KLONDIKE}
    assert {(g.record.started_at, g.record.deadline) for g in games} == {(race.start_at, race.end_at)}
    assert {s.status for s in snapshot.standings} == {"waiting"}


async def test_lobby_refusals(world):
    race_id = await lobby(world, ALICE, BOB, capacity=3)
    with pytest.raises(races.AlreadyRacingError):
        await world.races.join(race_id, BOB)
    with pytest.raises(races.AlreadyRacingError):
        await world.races.open(guild_id=GUILD, channel_id=CHANNEL, host_id=BOB, variant="draw1", capacity=2)
    with pytest.raises(races.HostOnlyError):
        await world.races.start(race_id, BOB)
    with pytest.raises(races.HostOnlyError):
        await world.races.cancel(race_id, BOB)
    with pytest.raises(races.NotStartedYetError):
        await world.races.board(race_id, ALICE)
    await world.sessions.start(guild_id=GUILD, channel_id=CHANNEL, user_id=DAN, variant="draw3", deal=_easy())
    with pytest.raises(errors.ActiveGameError):
        await world.races.join(race_id, DAN)
    solo = await world.races.open(guild_id=GUILD, channel_id=CHANNEL, host_id=CAROL, variant="draw1", capacity=2)
    with pytest.raises(races.TooFewRacersError):
        await world.races.start(solo.race.id, CAROL)
    cancelled = await world.races.cancel(solo.race.id, CAROL)
    assert cancelled.race.status == "cancelled"
    with pytest.raises(races.LobbyClosedError):
        await world.races.join(solo.race.id, DAN)


async def test_a_host_who_leaves_hands_the_lobby_on_and_the_last_one_out_cancels_it(world):
    race_id = await lobby(world, ALICE, BOB, CAROL)
    snapshot = await world.races.leave(race_id, ALICE)
    assert snapshot.race.host_id == BOB and snapshot.racers == (BOB, CAROL)
    await world.races.leave(race_id, BOB)
    snapshot = await world.races.leave(race_id, CAROL)
    assert snapshot.race.status == "cancelled" and snapshot.racers == ()


async def test_a_lobby_expires_after_ten_minutes_without_a_start(world, clock):
    race_id = await lobby(world, ALICE, BOB)
    await clock.advance(races.LOBBY_SECONDS - 1)
    assert (await world.races.snapshot(race_id)).race.status == "lobby"
    await clock.advance(1)
    assert (await world.races.snapshot(race_id)).race.status == "expired"
    assert world.published.statuses() == ["expired"]


async def test_boards_open_only_at_the_common_start(world, clock):
    race_id = await lobby(world, ALICE, BOB)
    await world.races.start(race_id, ALICE)
    with pytest.raises(races.NotStartedError):
        await world.races.board(race_id, BOB)
    await clock.advance(races.COUNTDOWN_SECONDS)
    session = await world.races.board(race_id, BOB)
    assert session.owner_id == BOB
    with pytest.raises(races.NotRacerError):
        await world.races.board(race_id, CAROL)


async def test_a_tie_shares_a_place_and_a_racer_who_never_moved_a_card_is_not_rated(world, clock, db):
    race_id = await started(world, ALICE, BOB, CAROL)
    await clock.advance(30)
    await win(world, race_id, ALICE)
    await clock.advance(0.5)
    await win(world, race_id, BOB)  # same score, same seconds used: a tie, whoever finished first or has the lower id
    await clock.advance(300)
    await clock.advance(races.STANDINGS_INTERVAL)
    final = await final_results(world)
    assert final.race.status == "finished" and final.race.unrated_reason is None
    assert [(r.place, r.user_id) for r in final.results] == [(1, ALICE), (1, BOB), (3, CAROL)]
    alice, bob, carol = final.results
    assert bob.score == alice.score > carol.score == 0 and bob.seconds_used == alice.seconds_used
    assert carol.status == "expired" and carol.rating_after is None  # never played: not rated
    assert alice.rating_after == bob.rating_after  # a tie moves both alike
    assert world.published.statuses().count("finished") == 1
    stored = await races_db.ratings_of(db, GUILD, "draw3", [ALICE, BOB, CAROL])
    assert {user: r.races for user, r in stored.items()} == {ALICE: 1, BOB: 1}
    # every race score is re-derived by replaying the stored move log
    for racer in await races_db.racers(db, race_id):
        record = await games_db.get_game(db, racer.game_id)
        assert game_from_json(json.loads(record.state)).score == record.score


async def test_a_racer_who_leaves_after_the_start_ranks_last_whatever_the_score(world, clock):
    race_id = await started(world, ALICE, BOB)
    session = await world.races.board(race_id, ALICE)
    await world.sessions.play_all_to_foundations(session)
    await world.races.leave(race_id, ALICE)
    await win(world, race_id, BOB)  # the last game over: the race ends before the clock
    await clock.advance(races.STANDINGS_INTERVAL)
    final = await final_results(world)
    assert [(r.user_id, r.status) for r in final.results] == [(BOB, "won"), (ALICE, "left")]
    assert all(r.rating_after is not None for r in final.results)  # both moved a card: both rated


async def test_leaving_after_ones_own_game_is_over_changes_nothing(world, clock):
    race_id = await started(world, ALICE, BOB)
    await win(world, race_id, ALICE)
    with pytest.raises(races.GameOverLeaveError):
        await world.races.leave(race_id, ALICE)
    with pytest.raises(races.GameOverLeaveError):
        await world.races.leaving_ends_a_game(race_id, ALICE)
    assert await world.races.leaving_ends_a_game(race_id, BOB)  # Bob still plays: he would be asked first
    session = await world.races.board(race_id, BOB)
    await world.sessions.play_all_to_foundations(session)
    await world.races.leave_running(race_id, BOB)
    await clock.advance(races.STANDINGS_INTERVAL)
    final = await final_results(world)
    assert [(r.place, r.user_id, r.status) for r in final.results] == [(1, ALICE, "won"), (2, BOB, "left")]


async def test_standings_are_published_at_most_once_per_interval(world, clock):
    race_id = await started(world, ALICE, BOB, CAROL)
    sessions = [await world.races.board(race_id, m) for m in (ALICE, BOB, CAROL)]
    for _ in range(40):  # moves every 0.25 s for 10 s
        for session in sessions:
            if not session.game.is_over:
                await world.sessions.play(session, DRAW)
        await clock.advance(0.25)
    gaps = [b - a for a, b in itertools.pairwise(world.times)]
    assert len(world.times) >= 3 and min(gaps) >= races.STANDINGS_INTERVAL
    standings = world.published.snapshots[-1][1].standings
    assert {s.status for s in standings} == {"playing"} and all(s.moves > 0 for s in standings)


async def test_a_restart_mid_race_keeps_the_clock_and_the_boards_and_posts_the_results_once(world, clock, db):
    race_id = await started(world, ALICE, BOB)
    before = await races_db.get_race(db, race_id)
    session = await world.races.board(race_id, ALICE)
    await world.sessions.play(session, DRAW)
    await clock.advance(60)
    await world.restart()
    after = await races_db.get_race(db, race_id)
    assert (after.status, after.start_at, after.end_at) == ("running", before.start_at, before.end_at)
    session = await world.races.board(race_id, ALICE)
    assert session.game.version == 1 and session.deadline == before.end_at
    await world.sessions.play(session, DRAW)
    await clock.advance(300)
    await clock.advance(races.STANDINGS_INTERVAL)
    await world.restart()  # a second restart after the end posts nothing again
    await clock.advance(10)
    await world.announcements.deliver_due()
    assert world.published.statuses().count("finished") == 1
    assert await world.results_post(race_id) == "posted"


async def test_a_cluster_process_resumes_only_the_races_of_its_own_shards(world, clock, db):
    race_id = await started(world, ALICE, BOB)
    await world.races.close()
    await world.sessions.close()
    clock.now += 600  # it ended while the bot was down
    world.build()
    assert await world.sessions.resume_all(owns=lambda guild: False) == ([], [])
    assert await world.races.resume(owns=lambda guild: False) == []  # another process's server
    await clock.advance(races.STANDINGS_INTERVAL)
    assert (await races_db.get_race(db, race_id)).status == "running" and world.published.statuses() == []
    await world.sessions.resume_all(owns=lambda guild: guild == GUILD)
    assert await world.races.resume(owns=lambda guild: guild == GUILD) == [race_id]
    await clock.advance(races.STANDINGS_INTERVAL)
    assert await world.results_post(race_id) == "posted"


async def test_resume_finishes_a_race_whose_games_ended_at_the_restart_however_slow_its_query(
    world, clock, db, monkeypatch
):
    """The games finished at a restart leave their race to resume: no finish races it (it used to, now and then)."""
    race_id = await started(world, ALICE, BOB)
    await world.close()
    clock.now += 600
    world.build()
    listed = races_db.open_races

    async def slow(database: Database) -> list[races_db.RaceRecord]:
        await asyncio.sleep(0.05)  # a loaded machine: anything spawned at the restart runs first
        return await listed(database)

    monkeypatch.setattr(races_db, "open_races", slow)
    resumed, finished = await world.sessions.resume_all()
    assert resumed == [] and len(finished) == 2
    assert await world.races.resume() == [race_id]
    await clock.advance(races.STANDINGS_INTERVAL)
    race = await races_db.get_race(db, race_id)
    assert race.status == "finished" and await world.results_post(race_id) == "posted"
    assert world.published.statuses()[-1] == "finished" and world.published.statuses().count("finished") == 1


async def test_a_race_that_ended_while_the_bot_was_down_is_finished_and_posted_at_resume(world, clock, db):
    race_id = await started(world, ALICE, BOB)
    await world.races.close()
    await world.sessions.close()
    clock.now += 600
    world.build()
    await world.sessions.resume_all()
    await world.races.resume()
    await clock.advance(races.STANDINGS_INTERVAL)
    race = await races_db.get_race(db, race_id)
    assert race.status == "finished" and await world.results_post(race_id) == "posted"
    assert world.published.statuses()[-1] == "finished" and world.published.statuses().count("finished") == 1


async def test_a_refused_results_post_is_retried_until_the_message_shows_it(world, clock, db):
    world.outcomes = [Delivery.FAILED, Delivery.FORBIDDEN]  # a 503, then a channel the bot may not see
    race_id = await started(world, ALICE, BOB)
    await win(world, race_id, ALICE)
    await world.races.leave_running(race_id, BOB)
    await world.races.settle()
    await clock.advance(races.STANDINGS_INTERVAL)  # the post waits for the standings interval, then fails
    assert "finished" not in world.published.statuses() and await world.results_post(race_id) == "waiting"
    assert (await races_db.get_race(db, race_id)).status == "finished"  # the ratings are written once meanwhile
    await world.restart()  # the retry survives a restart
    for _ in range(2):
        await clock.advance(600)
        await world.announcements.deliver_due()
    assert world.published.statuses().count("finished") == 1 and await world.results_post(race_id) == "posted"


async def race_between(world: World, *, moves: dict[int, bool]) -> RaceSnapshot:
    """A race of the given members (``moves[member]``: whether they move a card) that ends at once; its results."""
    members = list(moves)
    race_id = await started(world, *members)
    for member in members:
        session = await world.races.board(race_id, member)
        if moves[member]:
            await world.sessions.play_all_to_foundations(session)
        await world.races.leave_running(race_id, member)
    await world.races.settle()
    return await world.races.snapshot(race_id)


async def test_a_race_nobody_played_is_not_rated_and_its_racers_share_the_place(world, db):
    results = await race_between(world, moves={BOB: False, ALICE: False})
    assert [(r.place, r.rating_after) for r in results.results] == [(1, None), (1, None)]
    assert results.race.unrated_reason == "fewer than two players made a move"
    assert await races_db.ratings_of(db, GUILD, "draw3", [ALICE, BOB]) == {}


async def test_an_alt_who_never_plays_farms_nothing(world, db):
    for _ in range(10):  # the farm of the report: the member makes one move and ends, the alt does nothing
        results = await race_between(world, moves={ALICE: True, BOB: False})
        assert results.race.unrated_reason is not None
    assert await races_db.ratings_of(db, GUILD, "draw3", [ALICE, BOB]) == {}


async def test_the_same_two_members_count_for_three_rated_races_a_day(world, clock, db):
    rated = []
    for _ in range(placing.PAIR_RATED_PER_DAY + 2):
        results = await race_between(world, moves={ALICE: True, BOB: True})
        rated.append(results.race.unrated_reason is None)
    assert rated == [True] * placing.PAIR_RATED_PER_DAY + [False, False]
    assert "already had 3 rated games together today" in (results.race.unrated_reason or "")
    stored = await races_db.ratings_of(db, GUILD, "draw3", [ALICE, BOB])
    assert {r.races for r in stored.values()} == {placing.PAIR_RATED_PER_DAY}
    await clock.advance(24 * 3600)  # the server's next day (UTC)
    assert (await race_between(world, moves={ALICE: True, BOB: True})).race.unrated_reason is None
    with_carol = await race_between(world, moves={ALICE: True, CAROL: True})  # other opponents count apart
    assert with_carol.race.unrated_reason is None
    assert len(world.races._locks) == 0 and world.races._live == {}  # finished races leave no lock behind


async def test_ratings_stop_being_provisional_after_enough_races(world, clock, db):
    for _ in range(PROVISIONAL_RACES):
        race_id = await started(world, ALICE, BOB)
        await win(world, race_id, ALICE)
        session = await world.races.board(race_id, BOB)
        await world.sessions.play_all_to_foundations(session)  # Bob plays too, then gives up
        await world.races.leave(race_id, BOB)
        await clock.advance(races.STANDINGS_INTERVAL)
        await clock.advance(24 * 3600)  # one race a day: under the daily cap for the same two members
    final = await final_results(world)
    assert [(r.user_id, r.provisional) for r in final.results] == [(ALICE, False), (BOB, False)]
    assert final.results[0].rating_after > final.results[1].rating_after


def _easy():
    from solitaire.deals import ProvenDeal

    return ProvenDeal("draw3", 0, EASY_KLONDIKE, ())


async def test_migration_v007_widens_the_game_modes_and_keeps_the_table_sound(db):
    insert = (
        "INSERT INTO games (guild_id, channel_id, user_id, variant, mode, state, status, started_at, deadline,"
        " seconds_used, finished_at) VALUES (1, 1, ?, 'draw3', ?, '{}', 'ended', 0, 1, 1, 1)"
    )
    await db.execute(insert, (1, "race"))
    with pytest.raises(sqlite3.IntegrityError):
        await db.execute(insert, (2, "bogus"))
    if db.dialect == "sqlite":  # V007 edited SQLite's stored schema; PostgreSQL altered the constraint
        assert (await db.fetchone("PRAGMA integrity_check"))[0] == "ok"
    stats = await db.fetchone("SELECT mode, games FROM member_stats WHERE user_id = 1")
    assert tuple(stats) == ("race", 1)  # the result triggers (V006) count race results in stats


async def test_joins_arriving_together_never_overfill_a_lobby(db):
    # SQLite runs these one at a time; PostgreSQL's pool runs them together on separate connections.
    race = await races_db.create_race(
        db, guild_id=1, channel_id=2, host_id=10, variant="draw3", capacity=3, now=0.0, lobby_deadline=60.0
    )
    joined = await asyncio.gather(*(races_db.add_racer(db, race.id, user, 1.0) for user in range(11, 19)))
    assert joined.count("joined") == 2 and set(joined) == {"joined", "full"}
    assert len(await races_db.racers(db, race.id)) == 3


async def test_joins_of_one_member_arriving_together_seat_them_in_one_lobby(db):
    lobbies = [
        await races_db.create_race(
            db, guild_id=1, channel_id=2, host_id=host, variant="draw3", capacity=8, now=0.0, lobby_deadline=60.0
        )
        for host in (10, 20, 30)
    ]
    joined = await asyncio.gather(*(races_db.add_racer(db, race.id, 99, 1.0) for race in lobbies))
    assert sorted(joined) == ["joined", "seated", "seated"]
    seats = await db.fetchall("SELECT race_id FROM race_seats WHERE user_id = 99")
    assert len(seats) == 1
    with pytest.raises(races_db.SeatTakenError):  # nor may they open a lobby of their own meanwhile
        await races_db.create_race(
            db, guild_id=1, channel_id=2, host_id=99, variant="draw3", capacity=2, now=0.0, lobby_deadline=60.0
        )
    assert await races_db.add_racer(db, lobbies[0].id, 55, 1.0) == "joined"
    await db.execute(
        "INSERT INTO games (guild_id, channel_id, user_id, variant, mode, state, status, started_at,"
        " deadline) VALUES (1, 2, 77, 'draw3', 'casual', '{}', 'playing', 0, 300)"
    )
    assert await races_db.add_racer(db, lobbies[0].id, 77, 1.0) == "playing"  # a game running here


async def test_a_member_in_a_lobby_starts_no_casual_game_or_daily_there(world):
    race_id = await lobby(world, ALICE, BOB)
    for mode, daily_date in (("casual", None), ("daily", "2026-01-01")):
        with pytest.raises(errors.InLobbyError):
            await world.sessions.start(
                guild_id=GUILD, channel_id=CHANNEL, user_id=BOB, variant="draw3", deal=_easy(), mode=mode,
                daily_date=daily_date,
            )  # fmt: skip
    other_server = await world.sessions.start(
        guild_id=GUILD + 1, channel_id=9, user_id=BOB, variant="draw3", deal=_easy()
    )
    assert other_server.record.mode == "casual"
    await world.races.leave(race_id, BOB)  # out of the lobby: free again
    assert await world.sessions.start(guild_id=GUILD, channel_id=CHANNEL, user_id=BOB, variant="draw3", deal=_easy())


async def test_a_start_and_a_join_of_one_member_never_interleave(world):
    race_id = await lobby(world, ALICE)
    async with world.sessions.reserve_start(GUILD, BOB):  # Bob's casual start is being dealt
        with pytest.raises(errors.StartingError):
            await world.races.join(race_id, BOB)
    async with world.sessions.hold(GUILD, BOB):  # Bob's join is under way
        with pytest.raises(errors.MemberBusyError):
            async with world.sessions.reserve_start(GUILD, BOB):
                pass


async def test_listeners_hear_every_change_of_a_race_whatever_surface_made_it(world, clock):
    heard: list[int] = []
    world.races.add_listener(heard.append)
    race_id = await lobby(world, ALICE, BOB, CAROL)
    assert heard == [race_id] * 3  # the open and two joins
    await world.races.leave(race_id, CAROL)
    await world.races.start(race_id, ALICE)
    assert heard == [race_id] * 5
    await clock.advance(races.COUNTDOWN_SECONDS)
    session = await world.races.board(race_id, ALICE)
    await world.sessions.play(session, DRAW)  # a move, on any surface
    assert heard[-1] == race_id and len(heard) == 6
    await world.sessions.play(session, "end")
    await world.races.leave(race_id, BOB)
    await world.races.settle()
    assert (await world.races.snapshot(race_id)).race.status == "finished"
    count = len(heard)
    assert count > 6 and set(heard) == {race_id}
    world.races.remove_listener(heard.append)
    other = await lobby(world, DAN)
    assert len(heard) == count and other not in heard


async def test_a_failing_listener_is_logged_and_the_race_goes_on(world, caplog):
    def broken(race_id: int) -> None:
        raise RuntimeError("a listener's bug")

    world.races.add_listener(broken)
    race_id = await lobby(world, ALICE, BOB)
    assert (await world.races.snapshot(race_id)).racers == (ALICE, BOB)
    assert "a listener of race" in caplog.text


async def test_a_race_opened_elsewhere_posts_its_message_or_runs_without_one(world):
    posted: list[int] = []

    async def poster(snapshot: RaceSnapshot) -> int | None:
        posted.append(snapshot.race.id)
        return 777 if len(posted) == 1 else None

    race_id = await lobby(world, ALICE)
    assert await world.races.post(race_id) is False  # no poster set: no message
    world.races.post_message = poster
    assert await world.races.post(race_id) is True
    assert await world.races.message_of(race_id) == 777
    refused = await lobby(world, BOB)
    assert await world.races.post(refused) is False  # Discord refused it (the poster said so)
    assert await world.races.message_of(refused) is None
    assert world.races.open_in(GUILD, CHANNEL) == [race_id, refused]
    assert world.races.open_in(GUILD, CHANNEL + 1) == []


async def test_a_change_made_off_the_buttons_is_shown_on_the_message_throttled(world, clock):
    race_id = await lobby(world, ALICE, BOB, capacity=3)
    world.races.refresh_message(race_id)
    world.races.refresh_message(race_id)
    await asyncio.sleep(0)
    await clock.advance(races.STANDINGS_INTERVAL * 2)
    assert world.published.statuses() == ["lobby", "lobby"]
    assert world.times[1] - world.times[0] >= races.STANDINGS_INTERVAL
    await world.races.cancel(race_id, ALICE)
    world.races.refresh_message(race_id)  # a closed lobby: its last edit at once
    await clock.advance(0.1)
    assert world.published.statuses()[-1] == "cancelled"


async def test_standings_kept_in_memory_follow_every_write_of_the_race_or_its_racers(world, monkeypatch):
    race_id = await started(world, ALICE, BOB, CAROL)
    first = await world.races.snapshot(race_id)
    reads: list[int] = []
    real = races_db.racers

    async def counted(db: Database, race: int) -> list[races_db.RacerRecord]:
        reads.append(race)
        return await real(db, race)

    monkeypatch.setattr(races_db, "racers", counted)
    again = await world.races.snapshot(race_id)
    assert again.standings == first.standings and reads == []  # kept: no read per standings update
    await world.races.set_message(race_id, 4242)
    assert (await world.races.snapshot(race_id)).race.message_id == 4242
    await world.races.leave_running(race_id, BOB)
    standings = {s.user_id: s.status for s in (await world.races.snapshot(race_id)).standings}
    assert standings == {ALICE: "playing", BOB: "left", CAROL: "playing"}
    session = await world.races.board(race_id, ALICE)
    await world.sessions.play(session, DRAW)
    moved = {s.user_id: s.moves for s in (await world.races.snapshot(race_id)).standings}
    assert moved[ALICE] == session.game.version == 1

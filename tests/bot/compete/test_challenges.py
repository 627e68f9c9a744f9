"""The challenge service without Discord: answers, one attempt each, hidden scores, closing once, restarts."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot import errors
from bot.compete import challenges as challenge_module
from bot.compete.challenges import ChallengeSnapshot
from bot.storage import Database
from bot.storage import challenges as challenges_db
from solitaire import DRAW, END
from tests.support.challenges import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DAN,
    GUILD,
    HOUR,
    MESSAGE,
    World,
    challenge,
    failing_message_writes,
    play,
)
from tests.support.decks import EASY_KLONDIKE, EASY_NUMBER
from tests.support.fake_time import START, FakeTime, counted_database

OPENING = {"guild_id": GUILD, "channel_id": CHANNEL, "challenger_id": ALICE, "variant": "draw3", "opponents": [BOB]}


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


def states(snapshot: ChallengeSnapshot) -> dict[int, str]:
    return {line.user_id: line.state for line in snapshot.lines}


async def test_a_challenge_names_its_members_and_keeps_its_private_deal_back(world, db):
    challenge_id = await challenge(world, BOB, CAROL)
    snapshot = await world.challenges.snapshot(challenge_id)
    assert states(snapshot) == {ALICE: "challenger", BOB: "invited", CAROL: "invited"}
    stored = await challenges_db.get_challenge(db, challenge_id)
    assert stored.deal_seed == str(EASY_NUMBER) and stored.deadline == START + 24 * HOUR


@pytest.mark.parametrize(
    ("opponents", "message"),
    [((), "at least one"), ((ALICE,), "yourself"), ((BOB, BOB), "twice"), (tuple(range(20, 28)), "at most 7")],
)
async def test_bad_opponents_are_refused(world, db, opponents, message):
    with pytest.raises(challenge_module.OpponentsError, match=message):
        await challenge(world, *opponents)
    assert await challenges_db.open_challenges(db) == []


async def test_answers_move_an_invitation_on_once(world, clock):
    challenge_id = await challenge(world, BOB, CAROL, DAN)
    await world.challenges.answer(challenge_id, BOB, "accepted")
    with pytest.raises(challenge_module.AlreadyAnsweredError):
        await world.challenges.answer(challenge_id, BOB, "accepted")
    await world.challenges.answer(challenge_id, BOB, "declined")  # changed their mind before playing
    await world.challenges.answer(challenge_id, CAROL, "declined")
    with pytest.raises(challenge_module.AlreadyAnsweredError):
        await world.challenges.answer(challenge_id, CAROL, "accepted")  # a refusal is final
    with pytest.raises(challenge_module.ChallengerAnswerError):
        await world.challenges.answer(challenge_id, ALICE, "declined")
    with pytest.raises(challenge_module.NotNamedError):
        await world.challenges.answer(challenge_id, 99, "accepted")
    with pytest.raises(challenge_module.DeclinedError):
        await world.challenges.play(challenge_id, CAROL)
    await clock.advance(24 * HOUR)
    with pytest.raises(challenge_module.NoMoreAttemptsError):
        await world.challenges.answer(challenge_id, DAN, "accepted")


async def test_one_attempt_each_on_the_same_deck_with_its_own_clock(world, clock):
    challenge_id = await challenge(world, BOB)
    session = await world.challenges.play(challenge_id, BOB)  # playing accepts the invitation
    assert session.record.mode == "challenge" and tuple(session.game.deck) == EASY_KLONDIKE
    assert session.deadline == clock.now + 300
    assert await world.challenges.play(challenge_id, BOB) is session  # the running attempt, not a second one
    await world.sessions.play(session, END)
    with pytest.raises(challenge_module.PlayedError):
        await world.challenges.play(challenge_id, BOB)
    await clock.advance(2 * HOUR)
    late = await world.challenges.play(challenge_id, ALICE)  # the challenger plays later: a clock of their own
    assert late.deadline == clock.now + 300 and late.record.started_at == clock.now


async def test_a_members_second_attempt_is_refused_by_its_link(world, db):
    challenge_id = await challenge(world, BOB)
    link_a = challenges_db.attempt_link(challenge_id, BOB, START)
    link_b = challenges_db.attempt_link(challenge_id, BOB, START)
    row = (
        "INSERT INTO games (guild_id, channel_id, user_id, variant, mode, state, status, started_at, deadline,"
        " seconds_used, finished_at) VALUES (?, 5, ?, 'draw3', 'challenge', '{}', 'ended', 0, 1, 1, 1) RETURNING id"
    )
    done = []
    for link in (link_a, link_b):
        async with db.transaction() as tx:
            game = await tx.fetchone(row, (GUILD, BOB))
            done.append(await link(tx, int(game["id"])))
    assert done == [True, False]


async def test_scores_stay_hidden_until_it_closes_unless_shown(world):
    hidden = await challenge(world, BOB, CAROL)
    await play(world, hidden, BOB)
    [bob] = [line for line in (await world.challenges.snapshot(hidden)).lines if line.user_id == BOB]
    assert (bob.state, bob.score) == ("played", None)
    shown = await challenge(world, DAN, show_scores=True)
    record = await play(world, shown, DAN)
    [dan] = [line for line in (await world.challenges.snapshot(shown)).lines if line.user_id == DAN]
    assert (dan.state, dan.score) == ("played", record.score)


async def test_it_closes_once_everyone_answered_and_played_and_rates_those_who_played(world, db):
    challenge_id = await challenge(world, BOB, CAROL)
    await world.challenges.answer(challenge_id, CAROL, "declined")
    bob = await play(world, challenge_id, BOB)
    assert (await world.challenges.snapshot(challenge_id)).challenge.status == "open"  # alice has not played
    alice = await play(world, challenge_id, ALICE, win=True)
    [final] = world.results
    assert final.closed and final.challenge.unrated_reason is None
    placed = {line.user_id: (line.place, line.score) for line in final.lines if line.place is not None}
    assert placed == {ALICE: (1, alice.score), BOB: (2, bob.score)}
    assert all(line.rating_after is not None for line in final.lines if line.place is not None)
    assert await world.challenges.over_for_game(alice.id)
    await world.announcements.deliver_due()  # posted once
    assert len(world.results) == 1
    posts = await db.fetchall("SELECT state FROM announcements WHERE kind = 'challenge'")
    assert [row["state"] for row in posts] == ["posted"]


async def test_at_the_deadline_it_waits_for_the_attempts_still_running(world, clock):
    challenge_id = await challenge(world, BOB, CAROL)  # carol never answers
    await play(world, challenge_id, ALICE)
    await clock.advance(24 * HOUR - 60)
    session = await world.challenges.play(challenge_id, BOB)  # a minute before the deadline
    assert not await world.challenges.over_for_game(session.id)
    await clock.advance(120)
    snapshot = await world.challenges.snapshot(challenge_id)
    assert snapshot.challenge.status == "open" and not snapshot.taking_attempts
    with pytest.raises(challenge_module.NoMoreAttemptsError):
        await world.challenges.play(challenge_id, CAROL)
    await world.sessions.play(session, DRAW)  # bob still plays on his own clock
    await clock.advance(300)  # his clock ends the game: the challenge closes
    await world.challenges.settle()
    [final] = world.results
    assert states(final)[CAROL] == "invited" and {line.user_id for line in final.lines if line.place} == {ALICE, BOB}


async def test_a_restart_keeps_the_deadline_and_the_attempt(world, clock, db):
    challenge_id = await challenge(world, BOB, hours=2)
    session = await world.challenges.play(challenge_id, BOB)
    await world.sessions.play(session, DRAW)
    await world.restart()
    resumed = await world.challenges.play(challenge_id, BOB)  # the attempt, resumed
    assert resumed.id == session.id and resumed.game.version == 1
    await world.sessions.play(resumed, END)
    await clock.advance(2 * HOUR)  # the challenger never plays: it closes at the deadline
    await world.challenges.settle()
    assert len(world.results) == 1 and world.results[0].challenge.unrated_reason == (
        "fewer than two players made a move"
    )


async def test_a_member_who_already_plays_elsewhere_gets_no_attempt(world):
    challenge_id = await challenge(world, BOB)
    await world.sessions.start(
        guild_id=GUILD,
        channel_id=CHANNEL,
        user_id=BOB,
        variant="draw3",
        deal=(await world.challenges.deals.take("draw3")).deal,
    )
    with pytest.raises(errors.ActiveGameError):
        await world.challenges.play(challenge_id, BOB)
    assert states(await world.challenges.snapshot(challenge_id))[BOB] == "invited"  # nothing was written


async def test_the_daily_cap_per_pair_counts_challenges_with_races(world, db, clock):
    rated = []
    for _ in range(4):
        challenge_id = await challenge(world, BOB)
        await play(world, challenge_id, BOB)
        await play(world, challenge_id, ALICE)
        rated.append((await world.challenges.snapshot(challenge_id)).challenge.unrated_reason is None)
    assert rated == [True, True, True, False]


async def test_two_processes_close_a_challenge_once_and_post_it_once(db, clock):
    here, there = World(db, clock), World(db, clock)
    try:
        challenge_id = await challenge(here, BOB)
        assert await there.challenges.resume(owns=lambda guild: False) == []  # another process's server
        await play(here, challenge_id, BOB)
        await play(here, challenge_id, ALICE, win=True)
        await there.challenges._try_close(challenge_id)  # a second process looks at it too: nothing to do
        await there.announcements.deliver_due()
        assert (len(here.results), len(there.results)) == (1, 0)
        closed = await db.fetchall("SELECT place FROM challenge_players WHERE challenge_id = ?", (challenge_id,))
        assert sorted(row["place"] for row in closed) == [1, 2]
        posts = await db.fetchall("SELECT state FROM announcements WHERE kind = 'challenge'")
        assert [row["state"] for row in posts] == ["posted"]
    finally:
        await here.close()
        await there.close()


def links(world: World, *challenge_ids: int) -> list[str]:
    return [f"https://discord.com/channels/{GUILD}/{CHANNEL}/{MESSAGE + n}" for n in challenge_ids]


async def test_a_member_has_a_few_open_challenges_at_most_refused_before_any_solve(world, monkeypatch):
    opened = [await challenge(world, BOB) for _ in range(challenge_module.MAX_OPEN_PER_MEMBER)]
    solves, take = [], world.challenges.deals.take

    async def counted(variant: str) -> Any:
        solves.append(variant)
        return await take(variant)

    monkeypatch.setattr(world.challenges.deals, "take", counted)
    with pytest.raises(challenge_module.TooManyChallengesError) as refused:
        await challenge(world, CAROL)
    assert f"You have {len(opened)} open challenges in this server" in str(refused.value)
    assert all(link in str(refused.value) for link in links(world, *opened))
    assert solves == [] and len(await challenges_db.open_challenges(world.db)) == len(opened)
    other = await world.challenges.open(  # the cap is per member and per server
        guild_id=GUILD + 1, channel_id=CHANNEL, challenger_id=ALICE, variant="draw3", opponents=[BOB]
    )
    assert other.challenge.guild_id == GUILD + 1 and solves == ["draw3"]


async def test_a_challenge_being_opened_counts_against_the_cap(world, clock, monkeypatch):
    for _ in range(challenge_module.MAX_OPEN_PER_MEMBER - 1):
        await challenge(world, BOB)
    take = world.challenges.deals.take

    async def slow(variant: str) -> Any:
        await clock.sleep(5)  # the deal is solved now
        return await take(variant)

    monkeypatch.setattr(world.challenges.deals, "take", slow)
    deferred = []

    async def defer() -> None:
        deferred.append(clock.now)

    opening = asyncio.ensure_future(world.challenges.open(**OPENING, on_solve=defer))
    await clock.advance(1)
    with pytest.raises(challenge_module.TooManyChallengesError, match="1 being posted now"):
        await world.challenges.open(**OPENING)
    await clock.advance(5)
    assert (await opening).challenge.status == "open" and deferred == [START]  # told before the solve


async def test_a_closed_challenge_makes_room_for_a_new_one(world):
    opened = [await challenge(world, BOB) for _ in range(challenge_module.MAX_OPEN_PER_MEMBER)]
    await world.challenges.answer(opened[0], BOB, "declined")
    await play(world, opened[0], ALICE)
    await world.challenges.close_if_over(opened[0])
    assert (await challenges_db.get_challenge(world.db, opened[0])).status == "closed"
    assert await challenge(world, BOB) > opened[-1]


async def store_message(world: World, challenge_id: int) -> None:
    """Store the message of a challenge, its retries waiting on the fake clock."""
    storing = asyncio.ensure_future(world.challenges.set_message(challenge_id, MESSAGE + challenge_id))
    await world.clock.advance(challenge_module.MESSAGE_WRITES * challenge_module.MESSAGE_RETRY_SECONDS * 3)
    await storing


async def test_the_message_id_is_retried_then_the_challenge_is_cancelled_and_posts_nothing(world, clock, monkeypatch):
    failures = failing_message_writes(monkeypatch)
    failures[0] = challenge_module.MESSAGE_WRITES - 1
    retried = (await world.challenges.open(**OPENING)).challenge.id
    await store_message(world, retried)  # failures, then the last try lands
    assert await world.challenges.message_of(retried) == MESSAGE + retried
    failures[0] = challenge_module.MESSAGE_WRITES
    lost = (await world.challenges.open(**OPENING)).challenge.id
    with pytest.raises(sqlite3.OperationalError):
        await store_message(world, lost)
    assert await world.challenges.cancel(lost)
    with pytest.raises(challenge_module.NoMoreAttemptsError):
        await world.challenges.play(lost, BOB)
    await world.challenges.answer(retried, BOB, "declined")
    await play(world, retried, ALICE)
    await world.challenges.close_if_over(retried)
    await clock.advance(25 * HOUR)
    await world.challenges.settle()
    assert [snapshot.challenge.id for snapshot in world.results] == [retried]  # the cancelled one posts nothing
    assert (await challenges_db.get_challenge(world.db, lost)).status == "cancelled"


async def test_a_challenge_whose_message_was_never_stored_is_cancelled_at_its_deadline(world, db, clock):
    unshown = (await world.challenges.open(**OPENING)).challenge.id  # say the cancel itself failed too
    await clock.advance(24 * HOUR)
    await world.challenges.settle()
    assert (await challenges_db.get_challenge(db, unshown)).status == "cancelled"
    assert world.results == [] and await db.fetchall("SELECT id FROM announcements") == []


async def test_an_answer_leaves_the_close_to_the_caller_once_it_answered_the_click(world):
    challenge_id = await challenge(world, BOB)
    await play(world, challenge_id, ALICE)
    snapshot = await world.challenges.answer(challenge_id, BOB, "declined")
    assert snapshot.challenge.status == "open" and world.results == []  # nothing posted yet
    await world.challenges.close_if_over(challenge_id)
    [final] = world.results
    assert final.closed and states(final)[BOB] == "declined"


async def test_an_open_challenge_is_never_rated(world, db):
    challenge_id = await challenge(world, BOB, show_scores=True)
    await play(world, challenge_id, BOB)
    await play(world, challenge_id, ALICE, win=True)
    [final] = world.results
    assert final.challenge.unrated_reason == challenge_module.OPEN_UNRATED
    assert [line.place for line in final.lines] == [1, 2]  # placed, not rated
    assert all(line.rating_after is None for line in final.lines)
    assert await db.fetchall("SELECT user_id FROM ratings") == []


async def test_closed_challenges_leave_no_lock_or_timer_behind(world):
    for _ in range(20):
        challenge_id = await challenge(world, BOB)
        await world.challenges.answer(challenge_id, BOB, "declined")
        await play(world, challenge_id, ALICE)
        await world.challenges.close_if_over(challenge_id)
    await world.challenges.settle()
    service = world.challenges
    assert len(world.results) == 20
    assert len(service._locks) == 0
    left = (service._deadlines, len(service._updates), service._games)
    assert left == ({}, 0, {}) and service._opening == {}


async def test_a_closed_challenge_marks_a_provisional_rating(world):
    challenge_id = await challenge(world, BOB)
    await play(world, challenge_id, BOB)
    await play(world, challenge_id, ALICE, win=True)
    [final] = world.results
    assert all(line.provisional for line in final.lines)  # one rated game each: still provisional


async def test_a_members_challenges_open_first_then_closed_for_a_while(world, clock):
    closed = await challenge(world, BOB)
    await play(world, closed, BOB)
    await play(world, closed, ALICE)
    assert (await world.challenges.snapshot(closed)).closed
    older = await challenge(world, BOB, CAROL)
    newer = await challenge(world, CAROL, BOB)
    unposted = (await world.challenges.open(**OPENING)).challenge.id  # no message yet: no buttons anywhere
    elsewhere = await world.challenges.open(**{**OPENING, "guild_id": GUILD + 1})
    await world.challenges.set_message(elsewhere.challenge.id, MESSAGE)

    async def listed(member: int, limit: int = 6) -> list[int]:
        found = await world.challenges.of_member(GUILD, member, closed_within=HOUR, limit=limit)
        return [snapshot.challenge.id for snapshot in found]

    assert await listed(BOB) == [newer, older, closed]
    assert await listed(ALICE) == [newer, older, closed]
    assert await listed(CAROL) == [newer, older] and await listed(DAN) == []
    assert await listed(BOB, limit=2) == [newer, older]
    assert unposted not in await listed(BOB)
    await clock.advance(HOUR + 1)
    assert await listed(BOB) == [newer, older]  # the closed one's results are off the list after a while


async def test_watchers_hear_answers_attempts_and_the_close(world):
    heard: list[int] = []
    world.challenges.watch(heard.append)
    challenge_id = await challenge(world, BOB)
    await world.challenges.answer(challenge_id, BOB, "accepted")
    assert heard == [challenge_id]
    await play(world, challenge_id, BOB)
    assert heard.count(challenge_id) >= 3  # its start and its end
    before = len(heard)
    await play(world, challenge_id, ALICE)
    assert (await world.challenges.snapshot(challenge_id)).closed and len(heard) >= before + 3  # the close too


async def test_a_watcher_that_fails_is_logged_and_the_answer_stands(world, caplog):
    def broken(challenge_id: int) -> None:
        raise RuntimeError("a bug")

    world.challenges.watch(broken)
    challenge_id = await challenge(world, BOB)
    snapshot = await world.challenges.answer(challenge_id, BOB, "declined")
    assert states(snapshot)[BOB] == "declined" and "a watcher of challenge" in caplog.text
    caplog.clear()  # the failure was expected


async def test_an_answer_given_elsewhere_updates_the_message(world):
    challenge_id = await challenge(world, BOB)
    await world.challenges.answer(challenge_id, BOB, "accepted")
    await asyncio.sleep(0.05)
    assert world.updates == []  # a press of the button edits the message itself
    world.challenges.show_answer(challenge_id)
    for _ in range(200):
        if world.updates:
            break
        await asyncio.sleep(0.01)
    assert states(world.updates[-1])[BOB] == "accepted"

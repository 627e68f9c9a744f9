"""The session layer without Discord: saving, versions, locks, finishing once, expiry and restarts."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest
import pytest_asyncio

from bot import errors
from bot.play.sessions import SessionManager
from bot.rules.modes import RACE
from bot.shards import Ownership, shard_of
from bot.storage import Database, players
from bot.storage import games as games_db
from solitaire import DRAW, END, IllegalMoveError, InvalidMoveError, Move
from solitaire.deals import ProvenDeal
from tests.support.decks import EASY_KLONDIKE, seeded
from tests.support.faults import LostAnswers

START = 1_800_000_000.0


class FakeClock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


def easy(variant: str = "draw3") -> ProvenDeal:
    return ProvenDeal(variant, 0, EASY_KLONDIKE, ())


@pytest_asyncio.fixture
async def db(database_target: str | Path) -> AsyncIterator[Database]:
    database = await Database.open(database_target)
    yield database
    await database.close()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest_asyncio.fixture
async def manager(db: Database, clock: FakeClock) -> AsyncIterator[SessionManager]:
    sessions = SessionManager(db, now=clock)
    yield sessions
    await sessions.close()


async def start(manager: SessionManager, user: int = 7, guild: int = 1, **kwargs):
    options = {"variant": "draw3", "deal": easy(), "deal_number": 777, **kwargs}
    return await manager.start(guild_id=guild, channel_id=5, user_id=user, **options)


async def test_start_stores_a_playing_row_with_its_deadline(manager, db, clock):
    session = await start(manager)
    row = await games_db.get_game(db, session.id)
    assert row is not None
    assert (row.status, row.mode, row.deal_number, row.started_at, row.deadline) == (
        "playing",
        "casual",
        777,
        START,
        START + 300,
    )
    assert manager.active_for(1, 7) is session and manager.active_for(2, 7) is None


async def test_one_running_game_per_player_and_guild(manager):
    first = await start(manager)
    with pytest.raises(errors.ActiveGameError) as raised:
        await start(manager)
    assert raised.value.game_id == first.id
    other_guild = await start(manager, guild=2)
    dm = await start(manager, guild=0)
    assert len({first.id, other_guild.id, dm.id}) == 3


async def test_every_accepted_move_is_saved_with_its_clock_reading(manager, db, clock):
    session = await start(manager)
    clock.now += 12.7
    outcome = await manager.play(session, "1-f")
    row = await games_db.get_game(db, session.id)
    assert row is not None
    assert outcome.version == row.version == 1 and row.score == 50
    assert json.loads(await games_db.game_state(db, row))["log"] == [["1-f", 12]]


@pytest.mark.parametrize(
    ("move", "error"),
    [("3-5", IllegalMoveError), ("9-9", InvalidMoveError), ("undo", IllegalMoveError)],
)
async def test_a_refused_move_changes_and_saves_nothing(manager, db, move, error):
    session = await start(manager)
    with pytest.raises(error):
        await manager.play(session, move)
    row = await games_db.get_game(db, session.id)
    assert row is not None and row.version == 0 and session.game.version == 0


async def test_a_stale_version_is_refused(manager):
    session = await start(manager)
    await manager.play(session, DRAW, version=0)
    with pytest.raises(errors.StaleBoardError):
        await manager.play(session, DRAW, version=0)
    with pytest.raises(errors.StaleBoardError):
        manager.require_playable(session.id, 7, 0)
    assert session.game.version == 1


async def test_concurrent_commands_at_one_version_play_once(manager):
    session = await start(manager)
    results = await asyncio.gather(*(manager.play(session, DRAW, version=0) for _ in range(5)), return_exceptions=True)
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert all(isinstance(r, errors.StaleBoardError) for r in results if isinstance(r, Exception))
    assert session.game.log == [("draw", 0)]


@pytest.mark.parametrize(
    ("user", "error"),
    [(8, errors.NotYourGameError), (7, None)],
)
async def test_only_the_owner_may_play(manager, user, error):
    session = await start(manager)
    if error is None:
        assert manager.require_playable(session.id, user) is session
    else:
        with pytest.raises(error):
            manager.require_playable(session.id, user)
    with pytest.raises(errors.UnknownGameError):
        manager.require_playable(session.id + 1, 7)


async def test_everything_up_plays_each_card_as_an_engine_move(manager):
    session = await start(manager)
    outcome = await manager.play_all_to_foundations(session)
    assert len(outcome.moves) == 28 and all(m.endswith("-f") for m in outcome.moves)
    assert session.game.placed_count() == 28
    with pytest.raises(IllegalMoveError, match="no card can go"):
        await manager.play_all_to_foundations(session)


async def test_a_win_is_recorded_once_and_announced(manager, db):
    seen = []

    async def listener(session, record, source):
        seen.append((record.id, record.status, source))

    manager.add_finish_listener(listener)
    session = await start(manager)
    await manager.play_all_to_foundations(session)
    for _ in range(8):
        await manager.play(session, DRAW)
        outcome = await manager.play_all_to_foundations(session)
    assert outcome.finished is not None and outcome.finished.status == "won"
    assert seen == [(session.id, "won", "command")]
    assert manager.active_for(1, 7) is None
    assert await manager.expire(session) is None  # already finished: nothing more is written
    with pytest.raises(errors.GameEndedError):
        await manager.play(session, DRAW)
    row = await games_db.get_game(db, session.id)
    assert row is not None and row.finished_at == START and row.seconds_used == 0


async def test_a_move_after_the_deadline_expires_the_game(manager, db, clock):
    seen = []

    async def listener(session, record, source):
        seen.append((record.status, source))

    manager.add_finish_listener(listener)
    session = await start(manager)
    clock.now += 300
    with pytest.raises(errors.TimeUpError):
        await manager.play(session, DRAW)
    row = await games_db.get_game(db, session.id)
    assert row is not None and (row.status, row.seconds_used, row.score) == ("expired", 300, 0)
    assert seen == [("expired", "clock")]


async def test_the_clock_task_ends_the_game_at_the_deadline(db, clock):
    async def fast_sleep(seconds: float) -> None:
        clock.now += seconds  # time passes at once
        await asyncio.sleep(0)

    manager = SessionManager(db, now=clock, sleep=fast_sleep)
    done = asyncio.Event()

    async def listener(session, record, source):
        done.set()

    manager.add_finish_listener(listener)
    session = await start(manager)
    await asyncio.wait_for(done.wait(), 2)
    row = await games_db.get_game(db, session.id)
    assert row is not None and (row.status, row.finished_at) == ("expired", START + 300)
    assert session.timer is None and manager.get(session.id) is None
    await manager.close()


async def test_a_restart_resumes_running_games_and_finishes_late_ones(db, clock):
    before = SessionManager(db, now=clock)
    early = await start(before, user=1, deal=ProvenDeal("draw1", 3, seeded(3), ()), variant="draw1")
    await before.play(early, DRAW)
    clock.now += 200
    late = await start(before, user=2)
    await before.close()  # the bot stops: clocks stop, rows stay "playing"

    clock.now += 150  # early's deadline passed while the bot was down, late's did not
    after = SessionManager(db, now=clock)
    seen = []

    async def listener(session, record, source):
        seen.append((record.id, record.status, source))

    after.add_finish_listener(listener)
    resumed, finished = await after.resume_all()
    assert [s.id for s in resumed] == [late.id] and resumed[0].timer is not None
    assert [(r.id, r.status, r.seconds_used) for r in finished] == [(early.id, "expired", 300)]
    assert seen == [(early.id, "expired", "restart")]
    assert after.get(late.id).game.version == 0 and after.active_for(1, 2) is not None
    row = await games_db.get_game(db, early.id)
    assert row is not None and json.loads(row.state)["log"][0] == ["draw", 0]
    await after.close()


async def test_a_cluster_process_resumes_only_the_games_of_its_own_shards(db, clock):
    before = SessionManager(db, now=clock)
    guilds = [(1 << 22) * k for k in range(1, 5)]  # shards 1, 0, 1, 0 of 2
    games = {guild: await start(before, user=1, guild=guild) for guild in guilds}
    await before.close()
    processes = [SessionManager(db, now=clock) for _ in range(2)]
    owners = [Ownership(2, (0,)), Ownership(2, (1,))]
    for manager, ownership in zip(processes, owners, strict=True):
        resumed, finished = await manager.resume_all(owns=ownership.owns)
        assert finished == []
        assert sorted(s.id for s in resumed) == sorted(games[g].id for g in guilds if ownership.owns(g))
        assert all(manager.get(games[g].id) is None for g in guilds if not ownership.owns(g))
    for manager in processes:
        await manager.close()
    clock.now += 400  # every deadline passes while the processes are down
    late = SessionManager(db, now=clock)
    _, finished = await late.resume_all(owns=Ownership(2, (1,)).owns)  # a late restart finishes its own only
    assert sorted(r.id for r in finished) == sorted(games[g].id for g in guilds if shard_of(g, 2) == 1)
    await late.close()


async def test_a_second_daily_attempt_is_refused(manager, db):
    session = await start(manager, mode="daily", daily_date="2026-01-01", deal_number=None)
    await manager.play(session, Move.play("1", "f"))
    await manager.play(session, "end")
    with pytest.raises(errors.AlreadyPlayedError):
        await start(manager, mode="daily", daily_date="2026-01-01", deal_number=None)
    assert (await start(manager, mode="daily", daily_date="2026-01-02", deal_number=None)).id != session.id


async def test_a_deal_of_another_variant_is_refused(manager):
    with pytest.raises(ValueError, match="cannot start"):
        await start(manager, variant="friday13")


async def test_the_four_colour_setting_is_loaded_at_start_and_resume_and_follows_changes(db, clock):
    await players.set_four_colour(db, 7, True)
    before = SessionManager(db, now=clock)
    mine = await start(before, user=7)
    other = await start(before, user=8)
    assert mine.four_colour and not other.four_colour
    assert before.set_four_colour(8, True) == [other] and other.four_colour
    assert before.set_four_colour(9, True) == []
    await before.close()

    await players.set_four_colour(db, 8, False)
    after = SessionManager(db, now=clock)
    resumed, _ = await after.resume_all()
    assert {s.owner_id: s.four_colour for s in resumed} == {7: True, 8: False}
    await after.close()


async def test_a_game_finished_at_restart_is_redrawn_in_the_players_colours(db, clock):
    await players.set_four_colour(db, 7, True)
    before = SessionManager(db, now=clock)
    await start(before, user=7)
    await before.close()
    clock.now += 301
    after = SessionManager(db, now=clock)
    seen = []

    async def listener(session, record, source):
        seen.append((session.four_colour, source))

    after.add_finish_listener(listener)
    await after.resume_all()
    assert seen == [(True, "restart")]
    await after.close()


async def test_a_damaged_running_row_only_the_database_knows_never_blocks_a_start(manager, db, caplog):
    from bot.storage.games import NewGame, insert_game

    orphan = await insert_game(
        db,
        NewGame(
            guild_id=1,
            channel_id=1,
            user_id=7,
            variant="draw3",
            mode="casual",
            deal_number=None,
            daily_date=None,
            state="{damaged",
            started_at=0.0,
            deadline=300.0,
        ),
    )
    session = await start(manager)  # the same player: the damaged row is closed, the start goes through
    assert session.id != orphan.id and manager.active_for(1, 7) is session
    closed = await games_db.get_game(db, orphan.id)
    assert closed is not None and closed.status == "broken" and "could not be rebuilt" in caplog.text
    assert manager.has_notices(1, 7)
    await manager.close()


# -- a save whose answer was lost (the connection died during the commit) -----------------------
@pytest.fixture
def lost(monkeypatch: pytest.MonkeyPatch) -> LostAnswers:
    return LostAnswers(monkeypatch)


async def stored(db: Database, session) -> int:
    row = await games_db.get_game(db, session.id)
    assert row is not None
    return row.version


async def test_a_move_whose_answer_was_lost_after_it_landed_is_kept_and_the_game_goes_on(manager, db, lost):
    session = await start(manager)
    lost.lose("save_progress", landed=True)
    outcome = await manager.play(session, DRAW, version=0)  # answered as played: the database holds it
    assert lost.lost == 1 and outcome.version == session.game.version == 1 == await stored(db, session)
    assert (await manager.play(session, DRAW, version=1)).version == 2 == await stored(db, session)


async def test_a_move_whose_commit_never_landed_is_not_saved_and_the_game_goes_on(manager, db, lost):
    session = await start(manager)
    lost.lose("save_progress", landed=False)
    with pytest.raises(errors.NotSavedError):
        await manager.play(session, DRAW, version=0)
    assert session.game.version == 0 == await stored(db, session)
    assert (await manager.play(session, DRAW, version=0)).version == 1 == await stored(db, session)


async def test_a_move_whose_outcome_cannot_be_checked_is_checked_before_the_next_command(manager, db, lost):
    session = await start(manager)
    lost.lose("save_progress", landed=True)
    lost.unreadable()
    with pytest.raises(errors.NotSavedError):  # the database cannot say: the player is told it may not be saved
        await manager.play(session, DRAW, version=0)
    assert session.game.version == 0 and session.unsure is not None
    with pytest.raises(errors.StaleBoardError):  # the board clicked is at 0, the database holds 1: checked first
        await manager.play(session, DRAW, version=0)
    assert session.game.version == 1 == await stored(db, session) and session.unsure is None
    assert (await manager.play(session, DRAW, version=1)).version == 2 == await stored(db, session)


async def test_an_end_whose_answer_was_lost_after_it_landed_is_announced_once(manager, db, lost):
    announced = []

    async def listener(session, record, source) -> None:
        announced.append((record.status, source))

    manager.add_finish_listener(listener)
    session = await start(manager)
    await manager.play(session, DRAW)
    lost.lose("finish_game", landed=True)
    outcome = await manager.play(session, "end")
    assert outcome.finished is not None and outcome.finished.status == "ended"
    assert announced == [("ended", "command")] and manager.get(session.id) is None


async def test_an_expiry_whose_outcome_cannot_be_checked_is_retried_and_announced_once(manager, db, lost, clock):
    announced = []

    async def listener(session, record, source) -> None:
        announced.append((record.status, source))

    manager.add_finish_listener(listener)
    session = await start(manager)
    lost.lose("finish_game", landed=True)
    lost.unreadable()
    with pytest.raises(errors.NotSavedError):
        await manager.expire(session)
    assert manager.get(session.id) is session and announced == []  # still running here, and in doubt
    record = await manager.expire(session)  # the clock's retry checks first: it was stored
    assert record is not None and record.status == "expired" and announced == [("expired", "clock")]
    assert manager.get(session.id) is None


# -- two processes with one game (overlapping shards): the stale copy never writes -------------
async def test_a_stale_copy_never_writes_its_result_nor_announces_it(db, clock):
    fresh, stale = SessionManager(db, now=clock), SessionManager(db, now=clock)
    announced = []

    async def listener(session, record, source) -> None:
        announced.append((session.id, record.status, record.version))

    fresh.add_finish_listener(listener)
    stale.add_finish_listener(listener)
    try:
        session = await start(fresh)
        await fresh.play(session, DRAW)
        [old] = (await stale.resume_all())[0]  # both processes resumed the game at version 1
        for _ in range(5):
            await fresh.play(session, DRAW)
        assert await stale.expire(old) is None  # its copy is at 1, the database at 6: it writes nothing
        assert stale.get(session.id) is None and announced == []
        row = await games_db.get_game(db, session.id)
        assert row is not None and row.is_playing and row.version == 6
        finished = await fresh.play(session, "end")
        assert finished.finished is not None and announced == [(session.id, "ended", 7)]
    finally:
        await fresh.close()
        await stale.close()


async def test_a_command_on_a_stale_copy_changes_nothing_and_loads_the_stored_game(db, clock):
    fresh, stale = SessionManager(db, now=clock), SessionManager(db, now=clock)
    try:
        session = await start(fresh)
        [old] = (await stale.resume_all())[0]
        await fresh.play(session, DRAW)
        with pytest.raises(errors.ChangedElsewhereError):
            await stale.play(old, DRAW)
        loaded = stale.get(session.id)
        assert loaded is not None and loaded is not old and loaded.game.version == 1
        assert await stored(db, session) == 1
    finally:
        await fresh.close()
        await stale.close()


# -- clock credits: the bot's own work is not on the player's clock ----------------------------
PRESSES = ("draw", None, "draw", "1-4", None, "draw", "2-f", "draw")
"""A player's presses: a command, or ``None`` for a press that only selects (no move)."""


async def paced_game(db, clock, *, late: float, restart_after: int | None = None, mode: str = "casual"):
    """Play :data:`PRESSES` at the same player pace (1.5 s from each answer to the next press) with the bot
    answering ``late`` seconds after each press; return (time used at the end, the stored deadline)."""
    clock.now = START
    manager = SessionManager(db, now=clock)
    session = await start(manager, mode=mode)
    for index, command in enumerate(PRESSES):
        created = clock.now
        clock.now += late  # the bot is busy (a queue, a slow worker) before it answers
        pressed = manager.press_time(session, created)
        if command is not None:
            await manager.play(session, command, at=pressed)
        await manager.credit(session, pressed, clock.now)
        clock.now += 1.5  # the player's own time
        if index == restart_after:
            await manager.close()
            manager = SessionManager(db, now=clock)
            await manager.resume_all()
            session = manager.get(session.id)
    used = session.seconds_at(clock.now)
    outcome = await manager.play(session, "end", at=manager.press_time(session, clock.now))
    row = await games_db.get_game(db, session.id)
    await manager.close()
    assert outcome.finished is not None and row is not None
    return used, session.game.log, row


@pytest.mark.parametrize("restart_after", [None, 3, 4])
async def test_time_used_is_the_same_whether_the_bot_answers_at_once_or_late(db, clock, restart_after):
    prompt, prompt_log, prompt_row = await paced_game(db, clock, late=0.0)
    slow, slow_log, slow_row = await paced_game(db, clock, late=2.0, restart_after=restart_after)
    assert abs(slow - prompt) < 0.1 and slow == pytest.approx(len(PRESSES) * 1.5)
    assert slow_log == prompt_log  # the same seconds with every move: a replay or an analysis reads the same
    assert slow_row.seconds_used == prompt_row.seconds_used


async def test_a_late_answer_moves_the_deadline_out_by_at_most_three_seconds_a_press(db, clock):
    go, slept = asyncio.Event(), []

    async def held_sleep(seconds: float) -> None:
        slept.append(seconds)
        await go.wait()
        clock.now += seconds

    manager = SessionManager(db, now=clock, sleep=held_sleep)
    session = await start(manager)
    while not slept:
        await asyncio.sleep(0)  # the clock task sleeps towards the first deadline
    pressed = manager.press_time(session, clock.now - 1)
    assert pressed == START  # a press never counts from before the last answer (here: the start)
    await manager.credit(session, pressed, START + 5)  # answered 5 s late: 3 s given back
    assert session.deadline == START + 303
    row = await games_db.get_game(db, session.id)
    assert row is not None and row.deadline == START + 303  # stored at once: a restart keeps it
    done = asyncio.Event()

    async def listener(session, record, source):
        done.set()

    manager.add_finish_listener(listener)
    go.set()
    await asyncio.wait_for(done.wait(), 2)
    row = await games_db.get_game(db, session.id)
    assert slept == [300, 3]  # the clock task slept on to the moved deadline
    assert row is not None and (row.status, row.finished_at, row.seconds_used) == ("expired", START + 303, 300)
    await manager.close()


async def test_races_keep_their_common_clock_without_credits(db, clock):
    used, _, row = await paced_game(db, clock, late=2.0, mode="race")
    assert used == pytest.approx(len(PRESSES) * 3.5) and row.deadline == START + 300


async def test_a_listener_for_one_mode_hears_only_the_games_of_that_mode(manager):
    finished: dict[str, list[int]] = {"race": [], "any": []}
    moved: dict[str, set[int]] = {"race": set(), "any": set()}

    def finish_listener(which: str) -> Callable[..., Awaitable[None]]:
        async def listener(session, record, source):
            finished[which].append(record.id)

        return listener

    manager.add_finish_listener(finish_listener("race"), mode=RACE)
    manager.add_finish_listener(finish_listener("any"))
    manager.add_move_listener(lambda session: moved["race"].add(session.id), mode=RACE)
    manager.add_move_listener(lambda session: moved["any"].add(session.id))
    casual = await start(manager, user=7)
    race = await start(manager, user=8, mode="race")
    for session in (casual, race):
        await manager.play(session, DRAW)
        await manager.play(session, END)
    assert finished == {"race": [race.id], "any": [casual.id, race.id]}
    assert moved == {"race": {race.id}, "any": {casual.id, race.id}}


# -- one press, one call: the cog hands a board button's press over and shows what comes back ----------
def board_press(game_id: int, action: str, *, user: int = 7, guild: int = 1, message: int = 9, **origin):
    from bot.play.clicks import BoardClick, Origin
    from bot.play.session import BoardPress

    where = {"message_id": message, "carries": True, **origin}
    return BoardPress(BoardClick(game_id, 0, None, action), Origin(user, guild, **where), START + 10)


async def test_a_press_plays_as_of_the_press_and_credits_until_the_answer_went_out(manager, clock):
    from bot.play.session import Played

    session = await start(manager)
    await manager.set_board(session, channel_id=5, message_id=9, token=None)
    shown = []

    async def answer(pressed) -> float:
        shown.append(pressed)
        clock.now += 1.0  # drawing the new board
        return clock.now  # the answer goes out

    clock.now = START + 12  # the bot reads the press 2 s after Discord made it
    await manager.press(board_press(session.id, "draw"), answer)
    [played] = shown
    assert isinstance(played, Played) and played.outcome.version == 1 and played.outcome.moves == ("draw",)
    assert session.game.log[-1] == (str(DRAW), 10)  # logged at the press, not when the bot got to it
    assert session.deadline == START + 303  # 3 s of the bot's work (at most 3) given back


async def test_a_press_that_selects_shows_the_selection_and_is_credited_too(manager, clock):
    from bot.play.session import Selection

    session = await start(manager)
    await manager.set_board(session, channel_id=5, message_id=9, token=None)
    shown = []

    async def answer(pressed) -> float:
        shown.append(pressed)
        return START + 11

    clock.now = START + 11
    await manager.press(board_press(session.id, "pick"), answer)  # Choose: a selection of the pad's own
    assert shown == [Selection(session, session.view(), 0, "ch")] and session.game.version == 0
    assert session.deadline == START + 301


def timed_press(game_id: int, action: str, created: float, *, version: int = 0):
    """A press of ``action`` on the board at ``version`` that Discord made at ``created``."""
    from bot.play.clicks import BoardClick
    from bot.play.session import BoardPress

    press = board_press(game_id, action)
    return BoardPress(BoardClick(game_id, version, None, action), press.origin, created)


async def test_presses_in_flight_together_give_back_no_more_than_the_bots_busy_time(manager, clock):
    session = await start(manager)
    await manager.set_board(session, channel_id=5, message_id=9, token=None)
    sent = asyncio.Event()
    waiting = []

    async def answer(pressed) -> float:
        waiting.append(pressed)
        await sent.wait()  # every answer goes out together, 3 s after the first press
        return START + 13

    clock.now = START + 10.5  # the bot reads the five presses once all are made
    before, used_before = session.deadline, session.seconds_at(START + 10)
    actions = ["pick", "pick", "pick", "pick", "draw"]  # four selections (Choose), then a move
    presses = [manager.press(timed_press(session.id, a, START + 10 + i / 10), answer) for i, a in enumerate(actions)]
    tasks = [asyncio.ensure_future(press) for press in presses]
    while len(waiting) < len(actions):
        await asyncio.sleep(0)
    clock.now = START + 13
    sent.set()
    await asyncio.gather(*tasks)
    assert session.game.version == 1  # the draw played; the selections played nothing
    given_back = session.deadline - before
    # Never more than the 3 s the bot was busy. The draw's save credited 10.4 to 10.5 first, and credits only
    # count from the end of the last one, so the selections share 10.5 to 13 (10.0 to 10.4 is not given back).
    assert 2.5 <= given_back <= 3.0 + 1e-6
    assert session.seconds_at(START + 13) >= used_before  # the clock never runs backwards


async def test_a_press_in_flight_across_a_restart_is_not_credited_twice(db, clock):
    first = SessionManager(db, now=clock)
    session = await start(first)
    await first.set_board(session, channel_id=5, message_id=9, token=None)
    clock.now = START + 11  # the draw pressed at 10 is saved at 11: 1 s credited with the save

    async def lost(pressed) -> float:
        await first.close()  # the bot restarts before this answer goes out
        return START + 11

    await first.press(timed_press(session.id, "draw", START + 10), lost)
    assert (await games_db.get_game(db, session.id)).deadline == START + 301
    fresh = SessionManager(db, now=clock)
    await fresh.resume_all()
    clock.now = START + 12

    async def answer(pressed) -> float:
        return START + 12

    try:  # a selection pressed at 10.5, while the draw was in flight, answered at 12 by the new process
        await fresh.press(timed_press(session.id, "pick", START + 10.5, version=1), answer)
        assert fresh.require_playable(session.id, 7).deadline - START == pytest.approx(302)  # 10 to 12, once
    finally:
        await fresh.close()


@pytest.mark.parametrize(
    ("where", "refusal"),
    [
        ({"user": 8}, errors.NotYourGameError),
        ({"guild": 2}, errors.ForeignClickError),
        ({"carries": False}, errors.ForeignClickError),
        ({"message": 10}, errors.StaleBoardError),
        ({"game": 99}, errors.UnknownGameError),
    ],
)
async def test_a_press_from_elsewhere_is_refused_before_anything_is_shown(manager, where, refusal):
    session = await start(manager)
    await manager.set_board(session, channel_id=5, message_id=9, token=None)

    async def answer(pressed) -> float:
        raise AssertionError("nothing is shown for a refused press")

    where = dict(where)  # the parameters are shared by both backends
    game = where.pop("game", session.id)
    with pytest.raises(refusal):
        await manager.press(board_press(game, "draw", **where), answer)
    assert session.game.version == 0 and session.deadline == START + 300


async def test_a_press_on_a_game_only_the_database_runs_loads_it(db, clock):
    first = SessionManager(db, now=clock)
    session = await start(first)
    await first.set_board(session, channel_id=5, message_id=9, token=None)
    await first.close()
    fresh = SessionManager(db, now=clock)
    versions = []

    async def answer(pressed) -> float:
        versions.append(pressed.outcome.version)
        return clock.now

    try:
        await fresh.press(board_press(session.id, "draw"), answer)
        assert versions == [1] and await stored(db, fresh.require_playable(session.id, 7)) == 1
    finally:
        await fresh.close()

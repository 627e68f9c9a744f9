"""Running games: one :class:`~bot.play.session.Session` per game, the commands played on it, and its clock.

:class:`SessionManager` is the face the surfaces call (the cogs, the Activity, the competitions): it looks games up
(:class:`~bot.play.running.RunningGames`), turns a press or a command into engine pushes (``Game.push``) under the
game's lock, and keeps each game's clock and its credits. Every read and write of a game's row, and the protocol
that keeps memory and database in agreement (the guarded save, a doubtful save reconciled, a refused one restored,
the result written once and announced), is :class:`~bot.play.saving.GameSaves`'s, which it owns: a command's
pushes are handed to it once, as the commands they played (:meth:`~bot.play.saving.GameSaves.save`).
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import replace

from bot import errors
from bot.play.after_game import check_hints_allowed
from bot.play.clicks import Owner, resolve_click
from bot.play.credits import BusyTime
from bot.play.deal_bank import Deal
from bot.play.move_words import describe_move
from bot.play.pads import AllUp, Click, Play, Select
from bot.play.running import RunningGames
from bot.play.saving import GameSaves, LanguageOf
from bot.play.session import (
    Answer,
    BoardPress,
    Clock,
    FinishListener,
    FinishSource,
    MoveListener,
    Outcome,
    Played,
    Pressed,
    Selection,
    Session,
    Sleep,
)
from bot.rules.modes import GameMode, mode_of
from bot.storage import Database
from bot.storage.games import GameRecord, Link, Mode
from solitaire import Game, GameOverError, IllegalMoveError, Move, MoveKind, SolitaireError, Status, new_game
from solitaire.moves import HINT
from solitaire.speech import _
from solitaire.view import BoardView

log = logging.getLogger(__name__)

MAX_MOVES = 10_000
"""Commands one game may hold (far beyond a 5-minute game; bounds the log replayed at a restart)."""
START_LIMIT = 4
START_WINDOW = 30.0
"""A player may start at most ``START_LIMIT`` games (casual or daily) per ``START_WINDOW`` seconds."""
RETRY_FIRST = 1.0
RETRY_MAX = 60.0
"""Backoff (seconds) between attempts to record a clock's expiry the database refused."""
SAVE_CREDIT = 0.25
"""Credits not yet stored are written at once from this many seconds (smaller ones ride with the next save).

A move's save carries the credit of its press so far; what comes after (the picture, the answer) is
usually less, so a restart loses at most this much of the player's credits."""


class SessionManager:
    """Starts, plays and times games, and hands every save to its :class:`GameSaves`; nothing here knows Discord."""

    def __init__(
        self, db: Database, *, now: Clock, sleep: Sleep = asyncio.sleep, language_of: LanguageOf | None = None
    ) -> None:
        """Keep games in ``db``; ``now`` and ``sleep`` give the time (seconds on the same scale).

        ``language_of``: a member's language, for the notices left to them (``None``: the language spoken then).
        """
        self.db = db
        self.now = now
        self.sleep = sleep
        self.games = RunningGames()
        self.saves = GameSaves(db, now=now, running=self.games, arm=self._arm, language_of=language_of)
        self._sessions = self.games.by_id
        """The running sessions by game id (the registry's own table)."""
        self._starting: dict[tuple[int, int], str] = {}
        """Members with an action under way in a server (:meth:`hold`): ``"start"`` or another action."""
        self._recent_starts: dict[int, deque[float]] = {}
        self._move_listeners: list[tuple[GameMode | None, MoveListener]] = []
        self._closed = False

    # -- lookups -------------------------------------------------------------------
    def add_finish_listener(self, listener: FinishListener, *, mode: GameMode | None = None) -> None:
        """Call ``listener(session, record, source)`` once a game's result is stored (of ``mode`` only, if given)."""
        self.saves.add_finish_listener(listener, mode=mode)

    def add_move_listener(self, listener: MoveListener, *, mode: GameMode | None = None) -> None:
        """Call ``listener(session)`` after each accepted command is saved (of ``mode`` only, if given; no blocking)."""
        self._move_listeners.append((mode, listener))

    def get(self, game_id: int) -> Session | None:
        """The running session of game ``game_id``, or ``None``."""
        return self.games.get(game_id)

    async def stored(self, game_id: int) -> GameRecord | None:
        """Game ``game_id`` as the database holds it (running or finished), or ``None``."""
        return await self.saves.stored(game_id)

    def active_for(self, guild_id: int, user_id: int) -> Session | None:
        """The player's running session in this guild (0 for DMs), or ``None``."""
        return self.games.of_player(guild_id, user_id)

    def require_active(self, guild_id: int, user_id: int) -> Session:
        """Like :meth:`active_for`; :raises NoActiveGameError: when there is none."""
        session = self.active_for(guild_id, user_id)
        if session is None:
            raise errors.NoActiveGameError()
        return session

    def require_playable(self, game_id: int, user_id: int, version: int | None = None) -> Session:
        """Return a running game this user may play, at ``version`` when given.

        :raises UnknownGameError: the game is not running.
        :raises NotYourGameError: it belongs to someone else.
        :raises StaleBoardError: the game has moved on since ``version``.
        """
        session = self.games.get(game_id)
        if session is None:
            raise errors.UnknownGameError()
        return _playable_by(session, user_id, version)

    async def playable(self, game_id: int, user_id: int) -> Session:
        """The running game a button names, loaded if only the database has it (this process dropped its copy).

        :raises UnknownGameError: no such game.
        :raises NotYourGameError: it belongs to someone else.
        :raises GameEndedError: it is over (or could not be rebuilt: closed as broken).
        """
        session = self.games.get(game_id)
        if session is None:
            record = await self.saves.stored(game_id)
            if record is None:
                raise errors.UnknownGameError()
            if record.user_id != user_id:
                raise errors.NotYourGameError(record.user_id)
            if not record.is_playing:
                raise errors.GameEndedError(record.status)
            session = await self.load(record)
            if session is None:
                raise errors.GameEndedError("broken")
        return _playable_by(session, user_id)

    @property
    def running(self) -> list[Session]:
        """Every running session."""
        return self.games.all()

    # -- starting ------------------------------------------------------------------
    @asynccontextmanager
    async def reserve_start(self, guild_id: int, user_id: int) -> AsyncIterator[None]:
        """Hold the player's one start in this guild while its deal is found (before any solving).

        :raises StartingError: another start of this player is still being dealt.
        :raises MemberBusyError: another action of this member here (a race join) is under way.
        :raises TooManyStartsError: the player started :data:`START_LIMIT` games in the last
            :data:`START_WINDOW` seconds (in any guild).
        """
        self._refuse_if_held(guild_id, user_id)  # before counting the start
        now = self.now()
        recent = self._recent_starts.setdefault(user_id, deque())
        while recent and recent[0] <= now - START_WINDOW:
            recent.popleft()
        if len(recent) >= START_LIMIT:
            raise errors.TooManyStartsError(max(int(recent[0] + START_WINDOW - now) + 1, 1))
        recent.append(now)
        async with self.hold(guild_id, user_id, "start"):
            try:
                yield
            finally:
                self._forget_old_starts(now)

    @asynccontextmanager
    async def hold(self, guild_id: int, user_id: int, what: str = "other") -> AsyncIterator[None]:
        """Let one action of a member in a server run at a time (a start, a race join): no two interleave.

        A game start and a lobby join each check the other's row before writing their own; holding the
        member while one runs keeps both checks true (the database's guards cover other processes).

        :raises MemberBusyError: another action of this member here is under way (a start: StartingError).
        """
        self._refuse_if_held(guild_id, user_id)
        key = (guild_id, user_id)
        self._starting[key] = what
        try:
            yield
        finally:
            del self._starting[key]

    def _refuse_if_held(self, guild_id: int, user_id: int) -> None:
        held = self._starting.get((guild_id, user_id))
        if held is not None:
            raise errors.StartingError() if held == "start" else errors.MemberBusyError()

    def _forget_old_starts(self, now: float) -> None:
        if len(self._recent_starts) > 1000:
            for user_id in [
                u for u, times in self._recent_starts.items() if not times or times[-1] <= now - START_WINDOW
            ]:
                del self._recent_starts[user_id]

    async def start(
        self,
        *,
        guild_id: int,
        channel_id: int,
        user_id: int,
        variant: str,
        deal: Deal,
        mode: Mode = "casual",
        deal_number: int | None = None,
        daily_date: str | None = None,
        started_at: float | None = None,
        practice: bool = False,
        link: Link | None = None,
    ) -> Session:
        """Deal a new game, store it and start its clock (at ``started_at`` if given, e.g. a race's start).

        ``practice``: the deal was chosen by its public number or seed, so the game never ranks.
        ``link`` ties the game to its competition in the insert's transaction (a challenge attempt).

        :raises ActiveGameError: the player already has a game running in this guild.
        :raises AlreadyPlayedError: a daily game this player already played.
        :raises InLobbyError: a casual game or daily of a member sitting in an open race lobby here.
        :raises LinkRefusedError: ``link`` refused the game (nothing was stored).
        """
        existing = self.active_for(guild_id, user_id)
        if existing is not None:
            raise errors.ActiveGameError(existing.id)
        if deal.variant != variant:
            raise ValueError(f"a {deal.variant} deal cannot start a {variant} game")
        game = new_game(variant, deck=tuple(deal.deck))
        return await self.saves.start(
            game,
            guild_id=guild_id,
            channel_id=channel_id,
            user_id=user_id,
            variant=variant,
            mode=mode,
            deal_number=deal_number,
            daily_date=daily_date,
            started_at=started_at,
            practice=practice,
            deal_seed=str(deal.seed),
            link=link,
        )

    def set_four_colour(self, user_id: int, four_colour: bool) -> list[Session]:
        """Apply a player's new four-colour choice to their running games; return those games."""
        mine = [session for session in self.games.all() if session.owner_id == user_id]
        for session in mine:
            session.four_colour = four_colour
        return mine

    async def set_board(self, session: Session, *, channel_id: int, message_id: int | None, token: str | None) -> None:
        """Remember the message showing this game and the token that can edit it (a failed write is logged)."""
        await self.saves.set_board(session, channel_id=channel_id, message_id=message_id, token=token)

    # -- playing -------------------------------------------------------------------
    async def play(
        self,
        session: Session,
        move: Move | str,
        *,
        version: int | None = None,
        at: float | None = None,
        source: FinishSource = "command",
    ) -> Outcome:
        """Apply one command (a :class:`Move` or notation) and save it before returning.

        ``at``: when the press was made (:meth:`press_time`); the clock reads then, not now.
        ``source``: what a finish is announced as (``"page"``: the Activity's).

        :raises StaleBoardError: ``version`` is not the game's version any more.
        :raises SolitaireError: the engine refused the move (the game is unchanged).
        :raises TimeUpError: the deadline had passed: the game expired instead.
        """

        def apply() -> tuple[str, ...]:
            parsed = session.game.parse_move(move) if isinstance(move, str) else move
            if parsed.kind is MoveKind.HINT:
                # Translators: "hint:" is the command as typed (move notation): keep it as it is.
                raise IllegalMoveError(_("hint: ask with the Hint button (casual games), which says the move"))
            self._push(session, parsed, at)
            return (str(parsed),)

        return await self._command(session, version, apply, at, source)

    async def press(self, press: BoardPress, answer: Answer) -> None:
        """Answer a board button's press: check it, select or play as of its press, show it, credit the clock.

        The refusals come in this order: the game (unknown, another member's, over), the message (another
        server's, not carrying the button, not the game's board), then :meth:`act`'s (start, version, engine).
        ``answer`` shows the result; the bot's work from the press until that answer went out is given back.
        """
        click, origin = press.click, press.origin
        session = await self.playable(click.game_id, origin.user_id)
        record = session.record
        click.check(origin, Owner(record.user_id, record.guild_id, record.message_id))
        pressed = self.press_time(session, press.created)

        def meaning(view: BoardView) -> Click:
            return resolve_click(view, click.selected, click.action)

        result = await self.act(session, origin.user_id, click.version, meaning, at=pressed)
        await self.credit(session, pressed, await answer(result))

    async def act(
        self,
        session: Session,
        user_id: int,
        version: int,
        meaning: Callable[[BoardView], Click] | str,
        *,
        at: float | None = None,
        source: FinishSource = "command",
        words: bool = False,
    ) -> Pressed:
        """One request on a board (a button's press, a page's tap or drop): checked, meant, selected or played.

        ``meaning`` says what it means on the board as it stands (the family's pad), or is a move in notation
        (a drop). A drop sent again (the last move played, at the version it was asked at: a reconnect's
        resend) is answered with the board as it stands, never played twice. ``words``: say what the move did.

        :raises NotStartedGameError: before the game's start. :raises StaleBoardError: the board moved on.
        :raises SolitaireError: the engine's refusal.
        """
        self.require_started(session)
        if isinstance(meaning, str) and self._resent(session, version, meaning):
            view = session.view()
            return Played(session, Outcome((), view, session.game.version, None))
        self.require_playable(session.id, user_id, version)
        click: Play | AllUp
        if isinstance(meaning, str):  # a move in notation: no view needed to know it
            click = Play(session.game.parse_move(meaning))
        else:
            view = session.view()
            meant = meaning(view)
            if isinstance(meant, Select):
                return Selection(session, view, version, meant.source)
            click = meant
        if isinstance(click, AllUp):
            # Translators: what a press did, shown on the Activity's page: every card that could go up went up.
            said = _("every card that could go up") if words else None
            outcome = await self.play_all_to_foundations(session, version=version, at=at, source=source)
            return Played(session, outcome, said)
        said = self._said(session, click.move) if words else None
        outcome = await self.play(session, click.move, version=version, at=at, source=source)
        session.last_played = (version, str(click.move))
        return Played(session, outcome, said)

    @staticmethod
    def _said(session: Session, move: Move) -> str | None:
        """What ``move`` will do, in words (``None`` for a move the engine will refuse in its own words)."""
        try:
            return describe_move(session.game, move)
        except SolitaireError:
            return None

    @staticmethod
    def _resent(session: Session, version: int, text: str) -> bool:
        """Whether the move ``text`` asked at ``version`` is the game's last move, sent again."""
        if version >= session.game.version or session.last_played is None:
            return False
        try:
            return session.last_played == (version, str(session.game.parse_move(text)))
        except SolitaireError:
            return False

    def started(self, session: Session) -> bool:
        """Whether the game's board may be shown: its clock has started (a race's deal is secret until then)."""
        return session.record.started_at <= self.now()

    def require_started(self, session: Session) -> Session:
        """``session`` if it has started; :raises NotStartedGameError: before its start."""
        if not self.started(session):
            raise errors.NotStartedGameError()
        return session

    async def play_all_to_foundations(
        self,
        session: Session,
        *,
        version: int | None = None,
        at: float | None = None,
        source: FinishSource = "command",
    ) -> Outcome:
        """Play every card that can go to a foundation now, repeatedly, as engine moves.

        :raises IllegalMoveError: when no card can go up.
        """

        def apply() -> tuple[str, ...]:
            played: list[str] = []
            while not session.game.is_over and (move := _next_foundation_move(session.game)) is not None:
                self._push(session, move, at)
                played.append(str(move))
            if not played:
                # Translators: "f:" is the move's notation (to the foundations): keep it as it is.
                raise IllegalMoveError(_("f: no card can go to a foundation now"))
            return tuple(played)

        return await self._command(session, version, apply, at, source)

    async def take_hint(self, session: Session, *, version: int | None = None) -> Outcome:
        """Charge a hint through the engine (a ``Hints`` line on the score sheet; the result is stored as hinted).

        :raises HintsNotAllowedError: in a daily or a race.
        :raises StaleBoardError: ``version`` is not the game's version any more.
        """
        check_hints_allowed(session.record)

        def apply() -> tuple[str, ...]:
            self._push(session, HINT)
            return (str(HINT),)

        return await self._command(session, version, apply)

    async def expire(self, session: Session, *, source: FinishSource = "clock") -> GameRecord | None:
        """End the game as expired if it is still running; return the final row (``None`` if it had ended).

        :raises NotSavedError: the database refused the result; the game runs on as saved.
        """
        return await self.saves.expire(session, source=source)

    async def _command(
        self,
        session: Session,
        version: int | None,
        pushes: Callable[[], tuple[str, ...]],
        at: float | None = None,
        source: FinishSource = "command",
    ) -> Outcome:
        """Run ``pushes`` (engine pushes) under the lock, have the saves store them in one call, then announce.

        A save in doubt is first checked by the saves (only then: no call otherwise); a refusal after some pushes
        (e.g. the move limit) has them rebuild the game as saved; a clock found run out has them write the end.
        ``at``: the press's time; the bot's work on it so far is credited with this save.
        """
        ended: GameRecord | None = None
        expired: GameRecord | None = None
        async with session.lock:
            if session.unsure is not None:
                ended = await self.saves.reconcile(session)
            if ended is None:
                self._check_open(session, version)
                saved = session.game.version
                try:
                    moves = pushes()
                except _ExpiredError:
                    expired = await self.saves.finish_expired(session, saved)
                except BaseException:
                    self.saves.restore(session, saved)  # a refusal after some moves keeps none
                    raise
                else:
                    if at is not None:
                        self._give(session, at, self.now())
                    outcome = await self.saves.save(session, moves, saved)
        if ended is not None:
            await self.saves.announce(session, ended, "clock")
            raise errors.GameEndedError(ended.status)
        if expired is not None:
            await self.saves.announce(session, expired, "clock")
            raise errors.TimeUpError()
        mode = mode_of(session.record.mode)
        for wanted, listener in self._move_listeners:
            if wanted is None or wanted is mode:
                listener(session)
        if outcome.finished is not None:
            await self.saves.announce(session, outcome.finished, source)
        return outcome

    def _check_open(self, session: Session, version: int | None) -> None:
        if session.id not in self._sessions or session.game.is_over:
            raise errors.GameEndedError(session.game.status.value)
        if version is not None and version != session.game.version:
            raise errors.StaleBoardError()

    def _push(self, session: Session, move: Move, at: float | None = None) -> None:
        if session.game.version >= MAX_MOVES:
            raise errors.TooManyMovesError(MAX_MOVES)
        try:
            session.game.push(move, seconds=session.seconds_at(self.now() if at is None else at))
        except GameOverError:
            if session.game.status is Status.EXPIRED:
                raise _ExpiredError() from None
            raise

    # -- clock credits ---------------------------------------------------------------
    def press_time(self, session: Session, created: float) -> float | None:
        """When a press counts on the clock: Discord's ``created`` time, clamped between the last answer and now.

        ``None`` where the bot's work is not credited (races share one start and one end): the press counts now.
        """
        if not credits_clock(session.record):
            return None
        return min(max(created, session.answered), self.now())

    async def credit(self, session: Session, pressed: float | None, answered: float) -> None:
        """Give the bot's work on a press back to the player's clock: ``pressed`` to ``answered``, at most 3 s.

        Time already credited to another press in flight is not given again (:class:`BusyTime`). The
        deadline moves out by as much (its clock task sleeps on). A move's save already carried the
        credit up to the save; what is not stored yet is written at once from :data:`SAVE_CREDIT`,
        else with the game's next save (the end of the last credit goes with it, for after a restart).
        """
        if pressed is None or session.id not in self._sessions:
            return
        session.answered = max(session.answered, answered)
        self._give(session, pressed, answered)
        if session.record.deadline - session.stored_deadline >= SAVE_CREDIT:
            await self.saves.save_deadline(session)

    @staticmethod
    def _give(session: Session, pressed: float, until: float) -> None:
        """Move the deadline out by the bot's work on the press made at ``pressed`` up to ``until`` not credited yet."""
        due, busy = BusyTime(session.record.credited_until).credit(pressed, until)
        if due > 0:
            deadline = session.record.deadline + due
            session.record = replace(session.record, deadline=deadline, credited_until=busy.until)

    # -- clocks --------------------------------------------------------------------
    def _arm(self, session: Session) -> None:
        session.timer = asyncio.get_running_loop().create_task(self._run_clock(session), name=f"clock-{session.id}")

    async def _run_clock(self, session: Session) -> None:
        while session.id in self.games:
            remaining = session.deadline - self.now()
            if remaining <= 0:
                break
            await self.sleep(remaining)
        delay = RETRY_FIRST  # dropping a session never cancels the task it runs in, so this one may finish the game
        failures = 0
        while session.id in self.games and not self._closed:
            try:
                await self.expire(session, source="clock")
            except errors.NotSavedError:
                failures += 1
                log.warning(
                    "game %s: expiry not recorded (attempt %d); retrying in %.0f s", session.id, failures, delay
                )
                await self.sleep(delay)
                delay = min(delay * 2, RETRY_MAX)
            else:
                if failures:
                    log.warning("game %s: expiry recorded after %d failed attempts", session.id, failures)
                return

    # -- restarts ------------------------------------------------------------------
    async def resume_all(
        self, *, owns: Callable[[int], bool] = lambda guild_id: True
    ) -> tuple[list[Session], list[GameRecord]]:
        """Reload the running games of the servers ``owns`` accepts: re-arm the clocks, finish those out of time.

        A row that cannot be rebuilt is closed as ``broken`` (logged once, the player told at
        their next command). A result the database refuses now is left to the game's clock,
        which retries it. Returns the sessions resumed and the rows of the games finished now.
        """
        return await self.saves.resume_all(owns)

    async def load(self, record: GameRecord) -> Session | None:
        """The running game of ``record`` (a ``playing`` row), loaded from the database if it is not running here.

        ``None``: its stored state could not be rebuilt (it is closed as broken).
        """
        return await self.saves.load(record)

    # -- notices -------------------------------------------------------------------
    def has_notices(self, guild_id: int, user_id: int) -> bool:
        """Whether a notice waits for this player (no query: the set is kept in memory)."""
        return self.saves.has_notices(guild_id, user_id)

    async def add_notice(self, record: GameRecord, text: str) -> None:
        """Queue ``text`` about game ``record`` for its player's next command (failures are logged)."""
        await self.saves.add_notice(record, text)

    async def pending_notices(self, guild_id: int, user_id: int) -> list[tuple[int, str]]:
        """The player's waiting notices as ``(id, text)``; call :meth:`drop_notices` once they were shown."""
        return await self.saves.pending_notices(guild_id, user_id)

    async def drop_notices(self, guild_id: int, user_id: int, notice_ids: list[int]) -> None:
        """Forget notices the player was shown."""
        await self.saves.drop_notices(guild_id, user_id, notice_ids)

    async def close(self) -> None:
        """Stop every clock (games stay stored as running, to resume at the next start)."""
        self._closed = True
        timers = [s.timer for s in self.games.all() if s.timer is not None]
        for timer in timers:
            timer.cancel()
        await asyncio.gather(*timers, return_exceptions=True)

    def _forget(self, session: Session) -> None:
        """Drop ``session`` from this process (as a stale copy is dropped) and stop its clock."""
        self.games.drop(session)


def credits_clock(record: GameRecord) -> bool:
    """Whether the bot's work on a press is given back to this game's clock (not in races: one start, one end)."""
    return mode_of(record.mode).credits_clock


def _playable_by(session: Session, user_id: int, version: int | None = None) -> Session:
    """``session``, if ``user_id`` may play it at ``version`` (when given): :meth:`SessionManager.require_playable`."""
    if session.owner_id != user_id:
        raise errors.NotYourGameError(session.owner_id)
    if version is not None and version != session.game.version:
        raise errors.StaleBoardError()
    return session


class _ExpiredError(Exception):
    """Raised by a command's engine push that found the clock run out (the game is expired, not saved yet)."""


def _next_foundation_move(game: Game) -> Move | None:
    """The first legal move of a waste or tableau card onto a foundation, if any."""
    for move in game.legal_moves():
        if move.kind is MoveKind.PLAY and move.target == "f" and not move.source.startswith("f"):
            return move
    return None

"""Running games: one :class:`~bot.play.session.Session` per game, its lock, its clock task, and its row in ``games``.

Every change goes through the engine (``Game.push`` / ``Game.expire``) under the
session's lock, and is saved before the caller replies. If the save fails, the game
in memory is rebuilt as it was saved (so memory and database always agree) and the
player is told privately that nothing changed (:class:`bot.errors.NotSavedError`).
A finished game is written once (:func:`bot.storage.games.finish_game`) and then
announced to the listeners (the client turns that into the ``solitaire_game_finished``
event); a clock's expiry that cannot be written is retried with backoff until it lands.

A save whose outcome is unknown (the connection died during the commit:
:class:`bot.storage.OutcomeUnknownError`) is checked against the stored version before the
player is answered: kept if it landed, undone if not; if even that read fails, the game goes
back to its last known save and is checked again before its next command. Every write is
conditional on the version this process last saved: a process whose copy is stale (another
process saved the game since) writes nothing, drops its copy and announces nothing.
"""

from __future__ import annotations

import asyncio
import json
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
from bot.play.session import (
    Answer,
    Attempt,
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
from bot.storage import ConstraintError, Database, OutcomeUnknownError, StorageError, players
from bot.storage import games as games_db
from bot.storage.games import PLAYING, GameRecord, Mode
from solitaire import (
    Game,
    GameOverError,
    IllegalMoveError,
    Move,
    MoveKind,
    SolitaireError,
    Status,
    game_from_json,
    game_to_json,
    new_game,
)
from solitaire.moves import HINT
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
RECHECK_SECONDS = 0.5
"""At most this long to read back a save whose outcome is unknown (the answer stays inside Discord's 3 s)."""
BROKEN_NOTICE = (
    "Your game #{id} ({variant}) could not be reloaded after a restart, so I closed it "
    "(no result, no score). Sorry! Start a new one with `/solitaire start`."
)


class SessionManager:
    """Starts, plays, times, saves and finishes games; nothing here knows Discord."""

    def __init__(self, db: Database, *, now: Clock, sleep: Sleep = asyncio.sleep) -> None:
        """Keep games in ``db``; ``now`` and ``sleep`` give the time (seconds on the same scale)."""
        self.db = db
        self.now = now
        self.sleep = sleep
        self._sessions: dict[int, Session] = {}
        self._players: dict[tuple[int, int], int] = {}
        self._listeners: list[tuple[GameMode | None, FinishListener]] = []
        self._starting: dict[tuple[int, int], str] = {}
        """Members with an action under way in a server (:meth:`hold`): ``"start"`` or another action."""
        self._recent_starts: dict[int, deque[float]] = {}
        self._noticed: set[tuple[int, int]] = set()
        """Players with a notice waiting (loaded by :meth:`resume_all`, kept as notices come and go)."""
        self._move_listeners: list[tuple[GameMode | None, MoveListener]] = []
        self._closed = False

    # -- lookups -------------------------------------------------------------------
    def add_finish_listener(self, listener: FinishListener, *, mode: GameMode | None = None) -> None:
        """Call ``listener(session, record, source)`` once a game's result is stored (of ``mode`` only, if given)."""
        self._listeners.append((mode, listener))

    def add_move_listener(self, listener: MoveListener, *, mode: GameMode | None = None) -> None:
        """Call ``listener(session)`` after each accepted command is saved (of ``mode`` only, if given; no blocking)."""
        self._move_listeners.append((mode, listener))

    def get(self, game_id: int) -> Session | None:
        """The running session of game ``game_id``, or ``None``."""
        return self._sessions.get(game_id)

    async def stored(self, game_id: int) -> GameRecord | None:
        """Game ``game_id`` as the database holds it (running or finished), or ``None``."""
        return await games_db.get_game(self.db, game_id)

    def active_for(self, guild_id: int, user_id: int) -> Session | None:
        """The player's running session in this guild (0 for DMs), or ``None``."""
        game_id = self._players.get((guild_id, user_id))
        return self._sessions.get(game_id) if game_id is not None else None

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
        session = self._sessions.get(game_id)
        if session is None:
            raise errors.UnknownGameError()
        if session.owner_id != user_id:
            raise errors.NotYourGameError(session.owner_id)
        if version is not None and version != session.game.version:
            raise errors.StaleBoardError()
        return session

    async def playable(self, game_id: int, user_id: int) -> Session:
        """The running game a button names, loaded if only the database has it (this process dropped its copy).

        :raises UnknownGameError: no such game.
        :raises NotYourGameError: it belongs to someone else.
        :raises GameEndedError: it is over (or could not be rebuilt: closed as broken).
        """
        if self.get(game_id) is None:
            record = await games_db.get_game(self.db, game_id)
            if record is None:
                raise errors.UnknownGameError()
            if record.user_id != user_id:
                raise errors.NotYourGameError(record.user_id)
            if not record.is_playing:
                raise errors.GameEndedError(record.status)
            if await self.load(record) is None:
                raise errors.GameEndedError("broken")
        return self.require_playable(game_id, user_id)

    @property
    def running(self) -> list[Session]:
        """Every running session."""
        return list(self._sessions.values())

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
        link: games_db.Link | None = None,
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
        preferences = await players.player_settings(self.db, user_id)
        started = self.now() if started_at is None else started_at
        row = games_db.NewGame(
            guild_id=guild_id,
            channel_id=channel_id,
            user_id=user_id,
            variant=variant,
            mode=mode,
            deal_number=deal_number,
            daily_date=daily_date,
            state=_state(game),
            started_at=started,
            deadline=started + game.rules.time_limit,
            practice=practice,
            deal_seed=str(deal.seed),
        )
        try:
            record = await self._insert(row, link)
        except games_db.DuplicateGameError as error:
            if error.kind == "daily":
                raise errors.AlreadyPlayedError(variant, daily_date or "today") from None
            active_id = await self._adopt_active(guild_id, user_id)
            if active_id is not None:
                raise errors.ActiveGameError(active_id) from None
            record = await self._insert(row, link)  # the row in the way was damaged and is now closed
        session = self._register(record, game, four_colour=preferences.four_colour)
        self._arm(session)
        return session

    def set_four_colour(self, user_id: int, four_colour: bool) -> list[Session]:
        """Apply a player's new four-colour choice to their running games; return those games."""
        mine = [session for session in self._sessions.values() if session.owner_id == user_id]
        for session in mine:
            session.four_colour = four_colour
        return mine

    async def _insert(self, row: games_db.NewGame, link: games_db.Link | None) -> GameRecord:
        try:
            return await games_db.insert_game(self.db, row, link=link)
        except games_db.InLobbyError:
            raise errors.InLobbyError() from None
        except ConstraintError:
            raise
        except StorageError as error:
            log.warning("could not store a new game for user %s: %s", row.user_id, error)
            raise _refusal(error, "Your new game") from None

    async def _adopt_active(self, guild_id: int, user_id: int) -> int | None:
        """The player's running game row, loaded into a session if only the database had it.

        Returns its id, 0 if it just ended, or ``None`` if it could not be rebuilt and was closed as broken.
        """
        active = await games_db.active_game(self.db, guild_id, user_id)
        if active is None:
            return 0
        if active.id not in self._sessions and await self._reload(active) is None:
            return None
        return active.id

    async def set_board(self, session: Session, *, channel_id: int, message_id: int | None, token: str | None) -> None:
        """Remember the message showing this game (and the interaction token that can edit it).

        The board is already shown, so a failed write is logged and the session keeps the new
        message (after a restart, the player resumes the game from the offer instead).
        """
        session.record = replace(session.record, channel_id=channel_id, message_id=message_id, webhook_token=token)
        try:
            await games_db.set_board(self.db, session.id, channel_id=channel_id, message_id=message_id, token=token)
        except StorageError as error:
            log.warning("could not store the board message of game %s: %s", session.id, error)

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
                raise IllegalMoveError("hint: ask with the Hint button (casual games), which says the move")
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
        view = session.view()
        click = Play(session.game.parse_move(meaning)) if isinstance(meaning, str) else meaning(view)
        if isinstance(click, Select):
            return Selection(session, view, version, click.source)
        if isinstance(click, AllUp):
            said = "every card that could go up" if words else None
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
                raise IllegalMoveError("f: no card can go to a foundation now")
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
        async with session.lock:
            if session.id not in self._sessions:
                return None
            try:
                record = await self._reconcile(session)
                if record is None:
                    saved = session.game.version
                    session.game.expire()
                    record = await self._finish_or_restore(session, saved, "The end of your game")
            except _StaleCopyError:
                return None  # another process saved the game since: it finishes it, not this stale copy
            except StorageError as error:  # the database could not be read to check a doubtful save
                raise _refusal(error, "The end of your game") from None
        await self._announce(session, record, source)
        return record

    async def _command(
        self,
        session: Session,
        version: int | None,
        apply: Callable[[], tuple[str, ...]],
        at: float | None = None,
        source: FinishSource = "command",
    ) -> Outcome:
        """Run ``apply`` (engine pushes) under the lock, save, then announce a finish.

        ``at``: the press's time; the bot's work on it so far is credited with this save.
        """
        expired: GameRecord | None = None
        async with session.lock:
            ended = await self._reconcile_for_command(session)
            if ended is None:
                self._check_open(session, version)
                saved = session.game.version
                try:
                    moves = apply()
                except _ExpiredError:
                    try:
                        expired = await self._finish_or_restore(session, saved, "The end of your game")
                    except _StaleCopyError:
                        raise errors.TimeUpError() from None  # another process saved it since: it records the end
                except BaseException:
                    self._restore(session, saved)  # a refusal after some moves (e.g. the move limit) keeps none
                    raise
                else:
                    if at is not None:
                        self._give(session, at, self.now())
                    outcome = await self._settle_or_restore(session, moves, saved)
        if ended is not None:
            await self._announce(session, ended, "clock")
            raise errors.GameEndedError(ended.status)
        if expired is not None:
            await self._announce(session, expired, "clock")
            raise errors.TimeUpError()
        mode = mode_of(session.record.mode)
        for wanted, listener in self._move_listeners:
            if wanted is None or wanted is mode:
                listener(session)
        if outcome.finished is not None:
            await self._announce(session, outcome.finished, source)
        return outcome

    async def _settle_or_restore(self, session: Session, moves: tuple[str, ...], saved: int) -> Outcome:
        """:meth:`_settle`; if refused, rebuild the game at ``saved`` and refuse privately (caller holds the lock).

        A stale copy (another process saved the game since) is dropped and the stored game loaded in its place.
        """
        try:
            return await self._settle(session, moves, saved)
        except _StaleCopyError as stale:
            log.warning("game %s: another process saved it since; this copy is dropped, the stored one loaded", stale)
            if stale.stored is not None and stale.stored.is_playing:
                try:
                    await self._reload(stale.stored)
                except StorageError as error:  # loaded again at the player's next start instead
                    log.warning("game %s: could not load the stored game: %s", session.id, error)
            raise errors.ChangedElsewhereError() from None
        except StorageError as error:
            self._restore(session, saved)
            log.warning("game %s: move not saved (%s); the game is back at version %d", session.id, error, saved)
            raise _refusal(error, "Your move") from None

    async def _reconcile_for_command(self, session: Session) -> GameRecord | None:
        """:meth:`_reconcile` before a command: the final row if the game turned out finished by this process.

        :raises NotSavedError: the database cannot be read to check (the game waits, unchanged).
        :raises GameEndedError: the game turned out finished by another process.
        """
        try:
            return await self._reconcile(session)
        except _StaleCopyError as stale:
            raise errors.GameEndedError(stale.stored.status if stale.stored is not None else "gone") from None
        except StorageError as error:
            raise _refusal(error, "Your move") from None

    async def _reconcile(self, session: Session) -> GameRecord | None:
        """Make a game whose last write's outcome was unknown agree with the database (caller holds the lock).

        Still running: the game in memory becomes the stored one (the write landed or not). Finished
        by that write: forgotten, and its row returned (to announce). Finished by another process:
        forgotten (:class:`_StaleCopyError`). Nothing to do (and no query) when no write is in doubt.

        :raises StorageError: the database cannot be read (the doubt stays).
        """
        attempt = session.unsure
        if attempt is None:
            return None
        stored = await games_db.get_game(self.db, session.id)
        if stored is not None and stored.is_playing:
            if stored.version != session.game.version:
                session.game = game_from_json(json.loads(await games_db.game_state(self.db, stored)))
                log.warning("game %s: its unsure save checked: the game is at version %d", session.id, stored.version)
            session.record = stored
            session.unsure = None
            return None
        self._forget(session)
        session.unsure = None
        if not attempt.landed(stored):
            raise _StaleCopyError(session.id, stored)
        assert stored is not None
        session.record = stored
        return stored

    async def _recheck(self, session: Session, attempt: Attempt, error: OutcomeUnknownError) -> GameRecord | None:
        """The stored row after a write whose outcome is unknown, if that write landed; ``None`` if it did not.

        :raises StorageError: the row cannot be read back within :data:`RECHECK_SECONDS` (the attempt is
            remembered in ``session.unsure`` and checked before the game's next command).
        """
        try:
            async with asyncio.timeout(RECHECK_SECONDS):
                stored = await games_db.get_game(self.db, session.id)
        except (StorageError, TimeoutError) as failure:
            session.unsure = attempt
            log.warning("game %s: a save's outcome is unknown (%s), not checked: %s", session.id, error, failure)
            raise StorageError(f"game {session.id}: the save's outcome is unknown ({error})") from failure
        log.warning(
            "game %s: a save's outcome was unknown (%s): it %s",
            session.id,
            error,
            "landed" if attempt.landed(stored) else "did not land",
        )
        return stored if attempt.landed(stored) else None

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

    async def _settle(self, session: Session, moves: tuple[str, ...], saved: int) -> Outcome:
        """Save the commands played since version ``saved`` (or the result).

        :raises StorageError: the database refused the save (or it did not land).
        :raises _StaleCopyError: the stored game is not at ``saved``: another process saved it since.
        """
        game = session.game
        finished = None
        if game.is_over:
            finished = await self._finish(session)
        else:
            entries = tuple((move, int(seconds)) for move, seconds in game.log[saved:])
            deadline, credited_until = session.record.deadline, session.record.credited_until
            progress = games_db.Progress(
                moves=entries,
                first=saved,
                score=game.score,
                version=game.version,
                deadline=deadline,
                credited_until=credited_until,
            )
            try:
                stored = await games_db.save_progress(self.db, session.id, progress)
            except OutcomeUnknownError as error:
                if await self._recheck(session, Attempt(game.version, PLAYING), error) is None:
                    raise StorageError(f"game {session.id}: the save did not land ({error})") from error
                stored = True
            if not stored:
                self._forget(session)
                raise _StaleCopyError(session.id, await games_db.get_game(self.db, session.id))
            session.record = replace(session.record, score=game.score, version=game.version)
            session.stored_deadline = max(session.stored_deadline, deadline)
        return Outcome(moves=moves, view=session.view(), version=game.version, finished=finished)

    async def _finish_or_restore(self, session: Session, saved: int, what: str) -> GameRecord:
        """:meth:`_finish`; if the database refuses, rebuild the game at version ``saved`` and refuse privately."""
        try:
            return await self._finish(session)
        except StorageError as error:
            self._restore(session, saved)
            log.warning("game %s: result not saved (%s); the game is back at version %d", session.id, error, saved)
            raise _refusal(error, what) from None

    @staticmethod
    def _restore(session: Session, version: int) -> None:
        """Rebuild the session's game from its own log up to ``version`` (what the database holds)."""
        if session.game.version == version:
            return
        data = game_to_json(session.game)
        data["log"] = data["log"][:version]
        session.game = game_from_json(data)

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
            deadline = session.record.deadline
            try:
                await games_db.move_deadline(self.db, session.id, deadline, session.record.credited_until)
            except StorageError as error:
                log.warning("game %s: clock credit not stored yet (%s); it goes with the next save", session.id, error)
            else:
                session.stored_deadline = max(session.stored_deadline, deadline)

    @staticmethod
    def _give(session: Session, pressed: float, until: float) -> None:
        """Move the deadline out by the bot's work on the press made at ``pressed`` up to ``until`` not credited yet."""
        due, busy = BusyTime(session.record.credited_until).credit(pressed, until)
        if due > 0:
            deadline = session.record.deadline + due
            session.record = replace(session.record, deadline=deadline, credited_until=busy.until)

    # -- finishing -----------------------------------------------------------------
    async def _finish(self, session: Session) -> GameRecord:
        """Write the result once, forget the session and stop its clock (caller holds the lock).

        The write is guarded by the version this process last saved (``session.record.version``).

        :raises StorageError: the database refused the result (or it did not land).
        :raises _StaleCopyError: another process saved or finished the game since: this copy is
            forgotten, its result not written.
        """
        game = session.game
        result = games_db.Result(
            state=_state(game),
            status=game.status.value,
            score=game.score,
            seconds_used=game.seconds_used if game.seconds_used is not None else game.rules.time_limit,
            finished_at=self.now(),
            version=game.version,
            hinted=game.hinted,
        )
        attempt = Attempt(result.version, result.status)
        try:
            record = await games_db.finish_game(self.db, session.id, result, saved_version=session.record.version)
        except OutcomeUnknownError as error:
            record = await self._recheck(session, attempt, error)
            if record is None:
                raise StorageError(f"game {session.id}: the result did not land ({error})") from error
        if record is None:  # the guard refused: the stored game is not the one this process saved last
            stored = await games_db.get_game(self.db, session.id)
            if not attempt.landed(stored):
                self._forget(session)
                raise _StaleCopyError(session.id, stored)
            record = stored  # this very result, stored by an attempt whose answer was lost
        assert record is not None
        self._forget(session)
        session.record = record
        return record

    async def _announce(self, session: Session, record: GameRecord, source: FinishSource) -> None:
        mode = mode_of(record.mode)
        for wanted, listener in list(self._listeners):
            if wanted is not None and wanted is not mode:
                continue
            try:
                await listener(session, record, source)
            except Exception:
                log.exception("finish listener failed for game %s", record.id)

    # -- clocks --------------------------------------------------------------------
    def _arm(self, session: Session) -> None:
        session.timer = asyncio.get_running_loop().create_task(self._run_clock(session), name=f"clock-{session.id}")

    async def _run_clock(self, session: Session) -> None:
        while session.id in self._sessions:
            remaining = session.deadline - self.now()
            if remaining <= 0:
                break
            await self.sleep(remaining)
        delay = RETRY_FIRST  # _forget never cancels the task it runs in, so this one may finish the game
        failures = 0
        while session.id in self._sessions and not self._closed:
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
        resumed, finished = [], []
        self._noticed = await games_db.noticed_players(self.db)
        for record in await games_db.playing_games(self.db):
            if record.id in self._sessions or not owns(record.guild_id):  # another process runs its shard
                continue
            session = await self._reload(record)
            if session is None:
                continue
            if session.game.is_over or self.now() >= record.deadline:
                row = await self._finish_at_restart(session)
                if row is not None:
                    finished.append(row)
            else:
                resumed.append(session)
        return resumed, finished

    async def load(self, record: GameRecord) -> Session | None:
        """The running game of ``record`` (a ``playing`` row), loaded from the database if it is not running here.

        ``None``: its stored state could not be rebuilt (it is closed as broken).
        """
        return self._sessions.get(record.id) or await self._reload(record)

    async def _reload(self, record: GameRecord) -> Session | None:
        """Rebuild a stored running game into a session with its clock armed; ``None`` if it was closed as broken."""
        try:
            game = game_from_json(json.loads(await games_db.game_state(self.db, record)))
            if game.version != record.version:  # every later save would be refused: close it now
                raise ValueError(f"its log has {game.version} commands, its row says {record.version}")
        except StorageError:
            raise
        except Exception as error:  # any damage: bad JSON, a log the rules refuse now, ...
            await self._close_broken(record, error)
            return None
        preferences = await players.player_settings(self.db, record.user_id)
        session = self._register(record, game, four_colour=preferences.four_colour)
        self._arm(session)
        return session

    async def _close_broken(self, record: GameRecord, error: Exception) -> None:
        notice = BROKEN_NOTICE.format(id=record.id, variant=record.variant)
        if await games_db.close_broken(self.db, record, finished_at=self.now(), notice=notice):
            log.warning(
                "game %s could not be rebuilt (%s: %s): closed as broken", record.id, type(error).__name__, error
            )
            self._noticed.add((record.guild_id, record.user_id))

    async def _finish_at_restart(self, session: Session) -> GameRecord | None:
        """Record the result of a game that ended or ran out of time while the bot was down."""
        async with session.lock:
            if session.id not in self._sessions:
                return None
            saved = session.game.version
            if not session.game.is_over:
                session.game.expire()
            try:
                row = await self._finish(session)
            except _StaleCopyError:
                return None  # another process saved it since: it records the end
            except StorageError as error:
                self._restore(session, saved)  # the armed clock expires it again, with retries
                log.warning("game %s: result not recorded at restart (%s); its clock will retry", session.id, error)
                return None
        await self._announce(session, row, "restart")
        return row

    # -- notices -------------------------------------------------------------------
    def has_notices(self, guild_id: int, user_id: int) -> bool:
        """Whether a notice waits for this player (no query: the set is kept in memory)."""
        return (guild_id, user_id) in self._noticed

    async def add_notice(self, record: GameRecord, text: str) -> None:
        """Queue ``text`` about game ``record`` for its player's next command (failures are logged)."""
        try:
            await games_db.add_notice(self.db, record.guild_id, record.user_id, record.id, text, now=self.now())
        except StorageError as error:
            log.warning("could not queue a notice about game %s: %s", record.id, error)
            return
        self._noticed.add((record.guild_id, record.user_id))

    async def pending_notices(self, guild_id: int, user_id: int) -> list[tuple[int, str]]:
        """The player's waiting notices as ``(id, text)``; call :meth:`drop_notices` once they were shown."""
        if (guild_id, user_id) not in self._noticed:
            return []
        found = await games_db.pending_notices(self.db, guild_id, user_id)
        if not found:
            self._noticed.discard((guild_id, user_id))
        return found

    async def drop_notices(self, guild_id: int, user_id: int, notice_ids: list[int]) -> None:
        """Forget notices the player was shown."""
        await games_db.drop_notices(self.db, notice_ids)
        if not await games_db.pending_notices(self.db, guild_id, user_id):
            self._noticed.discard((guild_id, user_id))

    async def close(self) -> None:
        """Stop every clock (games stay stored as running, to resume at the next start)."""
        self._closed = True
        timers = [s.timer for s in self._sessions.values() if s.timer is not None]
        for timer in timers:
            timer.cancel()
        await asyncio.gather(*timers, return_exceptions=True)

    # -- bookkeeping ---------------------------------------------------------------
    def _register(self, record: GameRecord, game: Game, *, four_colour: bool = False) -> Session:
        session = Session(record, game, four_colour=four_colour)
        self._sessions[record.id] = session
        self._players[(record.guild_id, record.user_id)] = record.id
        return session

    def _forget(self, session: Session) -> None:
        self._sessions.pop(session.id, None)
        key = (session.record.guild_id, session.owner_id)
        if self._players.get(key) == session.id:
            del self._players[key]
        timer, session.timer = session.timer, None
        if timer is not None and timer is not asyncio.current_task():
            timer.cancel()


def credits_clock(record: GameRecord) -> bool:
    """Whether the bot's work on a press is given back to this game's clock (not in races: one start, one end)."""
    return mode_of(record.mode).credits_clock


def _refusal(error: StorageError, what: str) -> errors.NotSavedError:
    """The player's answer to a refused write: "busy" for a lock held too long, "not saved" otherwise."""
    text = str(error).lower()
    if "locked" in text or "busy" in text:
        return errors.BusyError(what)
    return errors.NotSavedError(what)


class _ExpiredError(Exception):
    """Raised inside the lock when a move found the clock run out (the game is expired)."""


class _StaleCopyError(Exception):
    """A guarded write found the stored game elsewhere than this process's copy: the copy was dropped."""

    def __init__(self, game_id: int, stored: GameRecord | None) -> None:
        where = f"at version {stored.version}, {stored.status}" if stored is not None else "gone"
        super().__init__(f"{game_id} (stored {where})")
        self.stored = stored


def _state(game: Game) -> str:
    return json.dumps(game_to_json(game), separators=(",", ":"))


def _next_foundation_move(game: Game) -> Move | None:
    """The first legal move of a waste or tableau card onto a foundation, if any."""
    for move in game.legal_moves():
        if move.kind is MoveKind.PLAY and move.target == "f" and not move.source.startswith("f"):
            return move
    return None

"""Running games: one :class:`Session` per game, its lock, its clock task, and its row in ``games``.

Every change goes through the engine (``Game.push`` / ``Game.expire``) under the
session's lock, and is saved before the caller replies. A finished game is written
once (:func:`bot.storage.games.finish_game`) and then announced to the listeners
(the client turns that into the ``solitaire_game_finished`` event).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Literal

from bot import errors
from bot.deal_bank import Deal
from bot.storage import Database, players
from bot.storage import games as store
from bot.storage.games import GameRecord, Mode
from solitaire import (
    Game,
    IllegalMoveError,
    Move,
    MoveKind,
    Status,
    game_from_json,
    game_to_json,
    new_game,
)
from solitaire import GameOverError as EngineGameOverError
from solitaire.view import BoardView, view_of

log = logging.getLogger(__name__)

Clock = Callable[[], float]
"""Returns the current time in unix seconds (injected so tests drive it)."""

Sleep = Callable[[float], Awaitable[None]]
"""Waits that many seconds of the clock's time (``asyncio.sleep`` unless a test speeds it up)."""

FinishSource = Literal["command", "clock", "restart"]
"""What ended a game: a player's command, the clock task, or the restart check."""


FinishListener = Callable[["Session", GameRecord, FinishSource], Awaitable[None]]
MoveListener = Callable[["Session"], None]
"""Told (synchronously, after the save) that a running game accepted a command."""


@dataclass(frozen=True)
class Outcome:
    """What an accepted command did, seen under the lock (safe to render afterwards)."""

    moves: tuple[str, ...]
    """The commands applied, in notation (several for "everything to the foundations")."""
    view: BoardView
    version: int
    finished: GameRecord | None
    """The final row when this command ended the game."""


class Session:
    """A running game: the engine object, its row, its lock, its clock task and the player's display choice."""

    def __init__(self, record: GameRecord, game: Game, *, four_colour: bool = False) -> None:
        self.record = record
        self.game = game
        self.four_colour = four_colour
        """Draw this game's boards with the four-colour deck (the player's setting, loaded once)."""
        self.lock = asyncio.Lock()
        self.timer: asyncio.Task[None] | None = None

    @property
    def id(self) -> int:
        """The game id (``games.id``)."""
        return self.record.id

    @property
    def owner_id(self) -> int:
        """The player's user id."""
        return self.record.user_id

    @property
    def deadline(self) -> float:
        """When the clock runs out (unix seconds)."""
        return self.record.deadline

    def view(self) -> BoardView:
        """The player's view of the game now."""
        return view_of(self.game)

    def seconds_at(self, now: float) -> float:
        """The clock reading at ``now``: seconds since the start."""
        return max(now - self.record.started_at, 0.0)

    def __repr__(self) -> str:
        return f"<Session {self.id} user={self.owner_id} {self.game!r} v{self.game.version}>"


class SessionManager:
    """Starts, plays, times, saves and finishes games; nothing here knows Discord."""

    def __init__(self, db: Database, *, now: Clock, sleep: Sleep = asyncio.sleep) -> None:
        """Keep games in ``db``; ``now`` and ``sleep`` give the time (seconds on the same scale)."""
        self.db = db
        self.now = now
        self.sleep = sleep
        self._sessions: dict[int, Session] = {}
        self._players: dict[tuple[int, int], int] = {}
        self._listeners: list[FinishListener] = []
        self._move_listeners: list[MoveListener] = []
        self._closed = False

    # -- lookups -------------------------------------------------------------------
    def add_finish_listener(self, listener: FinishListener) -> None:
        """Call ``listener(session, record, source)`` after each game's result is stored."""
        self._listeners.append(listener)

    def add_move_listener(self, listener: MoveListener) -> None:
        """Call ``listener(session)`` after each accepted command is saved (it must not block)."""
        self._move_listeners.append(listener)

    def get(self, game_id: int) -> Session | None:
        """The running session of game ``game_id``, or ``None``."""
        return self._sessions.get(game_id)

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

    @property
    def running(self) -> list[Session]:
        """Every running session."""
        return list(self._sessions.values())

    # -- starting ------------------------------------------------------------------
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
    ) -> Session:
        """Deal a new game, store it and start its clock (at ``started_at`` if given, e.g. a race's start).

        :raises ActiveGameError: the player already has a game running in this guild.
        :raises AlreadyPlayedError: a daily game this player already played.
        """
        existing = self.active_for(guild_id, user_id)
        if existing is not None:
            raise errors.ActiveGameError(existing.id)
        if deal.variant != variant:
            raise ValueError(f"a {deal.variant} deal cannot start a {variant} game")
        game = new_game(variant, deck=tuple(deal.deck))
        preferences = await players.player_settings(self.db, user_id)
        started = self.now() if started_at is None else started_at
        row = store.NewGame(
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
        )
        try:
            record = await store.insert_game(self.db, row)
        except store.DuplicateGameError as error:
            if error.kind == "daily":
                raise errors.AlreadyPlayedError(variant, daily_date or "today") from None
            active = await store.active_game(self.db, guild_id, user_id)
            raise errors.ActiveGameError(active.id if active else 0) from None
        session = self._register(record, game, four_colour=preferences.four_colour)
        self._arm(session)
        return session

    def set_four_colour(self, user_id: int, four_colour: bool) -> list[Session]:
        """Apply a player's new four-colour choice to their running games; return those games."""
        mine = [session for session in self._sessions.values() if session.owner_id == user_id]
        for session in mine:
            session.four_colour = four_colour
        return mine

    async def set_board(self, session: Session, *, channel_id: int, message_id: int | None, token: str | None) -> None:
        """Remember the message showing this game (and the interaction token that can edit it)."""
        await store.set_board(self.db, session.id, channel_id=channel_id, message_id=message_id, token=token)
        session.record = replace(session.record, channel_id=channel_id, message_id=message_id, webhook_token=token)

    # -- playing -------------------------------------------------------------------
    async def play(self, session: Session, move: Move | str, *, version: int | None = None) -> Outcome:
        """Apply one command (a :class:`Move` or notation) and save it before returning.

        :raises StaleBoardError: ``version`` is not the game's version any more.
        :raises SolitaireError: the engine refused the move (the game is unchanged).
        :raises TimeUpError: the deadline had passed: the game expired instead.
        """

        def apply() -> tuple[str, ...]:
            parsed = session.game.parse_move(move) if isinstance(move, str) else move
            self._push(session, parsed)
            return (str(parsed),)

        return await self._command(session, version, apply)

    async def play_all_to_foundations(self, session: Session, *, version: int | None = None) -> Outcome:
        """Play every card that can go to a foundation now, repeatedly, as engine moves.

        :raises IllegalMoveError: when no card can go up.
        """

        def apply() -> tuple[str, ...]:
            played: list[str] = []
            while not session.game.is_over and (move := _next_foundation_move(session.game)) is not None:
                self._push(session, move)
                played.append(str(move))
            if not played:
                raise IllegalMoveError("f: no card can go to a foundation now")
            return tuple(played)

        return await self._command(session, version, apply)

    async def expire(self, session: Session, *, source: FinishSource = "clock") -> GameRecord | None:
        """End the game as expired if it is still running; return the final row (``None`` if it had ended)."""
        async with session.lock:
            if session.id not in self._sessions:
                return None
            session.game.expire()
            record = await self._finish(session)
        await self._announce(session, record, source)
        return record

    async def _command(self, session: Session, version: int | None, apply: Callable[[], tuple[str, ...]]) -> Outcome:
        """Run ``apply`` (engine pushes) under the lock, save, then announce a finish."""
        expired: GameRecord | None = None
        async with session.lock:
            self._check_open(session, version)
            try:
                moves = apply()
            except _ExpiredError:
                expired = await self._finish(session)
            else:
                outcome = await self._settle(session, moves)
        if expired is not None:
            await self._announce(session, expired, "clock")
            raise errors.TimeUpError()
        for listener in self._move_listeners:
            listener(session)
        if outcome.finished is not None:
            await self._announce(session, outcome.finished, "command")
        return outcome

    def _check_open(self, session: Session, version: int | None) -> None:
        if session.id not in self._sessions or session.game.is_over:
            raise errors.GameOverError(session.game.status.value)
        if version is not None and version != session.game.version:
            raise errors.StaleBoardError()

    def _push(self, session: Session, move: Move) -> None:
        try:
            session.game.push(move, seconds=session.seconds_at(self.now()))
        except EngineGameOverError:
            if session.game.status is Status.EXPIRED:
                raise _ExpiredError() from None
            raise

    async def _settle(self, session: Session, moves: tuple[str, ...]) -> Outcome:
        game = session.game
        finished = None
        if game.is_over:
            finished = await self._finish(session)
        else:
            progress = store.Progress(state=_state(game), score=game.score, version=game.version)
            await store.save_progress(self.db, session.id, progress)
            session.record = replace(session.record, state=progress.state, score=game.score, version=game.version)
        return Outcome(moves=moves, view=session.view(), version=game.version, finished=finished)

    # -- finishing -----------------------------------------------------------------
    async def _finish(self, session: Session) -> GameRecord:
        """Write the result once, forget the session and stop its clock (caller holds the lock)."""
        game = session.game
        result = store.Result(
            state=_state(game),
            status=game.status.value,
            score=game.score,
            seconds_used=game.seconds_used if game.seconds_used is not None else game.rules.time_limit,
            finished_at=self.now(),
            version=game.version,
        )
        record = await store.finish_game(self.db, session.id, result)
        self._forget(session)
        if record is None:  # someone else already finished it: keep what was stored
            record = await store.get_game(self.db, session.id)
            assert record is not None
        session.record = record
        return record

    async def _announce(self, session: Session, record: GameRecord, source: FinishSource) -> None:
        for listener in list(self._listeners):
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
        if session.id in self._sessions:
            session.timer = None  # this task must not cancel itself while finishing
            await self.expire(session, source="clock")

    # -- restarts ------------------------------------------------------------------
    async def resume_all(self) -> tuple[list[Session], list[GameRecord]]:
        """Reload every game stored as running: re-arm the clocks, finish those out of time.

        Returns the sessions resumed and the rows of the games finished now.
        """
        resumed, finished = [], []
        for record in await store.playing_games(self.db):
            if record.id in self._sessions:
                continue
            try:
                game = game_from_json(json.loads(record.state))
            except (ValueError, KeyError, TypeError):
                log.exception("game %s could not be reloaded; leaving it as it is", record.id)
                continue
            preferences = await players.player_settings(self.db, record.user_id)
            session = self._register(record, game, four_colour=preferences.four_colour)
            if game.is_over or self.now() >= record.deadline:
                if not game.is_over:
                    game.expire()
                async with session.lock:
                    row = await self._finish(session)
                await self._announce(session, row, "restart")
                finished.append(row)
            else:
                self._arm(session)
                resumed.append(session)
        return resumed, finished

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


class _ExpiredError(Exception):
    """Raised inside the lock when a move found the clock run out (the game is expired)."""


def _state(game: Game) -> str:
    return json.dumps(game_to_json(game), separators=(",", ":"))


def _next_foundation_move(game: Game) -> Move | None:
    """The first legal move of a waste or tableau card onto a foundation, if any."""
    for move in game.legal_moves():
        if move.kind is MoveKind.PLAY and move.target == "f" and not move.source.startswith("f"):
            return move
    return None

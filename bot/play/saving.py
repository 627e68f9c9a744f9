"""The save protocol of running games (:class:`GameSaves`): every read and write of their rows, in one place.

Every change goes through the engine (``Game.push`` / ``Game.expire``) under the session's lock, and is
saved before the caller replies. If the save fails, the game in memory is rebuilt as it was saved (so
memory and database always agree) and the player is told privately that nothing changed
(:class:`bot.errors.NotSavedError`). A finished game is written once (:func:`bot.storage.games.finish_game`)
and then announced to the listeners (the client turns that into the ``solitaire_game_finished`` event); a
clock's expiry that cannot be written is retried with backoff until it lands.

A save whose outcome is unknown (the connection died during the commit:
:class:`bot.storage.OutcomeUnknownError`) is checked against the stored version before the player is
answered: kept if it landed, undone if not; if even that read fails, the game goes back to its last known
save and is checked again before its next command. Every write is conditional on the version this process
last saved: a process whose copy is stale (another process saved the game since) writes nothing, drops its
copy and announces nothing.

The path of a move: :class:`~bot.play.sessions.SessionManager` looks the game up, takes its lock and pushes the
command into the engine itself, then hands the new commands to :meth:`GameSaves.save`, which writes them with one
:func:`bot.storage.games.save_progress` (the deadline with the clock credits so far rides in the same write; a
result is one :func:`~bot.storage.games.finish_game`). Nothing here calls back into the manager. Only a save in
doubt (:meth:`GameSaves.reconcile`, before the pushes), a refused push (:meth:`GameSaves.restore`) or a clock found
run out (:meth:`GameSaves.finish_expired`) brings the manager here otherwise. A credit the answer adds after the save,
written at once, is one more call (:meth:`GameSaves.save_deadline`, one :func:`~bot.storage.games.move_deadline`).
A press thus passes control eight times (calls and returns): manager to saves and back, saves to storage and back,
once for the save and once for that credit (``tests/bot/play/test_saving.py`` holds the shape).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace

from bot import errors
from bot.errors import Unsaved
from bot.play.running import RunningGames
from bot.play.session import Attempt, Clock, FinishListener, FinishSource, Outcome, Session
from bot.rules.modes import GameMode, mode_of
from bot.storage import ConstraintError, Database, OutcomeUnknownError, StorageError, players
from bot.storage import games as games_db
from bot.storage.games import PLAYING, GameRecord, Mode
from languages import Language, speaking_language
from solitaire import Game, game_from_json, game_to_json
from solitaire.speech import N_, _

log = logging.getLogger(__name__)

LanguageOf = Callable[[int], Awaitable[Language]]
"""The language a member reads privately (``Speakers.member``)."""

RECHECK_SECONDS = 0.5
"""At most this long to read back a save whose outcome is unknown (the answer stays inside Discord's 3 s)."""
BROKEN_NOTICE = N_(
    "Your game #{id} ({variant}) could not be reloaded after a restart, so I closed it "
    "(no result, no score). Sorry! Start a new one with `/solitaire start`."
)
"""The notice a player finds at their next command when their game could not be rebuilt (said in their language)."""
THE_END: Unsaved = "The end of your game"
"""What a refused result is called in the player's answer."""


class GameSaves:
    """Stores, saves, reconciles, restores, finishes and announces the running games of one process."""

    def __init__(
        self,
        db: Database,
        *,
        now: Clock,
        running: RunningGames,
        arm: Callable[[Session], None],
        language_of: LanguageOf | None = None,
    ) -> None:
        """Keep games in ``db``; ``running`` holds the sessions, ``arm`` starts a loaded session's clock.

        ``language_of``: a member's language, for the notices they are left (``None``: the language spoken then).
        """
        self.db = db
        self.language_of = language_of
        self.now = now
        self.running = running
        self._arm = arm
        self._listeners: list[tuple[GameMode | None, FinishListener]] = []
        self._noticed: set[tuple[int, int]] = set()
        """Players with a notice waiting (loaded by :meth:`resume_all`, kept as notices come and go)."""

    def add_finish_listener(self, listener: FinishListener, *, mode: GameMode | None = None) -> None:
        """Call ``listener(session, record, source)`` once a game's result is stored (of ``mode`` only, if given)."""
        self._listeners.append((mode, listener))

    # -- reading and loading -------------------------------------------------------
    async def stored(self, game_id: int) -> GameRecord | None:
        """Game ``game_id`` as the database holds it (running or finished), or ``None``."""
        return await games_db.get_game(self.db, game_id)

    async def load(self, record: GameRecord) -> Session | None:
        """The running game of ``record`` (a ``playing`` row), loaded from the database if it is not running here.

        ``None``: its stored state could not be rebuilt (it is closed as broken).
        """
        return self.running.get(record.id) or await self._reload(record)

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
        session = self.running.add(record, game, four_colour=preferences.four_colour)
        self._arm(session)
        return session

    async def _close_broken(self, record: GameRecord, error: Exception) -> None:
        notice = await self._say_to(record.user_id, BROKEN_NOTICE, id=record.id, variant=record.variant)
        if await games_db.close_broken(self.db, record, finished_at=self.now(), notice=notice):
            log.warning(
                "game %s could not be rebuilt (%s: %s): closed as broken", record.id, type(error).__name__, error
            )
            self._noticed.add((record.guild_id, record.user_id))

    async def _say_to(self, user_id: int, sentence: str, **fields: object) -> str:
        """``sentence`` (marked with ``N_``) said in the member's language, for a notice they read later."""
        if self.language_of is None:
            return _(sentence, **fields)
        with speaking_language(await self.language_of(user_id)):
            return _(sentence, **fields)

    # -- starting ------------------------------------------------------------------
    async def start(
        self,
        game: Game,
        *,
        guild_id: int,
        channel_id: int,
        user_id: int,
        variant: str,
        mode: Mode,
        deal_number: int | None,
        daily_date: str | None,
        started_at: float | None,
        practice: bool,
        deal_seed: str,
        link: games_db.Link | None,
    ) -> Session:
        """Store the new ``game`` and run it as a session with its clock armed (see ``SessionManager.start``).

        ``started_at``: when its clock starts (``None``: now, once the player's settings are read).
        """
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
            deal_seed=deal_seed,
        )
        try:
            record = await self._insert(row, link)
        except games_db.DuplicateGameError as error:
            if error.kind == "daily":
                raise errors.AlreadyPlayedError(variant, daily_date) from None
            active_id = await self._adopt_active(guild_id, user_id)
            if active_id is not None:
                raise errors.ActiveGameError(active_id) from None
            record = await self._insert(row, link)  # the row in the way was damaged and is now closed
        session = self.running.add(record, game, four_colour=preferences.four_colour)
        self._arm(session)
        return session

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
        if active.id not in self.running and await self._reload(active) is None:
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

    async def save_deadline(self, session: Session) -> None:
        """Store the session's deadline moved out by clock credits; on failure it goes with the next save."""
        deadline = session.record.deadline
        try:
            await games_db.move_deadline(self.db, session.id, deadline, session.record.credited_until)
        except StorageError as error:
            log.warning("game %s: clock credit not stored yet (%s); it goes with the next save", session.id, error)
        else:
            session.stored_deadline = max(session.stored_deadline, deadline)

    # -- commands ------------------------------------------------------------------
    async def reconcile(self, session: Session) -> GameRecord | None:
        """Check a save in doubt before a command (caller holds the lock): the final row if it finished the game.

        Nothing to do (and no query) when no write is in doubt (``session.unsure``).

        :raises NotSavedError: the database cannot be read to check (the game waits, unchanged).
        :raises GameEndedError: the game turned out finished by another process.
        """
        try:
            return await self._reconcile(session)
        except _StaleCopyError as stale:
            raise errors.GameEndedError(stale.stored.status if stale.stored is not None else "gone") from None
        except StorageError as error:
            raise _refusal(error, "Your move") from None

    async def save(self, session: Session, moves: tuple[str, ...], saved: int) -> Outcome:
        """Save the commands ``moves`` played since version ``saved`` (or the result), in one call into storage.

        The caller holds the lock. The save carries the deadline as it is now (the clock credits so far). If the
        database refuses, the game is rebuilt at ``saved`` and the player refused privately; a stale copy (another
        process saved the game since) is dropped and the stored game loaded in its place.

        :raises NotSavedError: the database refused the save (``BusyError``: it was locked too long).
        :raises ChangedElsewhereError: another process saved the game since.
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
            self.restore(session, saved)
            log.warning("game %s: move not saved (%s); the game is back at version %d", session.id, error, saved)
            raise _refusal(error, "Your move") from None

    async def finish_expired(self, session: Session, saved: int) -> GameRecord:
        """Write the result of a game a command found out of time (expired by the engine; caller holds the lock).

        :raises NotSavedError: the database refused the result; the game is back at version ``saved``.
        :raises TimeUpError: another process saved the game since: it records the end.
        """
        try:
            return await self._finish_or_restore(session, saved, THE_END)
        except _StaleCopyError:
            raise errors.TimeUpError() from None

    async def expire(self, session: Session, *, source: FinishSource = "clock") -> GameRecord | None:
        """End the game as expired if it is still running; return the final row (``None`` if it had ended).

        :raises NotSavedError: the database refused the result; the game runs on as saved.
        """
        async with session.lock:
            if session.id not in self.running:
                return None
            try:
                record = await self._reconcile(session)
                if record is None:
                    saved = session.game.version
                    session.game.expire()
                    record = await self._finish_or_restore(session, saved, THE_END)
            except _StaleCopyError:
                return None  # another process saved the game since: it finishes it, not this stale copy
            except StorageError as error:  # the database could not be read to check a doubtful save
                raise _refusal(error, THE_END) from None
        await self.announce(session, record, source)
        return record

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
            try:
                stored = await games_db.save_progress(
                    self.db,
                    session.id,
                    first=saved,
                    moves=entries,
                    score=game.score,
                    version=game.version,
                    deadline=deadline,
                    credited_until=credited_until,
                )
            except OutcomeUnknownError as error:
                if await self._recheck(session, Attempt(game.version, PLAYING), error) is None:
                    raise StorageError(f"game {session.id}: the save did not land ({error})") from error
                stored = True
            if not stored:
                self.running.drop(session)
                raise _StaleCopyError(session.id, await games_db.get_game(self.db, session.id))
            session.record = replace(session.record, score=game.score, version=game.version)
            session.stored_deadline = max(session.stored_deadline, deadline)
        return Outcome(moves=moves, view=session.view(), version=game.version, finished=finished)

    # -- doubtful saves --------------------------------------------------------------
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
        self.running.drop(session)
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

    @staticmethod
    def restore(session: Session, version: int) -> None:
        """Rebuild the session's game from its own log up to ``version`` (what the database holds)."""
        if session.game.version == version:
            return
        data = game_to_json(session.game)
        data["log"] = data["log"][:version]
        session.game = game_from_json(data)

    # -- finishing -----------------------------------------------------------------
    async def _finish_or_restore(self, session: Session, saved: int, what: Unsaved) -> GameRecord:
        """:meth:`_finish`; if the database refuses, rebuild the game at version ``saved`` and refuse privately."""
        try:
            return await self._finish(session)
        except StorageError as error:
            self.restore(session, saved)
            log.warning("game %s: result not saved (%s); the game is back at version %d", session.id, error, saved)
            raise _refusal(error, what) from None

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
                self.running.drop(session)
                raise _StaleCopyError(session.id, stored)
            record = stored  # this very result, stored by an attempt whose answer was lost
        assert record is not None
        self.running.drop(session)
        session.record = record
        return record

    async def announce(self, session: Session, record: GameRecord, source: FinishSource) -> None:
        """Tell the finish listeners (of the game's mode) that ``record`` is stored; their failures are logged."""
        mode = mode_of(record.mode)
        for wanted, listener in list(self._listeners):
            if wanted is not None and wanted is not mode:
                continue
            try:
                await listener(session, record, source)
            except Exception:
                log.exception("finish listener failed for game %s", record.id)

    # -- restarts ------------------------------------------------------------------
    async def resume_all(self, owns: Callable[[int], bool]) -> tuple[list[Session], list[GameRecord]]:
        """Reload the running games of the servers ``owns`` accepts (see ``SessionManager.resume_all``)."""
        resumed, finished = [], []
        self._noticed = await games_db.noticed_players(self.db)
        for record in await games_db.playing_games(self.db):
            if record.id in self.running or not owns(record.guild_id):  # another process runs its shard
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

    async def _finish_at_restart(self, session: Session) -> GameRecord | None:
        """Record the result of a game that ended or ran out of time while the bot was down."""
        async with session.lock:
            if session.id not in self.running:
                return None
            saved = session.game.version
            if not session.game.is_over:
                session.game.expire()
            try:
                row = await self._finish(session)
            except _StaleCopyError:
                return None  # another process saved it since: it records the end
            except StorageError as error:
                self.restore(session, saved)  # the armed clock expires it again, with retries
                log.warning("game %s: result not recorded at restart (%s); its clock will retry", session.id, error)
                return None
        await self.announce(session, row, "restart")
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


def _refusal(error: StorageError, what: Unsaved) -> errors.NotSavedError:
    """The player's answer to a refused write: "busy" for a lock held too long, "not saved" otherwise."""
    text = str(error).lower()
    if "locked" in text or "busy" in text:
        return errors.BusyError(what)
    return errors.NotSavedError(what)


class _StaleCopyError(Exception):
    """A guarded write found the stored game elsewhere than this process's copy: the copy was dropped."""

    def __init__(self, game_id: int, stored: GameRecord | None) -> None:
        where = f"at version {stored.version}, {stored.status}" if stored is not None else "gone"
        super().__init__(f"{game_id} (stored {where})")
        self.stored = stored


def _state(game: Game) -> str:
    return json.dumps(game_to_json(game), separators=(",", ":"))

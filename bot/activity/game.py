"""The game desk: a page's own games (start, resume, drop, tap, all up, hint), and their boards pushed to its pages.

Like a cog, it decides nothing: a start goes to the start service (the daily's one try included), a drop, a
tap or all up to :meth:`SessionManager.act <bot.play.sessions.SessionManager.act>` (the one entry a button's
press goes through too: its start, version, meaning, resend and save), a hint to the hint service. Every
refusal is the services' own words. A game changed elsewhere (a button, the clock, another tab) is pushed to
its player's other open pages.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from bot import errors
from bot.activity.frames import game_frame
from bot.activity.outgoing import GAME, Choose, Daily, GameOut, MenuPart, game_out
from bot.activity.page import Socket
from bot.activity.pages import Pages
from bot.activity.protocol import AllUpAsk, Drop, HintAsk, MoveAsk, PlayFrame, Resume, Start, Tap
from bot.activity.seat import PracticeOnlyError, Seat, variant_menu_names
from bot.background import BackgroundTasks
from bot.compete.daily import DailyService
from bot.compete.starts import GameStarts
from bot.play.hints import Hints
from bot.play.pads import AllUp, Click, pad_for, targets_of
from bot.play.session import Clock, FinishSource, Outcome, Selection, Session
from bot.play.sessions import SessionManager
from bot.storage.games import GameRecord
from languages import formats, speaking_language
from solitaire import find_variant
from solitaire.deals import MAX_DEAL_NUMBER
from solitaire.dests import drop_move
from solitaire.speech import _
from solitaire.view import BoardView

MENU_DAILY_SECONDS = 10.0
"""A member's daily on the menu is read at most this often (a menu asked again and again reads it once)."""


class GameDesk:
    """A page's own games on the bot's services, and their changes pushed to the player's pages."""

    def __init__(
        self,
        sessions: SessionManager,
        starts: GameStarts,
        hints: Hints,
        pages: Pages,
        *,
        now: Clock,
        daily: DailyService,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """Play through ``sessions``, start through ``starts``, hint through ``hints``; push to ``pages``."""
        self.sessions = sessions
        self.starts = starts
        self.hints = hints
        self.pages = pages
        self.now = now
        self.daily = daily
        self.clock = clock
        self._dailies: dict[tuple[int, int], tuple[float, Daily]] = {}
        """Per member, the MENU's ``daily`` and until when it is kept."""
        self._busy: dict[Socket, int] = {}
        """Pages playing a request on a game: the game's own answer goes to them, not a push."""
        self._pushing: set[int] = set()
        """Games whose push is on its way (later moves join it)."""
        self._tasks = BackgroundTasks("activity-game")
        sessions.add_move_listener(self._moved)
        sessions.add_finish_listener(self._finished)

    async def close(self) -> None:
        """Stop pushing."""
        await self._tasks.cancel_all()

    # -- the menu ------------------------------------------------------------------------
    async def menu(self, seat: Seat) -> MenuPart:
        """The MENU's part of this desk: the running game, the variants, today's daily (which variants were played)."""
        player = seat.player
        running = self._shown(self.sessions.active_for(player.guild_id, player.user_id))
        return {
            "running": game_frame(running, now=self.now()) if running is not None else None,
            "variants": [{"name": name, "title": title} for name, title in variant_menu_names()],
            "daily": await self._daily(seat) if seat.ranked and player.guild_id else None,
        }

    async def _daily(self, seat: Seat) -> Daily:
        """The MENU's ``daily``: today's date and the variants played (kept :data:`MENU_DAILY_SECONDS`)."""
        key = (seat.player.guild_id, seat.player.user_id)
        kept = self._dailies.get(key)
        if kept is not None and kept[0] > self.clock():
            return kept[1]
        today = await self.daily.today(seat.player.guild_id)
        played = [
            name for name, _ in variant_menu_names() if await self.starts.daily_played(seat.place, name) is not None
        ]
        daily: Daily = {"date": today.isoformat(), "played": played}
        self._dailies[key] = (self.clock() + MENU_DAILY_SECONDS, daily)
        if len(self._dailies) > 10_000:
            self._dailies = {key: kept for key, kept in self._dailies.items() if kept[0] > self.clock()}
        return daily

    def _forget_daily(self, guild_id: int, user_id: int) -> None:
        """A game of the member ended or started: read their daily again for the next menu."""
        self._dailies.pop((guild_id, user_id), None)

    # -- starting -------------------------------------------------------------------------
    async def start(self, page: Socket, frame: Start) -> GameOut:
        """Start a game as ``frame`` asks; the GAME of it."""
        seat = _seat(page)
        find_variant(frame.variant)
        if frame.kind == "daily":
            if not seat.ranked:
                raise errors.NotInServerError("The daily")
            session = await self.starts.daily_game(seat.place, frame.variant)
            self._forget_daily(seat.player.guild_id, seat.player.user_id)
        elif frame.kind == "practice":
            number = frame.deal if frame.deal is not None else random.randint(1, MAX_DEAL_NUMBER)
            if number > MAX_DEAL_NUMBER:
                raise DealNumberError(number)
            session = await self.starts.casual(seat.place, frame.variant, deal=number)
        else:
            if not seat.ranked:
                raise PracticeOnlyError()
            session = await self.starts.casual(seat.place, frame.variant)
        return game_out(frame.ref, game_frame(session, now=self.now()))

    async def resume(self, page: Socket, frame: Resume) -> GameOut:
        """The GAME of the player's running game here (``null``: none)."""
        player = _seat(page).player
        session = self._shown(self.sessions.active_for(player.guild_id, player.user_id))
        return game_out(frame.ref, game_frame(session, now=self.now()) if session is not None else None)

    def _shown(self, session: Session | None) -> Session | None:
        """The running game a page may be shown: none before its start (the sessions' rule)."""
        return session if session is not None and self.sessions.started(session) else None

    # -- playing -----------------------------------------------------------------------------
    async def play(self, page: Socket, frame: PlayFrame) -> GameOut | Choose:
        """Play ``frame`` on its game: the GAME after it (and the move's words), or the places a tapped card may go.

        :raises BotError, SolitaireError: refused (not started, stale board, another's game, an illegal move ...).
        """
        seat = _seat(page)
        self._busy[page] = frame.game
        try:
            session = await self._session(seat, frame.game)
            if isinstance(frame, HintAsk):
                answer = await self.hints.hint(session, frame.version, seat.player.user_id)
                game = game_frame(session, now=self.now(), **_seen(answer.outcome))
                return game_out(frame.ref, game, answer.plain)
            user_id, version = seat.player.user_id, frame.version
            meaning = _meaning(session, frame)
            pressed = await self.sessions.act(session, user_id, version, meaning, source="page", words=True)
            if isinstance(pressed, Selection):
                assert isinstance(frame, Tap)
                targets = list(targets_of(pressed.view, frame.source))
                return {"type": "choose", "ref": frame.ref, "source": frame.source, "targets": targets}
            outcome = pressed.outcome
            game = game_frame(session, now=self.now(), record=outcome.finished, **_seen(outcome))
            return game_out(frame.ref, game, pressed.words)
        finally:
            self._busy.pop(page, None)

    async def _session(self, seat: Seat, game_id: int) -> Session:
        """The running game ``game_id`` if it is this player's game in this server (as a button's id is checked).

        Whose game it is and where it is kept are checked before it is loaded: a page never loads (nor
        clocks) a game of another server, which may be another process's, and a game that is not the
        player's is refused in words that name nobody.
        """
        player = seat.player
        running = self.sessions.get(game_id)
        record = running.record if running is not None else await self.sessions.stored(game_id)
        if record is None or record.user_id != player.user_id:
            raise NotYourGameHereError()
        if record.guild_id != player.guild_id:
            raise OtherServerGameError()
        return self.sessions.require_started(await self.sessions.playable(game_id, player.user_id))

    def board(self, page: Socket, frame: object) -> GAME | None:
        """What a refusal of ``frame`` shows: the board it named as it stands, if it is the player's running game."""
        if page.seat is None or not isinstance(frame, PlayFrame):
            return None
        session = self._shown(self.sessions.get(frame.game))
        player = page.seat.player
        if session is None or session.owner_id != player.user_id or session.record.guild_id != player.guild_id:
            return None
        return game_frame(session, now=self.now())

    # -- pushes -----------------------------------------------------------------------------
    def _moved(self, session: Session) -> None:
        """A game accepted a command (on any surface): show it on its player's other open pages, soon.

        One push per game is on its way at a time; the moves made before it goes are shown by it.
        """
        pages = self.pages.of_member(session.record.guild_id, session.owner_id)
        if session.id in self._pushing or all(self._busy.get(page) == session.id for page in pages):
            return
        self._pushing.add(session.id)
        self._tasks.spawn(self._push_soon(session), f"activity-push-{session.id}")

    async def _push_soon(self, session: Session) -> None:
        """The push of a moved game, once the move's own work is done."""
        try:
            await self._push(session, None)
        finally:
            self._pushing.discard(session.id)

    async def _finished(self, session: Session, record: GameRecord, source: FinishSource) -> None:
        """A game ended (the clock, a button, a page): show its result on its player's open pages."""
        self._forget_daily(record.guild_id, record.user_id)
        if self.pages.has_member(record.guild_id, record.user_id):
            await self._push(session, record)

    async def _push(self, session: Session, record: GameRecord | None) -> None:
        """Send the game as it stands to its player's pages that have not seen it, each in its language."""
        if self._shown(session) is None:
            return  # a race's game left during its countdown: its deal stays secret
        version = session.game.version
        games: dict[str, GAME] = {}
        for page in self.pages.of_member(session.record.guild_id, session.owner_id):
            seen = page.shown.get(session.id, -1) >= version and record is None
            if self._busy.get(page) == session.id or seen:
                continue
            game = games.get(page.language.code)
            if game is None:
                with speaking_language(page.language):
                    game = games[page.language.code] = game_frame(session, now=self.now(), record=record)
            await page.send(game_out(None, game))


class DealNumberError(errors.BotError):
    """A practice deal number past the last numbered deal."""

    def __init__(self, number: int) -> None:
        super().__init__(
            _(
                "There is no deal #{number}: practice deals are numbered 1 to {last}.",
                number=number,
                last=formats.number(MAX_DEAL_NUMBER),
            )
        )


class NotYourGameHereError(errors.BotError):
    """A page named a game that is not its player's (or none at all): refused without naming anyone."""

    def __init__(self) -> None:
        super().__init__(_("That is not one of your games: open yours from the menu."))


class NoSuchSlotError(errors.BotError):
    """A drop named a place that is not on this board (or a source that holds no card to pick up)."""

    def __init__(self) -> None:
        super().__init__(_("That is not a place on this board: drag a card onto a pile or a foundation."))


class OtherServerGameError(errors.BotError):
    """A page asked to play a game of this member kept in another server (or in their DMs)."""

    def __init__(self) -> None:
        super().__init__(_("That game is played in another server: open the Activity there to play it."))


def _seat(page: Socket) -> Seat:
    """The page's verified seat."""
    assert page.seat is not None
    return page.seat


def _meaning(session: Session, frame: MoveAsk | Drop | Tap | AllUpAsk) -> Callable[[BoardView], Click] | str:
    """What a move, a drop, a tap or all up means: the move in notation, or its meaning on the board (the pad's).

    A drop is named from its two slots (the same name at any version: a drop sent again is known as such).
    """
    if isinstance(frame, MoveAsk):
        return frame.move
    if isinstance(frame, Drop):
        move = drop_move(session.view(), frame.source, frame.target)
        if move is None:
            raise NoSuchSlotError()
        return move
    if isinstance(frame, Tap):
        source = frame.source
        return lambda view: pad_for(view.family).tap(view, source)
    return lambda view: AllUp()


def _seen(outcome: Outcome | None) -> dict[str, Any]:
    """The view and version a command saw under the lock, for its GAME frame."""
    return {"view": outcome.view, "version": outcome.version} if outcome is not None else {}

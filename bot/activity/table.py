"""The Activity's frames turned into calls of the bot's services, and their answers into frames.

Like a cog, it decides nothing: a move goes to the sessions (their lock, version, clock, save and
finish), a tap means what a press of that card's button means (the family's pad), a start goes to
the start service (the daily's one try included), a hint to the hint service. Every refusal is the
services' own words.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot import errors
from bot.activity.frames import game_frame
from bot.activity.identity import Player
from bot.activity.protocol import AllUpAsk, HintAsk, MoveAsk, PlayFrame, Start, Tap
from bot.compete.daily import DailyService
from bot.compete.starts import GameStarts, Place
from bot.play.hints import Hints
from bot.play.move_words import describe_move
from bot.play.pads import AllUp, Select, pad_for, targets_of
from bot.play.session import Clock, Outcome, Session
from bot.play.sessions import SessionManager
from solitaire import SolitaireError, find_variant
from solitaire.deals import MAX_DEAL_NUMBER
from solitaire.moves import Move
from solitaire.variants import variant_menu

if TYPE_CHECKING:
    from bot.activity.challenges import ChallengeDesk

Frame = dict[str, Any]
Refusal = errors.BotError | SolitaireError
MENU_DAILY_SECONDS = 10.0
"""A member's daily on the menu is read at most this often (a menu asked again and again reads it once)."""
REFUSALS = (errors.BotError, SolitaireError)
"""What a player's request may be refused with: the services' and the engine's own errors, in their words."""


@dataclass(frozen=True)
class Seat:
    """A verified player at the table: where their games are kept, and whether the server has the bot."""

    player: Player
    ranked: bool
    """The bot is in the player's server (or it is a DM): casual and daily games; else practice only."""

    @property
    def place(self) -> Place:
        """Where this player's games start."""
        return Place(self.player.guild_id, self.player.channel_id, self.player.user_id)


class Table:
    """Plays a page's requests on the bot's services."""

    def __init__(
        self,
        sessions: SessionManager,
        starts: GameStarts,
        hints: Hints,
        *,
        now: Clock,
        daily: DailyService,
        challenges: ChallengeDesk | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """Play through ``sessions``, start through ``starts``, hint through ``hints``; ``daily`` says the day.

        ``challenges`` lists the member's challenges on the menu and answers and plays them (``None``: none).
        """
        self.sessions = sessions
        self.starts = starts
        self.hints = hints
        self.now = now
        self.daily = daily
        self.challenges = challenges
        self.clock = clock
        self._dailies: dict[tuple[int, int], tuple[float, Frame]] = {}
        """Per member, the MENU's ``daily`` and until when it is kept."""
        self._last: dict[int, tuple[int, str]] = {}
        """Per game, the last move a page played: the version it was sent at and its text (a resend is not replayed)."""

    # -- the menu ------------------------------------------------------------------------
    async def menu(self, seat: Seat) -> Frame:
        """The MENU: the running game, the variants, today's daily (which variants were played), the challenges."""
        player = seat.player
        running = self._shown(self.sessions.active_for(player.guild_id, player.user_id))
        daily = await self._daily(seat) if seat.ranked and player.guild_id else None
        return {
            "running": game_frame(running, now=self.now()) if running is not None else None,
            "variants": [{"name": name, "title": title} for name, title in variant_menu_names()],
            "daily": daily,
            "challenges": await self.challenges.listed(seat) if self.challenges is not None else [],
        }

    async def _daily(self, seat: Seat) -> Frame:
        """The MENU's ``daily``: today's date and the variants played (kept :data:`MENU_DAILY_SECONDS`)."""
        key = (seat.player.guild_id, seat.player.user_id)
        kept = self._dailies.get(key)
        if kept is not None and kept[0] > self.clock():
            return kept[1]
        today = await self.daily.today(seat.player.guild_id)
        played = [
            name for name, _ in variant_menu_names() if await self.starts.daily_played(seat.place, name) is not None
        ]
        daily = {"date": today.isoformat(), "played": played}
        self._dailies[key] = (self.clock() + MENU_DAILY_SECONDS, daily)
        if len(self._dailies) > 10_000:
            self._dailies = {key: kept for key, kept in self._dailies.items() if kept[0] > self.clock()}
        return daily

    def forget_daily(self, guild_id: int, user_id: int) -> None:
        """A game of the member ended or started: read their daily again for the next menu."""
        self._dailies.pop((guild_id, user_id), None)

    # -- starting -------------------------------------------------------------------------
    async def start(self, seat: Seat, frame: Start) -> Frame:
        """Start a game as ``frame`` asks; the GAME frame of it."""
        find_variant(frame.variant)
        if frame.kind == "daily":
            if not seat.ranked:
                raise errors.NotInServerError("The daily")
            session = await self.starts.daily_game(seat.place, frame.variant)
            self.forget_daily(seat.player.guild_id, seat.player.user_id)
        elif frame.kind == "practice":
            number = frame.deal if frame.deal is not None else random.randint(1, MAX_DEAL_NUMBER)
            if number > MAX_DEAL_NUMBER:
                raise DealNumberError(number)
            session = await self.starts.casual(seat.place, frame.variant, deal=number)
        else:
            if not seat.ranked:
                raise PracticeOnlyError()
            session = await self.starts.casual(seat.place, frame.variant)
        return game_frame(session, now=self.now())

    async def resume(self, seat: Seat) -> Frame | None:
        """The GAME of the player's running game here, loaded if only the database has it; ``None``: none."""
        player = seat.player
        session = self._shown(self.sessions.active_for(player.guild_id, player.user_id))
        return game_frame(session, now=self.now()) if session is not None else None

    def started(self, session: Session) -> bool:
        """Whether the game's clock has started (a race's game is dealt before its common start, and kept secret)."""
        return session.record.started_at <= self.now()

    def _shown(self, session: Session | None) -> Session | None:
        """The running game a page may be shown: none before its start."""
        return session if session is not None and self.started(session) else None

    # -- playing -----------------------------------------------------------------------------
    async def play(self, seat: Seat, frame: PlayFrame) -> tuple[Frame, str | None] | list[str]:
        """Play ``frame`` on its game: (the GAME after it, the move's words), or the places a tapped card may go.

        :raises BotError, SolitaireError: refused (stale board, another's game, an illegal move ...).
        """
        session = await self._session(seat, frame.game)
        resent = self._resent(session, frame)
        if resent is not None:
            return resent
        if isinstance(frame, HintAsk):
            answer = await self.hints.hint(session, frame.version, seat.player.user_id)
            view_frame = game_frame(session, now=self.now(), **_seen(answer.outcome)) if answer.outcome else None
            return view_frame or game_frame(session, now=self.now()), answer.plain
        self.sessions.require_playable(session.id, seat.player.user_id, frame.version)
        move = self._meaning(session, frame)
        if isinstance(move, list):
            return move
        words = _words(session, move)
        if move is None:
            outcome = await self.sessions.play_all_to_foundations(session, version=frame.version, source="page")
        else:
            outcome = await self.sessions.play(session, move, version=frame.version, source="page")
            self._last[session.id] = (frame.version, str(move))
        record = outcome.finished
        return game_frame(session, now=self.now(), record=record, **_seen(outcome)), words

    def _meaning(self, session: Session, frame: PlayFrame) -> Move | list[str] | None:
        """The move a frame asks for (``None``: all up), or the places a tapped card may go."""
        if isinstance(frame, AllUpAsk):
            return None
        if isinstance(frame, MoveAsk):
            return session.game.parse_move(frame.move)
        assert isinstance(frame, Tap)
        view = session.view()
        meaning = pad_for(view.family).tap(view, frame.source)
        if isinstance(meaning, Select):
            return list(targets_of(view, frame.source))
        if isinstance(meaning, AllUp):
            return None
        return meaning.move

    def _resent(self, session: Session, frame: PlayFrame) -> tuple[Frame, str | None] | None:
        """The game as it stands if ``frame`` is the move this game last played, sent again (a reconnect's resend)."""
        if not isinstance(frame, MoveAsk) or frame.version >= session.game.version:
            return None
        last = self._last.get(session.id)
        try:
            text = str(session.game.parse_move(frame.move))
        except SolitaireError:
            return None
        if last != (frame.version, text):
            return None
        return game_frame(session, now=self.now()), None

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
        session = await self.sessions.playable(game_id, player.user_id)
        if not self.started(session):
            raise NotStartedGameError()
        return session

    def forget(self, game_id: int) -> None:
        """Drop what is kept of a finished game."""
        self._last.pop(game_id, None)


class PracticeOnlyError(errors.BotError):
    """A ranked game asked for where the bot is not in the server: only practice deals are played here."""

    def __init__(self) -> None:
        super().__init__(
            "The bot is not in this server, so its games are not ranked here: play a practice deal "
            "(or ask an admin to add the bot)."
        )


class DealNumberError(errors.BotError):
    """A practice deal number past the last numbered deal."""

    def __init__(self, number: int) -> None:
        super().__init__(f"There is no deal #{number}: practice deals are numbered 1 to {MAX_DEAL_NUMBER:,}.")


class NotStartedGameError(errors.BotError):
    """A page asked to play a game before its start (a race's, during the countdown)."""

    def __init__(self) -> None:
        super().__init__("That game has not started yet: its board opens at the start.")


class NotYourGameHereError(errors.BotError):
    """A page named a game that is not its player's (or none at all): refused without naming anyone."""

    def __init__(self) -> None:
        super().__init__("That is not one of your games: open yours from the menu.")


class OtherServerGameError(errors.BotError):
    """A page asked to play a game of this member kept in another server (or in their DMs)."""

    def __init__(self) -> None:
        super().__init__("That game is played in another server: open the Activity there to play it.")


def variant_menu_names() -> list[tuple[str, str]]:
    """Every variant as ``(name, title)``, in the menu's order."""
    return [(value, name) for name, value in variant_menu()]


def _words(session: Session, move: Move | None) -> str | None:
    """What ``move`` will do, in words (``None`` for a move the engine will refuse in its own words)."""
    if move is None:
        return "every card that could go up"
    try:
        return describe_move(session.game, move)
    except SolitaireError:
        return None


def _seen(outcome: Outcome | None) -> dict[str, Any]:
    """The view and version a command saw under the lock, for its GAME frame."""
    return {"view": outcome.view, "version": outcome.version} if outcome is not None else {}

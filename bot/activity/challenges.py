"""The challenges on the Activity's menu: the ones a member is in, answered and played from the page.

Like the challenge buttons (:mod:`cogs.challenge_commands`), it decides nothing: the challenge service
(:class:`~bot.compete.challenges.ChallengeService`) takes the answer or starts the one attempt, and refuses in
its own words; its snapshot says which scores may be seen (a hidden challenge's, every one until it closes,
the member's own included, as on the public message). An answer given here updates the public message as a
press of its button does. The page names a challenge by its id, which is believed no more than a button's:
it must be a challenge of the page's server that has been shown (its message posted).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Literal

from bot import errors
from bot.activity.frames import game_frame
from bot.activity.outgoing import Challenge, ChallengeLine, GameOut, MenuPart, Person, game_out
from bot.activity.page import Socket
from bot.activity.protocol import ChallengeAnswer, ChallengePlay
from bot.activity.seat import PracticeOnlyError, Seat, variant_menu_names
from bot.background import BackgroundTasks
from bot.compete.challenges import ChallengeService, ChallengeSnapshot, Line, UnknownChallengeError
from bot.play.session import Clock
from bot.play.sessions import SessionManager
from solitaire.speech import _

log = logging.getLogger(__name__)

NameOf = Callable[[int, int], str | None]
Push = Callable[[int, Sequence[int]], Awaitable[None]]
"""Shows the changed challenge to its members' open pages: (server, members)."""
LISTED = 6
"""Challenges a menu lists at most (a member makes at most five; a few more may name them)."""
RESULTS_SECONDS = 24 * 3600.0
"""How long a closed challenge stays on its members' menus, with its results."""
Me = Literal["challenger", "named", "accepted", "declined", "playing", "played"]
_ME: dict[str, Me] = {
    "challenger": "challenger",
    "invited": "named",
    "accepted": "accepted",
    "declined": "declined",
    "playing": "playing",
    "played": "played",
}
_ANSWERS = ("invited", "accepted")
"""Where a member may still answer (an acceptance may still be declined before playing)."""
_PLAYS = ("challenger", "invited", "accepted")
"""Where a member may start their attempt (playing accepts an invitation)."""


class OtherServerChallengeError(errors.BotError):
    """A page answered or played a challenge of another server."""

    def __init__(self) -> None:
        super().__init__(_("That challenge is in another server: open the Activity there to answer or play it."))


class NoServerChallengeError(errors.BotError):
    """A page outside any server (a DM) answered or played a challenge."""

    def __init__(self) -> None:
        super().__init__(_("Challenges belong to a server: open the Activity in the challenge's server."))


class ChallengeDesk:
    """Lists a member's challenges for the menu, and answers and plays them through the challenge service."""

    def __init__(self, challenges: ChallengeService, sessions: SessionManager, *, now: Clock, name_of: NameOf) -> None:
        """Answer and play through ``challenges`` (attempts on ``sessions``); ``name_of`` names the members."""
        self.challenges = challenges
        self.sessions = sessions
        self.now = now
        self.name_of = name_of
        self._tasks = BackgroundTasks("activity-challenge")

    async def close(self) -> None:
        """Stop the pushes under way."""
        await self._tasks.cancel_all()

    def watch(self, push: Push) -> None:
        """Call ``push`` with a challenge's server and members whenever it changed (on any surface)."""
        self.challenges.watch(lambda challenge_id: self._spawn(push, challenge_id))

    def _spawn(self, push: Push, challenge_id: int) -> None:
        self._tasks.spawn(self._push(push, challenge_id), f"activity-challenge-{challenge_id}")

    async def _push(self, push: Push, challenge_id: int) -> None:
        """Tell ``push`` who is in the changed challenge (a failure is logged: the pages ask again later)."""
        try:
            snapshot = await self.challenges.snapshot(challenge_id)
            await push(snapshot.challenge.guild_id, [line.user_id for line in snapshot.lines])
        except Exception:
            log.exception("challenge %s: its members' pages not told", challenge_id)

    async def menu(self, seat: Seat) -> MenuPart:
        """The MENU's ``challenges``: the member's here, newest open first (none in a DM or without the bot)."""
        player = seat.player
        if not seat.ranked or not player.guild_id:
            return {"challenges": []}
        found = await self.challenges.of_member(
            player.guild_id, player.user_id, closed_within=RESULTS_SECONDS, limit=LISTED
        )
        return {"challenges": [self.frame(snapshot, player.user_id) for snapshot in found]}

    async def answer(self, page: Socket, frame: ChallengeAnswer) -> None:
        """Accept or decline as the buttons do; the public message shows it, and the challenge closes if over.

        :raises ChallengeError: the service's refusal (not named, the challenger, already answered, too late).
        """
        seat = _seat(page)
        challenge_id = frame.challenge
        await self._shown(seat, challenge_id)
        await self.challenges.answer(challenge_id, seat.player.user_id, "accepted" if frame.accept else "declined")
        self.challenges.show_answer(challenge_id)
        await self.challenges.close_if_over(challenge_id)

    async def play(self, page: Socket, frame: ChallengePlay) -> GameOut:
        """The GAME of the member's one attempt: started now, or the one running.

        :raises ChallengeError: the service's refusal (played, declined, too late, not named).
        :raises BotError: another game or start of theirs runs in this server.
        """
        seat = _seat(page)
        await self._shown(seat, frame.challenge)
        player = seat.player
        async with self.sessions.reserve_start(player.guild_id, player.user_id):
            session = await self.challenges.play(frame.challenge, player.user_id)
        return game_out(frame.ref, game_frame(session, now=self.now()))

    async def _shown(self, seat: Seat, challenge_id: int) -> ChallengeSnapshot:
        """The challenge ``challenge_id`` if its buttons could be pressed from this page's server."""
        player = seat.player
        if not player.guild_id:
            raise NoServerChallengeError()
        if not seat.ranked:
            raise PracticeOnlyError()
        snapshot = await self.challenges.snapshot(challenge_id)
        if snapshot.challenge.guild_id != player.guild_id:
            raise OtherServerChallengeError()
        if snapshot.challenge.message_id is None:  # still being posted, or cancelled: it has no buttons
            raise UnknownChallengeError()
        return snapshot

    def frame(self, snapshot: ChallengeSnapshot, user_id: int) -> Challenge:
        """One CHALLENGE as ``user_id`` sees it: its players, the scores that may be seen, what they may press."""
        challenge = snapshot.challenge
        mine = next((line for line in snapshot.lines if line.user_id == user_id), None)
        state = mine.state if mine is not None else None
        taking = snapshot.taking_attempts
        return {
            "id": challenge.id,
            "variant": challenge.variant,
            "title": dict(variant_menu_names()).get(challenge.variant, challenge.variant),
            "challenger": self._who(challenge.guild_id, challenge.challenger_id),
            "closes_in": max(0, int(challenge.deadline - snapshot.now)),
            "open": challenge.show_scores,
            "closed": snapshot.closed,
            "me": _ME[state] if state is not None else None,
            "can_answer": taking and state in _ANSWERS,
            "can_play": (taking and state in _PLAYS) or state == "playing",
            "players": [self._player(challenge.guild_id, line) for line in snapshot.lines],
        }

    def _player(self, guild_id: int, line: Line) -> ChallengeLine:
        """A line of the challenge: who, their answer or attempt, and the score if it may be seen."""
        return {
            **self._who(guild_id, line.user_id),
            "state": line.state,
            "played": line.state == "played",
            "score": line.score,
            "place": line.place,
        }

    def _who(self, guild_id: int, user_id: int) -> Person:
        """A member's id and name as the server shows it (a neutral name when it is not known here)."""
        # Translators: a member whose name is not known here, told apart by the last digits of their id.
        name = self.name_of(guild_id, user_id) or _("member …{digits}", digits=str(user_id)[-4:])
        return {"id": str(user_id), "name": name}


def _seat(page: Socket) -> Seat:
    """The page's verified seat."""
    assert page.seat is not None
    return page.seat

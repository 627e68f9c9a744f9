"""The door of the Activity: who may wait to sign in, who may sign in, and the answer for everyone else.

Everything here is counted before Discord is asked anything: the pages waiting to say who they are
(a few per address, a fair share of the room), the sign-ins of an address and of a token a minute, and,
once Discord said whose token it is, of the member. Then :class:`~bot.activity.identity.DiscordIdentity`
asks within its budget. A refusal says what to do and whether to come back: a page told ``final`` stays
closed (a new socket would be refused the same way), one told ``retry_in`` comes back no sooner.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass

from bot.activity.identity import DiscordIdentity
from bot.activity.limits import (
    MEMBER_SIGN_INS_PER_MINUTE,
    SIGN_INS_PER_MINUTE,
    UNIDENTIFIED_PER_ADDRESS,
    UNIDENTIFIED_SOCKETS,
    Caps,
    Window,
)
from bot.activity.protocol import Close
from bot.activity.verified import DiscordUnavailableError, Player, SignInRefusedError, VerificationError
from solitaire.speech import N_, _

ROOM_FULL = N_("Too many Activity pages are signing in just now: try again in a moment")
ADDRESS_WAITING = N_("Too many Activity pages are signing in from this address at once: try again in a moment")
ADDRESS_SIGN_INS = N_("Too many sign-ins from this address: wait a minute, then reopen the Activity")
MEMBER_SIGN_INS = N_("You signed in too many times this minute: wait a minute, then reopen the Activity")
TRY_AGAIN_SECONDS = 5
"""When a page shed for load comes back."""


@dataclass(frozen=True)
class Refusal:
    """Why a page may not sign in: its words, its close code, and when (or whether) to come back."""

    reason: str
    code: Close
    retry_in: int | None = None
    final: bool = False
    counted_as: str = "caps"
    """The reason the metrics count the close under."""


class SignIns:
    """The waiting room and the sign-in rates, in front of Discord's answers."""

    def __init__(self, identity: DiscordIdentity, clock: Callable[[], float]) -> None:
        """Ask ``identity``; ``clock`` (monotonic seconds) times the windows."""
        self.identity = identity
        self.clock = clock
        self.waiting = 0
        """Pages open that have not signed in yet."""
        self._waiting = Caps(UNIDENTIFIED_PER_ADDRESS)
        self._addresses = Window(SIGN_INS_PER_MINUTE, 60.0)
        self._tokens = Window(MEMBER_SIGN_INS_PER_MINUTE, 60.0)
        self._members = Window(MEMBER_SIGN_INS_PER_MINUTE, 60.0)

    def enter(self, address: str) -> Refusal | None:
        """A new page of ``address`` waits to sign in, if the room (and its address's share) has space."""
        if self.waiting >= UNIDENTIFIED_SOCKETS:
            return Refusal(_(ROOM_FULL), Close.TRY_LATER, retry_in=TRY_AGAIN_SECONDS, counted_as="busy")
        if not self._waiting.take(address):
            return Refusal(_(ADDRESS_WAITING), Close.TRY_LATER, retry_in=TRY_AGAIN_SECONDS)
        self.waiting += 1
        return None

    def leave(self, address: str) -> None:
        """A page of ``address`` left the waiting room (signed in, refused or gone)."""
        self.waiting -= 1
        self._waiting.give_back(address)

    async def sign_in(
        self, address: str, access_token: str, instance_id: str, claimed_guild: int | None
    ) -> Player | Refusal:
        """The verified player, or why not (rates first, then Discord within its budget)."""
        now = self.clock()
        if not self._addresses.allow(address, now):
            return Refusal(_(ADDRESS_SIGN_INS), Close.TOO_MANY, retry_in=60, counted_as="rate")
        if not self._tokens.allow(hashlib.sha256(access_token.encode()).digest(), now):
            return Refusal(_(MEMBER_SIGN_INS), Close.TOO_MANY, retry_in=60, counted_as="rate")
        try:
            player = await self.identity.verify(access_token, instance_id, claimed_guild)
        except DiscordUnavailableError as error:
            return Refusal(str(error), Close.TRY_LATER, retry_in=TRY_AGAIN_SECONDS, counted_as="busy")
        except SignInRefusedError as error:
            return Refusal(str(error), Close.UNAUTHORIZED, final=True, counted_as="verify")
        except VerificationError as error:  # Discord does not vouch for the page's place
            return Refusal(str(error), Close.FORBIDDEN, final=True, counted_as="verify")
        if not self._members.allow(player.user_id, self.clock()):
            return Refusal(_(MEMBER_SIGN_INS), Close.TOO_MANY, retry_in=60, counted_as="rate")
        return player

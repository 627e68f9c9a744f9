"""The Activity port's limits: sockets per address and per member, requests per socket, and the counts kept."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from dataclasses import dataclass, field

SOCKETS_PER_ADDRESS = 32
"""Open sockets from one address (a household or an office behind one address: a few members, a few tabs each)."""
UNIDENTIFIED_SOCKETS = 256
"""Sockets open at once that have not said who they are yet (each may wait a few seconds for its ``hello``)."""
SOCKETS_PER_MEMBER = 4
"""Open sockets of one member (Discord on a phone and a desktop, a reload in between)."""
REQUESTS_PER_SECOND = 12.0
"""Requests a socket may send each second, on average (a fast player makes 3 or 4 moves a second)."""
REQUEST_BURST = 24.0
"""Requests a socket may send at once after a pause."""
STRIKES = 20
"""Requests refused for their rate after which the socket is closed."""
TOKEN_EXCHANGES_PER_MINUTE = 30
"""Sign-in codes one address may exchange a minute (each page exchanges one)."""
SIGN_INS_PER_MINUTE = 30
"""Sockets one address may sign in (``hello``) a minute, counted before Discord is asked anything."""
MEMBER_SIGN_INS_PER_MINUTE = 12
"""Sign-ins a minute of one token, and of one member once Discord said who it is (4 pages, reloads)."""
UNIDENTIFIED_PER_ADDRESS = 8
"""Sockets of one address still saying who they are (the waiting room is shared fairly)."""
DISCORD_CALLS_PER_SECOND = 20.0
"""Calls the Activity may make to Discord a second, on average: well under Discord's 50 a second per bot,
which the bot's own requests share."""
DISCORD_CALL_BURST = 5.0
"""Calls the Activity may make at once after a pause."""
DISCORD_CALLS_IN_ANY_SECOND = 22
"""Calls sent in any one second, at most, however the loop's delays bunch the calls the budget spaced out."""
DISCORD_BUDGET_WAIT_SECONDS = 2.0
"""A sign-in waits at most this long for its turn at Discord; past it, it is told to try again in a moment."""
TOKEN_KEPT_SECONDS = 60.0
"""A token Discord vouched for is believed this long without asking again."""
REFUSED_TOKEN_KEPT_SECONDS = 600.0
"""A token Discord refused is refused this long without asking again."""
INSTANCE_KEPT_SECONDS = 5.0
"""An instance (its server, channel and members) is believed this long without asking again."""
REVERIFY_SECONDS = 600.0
"""A page open this long is checked again: its token still good, its member still in the instance."""
MENU_COST = 4.0
"""A ``menu`` frame costs this many requests of the page's rate (it reads the database the most)."""
QUEUED_FRAMES = 32
"""Frames waiting to be written to one page; past it the page is closed (it does not read)."""
WRITE_SECONDS = 5.0
"""A page that takes longer than this to take one frame is closed (it does not read)."""
CLOSE_SECONDS = 2.0
"""A closing page has this long to take its goodbye, and the Activity's shutdown this long in all."""
RACE_OPENS_PER_MEMBER = 3
"""Races one member may open from the page in :data:`RACE_OPEN_MINUTES` (each posts a public message)."""
RACE_OPENS_PER_CHANNEL = 6
"""Races the pages may open in one channel in :data:`RACE_OPEN_MINUTES`."""
RACE_OPEN_MINUTES = 10


class Caps:
    """Counts what is open per key (an address, a member) and refuses past a cap."""

    def __init__(self, cap: int) -> None:
        """Allow at most ``cap`` open per key."""
        self.cap = cap
        self._open: Counter[Hashable] = Counter()

    def take(self, key: Hashable) -> bool:
        """Open one more for ``key`` if it is under the cap; whether it was."""
        if self._open[key] >= self.cap:
            return False
        self._open[key] += 1
        return True

    def give_back(self, key: Hashable) -> None:
        """Close one of ``key``'s."""
        self._open[key] -= 1
        if self._open[key] <= 0:
            del self._open[key]


@dataclass
class Bucket:
    """A token bucket: ``rate`` requests a second on average, ``burst`` at once."""

    rate: float
    burst: float
    tokens: float = field(init=False)
    at: float = field(default=0.0)

    def __post_init__(self) -> None:
        self.tokens = self.burst

    def _refill(self, now: float) -> None:
        """Add what the rate gave since the last request, up to the burst."""
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now

    def allow(self, now: float, cost: float = 1.0) -> bool:
        """Take one request (worth ``cost``) at ``now`` (seconds); whether it is within the rate.

        >>> bucket = Bucket(rate=1.0, burst=2.0, at=0.0)
        >>> [bucket.allow(0.0), bucket.allow(0.0), bucket.allow(0.0), bucket.allow(1.0)]
        [True, True, False, True]
        """
        self._refill(now)
        if self.tokens < cost:
            return False
        self.tokens -= cost
        return True


class Window:
    """At most ``limit`` events per key in any ``seconds`` (the sign-in exchanges of an address)."""

    def __init__(self, limit: int, seconds: float) -> None:
        """Allow ``limit`` events per ``seconds`` per key."""
        self.limit = limit
        self.seconds = seconds
        self._events: dict[Hashable, list[float]] = {}

    def full(self, key: Hashable, now: float) -> bool:
        """Whether one more event of ``key`` at ``now`` would pass the limit (nothing is counted)."""
        return sum(at > now - self.seconds for at in self._events.get(key, ())) >= self.limit

    def allow(self, key: Hashable, now: float) -> bool:
        """Count an event of ``key`` at ``now``; whether it is within the limit."""
        recent = [at for at in self._events.get(key, []) if at > now - self.seconds]
        if len(recent) >= self.limit:
            self._events[key] = recent
            return False
        recent.append(now)
        self._events[key] = recent
        if len(self._events) > 10_000:
            self._events = {k: v for k, v in self._events.items() if v and v[-1] > now - self.seconds}
        return True


class Budget(Bucket):
    """A token bucket that may be waited on: ``rate`` calls a second on average, ``burst`` at once."""

    def reserve(self, now: float, longest: float) -> float | None:
        """Reserve one call at ``now``: the seconds to wait for its turn, or ``None`` if that is over ``longest``.

        >>> budget = Budget(rate=2.0, burst=1.0, at=0.0)
        >>> [budget.reserve(0.0, 1.0), budget.reserve(0.0, 1.0), budget.reserve(0.0, 1.0), budget.reserve(0.0, 1.0)]
        [0.0, 0.5, 1.0, None]
        """
        self._refill(now)
        wait = max(0.0, (1.0 - self.tokens) / self.rate)
        if wait > longest:
            return None
        self.tokens -= 1.0
        return wait


@dataclass
class ActivityCounts:
    """What the Activity's port has seen, read by the metrics at each scrape."""

    open_sockets: int = 0
    sockets: int = 0
    """Sockets opened since the start."""
    moves: int = 0
    """Requests that changed a game (moves, taps that played, all up, hints)."""
    refusals: int = 0
    """Requests refused (illegal moves, stale boards, rates ...)."""
    verification_failures: int = 0
    """Sockets or sign-ins Discord did not vouch for."""
    discord_calls: int = 0
    """Calls made to Discord (sign-ins, instances, code exchanges, checks again)."""
    shed: int = 0
    """Sign-ins told to try again because the Activity's budget at Discord was spent."""
    closed: Counter[str] = field(default_factory=Counter)
    """Sockets the server closed, by reason (``identify``, ``caps``, ``rate``, ``frame``, ``verify``, ``not_here``,
    ``busy``, ``slow``, ``left``)."""

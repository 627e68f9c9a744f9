"""Which servers this process owns: the shards it runs (``SHARD_COUNT``, ``SHARD_IDS``), and its name in claims.

Discord sends a server's events to shard ``(guild_id >> 22) % shard_count`` (direct
messages: shard 0), so the process running that shard is the one that hears the
server's players. Work that belongs to a server and is driven by time rather than
by a player (game clocks, dailies, podiums, races) runs only where :meth:`Ownership.owns`
says so; :meth:`Ownership.sql` is the same rule for a ``WHERE`` clause.

>>> cluster = Ownership(4, (2, 3))
>>> cluster.owns(81384788765712384), cluster.owns(None), cluster.label
(True, False, '2-3/4')
>>> parse_shard_ids("0-2,5"), Ownership().owns(81384788765712384)
((0, 1, 2, 5), True)
"""

from __future__ import annotations

import contextlib
import os
import re
import socket
from dataclasses import dataclass

MAX_SHARDS = 4096
"""More shards than any bot runs; a bigger number is surely a typo."""

_PART = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$")


def parse_shard_ids(text: str) -> tuple[int, ...]:
    """Read ``"0,1"`` or ``"0-3"`` (or both, ``"0-2,5"``) into sorted shard ids.

    :raises ValueError: quoting the part that is not a number or a range, or a repeated id.
    """
    found: list[int] = []
    for part in text.split(","):
        match = _PART.match(part)
        if match is None:
            raise ValueError(f"{part.strip()!r} is not a shard number or a range like 0-3")
        first, last = int(match[1]), int(match[2] if match[2] is not None else match[1])
        if last < first:
            raise ValueError(f"the range {part.strip()!r} runs backwards")
        if last - first >= MAX_SHARDS:
            raise ValueError(f"the range {part.strip()!r} is larger than {MAX_SHARDS} shards")
        found.extend(range(first, last + 1))
    if len(set(found)) != len(found):
        raise ValueError(f"a shard is listed twice in {text.strip()!r}")
    return tuple(sorted(found))


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard that receives a server's events (Discord's formula); 0 for direct messages."""
    return (guild_id >> 22) % max(shard_count, 1) if guild_id else 0


@dataclass(frozen=True)
class Ownership:
    """The shards of this process out of ``shard_count``; the default (1, (0,)) owns every server."""

    shard_count: int = 1
    shard_ids: tuple[int, ...] = (0,)

    def __post_init__(self) -> None:
        if self.shard_count < 1:
            raise ValueError(f"a shard count must be at least 1, not {self.shard_count}")
        if not self.shard_ids:
            raise ValueError("a process must run at least one shard")
        if bad := [shard for shard in self.shard_ids if not 0 <= shard < self.shard_count]:
            raise ValueError(f"shard {bad[0]} is not below the shard count {self.shard_count}")

    @classmethod
    def of(cls, shard_count: int | None, shard_ids: tuple[int, ...] | None) -> Ownership:
        """The ownership of a process given its settings (no count: one process, every server)."""
        if shard_count is None:
            return cls()
        return cls(shard_count, tuple(sorted(shard_ids)) if shard_ids is not None else tuple(range(shard_count)))

    def owns(self, guild_id: int | None) -> bool:
        """Whether the server's time-driven work runs here (direct messages belong to shard 0)."""
        return shard_of(guild_id, self.shard_count) in self.shard_ids

    def sql(self, column: str = "guild_id") -> tuple[str, tuple[int, ...]]:
        """The :meth:`owns` rule as a ``WHERE`` term on an integer column, with its ``?`` parameters.

        Portable SQL (SQLite and PostgreSQL): ``((guild_id >> 22) % ?) IN (?, ...)``; a guild id of 0
        (direct messages) lands on shard 0, as in :func:`shard_of`.
        """
        if not re.fullmatch(r"[a-z_][a-z0-9_.]*", column):
            raise ValueError(f"not a column name: {column!r}")
        marks = ", ".join("?" for _ in self.shard_ids)
        return f"(({column} >> 22) % ?) IN ({marks})", (self.shard_count, *self.shard_ids)

    @property
    def label(self) -> str:
        """A short stable name of this shard set, e.g. ``0-1/4`` or ``0,2/4`` (names its database claims)."""
        return f"{shard_runs(self.shard_ids)}/{self.shard_count}"


def shard_runs(shard_ids: tuple[int, ...] | list[int]) -> str:
    """Shard ids written as :func:`parse_shard_ids` reads them, in runs: ``(0, 1, 2, 5)`` is ``0-2,5``."""
    runs: list[str] = []
    ids = sorted(shard_ids)
    start = previous = ids[0]
    for shard in [*ids[1:], None]:
        if shard is not None and shard == previous + 1:
            previous = shard
            continue
        runs.append(str(start) if start == previous else f"{start}-{previous}")
        if shard is not None:
            start = previous = shard
    return ",".join(runs)


ONE_PROCESS = Ownership()
"""A process that is the whole bot: it owns every server (the default everywhere)."""

_PREFIX = re.compile(r"(?:/[A-Za-z0-9_-]+)+")
MAX_PREFIX = 64
"""The longest path prefix a process's Activity may have."""
ACTIVITY_PATHS = frozenset({"assets", "api", "ws"})
"""The first path segments of the Activity's own addresses (``bot/activity/server.py``): no prefix may be one."""


@dataclass(frozen=True)
class ActivityRoutes:
    """Which path prefix reaches the process running each shard's Activity pages (``ACTIVITY_ROUTES``).

    In a cluster every process serves the Activity at ``/`` and under its own prefix, and the operator's
    front sends each prefix to its process; a page that reached a process not running its server is told
    the prefix of the one that does.

    >>> routes = ActivityRoutes.parse("0-1=/c0, 2-3=/c1", 4)
    >>> routes.prefix_of(81384788765712384), routes.own(Ownership(4, (0, 1)))
    ('/c1', '/c0')
    """

    prefixes: tuple[str, ...]
    """The prefix of each shard, by shard number."""

    @classmethod
    def parse(cls, text: str, shard_count: int) -> ActivityRoutes:
        """Read ``"0-1=/c0,2-3=/c1"`` (shards as :func:`parse_shard_ids` reads them, ``=``, a path prefix).

        :raises ValueError: quoting the route, shard or prefix that is wrong: every shard of
            ``shard_count`` must be given exactly one prefix.
        """
        by_shard: dict[int, str] = {}
        for shards, prefix in _routes_of(text):
            check_prefix(prefix)
            for shard in parse_shard_ids(shards):
                if shard >= shard_count:
                    raise ValueError(
                        f"shard {shard} is not below SHARD_COUNT={shard_count} (shards are numbered from 0)"
                    )
                if shard in by_shard:
                    raise ValueError(
                        f"shard {shard} is routed twice ({by_shard[shard]} and {prefix}): give it one prefix"
                    )
                by_shard[shard] = prefix
        if missing := [shard for shard in range(shard_count) if shard not in by_shard]:
            plural = "s" if len(missing) > 1 else ""
            raise ValueError(
                f"shard{plural} {shard_runs(missing)} of the {shard_count} not routed: give each shard a prefix"
            )
        return cls(tuple(by_shard[shard] for shard in range(shard_count)))

    def prefix_of(self, guild_id: int | None) -> str:
        """The prefix of the process running a server's shard (direct messages: shard 0's)."""
        return self.prefixes[shard_of(guild_id, len(self.prefixes))]

    def own(self, ownership: Ownership) -> str:
        """The prefix of the process running ``ownership``'s shards.

        :raises ValueError: when its shards are routed to several prefixes (a process serves under one).
        """
        mine = sorted({self.prefixes[shard] for shard in ownership.shard_ids if shard < len(self.prefixes)})
        if len(mine) != 1:
            shards = shard_runs(ownership.shard_ids)
            raise ValueError(
                f"this process's shards {shards} are routed to {' and '.join(mine) or 'no prefix'}: "
                "a process serves under one prefix, so route all of its shards there"
            )
        return mine[0]


def check_prefix(prefix: str) -> str:
    """``prefix`` if it can be a process's path prefix, like ``/c0``; :raises ValueError: saying why not."""
    if not _PREFIX.fullmatch(prefix) or len(prefix) > MAX_PREFIX:
        raise ValueError(
            f"{prefix!r} is not a path prefix like /c0 "
            f"(a / then letters, digits, - or _, at most {MAX_PREFIX} characters)"
        )
    if (first := prefix.split("/")[1]) in ACTIVITY_PATHS:
        raise ValueError(f"the prefix {prefix!r} starts with /{first}, a path of the Activity's own: choose another")
    return prefix


def _routes_of(text: str) -> list[tuple[str, str]]:
    """Split ``"0,2=/a,1=/b"`` into ``[("0,2", "/a"), ("1", "/b")]`` (a route's shards may hold commas)."""
    routes: list[tuple[str, str]] = []
    shards: list[str] = []
    for piece in text.split(","):
        left, equals, prefix = piece.partition("=")
        shards.append(left)
        if equals:
            routes.append((",".join(shards), prefix.strip()))
            shards = []
    if leftover := ",".join(shards).strip(" ,"):
        raise ValueError(f"{leftover!r} has no prefix: write shards=prefix, e.g. 0-1=/c0,2-3=/c1")
    if not routes:
        raise ValueError("no route: write shards=prefix, e.g. 0-1=/c0,2-3=/c1")
    return routes


def this_machine() -> str:
    """This host's name, with its process-id namespace where the system has one (each container has its own).

    Two processes with the same machine name see each other's process ids.
    """
    namespace = ""
    with contextlib.suppress(OSError):
        namespace = ":" + "".join(c for c in os.readlink("/proc/self/ns/pid") if c.isdigit())
    return f"{socket.gethostname()}{namespace}".replace(" ", "_")


def is_running(pid: int) -> bool:
    """Whether a process with id ``pid`` runs on this machine (one owned by another user counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@dataclass(frozen=True)
class Holder:
    """The name a process gives its claims: its shard set, its machine and its process id.

    Two processes never share one (even two that were given the same ``SHARD_IDS``), and a process
    restarted on the same machine can tell its previous run's claims (:meth:`is_previous_run_of`).

    >>> me, before = Holder("0-1/4", "box", 200), Holder("0-1/4", "box", 100)
    >>> Holder.parse(me.name) == me, Holder.parse("0-1/4"), before.is_previous_run_of(me, running=False)
    (True, None, True)
    """

    label: str
    machine: str
    pid: int

    @classmethod
    def of_this_process(cls, ownership: Ownership) -> Holder:
        """The holder name of this process running ``ownership``'s shards."""
        return cls(ownership.label, this_machine(), os.getpid())

    @property
    def name(self) -> str:
        """The text stored in ``announcements.claimed_by``, e.g. ``0-1/4 host:4026531836 1234``."""
        return f"{self.label} {self.machine} {self.pid}"

    @classmethod
    def parse(cls, name: str) -> Holder | None:
        """The holder a stored name names (``None``: not one of these names)."""
        parts = name.split(" ")
        if len(parts) != 3 or not parts[2].isdigit():
            return None
        return cls(parts[0], parts[1], int(parts[2]))

    def is_previous_run_of(self, me: Holder, *, running: bool | None = None) -> bool:
        """Whether this holder is an earlier, stopped run of ``me``: same shards, same machine, process gone.

        ``running`` says whether this holder's process still runs (found out on this machine if not given).
        """
        if (self.label, self.machine) != (me.label, me.machine) or self.pid == me.pid:
            return False
        return not (is_running(self.pid) if running is None else running)

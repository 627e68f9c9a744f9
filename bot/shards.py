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
        runs: list[str] = []
        ids = sorted(self.shard_ids)
        start = previous = ids[0]
        for shard in [*ids[1:], None]:
            if shard is not None and shard == previous + 1:
                previous = shard
                continue
            runs.append(str(start) if start == previous else f"{start}-{previous}")
            if shard is not None:
                start = previous = shard
        return f"{','.join(runs)}/{self.shard_count}"


ONE_PROCESS = Ownership()
"""A process that is the whole bot: it owns every server (the default everywhere)."""


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

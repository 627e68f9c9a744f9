"""Which servers this process owns: the shards it runs (``SHARD_COUNT``, ``SHARD_IDS``).

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

import re
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

"""The ``shared_replays`` table (V013): each game's one public replay, claimed before it is posted.

A claim is a row without a message id; it is taken with one conditional upsert, so of two clicks
(or two processes) only one may post. A claim older than :data:`LEASE` was abandoned (its process
died while posting) and may be taken over. Times are unix seconds passed in from Python.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage import Database

LEASE = 15 * 60.0
"""Seconds a claim holds: an interaction token's life, after which its post can no longer be made."""


@dataclass(frozen=True)
class SharedReplay:
    """A game's public replay: posted (with its message) or being posted."""

    game_id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    claimed_at: float

    @property
    def link(self) -> str | None:
        """The post's Discord link (``None`` while it is being posted).

        >>> SharedReplay(7, 0, 2, 3, 0.0).link
        'https://discord.com/channels/@me/2/3'
        """
        if self.message_id is None:
            return None
        return f"https://discord.com/channels/{self.guild_id or '@me'}/{self.channel_id}/{self.message_id}"


async def claim_replay(
    db: Database, game_id: int, *, guild_id: int, channel_id: int, now: float, lease: float = LEASE
) -> bool:
    """Claim the public replay of ``game_id`` for a post in ``channel_id`` (``False``: posted, or being posted)."""
    changed = await db.execute(
        "INSERT INTO shared_replays (game_id, guild_id, channel_id, claimed_at) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (game_id) DO UPDATE SET guild_id = excluded.guild_id, channel_id = excluded.channel_id,"
        " claimed_at = excluded.claimed_at WHERE shared_replays.message_id IS NULL AND shared_replays.claimed_at <= ?",
        (game_id, guild_id, channel_id, now, now - lease),
    )
    return changed.rowcount == 1


async def shared_replay(db: Database, game_id: int) -> SharedReplay | None:
    """The public replay of ``game_id``, posted or claimed, or ``None``."""
    row = await db.fetchone(
        "SELECT game_id, guild_id, channel_id, message_id, claimed_at FROM shared_replays WHERE game_id = ?",
        (game_id,),
    )
    if row is None:
        return None
    message = row["message_id"]
    return SharedReplay(
        int(row["game_id"]),
        int(row["guild_id"]),
        int(row["channel_id"]),
        None if message is None else int(message),
        float(row["claimed_at"]),
    )


async def replay_posted(db: Database, game_id: int, message_id: int) -> None:
    """Record the message the claimed replay of ``game_id`` was posted as."""
    await db.execute("UPDATE shared_replays SET message_id = ? WHERE game_id = ?", (message_id, game_id))


async def release_replay(db: Database, game_id: int) -> None:
    """Give back a claim whose post failed (a posted replay stays)."""
    await db.execute("DELETE FROM shared_replays WHERE game_id = ? AND message_id IS NULL", (game_id,))

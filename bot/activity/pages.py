"""The open pages of the Activity, in one registry: every page, and the signed-in ones by member and by channel."""

from __future__ import annotations

from collections.abc import Iterator

from bot.activity.page import Socket

Key = tuple[int, int]


class Pages:
    """Every open page; the signed-in ones by member (server, member) and by channel (server, channel)."""

    def __init__(self) -> None:
        self._all: set[Socket] = set()
        self._members: dict[Key, set[Socket]] = {}
        self._channels: dict[Key, set[Socket]] = {}

    def __iter__(self) -> Iterator[Socket]:
        """Every open page (a copy: pages may come and go meanwhile)."""
        return iter(list(self._all))

    def __len__(self) -> int:
        """How many pages are open."""
        return len(self._all)

    def open(self, page: Socket) -> None:
        """A page connected (not signed in yet)."""
        self._all.add(page)

    def seat(self, page: Socket) -> None:
        """A page signed in: index it by its member and its channel."""
        assert page.seat is not None
        player = page.seat.player
        self._members.setdefault((player.guild_id, player.user_id), set()).add(page)
        self._channels.setdefault((player.guild_id, player.channel_id), set()).add(page)

    def close(self, page: Socket) -> None:
        """A page went: forget it everywhere."""
        self._all.discard(page)
        if page.seat is None:
            return
        player = page.seat.player
        for index, key in (
            (self._members, (player.guild_id, player.user_id)),
            (self._channels, (player.guild_id, player.channel_id)),
        ):
            pages = index.get(key)
            if pages is not None:
                pages.discard(page)
                if not pages:
                    del index[key]

    def of_member(self, guild_id: int, user_id: int) -> list[Socket]:
        """The signed-in pages of a member in a server (0: DMs)."""
        return list(self._members.get((guild_id, user_id), ()))

    def of_channel(self, guild_id: int, channel_id: int) -> list[Socket]:
        """The signed-in pages of a channel."""
        return list(self._channels.get((guild_id, channel_id), ()))

    def of_server(self, guild_id: int) -> list[Socket]:
        """The signed-in pages of a server."""
        return [page for page in self._all if page.seat is not None and page.seat.player.guild_id == guild_id]

    def has_member(self, guild_id: int, user_id: int) -> bool:
        """Whether the member has a page open in the server."""
        return (guild_id, user_id) in self._members

    def has_channel(self, guild_id: int, channel_id: int) -> bool:
        """Whether the channel has a page open."""
        return (guild_id, channel_id) in self._channels

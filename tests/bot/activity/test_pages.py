"""The one registry of open pages: by member and by channel, each page forgotten everywhere once it goes."""

from __future__ import annotations

from typing import Any

from bot.activity.page import Socket
from bot.activity.pages import Pages
from bot.activity.seat import Seat
from bot.activity.verified import Player


def page(user_id: int, channel_id: int, guild_id: int = 1) -> Socket:
    """A signed-in page (no connection: the registry never writes to it)."""
    ws: Any = None
    socket = Socket(ws, "127.0.0.1")
    socket.seat = Seat(Player(user_id, f"member {user_id}", guild_id, channel_id, "i-1"), ranked=True)
    return socket


def test_signed_in_pages_are_found_by_member_and_by_channel_and_forgotten_when_they_go() -> None:
    pages = Pages()
    ann_here, ann_there, bob = page(21, 100), page(21, 200), page(22, 100)
    waiting = Socket(None, "127.0.0.1")  # type: ignore[arg-type]
    for each in (ann_here, ann_there, bob, waiting):
        pages.open(each)
    for each in (ann_here, ann_there, bob):
        pages.seat(each)
    assert len(pages) == 4 and set(pages.of_member(1, 21)) == {ann_here, ann_there}
    assert set(pages.of_channel(1, 100)) == {ann_here, bob} and set(pages.of_server(1)) == {ann_here, ann_there, bob}
    assert pages.of_server(2) == [] and not pages.has_member(2, 21)
    for each in (ann_here, ann_there, waiting):
        pages.close(each)
    assert list(pages) == [bob] and not pages.has_member(1, 21) and not pages.has_channel(1, 200)
    assert pages.of_channel(1, 100) == [bob]

"""The one table from a page's frame to a desk's method, each call inside :class:`~bot.activity.refusals.refusals`.

The three desks are peers: the game desk (a page's own games), the race desk and the challenge desk; none
imports another. Each adds its own part of the MENU, and each answers its own frames; what a desk's call
raises in a service's words becomes one ``refused`` frame, in one place. An answer is said in the language the
socket's task speaks (its player's); a menu pushed from another task, in its page's.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from functools import partial
from typing import Any, Protocol, cast

from bot.activity.challenges import ChallengeDesk
from bot.activity.game import GameDesk
from bot.activity.limits import ActivityCounts
from bot.activity.outgoing import Choose, GameOut, Menu, MenuFrame, MenuPart, Outgoing, Pong
from bot.activity.page import Socket
from bot.activity.page_words import speech_of
from bot.activity.pages import Pages
from bot.activity.protocol import (
    AllUpAsk,
    ChallengeAnswer,
    ChallengePlay,
    Drop,
    Hello,
    HintAsk,
    Incoming,
    MenuAsk,
    MoveAsk,
    Ping,
    PlayFrame,
    RaceCancel,
    RaceJoin,
    RaceLeave,
    RaceOpen,
    RaceStart,
    Resume,
    Start,
    Tap,
)
from bot.activity.races import RaceDesk
from bot.activity.refusals import AlreadySignedInError, refusals
from bot.activity.seat import Seat
from languages import speaking_language

Route = Callable[[Socket, Any], Awaitable[Outgoing]]
"""A desk's answer to one frame of a page: the frame it is sent back."""


class Desk(Protocol):
    """What every desk does besides its frames: its part of the menu, and its close."""

    async def menu(self, seat: Seat) -> MenuPart:
        """This desk's part of the MENU."""

    async def close(self) -> None:
        """Stop its pushes."""


class Routes:
    """Answers a signed-in page's frames through the desks, and builds the MENU from their parts."""

    def __init__(
        self, pages: Pages, game: GameDesk, races: RaceDesk, challenges: ChallengeDesk, counts: ActivityCounts
    ) -> None:
        """Route frames to ``game``, ``races`` and ``challenges``; count in ``counts``; menus pushed to ``pages``."""
        self.pages = pages
        self.game = game
        self.races = races
        self.challenges = challenges
        self.counts = counts
        self.desks: tuple[Desk, ...] = (game, challenges, races)
        """In the MENU's order of parts."""
        self.table: dict[type[Any], Route] = {
            Ping: self._pong,
            Hello: self._hello_again,
            MenuAsk: self._menu,
            Start: game.start,
            Resume: game.resume,
            MoveAsk: self._play,
            Drop: self._play,
            Tap: self._play,
            AllUpAsk: self._play,
            HintAsk: self._play,
            ChallengeAnswer: self._challenge_answer,
            ChallengePlay: challenges.play,
            RaceOpen: races.open,
            RaceJoin: races.act,
            RaceLeave: races.act,
            RaceStart: races.act,
            RaceCancel: races.act,
        }
        challenges.watch(self._menus)

    async def close(self) -> None:
        """Stop every desk's pushes."""
        for desk in self.desks:
            await desk.close()

    async def answer(self, page: Socket, frame: Incoming) -> None:
        """Answer one frame of a signed-in page: its desk's answer, or its refusal (with the board it named)."""
        route = self.table[type(frame)]
        ref = getattr(frame, "ref", None)
        board = partial(self.game.board, page, frame)  # read only if refused
        async with refusals(page, ref, self.counts, board, what=type(frame).__name__):
            await page.send(await route(page, frame))

    async def menu(self, seat: Seat) -> Menu:
        """The MENU: each desk's part."""
        menu: MenuPart = {}
        for desk in self.desks:
            menu.update(await desk.menu(seat))
        return cast(Menu, menu)

    async def _pong(self, page: Socket, frame: Ping) -> Pong:
        """A ping: the socket stays open."""
        return {"type": "pong"}

    async def _hello_again(self, page: Socket, frame: Hello) -> Outgoing:
        """A second ``hello``: refused (the page is signed in already)."""
        raise AlreadySignedInError()

    async def _menu(self, page: Socket, frame: MenuAsk | ChallengeAnswer) -> MenuFrame:
        """The MENU, answering ``frame`` (with the page's words, if its player's language changed since)."""
        assert page.seat is not None
        answer: MenuFrame = {"type": "menu", "ref": frame.ref, "menu": await self.menu(page.seat)}
        if page.told != page.language.code:
            speech = speech_of(page.language)
            answer["locale"], answer["words"] = speech["locale"], speech["words"]
            answer["ordinals"] = speech["ordinals"]
            page.told = page.language.code
        return answer

    async def _play(self, page: Socket, frame: PlayFrame) -> GameOut | Choose:
        """A drop, a tap, all up or a hint; a GAME back is a move counted."""
        answer = await self.game.play(page, frame)
        if answer["type"] == "game":
            self.counts.moves += 1
        return answer

    async def _challenge_answer(self, page: Socket, frame: ChallengeAnswer) -> MenuFrame:
        """A challenge accepted or declined: the menu after it."""
        await self.challenges.answer(page, frame)
        return await self._menu(page, frame)

    async def _menus(self, guild_id: int, user_ids: Sequence[int]) -> None:
        """A challenge changed: send its members' open pages in that server their menu again (``ref`` ``null``)."""
        for user_id in user_ids:
            for page in self.pages.of_member(guild_id, user_id):
                if page.seat is not None:
                    with speaking_language(page.language):
                        menu = await self.menu(page.seat)
                    await page.send({"type": "menu", "ref": None, "menu": menu})

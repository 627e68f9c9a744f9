"""The door of a socket: its ``hello`` read and signed in, its seat taken, and who may stay once in.

A page says who it is in its first frame; :class:`~bot.activity.sign_in.SignIns` counts it and asks Discord.
A verified player is seated only where this process runs their server and while the member has few pages
open; then the page joins the registry and is welcomed with the menu. While it stays, Discord is asked
again now and then (:data:`~bot.activity.limits.REVERIFY_SECONDS`), and a member or server the bot lost
has its pages closed.

Each page is spoken to in its player's language (:class:`~bot.speakers.Speakers`: their choice, else the locale
Discord reports for them, else the one their page's client reports, if it is one of Discord's); until it is
signed in, in the one its browser asks for. The socket's task speaks it from the sign-in on, so every answer
it builds is said in it; what other tasks send a page (a goodbye) is said in the page's language there.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from aiohttp import WSMsgType

from bot.activity.identity import DiscordIdentity
from bot.activity.limits import REVERIFY_SECONDS, SOCKETS_PER_MEMBER, ActivityCounts, Caps
from bot.activity.outgoing import Menu, Person
from bot.activity.page import Socket
from bot.activity.page_words import known_locale, speech_of
from bot.activity.pages import Pages
from bot.activity.protocol import IDENTIFY_SECONDS, BadFrameError, Close, Hello, parse_frame
from bot.activity.seat import Seat
from bot.activity.sign_in import Refusal, SignIns
from bot.activity.verified import DiscordUnavailableError, Player, SignInRefusedError, VerificationError
from bot.speakers import Speakers
from languages import Language, for_discord, speaking_language
from solitaire.speech import N_, _, speak

REVERIFY_EVERY = 60.0
"""How often the open pages are looked over for one due to be checked again."""
BOT_LEFT = N_("the bot left this server: open the Activity again")


@dataclass(frozen=True)
class Where:
    """What the server asks of the bot about a server: does this process run it, is the bot in it."""

    owns: Callable[[int], bool]
    """This process runs the server's games (a shard cluster splits the servers)."""
    has_bot: Callable[[int], bool]
    """The bot is a member of the server (its games rank there)."""
    name_of: Callable[[int, int], str | None] = lambda guild_id, user_id: None
    """A member's name as the server shows it (``None``: not known here): how a page names other players."""
    bot_may: Callable[[int, int, str], bool] = lambda guild_id, channel_id, flag: True
    """Whether the bot holds a permission (a ``discord.Permissions`` flag) in a channel (``True``: not known here)."""
    route_of: Callable[[int], str | None] = lambda guild_id: None
    """The path prefix of the process that runs the server (``ACTIVITY_ROUTES``; ``None``: no routes)."""


class Door:
    """Signs sockets in and seats them; checks the open pages again, and closes those that may not stay."""

    def __init__(
        self,
        identity: DiscordIdentity,
        where: Where,
        pages: Pages,
        menu: Callable[[Seat], Awaitable[Menu]],
        *,
        speakers: Speakers,
        prefix: str,
        clock: Callable[[], float],
    ) -> None:
        """Verify with ``identity``; ``where`` knows the servers; seated pages join ``pages``, welcomed with ``menu``
        in the language ``speakers`` says.

        ``prefix``: this process's own path (never a route to itself); ``clock`` (monotonic seconds) times the checks.
        """
        self.identity = identity
        self.speakers = speakers
        self.where = where
        self.pages = pages
        self.menu = menu
        self.prefix = prefix
        self.clock = clock
        self.counts: ActivityCounts = identity.counts
        self.sign_ins = SignIns(identity, clock)
        self._by_member = Caps(SOCKETS_PER_MEMBER)

    async def identify(self, socket: Socket) -> bool:
        """Wait in the room for the ``hello``, and sign it in; whether the socket may play."""
        refusal = self.sign_ins.enter(socket.address)
        if refusal is not None:
            await self._refuse(socket, refusal)
            return False
        try:
            said = await self._hello(socket)
        finally:
            self.sign_ins.leave(socket.address)
        if said is None:
            return False
        outcome, hint = said
        if isinstance(outcome, Refusal):
            await self._refuse(socket, outcome)
            return False
        return await self._seat(socket, outcome, hint)

    async def _hello(self, socket: Socket) -> tuple[Player | Refusal, str | None] | None:
        """The page's ``hello`` signed in (a player, or a refusal) and the Discord locale it reported (``None``:
        none, or not one of Discord's); ``None``: the page was closed already."""
        try:
            message = await socket.ws.receive(timeout=IDENTIFY_SECONDS)
        except TimeoutError:
            self.counts.closed["identify"] += 1
            await socket.bye(Close.IDENTIFY_TIMEOUT, _("the page did not say who it is in time"))
            return None
        if message.type is not WSMsgType.TEXT:
            if message.type is WSMsgType.BINARY:
                self.counts.closed["frame"] += 1
                await socket.bye(Close.BAD_FRAME, "frames are JSON text", final=True)
            return None
        try:
            hello = parse_frame(message.data)
        except BadFrameError as error:
            self.counts.closed["frame"] += 1
            await socket.bye(Close.BAD_FRAME, str(error), final=True)
            return None
        if not isinstance(hello, Hello):
            self.counts.closed["frame"] += 1
            await socket.bye(Close.BAD_FRAME, "the first frame must be hello", final=True)
            return None
        socket.access_token = hello.access_token
        hint = known_locale(hello.locale)
        if hint is not None:  # a sign-in refused is said in the language the client asks for
            _speak(socket, for_discord(hint))
        claimed = int(hello.guild_id) if hello.guild_id else None
        return await self.sign_ins.sign_in(socket.address, hello.access_token, hello.instance_id, claimed), hint

    async def _refuse(self, socket: Socket, refusal: Refusal) -> None:
        """Close a page that may not sign in, saying why and whether (or when) to come back."""
        if refusal.counted_as == "verify":
            self.counts.verification_failures += 1
        self.counts.closed[refusal.counted_as] += 1
        await socket.bye(refusal.code, refusal.reason, final=refusal.final, retry_in=refusal.retry_in)

    async def _seat(self, socket: Socket, player: Player, hint: str | None) -> bool:
        """Seat a verified player: this process must run their server, and each member has a few sockets.

        From here on the socket's task speaks the player's language: their choice, else the locale Discord says
        is theirs, else ``hint`` (their client's).
        """
        _speak(socket, await self.speakers.member(player.user_id, player.locale or hint))
        if player.guild_id and not self.where.owns(player.guild_id):
            self.counts.closed["not_here"] += 1
            route = self.where.route_of(player.guild_id)
            words = _("this server's games are run by another process of the bot")
            await socket.bye(Close.NOT_HERE, words, route=route if route != self.prefix else None)
            return False
        if not self._by_member.take((player.guild_id, player.user_id)):
            self.counts.closed["caps"] += 1
            await socket.bye(Close.TOO_MANY, _("you have too many Activity pages open: close one"), final=True)
            return False
        ranked = not player.guild_id or self.where.has_bot(player.guild_id)
        socket.seat = Seat(player, ranked)
        socket.verified_at = self.clock()
        self.pages.seat(socket)
        menu = await self.menu(socket.seat)
        user: Person = {"id": str(player.user_id), "name": player.name}
        speech = speech_of(socket.language)
        socket.told = socket.language.code
        await socket.welcome(
            {
                "type": "welcome",
                "user": user,
                "guild_id": str(player.guild_id),
                "practice_only": not ranked,
                "menu": menu,
                "locale": speech["locale"],
                "words": speech["words"],
                "ordinals": speech["ordinals"],
            }
        )
        return True

    async def listen_again(self, socket: Socket) -> None:
        """Ask again which language a signed-in page's player reads (they may have chosen another since): the
        socket's task speaks it from here on, and the page is sent its words with its next menu."""
        if socket.seat is not None:
            language = await self.speakers.member(socket.seat.player.user_id)
            if language.code != socket.language.code:
                _speak(socket, language)

    def leave(self, socket: Socket) -> None:
        """A seated page went: its member may open another."""
        if socket.key is not None:
            self._by_member.give_back(socket.key)

    async def member_gone(self, guild_id: int, user_id: int, reason: str) -> None:
        """Close the pages of a member who is no longer in the server (banned, removed), saying ``reason`` (a
        sentence marked with ``N_``: said in each page's language)."""
        pages = self.pages.of_member(guild_id, user_id)
        self.counts.closed["left"] += len(pages)
        await asyncio.gather(*(socket.bye(Close.FORBIDDEN, said(socket, reason), final=True) for socket in pages))

    async def server_gone(self, guild_id: int) -> None:
        """Close every page of a server the bot left: its games are not ranked there any more."""
        pages = self.pages.of_server(guild_id)
        self.counts.closed["left"] += len(pages)
        await asyncio.gather(*(socket.bye(Close.FORBIDDEN, said(socket, BOT_LEFT), final=True) for socket in pages))

    async def reverify_due(self) -> None:
        """Ask Discord again about every page open longer than :data:`REVERIFY_SECONDS` since it last vouched.

        A page whose token Discord no longer takes, or whose member left the instance, is closed; while
        Discord cannot be asked (down, or the budget spent) the pages stay and are asked at the next round.
        """
        due = [
            socket
            for socket in self.pages
            if socket.seat is not None and socket.verified_at + REVERIFY_SECONDS <= self.clock()
        ]
        refused: list[tuple[Socket, Refusal]] = []
        for socket in due:
            assert socket.seat is not None
            player = socket.seat.player
            try:
                with speaking_language(socket.language):  # a refusal is said in the page's language
                    await self.identity.verify(socket.access_token, player.instance_id, player.guild_id or None)
            except DiscordUnavailableError:
                break
            except SignInRefusedError as error:
                refused.append((socket, Refusal(str(error), Close.UNAUTHORIZED, final=True, counted_as="left")))
            except VerificationError as error:
                refused.append((socket, Refusal(str(error), Close.FORBIDDEN, final=True, counted_as="left")))
            else:
                socket.verified_at = self.clock()
        await asyncio.gather(*(self._refuse(socket, refusal) for socket, refusal in refused))

    async def reverify_forever(self) -> None:
        """Look the pages over every :data:`REVERIFY_EVERY` seconds."""
        while True:
            await asyncio.sleep(REVERIFY_EVERY)
            await self.reverify_due()


def _speak(socket: Socket, language: Language) -> None:
    """Speak to ``socket`` in ``language``: its own task says everything in it from here on."""
    socket.language = language
    speak(language.catalogue())


def said(socket: Socket, sentence: str) -> str:
    """``sentence`` (marked with ``N_``) said in the page's language, from any task."""
    with speaking_language(socket.language):
        return _(sentence)

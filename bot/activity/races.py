"""The race desk: the race frames turned into calls of the race service, and races pushed to the pages.

Like the other desks, it decides nothing: opening, joining, leaving, starting and cancelling are the race
service's (its refusals in its own words), the channel rule is the competitions'
(:func:`~bot.compete.channels.check_channel_permissions`). It pushes a RACE to the signed-in pages of a race's
channel whenever the service says the race changed (on any surface: a page, a button of the race message, a
move, the clock), at most once per :data:`PUSH_INTERVAL` per race and only when what it shows changed. A page
whose player races is a racer; any other page of the channel watches.

Nobody is sent a board but its racer, and only once the race service says the race started: a RACE holds
counts (score, cards up, time used, moves), never a card. A push is said in each page's language: built once
per language among the pages it goes to.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.activity.frames import game_frame
from bot.activity.limits import RACE_OPEN_MINUTES, RACE_OPENS_PER_CHANNEL, RACE_OPENS_PER_MEMBER, Window
from bot.activity.outgoing import MenuPart, Race, RaceOut, game_out
from bot.activity.page import Socket
from bot.activity.pages import Pages
from bot.activity.protocol import RaceCancel, RaceJoin, RaceLeave, RaceOpen, RaceStart
from bot.activity.race_cards import RaceCards, race_texts
from bot.activity.seat import Seat
from bot.activity.verified import Player
from bot.background import BackgroundTasks
from bot.coalesce import Coalescer
from bot.compete.channels import check_channel_permissions
from bot.compete.race import RaceError, RaceService, RaceSnapshot
from bot.errors import BotError, NotInServerError
from bot.play.session import Clock, Sleep
from languages import Language, speaking_language
from solitaire.speech import N_, _, n_

PUSH_INTERVAL = 1.0
"""At most one RACE push per race in this many seconds (moves between are coalesced into the next)."""
NO_MESSAGE = N_(
    "The race is open here, but its message could not be posted in the channel: members outside the Activity "
    "cannot join it with the message's buttons."
)


class OtherChannelRaceError(RaceError):
    """A page named a race of another channel (or server) than its instance's."""

    def __init__(self) -> None:
        super().__init__(_("That race is run in another channel: open the Activity there to take part."))


class TooManyRaceOpensError(RaceError):
    """A page opened races faster than a channel's message rate should carry (each posts a public message)."""

    def __init__(self, *, by_member: bool) -> None:
        if by_member:
            words = n_(
                "Too many races were opened by you in the last {count} minute: join an open one, or try again later.",
                "Too many races were opened by you in the last {count} minutes: join an open one, or try again later.",
                RACE_OPEN_MINUTES,
            )
        else:
            words = n_(
                "Too many races were opened in this channel in the last {count} minute: join an open one, "
                "or try again later.",
                "Too many races were opened in this channel in the last {count} minutes: join an open one, "
                "or try again later.",
                RACE_OPEN_MINUTES,
            )
        super().__init__(words)


class NotRankedHereError(BotError):
    """A race asked for where the bot is not in the server: races are ranked, so they are not run here."""

    def __init__(self) -> None:
        super().__init__(
            _(
                "The bot is not in this server, so races are not run here (they are ranked): "
                "ask an admin to add the bot."
            )
        )


@dataclass
class _Pushes:
    """One race's pushes: where it runs, what was last pushed and when."""

    where: tuple[int, int] | None = None
    racers: tuple[int, ...] = ()
    last: float | None = None
    shown: object = None
    placed: dict[int, int] = field(default_factory=dict)
    """Cards up per racer as last seen running (the results carry no counts)."""


class RaceDesk:
    """The race frames of the Activity's pages, and the pushes of races to the pages of their channel."""

    def __init__(
        self,
        races: RaceService,
        pages: Pages,
        *,
        now: Clock,
        name_of: Callable[[int, int], str | None],
        bot_may: Callable[[int, int, str], bool],
        sleep: Sleep = asyncio.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """Run races on ``races``, push to ``pages``; ``name_of`` names members, ``bot_may`` says the bot's
        permissions in a channel. ``clock`` (monotonic seconds) times the races a member and a channel may open.
        """
        self.races = races
        self.pages = pages
        self.clock = clock
        self._opens_by_member = Window(RACE_OPENS_PER_MEMBER, RACE_OPEN_MINUTES * 60.0)
        self._opens_by_channel = Window(RACE_OPENS_PER_CHANNEL, RACE_OPEN_MINUTES * 60.0)
        self.now = now
        self.cards = RaceCards(pages, now=now, name_of=name_of)
        self.bot_may = bot_may
        self.pushes_sent = 0
        """RACE frames pushed (for benchmarks)."""
        self._pushes: dict[int, _Pushes] = {}
        self._tasks = BackgroundTasks("activity-race")
        self._updates: Coalescer[int] = Coalescer(
            self._push,
            interval=PUSH_INTERVAL,
            now=lambda: self.now(),
            sleep=sleep,
            tasks=self._tasks,
            name="activity-race",
            since=lambda race_id: state.last if (state := self._pushes.get(race_id)) is not None else None,
            settled=self._settled,
        )
        races.add_listener(self.changed)
        races.add_start_listener(self.started)

    async def close(self) -> None:
        """Stop listening and pushing."""
        self.races.remove_listener(self.changed)
        self.races.remove_listener(self.started)
        await self._tasks.cancel_all()

    async def menu(self, seat: Seat) -> MenuPart:
        """The MENU's ``races``: the open races of the page's channel."""
        player = seat.player
        shown = []
        for race_id in self.races.open_in(player.guild_id, player.channel_id):
            try:
                snapshot = await self.races.snapshot(race_id)
            except RaceError:
                continue
            shown.append(self._race(snapshot, player.user_id))
        return {"races": shown}

    # -- the page's frames ------------------------------------------------------------------------
    async def open(self, page: Socket, frame: RaceOpen) -> RaceOut:
        """Open a lobby in the page's channel and post its public message there (a few a member and a channel)."""
        player = _ranked(page)
        check_channel_permissions("race", lambda flag: self.bot_may(player.guild_id, player.channel_id, flag))
        self._count_open(player)
        snapshot = await self.races.open(
            guild_id=player.guild_id,
            channel_id=player.channel_id,
            host_id=player.user_id,
            variant=frame.variant,
            capacity=frame.racers,
        )
        words = None
        if await self.races.post(snapshot.race.id):
            snapshot = await self.races.snapshot(snapshot.race.id)
        else:
            words = _(NO_MESSAGE)
        return {"type": "race", "ref": frame.ref, "race": self._race(snapshot, player.user_id), "words": words}

    def _count_open(self, player: Player) -> None:
        """Count a race opened by ``player``; :raises TooManyRaceOpensError: past the member's or channel's share."""
        now, member, channel = self.clock(), (player.guild_id, player.user_id), (player.guild_id, player.channel_id)
        if self._opens_by_member.full(member, now):
            raise TooManyRaceOpensError(by_member=True)
        if self._opens_by_channel.full(channel, now):
            raise TooManyRaceOpensError(by_member=False)
        self._opens_by_member.allow(member, now)
        self._opens_by_channel.allow(channel, now)

    async def act(self, page: Socket, frame: RaceJoin | RaceLeave | RaceStart | RaceCancel) -> RaceOut:
        """Join, leave, start or cancel a race of the page's channel (checked first); the race message follows."""
        player = _ranked(page)
        if await self.races.where(frame.race) != (player.guild_id, player.channel_id):
            raise OtherChannelRaceError()
        race_id = frame.race
        if isinstance(frame, RaceJoin):
            snapshot = await self.races.join(race_id, player.user_id)
        elif isinstance(frame, RaceLeave):
            snapshot = await self.races.leave(race_id, player.user_id)
        elif isinstance(frame, RaceStart):
            snapshot = await self.races.start(race_id, player.user_id)
        else:
            snapshot = await self.races.cancel(race_id, player.user_id)
        self.races.refresh_message(race_id)
        return {"type": "race", "ref": frame.ref, "race": self._race(snapshot, player.user_id), "words": None}

    def _race(self, snapshot: RaceSnapshot, user_id: int) -> Race:
        """The RACE as ``user_id``'s page sees it."""
        race = self.cards.body(snapshot)
        race["you"] = "racer" if user_id in snapshot.racers else "watcher"
        return race

    # -- pushes -------------------------------------------------------------------------------------
    def changed(self, race_id: int) -> None:
        """The race service's news: push the race to its channel's pages soon (coalesced)."""
        self._pushes.setdefault(race_id, _Pushes())
        self._updates.mark(race_id)

    def _settled(self, race_id: int) -> None:
        """Nothing left to push: forget a race that is over (pushed), or closed while no page followed it."""
        state = self._pushes.get(race_id)
        if state is None or (state.shown is not None and _over(state.shown)) or not self.races.is_open(race_id):
            self._pushes.pop(race_id, None)
            self._updates.forget(race_id)

    async def _push(self, race_id: int) -> None:
        """Push the race to its channel's pages, if what it shows changed since the last push."""
        state = self._pushes.setdefault(race_id, _Pushes())
        if not self._followed(state):
            return  # a race played on the buttons only: nothing to build
        try:
            snapshot = await self.races.snapshot(race_id)
        except RaceError:
            return
        race = snapshot.race
        state.where, state.racers = (race.guild_id, race.channel_id), snapshot.racers
        shown = (race.status, race.host_id, snapshot.racers, snapshot.standings, snapshot.results)
        if shown == state.shown:
            return
        state.shown = shown
        state.last = self.now()
        for standing in snapshot.standings:
            state.placed[standing.user_id] = standing.placed
        pages = self.pages.of_channel(*state.where)
        if not pages:
            return
        said: dict[str, dict[str, str]] = {}
        racers = set(snapshot.racers)
        key = f"race:{race_id}"
        for page in pages:
            texts = said.get(page.language.code)
            if texts is None:
                texts = said[page.language.code] = self._texts(snapshot, state.placed, page.language)
            self.pushes_sent += 1
            await page.send_text(texts["racer" if _player(page).user_id in racers else "watcher"], replaces=key)

    def _texts(self, snapshot: RaceSnapshot, placed: dict[int, int], language: Language) -> dict[str, str]:
        """The pushed RACE in JSON for a racer and for a watcher, said in ``language``."""
        with speaking_language(language):
            return race_texts(self.cards.body(snapshot, placed=placed))

    def _followed(self, state: _Pushes) -> bool:
        """Whether a page may want the race: one of its channel's or a racer's (unknown before its first snapshot)."""
        if state.where is None or self.pages.has_channel(*state.where):
            return True
        guild_id = state.where[0]
        return any(self.pages.has_member(guild_id, user_id) for user_id in state.racers)

    # -- the common start ---------------------------------------------------------------------------
    def started(self, race_id: int) -> None:
        """The race service says the race started: hand each racer's pages their board."""
        self._tasks.spawn(self._deal(race_id), f"race-deal-{race_id}")

    async def _deal(self, race_id: int) -> None:
        """Push each racer's board to their open pages (the service refuses a board before the start)."""
        snapshot = await self.races.snapshot(race_id)
        race = snapshot.race
        for user_id in snapshot.racers:
            pages = self.pages.of_member(race.guild_id, user_id)
            if not pages:
                continue
            try:
                session = await self.races.board(race_id, user_id)
            except RaceError:
                continue
            for page in pages:
                with speaking_language(page.language):
                    game = game_frame(session, now=self.now())
                await page.send(game_out(None, game))
        self.changed(race_id)  # the racers are playing now: every page of the channel sees it, moved or not


def _player(page: Socket) -> Player:
    """The page's verified player."""
    assert page.seat is not None
    return page.seat.player


def _ranked(page: Socket) -> Player:
    """The page's player, if races are run where they are: in a server that has the bot."""
    player = _player(page)
    assert page.seat is not None
    if not player.guild_id:
        raise NotInServerError("Races")
    if not page.seat.ranked:
        raise NotRankedHereError()
    return player


def _over(shown: object) -> bool:
    """Whether a pushed race was over (its pushes may be forgotten)."""
    return isinstance(shown, tuple) and shown[0] in ("finished", "cancelled", "expired")

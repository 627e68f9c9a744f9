"""Races in the Activity: the race frames turned into calls of the race service, and races pushed to pages.

Like :class:`~bot.activity.table.Table`, the desk decides nothing: opening, joining, leaving, starting and
cancelling are the race service's (its refusals in its own words), the channel rule is the competitions'
(:func:`~bot.compete.channels.check_channel_permissions`). It keeps the signed-in pages of each channel and
pushes a RACE to them whenever the service says a race of that channel changed (on any surface: a page,
a button of the race message, a move, the clock), at most once per :data:`PUSH_INTERVAL` per race and only
when what it shows changed. A page whose player races is a racer; any other page of the channel watches.

Nobody is sent a board but its racer, and only at the common start: a RACE holds counts (score, cards up,
time used, moves), never a card.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.activity.frames import game_frame
from bot.activity.identity import Player
from bot.activity.limits import RACE_OPEN_MINUTES, RACE_OPENS_PER_CHANNEL, RACE_OPENS_PER_MEMBER, Window
from bot.activity.protocol import RaceCancel, RaceFrame, RaceJoin, RaceLeave, RaceOpen, RaceStart
from bot.activity.table import REFUSALS, Seat
from bot.background import BackgroundTasks
from bot.compete.channels import check_channel_permissions
from bot.compete.race import RaceError, RaceService, RaceSnapshot, Standing
from bot.compete.words import variant_title
from bot.errors import BotError, NotInServerError
from bot.play.session import Clock, Sleep

log = logging.getLogger(__name__)

PUSH_INTERVAL = 1.0
"""At most one RACE push per race in this many seconds (moves between are coalesced into the next)."""
SOMEONE = "a member"
"""A player's name when neither the server's cache nor a page knows it."""
NO_MESSAGE = (
    "The race is open here, but its message could not be posted in the channel: members outside the Activity "
    "cannot join it with the message's buttons."
)

Frame = dict[str, Any]
YOU = ("racer", "watcher")
"""What a page is to a race: one of its racers, or a watcher."""


class RacePage(Protocol):
    """What the desk needs of an open page (the server's socket)."""

    @property
    def seat(self) -> Seat | None:
        """The verified player, once signed in."""

    async def send(self, kind: str, **fields: Any) -> None:
        """Send one frame."""

    async def send_text(self, text: str, *, replaces: str | None = None) -> None:
        """Send one frame already in JSON (in place of the one of key ``replaces`` not yet sent)."""

    async def send_game(self, game: dict[str, Any] | None, *, ref: int | None, words: str | None = None) -> None:
        """Send a GAME."""


class OtherChannelRaceError(RaceError):
    """A page named a race of another channel (or server) than its instance's."""

    def __init__(self) -> None:
        super().__init__("That race is run in another channel: open the Activity there to take part.")


class TooManyRaceOpensError(RaceError):
    """A page opened races faster than a channel's message rate should carry (each posts a public message)."""

    def __init__(self, where: str) -> None:
        super().__init__(
            f"Too many races were opened {where} in the last {RACE_OPEN_MINUTES} minutes: join an open one, "
            "or try again later."
        )


class NotRankedHereError(BotError):
    """A race asked for where the bot is not in the server: races are ranked, so they are not run here."""

    def __init__(self) -> None:
        super().__init__(
            "The bot is not in this server, so races are not run here (they are ranked): ask an admin to add the bot."
        )


@dataclass
class _Pushes:
    """One race's pushes: where it runs, what was last pushed and when, and the push waiting for its turn."""

    where: tuple[int, int] | None = None
    racers: tuple[int, ...] = ()
    dirty: bool = False
    last: float | None = None
    shown: object = None
    task: asyncio.Task[None] | None = None
    placed: dict[int, int] = field(default_factory=dict)
    """Cards up per racer as last seen running (the results carry no counts)."""


class RaceDesk:
    """The race frames of the Activity's pages, and the pushes of races to the pages of their channel."""

    def __init__(
        self,
        races: RaceService,
        *,
        now: Clock,
        name_of: Callable[[int, int], str | None],
        bot_may: Callable[[int, int, str], bool],
        sleep: Sleep = asyncio.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """Run races on ``races``; ``name_of`` names members, ``bot_may`` says the bot's permissions in a channel.

        ``clock`` (monotonic seconds) times the races a member and a channel may open.
        """
        self.races = races
        self.clock = clock
        self._opens_by_member = Window(RACE_OPENS_PER_MEMBER, RACE_OPEN_MINUTES * 60.0)
        self._opens_by_channel = Window(RACE_OPENS_PER_CHANNEL, RACE_OPEN_MINUTES * 60.0)
        self.now = now
        self.name_of = name_of
        self.bot_may = bot_may
        self.sleep = sleep
        self.pushes_sent = 0
        """RACE frames pushed (for benchmarks)."""
        self._channels: dict[tuple[int, int], set[RacePage]] = {}
        self._members: dict[tuple[int, int], set[RacePage]] = {}
        self._pushes: dict[int, _Pushes] = {}
        self._starts: dict[int, asyncio.Task[None]] = {}
        self._tasks = BackgroundTasks("activity-race")
        races.add_listener(self.changed)

    async def close(self) -> None:
        """Stop listening and pushing."""
        self.races.remove_listener(self.changed)
        await self._tasks.cancel_all()

    # -- pages ------------------------------------------------------------------------------
    def seat(self, page: RacePage) -> None:
        """Follow the races of a signed-in page's channel."""
        player = _player(page)
        self._channels.setdefault((player.guild_id, player.channel_id), set()).add(page)
        self._members.setdefault((player.guild_id, player.user_id), set()).add(page)

    def unseat(self, page: RacePage) -> None:
        """Forget a page that closed."""
        if page.seat is None:
            return
        player = page.seat.player
        for index, key in ((self._channels, (player.guild_id, player.channel_id)), (self._members, player_key(page))):
            pages = index.get(key)
            if pages is not None:
                pages.discard(page)
                if not pages:
                    del index[key]

    async def menu(self, seat: Seat) -> list[Frame]:
        """The open races of the page's channel (the MENU's ``races``)."""
        player = seat.player
        shown = []
        for race_id in self.races.open_in(player.guild_id, player.channel_id):
            try:
                snapshot = await self.races.snapshot(race_id)
            except RaceError:
                continue
            shown.append({**self.race_body(snapshot), "you": _you(snapshot, player.user_id)})
        return shown

    # -- the page's frames ------------------------------------------------------------------------
    async def answer(self, page: RacePage, frame: RaceFrame) -> None:
        """Answer a race frame with the RACE as it stands after it, or its refusal in the service's words."""
        seat = page.seat
        assert seat is not None
        words = None
        try:
            if isinstance(frame, RaceOpen):
                snapshot, words = await self._open(seat, frame)
            else:
                snapshot = await self._act(seat, frame)
        except REFUSALS as error:
            await page.send("refused", ref=frame.ref, reason=str(error), game=None)
            return
        race = {**self.race_body(snapshot), "you": _you(snapshot, seat.player.user_id)}
        await page.send("race", ref=frame.ref, race=race, words=words)

    async def _open(self, seat: Seat, frame: RaceOpen) -> tuple[RaceSnapshot, str | None]:
        """Open a lobby in the page's channel and post its public message there (a few a member and a channel)."""
        player = self._ranked(seat)
        check_channel_permissions("race", lambda flag: self.bot_may(player.guild_id, player.channel_id, flag))
        self._count_open(player)
        snapshot = await self.races.open(
            guild_id=player.guild_id,
            channel_id=player.channel_id,
            host_id=player.user_id,
            variant=frame.variant,
            capacity=frame.racers,
        )
        if await self.races.post(snapshot.race.id):
            return await self.races.snapshot(snapshot.race.id), None
        return snapshot, NO_MESSAGE

    def _count_open(self, player: Player) -> None:
        """Count a race opened by ``player``; :raises TooManyRaceOpensError: past the member's or channel's share."""
        now, member, channel = self.clock(), (player.guild_id, player.user_id), (player.guild_id, player.channel_id)
        if self._opens_by_member.full(member, now):
            raise TooManyRaceOpensError("by you")
        if self._opens_by_channel.full(channel, now):
            raise TooManyRaceOpensError("in this channel")
        self._opens_by_member.allow(member, now)
        self._opens_by_channel.allow(channel, now)

    async def _act(self, seat: Seat, frame: RaceJoin | RaceLeave | RaceStart | RaceCancel) -> RaceSnapshot:
        """Join, leave, start or cancel a race of the page's channel (checked first); the race message follows."""
        player = self._ranked(seat)
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
            assert isinstance(frame, RaceCancel)
            snapshot = await self.races.cancel(race_id, player.user_id)
        self.races.refresh_message(race_id)
        return snapshot

    @staticmethod
    def _ranked(seat: Seat) -> Player:
        """The page's player, if races are run where they are: in a server that has the bot."""
        if not seat.player.guild_id:
            raise NotInServerError("Races")
        if not seat.ranked:
            raise NotRankedHereError()
        return seat.player

    # -- pushes -------------------------------------------------------------------------------------
    def changed(self, race_id: int) -> None:
        """The race service's news: push the race to its channel's pages soon (coalesced)."""
        state = self._pushes.setdefault(race_id, _Pushes())
        state.dirty = True
        if state.task is None or state.task.done():
            state.task = self._tasks.spawn(self._flush(race_id, state), f"activity-race-{race_id}")

    async def _flush(self, race_id: int, state: _Pushes) -> None:
        while state.dirty:
            if state.last is not None and (wait := state.last + PUSH_INTERVAL - self.now()) > 0:
                await self.sleep(wait)
            state.dirty = False
            await self._push(race_id, state)
        if (state.shown is not None and _over(state.shown)) or not self.races.is_open(race_id):
            self._pushes.pop(race_id, None)  # over (pushed), or closed while no page followed it
            self._starts.pop(race_id, None)

    async def _push(self, race_id: int, state: _Pushes) -> None:
        """Push the race to its channel's pages, if what it shows changed since the last push."""
        if not self._followed(state):
            return  # a race played on the buttons only: nothing to build
        try:
            snapshot = await self.races.snapshot(race_id)
        except RaceError:
            return
        race = snapshot.race
        state.where, state.racers = (race.guild_id, race.channel_id), snapshot.racers
        self._arm_start(snapshot)
        shown = (race.status, race.host_id, snapshot.racers, snapshot.standings, snapshot.results)
        if shown == state.shown:
            return
        state.shown = shown
        state.last = self.now()
        for standing in snapshot.standings:
            state.placed[standing.user_id] = standing.placed
        pages = self._channels.get(state.where)
        if not pages:
            return
        texts = _race_texts(self.race_body(snapshot, placed=state.placed))
        racers = set(snapshot.racers)
        key = f"race:{race_id}"
        for page in list(pages):
            self.pushes_sent += 1
            await page.send_text(texts["racer" if _player(page).user_id in racers else "watcher"], replaces=key)

    def _followed(self, state: _Pushes) -> bool:
        """Whether a page may want the race: one of its channel's or a racer's (unknown before its first snapshot)."""
        if state.where is None or state.where in self._channels:
            return True
        guild_id = state.where[0]
        return any((guild_id, user_id) in self._members for user_id in state.racers)

    # -- the common start ---------------------------------------------------------------------------
    def _arm_start(self, snapshot: RaceSnapshot) -> None:
        """Hand each racer's pages their board at the common start (once per race and process)."""
        race = snapshot.race
        if race.status != "running" or race.start_at is None or race.id in self._starts:
            return
        if self.now() >= race.start_at + 5 * PUSH_INTERVAL:
            return  # long started (a restart): each page resumes its board from the menu
        self._starts[race.id] = self._tasks.spawn(self._deal_at_start(race.id, race.start_at), f"race-deal-{race.id}")

    async def _deal_at_start(self, race_id: int, start_at: float) -> None:
        """At the start instant, push each racer's board to their open pages (never before: the deal is secret)."""
        while (wait := start_at - self.now()) > 0:
            await self.sleep(wait)
        snapshot = await self.races.snapshot(race_id)
        race = snapshot.race
        for user_id in snapshot.racers:
            pages = self._members.get((race.guild_id, user_id))
            if not pages:
                continue
            try:
                session = await self.races.board(race_id, user_id)
            except RaceError:
                continue
            game = game_frame(session, now=self.now())
            for page in list(pages):
                await page.send_game(game, ref=None)
        self.changed(race_id)  # the racers are playing now: every page of the channel sees it, moved or not

    # -- the RACE ---------------------------------------------------------------------------------------
    def race_body(self, snapshot: RaceSnapshot, *, placed: dict[int, int] | None = None) -> Frame:
        """A RACE without ``you``: the race, its racers' counts, and its results once finished."""
        race, now = snapshot.race, self.now()
        counting = race.status == "running" and race.start_at is not None and now < race.start_at
        return {
            "id": race.id,
            "variant": race.variant,
            "title": variant_title(race.variant),
            "status": race.status,
            "host": self._person(race.guild_id, race.host_id),
            "capacity": race.capacity,
            "starts_in": round(race.start_at - now, 3) if counting and race.start_at is not None else None,
            "ends_in": (
                round(max(race.end_at - now, 0.0), 3) if race.status == "running" and race.end_at is not None else None
            ),
            "racers": self._racers(snapshot, placed or {}),
            "results": [
                {
                    "place": result.place,
                    **self._person(race.guild_id, result.user_id),
                    "score": result.score,
                    "seconds": result.seconds_used,
                    "status": result.status,
                    "rating_before": result.rating_before,
                    "rating_after": result.rating_after,
                }
                for result in snapshot.results
            ],
        }

    def _racers(self, snapshot: RaceSnapshot, placed: dict[int, int]) -> list[Frame]:
        """Every racer's counts in live order (the joining order in a lobby, the places once finished)."""
        race = snapshot.race
        if snapshot.standings:
            elapsed = max(int(self.now() - race.start_at), 0) if race.start_at is not None else None
            return [self._racer(race.guild_id, standing, elapsed) for standing in snapshot.standings]
        if snapshot.results:
            return [
                {
                    **self._person(race.guild_id, result.user_id),
                    "status": result.status,
                    "score": result.score,
                    "up": placed.get(result.user_id, 0),
                    "seconds": result.seconds_used,
                    "moves": 0,
                }
                for result in snapshot.results
            ]
        lobby = {"status": "waiting", "score": 0, "up": 0, "seconds": None, "moves": 0}
        return [{**self._person(race.guild_id, user_id), **lobby} for user_id in snapshot.racers]

    def _racer(self, guild_id: int, standing: Standing, elapsed: int | None) -> Frame:
        """One racer's line: status, score, cards up, time used and moves (their game's version)."""
        if standing.status == "playing":
            seconds = elapsed
        elif standing.status == "waiting":
            seconds = None
        else:
            seconds = standing.seconds_used
        return {
            **self._person(guild_id, standing.user_id),
            "status": standing.status,
            "score": standing.score,
            "up": standing.placed,
            "seconds": seconds,
            "moves": standing.moves,
        }

    def _person(self, guild_id: int, user_id: int) -> Frame:
        """A PLAYER: the server's name for them, else a signed-in page's, else a neutral one."""
        name = self.name_of(guild_id, user_id)
        if name is None:
            pages = self._members.get((guild_id, user_id))
            name = next((page.seat.player.name for page in pages if page.seat is not None), None) if pages else None
        return {"id": str(user_id), "name": name or SOMEONE}


def player_key(page: RacePage) -> tuple[int, int]:
    """The page's player's games key (server, member)."""
    player = _player(page)
    return player.guild_id, player.user_id


def _player(page: RacePage) -> Player:
    """The page's verified player."""
    assert page.seat is not None
    return page.seat.player


def _you(snapshot: RaceSnapshot, user_id: int) -> str:
    """``racer`` for a member of the race, else ``watcher``."""
    return "racer" if user_id in snapshot.racers else "watcher"


def _race_texts(body: Frame) -> dict[str, str]:
    """The pushed ``race`` frame in JSON for a racer and for a watcher: the RACE written once, ``you`` added.

    >>> _race_texts({"id": 7})["watcher"]
    '{"type":"race","ref":null,"race":{"id":7,"you":"watcher"},"words":null}'
    """
    race = json.dumps(body, separators=(",", ":"))[:-1]
    return {you: f'{{"type":"race","ref":null,"race":{race},"you":"{you}"}},"words":null}}' for you in YOU}


def _over(shown: object) -> bool:
    """Whether a pushed race was over (its pushes may be forgotten)."""
    return isinstance(shown, tuple) and shown[0] in ("finished", "cancelled", "expired")

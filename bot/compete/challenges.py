"""Challenges: a few friends on the same private deal, each playing it once when they like, before a deadline.

Nothing here knows Discord. A challenger names 1 to 7 members of the server; each may accept or
decline. The challenger and every member who accepted get one attempt on the same deal (from the
private bank, as unknowable as a daily's until the challenge closes), each on a private board with
its own five-minute clock from the moment they open it. Each attempt is an ordinary session of the
:class:`~bot.play.sessions.SessionManager` (mode ``"challenge"``), tied to the challenge in its own insert.

No attempt starts after the deadline; the challenge closes once every named member has answered and
everyone in it has played, or at the deadline once the attempts still running end. Closing writes the
places and rating changes (the race rules: :mod:`bot.compete.placing`) and queues the results post
(:mod:`bot.outbox.announcements`) in one transaction, once. Scores stay hidden until then unless the
challenger chose to show them as they come: such an open challenge is never rated (the last to play
would see the score to beat and could walk away unrated). A member has at most
:data:`MAX_OPEN_PER_MEMBER` open challenges per server. A challenge whose public message could not be
shown (or stored) is cancelled: nobody can play it, and it posts nothing.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from bot.coalesce import Coalescer
from bot.compete.events import EventTables, GroupEvents
from bot.compete.placing import Entry
from bot.compete.ratings import Skill
from bot.compete.results import entry
from bot.errors import BotError
from bot.outbox.announcements import Announcements
from bot.play.deal_bank import Deal, DealBank
from bot.play.session import Clock, Session, Sleep
from bot.play.sessions import SessionManager
from bot.rules.daily_deals import deal_from_json, deal_to_json
from bot.shards import ONE_PROCESS, Ownership
from bot.storage import Database, Transaction
from bot.storage import challenges as challenges_db
from bot.storage import games as games_db
from bot.storage import races as races_db
from bot.storage.challenges import ChallengeRecord, PlayerRecord
from bot.storage.games import GameRecord
from bot.storage.races import Rate, Rated
from languages import speaking_language
from solitaire import find_variant
from solitaire.deals import ProvenDeal
from solitaire.speech import N_, _, n_

log = logging.getLogger(__name__)

MAX_OPPONENTS = 7
DEFAULT_HOURS = 24
MIN_HOURS, MAX_HOURS = 1, 72
MAX_OPEN_PER_MEMBER = 5
"""Open challenges one member may have made in a server at once (each holds a deal and a deadline)."""
MESSAGE_WRITES = 3
"""Tries at storing the public message's id before the challenge is cancelled (its buttons need it)."""
MESSAGE_RETRY_SECONDS = 0.5
# Translators: why a challenge's ratings did not move, after "Not rated:" on its results.
OPEN_UNRATED = N_("the scores were shown as they came (an open challenge is never rated)")
"""Why an open challenge is not rated (stored with its results, in the language of its server's posts)."""
UPDATE_INTERVAL = 2.0
"""At most one update of a challenge's message in this many seconds (Discord's edit rate limits)."""
LineState = Literal["challenger", "invited", "accepted", "declined", "playing", "played"]


# -- refusals -------------------------------------------------------------------------------
class ChallengeError(BotError):
    """A challenge refusal, answered privately with ``str(error)``."""


class UnknownChallengeError(ChallengeError):
    """A button names a challenge that does not exist."""

    def __init__(self) -> None:
        super().__init__(_("That challenge does not exist."))


class OpponentsError(ChallengeError):
    """The named members are not a challenge's: nobody, the challenger, a bot, too many."""


class TooManyChallengesError(ChallengeError):
    """A member who already has :data:`MAX_OPEN_PER_MEMBER` open challenges in the server."""

    def __init__(self, open_ones: Sequence[ChallengeRecord], opening: int = 0) -> None:
        where = [_where(challenge) for challenge in open_ones]
        if opening > 0:
            # Translators: one item of a list of a member's open challenges: those whose message is not shown yet.
            where.append(n_("{count} being posted now", "{count} being posted now", opening))
        # Translators: {where} lists the open challenges (links to their messages), separated by commas.
        super().__init__(
            n_(
                "You have {count} open challenge in this server, the most one member may have: {where}. "
                "A new one can start once one of them closes.",
                "You have {count} open challenges in this server, the most one member may have: {where}. "
                "A new one can start once one of them closes.",
                len(open_ones) + opening,
                where=", ".join(where),
            )
        )


def _where(challenge: ChallengeRecord) -> str:
    """A link to a challenge's message (its channel, while the message is not stored)."""
    if challenge.message_id is None:
        return f"<#{challenge.channel_id}>"
    return f"https://discord.com/channels/{challenge.guild_id}/{challenge.channel_id}/{challenge.message_id}"


class NotNamedError(ChallengeError):
    """A member the challenge does not name."""

    def __init__(self) -> None:
        super().__init__(_("This challenge does not name you: ask for one with `/solitaire challenge`."))


class ChallengerAnswerError(ChallengeError):
    """The challenger accepting or declining their own challenge."""

    def __init__(self) -> None:
        # Translators: **Play** is the challenge message's button of that name.
        super().__init__(_("You made this challenge: press **Play** when you are ready."))


class NoMoreAttemptsError(ChallengeError):
    """An answer or an attempt after the deadline, or after the challenge closed."""

    def __init__(self, deadline: float) -> None:
        super().__init__(
            _(
                "This challenge took its last attempt <t:{deadline}:R>: the results come when it closes.",
                deadline=int(deadline),
            )
        )


class DeclinedError(ChallengeError):
    """An attempt by a member who declined."""

    def __init__(self) -> None:
        super().__init__(_("You declined this challenge."))


class AlreadyAnsweredError(ChallengeError):
    """An answer that changes nothing (already given, or too late once one has played)."""

    def __init__(self, answer: str) -> None:
        if answer == "accepted":
            super().__init__(_("You already accepted it."))
        elif answer == "declined":
            super().__init__(_("You already declined it."))
        else:
            super().__init__(_("You already played it."))


class PlayedError(ChallengeError):
    """A second attempt."""

    def __init__(self) -> None:
        super().__init__(_("You have played your one attempt: the results come when the challenge closes."))


# -- what the message shows ----------------------------------------------------------------------
@dataclass(frozen=True)
class Line:
    """One named member on the challenge message."""

    user_id: int
    state: LineState
    score: int | None = None
    """Shown only once the challenge closed, or as they come when the challenger chose so."""
    seconds_used: int | None = None
    status: str | None = None
    place: int | None = None
    rating_before: float | None = None
    rating_after: float | None = None
    """``None``: not rated."""
    provisional: bool = False
    """Whether the member's rating is still provisional (closed challenges only)."""


@dataclass(frozen=True)
class ChallengeSnapshot:
    """What the public challenge message shows now."""

    challenge: ChallengeRecord
    lines: tuple[Line, ...]
    now: float

    @property
    def closed(self) -> bool:
        """Whether the results are in."""
        return self.challenge.status == "closed"

    @property
    def taking_attempts(self) -> bool:
        """Whether a named member may still answer or play."""
        return self.challenge.status == "open" and self.now < self.challenge.deadline


Publisher = Callable[[ChallengeSnapshot], Awaitable[None]]
"""Shows a snapshot on the public challenge message (the cog edits it); must not raise."""
Watcher = Callable[[int], None]
"""Told a challenge's id whenever what it shows changed (an answer, an attempt, its close); must not raise."""


class ChallengeService:
    """Opens challenges, takes answers and attempts; closes them once and posts their results (:class:`GroupEvents`).

    It answers the group-event hooks itself (:class:`~bot.compete.events.EventRules`): who plays, when a
    challenge may close, the entries, how the results are stored.
    """

    tables = EventTables(
        "challenge",
        "open",
        "closed",
        challenges_db.get_challenge,
        UnknownChallengeError,
        challenges_db.players,
        challenges_db.challenge_of_game,
    )
    restarts_wait_for_resume = False

    def __init__(
        self,
        db: Database,
        sessions: SessionManager,
        deals: DealBank[Deal],
        *,
        now: Clock,
        sleep: Sleep = asyncio.sleep,
        announcements: Announcements,
        publish: Publisher | None = None,
        ownership: Ownership = ONE_PROCESS,
    ) -> None:
        """Keep challenges in ``db``, attempts on ``sessions``, deals from ``deals``; results via ``announcements``."""
        self.db = db
        self.sessions = sessions
        self.deals = deals
        self.now = now
        self.sleep = sleep
        self.announcements = announcements
        self.publish = publish
        self.ownership = ownership
        self.events = GroupEvents(self, db, sessions, self.announcements, now=now, sleep=sleep)
        self._games = self.events.games
        self._locks = self.events.locks
        self._opening: dict[tuple[int, int], int] = {}
        """Challenges each member (server, member) is opening right now: they count against the cap."""
        self._deadlines: dict[int, asyncio.Task[None]] = {}
        self._updates: Coalescer[int] = Coalescer(
            self._update,
            interval=UPDATE_INTERVAL,
            now=lambda: self.now(),
            sleep=lambda seconds: self.sleep(seconds),
            tasks=self.events.tasks,
            name="challenge-update",
        )
        """The message's updates: at most one per :data:`UPDATE_INTERVAL` per challenge."""
        self._watchers: list[Watcher] = []

    # -- opening ---------------------------------------------------------------------------
    async def open(
        self,
        *,
        guild_id: int,
        channel_id: int,
        challenger_id: int,
        variant: str,
        opponents: Sequence[int],
        hours: int = DEFAULT_HOURS,
        show_scores: bool = False,
        on_solve: Callable[[], Awaitable[object]] | None = None,
    ) -> ChallengeSnapshot:
        """Open a challenge on a private deal; it closes ``hours`` from now at the latest.

        Every check comes first; then ``on_solve`` runs if the deal must be solved now (the cog defers its
        answer: a solve may outlast Discord's 3 s), so a refusal never follows it.

        :raises OpponentsError: nobody named, the challenger named, a member twice, more than seven.
        :raises TooManyChallengesError: the challenger has :data:`MAX_OPEN_PER_MEMBER` open ones here.
        """
        member = (guild_id, challenger_id)
        async with self._locks.lock(("open", *member)):  # count and hold a place at once
            await self._check_open(guild_id, challenger_id, variant, opponents, hours)
            self._opening[member] = self._opening.get(member, 0) + 1
        try:
            if on_solve is not None and not self.deals.ready(variant):
                await on_solve()
            deal = (await self.deals.take(variant)).deal  # solved only once every check passed
            now = self.now()
            stored = json.dumps(deal_to_json(ProvenDeal(deal.variant, deal.seed, tuple(deal.deck), ())))
            challenge = await challenges_db.create_challenge(
                self.db,
                guild_id=guild_id,
                channel_id=channel_id,
                challenger_id=challenger_id,
                invited=list(opponents),
                variant=variant,
                show_scores=show_scores,
                now=now,
                deadline=now + hours * 3600.0,
                deal=stored,
                deal_seed=str(deal.seed),
            )
        finally:
            if (left := self._opening.pop(member) - 1) > 0:
                self._opening[member] = left
        self._arm(challenge)
        return await self.snapshot(challenge.id)

    async def _check_open(
        self, guild_id: int, challenger_id: int, variant: str, opponents: Sequence[int], hours: int
    ) -> None:
        """Refuse a challenge that may not open (counting those of the member being opened right now)."""
        find_variant(variant)
        named = list(opponents)
        if not named:
            raise OpponentsError(_("Name at least one member to challenge."))
        if challenger_id in named:
            raise OpponentsError(_("You cannot challenge yourself: name the members you want to play."))
        if len(set(named)) != len(named):
            raise OpponentsError(_("You named a member twice: name each once."))
        if len(named) > MAX_OPPONENTS:
            raise OpponentsError(
                n_(
                    "A challenge names at most {count} member.",
                    "A challenge names at most {count} members.",
                    MAX_OPPONENTS,
                )
            )
        if not MIN_HOURS <= hours <= MAX_HOURS:
            raise ValueError(f"a challenge lasts {MIN_HOURS} to {MAX_HOURS} hours, not {hours}")
        open_ones = await challenges_db.open_of_member(self.db, guild_id, challenger_id)
        opening = self._opening.get((guild_id, challenger_id), 0)
        if len(open_ones) + opening >= MAX_OPEN_PER_MEMBER:
            raise TooManyChallengesError(open_ones, opening)

    async def set_message(self, challenge_id: int, message_id: int) -> None:
        """Remember the public challenge message (its buttons need it), retrying a failed write a few times.

        :raises sqlite3.OperationalError: the last try failed too: take the message down and :meth:`cancel`.
        """
        for attempt in range(1, MESSAGE_WRITES + 1):
            try:
                await challenges_db.set_message(self.db, challenge_id, message_id)
                return
            except sqlite3.OperationalError as error:
                if attempt == MESSAGE_WRITES:
                    raise
                log.warning("challenge %s: its message not stored (try %d): %s", challenge_id, attempt, error)
                await self.sleep(MESSAGE_RETRY_SECONDS * attempt)

    async def cancel(self, challenge_id: int) -> bool:
        """Cancel a challenge whose message could not be shown (nobody played it): it posts nothing, ever.

        A failed write is logged, not raised: the challenge is then cancelled at its deadline (it has no message).
        """
        try:
            cancelled = await challenges_db.cancel_challenge(self.db, challenge_id, self.now())
        except sqlite3.OperationalError as error:
            log.warning("challenge %s: not cancelled now (at its deadline instead): %s", challenge_id, error)
            return False
        if cancelled:
            self._forget(challenge_id)
        return cancelled

    async def message_of(self, challenge_id: int) -> int | None:
        """The public challenge message's id (``None`` until it is stored)."""
        return (await self._challenge(challenge_id)).message_id

    # -- answers and attempts --------------------------------------------------------------------
    async def answer(
        self, challenge_id: int, user_id: int, reply: Literal["accepted", "declined"]
    ) -> ChallengeSnapshot:
        """Accept or decline (a member who accepted may still decline before playing).

        An answer may be the last one the challenge waited for: close it with :meth:`close_if_over`
        once the click is answered (the results post must not keep the click waiting).
        """
        async with self._locks.lock(challenge_id):
            challenge = await self._challenge(challenge_id)
            player = await self._player(challenge_id, user_id)
            if player.answer == "challenger":
                raise ChallengerAnswerError()
            if not await challenges_db.answer(self.db, challenge_id, user_id, reply, self.now()):
                if challenge.status != "open" or self.now() >= challenge.deadline:
                    raise NoMoreAttemptsError(challenge.deadline)
                raise AlreadyAnsweredError(player.answer if player.game_id is None else "played")
        self._changed(challenge_id)
        return await self.snapshot(challenge_id)

    def show_answer(self, challenge_id: int) -> None:
        """Update the public message with an answer given elsewhere than on its buttons (the Activity's page)."""
        self._touch(challenge_id)

    async def of_member(
        self, guild_id: int, user_id: int, *, closed_within: float, limit: int
    ) -> list[ChallengeSnapshot]:
        """The challenges of a server a member is in: open ones, then those closed within ``closed_within`` seconds.

        Newest first, at most ``limit``; a challenge whose message is not shown yet (no buttons) is left out.
        """
        found = await challenges_db.of_member(
            self.db, guild_id, user_id, closed_since=self.now() - closed_within, limit=limit
        )
        return [await self.snapshot(challenge.id) for challenge in found]

    async def close_if_over(self, challenge_id: int) -> None:
        """Close the challenge if no more results can come (after an answer: see :meth:`answer`)."""
        await self._try_close(challenge_id)

    async def play(self, challenge_id: int, user_id: int) -> Session:
        """The member's attempt: started now on its own clock (accepting an invitation), or the one running.

        :raises PlayedError, DeclinedError, NoMoreAttemptsError, NotNamedError: no attempt for them.
        :raises ActiveGameError: another game of theirs runs in this server.
        """
        challenge = await self._challenge(challenge_id)
        player = await self._player(challenge_id, user_id)
        if player.game_id is not None:
            running = self.sessions.get(player.game_id)
            if running is None:
                raise PlayedError()
            return running
        if player.answer == "declined":
            raise DeclinedError()
        if challenge.status != "open" or self.now() >= challenge.deadline:
            raise NoMoreAttemptsError(challenge.deadline)
        try:
            session = await self.sessions.start(
                guild_id=challenge.guild_id,
                channel_id=challenge.channel_id,
                user_id=user_id,
                variant=challenge.variant,
                deal=deal_from_json(json.loads(challenge.deal)),
                mode="challenge",
                link=challenges_db.attempt_link(challenge_id, user_id, self.now()),
            )
        except games_db.LinkRefusedError:
            raise NoMoreAttemptsError(challenge.deadline) from None
        self._games[session.id] = challenge_id
        self._touch(challenge_id)
        self._changed(challenge_id)
        return session

    # -- what the message shows ----------------------------------------------------------------
    async def snapshot(self, challenge_id: int) -> ChallengeSnapshot:
        """What the challenge message should show now (scores only when they may be seen)."""
        challenge = await self._challenge(challenge_id)
        players = await challenges_db.players(self.db, challenge_id)
        races: dict[int, int] = {}
        if challenge.status == "closed":
            stored = await races_db.ratings_of(
                self.db, challenge.guild_id, challenge.variant, [player.user_id for player in players]
            )
            races = {user: record.races for user, record in stored.items()}
        lines = [await self._line(challenge, player, races.get(player.user_id, 0)) for player in players]
        return ChallengeSnapshot(challenge, tuple(lines), self.now())

    async def _line(self, challenge: ChallengeRecord, player: PlayerRecord, races: int) -> Line:
        if player.game_id is None:
            return Line(player.user_id, player.answer)
        if self.sessions.get(player.game_id) is not None:
            return Line(player.user_id, "playing")
        record = await games_db.get_game(self.db, player.game_id)
        if record is None or record.is_playing:
            return Line(player.user_id, "playing")
        if challenge.status != "closed" and not challenge.show_scores:
            return Line(player.user_id, "played")
        return Line(
            player.user_id,
            "played",
            score=record.score,
            seconds_used=record.seconds_used,
            status=record.status,
            place=player.place,
            rating_before=player.rating_before,
            rating_after=player.rating_after if player.rated else None,
            provisional=Skill(0.0, 0.0, races).provisional,
        )

    # -- closing (the hooks of the shared close) ------------------------------------------------
    async def over_for_game(self, game_id: int) -> bool:
        """Whether the challenge of a challenge game is closed: its deal is public then."""
        return await self.events.over_for_game(game_id)

    async def may_close(self, event: ChallengeRecord, members: Sequence[PlayerRecord]) -> bool:
        """Whether no more results can come; a challenge never shown (so never played) is cancelled instead."""
        if self.now() < event.deadline and any(
            player.answer == "invited" or (player.in_it and player.game_id is None) for player in members
        ):
            return False  # someone may still answer or play
        if event.message_id is None:  # never shown, so never played: nothing to post
            await self.cancel(event.id)
            return False
        return True

    def entries(self, members: Sequence[PlayerRecord], games: dict[int, GameRecord]) -> list[Entry]:
        """Those who played, as the placing rules read them."""
        return [entry(user, record) for user, record in games.items()]

    async def store(self, event: ChallengeRecord, rate: Rate) -> bool:
        """Close the challenge with its places and ratings (places alone, scores shown as they came) and its post."""
        rate = _places_only(rate) if event.show_scores else rate
        return await challenges_db.close_challenge(self.db, event.id, now=self.now(), rate=rate)

    def heard(self, event_id: int, session: Session, record: GameRecord) -> None:
        """An attempt ended: the message shows it."""
        self._touch(event_id)
        self._changed(event_id)

    def closed(self, event_id: int) -> float:
        """Forget the closed challenge's timers; its results post goes at once."""
        self._forget(event_id)
        self._changed(event_id)
        return 0.0

    async def results(self, event_id: int) -> ChallengeSnapshot:
        """The closed challenge's results post."""
        return await self.snapshot(event_id)

    async def _try_close(self, challenge_id: int) -> None:
        await self.events.try_close(challenge_id)

    # -- timers, updates, restarts -----------------------------------------------------------------
    def _arm(self, challenge: ChallengeRecord) -> None:
        """Close the challenge at its deadline (once the attempts running then end)."""
        self._deadlines[challenge.id] = self.events.tasks.spawn(
            self._at_deadline(challenge), f"challenge-{challenge.id}"
        )

    async def _at_deadline(self, challenge: ChallengeRecord) -> None:
        while (remaining := challenge.deadline - self.now()) > 0:
            await self.sleep(remaining)
        self._touch(challenge.id)  # the message no longer offers attempts
        self._changed(challenge.id)
        await self._try_close(challenge.id)

    async def resume(self, *, owns: Callable[[int], bool] = lambda guild_id: True) -> list[int]:
        """Re-arm every open challenge of a server ``owns`` accepts (after the sessions resumed); return their ids."""
        resumed = []
        for challenge in await challenges_db.open_challenges(self.db):
            if challenge.id in self._deadlines or not owns(challenge.guild_id):
                continue
            await self.events.track(challenge.id)
            self._arm(challenge)
            resumed.append(challenge.id)
            await self._try_close(challenge.id)
        return resumed

    def watch(self, watcher: Watcher) -> None:
        """Tell ``watcher`` each challenge whose answers, attempts or results changed (another surface shows them)."""
        self._watchers.append(watcher)

    def _changed(self, challenge_id: int) -> None:
        """Tell the watchers that the challenge changed."""
        for watcher in self._watchers:
            try:
                watcher(challenge_id)
            except Exception:
                log.exception("a watcher of challenge %s failed", challenge_id)

    def _touch(self, challenge_id: int) -> None:
        """Note that the message changed: update it now, or once the interval allows (coalesced)."""
        self._updates.mark(challenge_id)

    async def _update(self, challenge_id: int) -> None:
        """Show the open challenge on its message, in its server's language (its results go through the outbox)."""
        snapshot = await self.snapshot(challenge_id)
        if self.publish is not None and snapshot.challenge.status == "open":
            try:
                with speaking_language(await self.announcements.speakers.server(snapshot.challenge.guild_id)):
                    await self.publish(snapshot)
            except Exception:
                log.exception("could not update challenge %s", challenge_id)

    async def close(self) -> None:
        """Stop every timer (challenges stay stored, to resume at the next start)."""
        await self.events.stop()
        self._deadlines.clear()
        self._updates.forget_all()

    async def settle(self) -> None:
        """Wait for the closes already under way (tests)."""
        await self.events.settle()

    # -- helpers -------------------------------------------------------------------------------
    def _forget(self, challenge_id: int) -> None:
        task = self._deadlines.pop(challenge_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        self._updates.forget(challenge_id)

    async def _challenge(self, challenge_id: int) -> ChallengeRecord:
        return await self.events.event(challenge_id)

    async def _player(self, challenge_id: int, user_id: int) -> PlayerRecord:
        for player in await challenges_db.players(self.db, challenge_id):
            if player.user_id == user_id:
                return player
        raise NotNamedError()


def _places_only(rate: Rate) -> Rate:
    """``rate`` with its places alone: no rating moves (an open challenge is never rated)."""

    async def places(tx: Transaction) -> Rated:
        rated = await rate(tx)
        return Rated([replace(placing, rating_after=None) for placing in rated.placings], [], _(OPEN_UNRATED))

    return places

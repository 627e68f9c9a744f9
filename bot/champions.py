"""The champion role: each variant's daily winner gets the server's chosen role when the day's podium is due.

Nothing here knows Discord. A change of the role's holders is an announcement of kind ``champion``
(:mod:`bot.storage.champions`), claimed by one process and retried like every post. When it is
delivered, :meth:`ChampionRoles.compose` works out what is wanted *now* (the winners of the last day
with a podium, with the role set now; nobody when no role is set) against what the bot gave
(``champion_holders``), and :meth:`ChampionRoles.deliver` makes the difference through the cog's
:class:`RolePort`: the bot takes the role back only from members it gave it to, and writes each
holder down before asking Discord, so a crash in between forgets nobody. A refusal (403, a deleted
role) is noted for the next ``/solitaire config`` and the change is tried again later.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from enum import Enum

from bot.announcements import Announcement, Announcements, Delivery
from bot.storage import Database
from bot.storage import champions as champions_db
from bot.storage import competition as competition_db
from bot.storage.champions import Holder

log = logging.getLogger(__name__)

Clock = Callable[[], float]


class RoleChange(Enum):
    """How asking Discord to give or take back a role went."""

    DONE = "done"
    HAD_IT = "had it"
    """Giving: the member already had the role, from someone else (the bot leaves it to them)."""
    GONE = "gone"
    """The member (or the bot) is no longer in the server: nothing to do."""
    NO_ROLE = "no role"
    """The role no longer exists."""
    REFUSED = "refused"
    """Discord said no (403: Manage Roles missing, or the role is not below the bot's highest role)."""
    FAILED = "failed"
    """A server error or a timeout: try again later."""


RoleCall = Callable[[int, int, int, str], Awaitable[RoleChange]]
"""Gives (or takes back) role ``role_id`` to member ``user_id`` of server ``guild_id``, with an audit-log reason."""


@dataclass(frozen=True)
class RolePort:
    """The cog's Discord calls: give a role, take one back."""

    give: RoleCall
    take: RoleCall


@dataclass(frozen=True)
class ChampionPlan:
    """What a delivered change does: take the role back from ``take``, then give ``role_id`` to ``give``."""

    guild_id: int
    role_id: int | None
    give: tuple[Holder, ...]
    take: tuple[Holder, ...]
    held: frozenset[int] = frozenset()
    """Members already written down for ``role_id`` (a crash may have cut their giving short)."""


PROBLEMS = {
    RoleChange.REFUSED: "Discord refused: I need **Manage Roles**, and the role must be below my highest role",
    RoleChange.NO_ROLE: "the role no longer exists",
}
"""What ``/solitaire config`` says about a refused change."""


def plan(
    guild_id: int, role_id: int | None, day: str | None, winners: Iterable[int], held: list[Holder]
) -> ChampionPlan:
    """Compare what is wanted (``winners`` of ``day`` holding ``role_id``) with what the bot gave (``held``).

    A winner who holds the role from the bot already keeps it untouched (no call to Discord).

    >>> held = [Holder(1, 9, "2026-01-01", 5.0), Holder(2, 9, "2026-01-01", 5.0), Holder(4, 9, "2026-01-01", None)]
    >>> p = plan(7, 9, "2026-01-02", [2, 3, 4], held)
    >>> [h.user_id for h in p.take], [(h.user_id, h.daily_date) for h in p.give], sorted(p.held)
    ([1], [(3, '2026-01-02'), (4, '2026-01-02')], [1, 2, 4])
    >>> plan(7, None, "2026-01-02", [2, 3], held).take == tuple(held)
    True
    """
    wanted = set(winners) if role_id is not None and day is not None else set()
    take = tuple(h for h in held if h.role_id != role_id or h.user_id not in wanted)
    given = {h.user_id for h in held if h.role_id == role_id and h.given_at is not None}
    give = tuple(Holder(user_id, role_id, day, None) for user_id in sorted(wanted - given) if role_id and day)
    return ChampionPlan(guild_id, role_id, give, take, frozenset(h.user_id for h in held if h.role_id == role_id))


class ChampionRoles:
    """Composes and delivers the ``champion`` announcements (registered on the daily service's announcements)."""

    def __init__(self, db: Database, announcements: Announcements, *, now: Clock, variants: Iterable[str]) -> None:
        self.db = db
        self.now = now
        self.variants = tuple(variants)
        self.port: RolePort | None = None
        announcements.register("champion", self.compose)
        announcements.add_listener(self.deliver, kinds=("champion",))

    def use(self, port: RolePort | None) -> None:
        """Make the role changes through ``port`` (``None``: none now; changes wait and are retried)."""
        self.port = port

    async def compose(self, pending: competition_db.Pending) -> Announcement | None:
        """Work out the change wanted now; ``None`` when the holders are already as wanted."""
        config = await competition_db.guild_config(self.db, pending.guild_id)
        role_id = config.champion_role_id
        day = await champions_db.champion_day(self.db, pending.guild_id, config.last_podium_date)
        winners: set[int] = set()
        if role_id is not None and day is not None:
            podium = await competition_db.podium(self.db, pending.guild_id, day, self.variants, places=1)
            winners = {entries[0].user_id for entries in podium.places.values() if entries}
        change = plan(pending.guild_id, role_id, day, winners, await champions_db.holders(self.db, pending.guild_id))
        if not change.give and not change.take:
            return None
        text = f"champion role {role_id} of {day}: give {len(change.give)}, take back {len(change.take)}"
        return Announcement(pending.guild_id, 0, "champion", text, False, pending.subject, change)

    async def deliver(self, announcement: Announcement) -> Delivery:
        """Take the role back, then give it; note a refusal for the admins; say how it went."""
        change = announcement.payload
        if self.port is None or not isinstance(change, ChampionPlan):
            return Delivery.FAILED
        outcomes = [await self._take(change.guild_id, holder) for holder in change.take]
        outcomes += [await self._give(change.guild_id, h, h.user_id in change.held) for h in change.give]
        problem = next((PROBLEMS[o] for o in outcomes if o in PROBLEMS), None)
        if problem is not None or all(o is not RoleChange.FAILED for o in outcomes):
            await champions_db.set_problem(self.db, change.guild_id, problem, self.now())
        if problem is not None:
            log.warning("server %s refused a champion role change: %s", change.guild_id, problem)
            return Delivery.FORBIDDEN
        return Delivery.FAILED if RoleChange.FAILED in outcomes else Delivery.POSTED

    async def _take(self, guild_id: int, holder: Holder) -> RoleChange:
        """Take the role back from a member the bot gave it to; forget them once it is gone."""
        assert self.port is not None
        reason = f"no longer the daily champion of {holder.daily_date}"
        outcome = await self.port.take(guild_id, holder.user_id, holder.role_id, reason)
        if outcome in (RoleChange.DONE, RoleChange.GONE, RoleChange.NO_ROLE):
            await champions_db.forget(self.db, guild_id, holder.user_id, holder.role_id)
            return RoleChange.DONE
        return outcome

    async def _give(self, guild_id: int, holder: Holder, known: bool) -> RoleChange:
        """Give a winner the role, written down first; a member who had it from someone else is left alone.

        ``known``: the member was written down before (a crash cut the giving short: the role is ours).
        """
        assert self.port is not None
        await champions_db.begin_giving(self.db, guild_id, holder)
        reason = f"daily champion of {holder.daily_date}"
        outcome = await self.port.give(guild_id, holder.user_id, holder.role_id, reason)
        if outcome is RoleChange.DONE or (outcome is RoleChange.HAD_IT and known):
            await champions_db.given(self.db, guild_id, holder.user_id, holder.role_id, self.now())
            return RoleChange.DONE
        if outcome is RoleChange.GONE or not known:
            await champions_db.forget(self.db, guild_id, holder.user_id, holder.role_id)  # left, or never ours
        return RoleChange.DONE if outcome in (RoleChange.HAD_IT, RoleChange.GONE) else outcome

"""The champion role: each variant's daily winner gets the server's chosen role when the day's podium is due.

Nothing here knows Discord. A change of the role's holders is an announcement of kind ``champion``
(:mod:`bot.storage.champions`), claimed by one process and retried like every post. When it is
delivered, :meth:`ChampionRoles.compose` works out what is wanted *now* (the winners of the last day
with a podium, with the role set now; nobody when no role is set) against what the bot gave
(``champion_holders``), and :meth:`ChampionRoles.deliver` makes the difference through the cog's
:class:`RolePort`: the bot takes the role back only from members it gave it to, and writes each
holder down before asking Discord, so a crash in between forgets nobody. Each winner is asked for
again (the cog looks at the roles the member holds now: one who lost the role meanwhile gets it back).
A refusal (403, a deleted role) is noted for the admins (the next ``/solitaire config`` and their setup
note) and the change is tried again later.

The champion role must be cosmetic: :func:`champion_role_refusals` is the one rule, read when an admin
sets the role, again before every grant (a role's permissions can change after it was set), and when a
channel's settings change (:meth:`ChampionRoles.recheck`: a channel made private after the role was set).
While it fails, nobody holds the role from the bot.

Its refusals are said to the admin who sets the role in their language; a refusal or a problem noted for the
admins later (``champion_problem``) is stored in English, so that a check compares it with the last one whatever
language the check runs in (:data:`PROBLEMS` is said in the reader's language where it is shown,
:func:`problem_words`). The audit log's reasons are said in the server's language (the outbox speaks it).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from datetime import date
from enum import Enum

from bot.invite import permission_name
from bot.outbox.announcements import Announcement, Announcements, Delivery
from bot.storage import Database
from bot.storage import champions as champions_db
from bot.storage import competition as competition_db
from bot.storage.champions import Holder
from bot.storage.outbox import Pending
from languages import formats
from solitaire.speech import N_, _, n_, speaking

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
class Overwrite:
    """A channel's permission setting for one role: what it allows and what it denies there (flag names)."""

    allow: frozenset[str] = frozenset()
    deny: frozenset[str] = frozenset()


@dataclass(frozen=True)
class ChannelFacts:
    """A channel (or category) as the rule reads it: the role's setting there, and @everyone's."""

    channel_id: int
    role: Overwrite
    everyone: Overwrite = Overwrite()


@dataclass(frozen=True)
class RoleFacts:
    """What the champion-role rule reads of a server's role (Discord's own types stay in the cog)."""

    role_id: int
    position: int
    """Its place in the server's role list (0: @everyone; higher is above)."""
    grants: frozenset[str]
    """The permissions it grants in the whole server (discord.py's flag names)."""
    managed: bool = False
    """Given only by an integration (a bot's own role, the boosters' role)."""
    everyone: bool = False
    """The server's @everyone role."""
    channels: tuple[ChannelFacts, ...] = ()
    """Its setting in each channel and category of the server that has one (with @everyone's there)."""


@dataclass(frozen=True)
class ServerRole:
    """A role as the rule checks it before a grant: the role, and what @everyone has in its server."""

    role: RoleFacts
    everyone: frozenset[str]


@dataclass(frozen=True)
class Setter:
    """The member who sets the champion role: their highest role's position, and whether they own the server."""

    top_position: int
    owner: bool = False


COSMETIC = "a champion role may only name and colour its members"
"""The rule, as the English refusals end (each refusal is one whole sentence)."""
CHANNELS_NAMED = 5
"""How many channels a refusal names (the others are counted)."""


def everyone_in(channel: ChannelFacts, everyone: frozenset[str]) -> frozenset[str]:
    """What @everyone has in ``channel``: ``everyone`` (its server permissions) with its setting there applied.

    >>> private = ChannelFacts(11, Overwrite(), Overwrite(deny=frozenset({"view_channel"})))
    >>> sorted(everyone_in(private, frozenset({"view_channel", "send_messages"})))
    ['send_messages']
    """
    return (everyone - channel.everyone.deny) | channel.everyone.allow


def _names(flags: Iterable[str]) -> str:
    """Permissions as Discord names them, in bold."""
    return ", ".join(f"**{permission_name(flag)}**" for flag in sorted(flags))


def _opens(role_id: int, extra: Iterable[str], channel_ids: list[int]) -> str:
    """The refusal of a role that allows ``extra`` in channels: the first few named, the others counted."""
    fields = {
        "role": f"<@&{role_id}>",
        "permissions": _names(extra),
        "channels": ", ".join(f"<#{channel_id}>" for channel_id in channel_ids[:CHANNELS_NAMED]),
    }
    if (more := len(channel_ids) - CHANNELS_NAMED) > 0:
        # Translators: {role} is a role mention, {permissions} Discord's names of permissions in bold, {channels}
        # channel mentions; {count} more channels are not named.
        return n_(
            "{role} allows {permissions} in {channels} and {count} more channel beyond what @everyone has there: "
            "a champion role may only name and colour its members",
            "{role} allows {permissions} in {channels} and {count} more channels beyond what @everyone has there: "
            "a champion role may only name and colour its members",
            more,
            **fields,
        )
    # Translators: {role} is a role mention, {permissions} Discord's names of permissions in bold, {channels}
    # channel mentions.
    return _(
        "{role} allows {permissions} in {channels} beyond what @everyone has there: "
        "a champion role may only name and colour its members",
        **fields,
    )


def channel_refusals(role: RoleFacts, everyone: frozenset[str]) -> list[str]:
    """Where ``role``'s channel settings allow what @everyone lacks there, one refusal per set of permissions.

    >>> view = frozenset({"view_channel"})
    >>> lets_in = ChannelFacts(11, Overwrite(allow=view), Overwrite(deny=view))
    >>> channel_refusals(RoleFacts(5, 3, frozenset(), channels=(lets_in,)), view)[0].split(":")[0]
    '<@&5> allows **View Channel** in <#11> beyond what @everyone has there'
    """
    opened: dict[frozenset[str], list[int]] = {}
    for channel in sorted(role.channels, key=lambda channel: channel.channel_id):
        if extra := channel.role.allow - everyone_in(channel, everyone):
            opened.setdefault(extra, []).append(channel.channel_id)
    return [_opens(role.role_id, extra, ids) for extra, ids in opened.items()]


def champion_role_refusals(role: RoleFacts, everyone: frozenset[str], setter: Setter | None = None) -> list[str]:
    """Why ``role`` may not be the champion role (none: it may); ``setter``: also whether that member may choose it.

    The role must be cosmetic: grant nothing beyond what ``everyone`` has in the server, and in each channel
    allow nothing beyond what @everyone has *there* (a role that lets its members into a private channel, or
    speak where @everyone may not, is no title). It must be givable (not @everyone, not an integration's)
    and, for a setter who does not own the server, below their own highest role.

    >>> champion_role_refusals(RoleFacts(5, 3, frozenset({"send_messages"})), frozenset({"send_messages"}))
    []
    >>> kicker = RoleFacts(5, 3, frozenset({"kick_members"}))
    >>> [refusal.split(":")[0] for refusal in champion_role_refusals(kicker, frozenset(), Setter(top_position=3))]
    ['<@&5> grants **Kick Members** beyond what @everyone has', '<@&5> is not below your highest role']
    """
    mention = f"<@&{role.role_id}>"
    if role.everyone:
        return [_("{role} is everyone's role", role=mention)]
    if role.managed:
        return [
            _("{role} is managed by an integration (a bot's or the boosters' role): nobody can give it", role=mention)
        ]
    refusals = []
    if extra := role.grants - everyone:
        permissions = _names(extra)
        refusals.append(
            _(
                "{role} grants {permissions} beyond what @everyone has: "
                "a champion role may only name and colour its members",
                role=mention,
                permissions=permissions,
            )
        )
    refusals += channel_refusals(role, everyone)
    if setter is not None and not setter.owner and role.position >= setter.top_position:
        refusals.append(
            _("{role} is not below your highest role: choose a role you could manage yourself", role=mention)
        )
    return refusals


RoleLook = Callable[[int, int], Awaitable[ServerRole | None]]
"""Looks up role ``role_id`` of server ``guild_id`` as it is now (``None``: unknown there, the grant will say)."""


@dataclass(frozen=True)
class RolePort:
    """The cog's Discord calls: give a role, take one back, look at a role as it is now."""

    give: RoleCall
    take: RoleCall
    look: RoleLook


@dataclass(frozen=True)
class ChampionPlan:
    """What a delivered change does: take the role back from ``take``, then give ``role_id`` to ``give``."""

    guild_id: int
    role_id: int | None
    give: tuple[Holder, ...]
    take: tuple[Holder, ...]
    held: frozenset[int] = frozenset()
    """Members already written down for ``role_id`` (a crash may have cut their giving short)."""


# Translators: a reason shown in the server's audit log.
WITHHELD = N_("the champion role fails the cosmetic rule now (see /solitaire config)")
"""The audit-log reason when the role is taken back from a winner because the rule refuses it now."""


def _no_longer(holder: Holder) -> str:
    """The audit-log reason when a former champion loses the role."""
    # Translators: a reason shown in the server's audit log.
    return _("no longer the daily champion of {day}", day=_day(holder.daily_date))


def _champion_of(holder: Holder) -> str:
    """The audit-log reason when a winner gets the role."""
    # Translators: a reason shown in the server's audit log.
    return _("daily champion of {day}", day=_day(holder.daily_date))


def _day(daily_date: str) -> str:
    """A champion's day as the spoken language writes it (``2026-01-02`` in English)."""
    return formats.day(date.fromisoformat(daily_date))


def rule_refusal(found: ServerRole) -> str | None:
    """Why the role may not be given now, every reason in one English line (stored, compared; ``None``: it may)."""
    with speaking(None):
        return "; and ".join(champion_role_refusals(found.role, found.everyone)) or None


PROBLEMS = {
    RoleChange.REFUSED: N_("Discord refused: I need **Manage Roles**, and the role must be below my highest role"),
    RoleChange.NO_ROLE: N_("the role no longer exists"),
}
"""What ``/solitaire config`` says about a refused change (stored in English, said with :func:`problem_words`)."""


def problem_words(problem: str) -> str:
    """A stored champion-role problem in the spoken language (a refusal by the rule stays in English, as stored)."""
    return next((_(known) for known in PROBLEMS.values() if known == problem), problem)


def plan(
    guild_id: int, role_id: int | None, day: str | None, winners: Iterable[int], held: list[Holder]
) -> ChampionPlan:
    """Compare what is wanted (``winners`` of ``day`` holding ``role_id``) with what the bot gave (``held``).

    Every winner is given the role again, even one the bot's record says holds it: the cog looks at the
    roles the member holds now (one who lost it meanwhile, by hand or by leaving, gets it back).

    >>> held = [Holder(1, 9, "2026-01-01", 5.0), Holder(2, 9, "2026-01-01", 5.0), Holder(4, 9, "2026-01-01", None)]
    >>> p = plan(7, 9, "2026-01-02", [2, 3, 4], held)
    >>> [h.user_id for h in p.take], [(h.user_id, h.daily_date) for h in p.give], sorted(p.held)
    ([1], [(2, '2026-01-02'), (3, '2026-01-02'), (4, '2026-01-02')], [1, 2, 4])
    >>> plan(7, None, "2026-01-02", [2, 3], held).take == tuple(held)
    True
    """
    wanted = set(winners) if role_id is not None and day is not None else set()
    take = tuple(h for h in held if h.role_id != role_id or h.user_id not in wanted)
    give = tuple(Holder(user_id, role_id, day, None) for user_id in sorted(wanted) if role_id and day)
    return ChampionPlan(guild_id, role_id, give, take, frozenset(h.user_id for h in held if h.role_id == role_id))


class ChampionRoles:
    """Composes and delivers the ``champion`` announcements (registered on the runtime's one outbox)."""

    def __init__(self, db: Database, announcements: Announcements, *, now: Clock, variants: Iterable[str]) -> None:
        self.db = db
        self.now = now
        self.variants = tuple(variants)
        self.port: RolePort | None = None
        self.announcements = announcements
        announcements.register("champion", self.compose)
        announcements.add_listener(self.deliver, kinds=("champion",))

    def use(self, port: RolePort | None) -> None:
        """Make the role changes through ``port`` (``None``: none now; changes wait and are retried)."""
        self.port = port

    async def choose(self, guild_id: int, role_id: int | None, *, podium_after: str) -> None:
        """Set (or clear) the server's champion role and queue the change of its holders (see ``set_champion_role``)."""
        await champions_db.set_champion_role(self.db, guild_id, role_id, podium_after=podium_after, now=self.now())

    async def recheck(self, guild_id: int) -> None:
        """Check the server's champion role again after a change in Discord (a channel's settings, say).

        While the rule refuses the role, the problem is noted for the admins (each problem told once) and a
        change is queued: its delivery takes the role back from the members the bot gave it to. Once the
        rule accepts it again, the problem it noted is cleared and the change gives the winners the role back.
        """
        if self.port is None:
            return
        config = await competition_db.guild_config(self.db, guild_id)
        if config.champion_role_id is None:
            return
        found = await self.port.look(guild_id, config.champion_role_id)
        refusal = rule_refusal(found) if found is not None else None
        noted = config.champion_problem
        if refusal == noted or (refusal is None and (noted is None or noted in PROBLEMS.values())):
            return  # nothing new: the same refusal, or a problem of Discord's (the next delivery clears it)
        log.info("server %s: champion role checked again: %s", guild_id, refusal or "accepted again")
        await champions_db.recheck(self.db, guild_id, refusal, self.now())
        self.announcements.queued()

    async def compose(self, pending: Pending) -> Announcement | None:
        """Work out the change wanted now; ``None`` when the holders are already as wanted."""
        config = await competition_db.champion_settings(self.db, pending.id, pending.guild_id)
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
        """Take the role back, then give it if it is still cosmetic; note a refusal for the admins; say how it went."""
        change = announcement.payload
        if self.port is None or not isinstance(change, ChampionPlan):
            return Delivery.FAILED
        refusal = await self._refusal(change) if change.give else None
        outcomes = [await self._take(change.guild_id, holder, _no_longer(holder)) for holder in change.take]
        if refusal is not None:  # a winner who holds it from the bot loses it while the rule refuses it
            withheld = [h for h in change.give if h.user_id in change.held]
            outcomes += [await self._take(change.guild_id, h, _(WITHHELD)) for h in withheld]
        else:
            outcomes += [await self._give(change.guild_id, h, h.user_id in change.held) for h in change.give]
        problem = refusal or next((PROBLEMS[o] for o in outcomes if o in PROBLEMS), None)
        if problem is not None or all(o is not RoleChange.FAILED for o in outcomes):
            await champions_db.set_problem(self.db, change.guild_id, problem, self.now())
        if problem is not None:
            log.warning("server %s refused a champion role change: %s", change.guild_id, problem)
            return Delivery.FORBIDDEN
        return Delivery.FAILED if RoleChange.FAILED in outcomes else Delivery.POSTED

    async def _refusal(self, change: ChampionPlan) -> str | None:
        """Why the role may not be given now (its permissions may have changed since it was set), else ``None``."""
        assert self.port is not None and change.role_id is not None
        found = await self.port.look(change.guild_id, change.role_id)
        return rule_refusal(found) if found is not None else None

    async def _take(self, guild_id: int, holder: Holder, reason: str) -> RoleChange:
        """Take the role back from a member the bot gave it to; forget them once it is gone."""
        assert self.port is not None
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
        outcome = await self.port.give(guild_id, holder.user_id, holder.role_id, _champion_of(holder))
        if outcome is RoleChange.DONE or (outcome is RoleChange.HAD_IT and known):
            await champions_db.given(self.db, guild_id, holder.user_id, holder.role_id, self.now())
            return RoleChange.DONE
        if outcome is RoleChange.GONE or not known:
            await champions_db.forget(self.db, guild_id, holder.user_id, holder.role_id)  # left, or never ours
        return RoleChange.DONE if outcome in (RoleChange.HAD_IT, RoleChange.GONE) else outcome

"""The champion-role rule: a cosmetic role (in the server and in each channel), which its setter could manage."""

from __future__ import annotations

import pytest

from bot.compete.champions import (
    COSMETIC,
    ChannelFacts,
    Overwrite,
    RoleFacts,
    Setter,
    champion_role_refusals,
    everyone_in,
)

EVERYONE = frozenset({"view_channel", "send_messages", "read_message_history"})
ROLE = 5
MENTION = f"<@&{ROLE}>"
BELOW = f"{MENTION} is not below your highest role: choose a role you could manage yourself"


def role(*grants: str, position: int = 3, managed: bool = False, everyone: bool = False) -> RoleFacts:
    return RoleFacts(ROLE, position, frozenset(grants), managed=managed, everyone=everyone)


def beyond(names: str) -> str:
    return f"{MENTION} grants {names} beyond what @everyone has: {COSMETIC}"


@pytest.mark.parametrize(
    ("facts", "setter", "refusals"),
    [
        (role(), Setter(4), []),  # no permission at all: a name and a colour
        (role("view_channel", "send_messages"), Setter(4), []),  # only what @everyone has
        (role(), None, []),  # before a grant: no setter to check
        (role("administrator"), Setter(4), [beyond("**Administrator**")]),
        (role("manage_guild"), Setter(4), [beyond("**Manage Server**")]),
        (role("manage_roles", "send_messages"), Setter(4), [beyond("**Manage Roles**")]),
        (role("manage_channels"), Setter(4), [beyond("**Manage Channels**")]),
        (role("ban_members", "kick_members"), Setter(4), [beyond("**Ban Members**, **Kick Members**")]),
        (role("mention_everyone"), Setter(4), [beyond("**Mention Everyone**")]),
        (role("manage_messages"), None, [beyond("**Manage Messages**")]),  # checked before each grant too
        (role("moderate_members"), Setter(4), [beyond("**Timeout Members**")]),
        (role(position=4), Setter(4), [BELOW]),  # at the setter's highest role
        (role(position=9), Setter(4), [BELOW]),  # above it
        (role(position=9), Setter(4, owner=True), []),  # the owner may choose any
        (role(position=9), None, []),
        (role("administrator", position=9), Setter(4, owner=True), [beyond("**Administrator**")]),  # owner or not
        (role("kick_members", position=4), Setter(4), [beyond("**Kick Members**"), BELOW]),
        (role(*EVERYONE, position=0, everyone=True), Setter(4), [f"{MENTION} is everyone's role"]),
        (
            role("administrator", managed=True),
            Setter(4, owner=True),
            [f"{MENTION} is managed by an integration (a bot's or the boosters' role): nobody can give it"],
        ),
    ],
)
def test_only_a_cosmetic_role_below_the_setters_own_may_be_the_champion_role(
    facts: RoleFacts, setter: Setter | None, refusals: list[str]
) -> None:
    assert champion_role_refusals(facts, EVERYONE, setter) == refusals


def test_what_everyone_has_is_the_servers_own() -> None:
    assert champion_role_refusals(role("mention_everyone"), EVERYONE | {"mention_everyone"}) == []
    assert champion_role_refusals(role("send_messages"), frozenset()) == [beyond("**Send Messages**")]


# -- in each channel: what @everyone has there ---------------------------------------------------------
PRIVATE = Overwrite(deny=frozenset({"view_channel"}))
"""@everyone's setting in a private channel."""
READ_ONLY = Overwrite(deny=frozenset({"send_messages"}))
"""@everyone's setting in an announcements channel."""
HIDDEN = Overwrite(deny=frozenset({"view_channel", "send_messages"}))
"""@everyone's setting in a private channel where it could not speak either."""
OPENS = Overwrite(allow=frozenset({"view_channel", "send_messages"}))
"""A role's setting that lets its members in and lets them speak."""


def in_channels(*channels: tuple[Overwrite, Overwrite]) -> RoleFacts:
    """A role without permissions of its own, with ``(its setting, @everyone's setting)`` in channels 11, 12, …"""
    facts = tuple(ChannelFacts(11 + n, mine, theirs) for n, (mine, theirs) in enumerate(channels))
    return RoleFacts(ROLE, 3, frozenset(), channels=facts)


def opens(names: str, *channel_ids: int) -> str:
    where = ", ".join(f"<#{channel_id}>" for channel_id in channel_ids)
    return f"{MENTION} allows {names} in {where} beyond what @everyone has there: {COSMETIC}"


@pytest.mark.parametrize(
    ("facts", "refusals"),
    [
        (in_channels((OPENS, Overwrite())), []),  # a public channel: @everyone sees it and speaks there
        (in_channels((Overwrite(deny=frozenset({"send_messages"})), Overwrite())), []),  # a denial takes away
        (in_channels((OPENS, PRIVATE)), [opens("**View Channel**", 11)]),  # the role lets its members in
        (in_channels((OPENS, READ_ONLY)), [opens("**Send Messages**", 11)]),  # … or lets them speak
        (
            in_channels((OPENS, Overwrite()), (OPENS, PRIVATE), (OPENS, READ_ONLY)),
            [opens("**View Channel**", 12), opens("**Send Messages**", 13)],
        ),
        (
            in_channels((OPENS, HIDDEN), (OPENS, HIDDEN)),
            [opens("**Send Messages**, **View Channel**", 11, 12)],  # one line for the same permissions
        ),
        (  # @everyone let in by its own setting there: the role adds nothing
            in_channels((OPENS, Overwrite(allow=frozenset({"view_channel", "send_messages"})))),
            [],
        ),
        (  # a permission @everyone lacks in the server but is given in that channel
            in_channels((Overwrite(allow=frozenset({"attach_files"})), Overwrite(allow=frozenset({"attach_files"})))),
            [],
        ),
        (
            in_channels((Overwrite(allow=frozenset({"manage_messages"})), Overwrite())),
            [opens("**Manage Messages**", 11)],
        ),
    ],
)
def test_in_each_channel_a_champion_role_may_allow_only_what_everyone_has_there(
    facts: RoleFacts, refusals: list[str]
) -> None:
    assert champion_role_refusals(facts, EVERYONE) == refusals


def test_a_role_that_opens_a_private_channel_is_refused_whatever_its_server_permissions() -> None:
    facts = RoleFacts(ROLE, 3, frozenset({"manage_guild"}), channels=(ChannelFacts(11, OPENS, PRIVATE),))
    assert champion_role_refusals(facts, EVERYONE, Setter(4)) == [
        beyond("**Manage Server**"),
        opens("**View Channel**", 11),
    ]


def test_many_opened_channels_are_named_up_to_a_few() -> None:
    facts = in_channels(*[(OPENS, PRIVATE)] * 7)
    [refusal] = champion_role_refusals(facts, EVERYONE)
    assert refusal == (
        f"{MENTION} allows **View Channel** in <#11>, <#12>, <#13>, <#14>, <#15> and 2 more channels"
        f" beyond what @everyone has there: {COSMETIC}"
    )


@pytest.mark.parametrize(
    ("setting", "everyone", "there"),
    [
        (Overwrite(), EVERYONE, EVERYONE),
        (PRIVATE, EVERYONE, EVERYONE - {"view_channel"}),
        (Overwrite(allow=frozenset({"attach_files"})), EVERYONE, EVERYONE | {"attach_files"}),
        (Overwrite(frozenset({"view_channel"}), frozenset({"view_channel"})), frozenset(), frozenset({"view_channel"})),
    ],
)
def test_what_everyone_has_in_a_channel_is_the_servers_with_its_setting_there(
    setting: Overwrite, everyone: frozenset[str], there: frozenset[str]
) -> None:
    assert everyone_in(ChannelFacts(11, Overwrite(), setting), everyone) == there

"""The champion-role rule: a cosmetic role, which the member setting it could manage themselves."""

from __future__ import annotations

import pytest

from bot.compete.champions import COSMETIC, RoleFacts, Setter, champion_role_refusals

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

"""Into a server: the invite link asks for exactly the permissions the bot uses, and the log says how to invite it."""

from __future__ import annotations

import functools
import logging
import re
from pathlib import Path

import discord
import pytest

import bot.invite
from bot.invite import PERMISSIONS, SCOPES, Permission, invite_lines, required
from bot.runtime.client import NO_SERVER, invite_url
from cogs.competition_commands import POST_PERMISSIONS

DEPLOY = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"
ON_SQLITE = pytest.mark.parametrize("backend", ["sqlite"])  # the log lines and permissions involve no database


def permissions_of(url: str) -> discord.Permissions:
    return discord.Permissions(int(re.search(r"[?&]permissions=(\d+)", url)[1]))


def test_every_permission_is_a_discord_permission_with_a_reason():
    assert [p.flag for p in PERMISSIONS] == [
        "view_channel",
        "send_messages",
        "embed_links",
        "attach_files",
        "manage_roles",
    ]
    assert [p.flag for p in PERMISSIONS if p.optional] == ["manage_roles"]  # only the champion role needs it
    for permission in PERMISSIONS:
        assert permission.flag in discord.Permissions.VALID_FLAGS and len(permission.why) > 20
    assert set(POST_PERMISSIONS) <= {p.flag for p in required()}  # what /solitaire config channel checks


def test_the_invite_link_asks_for_the_scopes_and_exactly_those_permissions():
    url = invite_url(4242, required())
    assert url.startswith("https://discord.com/oauth2/authorize?client_id=4242&scope=bot+applications.commands&")
    assert SCOPES == ("bot", "applications.commands")
    granted = permissions_of(url)
    assert granted.value == (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15)  # Discord's bits of the four, nothing else
    assert all(getattr(granted, p.flag) for p in required())
    assert not granted.manage_roles  # an optional extra: its own link
    assert not granted.administrator and not granted.manage_guild and not granted.mention_everyone


def test_an_optional_extra_gets_its_own_line_with_its_reason(monkeypatch):
    plain, optional = invite_lines(functools.partial(invite_url, 4242))
    assert not permissions_of(plain).manage_roles and "Manage Roles" not in plain
    assert optional.startswith(
        "or, with the optional Manage Roles (to give each day's daily winners the champion role a server chooses "
        "with /solitaire config champion_role): "
    )
    assert permissions_of(optional).manage_roles and permissions_of(optional).send_messages
    extra = Permission("manage_threads", "a later feature's thread", optional=True)
    monkeypatch.setattr(bot.invite, "PERMISSIONS", (*PERMISSIONS, extra))
    assert len(invite_lines(functools.partial(invite_url, 4242))) == 3  # one line per optional extra


def test_the_deploy_doc_lists_every_permission_and_why():
    text = DEPLOY.read_text()
    for permission in PERMISSIONS:
        assert f"| **{permission.name}** | {permission.why} |" in text


@ON_SQLITE
async def test_ready_logs_the_versions_the_invite_link_and_the_empty_server_list(simcord_env, caplog):
    bot = simcord_env.bot
    caplog.set_level(logging.INFO, logger="bot.runtime.client")
    bot._ready_logged = False
    await bot.on_ready()
    lines = [record.getMessage() for record in caplog.records]
    assert lines[0].startswith("Solitaire Rush for Discord ") and "discord.py 2." in lines[0]
    assert lines[1].startswith(f"ready as {bot.user}: 0 servers")
    assert lines[2].startswith("commands are synced to every server") and "DEV_GUILD_ID" in lines[2]
    assert lines[3].startswith(
        f"invite me to a server: https://discord.com/oauth2/authorize?client_id={bot.application_id}"
    )
    assert "permissions: View Channel, Send Messages, Embed Links, Attach Files;" in lines[3]
    assert lines[4].startswith("or, with the optional Manage Roles (to give each day's daily winners")
    assert lines[5] == NO_SERVER and caplog.records[5].levelno == logging.WARNING


@ON_SQLITE
async def test_leaving_the_last_server_logs_the_invite_again(simcord_env, caplog):
    caplog.set_level(logging.INFO, logger="bot.runtime.client")
    guild = simcord_env.create_guild("Solitaire Club")
    await simcord_env.settle()
    await simcord_env.bot.on_guild_join(simcord_env.bot.get_guild(guild.id))  # SimCord announces it as available
    joined = [r.getMessage() for r in caplog.records]
    assert joined[-1].startswith("joined server Solitaire Club") and joined[-1].endswith(": 1 servers")

    simcord_env.backend.remove_guild(guild.id)
    await simcord_env.settle()
    after = [r.getMessage() for r in caplog.records]
    assert after[-4].startswith("left server Solitaire Club") and after[-4].endswith(": 0 servers")
    assert after[-3].startswith("invite me to a server: ") and after[-2].startswith("or, with the optional")
    assert after[-1] == NO_SERVER


@ON_SQLITE
@pytest.mark.parametrize("lacking", ["embed_links", "attach_files"])
async def test_joining_with_a_role_that_lacks_a_permission_names_it(simcord_env, caplog, lacking):
    caplog.set_level(logging.INFO, logger="bot.runtime.client")
    guild = simcord_env.create_guild("Strict Club")
    await simcord_env.settle()
    cached = simcord_env.bot.get_guild(guild.id)
    for role in (cached.default_role, cached.me.top_role):  # SimCord's @everyone has both too
        granted = discord.Permissions(role.permissions.value)
        setattr(granted, lacking, False)
        simcord_env.backend.edit_role(guild.id, role.id, {"permissions": str(granted.value)})
    await simcord_env.settle()
    await simcord_env.bot.on_guild_join(cached)
    [warning] = [r.getMessage() for r in caplog.records if "my role lacks" in r.getMessage()]
    assert f"my role lacks {lacking.replace('_', ' ').title()}: grant it" in warning


@ON_SQLITE
async def test_joining_with_every_permission_warns_of_nothing(simcord_env, caplog):
    caplog.set_level(logging.INFO, logger="bot.runtime.client")
    guild = simcord_env.create_guild("Solitaire Club")
    await simcord_env.settle()
    await simcord_env.bot.on_guild_join(simcord_env.bot.get_guild(guild.id))
    assert not any("my role lacks" in r.getMessage() for r in caplog.records)

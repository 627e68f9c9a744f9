"""Fixtures of the cog tests: more members of the test server (a manager, three more players, carol)."""

from __future__ import annotations

import discord
import pytest


@pytest.fixture
def admin(simcord_env, guild):
    admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    return guild.add_member(simcord_env.create_user("root"), roles=[admins])


@pytest.fixture
def members(simcord_env, guild):
    return {name: guild.add_member(simcord_env.create_user(name)) for name in ("carol", "dave", "erin")}


@pytest.fixture
def carol(simcord_env, guild):  # type: ignore[no-untyped-def]
    return guild.add_member(simcord_env.create_user("carol"))

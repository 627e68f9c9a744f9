"""``python -m bot`` for real: settings errors, and a full run against a fake Discord ended by SIGTERM."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import tomllib
from pathlib import Path

import pytest

from bot.runtime.settings import Settings
from bot.version import bot_version
from tests.support.fake_discord import ENTRY_POINT, FakeDiscord, entry_point_command

pytestmark = pytest.mark.processes  # real processes: left out of the fast loop

BASE_ENV = {key: value for key, value in os.environ.items() if not key.startswith(("DISCORD_", "DATABASE_", "DEV_"))}
LOG_LINE = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} (INFO|WARNING) ")
"""A line of the start-up log (the steps are logged at INFO, unknown settings at WARNING)."""
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GaBcDe.fake-signature-of-a-bot-token-for-tests"
"""A string shaped like a bot token (it goes nowhere: the tests that use it fail before logging in)."""


def the_error_line(stderr: str) -> str:
    """The one line that is not the start-up log: the last, starting with ``error:``, and no traceback around it."""
    others = [line for line in stderr.splitlines() if not LOG_LINE.match(line)]
    assert len(others) == 1 and stderr.endswith(others[0] + "\n"), stderr
    assert others[0].startswith("error: ") and "Traceback" not in stderr and " ERROR " not in stderr, stderr
    return others[0]


async def run_bot(cwd: Path, env: dict[str, str], *, until: str | None = None) -> tuple[int, str]:
    """Run ``python -m bot``; with ``until``, send SIGTERM once stderr shows that text."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=cwd,
        env={**BASE_ENV, **env},
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    assert process.stderr is not None
    lines = []
    if until is not None:
        while line := (await asyncio.wait_for(process.stderr.readline(), 30)).decode():
            lines.append(line)
            if until in line:
                process.send_signal(signal.SIGTERM)
                break
    rest = await asyncio.wait_for(process.stderr.read(), 30)
    status = await asyncio.wait_for(process.wait(), 30)
    return status, "".join(lines) + rest.decode()


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({}, "error: DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": "x", "DATABASE_PATH": "/no/such/folder/s.db", "LOG_LEVEL": "loud"}, "LOG_LEVEL is invalid"),
    ],
)
async def test_a_missing_or_bad_setting_exits_at_once_with_one_line(tmp_path, env, message):
    """(Each setting's checks are in test_settings.py; here the process exits, quickly and quietly.)"""
    status, stderr = await run_bot(tmp_path, env)
    assert status == 2
    assert stderr.startswith("error: ") and message in stderr and stderr.count("\n") == 1 and "Traceback" not in stderr


async def test_runs_against_the_configured_endpoints_logs_ready_and_stops_cleanly_on_sigterm(tmp_path):
    fake = FakeDiscord()
    await fake.start()
    try:
        (tmp_path / ".env").write_text(
            f"DISCORD_TOKEN=fake-token\nDISCORD_API_BASE={fake.api_base}\nDISCORD_GATEWAY_URL={fake.gateway_url}\n"
            "DATABASE_PATH=./games.db\nDEAL_BANK_SIZE=0\n"
        )
        status, stderr = await run_bot(tmp_path, {}, until="ready")
    finally:
        await fake.stop()
    assert status == 0, stderr
    ready = [line for line in stderr.splitlines() if " INFO " in line and "ready" in line]
    assert len(ready) == 1 and re.search(r"ready as SolitaireRush: 0 servers, \d+ commands", ready[0]), stderr
    started = f" INFO    bot.runtime.client: Solitaire Rush for Discord {project_version()} (discord.py 2."
    assert started in stderr, stderr
    invite = (
        "invite me to a server: https://discord.com/oauth2/authorize?client_id=4242&scope=bot+applications.commands"
    )
    assert f"{invite}&permissions=52224 (permissions: View Channel, Send Messages" in stderr, stderr
    assert " WARNING bot.runtime.client: I am in no server: open the invite link above" in stderr
    assert "shutting down" in stderr
    assert "Traceback" not in stderr and "ERROR" not in stderr
    assert "GET /users/@me" in fake.requests and f"PUT /applications/{4242}/commands" in fake.requests
    assert [c["name"] for c in fake.commands] == ["solitaire"]
    assert fake.gateway_urls and fake.gateway_urls[0].startswith("/gateway?v=10")
    identify = next(payload["d"] for payload in fake.gateway if payload["op"] == 2)
    # the guilds and moderation (bans: a banned member's Activity pages close) intents: nothing privileged
    assert identify["intents"] == 1 | 4 and identify["token"] == "fake-token"
    with sqlite3.connect(tmp_path / "games.db") as db:
        assert db.execute("SELECT COUNT(*) FROM schema_migrations").fetchone()[0] >= 1


async def test_a_token_discord_refuses_is_one_line(tmp_path):
    fake = FakeDiscord()
    await fake.start()
    try:
        env = {"DISCORD_TOKEN": "wrong", "DISCORD_API_BASE": fake.api_base, "DATABASE_PATH": str(tmp_path / "g.db")}
        status, stderr = await run_bot(tmp_path, env)
    finally:
        await fake.stop()
    assert status == 2 and the_error_line(stderr).startswith("error: Discord refused DISCORD_TOKEN")


async def test_a_database_that_cannot_be_used_is_one_line(tmp_path):
    (tmp_path / "g.db").write_text("this is not a database, just text that is long enough to be read as one" * 20)
    fake = FakeDiscord()
    await fake.start()
    try:
        env = {
            "DISCORD_TOKEN": "fake-token",
            "DISCORD_API_BASE": fake.api_base,
            "DATABASE_PATH": str(tmp_path / "g.db"),
        }
        status, stderr = await run_bot(tmp_path, env)
    finally:
        await fake.stop()
    assert status == 2 and the_error_line(stderr).startswith("error: cannot use the database"), stderr
    assert fake.requests == []  # the database is opened before logging in


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://solitaire:Pw-s3cret-1@127.0.0.1:{port}/db",
        "postgresql://solitaire@127.0.0.1:{port}/db?password=Pw-s3cret-2",
        "postgresql://solitaire@127.0.0.1:{port}/db?sslmode=bogus&password=Pw-s3cret-3",
        "postgresql://solitaire:Pw%2Ds3cret%2D4@127.0.0.1:{port}/db",
        "postgresql://solitaire:Pw-s3c@ret-5@127.0.0.1:{port}/db",
        "postgresql://solitaire:Pw-s3cret-6@[::1/db",
    ],
    ids=[
        "in-the-user-part",
        "as-a-parameter",
        "beside-a-bad-parameter",
        "percent-encoded",
        "with-an-at-sign",
        "broken",
    ],
)
async def test_the_database_password_is_never_printed(tmp_path, url):
    from tests.support.postgres_server import free_port

    fake = FakeDiscord()
    await fake.start()
    try:
        env = {
            "DISCORD_TOKEN": "fake-token",
            "DISCORD_API_BASE": fake.api_base,
            "DATABASE_URL": url.format(port=free_port()),
        }
        status, stderr = await run_bot(tmp_path, env)
    finally:
        await fake.stop()
    assert status == 2 and the_error_line(stderr), stderr
    assert "Pw" not in stderr and "s3c" not in stderr and "ret-" not in stderr, stderr
    assert "solitaire" in stderr or "DATABASE_URL is invalid" in stderr, stderr


async def test_a_metrics_port_in_use_is_named_as_such(tmp_path):
    from tests.support.postgres_server import free_port

    fake = FakeDiscord()
    await fake.start()
    port = free_port()
    taken = await asyncio.start_server(lambda reader, writer: None, "127.0.0.1", port)
    try:
        env = {
            "DISCORD_TOKEN": "fake-token",
            "DISCORD_API_BASE": fake.api_base,
            "DATABASE_PATH": str(tmp_path / "g.db"),
            "METRICS_PORT": str(port),
        }
        status, stderr = await run_bot(tmp_path, env)
    finally:
        taken.close()
        await fake.stop()
    line = the_error_line(stderr)
    assert status == 2 and line.startswith(f"error: cannot serve the metrics on 127.0.0.1:{port} (METRICS_PORT): ")
    assert line.endswith("Address already in use") and "Discord" not in line
    assert fake.requests == []  # checked before logging in


PYPROJECT = Path(__file__).resolve().parents[3] / "pyproject.toml"


def project_version() -> str:
    return str(tomllib.loads(PYPROJECT.read_text())["project"]["version"])


def test_the_version_is_the_package_metadata_of_pyproject():
    assert bot_version() == project_version()


async def test_the_installed_command_helps_and_says_its_version_without_settings(tmp_path):
    command = str(Path(sys.executable).with_name("solitaire-bot"))
    helped = subprocess.run([command, "--help"], cwd=tmp_path, env=BASE_ENV, capture_output=True, text=True, check=True)
    assert helped.stdout.startswith("usage: solitaire-bot ")
    for setting in Settings.model_fields:
        assert f"\n  {setting.upper()} " in helped.stdout  # every setting listed, from Settings itself
    assert "DISCORD_TOKEN         required" in helped.stdout and "2 a setting, the token" in helped.stdout
    version = subprocess.run([command, "--version"], env=BASE_ENV, capture_output=True, text=True, check=True)
    assert version.stdout == f"solitaire-bot {project_version()}\n"


STEPS = (
    "INFO    bot: settings read from the environment (no .env file in",
    "INFO    bot.runtime.startup: opening the database ",
    "INFO    bot.runtime.startup: database opened and migrated",
    "INFO    bot.runtime.startup: logging in to Discord...",
    "INFO    bot.runtime.startup: logged in",
    "INFO    bot.runtime.startup: syncing the commands to every server...",
    "INFO    bot.runtime.startup: commands synced",
    "INFO    bot.runtime.startup: connecting to the gateway...",
    "INFO    bot.runtime.startup: connected to the gateway",
)


def fake_env(fake: FakeDiscord, tmp_path: Path, **more: str) -> dict[str, str]:
    """The settings of a bot talking to ``fake`` with a database in ``tmp_path``."""
    return {
        "DISCORD_TOKEN": "fake-token",
        "DISCORD_API_BASE": fake.api_base,
        "DISCORD_GATEWAY_URL": fake.gateway_url,
        "DATABASE_PATH": str(tmp_path / "g.db"),
        "DEAL_BANK_SIZE": "0",
        **more,
    }


async def test_each_start_up_step_is_logged_in_order(tmp_path):
    fake = FakeDiscord()
    await fake.start()
    try:
        status, stderr = await run_bot(tmp_path, fake_env(fake, tmp_path), until="connected to the gateway")
    finally:
        await fake.stop()
    assert status == 0, stderr
    places = [stderr.find(step) for step in STEPS]
    assert -1 not in places and places == sorted(places), stderr


@pytest.mark.parametrize(
    ("silent", "step"),
    [("/users/@me", "logging in to Discord"), ("/gateway", "connecting to the gateway")],
    ids=["login", "gateway"],
)
async def test_a_step_the_network_swallows_gives_up_after_the_startup_timeout_naming_it(tmp_path, silent, step):
    fake = FakeDiscord(silent={silent})
    await fake.start()
    try:
        started = asyncio.get_running_loop().time()
        status, stderr = await run_bot(tmp_path, fake_env(fake, tmp_path, STARTUP_TIMEOUT="1.5"))
        took = asyncio.get_running_loop().time() - started
    finally:
        await fake.stop()
    line = the_error_line(stderr)
    assert status == 1 and took < 20, stderr
    assert line.startswith(f"error: cannot reach Discord: {step} got no answer in 1.5 s (check the network"), line
    assert f"INFO    bot.runtime.startup: {step}..." in stderr


@pytest.mark.parametrize("shards", ["", "2"], ids=["one-process", "sharded"])
async def test_a_failed_first_gateway_connection_after_a_good_login_is_one_line(tmp_path, shards):
    from tests.support.postgres_server import free_port

    fake = FakeDiscord()
    await fake.start()
    try:
        env = fake_env(fake, tmp_path, DISCORD_GATEWAY_URL=f"ws://127.0.0.1:{free_port()}/gateway", SHARD_COUNT=shards)
        status, stderr = await run_bot(tmp_path, env)
    finally:
        await fake.stop()
    line = the_error_line(stderr)
    assert status == 1 and line.startswith("error: cannot reach Discord: connecting to the gateway failed: Cannot conn")
    assert "INFO    bot.runtime.startup: logged in" in stderr


@pytest.mark.parametrize("where", ["/proc/no-such.db", "{tmp}"], ids=["cannot-be-created", "a-folder"])
async def test_a_database_path_that_cannot_be_opened_is_one_line_every_time(tmp_path, where):
    env = {"DISCORD_TOKEN": TOKEN, "DATABASE_PATH": where.format(tmp=tmp_path)}
    for _ in range(4):  # the traceback of aiosqlite's thread came only some of the times
        status, stderr = await run_bot(tmp_path, env)
        assert status == 2 and the_error_line(stderr).startswith("error: cannot use the database "), stderr


async def test_the_commands_copied_to_a_former_dev_guild_are_cleared(tmp_path):
    fake = FakeDiscord()
    await fake.start()
    try:
        for dev_guild in ("111", "222", ""):
            env = fake_env(fake, tmp_path, DEV_GUILD_ID=dev_guild)
            status, stderr = await run_bot(tmp_path, env, until="ready")
            assert status == 0, stderr
            names = {guild: [command["name"] for command in listed] for guild, listed in fake.guild_commands.items()}
            if dev_guild == "222":
                assert names == {"111": [], "222": ["solitaire"]}, names
                assert "removed the commands copied to server 111, the former DEV_GUILD_ID" in stderr
    finally:
        await fake.stop()
    assert names == {"111": [], "222": []} and [c["name"] for c in fake.commands] == ["solitaire"]
    assert "removed the commands copied to server 222, the former DEV_GUILD_ID" in stderr


async def test_the_global_sync_keeps_the_entry_point_command_discord_refuses_to_drop(tmp_path):
    """An app with Activities enabled has an Entry Point command; a bulk overwrite without it is refused (400)."""
    entry_point = entry_point_command()
    fake = FakeDiscord(commands=[entry_point])
    await fake.start()
    try:
        status, stderr = await run_bot(tmp_path, fake_env(fake, tmp_path), until="ready")
    finally:
        await fake.stop()
    assert status == 0 and "error" not in stderr.lower() and fake.refused == [], stderr
    assert [c["name"] for c in fake.commands] == ["solitaire", "launch"]
    kept = next(command for command in fake.commands if command["type"] == ENTRY_POINT)
    assert {key: kept[key] for key in ("id", "handler", "contexts", "integration_types", "description")} == {
        key: entry_point[key] for key in ("id", "handler", "contexts", "integration_types", "description")
    }
    assert f"GET /applications/{4242}/commands" in fake.requests


@pytest.mark.parametrize(
    ("token", "words"),
    [
        ("hello", "DISCORD_TOKEN cannot be a bot token (5 characters; a token is about 70"),
        ("Bot MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GaBcDe.abcdefghijklmnopqrstuvwxyz", "DISCORD_TOKEN starts with 'Bot '"),
        ("MTIz NDU2", "DISCORD_TOKEN has a space in it"),
    ],
    ids=["a-word", "with-bot-in-front", "with-a-space"],
)
async def test_a_token_that_cannot_be_one_is_refused_before_any_network(tmp_path, token, words):
    status, stderr = await run_bot(tmp_path, {"DISCORD_TOKEN": token, "DATABASE_PATH": str(tmp_path / "g.db")})
    assert status == 2 and stderr == f"error: {words}" + stderr.removeprefix(f"error: {words}"), stderr
    assert stderr.count("\n") == 1 and "MTIz" not in stderr and "hello" not in stderr
    assert not (tmp_path / "g.db").exists()


async def test_a_bad_token_in_a_container_waits_for_a_stop_instead_of_exiting_into_a_restart_loop(tmp_path):
    """With ON_BAD_SETTING=wait (the image sets it), a bad setting stays stopped: Docker restarts only what exits."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=tmp_path,
        env={**BASE_ENV, "DISCORD_TOKEN": "hello", "ON_BAD_SETTING": "wait"},
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    assert process.stderr is not None
    error = (await asyncio.wait_for(process.stderr.readline(), 30)).decode()
    waiting = (await asyncio.wait_for(process.stderr.readline(), 30)).decode()
    assert error.startswith("error: DISCORD_TOKEN cannot be a bot token") and "hello" not in error
    assert waiting.startswith("waiting (ON_BAD_SETTING=wait): fix the setting"), waiting
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(asyncio.shield(process.wait()), 1.0)  # still there: nothing to restart
    process.send_signal(signal.SIGTERM)
    assert await asyncio.wait_for(process.wait(), 30) == 2
    assert (await process.stderr.read()) == b""


async def test_unknown_settings_that_look_like_ours_are_warned_about_and_the_env_file_is_named(tmp_path):
    settings = f"DISCORD_TOKEN={TOKEN}\nRENDER_WORKER=9\nPOSTGRES_PASSWORD=x\nDATABASE_PATH=/nope/x.db\n"
    (tmp_path / ".env").write_text(settings)
    env = {"DEAL_WORKER": "3", "DATABASE_PATH": "/proc/no-such.db", "HOME_PAGE": "x"}
    status, stderr = await run_bot(tmp_path, env)
    assert status == 2, stderr
    assert f"INFO    bot: settings read from {tmp_path.resolve() / '.env'} and the environment" in stderr
    assert "WARNING bot: RENDER_WORKER in .env is not a setting (did you mean RENDER_WORKERS?): ignored" in stderr
    assert "WARNING bot: DEAL_WORKER in the environment is not a setting (did you mean DEAL_WORKERS?)" in stderr
    assert "POSTGRES_PASSWORD" not in stderr and "HOME_PAGE" not in stderr


@pytest.mark.parametrize("where", ["/proc/no-such.db", "{tmp}"], ids=["cannot-be-created", "a-folder"])
async def test_a_database_that_cannot_be_opened_leaves_no_thread_behind(tmp_path, where):
    """aiosqlite's thread, left running, answered after the event loop closed: a traceback after the error line."""
    from bot.storage import StorageError, open_database

    before = set(threading.enumerate())
    with pytest.raises(StorageError):
        await open_database(Path(where.format(tmp=tmp_path)))
    assert set(threading.enumerate()) - before == set()


async def test_sigterm_during_a_hanging_step_stops_the_start_at_once(tmp_path):
    fake = FakeDiscord(silent={"/users/@me"})
    await fake.start()
    try:
        started = asyncio.get_running_loop().time()
        status, stderr = await run_bot(tmp_path, fake_env(fake, tmp_path), until="logging in to Discord...")
        took = asyncio.get_running_loop().time() - started
    finally:
        await fake.stop()
    assert status == 0 and took < 20 and "shutting down during the start" in stderr, stderr  # not after 30 s
    assert "Traceback" not in stderr and "error" not in stderr

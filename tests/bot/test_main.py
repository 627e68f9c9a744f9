"""``python -m bot`` for real: settings errors, and a full run against a fake Discord ended by SIGTERM."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sqlite3
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from bot.settings import Settings
from bot.version import bot_version
from tests.bot.fake_discord import FakeDiscord

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
    assert f" INFO    bot.client: Solitaire Rush for Discord {project_version()} (discord.py 2." in stderr, stderr
    invite = (
        "invite me to a server: https://discord.com/oauth2/authorize?client_id=4242&scope=bot+applications.commands"
    )
    assert f"{invite}&permissions=52224 (permissions: View Channel, Send Messages" in stderr, stderr
    assert " WARNING bot.client: I am in no server: open the invite link above" in stderr
    assert "shutting down" in stderr
    assert "Traceback" not in stderr and "ERROR" not in stderr
    assert "GET /users/@me" in fake.requests and f"PUT /applications/{4242}/commands" in fake.requests
    assert [c["name"] for c in fake.commands] == ["solitaire"]
    assert fake.gateway_urls and fake.gateway_urls[0].startswith("/gateway?v=10")
    identify = next(payload["d"] for payload in fake.gateway if payload["op"] == 2)
    assert identify["intents"] == 1 and identify["token"] == "fake-token"  # the guilds intent only: nothing privileged
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
    from tests.postgres_server import free_port

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
    from tests.postgres_server import free_port

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


PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


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

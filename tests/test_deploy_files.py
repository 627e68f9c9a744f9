"""The deployment files, checked without a Docker engine: hadolint on the Dockerfile, the compose file's shape,
the systemd units of docs/deploy.md, and the Dockerfile's own install steps run into a throwaway venv.

The install test needs the package index (``-m 'not install'`` deselects it offline).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

from bot.storage import load_migrations, packaged_migrations
from tests.support.metrics import fake, metrics

__all__ = ["fake", "metrics"]  # the bot's real endpoint, from the metrics tests

ROOT = Path(__file__).resolve().parents[1]
DOCKERFILE = ROOT / "Dockerfile"
CLEAN_ENV = {key: value for key, value in os.environ.items() if not key.startswith(("DISCORD_", "DATABASE_", "DEV_"))}


def instructions(path: Path = DOCKERFILE) -> list[tuple[str, str]]:
    """The Dockerfile's ``(INSTRUCTION, arguments)``, continuation lines joined and comments dropped."""
    found: list[tuple[str, str]] = []
    pending = ""
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        pending += line.removesuffix("\\").strip() + " "
        if not line.endswith("\\"):
            word, _, rest = pending.strip().partition(" ")
            found.append((word.upper(), rest.strip()))
            pending = ""
    return found


@pytest.mark.processes
def test_hadolint_finds_nothing_to_say_about_the_dockerfile():
    hadolint = Path(sys.executable).with_name("hadolint")
    done = subprocess.run([str(hadolint), "--no-color", str(DOCKERFILE)], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and done.stdout == "", done.stdout + done.stderr


def test_the_image_copies_everything_the_package_is_built_from_and_runs_the_bot_unprivileged_on_data():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    copied = {source.rstrip("/") for word, args in instructions() if word == "COPY" for source in args.split()[:-1]}
    packages = {pattern.rstrip("*") for pattern in project["tool"]["setuptools"]["packages"]["find"]["include"]}
    needed = {"pyproject.toml", project["project"]["readme"], *packages}
    needed |= {name.split("/")[0] for name in project["project"]["license-files"]}
    assert needed <= copied, needed - copied
    steps = dict(instructions())  # the last of each instruction
    assert steps["ENTRYPOINT"] == '["solitaire-bot"]' and steps["USER"] == "10001:10001"
    assert steps["WORKDIR"] == "/data" and steps["VOLUME"] == '["/data"]' and steps["STOPSIGNAL"] == "SIGTERM"
    assert "DATABASE_PATH=/data/solitaire.db" in steps["ENV"]


def test_dockerignore_keeps_the_token_and_databases_out_of_the_build():
    rules = [line for line in (ROOT / ".dockerignore").read_text().splitlines() if line and line[0] != "#"]
    assert rules[0] == "*"  # everything out, then only what the Dockerfile copies back in
    assert not any(rule.startswith("!") and (".env" in rule or ".db" in rule) for rule in rules)


@pytest.mark.processes
@pytest.mark.parametrize(("connected", "healthy"), [(True, True), (False, False)])
async def test_the_images_healthcheck_asks_the_bots_health_endpoint(metrics, fake, connected, healthy):
    """Run the HEALTHCHECK command as Docker would, with the image's settings, against the bot's real ``/health``."""
    steps = dict(instructions())
    assert "METRICS_PORT=9108" in steps["ENV"]  # the image serves /health by default
    options, _, command = steps["HEALTHCHECK"].partition("CMD ")
    assert {"--interval=30s", "--timeout=5s", "--start-period=60s", "--retries=3"} == set(options.split())
    program, *arguments = json.loads(command)
    assert program == "python"
    fake.connected = connected
    env = {**CLEAN_ENV, "METRICS_PORT": str(metrics.server.port)}  # the port this test's endpoint listens on
    check = await asyncio.create_subprocess_exec(sys.executable, *arguments, env=env, stderr=subprocess.PIPE)
    _, err = await asyncio.wait_for(check.communicate(), timeout=60)
    assert (check.returncode == 0) == healthy, err.decode()
    assert healthy or b"503" in err  # unhealthy: the endpoint's answer, not a failure to ask it


def test_compose_keeps_every_log_bounded_and_the_healthcheck_on_whatever_env_says():
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    for name, service in compose["services"].items():
        logging = service["logging"]
        assert logging["driver"] == "json-file", name
        assert logging["options"] == {"max-size": "10m", "max-file": "5"}, name  # at most 50 MB per container
    # .env.example's blank METRICS_PORT= would turn /health off: compose gives a port unless .env names one
    assert compose["services"]["bot"]["environment"]["METRICS_PORT"] == "${METRICS_PORT:-9108}"
    assert (ROOT / ".env.example").read_text().count("\nMETRICS_PORT=\n") == 1


def test_compose_runs_the_bot_on_its_volume_and_postgres_only_on_demand():
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    bot, postgres = compose["services"]["bot"], compose["services"]["postgres"]
    assert bot["build"] == "." and bot["env_file"] == ".env" and "data:/data" in bot["volumes"]
    assert bot["environment"]["DATABASE_PATH"] == "/data/solitaire.db" and bot["restart"] == "unless-stopped"
    assert bot["stop_signal"] == "SIGTERM"
    assert bot["depends_on"]["postgres"] == {"condition": "service_healthy", "required": False}
    assert postgres["image"] == "postgres:15" and postgres["profiles"] == ["postgres"]
    assert "env_file" not in postgres  # the token never reaches the database's container
    assert postgres["environment"]["POSTGRES_PASSWORD"] == "${POSTGRES_PASSWORD:-}"
    assert "pg_isready" in " ".join(postgres["healthcheck"]["test"])
    assert set(compose["volumes"]) == {"data", "postgres", "caddy"}


def test_compose_fronts_the_activity_only_on_demand_and_reaches_the_bots_activity_port():
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    bot, front = compose["services"]["bot"], compose["services"]["activity-front"]
    assert front["profiles"] == ["activity"] and "env_file" not in front  # no token in the front's container
    assert front["command"] == "caddy reverse-proxy --from ${ACTIVITY_DOMAIN:-} --to bot:${ACTIVITY_PORT:-8090}"
    assert bot["environment"]["ACTIVITY_HOST"] == "0.0.0.0" and "ports" not in bot  # reached over compose's network
    assert "caddy:/data" in front["volumes"] and front["depends_on"] == ["bot"]
    example = (ROOT / ".env.example").read_text()
    assert "\nACTIVITY_DOMAIN=\n" in example  # read by compose only, not a setting of the bot


def systemd_units() -> list[str]:
    """The ``[Service]`` blocks of the ini examples in docs/deploy.md."""
    text = (ROOT / "docs" / "deploy.md").read_text()
    blocks = [block.split("```", 1)[0] for block in text.split("```ini")[1:]]
    return [block for block in blocks if "[Service]" in block]


def test_the_image_waits_on_a_bad_setting_so_compose_never_restarts_it_in_a_loop():
    """Docker restarts only what exits: the image's bot stays stopped on a bad setting (test_main.py runs that)."""
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert re.search(r"^\s+ON_BAD_SETTING=wait$", dockerfile, re.M), dockerfile
    bot = yaml.safe_load((ROOT / "compose.yaml").read_text())["services"]["bot"]
    assert "ON_BAD_SETTING" not in bot["environment"]


def test_the_documented_systemd_units_do_not_restart_on_a_configuration_error():
    units = systemd_units()
    assert len(units) >= 2  # the one-process unit and the template of a cluster
    for unit in units:
        lines = {line.partition("=")[0]: line.partition("=")[2] for line in unit.splitlines() if "=" in line}
        assert lines["Restart"] == "on-failure" and lines["RestartPreventExitStatus"] == "2"
        assert int(lines["RestartSec"]) >= 5 and lines["ExecStart"].endswith("/.venv/bin/solitaire-bot")


@pytest.mark.install
def test_the_dockerfile_install_steps_give_working_commands(tmp_path):
    """Do what the image build does, in a temporary folder: its COPY lines, then its pip steps, into a new venv."""
    context, venv = tmp_path / "src", tmp_path / "venv"
    context.mkdir()
    env = dict(CLEAN_ENV)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    ran = 0
    for word, args in instructions():
        if word == "COPY":
            *sources, _destination = args.split()
            for source in sources:
                origin = ROOT / source.rstrip("/")
                if origin.is_dir():
                    shutil.copytree(origin, context / origin.name, ignore=shutil.ignore_patterns("__pycache__"))
                else:
                    shutil.copy(origin, context / origin.name)
        elif word == "ENV":
            env.update(pair.split("=", 1) for pair in shlex.split(args))
        elif word == "RUN":
            for step in args.split("&&"):
                command = shlex.split(step)
                if command[:1] == ["pip"]:
                    subprocess.run([str(venv / "bin" / "python"), "-m", *command], cwd=context, env=env, check=True)
                    ran += 1
    assert ran == 1
    work = tmp_path / "work"  # a folder with no .env and no .env.example, as after a pip install
    work.mkdir()
    helped = subprocess.run(
        [venv / "bin" / "solitaire-bot", "--help"], cwd=work, env=CLEAN_ENV, capture_output=True, text=True, check=True
    )
    assert helped.stdout.startswith("usage: solitaire-bot ")
    refused = subprocess.run([venv / "bin" / "solitaire-bot"], cwd=work, env=CLEAN_ENV, capture_output=True, text=True)
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1
    assert refused.stderr.startswith("error: DISCORD_TOKEN is not set") and "solitaire-bot --help" in refused.stderr
    checks = (
        "import importlib.metadata as m, asyncpg, cogs.solitaire;"
        "from bot.storage import load_migrations, packaged_migrations;"
        "from render import render_board; from render.samples import sample_game; from solitaire import view_of;"
        "print(len(load_migrations()), len(load_migrations(packaged_migrations('postgres'))),"
        " render_board(view_of(sample_game('friday13', 'mid')))[:4] == b'\\x89PNG', m.metadata('solitaire-rush')"
        "['License-Expression'])"
    )
    shown = subprocess.run(
        [venv / "bin" / "python", "-c", checks], cwd=work, env=CLEAN_ENV, capture_output=True, text=True, check=True
    )
    expected = (len(load_migrations()), len(load_migrations(packaged_migrations("postgres"))))
    assert shown.stdout.split() == [str(expected[0]), str(expected[1]), "True", "MIT"], shown.stderr


ROOT_FILES = {
    ".dockerignore": "what the image build leaves out",
    ".env.example": "every setting, commented",
    ".gitignore": "what git leaves out",
    "CHANGELOG.md": "what changed, per release",
    "Dockerfile": "the image",
    "LICENSE": "the licence",
    "README.md": "what it is and how to run it",
    "compose.yaml": "the bot and PostgreSQL in containers",
    "pyproject.toml": "the package, its dependencies and the tools' settings",
}
"""The only files the repository's root may hold, each with why a reader needs it (folders are the packages)."""
ROOT_FOLDERS = {".ci", "benchmarks", "bot", "cogs", "docs", "languages", "render", "scripts", "solitaire", "tests"}


@pytest.mark.processes
def test_the_repository_root_holds_only_what_a_reader_needs():
    tracked = subprocess.run(
        ["git", "ls-files", "--full-name"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    top = {path.split("/")[0] for path in tracked}
    assert top - {*ROOT_FILES, *ROOT_FOLDERS} == set(), "stray files at the root: move them, or list them here"

from pathlib import Path

import pytest

from bot.runtime.settings import SettingsError, load_settings

KEYS = (
    "DISCORD_TOKEN",
    "DATABASE_PATH",
    "DEV_GUILD_ID",
    "LOG_LEVEL",
    "DISCORD_API_BASE",
    "DISCORD_GATEWAY_URL",
    "DEAL_BANK_SIZE",
    "DEAL_WORKERS",
    "SHARD_COUNT",
    "SHARD_IDS",
    "ACTIVITY_PORT",
    "ACTIVITY_HOST",
    "DISCORD_CLIENT_SECRET",
    "ACTIVITY_ROUTES",
)
ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(autouse=True)
def clean_env(monkeypatch, tmp_path):
    for key in KEYS:
        monkeypatch.delenv(key, raising=False)
    monkeypatch.chdir(tmp_path)


def test_defaults_need_only_the_token():
    settings = load_settings(discord_token="sekrit-token")
    assert settings.discord_token.get_secret_value() == "sekrit-token"
    assert settings.database_path == Path("solitaire.db")
    assert (settings.dev_guild_id, settings.log_level, settings.api_base, settings.gateway_url) == (
        None,
        "INFO",
        None,
        None,
    )
    assert settings.deal_bank_size >= 1 and settings.deal_workers >= 1
    assert "sekrit" not in repr(settings)


def test_dotenv_is_read_and_the_environment_wins(tmp_path, monkeypatch):
    (tmp_path / ".env").write_text(
        "DISCORD_TOKEN=from-file\nLOG_LEVEL=debug\nDEV_GUILD_ID=\nDISCORD_API_BASE=http://proxy:8080/api/v10/\n"
    )
    monkeypatch.setenv("DEAL_BANK_SIZE", "9")
    monkeypatch.setenv("LOG_LEVEL", "warning")
    settings = load_settings()
    assert settings.discord_token.get_secret_value() == "from-file"
    assert (settings.log_level, settings.deal_bank_size, settings.dev_guild_id) == ("WARNING", 9, None)
    assert settings.api_base == "http://proxy:8080/api/v10"


@pytest.mark.parametrize(
    ("env", "words"),
    [
        ({}, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": ""}, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": "t", "DEAL_WORKERS": "-1"}, "DEAL_WORKERS is invalid"),
        ({"DISCORD_TOKEN": "t", "DEV_GUILD_ID": "-5"}, "DEV_GUILD_ID is invalid"),
        ({"DISCORD_TOKEN": "t", "DISCORD_GATEWAY_URL": "https://x"}, "DISCORD_GATEWAY_URL is invalid"),
        ({"DISCORD_TOKEN": "t", "SHARD_COUNT": "0"}, "SHARD_COUNT is invalid"),
        ({"DISCORD_TOKEN": "t", "SHARD_IDS": "0,1"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"DISCORD_TOKEN": "t", "SHARD_COUNT": "2", "SHARD_IDS": "1-2"}, "shard 2 is not below SHARD_COUNT=2"),
        ({"DISCORD_TOKEN": "t", "SHARD_COUNT": "4", "SHARD_IDS": "0;1"}, "'0;1' is not a shard number or a range"),
        ({"DISCORD_TOKEN": "t", "SHARD_COUNT": "4", "SHARD_IDS": "0-1,1"}, "a shard is listed twice"),
        ({"DISCORD_TOKEN": "t", "ACTIVITY_PORT": "0"}, "ACTIVITY_PORT is invalid"),
        ({"DISCORD_TOKEN": "t", "ACTIVITY_PORT": "8090"}, "ACTIVITY_PORT needs DISCORD_CLIENT_SECRET"),
        ({"DISCORD_TOKEN": "t", "ACTIVITY_PORT": "8090", "DISCORD_CLIENT_SECRET": " "}, "needs DISCORD_CLIENT_SECRET"),
    ],
)
def test_bad_settings_explain_themselves_in_one_line(monkeypatch, env, words):
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    with pytest.raises(SettingsError) as raised:
        load_settings()
    assert words in str(raised.value) and "\n" not in str(raised.value)


ACTIVITY = {"DISCORD_TOKEN": "t", "ACTIVITY_PORT": "8090", "DISCORD_CLIENT_SECRET": "s"}
"""The settings of a process serving the Activity."""


@pytest.mark.parametrize(
    ("env", "words"),
    [
        ({**ACTIVITY, "ACTIVITY_ROUTES": "0=/c0"}, "ACTIVITY_ROUTES is invalid (ACTIVITY_ROUTES needs SHARD_COUNT"),
        ({**ACTIVITY, "SHARD_COUNT": "2", "ACTIVITY_ROUTES": "0=/c0"}, "ACTIVITY_ROUTES is invalid (shard 1 of the 2"),
        ({**ACTIVITY, "SHARD_COUNT": "2", "ACTIVITY_ROUTES": "0-1=c0"}, "'c0' is not a path prefix like /c0"),
        ({**ACTIVITY, "SHARD_COUNT": "2", "ACTIVITY_ROUTES": "0-2=/c0"}, "shard 2 is not below SHARD_COUNT=2"),
        ({**ACTIVITY, "SHARD_COUNT": "2", "ACTIVITY_ROUTES": "0-1=/c0,1=/c1"}, "shard 1 is routed twice"),
        (
            {**ACTIVITY, "SHARD_COUNT": "4", "SHARD_IDS": "1-2", "ACTIVITY_ROUTES": "0-1=/c0,2-3=/c1"},
            "ACTIVITY_ROUTES does not fit SHARD_IDS (this process's shards 1-2 are routed to /c0 and /c1",
        ),
        (
            {**ACTIVITY, "SHARD_COUNT": "2", "ACTIVITY_ROUTES": "0=/c0,1=/c1"},  # SHARD_IDS unset: every shard here
            "ACTIVITY_ROUTES does not fit SHARD_IDS (this process's shards 0-1 are routed to /c0 and /c1",
        ),
        (
            {"DISCORD_TOKEN": "t", "SHARD_COUNT": "2", "SHARD_IDS": "0", "ACTIVITY_ROUTES": "0=/c0,1=/c1"},
            "ACTIVITY_ROUTES needs ACTIVITY_PORT",
        ),
    ],
)
def test_bad_activity_routes_stop_the_start_in_one_line(monkeypatch, env, words):
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    with pytest.raises(SettingsError) as raised:
        load_settings()
    assert words in str(raised.value) and "\n" not in str(raised.value)


@pytest.mark.parametrize(
    ("env", "prefix", "owner"),
    [
        ({}, "", None),  # one process: no routes
        ({"SHARD_COUNT": "4", "SHARD_IDS": "2-3", "ACTIVITY_ROUTES": " "}, "", None),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "2-3", "ACTIVITY_ROUTES": "0-1=/c0,2-3=/c1"}, "/c1", "/c0"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0", "ACTIVITY_ROUTES": "0=/a/b,1=/c"}, "/a/b", "/c"),
    ],
)
def test_activity_routes_give_this_process_its_prefix_and_each_server_its_own(monkeypatch, env, prefix, owner):
    for key, value in {**ACTIVITY, **env}.items():
        monkeypatch.setenv(key, value)
    settings = load_settings()
    assert settings.activity_prefix == prefix
    routes = settings.activity_routes
    assert (routes.prefix_of(1 << 22) if routes is not None else None) == owner  # a server on shard 1


@pytest.mark.parametrize(
    ("env", "count", "ids"),
    [
        ({}, 1, (0,)),  # not sharded: one process owns every server
        ({"SHARD_COUNT": "", "SHARD_IDS": ""}, 1, (0,)),
        ({"SHARD_COUNT": "4"}, 4, (0, 1, 2, 3)),  # every shard in this process
        ({"SHARD_COUNT": "4", "SHARD_IDS": "2-3"}, 4, (2, 3)),
        ({"SHARD_COUNT": "6", "SHARD_IDS": " 5, 0-1 "}, 6, (0, 1, 5)),
    ],
)
def test_shard_settings_give_the_processes_ownership(monkeypatch, env, count, ids):
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    ownership = load_settings(discord_token="t").ownership
    assert (ownership.shard_count, ownership.shard_ids) == (count, ids)


def test_a_validator_message_has_no_pydantic_prefix():
    with pytest.raises(SettingsError) as raised:
        load_settings(discord_token="t", database_path="/no/such/folder/s.db")
    assert "DATABASE_PATH is invalid (the folder '/no/such/folder' does not exist)" in str(raised.value)
    assert "Value error" not in str(raised.value)


def test_the_example_file_is_named_only_where_it_exists(tmp_path):
    with pytest.raises(SettingsError, match=r"\(solitaire-bot --help lists every setting\)$"):
        load_settings(discord_token="")  # a pip install: no .env.example in the working folder
    (tmp_path / ".env.example").write_text("DISCORD_TOKEN=\n")
    with pytest.raises(SettingsError, match=r"\(see \.env\.example\)$"):
        load_settings(discord_token="")


@pytest.mark.parametrize(
    ("token", "api_base", "problem"),
    [
        ("MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GaBcDe.fake-signature-of-a-bot-token-for-tests", None, None),
        ("hello", None, "cannot be a bot token"),
        ("MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GaBcDe", None, "cannot be a bot token"),
        ("hello", "http://localhost:8080/api/v10", None),  # a proxy or a test endpoint takes any token
        ("Bot MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GaBcDe.abcdefghijklmnopqrstuvwxyz", None, "starts with 'Bot '"),
        ("bot hello", "http://localhost:8080/api/v10", "starts with 'Bot '"),
        ("hel lo", "http://localhost:8080/api/v10", "has a space in it"),
    ],
)
def test_a_token_that_cannot_be_one_is_named_without_quoting_it(token, api_base, problem):
    found = load_settings(discord_token=token, discord_api_base=api_base).token_problem()
    assert found is None if problem is None else (problem in found and "hel" not in found and "MTIz" not in found)


@pytest.mark.parametrize(
    ("env", "port", "host", "secret"),
    [
        ({}, None, "127.0.0.1", None),  # no Activity
        ({"ACTIVITY_PORT": "", "DISCORD_CLIENT_SECRET": ""}, None, "127.0.0.1", None),
        ({"ACTIVITY_PORT": "8090", "DISCORD_CLIENT_SECRET": "oauth-secret"}, 8090, "127.0.0.1", "oauth-secret"),
        ({"ACTIVITY_PORT": "8090", "ACTIVITY_HOST": "0.0.0.0", "DISCORD_CLIENT_SECRET": "s"}, 8090, "0.0.0.0", "s"),
    ],
)
def test_the_activity_is_served_only_with_a_port_and_the_client_secret(monkeypatch, env, port, host, secret):
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    settings = load_settings(discord_token="t")
    shown = settings.discord_client_secret.get_secret_value() if settings.discord_client_secret else None
    assert (settings.activity_port, settings.activity_host, shown) == (port, host, secret)
    assert "oauth-secret" not in repr(settings)


def test_every_setting_is_in_the_example_file_with_a_comment():
    from bot.runtime.settings import Settings

    lines = (ROOT / ".env.example").read_text(encoding="utf-8").splitlines()
    for name in Settings.model_fields:
        [index] = [i for i, line in enumerate(lines) if line.startswith(f"{name.upper()}=")]
        assert index > 0 and (lines[index - 1].startswith("#") or lines[index - 1].split("=")[0].isupper()), name


def test_the_names_compose_reads_from_env_are_never_called_unknown_settings(tmp_path):
    """``docker compose`` passes ``.env`` to the bot's container as its environment: its own names come too."""
    from bot.runtime.settings import unknown_settings

    (tmp_path / ".env").write_text("POSTGRES_PASSWORD=p\nACTIVITY_DOMAIN=solitaire.example.org\nACTIVTY_PORT=1\n")
    environ = {"ACTIVITY_DOMAIN": "solitaire.example.org", "POSTGRES_PASSWORD": "p", "ACTIVITY_PROT": "8090"}
    warned = unknown_settings(environ, tmp_path / ".env")
    assert [line.split(" ")[0] for line in warned] == ["ACTIVTY_PORT", "ACTIVITY_PROT"]

"""The bot's settings, read from the environment and ``.env`` (see ``.env.example``)."""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

from dotenv import dotenv_values
from pydantic import AnyUrl, Field, SecretStr, ValidationError, ValidationInfo, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from bot.activity.addresses import LOCAL_NETWORKS, Network, parse_networks
from bot.runtime import database_url
from bot.shards import MAX_SHARDS, ActivityRoutes, Ownership, parse_shard_ids

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]


class SettingsError(Exception):
    """A setting is missing or invalid; the message is one line saying what to set."""


class Settings(BaseSettings):
    """Everything ``python -m bot`` needs; only ``DISCORD_TOKEN`` has no default."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr = Field(min_length=1)
    database_path: Path = Path("./solitaire.db")
    database_url: SecretStr | None = None
    """``postgresql://user:password@host:5432/name``: use PostgreSQL instead of the SQLite file (unset: SQLite)."""
    dev_guild_id: int | None = Field(default=None, gt=0)
    log_level: LogLevel = "INFO"
    discord_api_base: AnyUrl | None = None
    discord_gateway_url: AnyUrl | None = None
    deal_bank_size: int = Field(default=4, ge=0, le=100)
    deal_workers: int = Field(default=2, ge=0, le=max(os.cpu_count() or 1, 1) * 2)
    """Worker processes for members' solves, hints, analyses and GIFs; starts may use all, the rest all but one;
    with any, one more (niced) runs the background solves (0: all in threads of the bot's process, for tests)."""
    render_workers: int = Field(default=1, ge=0, le=max(os.cpu_count() or 1, 1) * 2)
    """Worker processes kept for board pictures, beside the ``deal_workers`` (pictures may use those too)."""
    daily_spares: int = Field(default=1, ge=0, le=10)
    """Proven daily deals kept ready per variant for a server's day deal nobody solved ahead."""
    daily_secret: SecretStr | None = None
    """Key of the daily deals (unset: one is generated into the database on first start)."""
    metrics_port: int | None = Field(default=None, ge=1, le=65535)
    """Serve ``/metrics`` (Prometheus) and ``/health`` on this port (unset: no endpoint)."""
    metrics_host: str = "127.0.0.1"
    activity_port: int | None = Field(default=None, ge=1, le=65535)
    """Serve the Activity (the game as a web page inside Discord) on this port (unset: no Activity)."""
    activity_host: str = "127.0.0.1"
    """The address the Activity's port binds (behind an HTTPS front on the same machine: keep 127.0.0.1)."""
    discord_client_secret: SecretStr | None = None
    """The application's OAuth2 client secret (developer portal, OAuth2 tab): the Activity needs it."""
    shard_count: int | None = Field(default=None, ge=1, le=MAX_SHARDS)
    """The bot's total number of shards (unset: one process, not sharded)."""
    shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = None
    """The shards this process runs, e.g. ``0,1`` or ``0-3`` (unset: all of ``shard_count``)."""
    activity_trusted_proxies: Annotated[tuple[Network, ...], NoDecode] = LOCAL_NETWORKS
    """The fronts believed to name a page's address in ``X-Forwarded-For`` (loopback and private by default)."""
    activity_routes: Annotated[ActivityRoutes | None, NoDecode] = None
    """In a cluster, the path prefix of each shard's Activity, e.g. ``0-1=/c0,2-3=/c1`` (unset: one process)."""
    startup_timeout: float = Field(default=30, gt=0, le=600)
    """Seconds each network step of the start (logging in, the gateway, syncing commands) may take."""
    on_bad_setting: Literal["exit", "wait"] = "exit"
    """``wait``: after a bad setting or a refused token, stay stopped until SIGTERM (a container is not restarted)."""

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper_level(cls, value: Any) -> Any:
        return value.strip().upper() if isinstance(value, str) else value

    @field_validator("discord_token", mode="before")
    @classmethod
    def _strip_token(cls, value: Any) -> Any:
        return value.strip() if isinstance(value, str) else value

    @field_validator(
        "dev_guild_id",
        "discord_api_base",
        "discord_gateway_url",
        "daily_secret",
        "metrics_port",
        "activity_port",
        "discord_client_secret",
        "shard_count",
        "database_url",
        mode="before",
    )
    @classmethod
    def _blank_is_unset(cls, value: Any) -> Any:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _parse_shards(cls, value: Any) -> Any:
        if isinstance(value, str):
            return parse_shard_ids(value) if value.strip() else None
        return value

    @field_validator("shard_ids")
    @classmethod
    def _shards_counted(cls, value: tuple[int, ...] | None, info: ValidationInfo) -> tuple[int, ...] | None:
        if value is None:
            return value
        count = info.data.get("shard_count")
        if count is None:
            raise ValueError("SHARD_IDS needs SHARD_COUNT, the bot's total number of shards")
        if too_big := [shard for shard in value if shard >= count]:
            raise ValueError(f"shard {too_big[0]} is not below SHARD_COUNT={count} (shards are numbered from 0)")
        return value

    @field_validator("activity_trusted_proxies", mode="before")
    @classmethod
    def _parse_proxies(cls, value: Any) -> Any:
        if isinstance(value, str):
            return parse_networks(value) if value.strip() else LOCAL_NETWORKS
        return value

    @field_validator("activity_routes", mode="before")
    @classmethod
    def _parse_routes(cls, value: Any, info: ValidationInfo) -> Any:
        if not isinstance(value, str):
            return value
        if not value.strip():
            return None
        count = info.data.get("shard_count")
        if count is None:
            raise ValueError("ACTIVITY_ROUTES needs SHARD_COUNT: it routes the pages of a cluster's processes")
        return ActivityRoutes.parse(value, count)

    @field_validator("database_path")
    @classmethod
    def _folder_exists(cls, value: Path) -> Path:
        if str(value) != ":memory:" and not value.expanduser().parent.is_dir():
            raise ValueError(f"the folder {str(value.expanduser().parent)!r} does not exist")
        return value.expanduser()

    @field_validator("database_url")
    @classmethod
    def _postgres_url(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and (problem := database_url.problem(value.get_secret_value())) is not None:
            raise ValueError(problem)
        return value

    @field_validator("discord_api_base")
    @classmethod
    def _http_base(cls, value: AnyUrl | None) -> AnyUrl | None:
        if value is not None and value.scheme not in ("http", "https"):
            raise ValueError("must be an http:// or https:// URL, e.g. http://localhost:8080/api/v10")
        return value

    @field_validator("discord_gateway_url")
    @classmethod
    def _ws_url(cls, value: AnyUrl | None) -> AnyUrl | None:
        if value is not None and value.scheme not in ("ws", "wss"):
            raise ValueError("must be a ws:// or wss:// URL, e.g. ws://localhost:7878")
        return value

    @model_validator(mode="after")
    def _activity_has_secret(self) -> Settings:
        if self.activity_port is not None and self.discord_client_secret is None:
            raise ValueError(
                "ACTIVITY_PORT needs DISCORD_CLIENT_SECRET, the application's OAuth2 client secret "
                "(developer portal, OAuth2 tab)"
            )
        if self.activity_port is not None and self.activity_port == self.metrics_port:
            raise ValueError(f"ACTIVITY_PORT and METRICS_PORT are both {self.activity_port}: give each its own port")
        if self.activity_routes is not None and self.activity_port is None:
            raise ValueError("ACTIVITY_ROUTES needs ACTIVITY_PORT: every process of the cluster serves the Activity")
        if self.activity_routes is not None:
            try:
                self.activity_routes.own(self.ownership)
            except ValueError as error:
                raise ValueError(f"ACTIVITY_ROUTES does not fit SHARD_IDS ({error})") from None
        return self

    def token_problem(self) -> str | None:
        """Why ``DISCORD_TOKEN`` cannot be a bot token, in one line (``None``: it may be one), without quoting it.

        A proxy or a test endpoint (``DISCORD_API_BASE``) may take any token without spaces.
        """
        token = self.discord_token.get_secret_value()
        if token.lower().startswith("bot "):
            return "DISCORD_TOKEN starts with 'Bot ': put the token alone (discord.py adds 'Bot ' itself)"
        if any(char.isspace() for char in token):
            return "DISCORD_TOKEN has a space in it: copy the token again from the developer portal (Bot tab)"
        if self.discord_api_base is None and not TOKEN_SHAPE.fullmatch(token):
            return (
                f"DISCORD_TOKEN cannot be a bot token ({len(token)} characters; a token is about 70, in three parts "
                "joined by dots): copy it again from the developer portal (Bot tab, Reset Token)"
            )
        return None

    @property
    def serves_activity(self) -> bool:
        """Whether this process serves the Activity (``ACTIVITY_PORT`` is set), so Play here may open it."""
        return self.activity_port is not None

    @property
    def ownership(self) -> Ownership:
        """The shards this process runs, and so the servers whose time-driven work it does."""
        return Ownership.of(self.shard_count, self.shard_ids)

    @property
    def activity_prefix(self) -> str:
        """The path prefix this process serves its Activity under besides ``/`` (``""``: none, one process)."""
        return self.activity_routes.own(self.ownership) if self.activity_routes is not None else ""

    @property
    def database_target(self) -> str | Path:
        """What :func:`bot.storage.open_database` opens: the PostgreSQL URL if set, else the SQLite file."""
        return self.database_url.get_secret_value().strip() if self.database_url else self.database_path

    @property
    def database_label(self) -> str:
        """The database to name in messages: the SQLite path, or the URL without its password."""
        if self.database_url is None:
            return str(self.database_path)
        return database_url.label(self.database_url.get_secret_value())

    def redact(self, text: str) -> str:
        """``text`` (a driver's error message, say) with every form of the database password taken out."""
        return database_url.redact(text, self.database_url.get_secret_value()) if self.database_url else text

    @property
    def api_base(self) -> str | None:
        """The REST base to use instead of Discord's, without a trailing slash."""
        return str(self.discord_api_base).rstrip("/") if self.discord_api_base else None

    @property
    def gateway_url(self) -> str | None:
        """The gateway URL to connect to instead of Discord's."""
        return str(self.discord_gateway_url) if self.discord_gateway_url else None


def load_settings(**overrides: Any) -> Settings:
    """Read the settings; :raises SettingsError: with a one-line explanation of what to set."""
    try:
        return Settings(**overrides)
    except ValidationError as error:
        raise SettingsError(_explain(error)) from None


DOTENV = Path(".env")
"""The settings file read from the working folder (the environment wins over it)."""
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}")
"""What a bot token looks like: the bot's id in base64, a timestamp and a signature, joined by dots."""
NOT_OURS = frozenset({"POSTGRES_PASSWORD", "ACTIVITY_DOMAIN"})
"""Names in ``.env`` that are not settings of the bot but belong there (compose.yaml reads them)."""
OUR_PREFIXES = (
    "DISCORD_",
    "DATABASE_",
    "DEAL_",
    "RENDER_",
    "DAILY_",
    "METRICS_",
    "SHARD_",
    "DEV_GUILD",
    "STARTUP_",
    "ACTIVITY_",
)
"""Environment names that look like the bot's settings even when no setting is spelt like them."""


def settings_source(dotenv: Path = DOTENV) -> str:
    """Where the settings came from, for the start-up log: the ``.env`` file read, or only the environment."""
    if dotenv.is_file():
        return f"settings read from {dotenv.resolve()} and the environment (the environment wins)"
    return f"settings read from the environment (no {dotenv.name} file in {Path.cwd()})"


def unknown_settings(environ: Mapping[str, str], dotenv: Path = DOTENV) -> list[str]:
    """One warning per name in ``.env``, or name in the environment that looks like a setting, that is none."""
    known = {name.upper() for name in Settings.model_fields}
    in_file = [name for name in dotenv_values(dotenv) if name] if dotenv.is_file() else []
    suspects = [(name, f"in {dotenv.name}") for name in in_file if name.upper() not in known | NOT_OURS]
    suspects += [
        (name, "in the environment")
        for name in sorted(environ)
        if name.upper() not in known | NOT_OURS and name not in in_file and _looks_like_ours(name.upper(), known)
    ]
    return [f"{name} {where} is not a setting{_did_you_mean(name, known)}: ignored" for name, where in suspects]


def _looks_like_ours(name: str, known: set[str]) -> bool:
    """Whether an environment name is probably a misspelt setting of the bot."""
    return name.startswith(OUR_PREFIXES) or bool(difflib.get_close_matches(name, known, n=1, cutoff=0.85))


def _did_you_mean(name: str, known: set[str]) -> str:
    """`` (did you mean RENDER_WORKERS?)`` for a near miss, else nothing."""
    close = difflib.get_close_matches(name.upper(), sorted(known), n=1, cutoff=0.7)
    return f" (did you mean {close[0]}?)" if close else ""


EXAMPLE_FILE = Path(".env.example")
"""Every setting, commented, in a checkout (a ``pip install`` has none: ``solitaire-bot --help`` lists them)."""
_PYDANTIC_PREFIX = "Value error, "
"""What pydantic puts before a validator's own message."""


def _explain(error: ValidationError) -> str:
    problems = []
    for item in error.errors():
        if not item["loc"]:  # a rule across settings says which ones itself
            problems.append(str(item["msg"]).removeprefix(_PYDANTIC_PREFIX))
            continue
        name = str(item["loc"][0]).upper()
        if name == "DISCORD_TOKEN" and item["type"] in ("missing", "string_too_short", "too_short"):
            problems.append(
                "DISCORD_TOKEN is not set: put your bot token (developer portal, Bot tab) in .env or the environment"
            )
        else:
            problems.append(f"{name} is invalid ({str(item['msg']).removeprefix(_PYDANTIC_PREFIX)})")
    where = "see .env.example" if EXAMPLE_FILE.is_file() else "solitaire-bot --help lists every setting"
    return f"{'; '.join(problems)} ({where})"


def waits_on_bad_setting(environ: Mapping[str, str], dotenv: Path = DOTENV) -> bool:
    """Whether ``ON_BAD_SETTING=wait`` is set, in the environment or ``.env`` (read apart from the other settings,
    which may be what is bad)."""
    value = environ.get("ON_BAD_SETTING") or (dotenv_values(dotenv).get("ON_BAD_SETTING") if dotenv.is_file() else None)
    return (value or "").strip().lower() == "wait"

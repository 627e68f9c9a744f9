"""The bot's settings, read from the environment and ``.env`` (see ``.env.example``)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Literal

from pydantic import AnyUrl, Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]


class SettingsError(Exception):
    """A setting is missing or invalid; the message is one line saying what to set."""


class Settings(BaseSettings):
    """Everything ``python -m bot`` needs; only ``DISCORD_TOKEN`` has no default."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr = Field(min_length=1)
    database_path: Path = Path("./solitaire.db")
    dev_guild_id: int | None = Field(default=None, gt=0)
    log_level: LogLevel = "INFO"
    discord_api_base: AnyUrl | None = None
    discord_gateway_url: AnyUrl | None = None
    deal_bank_size: int = Field(default=4, ge=0, le=100)
    deal_workers: int = Field(default=2, ge=1, le=max(os.cpu_count() or 1, 1) * 2)
    render_workers: int = Field(default=1, ge=0, le=max(os.cpu_count() or 1, 1) * 2)
    """Processes that draw the board pictures (0: draw in a thread of the bot's process)."""
    daily_spares: int = Field(default=1, ge=0, le=10)
    """Proven daily deals kept ready per variant for a server's day deal nobody solved ahead."""
    daily_secret: SecretStr | None = None
    """Key of the daily deals (unset: one is generated into the database on first start)."""
    metrics_port: int | None = Field(default=None, ge=1, le=65535)
    """Serve ``/metrics`` (Prometheus) and ``/health`` on this port (unset: no endpoint)."""
    metrics_host: str = "127.0.0.1"

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper_level(cls, value: Any) -> Any:
        return value.strip().upper() if isinstance(value, str) else value

    @field_validator("discord_token", mode="before")
    @classmethod
    def _strip_token(cls, value: Any) -> Any:
        return value.strip() if isinstance(value, str) else value

    @field_validator(
        "dev_guild_id", "discord_api_base", "discord_gateway_url", "daily_secret", "metrics_port", mode="before"
    )
    @classmethod
    def _blank_is_unset(cls, value: Any) -> Any:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("database_path")
    @classmethod
    def _folder_exists(cls, value: Path) -> Path:
        if str(value) != ":memory:" and not value.expanduser().parent.is_dir():
            raise ValueError(f"the folder {str(value.expanduser().parent)!r} does not exist")
        return value.expanduser()

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


def _explain(error: ValidationError) -> str:
    problems = []
    for item in error.errors():
        name = str(item["loc"][0]).upper() if item["loc"] else "SETTINGS"
        if name == "DISCORD_TOKEN" and item["type"] in ("missing", "string_too_short", "too_short"):
            problems.append("DISCORD_TOKEN is not set: put your bot token in .env or the environment")
        else:
            problems.append(f"{name} is invalid ({item['msg']})")
    return "; ".join(problems) + " (see .env.example)"

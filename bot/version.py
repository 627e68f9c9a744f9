"""The bot's version, from one source: the installed package's metadata (``version`` in pyproject.toml)."""

from __future__ import annotations

import platform

from solitaire.console import DISTRIBUTION, package_version

__all__ = ["DISTRIBUTION", "bot_version", "version_line"]


def bot_version() -> str:
    """The installed version, e.g. ``0.1.0`` (``unknown`` in a tree that was never installed)."""
    return package_version()


def version_line(library_version: str) -> str:
    """What runs, in which versions (``library_version``: discord.py's), for the start-up log.

    >>> version_line("2.7.1").startswith("Solitaire Rush for Discord ")
    True
    """
    return (
        f"Solitaire Rush for Discord {bot_version()} (discord.py {library_version}, Python {platform.python_version()})"
    )

"""Logging for ``python -m bot``: one format, our level, discord.py kept quiet unless debugging."""

from __future__ import annotations

import logging
import sys

FORMAT = "%(asctime)s %(levelname)-7s %(name)s: %(message)s"


def setup_logging(level: str) -> None:
    """Log to stderr at ``level``; discord.py's own chatter only at DEBUG, aiosqlite's per-statement lines never."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter(FORMAT))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    logging.getLogger("discord").setLevel(logging.DEBUG if level == "DEBUG" else logging.WARNING)
    logging.getLogger("aiosqlite").setLevel(logging.INFO)  # one DEBUG line per statement is too much

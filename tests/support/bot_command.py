"""Running the bot's command line (``python -m bot``) in a subprocess, with no token or database in its environment."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

CLEAN_ENV = {key: value for key, value in os.environ.items() if not key.startswith(("DISCORD_", "DATABASE_"))}


def run(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "bot", *args]
    return subprocess.run(command, cwd=tmp_path, env={**CLEAN_ENV, **env}, capture_output=True, text=True, timeout=60)

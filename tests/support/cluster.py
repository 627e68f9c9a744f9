"""Real bot processes on one database: starts ``tests.bot.cluster_worker`` processes and reads their reports."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot.shards import Ownership

ROOT = Path(__file__).resolve().parents[2]
NOW = datetime(2026, 5, 2, 6, 0, tzinfo=UTC).timestamp()
"""The workers' fixed clock: the day after ``DAY``, so its podiums are due."""
WORKER_TIMEOUT = 90.0


class Cluster:
    """Starts workers and collects their reports; kills any left at the end."""

    def __init__(self, database: str, posts: Path) -> None:
        self.database = database
        self.posts = posts
        self.running: list[subprocess.Popen[str]] = []

    def start(self, scenario: str, tag: str, ownership: Ownership, *, now: float = NOW, **options: Any) -> Any:
        """Start one worker; it begins its work at the common start given in ``start_at``."""
        command = [
            sys.executable,
            "-m",
            "tests.bot.cluster_worker",
            scenario,
            "--database",
            self.database,
            "--tag",
            tag,
            "--shard-count",
            str(ownership.shard_count),
            "--shard-ids",
            ",".join(map(str, ownership.shard_ids)),
            "--now",
            repr(now),
            "--posts",
            str(self.posts),
        ]
        for name, value in options.items():
            command += [f"--{name.replace('_', '-')}", str(value)]
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        self.running.append(process)
        return process

    def report(self, process: subprocess.Popen[str]) -> dict[str, Any]:
        """Wait for a worker and return its JSON report (failing with its stderr if it failed)."""
        out, err = process.communicate(timeout=WORKER_TIMEOUT)
        assert process.returncode == 0, f"worker failed ({process.returncode}):\n{err}"
        report: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
        return report

    def lines(self) -> list[list[str]]:
        """The posts made so far, as ``[tag, kind, guild, text...]`` word lists."""
        if not self.posts.exists():
            return []
        return [line.split(" ", 3) for line in self.posts.read_text().splitlines()]

    def close(self) -> None:
        """Kill the workers still running."""
        for process in self.running:
            if process.poll() is None:
                process.kill()
                process.wait()

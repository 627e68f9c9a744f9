"""Shared by the tests that run real worker processes: whether a process still runs."""

from __future__ import annotations


def alive(process_id: int) -> bool:
    """Whether process ``process_id`` still runs (a zombie counts as ended)."""
    try:
        with open(f"/proc/{process_id}/stat") as stat:
            return stat.read().split(") ")[1][0] != "Z"
    except FileNotFoundError:
        return False

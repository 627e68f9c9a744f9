"""A pytest plugin: a test that starts another process must say so with a marker.

The fast loop (``./scripts/test --fast``) leaves out the tests marked ``processes``, ``browser``,
``postgres`` and ``install``; this plugin keeps those markers true. Every process a test starts
(``subprocess``, asyncio's subprocesses, ``multiprocessing``) is noted, and a test without one of
those markers fails, naming the command, so a slow test cannot slip into the fast loop unseen.
"""

from __future__ import annotations

import multiprocessing.process
import subprocess
from collections.abc import Iterator
from typing import Any

import pytest

MARKERS = ("processes", "browser", "postgres", "install")
"""A test carrying one of these may start processes."""

_started: list[str] = []
_watching = False


def _note(what: str) -> None:
    """Remember that the running test started ``what``."""
    if _watching:
        _started.append(what)


class _WatchedPopen(subprocess.Popen):  # type: ignore[type-arg]
    """``subprocess.Popen`` that notes each command it starts."""

    def __init__(self, args: Any, *rest: Any, **options: Any) -> None:
        _note(" ".join(map(str, args)) if isinstance(args, (list, tuple)) else str(args))
        super().__init__(args, *rest, **options)


def _watched_start(self: multiprocessing.process.BaseProcess) -> None:
    """``multiprocessing``'s ``Process.start`` that notes each process it starts."""
    _note(f"multiprocessing: {self.name}")
    _plain_start(self)


_plain_start = multiprocessing.process.BaseProcess.start


def pytest_configure(config: pytest.Config) -> None:
    """Watch every process started from here on."""
    subprocess.Popen = _WatchedPopen  # type: ignore[misc]
    multiprocessing.process.BaseProcess.start = _watched_start  # type: ignore[method-assign]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Iterator[None]:
    """Note the processes ``item``'s set-up starts (a session's fixtures are torn down by whichever test is last)."""
    global _watching
    _started.clear()
    _watching = not any(item.get_closest_marker(name) for name in MARKERS)
    try:
        return (yield)
    finally:
        _watching = False


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """Note the processes ``item`` starts."""
    global _watching
    _watching = not any(item.get_closest_marker(name) for name in MARKERS)
    try:
        return (yield)
    finally:
        _watching = False


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[pytest.TestReport]:
    """Fail a test that started a process without a marker saying so."""
    report: pytest.TestReport = yield
    if call.when == "call" and _started and report.passed:
        report.outcome = "failed"
        report.longrepr = (
            f"{item.nodeid} started {len(_started)} process(es) without a marker saying so "
            f"(add @pytest.mark.processes): first {_started[0]!r}"
        )
    return report

"""What the project's command lines share: one-line argument errors, quiet ``| head``, short long values, the version.

``python -m solitaire`` and ``python -m render`` use these (standard library only).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Callable
from importlib import metadata
from typing import NoReturn

DISTRIBUTION = "solitaire-rush"
"""The project's name on the package index (pyproject.toml's ``name``)."""
BAD_ARGUMENTS = 2
"""Exit status of a command line whose arguments or values are wrong."""
BROKEN_PIPE = 141
"""Exit status when the reader of the output went away (128 + SIGPIPE, as the shell reports it)."""
LONGEST_SHOWN = 32
"""Values longer than this many characters are abbreviated in messages."""
_LONG_WORD = re.compile(rf"('?)([^\s']{{{LONGEST_SHOWN + 1},}})('?)")
"""A word too long to print, and the quotes around it if any."""


def package_version() -> str:
    """The installed version, e.g. ``0.1.0`` (``unknown`` in a tree that was never installed)."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "unknown"


def abbreviated(text: str) -> str:
    """``text``, or its start and end with its length when it is too long to print whole.

    >>> abbreviated("12345"), abbreviated("7" * 5000)
    ('12345', '777777777777…777777777777 (5,000 characters)')
    """
    return _abbreviated(text)


def _abbreviated(text: str, before: str = "", after: str = "") -> str:
    """``text`` between ``before`` and ``after`` (quotes), shortened with its length if too long."""
    if len(text) <= LONGEST_SHOWN:
        return f"{before}{text}{after}"
    return f"{before}{text[:12]}…{text[-12:]}{after} ({len(text):,} characters)"


def shorten_values(message: str) -> str:
    """``message`` with every word too long to print abbreviated (a 5,000-digit seed, say).

    >>> shorten_values("invalid int value: '" + "9" * 40 + "'")
    "invalid int value: '999999999999…999999999999' (40 characters)"
    """
    return _LONG_WORD.sub(lambda match: _abbreviated(match[2], match[1], match[3]), message)


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one ``error:`` line on stderr (exit status 2), long values abbreviated."""

    def error(self, message: str) -> NoReturn:
        """Print one line saying what is wrong and where the usage is, and exit with status 2."""
        self.exit(BAD_ARGUMENTS, f"error: {shorten_values(message)} ({self.prog} --help shows the usage)\n")


def lower_case(text: str) -> str:
    """An argument ``type`` for names given in any case (``DRAW3`` is ``draw3``)."""
    return text.lower()


def until_the_reader_leaves(run: Callable[[], int]) -> int:
    """Run ``run``; if the reader of stdout goes away (``| head -1``), stop quietly with :data:`BROKEN_PIPE`."""
    try:
        status = run()
        sys.stdout.flush()
        return status
    except BrokenPipeError:
        _silence_stdout()
        return BROKEN_PIPE


def _silence_stdout() -> None:
    """Point stdout at the null device, so Python's last flush at exit finds no closed pipe."""
    try:
        descriptor = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # not a real file (a test's capture)
        return
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, descriptor)
    os.close(null)

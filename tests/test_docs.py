"""The documents a reader walks through: no issue numbers, and every relative link leads somewhere."""

from __future__ import annotations

import asyncio
import re
import sqlite3
import sys
from pathlib import Path

import pytest

from bot.storage import POSTGRES_INSTALL, open_database

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = sorted([ROOT / "README.md", ROOT / "CHANGELOG.md", *(ROOT / "docs").glob("*.md")])
ISSUE_NUMBER = re.compile(r"\bissues?\s*#?\d+", re.IGNORECASE)
LINK = re.compile(r"\]\(([^)\s]+)\)")
WORKPLACE = re.compile(r"farm-|/work/|(?:previous|other|another) engineer", re.IGNORECASE)
"""A development machine's tools and paths, and who ran what: none of a reader's business."""


def _ids(paths: list[Path]) -> list[str]:
    return [str(path.relative_to(ROOT)) for path in paths]


@pytest.mark.parametrize("document", DOCUMENTS, ids=_ids(DOCUMENTS))
def test_no_document_names_an_issue_number(document: Path) -> None:
    """Docs are written for people, not for the tracker."""
    assert ISSUE_NUMBER.findall(document.read_text(encoding="utf-8")) == []


READ_BY_PEOPLE = sorted([*DOCUMENTS, *(ROOT / "benchmarks").glob("*.py"), *(ROOT / "scripts").glob("*")])
"""Docs, and the benchmarks and scripts whose usage lines people copy."""


@pytest.mark.parametrize("document", READ_BY_PEOPLE, ids=_ids(READ_BY_PEOPLE))
def test_no_document_names_the_workplace(document: Path) -> None:
    """Docs, benchmarks and scripts name no development machine's tool or path, nor say who ran what."""
    assert WORKPLACE.findall(document.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("document", DOCUMENTS, ids=_ids(DOCUMENTS))
def test_relative_links_lead_to_files_that_exist(document: Path) -> None:
    """A link to a file of this repository (``docs/deploy.md#updating``) names a file that is there."""
    missing = []
    for target in LINK.findall(document.read_text(encoding="utf-8")):
        if "://" in target or target.startswith(("#", "mailto:")):
            continue
        path = target.split("#", 1)[0]
        if not (document.parent / path).exists():
            missing.append(target)
    assert missing == []


def test_readme_speaks_to_its_four_readers_in_order() -> None:
    """Players, server admins, self-hosters, contributors: in that order."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    headings = [line for line in lines if line.startswith("## ")]
    assert headings[:4] == ["## For players", "## For server admins", "## For self-hosters", "## For contributors"]


def test_one_postgresql_install_instruction_everywhere(monkeypatch: pytest.MonkeyPatch) -> None:
    """The README, ``.env.example``, the deploy guide and the error a missing driver gives say the same thing."""
    command = POSTGRES_INSTALL.split(" (", 1)[0]
    for name in ("README.md", ".env.example", "docs/deploy.md"):
        assert command in (ROOT / name).read_text(encoding="utf-8"), name
    monkeypatch.setitem(sys.modules, "bot.storage.postgres", None)  # as if asyncpg were not installed
    with pytest.raises(sqlite3.OperationalError) as refused:
        asyncio.run(open_database("postgresql://solitaire@localhost/solitaire"))
    assert POSTGRES_INSTALL in str(refused.value)

"""Rows of members in every table: games of known members, and where a member's id is still held."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from bot.storage import (
    Database,
    Transaction,
)
from bot.storage import games as games_db
from bot.storage.races import Rate, Rated

GUILD = 910_000_000_000_000_001
ALICE = 424_242_424_242_424_242
BOB = 515_151_515_151_515_151
CAROL = 616_161_616_161_616_161
DAY = date(2024, 5, 1)
_numbers = itertools.count(1)


@pytest.fixture
async def db(database_target: str | Path) -> AsyncIterator[Database]:
    database = await Database.open(database_target)
    yield database
    await database.close()


async def start(db: Database, user: int, mode: games_db.Mode, *, guild: int = GUILD, **link: Any) -> int:
    """A running game of ``user`` (daily: the day's; others a numbered deal)."""
    new = games_db.NewGame(
        guild_id=guild,
        channel_id=1,
        user_id=user,
        variant="draw3",
        mode=mode,
        deal_number=None if mode == "daily" else next(_numbers),
        daily_date=DAY.isoformat() if mode == "daily" else None,
        state="{}",
        started_at=0.0,
        deadline=300.0,
    )
    return (await games_db.insert_game(db, new, **link)).id


def fixed(rated: Rated) -> Rate:
    """A close's rating step that stores ``rated`` as given."""

    async def rate(tx: Transaction) -> Rated:
        return rated

    return rate


async def member_tables(db: Database) -> dict[str, list[str]]:
    """Every table of the schema (read from the database itself) with its columns."""
    if db.dialect == "sqlite":
        tables = [
            row["name"]
            for row in await db.fetchall(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        return {t: [c["name"] for c in await db.fetchall(f"SELECT name FROM pragma_table_info('{t}')")] for t in tables}
    rows = await db.fetchall(
        "SELECT c.table_name, c.column_name FROM information_schema.columns AS c JOIN information_schema.tables AS t"
        " ON t.table_schema = c.table_schema AND t.table_name = c.table_name"
        " WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'"
    )
    found: dict[str, list[str]] = {}
    for row in rows:
        found.setdefault(row["table_name"], []).append(row["column_name"])
    return found


async def rows_holding(db: Database, key: int) -> list[tuple[str, str]]:
    """Every ``(table, column)`` of the schema with a row holding ``key`` (as a number, or inside text)."""
    held = []
    for table, columns in (await member_tables(db)).items():
        for column in columns:
            found = await db.fetchone(
                f"SELECT 1 AS one FROM {table} WHERE CAST({column} AS TEXT) LIKE ? LIMIT 1", (f"%{key}%",)
            )
            if found is not None:
                held.append((table, column))
    return held

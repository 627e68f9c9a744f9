"""Rows and bytes one played game leaves in the database, and what that makes per day per 1,000 active players.

Usage: .venv/bin/python benchmarks/bench_rows.py [--games 40] [--variant draw3] [--games-per-day 10]

Each game is a proven deal played through the bot's real save path (``SessionManager.start`` and
``play``, one saved move per command) by the seeded greedy player of ``after_game_games`` (a quarter
of its moves random), until it wins, runs out of moves or reaches ``--moves``; an unfinished game is
ended by its clock (``expire``), as a real one is. The rows every table gained and the file's growth
(SQLite, after a checkpoint) are divided by the games. The per-day figure multiplies by
``--games-per-day`` per active player: an assumption, printed with it, not a measurement.
Ends with one ``key=value`` line.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.play.deal_bank import solve_numbered  # noqa: E402
from bot.play.sessions import SessionManager  # noqa: E402
from bot.storage import Database  # noqa: E402
from render.samples import greedy_move  # noqa: E402

ERROR_RATE = 0.25
"""Share of moves picked at random among the legal ones (as in ``after_game_games``)."""


async def _table_rows(db: Database) -> dict[str, int]:
    """Rows per table (SQLite's own tables left out)."""
    tables = await db.fetchall("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    counts = {}
    for row in tables:
        found = await db.fetchone(f'SELECT COUNT(*) AS n FROM "{row["name"]}"')
        counts[str(row["name"])] = int(found["n"]) if found is not None else 0
    return counts


async def _file_bytes(db: Database) -> int:
    """The database's size in bytes after a WAL checkpoint."""
    await db.fetchall("PRAGMA wal_checkpoint(TRUNCATE)")
    pages = await db.fetchone("PRAGMA page_count")
    size = await db.fetchone("PRAGMA page_size")
    assert pages is not None and size is not None
    return int(pages[0]) * int(size[0])


async def run(games: int, variant: str, max_moves: int) -> dict[str, object]:
    """Play ``games`` games and measure what they wrote."""
    with tempfile.TemporaryDirectory() as folder:
        db = await Database.open(Path(folder) / "rows.sqlite")
        manager = SessionManager(db, now=lambda: 0.0)
        rows_before, bytes_before = await _table_rows(db), await _file_bytes(db)
        moves = 0
        for number in range(1, games + 1):
            rng = random.Random(number)
            deal = solve_numbered(variant, number)
            session = await manager.start(guild_id=1, channel_id=1, user_id=number, variant=variant, deal=deal)
            while session.game.move_count < max_moves and not session.game.is_over:
                legal = session.game.legal_moves()
                if not legal:
                    break
                move = rng.choice(legal) if rng.random() < ERROR_RATE else greedy_move(session.game)
                await manager.play(session, move if move is not None else legal[0])
                moves += 1
            if not session.game.is_over:
                await manager.expire(session)
        rows_after, bytes_after = await _table_rows(db), await _file_bytes(db)
        await manager.close()
        await db.close()
    gained = {name: rows_after[name] - rows_before.get(name, 0) for name in rows_after}
    return {
        "games": games,
        "moves_per_game": round(moves / games, 1),
        "rows_per_game": round(sum(gained.values()) / games, 1),
        "writes_per_game": round((sum(gained.values()) + 2 * moves) / games, 1),
        "bytes_per_game": round((bytes_after - bytes_before) / games),
        "tables": {name: round(count / games, 2) for name, count in sorted(gained.items()) if count},
    }


def main() -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--variant", default="draw3")
    parser.add_argument(
        "--moves", type=int, default=300, help="a game is ended by its clock after this many moves (5 min at 1/s)"
    )
    parser.add_argument("--games-per-day", type=int, default=10, help="assumed games per active player per day")
    args = parser.parse_args()
    figures = asyncio.run(run(args.games, args.variant, args.moves))
    per_day = args.games_per_day * 1000
    rows_day = round(float(str(figures["rows_per_game"])) * per_day)
    writes_day = round(float(str(figures["writes_per_game"])) * per_day)
    mib_day = round(float(str(figures["bytes_per_game"])) * per_day / 2**20, 1)
    print(f"{figures['games']} {args.variant} games, {figures['moves_per_game']} moves each on average")
    print(f"rows kept per game: {figures['rows_per_game']} ({figures['tables']})")
    print(
        f"row writes per game: {figures['writes_per_game']} (each command adds a game_moves row;"
        " the finished game's log goes into its games row and the move rows are deleted)"
    )
    print(f"bytes per game (SQLite file growth): {figures['bytes_per_game']}")
    print(
        f"per day, 1,000 active players at {args.games_per_day} games each (assumed): {rows_day} rows kept,"
        f" {writes_day} row writes, {mib_day} MiB"
    )
    print(
        f"games={figures['games']} moves_per_game={figures['moves_per_game']} rows_per_game={figures['rows_per_game']}"
        f" writes_per_game={figures['writes_per_game']} bytes_per_game={figures['bytes_per_game']}"
        f" rows_per_day_per_1000={rows_day} writes_per_day_per_1000={writes_day} mib_per_day_per_1000={mib_day}"
        f" load={os.getloadavg()[0]:.2f}"
    )


if __name__ == "__main__":
    main()

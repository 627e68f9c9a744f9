"""Moves of many games saved at once (SQLite commits them together): each answered move survives a restart."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.play.sessions import SessionManager
from bot.storage import Database
from bot.storage import games as games_db
from solitaire.deals import ProvenDeal
from tests.support.decks import EASY_KLONDIKE
from tests.support.faults import WriteFaults

START = 1_800_000_000.0
PLAYERS = 12


async def start_games(manager: SessionManager) -> list[int]:
    """One running game of draw3 for each of :data:`PLAYERS` members."""
    sessions = [
        await manager.start(
            guild_id=1,
            channel_id=5,
            user_id=100 + user,
            variant="draw3",
            deal=ProvenDeal("draw3", 0, EASY_KLONDIKE, ()),
        )
        for user in range(PLAYERS)
    ]
    return [session.id for session in sessions]


async def test_moves_answered_together_are_all_there_after_a_restart(tmp_path: Path):
    path = tmp_path / "bot.db"
    db = await Database.open(path)
    manager = SessionManager(db, now=lambda: START)
    try:
        ids = await start_games(manager)
        answered: dict[int, int] = {}
        for _ in range(3):  # every game's move in the same turn of the loop, three times over
            sessions = [manager.get(game_id) for game_id in ids]
            outcomes = await asyncio.gather(*(manager.play(s, "draw") for s in sessions if s is not None))
            answered.update({s.id: outcome.version for s, outcome in zip(sessions, outcomes, strict=True) if s})
    finally:
        await manager.close()
        await db.close()
    again = await Database.open(path)
    try:
        for game_id in ids:
            stored = await games_db.get_game(again, game_id)
            assert stored is not None and stored.version == answered[game_id] == 3
    finally:
        await again.close()


async def test_a_save_refused_in_a_group_leaves_its_game_as_saved_and_the_others_moved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    db = await Database.open(tmp_path / "bot.db")
    manager = SessionManager(db, now=lambda: START)
    faults = WriteFaults(monkeypatch)
    try:
        ids = await start_games(manager)
        faults.fail(at=4)  # a write of the second save in the group (each save writes 2 statements)
        sessions = [manager.get(game_id) for game_id in ids]
        results = await asyncio.gather(
            *(manager.play(s, "draw") for s in sessions if s is not None), return_exceptions=True
        )
        refused = [s.id for s, result in zip(sessions, results, strict=True) if s and isinstance(result, Exception)]
        assert len(refused) == 1
        for game_id in ids:
            stored = await games_db.get_game(db, game_id)
            session = manager.get(game_id)
            assert stored is not None and session is not None
            assert stored.version == session.game.version == (0 if game_id in refused else 1)
    finally:
        await manager.close()
        await db.close()

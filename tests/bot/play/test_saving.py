"""The save carved out: the manager leaves every read and write of a game's row to its saves."""

from __future__ import annotations

import ast
import dis
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from types import FrameType

import pytest_asyncio

from bot.play.clicks import BoardClick, Origin
from bot.play.session import BoardPress, Pressed
from bot.play.sessions import SessionManager
from bot.storage import Database
from solitaire.deals import ProvenDeal
from tests.support.decks import EASY_KLONDIKE

ROOT = Path(__file__).resolve().parents[3]
START = 1_800_000_000.0
WATCHED = {
    "bot.play.sessions": "sessions",
    "bot.play.running": "running",
    "bot.play.saving": "saving",
    "bot.storage.games": "games",
}
YIELD = dis.opmap["YIELD_VALUE"]


@pytest_asyncio.fixture
async def db(database_target: str | Path) -> AsyncIterator[Database]:
    database = await Database.open(database_target)
    yield database
    await database.close()


def test_the_manager_takes_only_types_from_storage():
    tree = ast.parse((ROOT / "bot/play/sessions.py").read_text(encoding="utf-8"))
    taken = {
        (node.module, alias.name)
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("bot.storage")
        for alias in node.names
    }
    plain = [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
    assert taken == {
        ("bot.storage", "Database"),
        ("bot.storage.games", "GameRecord"),
        ("bot.storage.games", "Link"),
        ("bot.storage.games", "Mode"),
    }
    assert not [name for name in plain if name.startswith("bot.storage")]


class HandOffs:
    """Each pass of control between the manager, its registry, its saves and the games' storage while it is on.

    A call counts when its frame first starts, a return when the frame finishes (a coroutine waiting
    on the database suspends and resumes without counting).
    """

    def __init__(self) -> None:
        self.passes: list[str] = []
        self._started: list[FrameType] = []

    def __enter__(self) -> HandOffs:
        sys.setprofile(self._profile)
        return self

    def __exit__(self, *exc: object) -> None:
        sys.setprofile(None)

    def _profile(self, frame: FrameType, event: str, arg: object) -> None:
        if event == "call" and not any(seen is frame for seen in self._started):
            self._started.append(frame)
            caller, callee = _module(frame.f_back), _module(frame)
            if caller and callee and caller != callee:
                self.passes.append(f"{caller} -> {callee}.{frame.f_code.co_name}")
        elif event == "return" and frame.f_code.co_code[max(frame.f_lasti, 0)] != YIELD:
            callee, caller = _module(frame), _module(frame.f_back)
            if caller and callee and caller != callee:
                self.passes.append(f"{caller} <- {callee}.{frame.f_code.co_name}")


def _module(frame: FrameType | None) -> str | None:
    return WATCHED.get(frame.f_globals.get("__name__", "")) if frame is not None else None


async def test_a_press_reaches_storage_through_the_saves_alone(db):
    now = [START]
    manager = SessionManager(db, now=lambda: now[0])
    deal = ProvenDeal("draw3", 0, EASY_KLONDIKE, ())
    session = await manager.start(guild_id=1, channel_id=5, user_id=7, variant="draw3", deal=deal)
    await manager.set_board(session, channel_id=5, message_id=9, token=None)
    press = BoardPress(BoardClick(session.id, 0, None, "draw"), Origin(7, 1, message_id=9, carries=True), START + 10)

    async def answer(pressed: Pressed) -> float:
        now[0] += 1.0  # the answer goes out a second after the save: that credit is written at once
        return now[0]

    now[0] = START + 12
    try:
        with HandOffs() as traced:
            await manager.press(press, answer)
    finally:
        await manager.close()
    assert session.game.version == 1 and session.deadline == START + 303
    assert traced.passes == [
        "sessions -> running.get",  # the press's look-up: the session (running here, or loaded)
        "sessions <- running.get",
        "sessions -> running.get",  # act's, shared with the page: still running, the owner's, this version
        "sessions <- running.get",
        "sessions -> saving.save",  # the engine pushed in the manager; its commands saved in one call
        "saving -> games.save_progress",
        "saving <- games.save_progress",
        "sessions <- saving.save",
        "sessions -> saving.save_deadline",  # the clock credit since the save (the answer took a second)
        "saving -> games.move_deadline",
        "saving <- games.move_deadline",
        "sessions <- saving.save_deadline",
    ]

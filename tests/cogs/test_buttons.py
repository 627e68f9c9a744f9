"""The bot's persistent buttons: one generic class, one registered type per id format, one click one call."""

from __future__ import annotations

import ast
import inspect
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.play.sessions import SessionManager
from tests.support.decks import EASY_NUMBER
from tests.support.flows import raw_clicks, row, start
from tests.support.races_on_discord import open_race

pytestmark = pytest.mark.usefixtures("no_error_logs")
ROOT = Path(__file__).resolve().parents[2]


def _classes(folder: str, name: str | None = None, base: str | None = None) -> list[str]:
    """``file:class`` of every class in ``folder`` named ``name`` or with a base whose text holds ``base``."""
    found = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ClassDef):
                continue
            if node.name == name or (base and any(base in ast.unparse(b) for b in node.bases)):
                found.append(f"{path.relative_to(ROOT)}:{node.name}")
    return found


def test_the_cogs_hold_one_button_class_one_cog_name_and_one_not_in_server_refusal():
    assert _classes("cogs", base="DynamicItem") == ["cogs/buttons.py:ClickButton"]
    assert _classes("bot", base="DynamicItem") == []
    names = [p for p in sorted((ROOT / "cogs").glob("*.py")) if "\nCOG_NAME = " in p.read_text(encoding="utf-8")]
    assert [p.name for p in names] == ["buttons.py"]
    assert _classes("bot", name="NotInServerError") + _classes("cogs", name="NotInServerError") == [
        "bot/errors.py:NotInServerError"
    ]


async def test_each_id_format_has_one_registered_button_type(simcord_env):
    from bot.play.clicks import FORMATS

    registered = simcord_env.bot._connection._view_store._dynamic_items
    assert sorted(pattern.pattern for pattern in registered) == sorted(form.route for form in FORMATS)


@pytest.mark.parametrize("custom_id", ["race:1:" + "j" * 50, "chal:1:" + "p" * 50])
async def test_a_long_malformed_race_or_challenge_id_gets_the_clear_private_answer(
    simcord_env, channel, alice, custom_id
):
    lobby = await open_race(alice, channel, players=3)
    [answer] = await raw_clicks(simcord_env, alice, lobby, custom_id)
    assert answer.response is not None and answer.response.ephemeral
    assert "not one I understand" in answer.response.content


def _count_calls_from_outside(sessions: SessionManager, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record each call into ``sessions``'s public methods made from outside it (its own inner calls are not)."""
    calls: list[str] = []
    depth = [0]

    @contextmanager
    def outermost(name: str) -> Iterator[None]:
        if depth[0] == 0:
            calls.append(name)
        depth[0] += 1
        try:
            yield
        finally:
            depth[0] -= 1

    def counted(name: str, method: Any) -> Any:
        async def call_async(*args: Any, **kwargs: Any) -> Any:
            with outermost(name):
                return await method(*args, **kwargs)

        def call(*args: Any, **kwargs: Any) -> Any:
            with outermost(name):
                return method(*args, **kwargs)

        return call_async if inspect.iscoroutinefunction(method) else call

    for name, method in inspect.getmembers(sessions, inspect.ismethod):
        if not name.startswith("_"):
            monkeypatch.setattr(sessions, name, counted(name, method))
    return calls


@pytest.mark.parametrize(("label", "moved"), [("Draw", True), ("Choose", False)])
async def test_a_board_click_is_one_call_into_the_sessions(simcord_env, channel, alice, monkeypatch, label, moved):
    board = await start(alice, channel, variant="draw3", deal=EASY_NUMBER)
    calls = _count_calls_from_outside(simcord_env.bot.sessions, monkeypatch)
    result = await alice.click(board, label=label)
    assert result.response is None or not result.response.ephemeral, result.response.content
    assert calls == ["press"]
    assert ((await row(simcord_env)).version == 1) == moved
    if not moved:  # a selection: the text and the lit targets change, the picture stays
        assert "Choose: click the card to move" in board.content and '"sol:1:0:ch:3"' in json.dumps(board.components)

"""The Activity's shape: every frame the page may send has one route to a desk, and no desk imports another."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, get_args

from bot.activity import protocol
from bot.activity.limits import ActivityCounts
from bot.activity.pages import Pages
from bot.activity.routes import Routes

ACTIVITY = Path(protocol.__file__).resolve().parent
DESKS = {"bot.activity.game", "bot.activity.races", "bot.activity.challenges"}


class AnyDesk:
    """A stand-in desk: every method it is asked for."""

    def __getattr__(self, name: str) -> Any:
        return lambda *args, **kwargs: None


def test_every_frame_the_page_may_send_has_one_route() -> None:
    desk: Any = AnyDesk()
    routes = Routes(Pages(), desk, desk, desk, ActivityCounts())
    frames = set(get_args(get_args(protocol.Incoming)[0]))
    assert set(routes.table) == frames and len(protocol.KINDS) == len(frames)


def test_no_desk_imports_another() -> None:
    for desk in DESKS:
        tree = ast.parse((ACTIVITY / f"{desk.rsplit('.', 1)[1]}.py").read_text(encoding="utf-8"))
        imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        assert imported & (DESKS - {desk}) == set(), desk
        assert "bot.activity.server" not in imported and "bot.activity.routes" not in imported, desk

"""A stand-in for the Activity server: the page's files, the token swap and the socket protocol over the pure core.

It serves the page as the real server does (``{{build}}`` and ``{{client_id}}`` filled in, files under
``/assets/<build>/``) and answers every frame of :mod:`bot.activity.protocol` from a :class:`~solitaire.Game`
per player, with no database: enough to develop and test the page's drawing, dragging and reconnecting.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from solitaire import Game, SolitaireError, new_game, view_of

STATIC = Path(__file__).resolve().parents[4] / "bot" / "activity" / "static"
BUILD = "standin"
CLIENT_ID = "1234567890"
TIME_LIMIT = 300.0
VARIANTS = (
    ("draw3", "Solitaire Rush (draw 3)"),
    ("draw1", "Solitaire Rush (draw 1)"),
    ("goldrush", "Gold Rush"),
    ("friday13", "Friday 13"),
)


@dataclass
class Table:
    """The stand-in's one player: their running game, the frames they sent, the sockets open."""

    game: Game | None = None
    game_id: int = 0
    deadline: float = 0.0
    received: list[dict[str, Any]] = field(default_factory=list)
    sockets: list[web.WebSocketResponse] = field(default_factory=list)
    seed: int = 11


def frame_of(table: Table, *, kind: str = "casual") -> dict[str, Any] | None:
    """The GAME frame of the table's game (the fields of :func:`bot.activity.frames.game_frame`)."""
    game = table.game
    if game is None:
        return None
    view = view_of(game)
    board = view.to_dict()
    return {
        "id": table.game_id,
        "version": game.version,
        "variant": view.variant,
        "title": view.title,
        "family": view.family.value,
        "kind": kind,
        "deal": f"deal {table.seed}" if view.is_over else "ranked deal",
        "status": view.status.value,
        "over": view.is_over,
        "score": view.score,
        "sheet": view.sheet.lines(),
        "moves": view.move_count,
        "deadline": table.deadline,
        "now": time.time(),
        "seconds_used": view.seconds_used,
        "draw": view.draw_count,
        "hints": not view.is_over,
        "four_colour": False,
        **board,
        "foundations": [
            {"label": f.label, "top": str(f.top) if f.top else None, "count": f.count, "takes": f.takes}
            for f in view.foundations
        ],
    }


def menu_of(table: Table) -> dict[str, Any]:
    """The MENU: the running game, the variants, no daily."""
    running = table.game if table.game and not table.game.is_over else None
    return {
        "running": frame_of(table) if running else None,
        "variants": [{"name": name, "title": title} for name, title in VARIANTS],
        "daily": {"date": "2025-01-01", "played": ["draw1"]},
    }


def answer(table: Table, frame: dict[str, Any]) -> dict[str, Any]:
    """The stand-in's answer to one frame from the page."""
    kind, ref = frame["type"], frame.get("ref")
    if kind == "menu":
        return {"type": "menu", "ref": ref, "menu": menu_of(table)}
    if kind == "start":
        table.game_id += 1
        table.game = new_game(frame["variant"], seed=table.seed)
        table.deadline = time.time() + TIME_LIMIT
        return {"type": "game", "ref": ref, "game": frame_of(table), "words": None}
    if kind == "resume":
        return {"type": "game", "ref": ref, "game": frame_of(table), "words": None}
    game = table.game
    if game is None or frame.get("game") != table.game_id or frame.get("version") != game.version:
        return {"type": "refused", "ref": ref, "reason": "That board has changed.", "game": frame_of(table)}
    return play(table, game, frame)


def play(table: Table, game: Game, frame: dict[str, Any]) -> dict[str, Any]:
    """Play a move, a tap, all up or a hint on the running game."""
    ref = frame["ref"]
    if frame["type"] == "tap":
        moves = [m for m in game.legal_moves() if m.source == frame["source"]]
        up = [m for m in moves if m.target == "f"]
        if len(moves) > 1 and not up:
            return {"type": "choose", "ref": ref, "source": frame["source"], "targets": [m.target for m in moves]}
        text = str((up or moves)[0]) if moves else f"{frame['source']}-f"
    elif frame["type"] == "allup":
        played = 0
        while up := [m for m in game.legal_moves() if m.target == "f"]:
            game.push(up[0])
            played += 1
        return {"type": "game", "ref": ref, "game": frame_of(table), "words": f"{played} cards up"}
    elif frame["type"] == "hint":
        return {"type": "game", "ref": ref, "game": frame_of(table), "words": "Try the waste."}
    else:
        text = frame["move"]
    try:
        game.play(text)
    except SolitaireError as error:
        return {"type": "refused", "ref": ref, "reason": str(error), "game": frame_of(table)}
    return {"type": "game", "ref": ref, "game": frame_of(table), "words": f"You played {text}."}


def application(table: Table) -> web.Application:
    """The stand-in's aiohttp application."""
    app = web.Application()

    async def index(request: web.Request) -> web.Response:
        html = (STATIC / "index.html").read_text().replace("{{build}}", BUILD).replace("{{client_id}}", CLIENT_ID)
        return web.Response(text=html, content_type="text/html")

    async def asset(request: web.Request) -> web.FileResponse:
        path = (STATIC / request.match_info["path"]).resolve()
        if STATIC not in path.parents or not path.is_file():
            raise web.HTTPNotFound()
        return web.FileResponse(path)

    async def token(request: web.Request) -> web.Response:
        code = (await request.json())["code"]
        return web.json_response({"access_token": f"token-{code}"})

    async def socket(request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        table.sockets.append(ws)
        async for message in ws:
            if message.type is not WSMsgType.TEXT:
                continue
            frame = json.loads(message.data)
            table.received.append(frame)
            if frame["type"] == "hello":
                welcome = {"user": {"id": "42", "name": "Tester"}, "guild_id": frame["guild_id"]}
                await ws.send_json({"type": "welcome", **welcome, "practice_only": False, "menu": menu_of(table)})
            elif frame["type"] == "ping":
                await ws.send_json({"type": "pong"})
            else:
                await ws.send_json(answer(table, frame))
        table.sockets.remove(ws)
        return ws

    app.router.add_get("/", index)
    app.router.add_get("/assets/{build}/{path:.+}", asset)
    app.router.add_post("/api/token", token)
    app.router.add_get("/ws", socket)
    return app


@asynccontextmanager
async def serve(table: Table) -> AsyncIterator[str]:
    """Run the stand-in on a free local port; yields its base URL."""
    runner = web.AppRunner(application(table))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        await runner.cleanup()

"""The render pool: pictures drawn by real worker processes, a worker that dies, and a clean close."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import pickle
import signal
from collections.abc import AsyncIterator, Callable
from multiprocessing.connection import Connection
from typing import Any

import pytest_asyncio

from bot.render_pool import MAX_FAILED_STARTS, BoardPicture, RenderPool, draw
from render import render_board
from render.samples import sample_stats_card
from render.stats_card import render_stats_card
from solitaire import Card, new_game
from solitaire.klondike import KlondikeGame
from solitaire.view import view_of
from tests.bot.decks import EASY_KLONDIKE


def _game() -> KlondikeGame:
    """A draw-3 game one draw in: face-down cards on six piles, cards left in the stock."""
    game = new_game("draw3", deck=EASY_KLONDIKE)
    assert isinstance(game, KlondikeGame)
    game.play("draw")
    return game


def _picture(**options: Any) -> BoardPicture:
    return BoardPicture(view_of(_game()), **options)


def _pids(pool: RenderPool) -> set[int]:
    return set(pool.pids)


def _cards(value: Any) -> set[Card]:
    """Every card anywhere inside ``value`` (dataclasses, tuples, lists, dicts)."""
    if isinstance(value, Card):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_cards(v) for v in value.values())) if value else set()
    if isinstance(value, list | tuple | set | frozenset):
        return set().union(*(_cards(v) for v in value)) if value else set()
    if dataclasses.is_dataclass(value):
        return set().union(*(_cards(getattr(value, f.name)) for f in dataclasses.fields(value)))
    return set()


def psutil_free_process(pid: int) -> Callable[[], bool]:
    """Whether process ``pid`` still runs (a zombie counts as ended)."""

    def alive() -> bool:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                return stat.read().split(") ")[1][0] != "Z"
        except FileNotFoundError:
            return False

    return alive


@pytest_asyncio.fixture
async def pool() -> AsyncIterator[RenderPool]:
    """A real pool of one spawned worker, closed afterwards."""
    renders = RenderPool(1)
    renders.start()
    yield renders
    await renders.close()


def test_a_picture_sent_to_a_worker_holds_no_hidden_card() -> None:
    game = _game()
    shipped = pickle.loads(pickle.dumps(BoardPicture(view_of(game))))  # exactly what crosses to the worker
    seen = _cards(shipped)
    hidden = {card for pile, down in zip(game.piles, game.hidden, strict=True) for card in pile[:down]}
    hidden |= set(game.stock)
    assert len(hidden) > 30 and len(seen) >= 10 and not seen & hidden
    assert len(pickle.dumps(_picture())) < 4_000  # small: a view, not a game


async def test_the_pool_draws_the_same_picture_as_the_renderer(pool: RenderPool) -> None:
    picture = _picture(time_left=123.0, selected="w", four_colour=True)
    png = await pool.render(picture)
    assert png == render_board(picture.view, time_left=123.0, selected="w", four_colour=True)
    assert png == draw(picture) and png.startswith(b"\x89PNG")
    assert pool.fallbacks == 0 and len(_pids(pool)) == 1


async def test_the_pool_draws_a_stats_card_in_its_worker(pool: RenderPool) -> None:
    card = sample_stats_card("veteran")
    assert len(pickle.dumps(card)) < 20_000  # what crosses to the worker: plain figures and dates
    png = await pool.render(card)
    assert png == render_stats_card(card) == draw(card) and png.startswith(b"\x89PNG")
    assert pool.fallbacks == 0 and len(_pids(pool)) == 1


async def test_a_worker_that_dies_drawing_is_replaced_and_the_picture_drawn_here(pool: RenderPool) -> None:
    picture = _picture(time_left=60.0)
    expected = render_board(picture.view, time_left=60.0)
    assert await pool.render(picture) == expected
    [dead] = _pids(pool)
    os.kill(dead, signal.SIGSTOP)  # it cannot answer before it is killed
    drawing = asyncio.create_task(pool.render(picture))
    while not pool.drawing:  # the picture is in the worker's pipe now
        await asyncio.sleep(0)
    os.kill(dead, signal.SIGKILL)
    assert await drawing == expected  # drawn here
    assert pool.fallbacks == 1 and pool.replaced == 1
    assert await pool.render(picture) == expected  # and the fresh worker draws the next one
    assert pool.fallbacks == 1 and len(_pids(pool)) == 1 and dead not in _pids(pool)


async def test_an_idle_worker_that_dies_is_replaced_before_the_next_picture(pool: RenderPool) -> None:
    picture = _picture()
    await pool.render(picture)
    [dead] = _pids(pool)
    os.kill(dead, signal.SIGKILL)
    for _ in range(200):  # the pipe's end reaches the event loop
        if pool.replaced:
            break
        await asyncio.sleep(0.01)
    assert pool.replaced == 1 and dead not in _pids(pool)
    assert await pool.render(picture) == render_board(picture.view) and pool.fallbacks == 0


async def test_close_stops_every_worker() -> None:
    renders = RenderPool(2)
    renders.start()
    await renders.render(_picture())
    processes = [psutil_free_process(pid) for pid in renders.pids]
    assert len(processes) == 2 and all(alive() for alive in processes)
    await renders.close()
    assert not renders.running and not renders.pids and not any(alive() for alive in processes)
    assert await renders.render(_picture()) == render_board(_picture().view)  # after close: drawn here


async def test_no_workers_draws_in_a_thread_here() -> None:
    renders = RenderPool(0)
    renders.start()
    assert not renders.running and not renders.pids
    assert await renders.render(_picture(selected="1")) == render_board(_picture().view, selected="1")
    await renders.close()


def never_draws(conn: Connection) -> None:
    """A worker that cannot start (it exits before its first picture)."""
    raise SystemExit(3)


async def test_workers_that_cannot_start_are_given_up_and_pictures_drawn_here() -> None:
    renders = RenderPool(1, target=never_draws)
    renders.start()
    picture = _picture(selected="w")
    for _ in range(MAX_FAILED_STARTS + 1):  # every picture answered, whatever the workers do
        assert await renders.render(picture) == render_board(picture.view, selected="w")
    for _ in range(500):  # deaths of idle workers reach the event loop through their pipes
        if not renders.running:
            break
        await asyncio.sleep(0.01)
    assert not renders.running and renders.replaced == MAX_FAILED_STARTS - 1
    assert await renders.render(picture) == render_board(picture.view, selected="w")
    await renders.close()

"""Board pictures: what crosses to a worker, and a picture answered whatever its worker does."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import pickle
import signal
from typing import Any

from bot.heavy import Scheduler
from bot.play.render_pool import BoardPicture, Pictures, draw
from languages import speaking_language
from languages.pseudo import PSEUDO
from render import render_board
from render.samples import sample_stats_card
from render.stats_card import render_stats_card
from solitaire import Card, new_game
from solitaire.klondike import KlondikeGame
from solitaire.view import view_of
from tests.support.decks import EASY_KLONDIKE


def _game() -> KlondikeGame:
    """A draw-3 game one draw in: face-down cards on six piles, cards left in the stock."""
    game = new_game("draw3", deck=EASY_KLONDIKE)
    assert isinstance(game, KlondikeGame)
    game.play("draw")
    return game


def _picture(**options: Any) -> BoardPicture:
    return BoardPicture(view_of(_game()), **options)


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


def test_a_picture_sent_to_a_worker_holds_no_hidden_card() -> None:
    game = _game()
    shipped = pickle.loads(pickle.dumps(BoardPicture(view_of(game))))  # exactly what crosses to the worker
    seen = _cards(shipped)
    hidden = {card for pile, down in zip(game.piles, game.hidden, strict=True) for card in pile[:down]}
    hidden |= set(game.stock)
    assert len(hidden) > 30 and len(seen) >= 10 and not seen & hidden
    assert len(pickle.dumps(_picture())) < 4_000  # small: a view, not a game


async def test_a_worker_draws_the_same_picture_as_the_renderer(one_worker: Scheduler) -> None:
    picture = _picture(time_left=123.0, selected="w", four_colour=True)
    png = await Pictures(one_worker).render(picture)
    assert png == render_board(picture.view, time_left=123.0, selected="w", four_colour=True)
    assert png == draw(picture) and png.startswith(b"\x89PNG")
    assert one_worker.fallbacks == 0 and len(one_worker.pids) == 1


async def test_a_worker_draws_a_stats_card(one_worker: Scheduler) -> None:
    card = sample_stats_card("veteran")
    assert len(pickle.dumps(card)) < 20_000  # what crosses to the worker: plain figures and dates
    png = await Pictures(one_worker).render(card)
    assert png == render_stats_card(card) == draw(card) and png.startswith(b"\x89PNG")
    assert one_worker.fallbacks == 0 and len(one_worker.pids) == 1


async def test_a_worker_that_dies_drawing_is_replaced_and_the_picture_drawn_here(one_worker: Scheduler) -> None:
    pictures, picture = Pictures(one_worker), _picture(time_left=60.0)
    expected = render_board(picture.view, time_left=60.0)
    assert await pictures.render(picture) == expected
    [dead] = one_worker.pids
    os.kill(dead, signal.SIGSTOP)  # it cannot answer before it is killed
    drawing = asyncio.create_task(pictures.render(picture))
    while not one_worker.holding:  # the picture is in the worker's pipe now
        await asyncio.sleep(0)
    os.kill(dead, signal.SIGKILL)
    assert await drawing == expected  # drawn here
    assert one_worker.fallbacks == 1 and one_worker.replaced == 1 and one_worker.stuck == 0
    await asyncio.wait_for(one_worker.until(lambda pool: pool.ready == 1), 30)  # the fresh one has started
    assert await pictures.render(picture) == expected  # and draws the next one
    assert one_worker.fallbacks == 1 and len(one_worker.pids) == 1 and dead not in one_worker.pids


async def test_a_stopped_worker_holding_a_picture_is_replaced_and_the_picture_drawn_here(one_worker: Scheduler) -> None:
    pictures, picture = Pictures(one_worker), _picture(selected="1")
    await pictures.render(picture)
    [stopped] = one_worker.pids
    os.kill(stopped, signal.SIGSTOP)  # alive, never answering: without a deadline, every picture waits for ever
    assert await asyncio.wait_for(pictures.render(picture), 10) == render_board(picture.view, selected="1")
    assert one_worker.fallbacks == 1
    for _ in range(500):  # its worker is killed once it has held the picture for the picture's time
        if one_worker.stuck:
            break
        await asyncio.sleep(0.01)
    assert one_worker.stuck == 1 and stopped not in one_worker.pids


async def test_an_idle_worker_that_dies_is_replaced_before_the_next_picture(one_worker: Scheduler) -> None:
    pictures, picture = Pictures(one_worker), _picture()
    await pictures.render(picture)
    [dead] = one_worker.pids
    os.kill(dead, signal.SIGKILL)
    # the pipe's end reaches the event loop, a fresh worker is spawned and says it is ready (on a busy machine, later
    # than a picture's deadline: a picture asked before that would rightly be drawn here)
    await asyncio.wait_for(one_worker.until(lambda pool: pool.replaced == 1 and pool.ready == 1), 30)
    assert dead not in one_worker.pids
    assert await pictures.render(picture) == render_board(picture.view) and one_worker.fallbacks == 0


async def test_without_workers_pictures_are_drawn_in_a_thread_here() -> None:
    pool = Scheduler(0)
    pool.start()
    assert not pool.running and not pool.pids
    assert await Pictures(pool).render(_picture(selected="1")) == render_board(_picture().view, selected="1")
    await pool.close()


async def test_a_worker_draws_in_the_language_the_picture_was_asked_in(one_worker: Scheduler) -> None:
    pictures, picture, card = Pictures(one_worker), _picture(time_left=42.0), sample_stats_card("veteran")
    english = await pictures.render(picture)
    with speaking_language(PSEUDO):
        accented = await pictures.render(picture)
        assert accented == draw(picture) and await pictures.render(card) == draw(card)
    assert english == draw(picture) != accented and one_worker.fallbacks == 0

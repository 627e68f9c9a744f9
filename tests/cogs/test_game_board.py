"""The board message without Discord traffic: text, buttons and their limits."""

from __future__ import annotations

import random

import discord
import pytest

from bot.storage.games import GameRecord
from cogs.board import board_buttons, board_content
from solitaire import MoveKind, new_game, view_of
from solitaire.moves import PILES
from tests.support.decks import EASY_KLONDIKE


def record(**changes) -> GameRecord:
    fields = {
        "id": 3,
        "guild_id": 1,
        "channel_id": 2,
        "user_id": 99,
        "variant": "draw3",
        "mode": "casual",
        "deal_number": 4242,
        "daily_date": None,
        "state": "{}",
        "status": "playing",
        "score": 0,
        "seconds_used": None,
        "started_at": 1000.0,
        "deadline": 1300.0,
        "finished_at": None,
        "message_id": None,
        "webhook_token": None,
        "version": 0,
    }
    return GameRecord(**{**fields, **changes})


def test_running_board_text_names_player_deal_score_and_deadline():
    game = new_game("draw3", deck=EASY_KLONDIKE)
    text = board_content(record(practice=True), view_of(game), selected="w")
    assert text.startswith(
        "<@99> · **Solitaire Rush (draw 3)** · practice, not ranked: deal #4242 · score 0 · time runs out <t:1300:R>"
    )
    assert "Selected **the waste**" in text


@pytest.mark.parametrize(
    ("changes", "playing", "over"),
    [
        ({"deal_number": None, "deal_seed": "987"}, "ranked deal ·", "ranked deal (seed `987`) ·"),
        ({"deal_number": None, "deal_seed": "987", "practice": True}, "practice, not ranked: seed `987`", None),
        ({"deal_number": None, "deal_seed": "987", "mode": "race"}, "race deal ·", "race deal ·"),
        (
            {"deal_number": None, "deal_seed": "987", "mode": "daily", "daily_date": "2026-01-01"},
            "daily 2026-01-01",
            None,
        ),
    ],
)
def test_the_board_says_which_kind_of_deal_and_a_ranked_seed_only_once_over(changes, playing, over):
    game = new_game("draw3", deck=EASY_KLONDIKE)
    running = board_content(record(**changes), view_of(game))
    assert playing in running and ("987" not in running or changes.get("practice"))
    game.play("end", seconds=20)
    ended = board_content(record(**changes), view_of(game))
    assert (over or playing) in ended
    assert ("987" in ended) == bool(changes.get("practice") or (over and "987" in over))


def test_daily_and_finished_board_text():
    game = new_game("draw3", deck=EASY_KLONDIKE)
    game.play("1-f", seconds=10)
    game.play("end", seconds=75)
    text = board_content(record(mode="daily", deal_number=None, daily_date="2026-01-01"), view_of(game))
    assert "daily 2026-01-01" in text and "ended" in text and f"**{game.score} points** in 1:15" in text
    assert "Time bonus" in text and "<t:" not in text


@pytest.mark.parametrize("variant", ["draw1", "draw3", "goldrush", "friday13"])
def test_buttons_fit_discord_limits(variant):
    view = board_buttons(1, 0, view_of(new_game(variant, seed=1)), None)
    rows: dict[int, int] = {}
    for item in view.children:
        rows[item.row] = rows.get(item.row, 0) + 1  # type: ignore[index]
        assert len(item.custom_id) <= 100  # type: ignore[attr-defined]
    assert len(rows) <= 5 and max(rows.values()) <= 5


def test_friday13_enables_exactly_the_engines_legal_foundations():
    rng = random.Random(13)
    for seed in range(15):
        game = new_game("friday13", seed=seed)
        for _ in range(60):
            legal = {move.target for move in game.legal_moves() if move.source == "w"}
            view = board_buttons(1, game.version, view_of(game), None)
            enabled = {
                item.custom_id.rsplit(":t", 1)[1]  # type: ignore[attr-defined]
                for item in view.children
                if ":t" in item.custom_id and not item.item.disabled  # type: ignore[attr-defined]
            }
            assert enabled == legal, (seed, game.log)
            moves = game.legal_moves()
            if not moves:
                break
            game.push(rng.choice(moves))


SUITS = {"S": "fs", "H": "fh", "D": "fd", "C": "fc"}


def test_a_klondike_selection_lights_exactly_the_legal_targets():
    rng = random.Random(5)
    for variant in ("draw1", "draw3", "goldrush"):
        game = new_game(variant, seed=3)
        for _ in range(80):
            view = view_of(game)
            for source in ("w", *PILES, *SUITS.values()):
                targets = {m.target for m in view.legal_moves if m.kind is MoveKind.PLAY and m.source == source}
                if len(targets) < 2 and source not in SUITS.values():
                    continue
                shown = board_buttons(1, 0, view, source).children
                buttons = {item.custom_id.rsplit(":", 1)[1]: item.item for item in shown}  # type: ignore[attr-defined]
                lit = {action for action, item in buttons.items() if item.style is discord.ButtonStyle.success}
                expected = targets - {"f"}
                if "f" in targets:
                    card = view.waste_fan[-1] if source == "w" else view.tableau[int(source) - 1].cards[-1]
                    expected |= {"f", SUITS[card.suit]}
                assert lit == expected, (variant, source, game.log)
                assert all(not buttons[action].disabled for action in lit | {source, "draw", "end", "pick"})
                off = set(buttons) - lit - {source, "draw", "undo", "end", "pick"}
                assert all(buttons[action].disabled for action in off), (variant, source)
            moves = game.legal_moves()
            if not moves:
                break
            game.push(rng.choice(moves))

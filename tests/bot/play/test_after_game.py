"""When analysis and replays open, who may take a hint, and that the work pickles for the deal workers."""

from __future__ import annotations

import json
import pickle
from dataclasses import replace

import pytest

from bot.heavy import Priority, Scheduler
from bot.play.after_game import (
    HintsNotAllowedError,
    NotFinishedError,
    NotYetError,
    analyze_state,
    check_after_game,
    check_hints_allowed,
    hint_of,
)
from bot.storage.games import GameRecord
from solitaire import game_to_json, new_game
from solitaire.knowledge import knowledge_of


def record(**changes) -> GameRecord:
    game = new_game("draw3", seed=0)
    game.play("end")
    fields = dict(
        id=3, guild_id=1, channel_id=2, user_id=99, variant="draw3", mode="casual", deal_number=7, daily_date=None,
        state=json.dumps(game_to_json(game)), status="ended", score=0, seconds_used=0, started_at=0.0,
        deadline=300.0, finished_at=1.0, message_id=None, webhook_token=None, version=1,
    )  # fmt: skip
    return replace(GameRecord(**fields), **changes)


def test_a_casual_game_opens_once_over():
    check_after_game(record(), "Analysis", over=False)  # a casual game is nobody else's deal
    with pytest.raises(NotFinishedError):
        check_after_game(record(status="playing"), "Analysis", over=True)


def test_a_daily_opens_only_once_its_competition_is_over():
    daily = record(mode="daily", deal_number=None, daily_date="2026-01-01")
    with pytest.raises(NotYetError, match="every daily of that day is finished"):
        check_after_game(daily, "The replay", over=False)
    check_after_game(daily, "The replay", over=True)


def test_a_race_opens_only_once_the_race_is_over():
    race = record(mode="race")
    with pytest.raises(NotYetError, match="when the race ends"):
        check_after_game(race, "Analysis", over=False)
    check_after_game(race, "Analysis", over=True)


def test_hints_are_for_casual_games_only():
    check_hints_allowed(record(status="playing"))
    with pytest.raises(HintsNotAllowedError):
        check_hints_allowed(record(mode="daily", status="playing"))


async def test_the_work_pickles_for_a_worker_process_and_runs_off_the_loop():
    game = new_game("draw3", seed=0)
    game.play("draw")
    knowledge = knowledge_of(game)
    assert pickle.loads(pickle.dumps(knowledge)) == knowledge
    assert not [card for card in game.deck if card not in game.seen and repr(card) in repr(knowledge)]
    jobs = Scheduler(0)  # in threads here: the same jobs, the same pickled arguments
    hint = await jobs.submit(hint_of, pickle.loads(pickle.dumps(knowledge)), 1, 3, priority=Priority.HINT)
    analysis = await jobs.submit(analyze_state, record().state, priority=Priority.ANALYSIS)
    assert pickle.loads(pickle.dumps(hint)) == hint and hint.move is not None
    assert pickle.loads(pickle.dumps(analysis)) == analysis
    assert (analysis.status, analysis.last_winnable, analysis.lost_by) == ("ended", 0, None)

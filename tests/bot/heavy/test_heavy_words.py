"""A heavy job says its words in the language of whoever asked for it, in a thread here as in a worker process."""

from __future__ import annotations

import json
import pickle

import pytest

from bot.heavy import Priority, Scheduler
from bot.heavy.jobs import in_spoken_language
from bot.play.after_game import analysis_reply
from languages import speaking_language
from languages.pseudo import PSEUDO, pseudo
from solitaire import game_to_json, new_game
from solitaire.speech import _

SENTENCE = "The deal was winnable."


def say() -> str:
    """A job's words (importable: a worker process runs it by name)."""
    return _(SENTENCE)


def test_a_job_asked_in_english_runs_as_it_is_and_another_language_travels_with_it():
    assert in_spoken_language(say) is say
    with speaking_language(PSEUDO):
        wrapped = in_spoken_language(say)
    assert pickle.loads(pickle.dumps(wrapped))() == pseudo(SENTENCE)  # said so wherever it is unpickled
    assert say() == SENTENCE


async def test_a_job_run_in_a_thread_speaks_the_askers_language():
    jobs = Scheduler(0)
    with speaking_language(PSEUDO):
        said = jobs.submit(say, priority=Priority.HINT)
    assert await said == pseudo(SENTENCE)
    assert await jobs.submit(say, priority=Priority.HINT) == SENTENCE


async def test_an_analysis_is_said_in_the_language_it_was_asked_in():
    game = new_game("draw3", seed=0)
    game.play("end")
    state = json.dumps(game_to_json(game))
    jobs = Scheduler(0)
    with speaking_language(PSEUDO):
        reply = await jobs.submit(analysis_reply, state, priority=Priority.ANALYSIS)
    assert reply.text.startswith(pseudo("**Analysis** (solved with every card known, now that the game is over)"))


@pytest.mark.processes
async def test_a_job_run_in_a_worker_process_speaks_the_askers_language(one_worker):
    with speaking_language(PSEUDO):
        said = one_worker.submit(say, priority=Priority.HINT)
    assert await said == pseudo(SENTENCE)
    assert await one_worker.submit(say, priority=Priority.HINT) == SENTENCE


async def test_a_kept_result_is_kept_per_language():
    """An analysis kept for one game is handed to the next ask in the same language only: words differ."""
    jobs = Scheduler(0)
    assert await jobs.submit(say, priority=Priority.HINT, key="analysis-1", keep=True) == SENTENCE
    with speaking_language(PSEUDO):
        assert await jobs.submit(say, priority=Priority.HINT, key="analysis-1", keep=True) == pseudo(SENTENCE)
    assert await jobs.submit(say, priority=Priority.HINT, key="analysis-1", keep=True) == SENTENCE

"""The daily competition on SimCord: deals solved at once, a member's daily, its stored attempt, the clock.

``instant_daily_solver`` is autouse: it applies in the test modules that import it, and only there.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest

from bot.storage import competition as competition_db
from bot.storage import games as games_db
from solitaire import shuffled_deck
from solitaire.deals import DealRequest, ProvenDeal, candidate_seed
from tests.support.decks import EASY_KLONDIKE

START_DAY = "2026-01-01"  # SimCord's clock starts at 2026-01-01T00:00Z


def instant_daily(request: DealRequest) -> ProvenDeal:
    """Stand-in for the solver: the easy deck for draw3, otherwise the source's first candidate shuffle."""
    if request.variant == "draw3":
        return ProvenDeal("draw3", 0, EASY_KLONDIKE, ())
    seed = candidate_seed(request.source, 0)
    return ProvenDeal(request.variant, seed, shuffled_deck(seed), ())


@pytest.fixture(autouse=True)
def instant_daily_solver(make_bot) -> list[DealRequest]:
    asked: list[DealRequest] = []

    def solver(request: DealRequest) -> ProvenDeal:
        asked.append(request)
        return instant_daily(request)

    make_bot.daily_solve = solver
    return asked


async def daily(actor: Any, channel: Any, variant: str = "draw3") -> Any:
    result = await actor.slash(channel, "solitaire daily", variant=variant)
    assert result.acknowledged and result.response is not None, result
    return result.response


async def attempt(
    env: Any, guild: Any, actor: Any, variant: str = "draw3", day: str = START_DAY
) -> games_db.GameRecord:
    row = await competition_db.daily_attempt(env.bot.db, guild.id, actor.id, variant, day)
    assert row is not None
    record = await games_db.get_game(env.bot.db, row["id"])
    assert record is not None
    return record


async def end(actor: Any, channel: Any) -> None:
    result = await actor.slash(channel, "solitaire end")
    assert result.response.ephemeral and "game is over" in result.response.content


def public(channel: Any) -> list[str]:
    return [message.content for message in channel.history()]


async def advance_to(env: Any, moment: datetime) -> None:
    """Advance the virtual clock in steps of at most 6 hours (each step has its own real-time budget)."""
    while (left := (moment - env.now()).total_seconds()) > 0:
        await env.advance_time(min(left, 6 * 3600))
    assert env.now() == moment

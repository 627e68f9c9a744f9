"""Whether a finished game's competition is over: the service registered for its mode answers."""

from __future__ import annotations

import pytest

from bot.compete.over import CompetitionsOver
from bot.rules.modes import CASUAL, DAILY, RACE
from bot.storage.games import GameRecord


def record(mode: str, game_id: int = 1) -> GameRecord:
    """A finished game's row of ``mode`` (only its mode and id matter here)."""
    return GameRecord(
        id=game_id,
        guild_id=1,
        channel_id=5,
        user_id=7,
        variant="draw3",
        mode=mode,
        deal_number=None,
        daily_date=None,
        state="{}",
        status="won",
        score=0,
        seconds_used=0,
        started_at=0.0,
        deadline=300.0,
        finished_at=10.0,
        message_id=None,
        webhook_token=None,
        version=1,
    )


async def test_each_mode_asks_its_own_service_and_an_unanswered_mode_follows_the_mode():
    asked: list[tuple[str, int]] = []

    def answering(name: str, answer: bool):
        async def check(game: GameRecord) -> bool:
            asked.append((name, game.id))
            return answer

        return check

    over = CompetitionsOver({RACE: answering("races", False)})
    over.answer(DAILY, answering("daily", True))
    assert await over.over(record("race", 3)) is False
    assert await over.over(record("daily", 4)) is True
    assert await over.over(record("casual", 5)) is True  # open as soon as the game is over
    assert await over.over(record("challenge", 6)) is False  # nobody answers: it never opens
    assert asked == [("races", 3), ("daily", 4)]
    assert CASUAL.opens_when is None


async def test_an_unknown_mode_is_refused():
    with pytest.raises(ValueError, match="unknown game mode"):
        await CompetitionsOver().over(record("poker"))

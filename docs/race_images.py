"""Draw docs/images/race-*.png: the race message's embeds as a phone shows them (400 px wide).

Run: .venv/bin/python docs/race_images.py. The embeds and buttons are the real ones
(``cogs.race_commands.race_message``), drawn by ``docs/embed_pictures.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from embed_pictures import T0, draw

from bot.compete.race import RaceResult, RaceSnapshot, Standing
from bot.storage.races import RaceRecord
from cogs.race_commands import race_message


def _race(status: str, **changes: Any) -> RaceRecord:
    base = dict(
        id=7,
        guild_id=1,
        channel_id=1,
        message_id=1,
        host_id=1,
        variant="draw3",
        capacity=4,
        status=status,
        created_at=T0,
        lobby_deadline=T0 + 600,
        start_at=T0 + 50,
        end_at=T0 + 350,
        deal_number=None,
        finished_at=None,
        results_posted_at=None,
        deal_seed="13411853262911466821",
    )
    base.update(changes)
    return RaceRecord(**base)  # type: ignore[arg-type]


def main() -> None:
    """Write the three pictures."""
    out = Path(__file__).resolve().parent / "images"
    lobby = RaceSnapshot(_race("lobby", start_at=None, end_at=None), (1, 2, 3))
    live = RaceSnapshot(
        _race("running"),
        (1, 2, 3, 4),
        standings=(
            Standing(2, "won", 52, 1762, seconds_used=148),
            Standing(1, "playing", 31, 905, moves=88),
            Standing(4, "playing", 17, 420, moves=40),
            Standing(3, "playing", 0, 0),
        ),
    )
    final = RaceSnapshot(
        _race("finished"),
        (1, 2, 3, 4),
        results=(
            RaceResult(1, 2, 1762, 148, "won", 1000.0, 1137.5, 1, True),
            RaceResult(2, 1, 1215, 300, "expired", 1042.0, 1061.0, 6, False),
            RaceResult(3, 4, 610, 300, "expired", 1000.0, 990.0, 1, True),
            RaceResult(4, 3, 0, 300, "expired", 1000.0, None, 0, True),  # never moved a card: not rated
        ),
    )
    draw(race_message(lobby, now=T0 + 40), out / "race-lobby.png")
    draw(race_message(live, now=T0 + 200), out / "race-standings.png")
    draw(race_message(final, now=T0 + 400), out / "race-results.png")


if __name__ == "__main__":
    main()

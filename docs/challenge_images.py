"""Draw docs/images/challenge-*.png: the challenge message before and after it closes, as a phone shows it.

Run: .venv/bin/python docs/challenge_images.py. The embeds and buttons are the real ones
(``cogs.challenge_commands.challenge_message``), drawn by ``docs/embed_pictures.py`` at 400 px wide.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from embed_pictures import T0, draw

from bot.compete.challenges import ChallengeSnapshot, Line
from bot.storage.challenges import ChallengeRecord
from cogs.challenge_commands import challenge_message

CHALLENGE = ChallengeRecord(
    id=3,
    guild_id=1,
    channel_id=1,
    message_id=1,
    challenger_id=1,
    variant="draw3",
    show_scores=False,
    status="open",
    created_at=T0,
    deadline=T0 + 24 * 3600,
    deal="{}",
    deal_seed="9081726354637281920",
    closed_at=None,
    unrated_reason=None,
)


def main() -> None:
    """Write the two pictures."""
    out = Path(__file__).resolve().parent / "images"
    before = ChallengeSnapshot(
        CHALLENGE,
        (Line(1, "played"), Line(2, "playing"), Line(3, "declined"), Line(4, "invited")),
        now=T0 + 40,
    )
    after = ChallengeSnapshot(
        replace(CHALLENGE, status="closed", closed_at=T0 + 24 * 3600),
        (
            Line(1, "played", 1215, 300, "expired", 2, 1000.0, 1012.0, provisional=True),
            Line(2, "played", 1762, 148, "won", 1, 1042.0, 1071.0, provisional=True),
            Line(3, "declined"),
            Line(4, "invited"),
        ),
        now=T0 + 24 * 3600,
    )
    draw(challenge_message(before), out / "challenge-open.png")
    draw(challenge_message(after), out / "challenge-closed.png")


if __name__ == "__main__":
    main()

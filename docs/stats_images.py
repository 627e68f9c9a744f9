"""Draw docs/images/stats-new.png and stats-veteran.png (and their -phone twins): the cards of docs/competition.md.

Run: .venv/bin/python docs/stats_images.py. The cards are ``render.samples.sample_stats_card``'s: a
member with no game yet, and a veteran with months of seeded play (a 9-day streak, four games, two
raced), drawn by the bot's own renderer at 800 px and as a phone shows them (400 px wide).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from render.__main__ import phone_size  # noqa: E402
from render.samples import CARDS, sample_stats_card  # noqa: E402
from render.stats_card import render_stats_card  # noqa: E402
from render.stats_data import describe_stats_card  # noqa: E402

OUT = ROOT / "docs" / "images"


def main() -> int:
    """Write each sample card at full and at phone size, and print its alt text."""
    for kind in CARDS:
        card = sample_stats_card(kind)
        png = render_stats_card(card)
        for path, data in ((OUT / f"stats-{kind}.png", png), (OUT / f"stats-{kind}-phone.png", phone_size(png))):
            path.write_bytes(data)
            print(f"{path.relative_to(ROOT)} {len(data)} bytes")
        print(f"  alt text: {describe_stats_card(card)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

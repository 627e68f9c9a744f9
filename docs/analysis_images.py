"""Draw docs/images/analysis-draw3.png (and its -phone twin): the Analyze picture of docs/after_game.md.

Run: .venv/bin/python docs/analysis_images.py. The game is ``benchmarks/after_game_games.py``'s
``played_game("draw3", 3, 150)``; the analysis, the kept position and the marks are what the bot's
Analyze button computes (``cogs/after_game.py``): the last winnable position, the losing move's
source in gold and its target in red, with the legend the renderer adds below.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.after_game_games import played_game  # noqa: E402
from bot.play.move_words import describe_move, move_places  # noqa: E402
from render import render_board  # noqa: E402
from render.__main__ import phone_size  # noqa: E402
from solitaire import new_game, view_of  # noqa: E402
from solitaire.analysis import analyze  # noqa: E402

OUT = ROOT / "docs" / "images"


def main() -> int:
    """Analyze the documented game and write its picture at full and at phone size."""
    game = played_game("draw3", 3, 150)
    analysis = analyze(game.rules, game.deck, [move for move, _ in game.log])
    kept = new_game(game.rules, deck=game.deck)
    for text, seconds in game.log[: analysis.last_winnable or 0]:
        kept.play(text, seconds=seconds)
    if analysis.lost_by is None:
        print("this run of the analysis found no losing move: nothing drawn")
        return 1
    move = kept.parse_move(analysis.lost_by)
    source, target = move_places(kept, move)
    png = render_board(view_of(kept), selected=source, target=target)
    (OUT / "analysis-draw3.png").write_bytes(png)
    (OUT / "analysis-draw3-phone.png").write_bytes(phone_size(png))
    print(f"winnable until move {analysis.last_winnable}; lost by {describe_move(kept, move)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

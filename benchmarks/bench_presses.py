"""Presses and new pictures per move: the solver's winning lines played through the board's buttons (key=value last).

Each proven deal (public numbered deals from ``--start``) is played along its solver line until
the game ends (the engine plays a won game out by itself). Every line move is turned into button
presses by the Klondike pad (:meth:`bot.play.pads.KlondikePad.presses`: the card alone, the card then its
place, or Choose, the card and its place) and each press is resolved by the code the buttons call
(:func:`bot.play.clicks.resolve_click`): a press that only selects answers without a picture, a press that
plays draws one. Two earlier pads are counted from the same lines: the old one needed two presses for
every card move (source, then target) and drew a picture on each; the one-place pad moved a card at
once only when it had exactly one place to go (a card that could go up or onto a pile took two).

Run: ``.venv/bin/python benchmarks/bench_presses.py`` (``--deals N`` per variant, ``--start``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this tree's bot, not an installed one

from bot.play.clicks import Play, Select, resolve_click
from bot.play.pads import CHOOSE, KlondikePad, targets_of
from solitaire import Move, MoveKind, new_game, view_of
from solitaire.deals import numbered_deal
from solitaire.moves import FOUNDATION_SOURCES
from solitaire.view import BoardView

VARIANTS = ("draw3", "draw1", "goldrush")
TARGET_PRESSES = 1.10
"""The goal: presses per line move, median over the deals, in every variant."""


@dataclass(frozen=True)
class Line:
    """One deal's winning line as pressed: line moves, and presses and pictures with each pad."""

    moves: int
    presses: int
    pictures: int
    old_presses: int
    one_place_presses: int
    """Presses with the one-place pad (a press moved a card only when it had one place to go)."""
    several_up: int
    """Card moves to a foundation whose source had several destinations (two presses with the one-place pad)."""
    two_presses: int
    """Card moves played by a selection and a target (several places, none up; or a card taken back down)."""
    chosen: int
    """Card moves played with Choose (a card that could go up, put on a pile: three presses)."""

    def per_move(self, count: int) -> float:
        """``count`` per line move."""
        return count / self.moves


def press_line(variant: str, number: int) -> Line:
    """Play deal ``number``'s solver line through the pad, counting presses and new pictures."""
    deal = numbered_deal(variant, number)
    game = new_game(variant, deck=deal.deck)
    pad = KlondikePad()
    moves = presses = pictures = old = one_place = several_up = two = chosen = 0
    for text in deal.solution:
        if game.is_over:
            break
        move = game.parse_move(text)
        view = view_of(game)
        selected: str | None = None
        pressed = pad.presses(view, move)
        for action in pressed:
            meaning = resolve_click(view, selected, action)
            presses += 1
            if isinstance(meaning, Select):
                selected = meaning.source
            elif isinstance(meaning, Play) and meaning.move == move:
                pictures += 1
            else:
                raise AssertionError(f"{variant} #{number}: {action} meant {meaning}, not {move}")
        moves += 1
        old += 2 if move.kind is MoveKind.PLAY else 1
        one_place += one_place_presses(view, move)
        several_up += move.target == "f" and len(targets_of(view, move.source)) > 1
        two += len(pressed) == 2
        chosen += pressed[0] == CHOOSE
        game.push(move)
    if game.status.value != "won":
        raise AssertionError(f"{variant} #{number}: the line ended {game.status.value}")
    return Line(moves, presses, pictures, old, one_place, several_up, two, chosen)


def one_place_presses(view: BoardView, move: Move) -> int:
    """Presses of ``move`` with the one-place pad: one for a command or a pile/waste card with one place, else two."""
    if move.kind is not MoveKind.PLAY:
        return 1
    return 1 if move.source not in FOUNDATION_SOURCES and len(targets_of(view, move.source)) == 1 else 2


def main() -> None:
    """Print per-variant medians, then one ``key=value`` line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=30, help="proven deals per variant")
    parser.add_argument("--start", type=int, default=900_000, help="first deal number")
    args = parser.parse_args()
    figures: dict[str, object] = {"deals": args.deals}
    worst = 0.0
    for variant in VARIANTS:
        lines = [press_line(variant, args.start + index) for index in range(args.deals)]
        median = {
            "moves": statistics.median(line.moves for line in lines),
            "old_presses": statistics.median(line.per_move(line.old_presses) for line in lines),
            "one_place": statistics.median(line.per_move(line.one_place_presses) for line in lines),
            "presses": statistics.median(line.per_move(line.presses) for line in lines),
            "pictures": statistics.median(line.per_move(line.pictures) for line in lines),
            "selections": statistics.median(line.per_move(line.presses - line.moves) for line in lines),
            "several_up": statistics.median(line.per_move(line.several_up) for line in lines),
            "two": statistics.median(line.per_move(line.two_presses) for line in lines),
            "chosen": statistics.median(line.per_move(line.chosen) for line in lines),
        }
        print(
            f"{variant:8}: {len(lines)} deals, median {median['moves']:.0f} line moves; per line move: "
            f"old pad {median['old_presses']:.2f} presses and {median['old_presses']:.2f} pictures, "
            f"one-place pad {median['one_place']:.2f} presses, "
            f"new pad {median['presses']:.2f} presses and {median['pictures']:.2f} pictures; presses beyond one "
            f"{median['selections']:.2f} (two-press moves {median['two']:.2f}, Choose moves {median['chosen']:.2f}; "
            f"cards up that had several places, now one press: {median['several_up']:.2f})"
        )
        worst = max(worst, median["presses"])
        figures |= {
            f"{variant}_old_presses_per_move": f"{median['old_presses']:.3f}",
            f"{variant}_presses_per_move": f"{median['presses']:.3f}",
            f"{variant}_pictures_per_move": f"{median['pictures']:.3f}",
            f"{variant}_selections_up_per_move": f"{median['several_up']:.3f}",
            f"{variant}_one_place_presses_per_move": f"{median['one_place']:.3f}",
            f"{variant}_two_press_per_move": f"{median['two']:.3f}",
            f"{variant}_choose_per_move": f"{median['chosen']:.3f}",
        }
        worst_pictures = max(line.per_move(line.pictures) for line in lines)
        figures[f"{variant}_pictures_per_move_max"] = f"{worst_pictures:.3f}"
    figures["target_met"] = int(worst <= TARGET_PRESSES)
    print(" ".join(f"{key}={value}" for key, value in figures.items()))


if __name__ == "__main__":
    main()

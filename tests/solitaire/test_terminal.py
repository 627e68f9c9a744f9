"""The terminal game: what a player types and what the game answers."""

import io
import itertools
import os
import re
import sys
import threading
import time
import unicodedata
from collections.abc import Callable

import pytest

from solitaire import new_game
from solitaire.guide import help_text, rules_text
from solitaire.moves import MoveKind
from solitaire.terminal import INTERRUPTED, ClockRanOutError, alarm_after, normalise, play_loop, wants_colour
from solitaire.textboard import RED, draw_board
from solitaire.variants import VARIANTS
from solitaire.view import view_of


def play(game, lines: str, **kwargs) -> str:
    out = io.StringIO()
    assert play_loop(game, io.StringIO(lines), out, **kwargs) == 0
    return out.getvalue()


def first_card_move(game):
    return next(move for move in game.legal_moves() if move.kind is MoveKind.PLAY)


@pytest.mark.parametrize("arrow", ["→", "->", " → ", " -> "])
def test_the_arrow_notation_of_the_autocomplete_is_a_move(arrow):
    game = new_game("draw3", seed=1)
    game.play("draw")
    move = first_card_move(game)
    typed = f"{move.source}{arrow}{move.target}: words after the colon are ignored"
    text = play(game, f"{typed}\nquit\n")
    assert "!" not in text and game.move_count == 2 and game.log[-1][0] == str(move)


def test_an_empty_line_is_ignored():
    game = new_game("draw1", seed=4)
    text = play(game, "\n   \n\nquit\n")
    assert "!" not in text and game.move_count == 0
    assert text.count("> ") == 4


def test_help_is_for_the_variant_being_played():
    assert "w-J" in help_text(VARIANTS["friday13"]) and "3-5" not in help_text(VARIANTS["friday13"])
    assert "fh-6" in help_text(VARIANTS["draw1"]) and "fh-6" not in help_text(VARIANTS["goldrush"])
    text = play(new_game("goldrush", seed=2), "help\nrules\nquit\n")
    assert "Gold Rush: commands" in text and "three passes: 3 cards per draw, then 2, then 1" in text


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_rules_name_the_variant_and_its_scoring(variant):
    text = rules_text(VARIANTS[variant])
    assert text.startswith(VARIANTS[variant].title) and "Scoring:" in text and "Clock: 5 minutes" in text


def test_the_waste_top_is_marked():
    game = new_game("draw3", seed=1)
    game.play("draw")
    *under, top = view_of(game).waste_fan
    line = draw_board(view_of(game)).splitlines()[-1]
    assert f"{under[-1].label} [{top.label}]" in line


def test_red_suits_are_red_only_in_colour():
    view = view_of(new_game("draw3", seed=1))
    plain, coloured = draw_board(view), draw_board(view, colour=True)
    assert "\x1b" not in plain
    assert RED in coloured and coloured.replace(RED, "").replace("\x1b[0m", "") == plain


def test_colour_needs_a_terminal_and_no_no_color(monkeypatch):
    class Tty(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    assert wants_colour(Tty()) and not wants_colour(io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not wants_colour(Tty())


@pytest.mark.parametrize("late", [300.0, 420.0])
def test_time_running_out_is_announced_and_expires_the_game(late):
    game, now, lines = new_game("draw3", seed=1), [0.0], iter(["draw", "draw", "draw"])

    def reader(_prompt):
        now[0] = late if game.move_count else 10.0  # the second line comes in at ``late``
        return next(lines)

    text = play(game, "", reader=reader, clock=lambda: now[0])
    assert text.count("Time's up: the game expired.") == 1 and "Game expired: score 0" in text
    assert "!" not in text
    assert game.status.value == "expired" and game.move_count == 1


def test_the_alarm_interrupts_a_line_being_typed():
    typed, typing = os.pipe()  # a terminal's input: a read blocks until a line comes
    nobody_types = threading.Timer(5, os.write, (typing, b"\n"))  # if the alarm never rang, the read ends anyway
    nobody_types.start()
    started = time.monotonic()
    try:
        with pytest.raises(ClockRanOutError), alarm_after(0.05, True):
            os.read(typed, 1)
    finally:
        nobody_types.cancel()
        os.close(typed)
        os.close(typing)
    assert time.monotonic() - started < 1


def test_ctrl_c_and_end_of_input_leave_cleanly():
    def ctrl_c(_prompt):
        raise KeyboardInterrupt

    out = io.StringIO()
    assert play_loop(new_game("draw1", seed=1), io.StringIO(), out, reader=ctrl_c) == INTERRUPTED
    assert out.getvalue().endswith("\nLeft the game unfinished.\n")
    assert play(new_game("draw1", seed=1), "").endswith("Left the game unfinished.\n")


def test_normalise_keeps_plain_notation():
    assert [normalise(text) for text in ("3-5", "W-J", " fh-6 ", "draw")] == ["3-5", "w-j", "fh-6", "draw"]


@pytest.mark.parametrize(
    ("variant", "typed", "answer"),
    [
        ("draw3", "foo bar", "! unknown move 'foo bar' (type help for the moves)"),
        ("draw3", "9-3", "! unknown source '9' in '9-3' (type help for the moves)"),
        ("friday13", "3 - 5", "! only the waste plays in Friday 13: '3 - 5' (type help for the moves)"),
        ("draw3", "3-w", "! cards never move onto the waste: '3-w'"),  # no notation summary: kept as it is
    ],
)
def test_a_move_that_is_not_one_is_a_short_line_quoting_what_was_typed_and_pointing_to_help(variant, typed, answer):
    text = play(new_game(variant, seed=1), f"{typed}\nquit\n")
    [refusal] = [line.removeprefix("> ") for line in text.splitlines() if "! " in line]
    assert refusal == answer and len(refusal) <= 80


def test_a_hint_shows_the_score_it_leaves_at_once():
    text = play(new_game("draw3", seed=5), "hint\nquit\n")
    hinted = " ".join(text.split("hint: ", 1)[1].split("\n> ")[0].split())  # wrapped to the terminal's width
    assert hinted.endswith("guesses of the hidden cards; -50 points: score -50)"), hinted


COLUMNS = 80
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_PROMPTS = re.compile(r"^(> )+")
SCRIPT = "help\nrules\nmoves\nboard\nfoo bar baz qux quux corge grault garply waldo\n3-5\nw-f\n1-f\nw-J\nhint\nundo\n"


def display_width(line: str) -> int:
    """Columns a terminal gives ``line``: colour codes and variation selectors none, wide characters two."""
    width = 0
    for char in _ANSI.sub("", line):
        if unicodedata.combining(char) or char in "\ufe0e\ufe0f":
            continue
        width += 2 if unicodedata.east_asian_width(char) in "WF" else 1
    return width


def too_wide(text: str) -> list[str]:
    """The lines of ``text`` wider than the terminal (a prompt is followed by the typed line, so it starts one)."""
    return [line for raw in text.splitlines() if display_width(line := _PROMPTS.sub("", raw)) > COLUMNS]


def ticking(step: float) -> Callable[[], float]:
    """A clock that moves on ``step`` seconds each time it is read."""
    readings = itertools.count(0.0, step)
    return lambda: next(readings)


QUICK_PROOF = {"goldrush": 3}
"""A numbered deal the solver proves in a blink (Gold Rush's first takes it seconds): any won game shows the win."""


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_everything_the_terminal_game_prints_fits_80_columns(variant, monkeypatch, capsys):
    from solitaire.cli import main
    from solitaire.deals import numbered_deal

    monkeypatch.setattr(sys, "stdin", io.StringIO(SCRIPT + "draw\n" * 60 + "end\n"))
    out = io.StringIO()
    assert main(["play", variant, "--seed", "1234567890"], out) == 0
    played = out.getvalue()
    won_deal = numbered_deal(variant, QUICK_PROOF.get(variant, 1))
    won = play(new_game(variant, deck=won_deal.deck), "\n".join(won_deal.solution) + "\n", colour=True)
    expired = play(new_game(variant, seed=2), SCRIPT + "draw\n" * 10, clock=ticking(20.0))
    monkeypatch.delenv("COLUMNS", raising=False)
    for argv in (
        ["--help"],
        *([command, "--help"] for command in ("play", "replay", "deal", "solve", "analyze", "hint")),
    ):
        with pytest.raises(SystemExit):
            main(argv)
    helped = capsys.readouterr().out
    assert "Game won" in won and "Time's up" in expired and f"{VARIANTS[variant].title}: commands" in played
    for name, text in (("played", played), ("won", won), ("expired", expired), ("--help", helped)):
        assert too_wide(text) == [], name
    assert too_wide(rules_text(VARIANTS[variant])) == []  # as written, before the terminal wraps anything

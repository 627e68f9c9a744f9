"""The command line is a public contract: its JSON keys and notation are pinned here."""

import io
import json
import subprocess
import sys

from solitaire import format_deck, new_game, shuffled_deck
from solitaire.cli import main, play_loop


def run(*argv: str) -> str:
    out = io.StringIO()
    assert main(list(argv), out) == 0
    return out.getvalue()


def test_replay_json_contract():
    result = json.loads(run("replay", "--variant", "draw3", "--seed", "1", "--moves", "draw 1-7", "--json"))
    assert set(result) >= {"variant", "status", "score", "foundation_count", "moves_applied", "error", "board"}
    assert (result["variant"], result["status"], result["moves_applied"], result["error"]) == (
        "draw3",
        "playing",
        2,
        None,
    )
    assert result["board"]["tableau"][0] == {"hidden": 0, "up": []}
    assert result["board"]["stock"] == 21


def test_replay_stops_at_the_first_refused_move_and_exits_zero():
    result = json.loads(run("replay", "--variant", "draw1", "--seed", "1", "--moves", "draw 9-9 draw", "--json"))
    assert result["moves_applied"] == 1
    assert result["error"]["index"] == 1 and result["error"]["move"] == "9-9"
    assert "unknown source '9'" in result["error"]["message"]


def test_replay_with_a_deck_and_end_scores_the_time_bonus():
    deck = format_deck(shuffled_deck(5))
    result = json.loads(
        run("replay", "--variant", "goldrush", "--deck", deck, "--moves", "end", "--seconds", "100", "--json")
    )
    assert result["status"] == "ended"
    assert result["score"] == 0  # no card on a foundation: the bonus is 0 too


def test_replay_reports_expiry():
    result = json.loads(
        run("replay", "--variant", "friday13", "--seed", "2", "--moves", "draw", "--seconds", "300", "--json")
    )
    assert result["status"] == "expired" and result["error"]["index"] == 0


def test_deal_prints_the_seeded_deck():
    assert run("deal", "--variant", "draw3", "--seed", "7").split() == format_deck(shuffled_deck(7)).split()


def test_bad_deck_is_a_one_line_error():
    process = subprocess.run(
        [sys.executable, "-m", "solitaire", "replay", "--variant", "draw3", "--deck", "AS AS", "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert process.returncode == 2
    assert process.stderr.startswith("error: a deck needs 52 distinct cards")


def test_terminal_play_reads_moves_and_reports_refusals():
    game = new_game("draw3", seed=1)
    out = io.StringIO()
    play_loop(game, io.StringIO("help\nmoves\n3-3\ndraw\nend\n"), out)
    text = out.getvalue()
    assert "SRC-DST" in text  # help
    assert "! a move needs two different places" in text
    assert "Game ended: score" in text
    assert "♠" in text or "♥" in text

"""The command line is a public contract: its JSON keys and notation are pinned here."""

import dataclasses
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

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


@pytest.mark.processes
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
    assert "Solitaire Rush (draw 3): commands" in text and "3-5" in text  # help
    assert "! a move needs two different places" in text
    assert "Game ended: score" in text
    assert "♠" in text or "♥" in text


def fail(*argv: str, capsys) -> str:
    assert main(list(argv), io.StringIO()) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ")
    return err


@pytest.mark.parametrize("seconds", ["nan", "inf", "-inf", "-5", "301"])
def test_replay_refuses_a_clock_reading_out_of_range_in_one_line(seconds, capsys):
    err = fail("replay", "--variant", "draw3", "--seed", "1", f"--seconds={seconds}", "--json", capsys=capsys)
    assert "--seconds must be a number from 0 to 300" in err


@pytest.mark.parametrize(
    ("flag", "value", "allowed"),
    [("--max-nodes", "-1", "at least 1"), ("--max-nodes", "0", "at least 1"), ("--budget-ms", "-5", "from 1 to")],
)
def test_solve_refuses_a_negative_budget_in_one_line(flag, value, allowed, capsys):
    err = fail("solve", "--variant", "draw3", "--seed", "1", flag, value, capsys=capsys)
    assert f"{flag} must be" in err and allowed in err


@pytest.mark.parametrize("value", ["nan", "inf", "3600001"])
def test_solve_refuses_an_endless_time_budget(value, capsys):
    err = fail("solve", "--variant", "draw3", "--seed", "1", "--budget-ms", value, capsys=capsys)
    assert "--budget-ms must be a number from 1 to 3,600,000" in err


def test_solve_without_a_budget_uses_the_default_node_budget(monkeypatch):
    from solitaire import cli

    budgets = []
    real_solve = cli.solve

    def spy(rules, deck, *, budget_ms, max_nodes):
        budgets.append((budget_ms, max_nodes))
        return real_solve(rules, deck, budget_ms=budget_ms, max_nodes=max_nodes)

    monkeypatch.setattr(cli, "solve", spy)
    answer = json.loads(run("solve", "--variant", "draw3", "--seed", "2"))
    assert answer["result"] == "winnable" and budgets == [(None, cli.DEFAULT_SOLVE_NODES)]
    run("solve", "--variant", "draw3", "--seed", "2", "--budget-ms", "500")
    assert budgets[-1] == (500.0, None)


def test_deck_errors_name_the_duplicated_and_the_missing_cards(capsys):
    cards = format_deck(shuffled_deck(1)).split()
    twice = cards[1]
    lost = cards[0]
    cards[0] = twice
    err = fail("replay", "--variant", "draw3", "--deck", " ".join(cards), "--json", capsys=capsys)
    assert err == f"error: a deck needs 52 distinct cards, got 52 (duplicated {twice}; missing {lost})\n"


def test_ctrl_c_in_any_command_is_a_one_line_exit(monkeypatch, capsys):
    from solitaire import cli

    def interrupted(*_args):
        raise KeyboardInterrupt

    monkeypatch.setitem(cli._COMMANDS, "deal", dataclasses.replace(cli._COMMANDS["deal"], run=interrupted))
    assert main(["deal", "--variant", "draw3", "--seed", "1"], io.StringIO()) == 130
    assert capsys.readouterr().err == "interrupted\n"


def test_play_deals_a_proven_winnable_numbered_deal_by_default(monkeypatch):
    from solitaire.deals import numbered_deal

    monkeypatch.setattr(sys, "stdin", io.StringIO("end\n"))
    text = run("play", "draw3", "--deal", "5")
    assert "Solitaire Rush (draw 3), deal 5 (proven winnable)" in text
    first_up = numbered_deal("draw3", 5).deck[0].label
    assert text.splitlines()[5].split()[0] == first_up  # pile 1's card, first dealt
    assert "Game ended" in text


def test_play_with_a_seed_keeps_the_raw_shuffle(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    text = run("play", "goldrush", "--seed", "3")
    assert "seed 3 (not checked for a win)" in text
    assert new_game("goldrush", seed=3).deck[0].label in text


@pytest.mark.processes
@pytest.mark.parametrize(
    ("command", "usage"),
    [
        ([sys.executable, "-m", "solitaire", "--help"], "usage: python -m solitaire "),
        ([str(Path(sys.executable).with_name("solitaire")), "--help"], "usage: solitaire "),
    ],
)
def test_help_names_the_command_as_it_was_typed_in_plain_words(command, usage):
    process = subprocess.run(command, capture_output=True, text=True, check=True)
    assert process.stdout.startswith(usage)
    assert "``" not in process.stdout and "public contract" not in process.stdout
    words = " ".join(process.stdout.split())
    assert "replay moves, print or solve a deal" in words and "Variants: draw1, draw3" in words


def solitaire(*argv: str, **options) -> subprocess.Popen[str]:
    """Start ``python -m solitaire`` with pipes on every stream."""
    pipes = {"stdin": subprocess.PIPE, "stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
    return subprocess.Popen([sys.executable, "-m", "solitaire", *argv], text=True, **pipes, **options)


@pytest.mark.processes
def test_a_reader_that_stops_reading_ends_the_command_quietly():
    """``solitaire play ... | head -1``: the reader goes away after one line, the game writes on."""
    process = solitaire("play", "draw3", "--seed", "3")
    assert process.stdout is not None and process.stdin is not None and process.stderr is not None
    assert process.stdout.readline().startswith("Solitaire Rush (draw 3), seed 3")
    process.stdout.close()
    process.stdin.write("board\n" * 50 + "quit\n")
    process.stdin.close()
    assert process.wait(timeout=60) == 141  # 128 + SIGPIPE, as a shell reports a writer whose reader left
    assert process.stderr.read() == ""


@pytest.mark.processes
def test_version_names_the_package_version():
    from solitaire.console import package_version

    done = subprocess.run([sys.executable, "-m", "solitaire", "--version"], capture_output=True, text=True, check=True)
    assert done.stdout == f"python -m solitaire {package_version()}\n" and package_version() != "unknown"


def test_a_variant_may_be_written_in_any_case():
    assert run("deal", "--variant", "DRAW3", "--seed", "1") == run("deal", "--variant", "draw3", "--seed", "1")
    assert json.loads(run("replay", "--variant", "Friday13", "--seed", "2", "--json"))["variant"] == "friday13"


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["deal", "--variant", "draw4", "--seed", "1"], "argument --variant: invalid choice: 'draw4'"),
        (["deal", "--variant", "draw3"], "the following arguments are required: --seed"),
        (["replay", "--variant", "draw3", "--seed", "x"], "argument --seed: invalid int value: 'x'"),
        (["shuffle"], "argument command: invalid choice: 'shuffle'"),
        (["deal", "--variant", "draw3", "--seed", "7" * 5000], "value: '777777777777…777777777777' (5,000 characters)"),
    ],
)
def test_an_argument_error_is_one_error_line_with_long_values_abbreviated(argv, words, capsys):
    with pytest.raises(SystemExit) as exit:
        main(argv, io.StringIO())
    err = capsys.readouterr().err
    assert exit.value.code == 2 and err.startswith("error: ") and err.count("\n") == 1, err
    assert words in err and "--help shows the usage" in err and len(err) < 200, err


def test_a_long_seed_is_abbreviated_when_the_game_names_it(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    text = run("play", "draw1", "--seed", "9" * 4000)
    assert "seed 999999999999…999999999999 (4,000 characters) (not checked for a win)" in " ".join(text.split())
    assert "9" * 100 not in text


def test_a_deck_may_be_written_with_the_suit_symbols_the_game_prints():
    deck = shuffled_deck(8)
    plain = run("replay", "--variant", "draw3", "--deck", format_deck(deck), "--moves", "draw 1-f", "--json")
    for labels in (
        " ".join(card.label for card in deck),
        " ".join(card.label + "\ufe0f" for card in deck),  # ♦️: the emoji form a chat may turn ♦ into
        ", ".join(card.label.replace("10", "T").lower() for card in deck),
    ):
        assert run("replay", "--variant", "draw3", "--deck", labels, "--moves", "draw 1-f", "--json") == plain

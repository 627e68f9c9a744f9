"""Analysis: the last winnable kept position, the losing move, and the ``analyze --json`` contract."""

import io
import json

import pytest

from render.samples import play_greedy
from solitaire import SolitaireError, Status, new_game
from solitaire.analysis import analyze, kept_line
from solitaire.cli import main
from solitaire.deals import numbered_deal
from solitaire.solver import solve
from solitaire.solver.position import position_of, solve_position

NODES = 50_000


def run(*argv: str) -> dict:
    out = io.StringIO()
    assert main(list(argv), out) == 0
    return json.loads(out.getvalue())


def greedy_moves(variant: str, seed: int, count: int) -> list[str]:
    game = new_game(variant, seed=seed)
    play_greedy(game, count)
    return [move for move, _ in game.log]


def replay(variant: str, seed: int, moves: list[str]) -> dict:
    return run("replay", "--variant", variant, "--seed", str(seed), "--moves", " ".join(moves), "--json")


@pytest.mark.parametrize("variant", ["draw1", "draw3", "goldrush", "friday13"])
@pytest.mark.parametrize("seed", [0, 2, 5])
def test_a_position_solve_from_the_deal_matches_the_deal_solve(variant, seed):
    game = new_game(variant, seed=seed)
    from_deck = solve(game.rules, game.deck, max_nodes=5_000)
    from_position = solve_position(game.rules, position_of(game), max_nodes=5_000)
    assert (from_position.result, from_position.nodes) == (from_deck.result, from_deck.nodes)


def test_the_cli_contract_on_a_lost_game():
    moves = greedy_moves("draw3", 0, 30)
    result = run("analyze", "--variant", "draw3", "--seed", "0", "--moves", " ".join(moves), "--max-nodes", str(NODES),
                 "--budget-ms", "60000", "--json")  # fmt: skip
    assert set(result) >= {"winnable_at_start", "last_winnable", "lost_by", "line", "decided"}
    assert result["winnable_at_start"] is True and result["decided"] is True
    last = result["last_winnable"]
    assert moves[last] == result["lost_by"]
    assert result["solved"][str(last)] == "winnable"
    assert result["solved"][str(last + 1)] == "unwinnable"
    won = replay("draw3", 0, moves[:last] + result["line"])
    assert won["status"] == "won" and won["error"] is None


def test_undos_are_folded_into_the_kept_line():
    moves = greedy_moves("draw3", 0, 30)
    plain = analyze(new_game("draw3", seed=0).rules, new_game("draw3", seed=0).deck, moves, max_nodes=NODES)
    assert plain.lost_by is not None and plain.last_winnable is not None
    # try the losing move, take it back, then play it anyway: the line judged is the same
    index = plain.last_winnable
    detour = [*moves[:index], moves[index], "undo", *moves[index:]]
    game = new_game("draw3", seed=0)
    folded = analyze(game.rules, game.deck, detour, max_nodes=NODES)
    assert folded.kept_moves == plain.kept_moves
    assert folded.lost_by == plain.lost_by
    assert folded.last_winnable == index + 2
    assert detour[folded.last_winnable] == folded.lost_by


def test_kept_line_drops_undone_positions():
    game = new_game("draw1", seed=3)
    first_pass = ["draw"] * 24  # every stock card seen: turning the waste over can be taken back
    positions, final = kept_line(game.rules, game.deck, [*first_pass, "draw", "undo", "draw"])
    assert [kept.applied for kept in positions] == [*range(24), 26, 27]
    assert [kept.next_move for kept in positions][-3:] == ["draw", "draw", None]
    assert final.move_count == 25


def test_a_won_game_is_never_lost():
    deal = numbered_deal("draw1", 1)
    game = new_game("draw1", deck=deal.deck)
    result = analyze(game.rules, game.deck, list(deal.solution), max_nodes=NODES)
    assert (result.status, result.winnable_at_start, result.lost_by, result.decided) == ("won", True, None, True)
    assert result.last_winnable == len(deal.solution)


def test_an_ended_game_still_winnable_was_not_lost():
    deal = numbered_deal("draw3", 2)
    game = new_game("draw3", deck=deal.deck)
    moves = [*list(deal.solution[:10]), "end"]
    result = analyze(game.rules, game.deck, moves, max_nodes=NODES)
    assert (result.status, result.last_winnable, result.lost_by, result.decided) == ("ended", 10, None, True)
    assert replay_deck_wins("draw3", deal.deck, moves[:10] + list(result.line))


def replay_deck_wins(variant, deck, moves) -> bool:
    game = new_game(variant, deck=deck)
    for text in moves:
        game.play(text)
    return game.status is Status.WON


def test_a_budget_that_runs_out_says_undecided_and_names_no_losing_move():
    moves = greedy_moves("draw1", 1, 40)
    result = run("analyze", "--variant", "draw1", "--seed", "1", "--moves", " ".join(moves), "--max-nodes", "5",
                 "--json")  # fmt: skip
    assert result["decided"] is False
    assert result["lost_by"] is None
    assert result["winnable_at_start"] is None


def test_ending_at_once_loses_nothing_on_a_winnable_deal():
    game = new_game("draw3", seed=0)
    result = analyze(game.rules, game.deck, ["end"], max_nodes=NODES)
    assert (result.status, result.winnable_at_start, result.last_winnable, result.lost_by) == ("ended", True, 0, None)


def test_a_refused_move_is_a_clear_error():
    game = new_game("draw1", seed=3)
    with pytest.raises(SolitaireError, match="move 2"):
        analyze(game.rules, game.deck, ["draw", "9-9"], max_nodes=100)

"""The fair hint: legal, deterministic, and blind to cards the player never saw."""

import io
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from render.samples import play_greedy
from solitaire import VARIANTS, GameOverError, format_deck, game_from_json, game_to_json, new_game, shuffled_deck
from solitaire.cli import main, play_loop
from solitaire.hint import hint_for, sample_position, visible_cards
from solitaire.shuffle import SplitMix64
from solitaire.solver.position import KlondikePosition
from solitaire.view import view_of
from tests.solitaire.positions import reshuffle_unseen


def run(*argv: str) -> dict:
    out = io.StringIO()
    assert main(list(argv), out) == 0
    return json.loads(out.getvalue())


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(sorted(VARIANTS)),
    seed=st.integers(0, 2**32),
    length=st.integers(0, 40),
    permutation=st.permutations(list(range(52))),
)
def test_games_whose_unseen_cards_differ_get_the_same_hint(variant, seed, length, permutation):
    probe = new_game(variant, seed=seed)
    play_greedy(probe, length)
    moves = [move for move, _ in probe.log]
    game, other_deck = reshuffle_unseen(variant, seed, moves, permutation)
    other = new_game(variant, deck=other_deck)
    for text in moves:
        other.play(text)
    if game.is_over or other.is_over:
        return  # the engine's stuck test looks ahead in the stock; a hint is only for games in play
    assert other.deck != game.deck or len([c for c in game.deck if c not in game.seen]) <= 1
    assert view_of(other) == view_of(game)
    first = hint_for(view_of(game), number=1, samples=4, max_nodes=400)
    second = hint_for(view_of(other), number=1, samples=4, max_nodes=400)
    assert first == second
    assert first.move is None or first.move in [str(move) for move in view_of(game).legal_moves]


def test_the_cli_gives_the_same_legal_hint_for_two_decks_that_differ_in_unseen_cards():
    moves = ["draw", "draw"]
    game, other_deck = reshuffle_unseen("draw3", 0, moves, [*list(range(1, 52)), 0])
    common = ["--variant", "draw3", "--moves", " ".join(moves), "--rng", "7", "--json"]
    first = run("hint", "--deck", format_deck(game.deck), *common)
    second = run("hint", "--deck", format_deck(other_deck), *common)
    assert first == second
    assert first["move"] in [str(move) for move in game.legal_moves()]
    assert set(first) >= {"move", "wins", "samples"}


def test_the_hint_is_deterministic_and_depends_on_the_hint_number():
    view = view_of(new_game("draw1", seed=11))
    assert hint_for(view, number=1) == hint_for(view, number=1)
    assert hint_for(view, number=2).number == 2


def test_a_sample_keeps_every_visible_card_in_place_and_deals_all_52():
    game = new_game("draw3", seed=4)
    play_greedy(game, 25)
    view = view_of(game)
    position = sample_position(view, SplitMix64(1))
    assert isinstance(position, KlondikePosition)
    assert [up for _, up in position.piles] == [pile.cards for pile in view.tableau]
    assert [len(down) for down, _ in position.piles] == [pile.hidden for pile in view.tableau]
    assert position.talon[position.turned - len(view.waste_fan) : position.turned] == view.waste_fan
    home = sum(rank for _, rank in position.foundations)
    cards = [c for down, up in position.piles for c in down + up] + list(position.talon)
    assert len(set(cards)) == len(cards) == 52 - home
    assert visible_cards(view) <= set(cards) | {c for c in shuffled_deck(0) if c not in cards}


def test_no_hint_once_the_game_is_over():
    game = new_game("draw1", seed=3)
    game.play("end")
    assert hint_for(view_of(game), number=1).move is None


def test_a_hint_is_an_engine_command_that_costs_points_survives_undo_and_replays():
    game = new_game("draw1", seed=3)
    for _ in range(24):
        game.play("draw")  # every stock card seen: the next draw (turning the waste over) can be undone
    game.play("draw")
    before = game.score
    game.play("hint")
    assert (game.score, game.hints, game.hinted) == (before - 50, 1, True)
    assert ("Hints", -50) in game.sheet.lines()
    game.play("undo")  # takes back the draw, never the charge
    assert game.sheet.hints == -50 and game.hinted
    assert game_from_json(game_to_json(game)).sheet == game.sheet
    result = run("replay", "--variant", "draw1", "--seed", "3", "--moves", "hint", "--json")
    assert result["score_sheet"]["hints"] == -50 and result["score"] == -50


def test_no_hint_can_be_charged_once_the_game_is_over():
    game = new_game("draw1", seed=3)
    game.play("end")
    with pytest.raises(GameOverError):
        game.play("hint")


def test_the_terminal_game_prints_a_hint_and_charges_it():
    game = new_game("draw3", seed=0)
    out = io.StringIO()
    play_loop(game, io.StringIO("hint\nquit\n"), out)
    expected = hint_for(view_of(new_game("draw3", seed=0)), number=1).move
    assert f"hint: {expected} (" in out.getvalue()
    assert game.hints == 1 and game.log[-1][0] == "hint"

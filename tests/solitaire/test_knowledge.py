"""What the player knows: seen stock cards are remembered, unseen ones never named, guesses fit the knowledge."""

import dataclasses

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from render.samples import play_greedy
from solitaire import VARIANTS, new_game, view_of
from solitaire.friday13 import Friday13Game
from solitaire.games import engine_for
from solitaire.klondike import KlondikeGame
from solitaire.knowledge import guess, knowledge_of
from solitaire.shuffle import SplitMix64
from tests.support.positions import reshuffle_unseen


def test_the_talon_shows_each_card_turned_and_nothing_else():
    game = new_game("draw3", seed=1)
    assert knowledge_of(game).talon == (None,) * 24
    game.play("draw")
    talon = knowledge_of(game).talon
    assert talon[:3] == tuple(game.waste) and talon[3:] == (None,) * 21


def test_stock_cards_turned_in_an_earlier_pass_are_remembered():
    game = new_game("draw1", seed=2)
    for _ in range(25):  # every stock card, then the waste turned back over
        game.play("draw")
    knowledge = knowledge_of(game)
    assert knowledge.view.waste_fan == () and knowledge.view.stock_count == 24
    assert knowledge.talon == tuple(reversed(game.stock))
    assert None not in knowledge.talon


def test_the_engine_records_every_position_and_a_pass_that_changed_nothing_repeats_one():
    game = new_game("draw3", seed=3)
    start = game.layout_key()
    for _ in range(8):
        game.play("draw")
    assert len(game.visited) == 9
    game.play("draw")  # the waste turned back over: the deal's layout again, one pass later
    assert game.layout_key() == start and len(game.visited) == 9 and game.visited[start] == (1, 21)


def test_the_engine_remembers_the_last_pass_each_layout_was_seen_in():
    game = new_game("goldrush", seed=3)
    start = game.layout_key()
    while game.stock:
        game.play("draw")
    game.play("draw")
    assert game.recycles == 1 and game.layout_key() == start and game.visited[start] == (1, 21)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(sorted(VARIANTS)),
    seed=st.integers(0, 2**32),
    length=st.integers(0, 60),
    permutation=st.permutations(list(range(52))),
)
def test_games_whose_unseen_cards_differ_have_the_same_knowledge(variant, seed, length, permutation):
    probe = new_game(variant, seed=seed)
    play_greedy(probe, length)
    moves = [move for move, _ in probe.log]
    game, other_deck = reshuffle_unseen(variant, seed, moves, permutation)
    other = new_game(variant, deck=other_deck)
    for text in moves:
        other.play(text)
    if game.is_over or other.is_over:
        return  # the engine's stuck test looks ahead in the stock; a hint is only for games in play
    assert knowledge_of(other) == knowledge_of(game)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("moves", [0, 9, 30, 70])
def test_a_guess_looks_exactly_like_what_the_player_knows(variant, moves):
    game = new_game(variant, seed=40 + moves)
    play_greedy(game, moves)
    if game.is_over:
        return
    knowledge = knowledge_of(game)
    for salt in range(4):
        world = guess(knowledge, SplitMix64(salt))
        assert type(world) is type(game)
        same = {"sheet", "move_count", "can_undo", "seconds_used"}
        assert dataclasses.replace(view_of(world), **{name: getattr(knowledge.view, name) for name in same}) == (
            knowledge.view
        )
        assert world.layout_key() == game.layout_key()
        talon = (*world.waste, *reversed(world.stock))
        assert all(seen in (None, card) for seen, card in zip(knowledge.talon, talon, strict=True))
        assert len(set(_cards(world))) == 52


def test_guesses_differ_only_in_unseen_cards():
    game = new_game("draw3", seed=5)
    play_greedy(game, 12)
    knowledge = knowledge_of(game)
    worlds = [guess(knowledge, SplitMix64(salt)) for salt in range(6)]
    assert isinstance(game, KlondikeGame)
    assert len({tuple(tuple(pile) for pile in world.piles) for world in worlds if isinstance(world, KlondikeGame)}) > 1
    assert guess(knowledge, SplitMix64(1)).position() == guess(knowledge, SplitMix64(1)).position()


def test_a_friday13_guess_keeps_every_rank_and_every_card_the_player_saw():
    game = new_game("friday13", seed=8)
    play_greedy(game, 80)
    knowledge = knowledge_of(game)
    world = guess(knowledge, SplitMix64(3))
    assert isinstance(world, Friday13Game) and isinstance(game, Friday13Game)
    assert [[card.rank for card in pile] for pile in world.foundations] == [
        [card.rank for card in pile] for pile in game.foundations
    ]
    assert [pile[-1] for pile in world.foundations if pile] == [pile[-1] for pile in game.foundations if pile]
    assert sorted(card.rank for card in world.stock + world.waste) == sorted(
        card.rank for card in game.stock + game.waste
    )


def _cards(world: object) -> list:
    if isinstance(world, KlondikeGame):
        home = [card for card in engine_for(world.family).known_foundation_cards(view_of(world))]
        return [card for pile in world.piles for card in pile] + world.stock + world.waste + home
    assert isinstance(world, Friday13Game)
    return [card for pile in world.foundations for card in pile] + world.stock + world.waste

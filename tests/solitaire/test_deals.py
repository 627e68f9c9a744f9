"""The deal supply: deterministic for a key, and every deal comes with a winning solution."""

import os
import pickle
import subprocess
import sys

import pytest

from solitaire import Status, new_game, shuffled_deck
from solitaire.deals import (
    DealRequest,
    ProvenDeal,
    candidate_seed,
    numbered_deal,
    solve_request,
    winnable_deal,
)


def assert_proven(deal: ProvenDeal) -> None:
    assert deal.deck == shuffled_deck(deal.seed)
    game = new_game(deal.variant, deck=deal.deck)
    for move in deal.solution:
        game.play(move)
    assert game.status is Status.WON


def test_candidate_seeds_are_pinned_64_bit_numbers():
    assert candidate_seed("deal:draw3:1", 0) == 0xCB2FD4B837F6C1F2
    assert candidate_seed("deal:draw3:1", 1) != candidate_seed("deal:draw3:1", 0)
    assert all(0 <= candidate_seed("key", index) < 2**64 for index in range(5))


@pytest.mark.parametrize("variant", ["draw1", "draw3", "goldrush", "friday13"])
def test_winnable_deal_is_proven_and_repeatable(variant):
    deal = winnable_deal(variant, "guild:42:2025-01-01", max_nodes=5_000)
    assert deal.variant == variant
    assert_proven(deal)
    assert winnable_deal(variant, "guild:42:2025-01-01", max_nodes=5_000) == deal


def test_the_deal_walks_candidates_in_order_from_index_zero():
    deal = winnable_deal("draw1", "walk", max_nodes=20_000)
    assert deal.seed in {candidate_seed("walk", index) for index in range(50)}


def test_numbered_deals_use_their_documented_key():
    deal = numbered_deal("DRAW3", 7)
    assert deal == winnable_deal("draw3", "deal:draw3:7")
    assert deal != numbered_deal("draw3", 8)


@pytest.mark.processes
def test_the_same_key_gives_the_same_deal_under_another_hash_seed():
    code = (
        "from solitaire.deals import winnable_deal;"
        "d = winnable_deal('draw3', 'guild:7:2025-02-03', max_nodes=20_000);"
        "print(d.seed, ' '.join(d.solution))"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    deal = winnable_deal("draw3", "guild:7:2025-02-03", max_nodes=20_000)
    assert out.split() == [str(deal.seed), *deal.solution]


def test_requests_and_deals_pickle_for_worker_processes():
    request = DealRequest("draw1", "bank:draw1:3", max_nodes=5_000)
    deal = solve_request(pickle.loads(pickle.dumps(request)))
    assert pickle.loads(pickle.dumps(deal)) == deal
    assert deal == winnable_deal("draw1", "bank:draw1:3", max_nodes=5_000)
    assert_proven(deal)

from solitaire import format_deck, shuffled_deck
from solitaire.shuffle import SplitMix64


def test_splitmix64_matches_reference_vectors():
    rng = SplitMix64(0)
    assert [rng.next_u64(), rng.next_u64()] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4]
    rng = SplitMix64(1234567)
    assert [rng.next_u64() for _ in range(3)] == [6457827717110365317, 3203168211198807973, 9817491932198370423]


def test_seeded_deal_is_pinned():
    # Pinned so that a change to the shuffle (which would change every stored deal) fails loudly.
    assert format_deck(shuffled_deck(1)[:10]) == "7D 9C 4D 8H 8D 5S JD 6D 9S JC"
    assert format_deck(shuffled_deck(0)[:5]) == "8S JH 9C 2S 2D"


def test_every_seed_gives_52_distinct_cards():
    for seed in range(200):
        assert len(set(shuffled_deck(seed))) == 52


def test_seeds_differ_and_repeat():
    assert shuffled_deck(5) == shuffled_deck(5)
    assert shuffled_deck(5) != shuffled_deck(6)
    assert shuffled_deck(2**64 + 5) == shuffled_deck(5)

"""The engine's fast paths say exactly what the plain rules say: legal moves, layout keys, unseen cards, scores.

A move is noted (its layout key and unseen count, for repeats and the stuck check) straight from the
piles, and the legal moves come from a table of which cards go on which: these tests hold both to the
rules written out the long way, on every variant, along random games.
"""

import contextlib
import hashlib
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solitaire import VARIANTS, Game, Move, SolitaireError, new_game
from solitaire.cards import FULL_DECK, KING, notation
from solitaire.klondike import KlondikeGame
from solitaire.moves import DRAW, FOUNDATION_SOURCES, PILES
from solitaire.scoring import ScoreSheet
from tests.support.positions import klondike


def fits_pile_by_rule(game: KlondikeGame, card, pile: int) -> bool:
    """A king on an empty pile; else one rank below the top card, in the other colour."""
    cards = game.piles[pile]
    if not cards:
        return card.rank == KING
    return cards[-1].rank == card.rank + 1 and cards[-1].is_red != card.is_red


def legal_moves_by_rule(game: KlondikeGame) -> list[Move]:
    """Every Klondike move, pile by pile and card by card (the engine before its table of fits)."""
    if game.is_over:
        return []
    moves = [DRAW] if game._deal_blocker() is None else []
    if game.waste:
        card = game.waste[-1]
        moves += [Move.play("w", "f")] if game.fits_foundation(card) else []
        moves += [Move.play("w", PILES[j]) for j in range(7) if fits_pile_by_rule(game, card, j)]
    for i, pile in enumerate(game.piles):
        if not pile:
            continue
        moves += [Move.play(PILES[i], "f")] if game.fits_foundation(pile[-1]) else []
        for j in range(7):
            first = next(
                (k for k in range(game.hidden[i], len(pile)) if fits_pile_by_rule(game, pile[k], j)),
                None,
            )
            if j != i and first is not None and not (first == 0 and not game.piles[j]):
                moves.append(Move.play(PILES[i], PILES[j]))
    if game.rules.foundation_to_tableau:
        for source, suit in FOUNDATION_SOURCES.items():
            rank = game.foundations[suit]
            if rank:
                card = next(c for c in FULL_DECK if c == (rank, suit))
                moves += [Move.play(source, PILES[j]) for j in range(7) if fits_pile_by_rule(game, card, j)]
    return moves


def layout_key_by_views(game: Game) -> str:
    """The layout key as the views write it: each pile's face-down count and cards, the foundations, the talon."""
    piles = " ".join(f"{pile.hidden}{''.join(map(str, pile.cards))}" for pile in game.view_piles())
    homes = " ".join(f"{home.label}{home.count}" for home in game.view_foundations())
    text = f"{piles}/{homes}/{len(game.stock)}/{len(game.waste)}"
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def unseen_by_views(game: Game) -> int:
    """Face-down cards, and the stock's and waste's cards never seen."""
    hidden = sum(pile.hidden for pile in game.view_piles())
    return hidden + sum(card not in game.seen for card in (*game.stock, *game.waste))


def check_fast_paths(game: Game) -> None:
    """The engine's own answers equal the long way's."""
    assert game.layout_key() == layout_key_by_views(game)
    assert game.unseen() == unseen_by_views(game)
    if isinstance(game, KlondikeGame):
        assert game.legal_moves() == legal_moves_by_rule(game)
        for card in FULL_DECK:
            assert [game.fits_pile(card, j) for j in range(7)] == [fits_pile_by_rule(game, card, j) for j in range(7)]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(sorted(VARIANTS)), seed=st.integers(0, 2**64 - 1), data=st.data())
def test_fast_paths_agree_with_the_rules_along_any_game(variant, seed, data):
    game = new_game(variant, seed=seed)
    check_fast_paths(game)
    for _ in range(data.draw(st.integers(0, 60), label="length")):
        legal = [str(move) for move in game.legal_moves()] + ["undo"]
        with contextlib.suppress(SolitaireError):  # an undo with nothing to take back
            game.play(data.draw(st.sampled_from(legal), label="move"))
        check_fast_paths(game)


@pytest.mark.parametrize(
    "piles",
    [
        ["KS", "", "QH", "[2C] KD", "[3C] JS 10H", "KH QS", "[4D] 5S"],  # kings heading piles, an empty pile
        ["[AC] 9S 8H 7C", "9C", "8D", "10H", "KS QH JC 10D", "", ""],  # two runs' middles fit elsewhere
        ["[2S] [3S] 4H", "5C", "5S", "[6H] 4D", "3C", "2H", "AS"],  # aces and twos at the tops
    ],
)
def test_legal_moves_of_crafted_boards_agree_with_the_rules(piles):
    for foundations in ({}, {"S": 3, "H": 2, "C": 1, "D": 4}):
        game = klondike(piles=piles, stock="7D 8C", waste="QD", foundations=foundations)
        check_fast_paths(game)


def test_a_move_notes_its_position_without_building_the_views(monkeypatch):
    game = new_game("draw3", seed=5)
    assert isinstance(game, KlondikeGame)
    built: list[str] = []
    for name in ("view_piles", "view_foundations"):
        method = getattr(KlondikeGame, name)
        monkeypatch.setattr(KlondikeGame, name, lambda self, _m=method, _n=name: built.append(_n) or _m(self))
    game.play("draw")
    assert built == []  # the visit note reads the piles themselves; the board view builds its piles once
    assert game.layout_key() == layout_key_by_views(game)


def test_the_score_sheet_adds_and_lists_every_line():
    sheet = ScoreSheet(cards=50, reveals=10, waste_moves=20, starts=0, recycles=-20, time_bonus=7, hints=-50)
    assert sheet.total == 17
    assert sheet.lines() == [
        ("Cards to foundations", 50),
        ("Cards turned up", 10),
        ("Moves from the waste", 20),
        ("Stock returns", -20),
        ("Time bonus", 7),
        ("Hints", -50),
    ]
    assert sheet.to_dict()["total"] == 17


def test_notation_writes_each_card_as_str_does():
    assert notation(FULL_DECK) == [str(card) for card in FULL_DECK]


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_an_undo_stack_is_nothing_the_garbage_collector_walks(variant: str) -> None:
    """A kept move is plain numbers in plain tuples: after one look the collector never walks it again
    (hundreds of games' stacks walked at every full collection held the event loop for 100 ms and more)."""
    import gc

    game = new_game(variant, seed=5)
    for _ in range(40):
        moves = [move for move in game.legal_moves() if move != DRAW] or game.legal_moves()
        if game.is_over or not moves:
            break
        game.push(moves[-1], seconds=0)
        if game._stack:
            break
    assert game._stack, "a move that revealed nothing was kept for undo"
    for _ in range(5):  # a tuple is let go once what it holds was: about one nesting level a collection
        gc.collect()
    assert not any(gc.is_tracked(kept) for kept in game._stack)


@pytest.mark.parametrize("variant", ["draw3", "friday13"])
def test_a_move_kept_for_undo_is_a_few_hundred_bytes(variant: str) -> None:
    """A kept move is the board in one bytes object (a byte a card): 200 pages at 1,000 moves a second keep
    about 25 MB a minute of undo history, not 100 (a board as tuples of codes was about 1.5 KB a move)."""
    game = new_game(variant, seed=5)
    while not game._stack and not game.is_over:
        game.push(next(move for move in game.legal_moves() if str(move) != "undo"), seconds=0)
    assert game._stack, "a move that revealed nothing was kept for undo"

    def size(value: object) -> int:
        inner = value if isinstance(value, tuple) else ()
        return sys.getsizeof(value) + sum(size(part) for part in inner if not isinstance(part, int) or part > 256)

    assert size(game._stack[-1]) < 400

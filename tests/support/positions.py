"""Build exact positions for rule tests, the way python-chess tests start from a FEN."""

from __future__ import annotations

from solitaire import Card, Game, new_game
from solitaire.friday13 import STARTER_RANKS, Friday13Game
from solitaire.klondike import KlondikeGame


def cards(text: str) -> list[Card]:
    return [Card.parse(name) for name in text.split()]


def klondike(
    variant: str = "draw3",
    *,
    piles: list[str] | None = None,
    stock: str = "",
    waste: str = "",
    foundations: dict[str, int] | None = None,
    recycles: int = 0,
) -> KlondikeGame:
    """A Klondike game set to a position: piles as ``"[9C] [2D] KS QH"`` (brackets = face down).

    ``stock`` lists cards in the order they will be drawn; ``waste`` bottom to top.
    """
    game = new_game(variant, seed=0)
    assert isinstance(game, KlondikeGame)
    layout = (piles or []) + [""] * (7 - len(piles or []))
    game.piles, game.hidden = [], []
    for text in layout:
        names = text.split()
        game.hidden.append(sum(1 for name in names if name.startswith("[")))
        game.piles.append([Card.parse(name.strip("[]")) for name in names])
    game.stock = list(reversed(cards(stock)))
    game.waste = cards(waste)
    game.foundations = {suit: 0 for suit in "CDHS"} | (foundations or {})
    game.recycles = recycles
    game.scored = set()
    game.seen = {card for i, pile in enumerate(game.piles) for card in pile[game.hidden[i] :]} | set(game.waste)
    return game


def friday13(*, foundations: list[str], stock: str = "", waste: str = "", recycles: int = 0) -> Friday13Game:
    """A Friday 13 game set to a position: 13 foundation strings bottom to top (``""`` = empty)."""
    game = new_game("friday13", seed=0)
    assert isinstance(game, Friday13Game)
    game.foundations = [cards(text) for text in foundations]
    game.stock = list(reversed(cards(stock)))
    game.waste = cards(waste)
    game.recycles = recycles
    game.seen = set(game.waste) | {card for pile in game.foundations for card in pile}
    return game


def reshuffle_unseen(
    variant: str, seed: int, moves: list[str], permutation: list[int]
) -> tuple[Game, tuple[Card, ...]]:
    """The deck with the never-seen cards of the game after ``moves`` put in other places."""
    game = new_game(variant, seed=seed)
    for text in moves:
        game.play(text)
    # Friday 13 starts its first four foundations with the first J, Q, K and A of the deck: keep those ranks put
    fixed = set(STARTER_RANKS) if variant == "friday13" else set()
    places = [i for i, card in enumerate(game.deck) if card not in game.seen and card.rank not in fixed]
    other = list(game.deck)
    for place, source in zip(places, permutation, strict=False):
        other[place] = game.deck[places[source % len(places)]]
    if len(set(other)) != 52 or tuple(other) == game.deck:  # not a change: rotate the unseen cards instead
        other = list(game.deck)
        for k, place in enumerate(places):
            other[place] = game.deck[places[(k + 1) % len(places)]]
    return game, tuple(other)

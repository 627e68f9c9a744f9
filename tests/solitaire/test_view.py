"""The player's view never carries the identity of a card the player has not seen."""

from hypothesis import given, settings
from hypothesis import strategies as st

from solitaire import Card, format_deck, new_game, shuffled_deck, view_of
from solitaire.klondike import KlondikeGame


def swapped(deck: tuple[Card, ...], i: int, j: int) -> tuple[Card, ...]:
    cards = list(deck)
    cards[i], cards[j] = cards[j], cards[i]
    return tuple(cards)


def test_fresh_view_shows_only_the_top_cards():
    view = view_of(new_game("draw3", seed=11))
    assert [pile.hidden for pile in view.tableau] == [0, 1, 2, 3, 4, 5, 6]
    assert all(len(pile.cards) == 1 for pile in view.tableau)
    assert view.stock_count == 24 and view.waste_fan == ()


def test_games_differing_only_in_hidden_cards_look_the_same():
    deck = shuffled_deck(12)
    # deck[21] and deck[22] are face down in pile 7; deck[50] and deck[51] are deep in the stock.
    other = swapped(swapped(deck, 21, 22), 50, 51)
    first, second = new_game("draw3", deck=deck), new_game("draw3", deck=format_deck(other))
    assert view_of(first) == view_of(second)
    for game in (first, second):
        game.play("draw")
    assert view_of(first).to_dict() == view_of(second).to_dict()


def test_friday13_hides_the_stock():
    deck = shuffled_deck(13)
    starters = new_game("friday13", deck=deck)
    assert view_of(starters).to_dict()["waste"] == []
    assert view_of(starters).stock_count == 48


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**9), picks=st.lists(st.integers(0, 50), max_size=60))
def test_every_card_in_a_view_has_been_seen(seed, picks):
    game = new_game("draw3", seed=seed)
    assert isinstance(game, KlondikeGame)
    for pick in picks:
        moves = game.legal_moves()
        if not moves:
            break
        game.push(moves[pick % len(moves)])
        view = view_of(game)
        shown = {card for pile in view.tableau for card in pile.cards} | set(view.waste_fan)
        assert shown <= game.seen

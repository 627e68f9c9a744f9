"""Alt text names what the player sees and never a hidden card."""

from hypothesis import given, settings
from hypothesis import strategies as st

from render.samples import play_greedy
from solitaire import VARIANTS, new_game
from solitaire.alt_text import MAX_LENGTH, describe_board
from solitaire.klondike import KlondikeGame
from solitaire.view import view_of


def test_a_klondike_board_lists_foundations_waste_and_every_pile():
    game = new_game("draw3", seed=4)
    play_greedy(game, 25)
    text = describe_board(view_of(game))
    assert text.count("\nPile ") == 7
    assert "Foundations: ♠:" in text and "Stock " in text
    assert isinstance(game, KlondikeGame)
    for number in range(1, 8):
        line = next(line for line in text.splitlines() if line.startswith(f"Pile {number}:"))
        if game.hidden[number - 1]:
            assert f"{game.hidden[number - 1]} face down" in line
        assert all(card.label in line for card in game.face_up(number - 1))


@settings(max_examples=40, deadline=None)
@given(variant=st.sampled_from(sorted(VARIANTS)), seed=st.integers(0, 2**32), length=st.integers(0, 60))
def test_no_card_the_view_hides_is_ever_named(variant, seed, length):
    game = new_game(variant, seed=seed)
    play_greedy(game, length)
    view = view_of(game)
    text = describe_board(view)
    assert len(text) <= MAX_LENGTH
    shown = {card for pile in view.tableau for card in pile.cards} | set(view.waste_fan)
    shown |= {f.top for f in view.foundations if f.top}
    named = {card for card in game.deck if f" {card.label}" in text or f"{card.label}," in text}
    # a label like "10♥" also matches inside nothing else, so every named card must be on show
    assert named <= shown

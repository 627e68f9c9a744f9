"""Every Friday 13 rule, score line and refusal."""

import pytest

from solitaire import IllegalMoveError, Status, new_game
from solitaire.friday13 import Friday13Game, next_rank
from tests.support.positions import cards, friday13

START = ["JS", "QS", "KS", "AS"] + [""] * 9


def test_deal_starts_the_first_jack_queen_king_and_ace_of_the_deck():
    game = new_game("friday13", seed=4)
    assert isinstance(game, Friday13Game)
    starters = [pile[0] for pile in game.foundations[:4]]
    assert [card.rank for card in starters] == [11, 12, 13, 1]
    for card in starters:
        same_rank = [c for c in game.deck if c.rank == card.rank]
        assert same_rank[0] == card
    assert len(game.stock) == 48
    rest = [card for card in game.deck if card not in starters]
    game.play("draw")
    assert game.waste == [rest[0]]


@pytest.mark.parametrize(
    ("foundations", "waste", "move", "placed"),
    [
        (START, "2H", "w-2", "2H"),  # J Q K A filled: the 2 foundation may start
        (["JS", "QS", "KS", "AS", "2D"] + [""] * 8, "3C", "w-3", "3C"),
        (START, "QD", "w-J", "JS QD"),  # build up regardless of suit
        (START, "AH", "w-K", "KS AH"),  # K wraps to A
        (START, "2C", "w-A", "AS 2C"),  # a 2 may also build on the ace
    ],
)
def test_friday13_plays(foundations, waste, move, placed):
    game = friday13(foundations=foundations, waste=waste, stock="9C")
    game.play(move)
    label_index = ["J", "Q", "K", "A", "2", "3"].index(move[2:])
    assert game.foundations[label_index] == cards(placed)


@pytest.mark.parametrize(
    ("foundations", "waste", "move", "message"),
    [
        (START, "4H", "w-4", "fill the 2 foundation first: empty foundations fill left to right"),
        (START, "5H", "w-4", "the empty 4 foundation takes only a 4, not 5♥"),
        (START, "3H", "w-J", "3♥ does not go on J♠ \\(it takes any Q\\)"),
        (START, "", "w-2", "the waste is empty: draw a card first"),
    ],
)
def test_friday13_refusals(foundations, waste, move, message):
    game = friday13(foundations=foundations, waste=waste, stock="9C")
    before = game.position()
    with pytest.raises(IllegalMoveError, match=f"^{move}: {message}"):
        game.play(move)
    assert game.position() == before


def test_scoring_ten_per_card_and_twenty_more_for_a_start():
    game = friday13(foundations=START, waste="QD 2H", stock="9C")
    game.play("w-2")
    game.play("w-J")
    assert (game.sheet.cards, game.sheet.starts, game.score) == (20, 20, 40)


def test_one_redeal_then_no_more():
    game = friday13(foundations=START, stock="9C 8C")
    for _ in range(2):
        game.play("draw")
    game.play("draw")  # the redeal
    assert game.recycles == 1 and game.stock
    game.play("draw")
    game.play("draw")
    assert game.status is Status.STUCK  # no redeal left and 8♣ fits nowhere


def test_redeal_refused_message():
    game = friday13(foundations=START, stock="", waste="9C 2H", recycles=1)
    with pytest.raises(IllegalMoveError, match="^draw: the redeal is used up: no passes left"):
        game.play("draw")


def test_win_when_every_card_is_played_with_time_bonus():
    game = friday13(
        foundations=["JS", "QS", "KS", "AS", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", ""], waste="TC"
    )
    game.play("w-10", seconds=60)
    assert game.status is Status.WON
    assert game.sheet.time_bonus == (300 - 60) * 48 // 48


def test_ten_foundation_must_wait_for_the_nine():
    foundations = ["JS", "QS", "KS", "AS", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "", ""]
    game = friday13(foundations=foundations, waste="TC", stock="9D")
    with pytest.raises(IllegalMoveError, match="fill the 9 foundation first"):
        game.play("w-10")


@pytest.mark.parametrize(("rank", "after"), [(1, 2), (9, 10), (12, 13), (13, 1)])
def test_next_rank_wraps(rank, after):
    assert next_rank(rank) == after


def test_undo_takes_back_a_play_but_not_a_first_draw():
    game = new_game("friday13", seed=9)
    game.play("draw")
    assert not game.can_undo
    with pytest.raises(IllegalMoveError, match="revealed a card you had not seen"):
        game.play("undo")

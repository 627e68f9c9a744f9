"""Every Klondike rule, score line and refusal (Solitaire Rush draw 1/3 and Gold Rush)."""

import pytest

from solitaire import GameOverError, IllegalMoveError, Status, new_game
from solitaire.klondike import KlondikeGame
from tests.support.positions import cards, klondike


def test_deal_lays_out_seven_piles_and_a_stock_drawn_first_card_first():
    game = new_game("draw1", seed=3)
    assert isinstance(game, KlondikeGame)
    assert [len(pile) for pile in game.piles] == [1, 2, 3, 4, 5, 6, 7]
    assert game.hidden == [0, 1, 2, 3, 4, 5, 6]
    assert game.piles[1] == list(game.deck[1:3])
    game.play("draw")
    assert game.waste == [game.deck[28]]
    assert len(game.stock) == 23


# -- building -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("piles", "move", "after"),
    [
        (["7H", "8S"], "1-2", ["", "8S 7H"]),  # red on black, one lower
        (["[2C] 9S 8H 7C", "10D"], "1-2", ["2C", "10D 9S 8H 7C"]),  # a whole run
        (["[2C] 9S 8H 7C", "9C"], "1-2", ["[2C] 9S", "9C 8H 7C"]),  # the one run that fits
        (["[2C] KS QH", ""], "1-2", ["2C", "KS QH"]),  # a king-headed run fills an empty pile
    ],
)
def test_tableau_moves(piles, move, after):
    game = klondike(piles=piles)
    game.play(move)
    for index, text in enumerate(after):
        assert game.piles[index] == cards(text.replace("[", "").replace("]", ""))


@pytest.mark.parametrize(
    ("piles", "move", "message"),
    [
        (["7H", "8D"], "1-2", "7♥ does not go on 8♦"),
        (["7H", "9S"], "1-2", "7♥ does not go on 9♠"),
        (["[2C] 9S 8H 7C", "9D"], "1-2", "no card of pile 1 \\(9♠ to 7♣\\) goes on 9♦"),
        (["QH", ""], "1-2", "only a king \\(or a run headed by one\\) may fill empty pile 2"),
        (["KH", ""], "1-2", "the K♥ already heads its own pile"),
        (["", "5S"], "1-2", "pile 1 is empty"),
        (["5S"], "1-f", "5♠ can't start a foundation: aces first"),
    ],
)
def test_tableau_refusals(piles, move, message):
    game = klondike(piles=piles)
    before = game.position()
    with pytest.raises(IllegalMoveError, match=f"^{move}: {message}"):
        game.play(move)
    assert game.position() == before


# -- foundations and scoring ----------------------------------------------------
@pytest.mark.parametrize(
    ("rank", "points"),
    [
        ("A", 50),
        ("2", 45),
        ("3", 40),
        ("4", 35),
        ("5", 30),
        ("6", 25),
        ("7", 20),
        ("8", 15),
        ("9", 10),
        ("T", 5),
        ("J", 5),
        ("Q", 5),
        ("K", 5),
    ],
)
def test_foundation_card_values(rank, points):
    before = {"A": 0, "T": 9, "J": 10, "Q": 11, "K": 12}.get(rank, int(rank) - 1 if rank.isdigit() else 0)
    game = klondike(piles=[f"{rank}H", "2S"], stock="5C AC", foundations={"H": before})
    game.play("1-f")
    assert game.sheet.cards == points
    assert game.score == points


def test_a_card_earns_its_value_once():
    game = klondike(piles=["2H", "3S", "QC"], stock="5C AC", foundations={"H": 1})
    game.play("1-f")
    game.play("fh-2")
    game.play("2-f")
    assert game.sheet.cards == 45
    assert game.sheet.foundation_returns == -10
    assert game.score == 35


def test_wrong_suit_on_foundation_refused():
    game = klondike(piles=["2S", "3D"], foundations={"H": 1})
    with pytest.raises(IllegalMoveError, match="2♠ can't start a foundation"):
        game.play("1-f")


def test_turning_up_a_face_down_card_scores_ten():
    game = klondike(piles=["[2C] 7H", "8S"])
    game.play("1-2")
    assert game.hidden[0] == 0
    assert game.sheet.reveals == 10


@pytest.mark.parametrize(("move", "cards_points"), [("w-2", 0), ("w-f", 50)])
def test_moves_from_the_waste_score_ten_on_top(move, cards_points):
    waste = "AS" if move == "w-f" else "7H"
    game = klondike(piles=["2D", "8S"], waste=waste)
    game.play(move)
    assert (game.sheet.waste_moves, game.sheet.cards) == (10, cards_points)


def test_foundation_to_tableau_costs_ten():
    game = klondike(piles=["3D"], stock="5C AC", foundations={"S": 2})
    game.play("fs-1")
    assert game.piles[0] == cards("3D 2S")
    assert game.foundations["S"] == 1
    assert game.score == -10


def test_foundation_to_tableau_refused_when_empty_or_in_gold_rush():
    with pytest.raises(IllegalMoveError, match="the ♠ foundation is empty"):
        klondike(piles=["3D"]).play("fs-1")
    with pytest.raises(IllegalMoveError, match="cards never leave the foundations in Gold Rush"):
        klondike("goldrush", piles=["3D"], foundations={"S": 2}).play("fs-1")


def test_waste_refusals():
    with pytest.raises(IllegalMoveError, match="^w-f: the waste is empty"):
        klondike(piles=["3D"]).play("w-f")


# -- the stock --------------------------------------------------------------------
@pytest.mark.parametrize(("variant", "turned"), [("draw1", 1), ("draw3", 3), ("goldrush", 3)])
def test_draw_turns_the_variant_count(variant, turned):
    game = klondike(variant, piles=["KS"] * 7, stock="2C 3C 4C 5C 6C")
    game.play("draw")
    assert game.waste == cards("2C 3C 4C 5C 6C")[:turned]


def test_a_short_stock_deals_what_is_left():
    game = klondike("draw3", piles=["KS"], stock="2C 3C")
    game.play("draw")
    assert game.waste == cards("2C 3C") and not game.stock


@pytest.mark.parametrize(
    ("variant", "penalties"),
    [("draw3", [0, 0, -20, -20]), ("draw1", [-100, -100, -100, -100]), ("goldrush", [0, 0])],
)
def test_returning_the_waste_penalties(variant, penalties):
    game = klondike(variant, piles=["KS", "KH", "KD", "KC", "QS", "QH", "QD"], stock="2C 3C")
    total = 0
    for penalty in penalties:
        while game.stock:
            game.play("draw")
        game.play("draw")  # turn the waste over
        total += penalty
        assert game.sheet.recycles == total
    assert not game.waste


def test_gold_rush_passes_deal_three_then_two_then_one_and_stop():
    full = ["KS", "KH", "KD", "KC", "QS", "QH", "QD"]
    game = klondike("goldrush", piles=full, stock="2C 3C 4C 5C 6C 7C")
    sizes = []
    for _ in range(3):
        while game.stock:
            before = len(game.waste)
            game.play("draw")
            sizes.append(len(game.waste) - before)
        if game.recycles < 2:
            game.play("draw")
    assert sizes == [3, 3, 2, 2, 2, 1, 1, 1, 1, 1, 1]
    with pytest.raises(IllegalMoveError, match="^draw: the stock is finished: no passes left"):
        game.play("draw")


def test_gold_rush_refuses_to_deal_while_a_pile_is_empty_but_turns_the_waste():
    game = klondike("goldrush", piles=["KS", "", "4D"], stock="2C 3C", foundations={"C": 1})
    with pytest.raises(IllegalMoveError, match="^draw: fill empty pile 2, 4, 5, 6, 7 with a king before dealing"):
        game.play("draw")
    game = klondike("goldrush", piles=["KS", "", "4D"], waste="9C 3H")
    game.play("draw")
    assert game.stock and not game.waste


def test_draw_with_nothing_left_is_refused():
    game = klondike(piles=["KS", "QH", "2D"])
    with pytest.raises(IllegalMoveError, match="the stock and the waste are both empty"):
        game.play("draw")


# -- undo -------------------------------------------------------------------------
def test_undo_restores_the_position_and_the_score():
    game = klondike(piles=["7H", "8S", "AD"], stock="5C AC", waste="AS")
    before = game.position()
    game.play("w-f")
    game.play("1-2")
    game.play("undo")
    game.play("undo")
    assert game.position() == before
    assert game.score == 0


def test_undo_never_passes_a_move_that_revealed_a_card():
    game = klondike(piles=["[2C] 7H", "8S", "9D"], stock="5C AC")
    game.play("1-2")
    with pytest.raises(IllegalMoveError, match="^undo: the last move revealed a card you had not seen"):
        game.play("undo")
    game.play("2-3")  # 8S 7H onto 9D: reveals nothing (pile 2 has no hidden card)
    game.play("undo")
    with pytest.raises(IllegalMoveError, match="revealed a card you had not seen"):
        game.play("undo")


def test_drawing_unseen_cards_locks_undo_but_seen_ones_do_not():
    game = klondike("draw1", piles=["KS", "KH", "KD", "KC", "QS", "QH", "QD"], stock="2C 3C")
    game.play("draw")
    assert not game.can_undo
    game.play("draw")
    game.play("draw")  # turn over: -100, undoable
    assert game.can_undo
    game.play("draw")  # 2C again: already seen
    game.play("undo")
    game.play("undo")
    assert game.sheet.recycles == 0 and game.waste == cards("2C 3C")


def test_undo_with_nothing_to_take_back():
    with pytest.raises(IllegalMoveError, match="^undo: there is no move to take back"):
        new_game("draw3", seed=1).play("undo")


# -- the end ----------------------------------------------------------------------
def test_solved_game_plays_out_and_freezes_the_clock():
    # Everything face up, one card left in the stock: the move that solves it plays everything out.
    game = klondike(
        "draw3",
        piles=["KH QS JH", "KS QH JS"],
        stock="KD",
        foundations={"H": 10, "S": 10, "C": 13, "D": 12},
    )
    game.play("draw", seconds=100)  # QD shows: stock and waste hold at most one card -> solved
    assert game.status is Status.WON
    assert all(rank == 13 for rank in game.foundations.values())
    assert game.seconds_used == 100
    assert game.sheet.time_bonus == (300 - 100) * 52 // 52


def test_time_bonus_when_the_player_ends():
    game = klondike(piles=["AS"], foundations={"H": 13, "D": 2})
    game.play("1-f", seconds=10)
    game.play("end", seconds=123.9)
    assert game.status is Status.ENDED
    assert game.seconds_used == 123
    assert game.sheet.time_bonus == (300 - 123) * 16 // 52
    assert game.score == 50 + (300 - 123) * 16 // 52


def test_expiry_gives_no_time_bonus_and_refuses_later_moves():
    game = new_game("draw3", seed=2)
    with pytest.raises(GameOverError, match="time is up"):
        game.play("draw", seconds=300)
    assert game.status is Status.EXPIRED and game.sheet.time_bonus == 0
    with pytest.raises(GameOverError, match="^draw: the game is over \\(expired\\)"):
        game.play("draw", seconds=1)


def test_gold_rush_with_no_legal_move_is_stuck():
    piles = ["KS", "KH", "KD", "KC", "9S", "6S", "5D"]
    game = klondike("goldrush", piles=piles, waste="2C 3C", recycles=2)
    assert [str(move) for move in game.legal_moves()] == ["7-6"]
    game.play("7-6", seconds=30)
    assert game.status is Status.STUCK
    assert game.seconds_used == 30
    assert game.sheet.time_bonus == 0  # no card on a foundation


def test_rush_is_stuck_when_drawing_can_never_help():
    game = klondike("draw1", piles=["KS", "KH", "KD", "KC", "9S", "6S", "5D"], stock="2C 3C")
    game.play("7-6")
    assert game.status is Status.STUCK


def test_rush_is_not_stuck_while_the_stock_holds_a_playable_card():
    game = klondike("draw1", piles=["KS", "KH", "KD", "KC", "9S", "6S", "5D"], stock="2C 3C AH")
    game.play("7-6")
    assert game.status is Status.PLAYING

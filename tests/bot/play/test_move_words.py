import pytest

from bot.play.move_words import describe_move, move_places
from solitaire import DRAW, UNDO, Move, new_game
from tests.support.decks import EASY_KLONDIKE


def played(variant: str, *moves: str, **deal):
    game = new_game(variant, **(deal or {"deck": EASY_KLONDIKE}))
    for move in moves:
        game.play(move)
    return game


@pytest.mark.parametrize(
    ("moves", "move", "words"),
    [
        ((), Move.play("1", "f"), "1 → f: A♠ starts the ♠ foundation"),
        ((), Move.play("1", "4"), "1 → 4: A♠ onto 2♦"),
        (("1-f",), Move.play("fs", "4"), "fs → 4: A♠ back onto 2♦"),
        (("1-f", "2-f", "2-f"), Move.play("3", "f"), "3 → f: A♣ starts the ♣ foundation"),
        (("1-f", "2-f", "2-f", "3-f"), Move.play("3", "f"), "3 → f: 2♠ to the foundation"),
        ((), DRAW, "draw: turn 3 cards"),
    ],
)
def test_klondike_moves_in_words(moves, move, words):
    assert describe_move(played("draw3", *moves), move) == words


def test_every_legal_move_of_many_positions_is_described_without_error():
    for seed in range(20):
        game = new_game("draw1", seed=seed)
        for _ in range(30):
            legal = game.legal_moves()
            if not legal:
                break
            for move in legal:
                assert describe_move(game, move).startswith(str(move).split("-")[0])
            game.push(legal[seed % len(legal)])


def test_the_stock_turned_over_and_friday13():
    game = new_game("draw1", seed=4)
    for _ in range(24):
        game.play("draw")
    assert describe_move(game, DRAW) == "draw: turn the waste over"
    friday = new_game("friday13", seed=3)
    friday.play("draw")
    for move in friday.legal_moves():
        if move.kind.value == "play":
            assert describe_move(friday, move).startswith(f"w → {move.target}: {friday.waste[-1].label} ")


@pytest.mark.parametrize(
    ("variant", "moves", "move", "places"),
    [
        ("draw3", (), Move.play("1", "f"), ("1", "fs")),
        ("draw3", ("1-f", "2-f", "2-f"), Move.play("3", "f"), ("3", "fc")),
        ("draw3", (), Move.play("1", "4"), ("1", "4")),
        ("draw3", ("1-f",), Move.play("fs", "4"), ("fs", "4")),
        ("draw3", (), DRAW, (None, None)),
        ("draw3", ("draw",), UNDO, (None, None)),
    ],
)
def test_move_places_name_what_a_picture_marks(variant, moves, move, places):
    assert move_places(played(variant, *moves), move) == places


def test_friday13_move_places_are_the_waste_and_a_label():
    friday = new_game("friday13", seed=6)
    friday.play("draw")
    plays = [move_places(friday, move) for move in friday.legal_moves() if move.kind.value == "play"]
    assert plays == [("w", "A"), ("w", "2")]

"""Property tests: any sequence of moves keeps the game sound."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solitaire import VARIANTS, Card, Game, SolitaireError, Status, game_from_json, game_to_json, new_game
from solitaire.friday13 import Friday13Game
from solitaire.klondike import KlondikeGame
from solitaire.moves import FRIDAY13_LABELS

SOURCES = ["1", "2", "3", "4", "5", "6", "7", "w", "fs", "fh", "fd", "fc"]
TARGETS = ["1", "2", "3", "4", "5", "6", "7", "f"]
VOCABULARY = (
    ["draw", "undo", "end", "", "x", "9-1", "3-3", "f-2", "w-w", "draw draw"]
    + [f"{s}-{t}" for s in SOURCES for t in TARGETS]
    + [f"w-{label}" for label in FRIDAY13_LABELS]
)


def cards_in_play(game: Game) -> list[Card]:
    if isinstance(game, KlondikeGame):
        home = [Card(rank, suit) for suit, top in game.foundations.items() for rank in range(1, top + 1)]
        return [card for pile in game.piles for card in pile] + game.stock + game.waste + home
    assert isinstance(game, Friday13Game)
    return [card for pile in game.foundations for card in pile] + game.stock + game.waste


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(sorted(VARIANTS)), seed=st.integers(0, 2**64 - 1), data=st.data())
def test_any_move_sequence_keeps_the_game_sound(variant, seed, data):
    game = new_game(variant, seed=seed)
    for _ in range(data.draw(st.integers(0, 80), label="length")):
        legal = [str(move) for move in game.legal_moves()]
        pick_legal = legal and data.draw(st.integers(0, 3)) > 0
        text = data.draw(st.sampled_from(legal if pick_legal else VOCABULARY), label="move")
        seconds = data.draw(st.one_of(st.integers(0, 299), st.just(300)), label="seconds")
        before = game.position()
        try:
            game.play(text, seconds=seconds)
        except SolitaireError:
            if game.status is not Status.EXPIRED:
                assert game.position() == before  # a refusal changes nothing
        else:
            if text not in ("undo", "end") and game.can_undo:
                after = game.position()
                game.play("undo")
                assert game.position() == before  # undo restores position and score exactly
                game.play(text, seconds=seconds)
                assert game.position() == after
        played = cards_in_play(game)
        assert len(played) == 52 and len(set(played)) == 52
    restored = game_from_json(game_to_json(game))
    assert restored.position() == game.position()
    assert restored.can_undo == game.can_undo
    assert restored.log == game.log

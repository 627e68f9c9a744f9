"""A board's dests: each legal card move keyed by the slots it joins, as a picture of the board places it."""

from solitaire import new_game, view_of
from solitaire.dests import drop_move, foundation_slot, move_dests, pile_slot
from solitaire.moves import MoveKind

SLOTS = {"w", *(str(n) for n in range(1, 8)), "fs", "fh", "fd", "fc"}
"""A Klondike board's slots a card may be dropped on."""


def walk(variant: str, seed: int, steps: int = 60) -> list:
    """A game played by its first legal card move (else a draw) for ``steps`` moves, and its view at each."""
    game = new_game(variant, seed=seed)
    seen = []
    for _ in range(steps):
        view = view_of(game)
        seen.append((game, view))
        moves = [m for m in view.legal_moves if m.kind is MoveKind.PLAY] or list(view.legal_moves)
        if not moves:
            break
        game.play(str(moves[len(seen) % len(moves)]))
    return seen


def test_every_card_move_is_one_dest_at_the_places_its_picture_draws() -> None:
    for variant, seed in (("draw3", 5), ("draw1", 8), ("friday13", 3)):
        for game, view in walk(variant, seed):
            plays = [m for m in view.legal_moves if m.kind is MoveKind.PLAY]
            dests = move_dests(view)
            assert sum(len(targets) for targets in dests.values()) == len(plays)
            for move in plays:
                source, target = game.move_places(move)
                assert dests[source][target] == str(move)


def test_the_slot_ids_are_the_sources_in_notation_or_a_label() -> None:
    klondike = view_of(new_game("draw3", seed=1))
    assert [foundation_slot(f) for f in klondike.foundations] == ["fs", "fh", "fd", "fc"]
    assert [pile_slot(i) for i in range(len(klondike.tableau))] == [str(n) for n in range(1, 8)]
    friday = view_of(new_game("friday13", seed=1))
    assert [foundation_slot(f) for f in friday.foundations][:4] == ["J", "Q", "K", "A"]
    assert all(
        target in {foundation_slot(f) for f in friday.foundations} for t in move_dests(friday).values() for target in t
    )


def test_no_move_no_dests() -> None:
    game = new_game("draw3", seed=2)
    game.play("end")
    assert move_dests(view_of(game)) == {}


def test_every_drop_is_named_the_legal_ones_as_their_dests_say() -> None:
    for _game, view in walk("draw3", 5, steps=20):
        for source, targets in move_dests(view).items():
            assert {slot: drop_move(view, source, slot) for slot in targets} == targets
            assert {slot for slot in SLOTS if drop_move(view, source, slot)} == SLOTS - {source}
    view = view_of(new_game("draw3", seed=2))
    assert (
        drop_move(view, "1", "fh") == "1-f"
        and drop_move(view, "1", "2") == "1-2"
        and drop_move(view, "1", "w") == "1-w"
    )
    assert drop_move(view, "w", "1") is None  # nothing drawn yet: no card to pick up there
    assert (
        drop_move(view, "1", "stock") is None
        and drop_move(view, "1", "9") is None
        and drop_move(view, "1", "1") is None
    )

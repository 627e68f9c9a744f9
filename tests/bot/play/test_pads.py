"""The Klondike pad without Discord: a press sends a card up first, Choose selects whatever the card's places."""

from __future__ import annotations

import random

import pytest

from bot.play.pads import (
    CHOOSE,
    CHOOSING,
    PADS,
    PLAY_HERE_ROW,
    TO_FOUNDATION,
    AllUp,
    ButtonSpec,
    KlondikePad,
    Play,
    Select,
)
from solitaire import UNDO, VARIANTS, Game, IllegalMoveError, Move, MoveKind, new_game, view_of
from solitaire.moves import FOUNDATION_SOURCES, PILES
from solitaire.view import BoardView
from tests.support.decks import EASY_KLONDIKE

PAD = KlondikePad()
SUIT_BUTTON = {suit: action for action, suit in FOUNDATION_SOURCES.items()}


def easy() -> Game:
    """A♠ on pile 1 (up, or onto 2♦ on pile 4), A♥ on pile 2 (up only), 3♦ on pile 5 (onto 4♣ only)."""
    return new_game("draw3", deck=EASY_KLONDIKE)


def places(view: BoardView, source: str) -> set[str]:
    """Where the engine lets the card (or a run) at ``source`` go."""
    return {m.target for m in view.legal_moves if m.kind is MoveKind.PLAY and m.source == source}


def buttons(view: BoardView, selected: str | None) -> dict[str, ButtonSpec]:
    return {spec.action: spec for spec in PAD.layout(view, selected)}


def lit(view: BoardView, selected: str | None) -> set[str]:
    """The green (enabled) buttons of the board."""
    return {action for action, spec in buttons(view, selected).items() if spec.style == "success" and not spec.disabled}


def test_a_card_that_can_go_up_and_elsewhere_goes_up_in_one_press():
    view = view_of(easy())
    assert places(view, "1") == {"f", "4"}
    assert PAD.resolve(view, None, "1") == Play(Move.play("1", "f"))
    assert PAD.presses(view, Move.play("1", "f")) == ("1",)


def test_a_card_with_one_place_to_go_moves_there_in_one_press():
    view = view_of(easy())
    assert places(view, "5") == {"6"} and places(view, "2") == {"f"}
    assert PAD.resolve(view, None, "5") == Play(Move.play("5", "6"))
    assert PAD.resolve(view, None, "2") == Play(Move.play("2", "f"))


def random_positions(count: int, seed: int) -> list[BoardView]:
    """Positions of random Klondike games in every Klondike variant."""
    rng = random.Random(seed)
    views = []
    for variant in ("draw1", "draw3", "goldrush"):
        for deal in range(count):
            game = new_game(variant, seed=deal)
            for _ in range(60):
                views.append(view_of(game))
                moves = game.legal_moves()
                if not moves:
                    break
                game.push(rng.choice(moves))
    return views


VIEWS = random_positions(5, 11)


def test_a_press_goes_up_first_then_to_its_one_place_and_selects_only_with_several_and_none_up():
    selections = 0
    for view in VIEWS:
        for source in ("w", *PILES):
            targets = places(view, source)
            if not targets:
                with pytest.raises(IllegalMoveError):
                    PAD.resolve(view, None, source)
                continue
            meaning = PAD.resolve(view, None, source)
            if "f" in targets:
                assert meaning == Play(Move.play(source, "f"))
            elif len(targets) == 1:
                assert meaning == Play(Move.play(source, targets.pop()))
            else:
                assert meaning == Select(source)
                assert lit(view, source) == targets  # exactly the legal targets: piles only, nothing up
                selections += 1
    assert selections > 10  # the case is met, not skipped


def test_choose_then_a_card_that_could_go_up_selects_it_and_lights_its_piles_and_its_foundation():
    view = view_of(easy())
    assert PAD.resolve(view, None, CHOOSE) == Select(CHOOSING)
    assert PAD.resolve(view, CHOOSING, "1") == Select("1")
    assert lit(view, "1") == {"4", "fs", TO_FOUNDATION}
    assert PAD.resolve(view, "1", "4") == Play(Move.play("1", "4"))
    assert PAD.resolve(view, CHOOSING, "5") == Select("5")  # even a card with one place to go
    assert PAD.presses(view, Move.play("1", "4")) == (CHOOSE, "1", "4")


def test_choose_selects_any_source_and_lights_every_place_it_may_go():
    for view in VIEWS[::3]:
        for source in ("w", *PILES):
            targets = places(view, source)
            if not targets:
                with pytest.raises(IllegalMoveError):
                    PAD.resolve(view, CHOOSING, source)
                continue
            assert PAD.resolve(view, CHOOSING, source) == Select(source)
            expected = targets - {"f"}
            if "f" in targets:
                card = view.waste_fan[-1] if source == "w" else view.tableau[int(source) - 1].cards[-1]
                expected |= {TO_FOUNDATION, SUIT_BUTTON[card.suit]}
            assert lit(view, source) == expected


def test_choose_twice_cancels_and_choose_on_a_selection_cancels_it():
    view = view_of(easy())
    assert PAD.resolve(view, CHOOSING, CHOOSE) == Select(None)
    assert PAD.resolve(view, "1", CHOOSE) == Select(None)


def test_while_choosing_choose_is_blue_and_the_other_buttons_work_as_with_nothing_selected():
    view = view_of(easy())
    choosing, plain = buttons(view, CHOOSING), buttons(view, None)
    assert choosing[CHOOSE].style == "primary" and plain[CHOOSE].style == "secondary"
    assert {a: s for a, s in choosing.items() if a != CHOOSE} == {a: s for a, s in plain.items() if a != CHOOSE}
    assert PAD.resolve(view, CHOOSING, TO_FOUNDATION) == AllUp()
    with pytest.raises(IllegalMoveError, match="7: no card of that pile can move now"):
        PAD.resolve(view, CHOOSING, "7")
    with pytest.raises(IllegalMoveError, match="the waste is empty"):
        PAD.resolve(view, CHOOSING, "w")


def test_a_suit_button_still_asks_for_the_target_and_choose_changes_nothing_there():
    game = easy()
    game.play("1-f")
    view = view_of(game)
    assert PAD.resolve(view, None, "fs") == PAD.resolve(view, CHOOSING, "fs") == Select("fs")
    assert PAD.presses(view, Move.play("fs", "4")) == ("fs", "4")


def test_undo_after_an_up_first_press_puts_the_card_back():
    game = easy()
    meaning = PAD.resolve(view_of(game), None, "1")
    assert isinstance(meaning, Play)
    game.push(meaning.move)
    assert game.score == 50 and not view_of(game).tableau[0].cards
    game.push(UNDO)
    view = view_of(game)
    assert game.score == 0 and places(view, "1") == {"f", "4"}
    assert PAD.resolve(view, None, "1") == Play(Move.play("1", "f"))


def test_the_presses_of_every_legal_move_play_it():
    for view in VIEWS[::2]:
        for move in view.legal_moves:
            if move.kind is not MoveKind.PLAY:
                continue
            presses = PAD.presses(view, move)
            selected: str | None = None
            for action in presses[:-1]:
                click = PAD.resolve(view, selected, action)
                assert isinstance(click, Select), (move, presses)
                selected = click.source
            assert PAD.resolve(view, selected, presses[-1]) == Play(move)
            assert (len(presses) == 3) == (presses[0] == CHOOSE)


def test_the_buttons_fit_five_rows_of_five_with_hint_beside_end_game_and_choose():
    for selected in (None, CHOOSING, "1"):
        specs = PAD.layout(view_of(easy()), selected)
        rows = [sum(spec.row == row for spec in specs) for row in range(5)]
        assert all(count <= 5 for count in rows) and max(spec.row for spec in specs) < 5
        assert rows[PAD.hint_row] + 1 <= 5  # room for Hint
        assert {spec.action for spec in specs if spec.row == PAD.hint_row} == {CHOOSE, "end"}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_no_pad_lays_out_a_button_or_its_hint_on_the_play_here_row(variant):
    game = new_game(variant, seed=3)
    pad = PADS[game.family]
    for selected in (None, *sorted(pad.selections)):
        assert all(spec.row < PLAY_HERE_ROW for spec in pad.layout(view_of(game), selected))
    assert pad.hint_row < PLAY_HERE_ROW

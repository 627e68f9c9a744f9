import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.play.clicks import (
    AllUp,
    BoardClick,
    OfferClick,
    Play,
    Select,
    parse_board_click,
    parse_offer_click,
    resolve_click,
)
from bot.play.pads import FRIDAY13_ACTIONS, KLONDIKE_ACTIONS, KlondikePad
from solitaire import DRAW, END, UNDO, IllegalMoveError, Move, MoveKind, new_game, view_of
from solitaire.moves import PILES
from tests.support.decks import EASY_KLONDIKE


@pytest.mark.parametrize(
    ("custom_id", "expected"),
    [
        ("sol:12:3:-:draw", BoardClick(12, 3, None, "draw")),
        ("sol:12:3:7:f", BoardClick(12, 3, "7", "f")),
        ("sol:1:0:fh:2", BoardClick(1, 0, "fh", "2")),
        ("sol:1:0:-:t10", BoardClick(1, 0, None, "t10")),
        ("sol:1:0:-:pick", BoardClick(1, 0, None, "pick")),
        ("sol:1:0:ch:3", BoardClick(1, 0, "ch", "3")),
        ("sol:1:0:ch:pick", BoardClick(1, 0, "ch", "pick")),
        ("sol:1:0:ch:t5", None),
        ("sol:1:0:ch:ch", None),
        ("sol:1:0:c:3", None),
        ("sol:1:0:-:zz", None),
        ("sol:1:0:9:1", None),
        ("sol:1:0:w:tJ", None),
        ("sol:x:0:-:draw", None),
        ("sol:1:0:-:draw:extra", None),
        ("solr:1:resume", None),
        ("", None),
    ],
)
def test_board_ids_parse_or_are_refused(custom_id, expected):
    assert parse_board_click(custom_id) == expected


@given(
    st.integers(1, 10**18),
    st.integers(0, 10**6),
    st.sampled_from([None, "1", "7", "w", "fs", "fc"]),
    st.sampled_from(["1", "w", "fd", "f", "draw", "undo", "end"]),
)
@settings(max_examples=50)
def test_board_ids_round_trip_within_discords_limit(game, version, selected, action):
    click = BoardClick(game, version, selected, action)
    assert len(click.custom_id) <= 100
    assert parse_board_click(click.custom_id) == click


OLD_KLONDIKE = ("1", "2", "3", "4", "5", "6", "7", "w", "fs", "fh", "fd", "fc", "f")
"""The Klondike board actions before Choose (a selection could be any of them but ``f``)."""
OLD_FRIDAY13 = ("tJ", "tQ", "tK", "tA", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9", "t10")
OLD_COMMANDS = ("draw", "undo", "end")


def test_every_id_a_board_posted_before_choose_still_parses_as_it_did():
    for selected in (None, *OLD_KLONDIKE[:-1]):
        for action in OLD_KLONDIKE + OLD_FRIDAY13 + OLD_COMMANDS:
            custom_id = f"sol:12:3:{selected or '-'}:{action}"
            valid = selected is None or action not in OLD_FRIDAY13  # a selection was only ever Klondike's
            assert parse_board_click(custom_id) == (BoardClick(12, 3, selected, action) if valid else None), custom_id


@pytest.mark.parametrize(
    ("custom_id", "meaning"),
    [
        ("sol:1:0:3:5", Play(Move.play("3", "5"))),
        ("sol:1:0:3:4", Play(Move.play("3", "4"))),
        ("sol:1:0:3:f", Play(Move.play("3", "f"))),
        ("sol:1:0:3:fc", Play(Move.play("3", "f"))),
        ("sol:1:0:3:3", Select(None)),
        ("sol:1:0:1:draw", Play(DRAW)),
        ("sol:1:0:1:undo", Play(UNDO)),
        ("sol:1:0:fs:4", Play(Move.play("fs", "4"))),
        ("sol:1:0:-:f", AllUp()),
        ("sol:1:0:-:5", Play(Move.play("5", "6"))),
        ("sol:1:0:-:end", Play(END)),
    ],
)
def test_an_old_boards_selection_and_its_targets_still_mean_what_they_meant(custom_id, meaning):
    click = parse_board_click(custom_id)
    assert click is not None and resolve_click(EASY, click.selected, click.action) == meaning


@pytest.mark.parametrize(
    ("custom_id", "expected"),
    [
        ("solr:5:resume", OfferClick(5, "resume")),
        ("solr:5:end", OfferClick(5, "end")),
        ("solr:5:other", None),
        ("sol:5:0:-:end", None),
    ],
)
def test_offer_ids(custom_id, expected):
    assert parse_offer_click(custom_id) == expected
    if expected is not None:
        assert expected.custom_id == custom_id


EASY = view_of(new_game("draw3", deck=EASY_KLONDIKE))


@pytest.mark.parametrize(
    ("selected", "action", "meaning"),
    [
        (None, "3", Play(Move.play("3", "f"))),  # up first, though it could go onto pile 4
        (None, "1", Play(Move.play("1", "f"))),
        (None, "2", Play(Move.play("2", "f"))),
        (None, "pick", Select("ch")),
        ("ch", "3", Select("3")),
        ("ch", "pick", Select(None)),
        ("3", "pick", Select(None)),
        ("ch", "draw", Play(DRAW)),
        (None, "5", Play(Move.play("5", "6"))),
        ("3", "3", Select(None)),
        ("3", "5", Play(Move.play("3", "5"))),
        ("3", "f", Play(Move.play("3", "f"))),
        ("3", "fh", Play(Move.play("3", "f"))),
        (None, "f", AllUp()),
        ("3", "draw", Play(DRAW)),
        (None, "undo", Play(UNDO)),
        (None, "end", Play(END)),
    ],
)
def test_klondike_clicks(selected, action, meaning):
    assert resolve_click(EASY, selected, action) == meaning


@pytest.mark.parametrize(
    ("selected", "action", "message"),
    [
        (None, "w", "the waste is empty"),
        ("3", "w", "the waste is empty"),
        (None, "fs", "that foundation is empty"),
        (None, "7", "7: no card of that pile can move now"),
        ("fs", "f", "already on a foundation"),
        (None, "t5", "not a Klondike button"),
        ("ch", "7", "7: no card of that pile can move now"),
    ],
)
def test_klondike_clicks_that_mean_nothing(selected, action, message):
    with pytest.raises(IllegalMoveError, match=message):
        resolve_click(EASY, selected, action)


def test_picking_a_foundation_card_follows_the_rules():
    game = new_game("draw3", deck=EASY_KLONDIKE)
    game.play("1-f")
    assert resolve_click(view_of(game), None, "fs") == Select("fs")  # even with one place to go (the -10 move)
    with pytest.raises(IllegalMoveError, match="fh: that foundation is empty"):
        resolve_click(view_of(game), "fs", "fh")
    assert resolve_click(view_of(game), "fs", "4") == Play(Move.play("fs", "4"))
    gold = new_game("goldrush", deck=EASY_KLONDIKE)
    gold.play("1-f")
    with pytest.raises(IllegalMoveError, match="never leave the foundations"):
        resolve_click(view_of(gold), None, "fs")


def test_friday13_clicks_play_the_waste_onto_a_foundation():
    view = view_of(new_game("friday13", seed=3))
    assert resolve_click(view, None, "t5") == Play(Move.play("w", "5"))
    assert resolve_click(view, None, "draw") == Play(DRAW)
    with pytest.raises(IllegalMoveError):
        resolve_click(view, None, "3")


def test_the_route_templates_catch_every_valid_id_and_parsing_decides():
    import re

    from bot.play.clicks import BOARD_ROUTE, MAX_CUSTOM_ID, MAX_GAME_ID, OFFER_ROUTE

    actions = sorted(KLONDIKE_ACTIONS | FRIDAY13_ACTIONS)
    for game_id in (1, 12, MAX_GAME_ID):
        for version in (0, 7, 999_999_999):
            for action in actions:
                click = BoardClick(game_id, version, None, action)
                assert len(click.custom_id) <= MAX_CUSTOM_ID
                assert re.fullmatch(BOARD_ROUTE, click.custom_id) and parse_board_click(click.custom_id) == click
        for offer in ("resume", "end"):
            assert re.fullmatch(OFFER_ROUTE, OfferClick(game_id, offer).custom_id)
    too_big = f"sol:{MAX_GAME_ID + 1}:0:-:draw"
    assert re.fullmatch(BOARD_ROUTE, too_big) and parse_board_click(too_big) is None
    assert parse_offer_click(f"solr:{MAX_GAME_ID + 1}:end") is None
    assert not re.fullmatch(BOARD_ROUTE, OfferClick(1, "end").custom_id)  # the two namespaces never overlap


def test_a_klondike_press_sends_a_card_up_first_moves_one_with_one_place_and_selects_otherwise():
    rng = random.Random(7)
    pad = KlondikePad()
    for variant in ("draw1", "draw3", "goldrush"):
        for seed in range(6):
            game = new_game(variant, seed=seed)
            for _ in range(80):
                view = view_of(game)
                for source in ("w", *PILES):
                    places = {m.target for m in view.legal_moves if m.kind is MoveKind.PLAY and m.source == source}
                    try:
                        meaning = resolve_click(view, None, source)
                    except IllegalMoveError:
                        assert not places, (variant, seed, source, game.log)
                        continue
                    if "f" in places:
                        assert meaning == Play(Move.play(source, "f"))
                    elif len(places) == 1:
                        assert meaning == Play(Move.play(source, places.pop()))
                    else:
                        assert meaning == Select(source) and len(places) > 1
                        assert {pad.presses(view, m)[1] for m in view.legal_moves if m.source == source} == {
                            "f" if place == "f" else place for place in places
                        }
                moves = game.legal_moves()
                if not moves:
                    break
                game.push(rng.choice(moves))


def test_a_press_on_a_foundation_card_that_fits_on_no_pile_says_so():
    game = new_game("draw3", deck=EASY_KLONDIKE)
    game.play("2-f")
    with pytest.raises(IllegalMoveError, match="fh: that foundation's card fits on no pile now"):
        resolve_click(view_of(game), None, "fh")

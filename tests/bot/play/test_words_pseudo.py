"""The play layer's words in the member's language: in the pseudo-language, no plain word is left but the values.

Board buttons, the pads' tips and refusals, moves, deals, hints, analyses, the rules' own lines and the notice of a
game closed as broken: each said whole from the catalogue.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from bot.play.analysis_words import analysis_text
from bot.play.clicks import selection_line, source_name
from bot.play.deal_words import deal_words
from bot.play.hints import HintAnswer
from bot.play.move_words import describe_move
from bot.play.pads import CHOOSING, CHOOSING_TEXT, PADS, TO_FOUNDATION
from bot.play.rules_text import rules_text
from bot.play.sessions import SessionManager
from bot.storage import Database
from bot.storage import games as games_db
from bot.storage.games import GameRecord, NewGame
from languages import ENGLISH, Language, speaking_language
from languages.pseudo import PSEUDO
from solitaire import DRAW, IllegalMoveError, game_to_json, new_game, view_of
from solitaire.analysis import Analysis
from solitaire.cards import SUIT_SYMBOLS
from solitaire.moves import FOUNDATION_SOURCES, FRIDAY13_LABELS, PILES
from solitaire.speech import _
from tests.support.decks import EASY_KLONDIKE
from tests.support.pseudo_words import escaped

MAX_LABEL = 80
"""Discord's limit on a button's label."""
SYMBOLS = {*SUIT_SYMBOLS.values(), *(f"→ {label}" for label in FRIDAY13_LABELS)}
"""The labels that are no words: a suit, an arrow to a foundation's card."""


def views():
    """Boards of both families: fresh, a few moves in (undo possible), and over."""
    for variant in ("draw3", "friday13"):
        game = new_game(variant, seed=4)
        yield view_of(game)
        game.play("draw")
        yield view_of(game)


def layouts(view):
    """Every layout of a board: nothing selected, Choose waiting, and each source selected."""
    pad = PADS[view.family]
    yield pad.layout(view, None)
    if view.family.name == "KLONDIKE":
        yield pad.layout(view, CHOOSING)
        for source in ("w", *PILES, *FOUNDATION_SOURCES):
            yield pad.layout(view, source)


def test_every_board_button_is_said_and_fits_its_label():
    for view in views():
        with speaking_language(PSEUDO):
            said = [spec.label for layout in layouts(view) for spec in layout]
        english = [spec.label for layout in layouts(view) for spec in layout]
        for label, plain in zip(said, english, strict=True):
            assert len(label) <= MAX_LABEL, label
            assert escaped(label) == [], label
            assert label != plain or plain in SYMBOLS  # a word is said; a symbol or a card's notation stays


def test_each_language_gets_its_own_labels_from_the_layouts_cache():
    view = view_of(new_game("draw3", deck=EASY_KLONDIKE))
    pad = PADS[view.family]
    english = {spec.action: spec.label for spec in pad.layout(view, None)}
    with speaking_language(PSEUDO):
        pseudo = {spec.action: spec.label for spec in pad.layout(view, None)}
    again = {spec.action: spec.label for spec in pad.layout(view, None)}
    assert english == again and english["draw"] == "Draw" and english["1"] == "Pile 1"
    assert pseudo["draw"] != "Draw" and pseudo[TO_FOUNDATION] != "All up" and "1" in pseudo["1"]


def test_the_pads_tips_and_the_choose_line_are_said():
    with speaking_language(PSEUDO):
        texts = [text for pad in PADS.values() for text in (pad.how_to, pad.first_tip)] + [_(CHOOSING_TEXT)]
    assert all(escaped(text) == [] for text in texts), texts
    assert PADS[view_of(new_game("draw3", seed=1)).family].how_to.startswith("Click the card to move")


def test_a_refused_press_is_said_in_the_members_language():
    view = view_of(new_game("draw3", deck=EASY_KLONDIKE))
    friday = view_of(new_game("friday13", seed=4))
    with speaking_language(PSEUDO):
        refusals = []
        for pad, board, selected, action in [
            (PADS[view.family], view, None, "w"),  # the waste is empty
            (PADS[view.family], view, None, "fs"),  # an empty foundation
            (PADS[view.family], view, "1", TO_FOUNDATION),  # fine: no refusal (a play)
            (PADS[view.family], view, None, "tJ"),  # not a Klondike button
            (PADS[friday.family], friday, None, "7"),  # not a Friday 13 button
        ]:
            try:
                pad.resolve(board, selected, action)
            except IllegalMoveError as error:
                refusals.append(str(error))
        try:
            PADS[friday.family].tap(friday, "1")
        except IllegalMoveError as error:
            refusals.append(str(error))
    assert len(refusals) == 5
    for text in refusals:
        assert escaped(text, view.title, friday.title, "fs", "tJ") == [], text  # the notation is kept


def test_moves_sources_and_selections_are_said():
    game = new_game("draw3", deck=EASY_KLONDIKE)
    with speaking_language(PSEUDO):
        texts = [describe_move(game, DRAW), *(source_name(s) for s in ("w", "fh", "3"))]
        texts += [selection_line(source) for source in ("w", "fh", "3")]
        game.play("draw")
        while game.stock:
            game.play("draw")
        texts.append(describe_move(game, DRAW))
    assert all(escaped(text) == [] for text in texts), texts
    assert describe_move(game, DRAW) == "draw: turn the waste over"


def record(**changes) -> GameRecord:
    game = new_game("draw3", seed=0)
    fields = dict(
        id=3, guild_id=1, channel_id=2, user_id=99, variant="draw3", mode="casual", deal_number=None, daily_date=None,
        state=json.dumps(game_to_json(game)), status="playing", score=0, seconds_used=0, started_at=0.0,
        deadline=300.0, finished_at=None, message_id=None, webhook_token=None, version=0, deal_seed="123456789",
    )  # fmt: skip
    return replace(GameRecord(**fields), **changes)


@pytest.mark.parametrize(
    ("changes", "over"),
    [
        ({}, False),
        ({}, True),
        ({"practice": True, "deal_number": 4242}, False),
        ({"practice": True}, False),
        ({"mode": "daily", "daily_date": "2026-11-29"}, False),
        ({"mode": "race"}, False),
        ({"mode": "challenge"}, True),
    ],
)
def test_a_boards_deal_is_named_in_the_members_language(changes, over):
    deal = record(**changes)
    with speaking_language(PSEUDO):
        said = deal_words(deal, over=over)
    assert escaped(said, deal.deal_seed, deal.deal_number or "") == [], said
    assert "2026-11-29" not in said  # a day as the language writes it


def test_a_hint_is_said_with_its_cost():
    words, why = "1 → f: A♠ starts the ♠ foundation", "wins in 3 of 8 guesses of the hidden cards"
    with speaking_language(PSEUDO):
        texts = [HintAnswer(words, why, None).text, HintAnswer(None, "the game is over", None).text]
    assert all(escaped(text, words, why, "the game is over") == [] for text in texts), texts
    assert HintAnswer(words, why, None).text.endswith("so it is not ranked on the casual leaderboards.")


def analyses(kept):
    """An analysis of every kind the answer words: won, unwinnable, lost by a move, ended, undecided."""
    plain = Analysis("draw3", True, 2, "draw", ("draw", "draw"), True, "ended", 3)
    yield replace(plain, status="won")
    yield replace(plain, winnable_at_start=False, last_winnable=None, lost_by=None, line=())
    yield plain
    yield replace(plain, last_winnable=0)
    yield replace(plain, lost_by=None)
    yield replace(plain, lost_by=None, last_winnable=0)
    yield replace(plain, lost_by=None, decided=False, winnable_at_start=None)
    yield replace(plain, lost_by=None, decided=False, last_winnable=0, line=("draw",) * 400)


def test_every_analysis_is_said_in_the_members_language():
    kept = new_game("draw3", deck=EASY_KLONDIKE)
    kept.play("draw")
    kept.play("draw")
    for analysis in analyses(kept):
        with speaking_language(PSEUDO):
            said = analysis_text(analysis, kept)
        assert escaped(said) == [], said
        assert len(said) < 2000


def test_the_rules_own_lines_are_said():
    english = rules_text("draw3").splitlines()[-3:]
    with speaking_language(PSEUDO):
        said = rules_text("draw3").splitlines()[-3:]
    assert english[0].startswith("**Clock**") and english[-1].startswith("**Play**")
    assert all(escaped(line) == [] for line in said), said


async def test_a_broken_games_notice_is_left_in_its_players_language(database_target: str | Path):
    db = await Database.open(database_target)
    asked: list[int] = []

    async def language_of(user_id: int) -> Language:
        asked.append(user_id)
        return PSEUDO if user_id == 7 else ENGLISH

    sessions = SessionManager(db, now=lambda: 10.0, language_of=language_of)
    try:
        for user in (7, 8):
            await games_db.insert_game(
                db,
                NewGame(
                    guild_id=1, channel_id=1, user_id=user, variant="draw3", mode="casual", deal_number=None,
                    daily_date=None, state="{damaged", started_at=0.0, deadline=300.0,
                ),
            )  # fmt: skip
        await sessions.resume_all()
        [(_first, pseudo)] = await sessions.pending_notices(1, 7)
        [(_second, english)] = await sessions.pending_notices(1, 8)
    finally:
        await sessions.close()
        await db.close()
    assert sorted(asked) == [7, 8]
    assert escaped(pseudo, "#1", "#2", "draw3") == [], pseudo
    assert english.startswith("Your game #") and "could not be reloaded after a restart" in english

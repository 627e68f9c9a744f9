"""Every sentence the core says to a player, said in the pseudo-language: no English word escapes the catalogue.

Refusals of each family, the board's alt text, the hint's and the analysis' words, the rules, the variants'
names, the score sheet's lines. Outside :func:`~solitaire.speech.speaking` the same calls say the English source,
unchanged (the other tests of ``tests/solitaire`` hold every English word).
"""

import dataclasses
import pickle
import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from languages.pseudo import PSEUDO
from solitaire import (
    VARIANTS,
    Family,
    IllegalMoveError,
    Move,
    MoveKind,
    Rules,
    SolitaireError,
    Status,
    UnknownVariantError,
    find_variant,
    new_game,
    parse_move,
)
from solitaire.alt_text import describe_board
from solitaire.analysis import analyze
from solitaire.games import ENGINES
from solitaire.guide import rules_parts, stock_rule
from solitaire.hint import BEST, EXPLORE, GUESS, SAFE, _Hinter, _why, hint_for
from solitaire.knowledge import knowledge_of
from solitaire.moves import FOUNDATION_SOURCES, FRIDAY13_LABELS, PILES
from solitaire.scoring import ScoreSheet
from solitaire.speech import speaking
from solitaire.variants import DRAW3, variant_menu
from solitaire.view import view_of
from solitaire.words import Said, SaidField, number
from tests.support.positions import friday13, klondike

CARD = re.compile(r"(?:10|[A2-9JQK])[♠♥♦♣]")
QUOTED = re.compile(r"'[^']*'")
MOVE = re.compile(r"\b(?:draw|undo|end|f[shdc]|[1-7w]-\w+)\b")
"""Move notation, which no language translates (``3-5``, ``w-f``, ``fh-2``, ``draw``)."""
ENGLISH = re.compile(r"[A-Za-z]{2,}")
FRIDAY_START = ["JS", "QS", "KS", "AS"] + [""] * 9


@contextmanager
def pseudo() -> Iterator[None]:
    """Speak the pseudo-language inside the block."""
    with speaking(PSEUDO.catalogue()):
        yield


def escaped(text: str) -> list[str]:
    """The English words of ``text`` left once cards, quoted typing and move notation are taken out."""
    return ENGLISH.findall(MOVE.sub(" ", QUOTED.sub(" ", CARD.sub(" ", text))))


def refusal(game, text: str) -> str:
    """The engine's refusal of the move ``text`` in ``game``, said in the pseudo-language (and in English after)."""
    before = game.position()
    with pseudo(), pytest.raises(SolitaireError) as refused:
        game.play(text)
    assert game.position() == before
    with pytest.raises(SolitaireError) as english:
        game.play(text)
    said = str(refused.value)
    assert said != str(english.value)
    return said


KLONDIKE_REFUSALS = [
    (lambda: klondike(piles=["7H", "8D"]), "1-2"),
    (lambda: klondike(piles=["[2C] 9S 8H 7C", "9D"]), "1-2"),
    (lambda: klondike(piles=["QH", ""]), "1-2"),
    (lambda: klondike(piles=["KH", ""]), "1-2"),
    (lambda: klondike(piles=["", "5S"]), "1-2"),
    (lambda: klondike(piles=["5S"]), "1-f"),
    (lambda: klondike(piles=["2S"], foundations={"S": 0, "H": 1}), "1-f"),
    (lambda: klondike(piles=["3S"], foundations={"S": 1}), "1-f"),
    (lambda: klondike(piles=["3D", ""], waste="QH"), "w-2"),
    (lambda: klondike(piles=["3D"]), "fs-1"),
    (lambda: klondike(piles=["3D"]), "w-f"),
    (lambda: klondike(piles=["KS", "QH", "2D"]), "draw"),
    (lambda: klondike(piles=["KS"]), "undo"),
    (lambda: klondike(piles=["KS"]), ""),
    (lambda: klondike(piles=["KS"]), "hello"),
    (lambda: klondike(piles=["KS"]), "f-1"),
    (lambda: klondike(piles=["KS"]), "q-1"),
    (lambda: klondike(piles=["KS"]), "1-w"),
    (lambda: klondike(piles=["KS"]), "1-9"),
    (lambda: klondike(piles=["KS"]), "1-1"),
    (lambda: klondike(piles=["KS"]), "fh-fs"),
]
GOLD_RUSH_REFUSALS = [
    (lambda: klondike("goldrush", piles=["3D"], foundations={"S": 2}), "fs-1"),
    (lambda: klondike("goldrush", piles=["KS", "", "4D"], stock="2C 3C", foundations={"C": 1}), "draw"),
    (lambda: klondike("goldrush", piles=["KS"] * 7, waste="2C", recycles=2), "draw"),
]
FRIDAY13_REFUSALS = [
    (lambda: friday13(foundations=FRIDAY_START, waste="4H", stock="9C"), "w-4"),
    (lambda: friday13(foundations=FRIDAY_START, waste="5H", stock="9C"), "w-4"),
    (lambda: friday13(foundations=FRIDAY_START, waste="3H", stock="9C"), "w-J"),
    (lambda: friday13(foundations=FRIDAY_START, stock="9C"), "w-2"),
    (lambda: friday13(foundations=FRIDAY_START, waste="9C 2H", recycles=1), "draw"),
    (lambda: friday13(foundations=FRIDAY_START, waste="2H"), "3-J"),
    (lambda: friday13(foundations=FRIDAY_START, waste="2H"), "w-Z"),
]


@pytest.mark.parametrize(("make", "move"), KLONDIKE_REFUSALS + GOLD_RUSH_REFUSALS + FRIDAY13_REFUSALS)
def test_every_refusal_is_said_whole_in_the_players_language(make, move):
    said = refusal(make(), move)
    assert not escaped(said), said
    if move in {"1-2", "1-f", "w-2", "fs-1", "w-f", "draw", "w-4", "w-J"}:
        assert said.startswith(f"{move}: "), said  # the move is quoted as it was written


def test_a_finished_or_expired_game_refuses_in_the_players_language():
    game = new_game("draw3", seed=1)
    game.play("end")
    assert not escaped(refusal(game, "draw"))
    game = new_game("draw1", seed=1)
    with pseudo(), pytest.raises(SolitaireError) as expired:
        game.play("draw", seconds=400)
    assert not escaped(str(expired.value)) and game.status is Status.EXPIRED


def test_the_refusal_of_every_move_on_real_boards_is_said_in_the_players_language():
    messages: set[str] = set()
    for variant in VARIANTS:
        game = new_game(variant, seed=4)
        for _step in range(40):
            if game.is_over:
                break
            family = game.rules.family
            if family is Family.KLONDIKE:
                moves = [Move.play(s, t) for s in (*PILES, "w", *FOUNDATION_SOURCES) for t in (*PILES, "f")]
            else:
                moves = [Move.play("w", label) for label in FRIDAY13_LABELS]
            for move in [*moves, Move(MoveKind.DRAW), Move(MoveKind.UNDO)]:
                if move.source == move.target or (move.source in FOUNDATION_SOURCES and move.target == "f"):
                    continue
                twin = game.branch()
                with pseudo():
                    try:
                        twin.push(move)
                    except SolitaireError as error:
                        messages.add(str(error))
            game.push(game.legal_moves()[0])
    assert len(messages) > 30
    assert [message for message in messages if escaped(message)] == []


def test_a_board_is_described_in_the_players_language():
    for variant in VARIANTS:
        game = new_game(variant, seed=2)
        for _step in range(30):
            view = view_of(game)
            english = describe_board(view)
            with pseudo():
                said = describe_board(view_of(game))
            assert not escaped(said), said
            assert said != english and describe_board(view) == english
            if game.is_over:
                break
            game.push(game.legal_moves()[-1])
        if not game.is_over:
            game.push(Move(MoveKind.END))
        with pseudo():
            assert not escaped(describe_board(view_of(game)))


def test_a_described_score_is_grouped_the_languages_way():
    game = new_game("draw3", seed=2)
    view = dataclasses.replace(view_of(game), sheet=ScoreSheet(cards=1160))
    assert "score 1160," in describe_board(view)
    with pseudo():
        assert " 1.160," in describe_board(view)
        assert number(1160) == "1.160"
    assert number(1160) == "1160"


def test_moves_are_put_in_words_in_the_players_language():
    for variant in VARIANTS:
        game = new_game(variant, seed=5)
        for _step in range(20):
            if game.is_over:
                break
            for move in game.legal_moves():
                if move.kind is MoveKind.PLAY:
                    with pseudo():
                        said = game.describe_play(move)
                    assert said is not None and not escaped(said), said
            game.push(game.legal_moves()[-1])


def test_hints_give_their_reasons_in_the_players_language():
    spades = "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS JC QC KC"
    safe = klondike("draw3", piles=["[9C] AS", "TC"], stock=spades, foundations={"C": 8, "D": 13, "H": 13})
    piles = ["QH", "KC", "[AC] [2C] [JH] 3C", "QC JC TC 9C 8C 7C 6C 5C 4C", "KH"]
    stuck = klondike("draw1", piles=piles, foundations={"D": 13, "S": 13, "H": 10})
    clubs = "3C 4C 5C 6C 7C 8C 9C TC JC QC KC"
    lost = klondike("goldrush", piles=["[AC] 2C"], waste=clubs, foundations={"S": 13, "H": 13, "D": 13})
    over = new_game("draw1", seed=3)
    over.play("end")
    cases = [
        (safe, {"samples": 3, "max_nodes": 300}, "safe"),
        (new_game("draw3", seed=70007), {"samples": 3, "max_nodes": 300}, "explore"),
        (new_game("goldrush", seed=70009), {"samples": 2, "max_nodes": 1}, "guess"),
        (stuck, {"samples": 3, "max_nodes": 1}, "stuck"),
        (stuck, {"samples": 3, "max_nodes": 300}, None),  # a long plan: "12 more moves, then ..."
        (lost, {"samples": 3, "max_nodes": 300}, "lost"),
        (over, {}, "over"),
    ]
    for game, budget, reason in cases:
        english = hint_for(knowledge_of(game), number=1, **budget)
        with pseudo():
            hint = hint_for(knowledge_of(game), number=1, **budget)
        assert (hint.move, hint.plan, hint.reason) == (english.move, english.plan, english.reason)
        assert reason is None or hint.reason == reason
        assert hint.why != english.why and not escaped(hint.why), hint.why


def test_every_reason_a_hint_gives_is_one_sentence_of_the_players_language():
    hinter = _Hinter(knowledge_of(new_game("goldrush", seed=70031)), 1, 0, 2, 100)
    with pseudo():
        rests = ["", hinter._rest(("draw", "draw", "draw")), hinter._rest(("draw", "draw", "w-1"))]
        for reason in (SAFE, EXPLORE, BEST, GUESS):
            for rest in rests:
                said = _why(reason, 3, 10, rest)
                assert not escaped(said), said
    assert hinter._rest(("draw", "draw", "draw")) == "1 more draw, then draw"


def test_the_analysis_names_a_refused_move_in_the_players_language():
    game = new_game("draw1", seed=3)
    with pseudo(), pytest.raises(SolitaireError) as refused:
        analyze(game.rules, game.deck, ["draw", "1-2"], max_nodes=100)
    assert not escaped(str(refused.value)), str(refused.value)
    with pytest.raises(SolitaireError, match=r"^move 2 \('1-2'\) refused: 1-2: "):
        analyze(game.rules, game.deck, ["draw", "1-2"], max_nodes=100)


def test_notation_mistakes_are_said_in_the_players_language():
    for family in Family:
        for text in ["", "x", "f-3", "q-3", "3-w", "3-q", "3-3", "fh-f", "3-J", "w-Z"]:
            try:
                parse_move(text, family)
            except SolitaireError:
                with pseudo(), pytest.raises(SolitaireError) as refused:
                    parse_move(text, family)
                assert not escaped(str(refused.value)), str(refused.value)
    with pseudo(), pytest.raises(UnknownVariantError) as unknown:
        find_variant("spider")
    said = str(unknown.value)
    for name in VARIANTS:  # the variants' names, as a command takes them
        assert name in said
        said = said.replace(name, " ")
    assert not escaped(said), said


WORDED = [
    Rules(name="x", title="X", family=Family.KLONDIKE, draw_counts=counts, max_passes=passes, **extra)
    for counts, passes, extra in [
        ((1,), None, {"recycle_penalty": 100}),
        ((3,), None, {"free_recycles": 2, "recycle_penalty": 20}),
        ((2,), None, {"free_recycles": 1, "recycle_penalty": 50}),
        ((1,), None, {"free_recycles": 3, "recycle_penalty": 5}),
        ((1,), None, {"free_recycles": 4, "recycle_penalty": 5}),
        ((1,), None, {"free_recycles": 9, "recycle_penalty": 5}),
        ((3,), None, {"deal_needs_full_tableau": True}),
        ((3, 2, 1), 3, {"foundation_to_tableau": False, "deal_needs_full_tableau": True}),
        ((3, 2), 2, {"foundation_to_tableau": False}),
        ((4, 3, 2, 1), 7, {"recycle_penalty": 10}),
        ((1,), 2, {}),
        ((1,), 4, {"free_recycles": 1, "recycle_penalty": 10}),
    ]
]


@pytest.mark.parametrize("rules", [*VARIANTS.values(), *WORDED], ids=lambda rules: stock_rule(rules)[:40])
def test_the_rules_are_said_in_the_players_language(rules):
    english = rules_parts(rules)
    with pseudo():
        said = rules_parts(rules)
    assert all(not escaped(part) for part in said), said
    assert all(mine != theirs for mine, theirs in zip(said, english, strict=True))
    assert rules_parts(rules) == english


def test_the_variants_names_are_said_when_read():
    with pseudo():
        names = [(rules.title, rules.menu_name, rules.short_title) for rules in VARIANTS.values()]
        menu = variant_menu()
        title = view_of(new_game("goldrush", seed=1)).title
    assert all(not escaped(" ".join(words)) for words in names) and not escaped(title)
    assert all(not escaped(name) for name, _ in menu) and [variant for _, variant in menu] == [
        variant for _, variant in variant_menu()
    ]
    assert (DRAW3.title, DRAW3.menu_name, DRAW3.short_title) == (
        "Solitaire Rush (draw 3)",
        "Solitaire Rush, draw 3",
        "Rush draw 3",
    )
    assert VARIANTS["goldrush"].menu_name == "" and variant_menu()[2] == ("Gold Rush", "goldrush")


def test_a_variant_keeps_its_english_source_and_travels_to_a_worker_whole():
    with pseudo():
        assert vars(DRAW3)["title"] == "Solitaire Rush (draw 3)"
        travelled = pickle.loads(pickle.dumps(DRAW3))
        assert travelled.title == DRAW3.title != "Solitaire Rush (draw 3)"
    assert travelled == DRAW3 and travelled.title == "Solitaire Rush (draw 3)"
    with pytest.raises(TypeError):
        Rules(name="x", family=Family.KLONDIKE, draw_counts=(1,), max_passes=None)  # a title must be given


def test_words_said_when_read():
    class Sign:
        words = Said("Keep off the grass")

    with pseudo():
        assert not escaped(Sign.words) and not escaped(Sign().words)
    assert Sign.words == "Keep off the grass"

    @dataclasses.dataclass(frozen=True)
    class Note:
        words: SaidField = SaidField()  # noqa: RUF009 - a descriptor
        extra: SaidField = SaidField(default="")  # noqa: RUF009 - a descriptor

    note = Note("Keep off the grass")
    with pseudo():
        assert not escaped(note.words) and note.extra == ""
    assert note.words == "Keep off the grass" and vars(note) == {"words": "Keep off the grass", "extra": ""}


def test_statuses_and_score_lines_are_said_in_the_players_language():
    sheet = ScoreSheet(cards=100, reveals=10, waste_moves=10, starts=20, foundation_returns=-10, recycles=-20)
    sheet = dataclasses.replace(sheet, time_bonus=30, hints=-50)
    english = sheet.lines()
    with pseudo():
        said = sheet.lines()
        words = [status.words for status in Status]
    assert [points for _, points in said] == [points for _, points in english]
    assert all(not escaped(label) for label, _ in said) and all(not escaped(word) for word in words)
    assert [status.words for status in Status] == [status.value for status in Status]
    assert english[0] == ("Cards to foundations", 100)


def test_the_goal_and_scoring_are_said_when_read_from_the_game_class():
    with pseudo():
        said = [(engine.goal, engine.scoring_text) for engine in ENGINES.values()]
    assert all(not escaped(goal) and not escaped(scoring) for goal, scoring in said)
    assert ENGINES[Family.KLONDIKE].goal.startswith("Build the four foundations up by suit")


def test_english_is_spoken_again_after_the_block():
    game = klondike(piles=["7H", "8D"])
    with pseudo(), pytest.raises(IllegalMoveError):
        game.play("1-2")
    with pytest.raises(IllegalMoveError, match="^1-2: 7♥ does not go on 8♦$"):
        game.play("1-2")

import dataclasses
import io
import itertools

import pytest
from PIL import Image, ImageChops

from render import palette, render_board
from render.board import (
    LABEL_SIZE,
    LEGEND_H,
    TAB_TEXT_SIZE,
    TARGET_WIDTH,
    VALUE_SIZE,
    _f13_slot_xy,
    draw_board,
    table_height,
)
from render.fonts import Face, font
from render.layout import (
    CARD_H,
    CARD_W,
    MAX_HEIGHT,
    MIN_HEIGHT,
    TAB_H,
    TAB_TUCK,
    TAB_Y,
    TABLEAU_Y,
    TOP_Y,
    UP_OFFSET,
    WIDTH,
    column_x,
    on_phone,
    pile_tops,
)
from render.samples import STATES, sample_game
from render.sprites import card_face
from solitaire import Card, PileView, Status, new_game, view_of
from solitaire.moves import FRIDAY13_LABELS
from solitaire.shuffle import shuffled_deck

VARIANTS = ("draw1", "draw3", "goldrush", "friday13")
GOLD = palette.index(palette.GOLD)


def _image(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data))


def _colours(image: Image.Image) -> set[int]:
    return {index for _, index in image.getcolors(256) or []}


def _count(image: Image.Image, index: int) -> int:
    return dict((i, n) for n, i in image.getcolors(256) or []).get(index, 0)


@pytest.mark.parametrize("state", STATES)
@pytest.mark.parametrize("variant", VARIANTS)
def test_every_variant_and_state_renders_a_wide_palette_png(variant, state):
    game = sample_game(variant, state)
    data = render_board(view_of(game), time_left=100.0)
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    image = _image(data)
    assert (image.size[0], image.mode) == (WIDTH, "P")
    if game.status is Status.PLAYING:
        assert MIN_HEIGHT <= image.size[1] <= MAX_HEIGHT
    else:
        assert image.size[1] > table_height(view_of(game))  # the result panel is stacked below the table
    assert len(data) <= 40_000


@pytest.mark.parametrize("state", ["won", "ended", "stuck", "expired"])
def test_samples_reach_their_end_state(state):
    for variant in VARIANTS:
        assert sample_game(variant, state).status.value == state


def _swap(deck: tuple[Card, ...], *pairs: tuple[int, int]) -> tuple[Card, ...]:
    cards = list(deck)
    for a, b in pairs:
        cards[a], cards[b] = cards[b], cards[a]
    return tuple(cards)


# (variant, swaps of deck positions that stay unseen, draws played before drawing)
SECRECY_CASES = [
    ("draw3", [(21, 26), (1, 3)], 0),  # face-down cards of piles 7 and 2
    ("draw3", [(24, 25), (50, 51)], 2),  # a face-down card and the unseen bottom of the stock
    ("draw1", [(15, 19), (40, 45)], 5),
    ("goldrush", [(10, 13), (47, 51)], 3),
]


@pytest.mark.parametrize(("variant", "swaps", "draws"), SECRECY_CASES)
def test_hidden_cards_never_reach_the_image(variant, swaps, draws):
    deck = shuffled_deck(5)
    games = [new_game(variant, deck=deck), new_game(variant, deck=_swap(deck, *swaps))]
    for game in games:
        for _ in range(draws):
            game.play("draw")
    assert games[0].deck != games[1].deck
    assert games[0].piles != games[1].piles or games[0].stock != games[1].stock
    assert view_of(games[0]) == view_of(games[1])
    first, second = (render_board(view_of(g), time_left=250, selected="1") for g in games)
    assert first == second


def test_friday13_unseen_stock_order_never_reaches_the_image():
    deck = shuffled_deck(5)
    starters = {next(c for c in deck if c.rank == rank) for rank in (11, 12, 13, 1)}
    unseen = [i for i in range(len(deck) - 1, 0, -1) if deck[i] not in starters][:2]
    games = [new_game("friday13", deck=deck), new_game("friday13", deck=_swap(deck, tuple(unseen)))]
    for game in games:
        game.play("draw")
    assert games[0].stock != games[1].stock
    assert render_board(view_of(games[0])) == render_board(view_of(games[1]))


def test_selecting_each_source_draws_a_gold_highlight():
    game = sample_game("draw3", "mid")
    view = view_of(game)
    plain = draw_board(view)
    sources = [str(n) for n in range(1, 8)] + ["w"]
    sources += [s for s, f in zip(("fs", "fh", "fd", "fc"), view.foundations, strict=True) if f.top]
    for source in sources:
        picked = draw_board(view, selected=source)
        assert _count(picked, GOLD) > _count(plain, GOLD) + 400, source
        assert picked.tobytes() != plain.tobytes()


def test_friday13_waste_can_be_selected():
    view = view_of(sample_game("friday13", "mid"))
    assert render_board(view, selected="w") != render_board(view)


ALERT = palette.index(palette.ALERT)
PAD = TARGET_WIDTH


def _changed_box(plain: Image.Image, marked: Image.Image) -> tuple[int, int, int, int] | None:
    return ImageChops.difference(plain.convert("RGB"), marked.convert("RGB")).getbbox()


def _inside(box: tuple[int, int, int, int] | None, area: tuple[int, int, int, int]) -> bool:
    return box is not None and area[0] <= box[0] and area[1] <= box[1] and box[2] <= area[2] and box[3] <= area[3]


def _klondike_target_areas(view) -> dict[str, tuple[int, int, int, int]]:
    """Each Klondike target with the area its mark may cover: the card place, its outline and its tab."""
    height = table_height(view)
    areas = {}
    for i, source in enumerate(("fs", "fh", "fd", "fc")):
        areas[source] = (column_x(3 + i) - PAD, TOP_Y - PAD, column_x(3 + i) + CARD_W + PAD, TOP_Y + CARD_H + PAD)
    areas["f"] = (areas["fs"][0], TOP_Y - PAD, areas["fc"][2], TOP_Y + CARD_H + PAD)
    for i, pile in enumerate(view.tableau):
        top = (pile_tops(pile.hidden, len(pile.cards), height) or [TABLEAU_Y])[-1]
        areas[str(i + 1)] = (column_x(i) - PAD, TAB_Y, column_x(i) + CARD_W + PAD, top + CARD_H + PAD)
    return areas


@pytest.mark.parametrize("variant", ["draw3", "goldrush"])
def test_a_target_is_marked_in_red_inside_its_own_area_only(variant):
    view = view_of(sample_game(variant, "mid"))
    plain = draw_board(view, selected="w")
    assert _count(plain, ALERT) == 0
    for target, area in _klondike_target_areas(view).items():
        marked = draw_board(view, selected="w", target=target)
        assert _inside(_changed_box(plain, marked), area), target
        assert _count(marked, ALERT) >= (4 if target == "f" else 1) * 900, target
        assert _count(marked, GOLD) >= _count(plain, GOLD), target  # the source keeps its highlight


def test_an_empty_pile_target_is_marked_and_its_number_stays_readable():
    game = new_game("draw1", seed=0)
    view = view_of(game)
    empty = dataclasses.replace(view, tableau=(PileView(0, ()), *view.tableau[1:]))
    marked = draw_board(empty, target="1")
    assert _count(marked, ALERT) > 900
    number = marked.crop((column_x(0), TAB_Y, column_x(0) + CARD_W, TAB_Y + TAB_H - TAB_TUCK))
    assert _count(number, palette.index(palette.BADGE)) > 40  # the dark digit on the red tab


def test_friday13_marks_a_foundation_by_its_label():
    view = view_of(sample_game("friday13", "mid"))
    plain = draw_board(view, selected="w")
    for label in ("J", "4", "10"):
        x, y = _f13_slot_xy(FRIDAY13_LABELS.index(label))
        marked = draw_board(view, selected="w", target=label)
        area = (x - PAD, y - TAB_H + TAB_TUCK, x + CARD_W + PAD, y + CARD_H + PAD)
        assert _inside(_changed_box(plain, marked), area), label
        assert _count(marked, ALERT) > 900, label


def test_a_target_not_on_the_board_draws_nothing():
    klondike = view_of(sample_game("draw3", "mid"))
    friday = view_of(sample_game("friday13", "mid"))
    assert render_board(klondike, target="J") == render_board(klondike)
    assert render_board(friday, target="fh") == render_board(friday)
    assert render_board(friday, target="f") == render_board(friday)


def test_four_colour_changes_clubs_and_diamonds():
    view = view_of(sample_game("draw1", "mid"))
    plain, four = draw_board(view), draw_board(view, four_colour=True)
    assert plain.tobytes() != four.tobytes()
    assert palette.index(palette.INK_GREEN) in _colours(four) or palette.index(palette.INK_BLUE) in _colours(four)


def test_clock_is_drawn_only_when_given():
    view = view_of(sample_game("draw3", "mid"))
    assert render_board(view) != render_board(view, time_left=120)
    assert render_board(view, time_left=120) != render_board(view, time_left=20)


def test_the_longest_possible_pile_fits_on_the_table():
    run = tuple(Card(rank, "SH"[rank % 2]) for rank in range(13, 0, -1))
    view = view_of(new_game("draw3", seed=1))
    tableau = (*view.tableau[:6], PileView(6, run))
    image = draw_board(dataclasses.replace(view, tableau=tableau))
    assert image.size[1] == MAX_HEIGHT
    last_rows = image.crop((0, MAX_HEIGHT - 6, WIDTH, MAX_HEIGHT))
    assert _colours(last_rows) == {palette.index(palette.FELT)}


def test_result_panel_shows_on_finished_games_only():
    game = sample_game("draw3", "mid")
    playing = draw_board(view_of(game))
    game.play("end", seconds=200)
    ended = draw_board(view_of(game))
    panel = palette.index(palette.PANEL)
    assert _count(ended, panel) > _count(playing, panel) + 50_000


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("state", ["ended", "stuck", "expired"])
def test_the_result_panel_never_covers_the_final_board(variant, state, monkeypatch):
    from render import board

    view = view_of(sample_game(variant, state))
    final = draw_board(view)
    height = table_height(view)
    monkeypatch.setattr(board, "table_height", lambda _view: height)  # the same table, still in play
    as_if_playing = draw_board(dataclasses.replace(view, status=Status.PLAYING))
    table = (0, 0, WIDTH, height)
    assert final.crop(table).tobytes() == as_if_playing.crop(table).tobytes()
    assert palette.index(palette.PANEL) in _colours(final.crop((0, table[3], WIDTH, final.size[1])))


def _ink_rows(image: Image.Image, box: tuple[int, int, int, int], colour: palette.RGB) -> int:
    crop = image.crop(box)
    ink = palette.index(colour)
    rows = [y for y in range(crop.size[1]) if any(crop.getpixel((x, y)) == ink for x in range(crop.size[0]))]
    return rows[-1] - rows[0] + 1


@pytest.mark.parametrize("card", [Card(10, "S"), Card(12, "H"), Card(1, "C")])
def test_a_card_index_is_at_least_14_px_tall_on_a_phone(card):
    colour = palette.INK_RED if card.suit in "DH" else palette.INK_BLACK
    rank_box = (0, 0, 40, UP_OFFSET)  # the rank's corner, above the next card of a fan
    assert on_phone(_ink_rows(card_face(card).image, rank_box, colour)) >= 14


def test_header_labels_and_pile_numbers_are_at_least_10_px_on_a_phone():
    def cap_height(face: Face, size: int, value: str) -> int:
        _, top, _, bottom = font(face, size).getbbox(value)
        return int(bottom - top)

    assert on_phone(cap_height(Face.CONDENSED, LABEL_SIZE, "MOVES")) >= 10
    assert on_phone(cap_height(Face.BOLD, VALUE_SIZE, "SCORE")) >= 10
    assert on_phone(cap_height(Face.BOLD, TAB_TEXT_SIZE, "7")) >= 10


def test_pile_numbers_sit_on_their_piles_well_clear_of_the_top_row():
    assert TABLEAU_Y < TAB_Y + TAB_H  # the pile's first card tucks under its number tab
    assert TAB_Y - (TOP_Y + CARD_H) >= 16


def test_height_follows_the_content_in_a_few_steady_steps():
    from render.samples import play_greedy

    heights = {draw_board(view_of(new_game(variant, seed=3))).size[1] for variant in ("draw1", "draw3")}
    assert heights == {MIN_HEIGHT}
    game, seen = new_game("draw3", seed=12), []
    for _ in range(60):
        if play_greedy(game, 1) and not game.is_over:
            seen.append(draw_board(view_of(game)).size[1])
    assert all(MIN_HEIGHT <= h <= MAX_HEIGHT for h in seen)
    assert len(set(seen)) <= 4
    assert sum(a != b for a, b in itertools.pairwise(seen)) <= 4


def test_rendering_is_pure():
    view = view_of(sample_game("goldrush", "mid"))
    assert render_board(view, time_left=61) == render_board(view, time_left=61)


def test_threads_draw_the_same_pictures_as_one_thread():
    from concurrent.futures import ThreadPoolExecutor

    views = [view_of(sample_game(variant, "mid")) for variant in VARIANTS]
    jobs = [(view, float(t), four) for view in views for t in (10, 200) for four in (False, True)]
    alone = [render_board(view, time_left=t, four_colour=four) for view, t, four in jobs]
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(lambda job: render_board(job[0], time_left=job[1], four_colour=job[2]), jobs))
    assert together == alone


@pytest.mark.processes
def test_render_never_imports_discord():
    import subprocess
    import sys

    code = "import sys, render; render.render_board; assert 'discord' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_boards_over_the_size_budget_are_encoded_harder(monkeypatch):
    from render import board

    view = view_of(sample_game("draw3", "mid"))
    quick = board.encode(board.draw_board(view, time_left=99), board.COMPRESS_LEVEL)
    monkeypatch.setattr(board, "SIZE_BUDGET", len(quick) - 1)
    harder = render_board(view, time_left=99)
    assert len(harder) < len(quick)
    assert _image(harder).tobytes() == _image(quick).tobytes()


def _felt_columns(image: Image.Image, left: int, right: int, top: int, bottom: int) -> int:
    """How many pixel columns of ``left..right`` are felt from ``top`` to ``bottom`` (the gap between two cards)."""
    felt = palette.index(palette.FELT)
    return sum(1 for x in range(left, right) if {image.getpixel((x, y)) for y in range(top, bottom)} == {felt})


def test_a_full_waste_fan_is_as_far_from_the_first_foundation_as_any_two_columns():
    view = view_of(sample_game("draw3", "mid"))
    assert len(view.waste_fan) == 3
    image = draw_board(view)
    waste_gap = _felt_columns(image, column_x(3) - 20, column_x(3), TOP_Y, TOP_Y + CARD_H)
    column_gap = _felt_columns(image, column_x(4) - 20, column_x(4), TOP_Y, TOP_Y + CARD_H)
    assert waste_gap == column_gap >= 8


def test_friday13_shows_the_next_rank_on_each_started_foundation_and_which_empty_one_is_next():
    view = view_of(sample_game("friday13", "mid"))
    assert [f.takes for f in view.foundations] == [
        "Q",
        "A",
        "A",
        "4",
        "4",
        "4",
        "4",
        None,
        None,
        None,
        None,
        None,
        None,
    ]
    image = draw_board(view)
    bright, dim = palette.index(palette.FELT_TEXT), palette.index(palette.FELT_LINE)
    for foundation in view.foundations:
        x, y = _f13_slot_xy(FRIDAY13_LABELS.index(foundation.label))
        place = image.crop((x, y, x + CARD_W, y + CARD_H))
        if foundation.top is not None:  # a card with the "next" badge on it
            badge = place.crop((8, CARD_H - 38, CARD_W - 8, CARD_H - 6))
            assert _count(badge, palette.index(palette.BADGE)) > 800, foundation.label
        elif foundation.takes:  # the one to fill next: bright
            assert _count(place, bright) > 500 and _count(place, dim) == 0, foundation.label
        else:  # locked: dim, as before
            assert _count(place, dim) > 500 and _count(place, bright) == 0, foundation.label
    tab = image.crop((*_f13_slot_xy(0)[:1], TOP_Y, _f13_slot_xy(0)[0] + CARD_W, TOP_Y + TAB_H - TAB_TUCK))
    assert _ink_width(tab) < 30  # the tab is the name alone ("J"), no unexplained count


def _ink_width(tab: Image.Image) -> int:
    """Width of the light text on a dark tab."""
    light = palette.index(palette.HEADER_TEXT)
    columns = [x for x in range(tab.size[0]) if any(tab.getpixel((x, y)) == light for y in range(tab.size[1]))]
    return columns[-1] - columns[0] + 1 if columns else 0


@pytest.mark.parametrize(("variant", "selected", "target"), [("draw3", "w", "fs"), ("friday13", "w", "4")])
def test_a_marked_move_has_a_legend_below_the_table(variant, selected, target):
    view = view_of(sample_game(variant, "mid"))
    plain = draw_board(view, selected=selected)
    marked = draw_board(view, selected=selected, target=target)
    assert marked.size == (WIDTH, plain.size[1] + LEGEND_H)
    legend = marked.crop((0, plain.size[1], WIDTH, marked.size[1]))
    assert _count(legend, GOLD) > 100 and _count(legend, ALERT) > 100  # a swatch of each mark, then its words
    assert _count(legend, palette.index(palette.FELT_TEXT)) > 300
    assert draw_board(view, selected=selected, target="nowhere").size == plain.size  # no mark drawn: no legend

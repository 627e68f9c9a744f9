"""The replay GIF: one frame per command (a long game sampled), a long hold on the last, under 8 MiB."""

import io

import pytest
from PIL import Image

from render.__main__ import main
from render.animate import HOLD_MS, MAX_BYTES, MAX_FRAMES, animate, sample
from solitaire import new_game
from solitaire.deals import numbered_deal


def long_won_game(idle_turns: int = 3) -> tuple:
    """A won draw-1 game: ``idle_turns`` turns of the stock (over 300 moves with 3), then the solution."""
    deal = numbered_deal("draw1", 1)
    idle = ["draw"] * 25 * idle_turns  # 24 draws show the stock, the 25th turns the waste over
    log = [(text, 0) for text in [*idle, *deal.solution]]
    return deal, log


def test_a_300_move_game_makes_one_frame_per_move_under_the_size_limit():
    deal, log = long_won_game()
    assert len(log) >= 300
    game = new_game("draw1", deck=deal.deck)
    animation = animate(game.rules, game.deck, log)
    assert animation.frames == len(log) + 1
    assert len(animation.data) < MAX_BYTES
    image = Image.open(io.BytesIO(animation.data))
    assert image.n_frames == animation.frames
    image.seek(image.n_frames - 1)
    assert image.info["duration"] == HOLD_MS
    image.seek(1)
    assert image.info["duration"] < HOLD_MS


def test_the_cli_writes_the_gif(tmp_path, capsys):
    out = tmp_path / "game.gif"
    assert main(["animate", "--variant", "draw3", "--seed", "0", "--moves", "draw draw 4-f", "--out", str(out)]) == 0
    assert Image.open(out).n_frames == 4
    assert "4 frames" in capsys.readouterr().out


def test_frames_of_different_heights_are_padded_so_the_final_sheet_is_not_cut():
    """A board's height follows its piles and a finished board adds the result below: the GIF keeps it all."""
    from render.animate import SCALE, game_views
    from render.board import draw_board

    deal, log = long_won_game()
    game = new_game("draw1", deck=deal.deck)
    heights = {draw_board(view).height for view in game_views(game.rules, game.deck, log)}
    assert len(heights) > 1  # the case this guards: boards of several heights
    image = Image.open(io.BytesIO(animate(game.rules, game.deck, log).data))
    assert image.size[1] == round(max(heights) * SCALE)


def test_a_3000_command_game_is_capped_in_frames_and_stays_under_8_mib():
    deal, log = long_won_game(idle_turns=111)
    assert len(log) >= 3000
    game = new_game("draw1", deck=deal.deck)
    animation = animate(game.rules, game.deck, log)
    assert animation.frames == MAX_FRAMES and len(animation.data) < MAX_BYTES < 8 * 2**20
    image = Image.open(io.BytesIO(animation.data))
    assert image.n_frames == MAX_FRAMES
    image.seek(image.n_frames - 1)
    assert image.info["duration"] == HOLD_MS  # the last board, with the result, is always kept


def test_a_gif_over_its_byte_cap_is_drawn_smaller():
    deal, log = long_won_game()
    game = new_game("draw1", deck=deal.deck)
    full = animate(game.rules, game.deck, log)
    capped = animate(game.rules, game.deck, log, max_bytes=len(full.data) // 3)
    assert len(capped.data) < len(full.data) // 3 and capped.scale < full.scale
    assert Image.open(io.BytesIO(capped.data)).size[0] < Image.open(io.BytesIO(full.data)).size[0]


def test_sampled_frames_keep_the_deal_and_the_end():
    assert sample(list(range(3002)), 400)[:2] == [0, 8] and sample(list(range(3002)), 400)[-1] == 3001
    assert sample([1, 2, 3], 400) == [1, 2, 3]


def test_the_cli_refuses_a_bad_deck_or_argument_in_one_line(tmp_path, capsys):
    out = str(tmp_path / "game.gif")
    assert main(["animate", "--variant", "DRAW3", "--deck", "AS AS", "--out", out]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: a deck needs 52 distinct cards") and err.count("\n") == 1
    with pytest.raises(SystemExit):
        main(["animate", "--variant", "draw3", "--seed", "x", "--out", out])
    err = capsys.readouterr().err
    assert err.startswith("error: argument --seed: invalid int value: 'x'") and err.count("\n") == 1

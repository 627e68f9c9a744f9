import subprocess
import sys
import tempfile

import pytest
from PIL import Image

from render import palette
from render.__main__ import main
from render.layout import PHONE_WIDTH, WIDTH

pytestmark = pytest.mark.processes  # real processes: left out of the fast loop


def test_main_writes_a_picture_per_variant_and_state(tmp_path, capsys):
    assert main(["--out", str(tmp_path), "--states", "fresh", "won", "--four-colour"]) == 0
    names = sorted(path.name for path in tmp_path.iterdir())
    assert names == sorted(
        f"{v}-{s}-4c.png" for v in ("draw1", "draw3", "goldrush", "friday13") for s in ("fresh", "won")
    )
    assert Image.open(tmp_path / "friday13-won-4c.png").size[0] == WIDTH
    assert "friday13-won-4c.png" in capsys.readouterr().out


def test_phone_adds_a_phone_sized_copy_of_each_picture(tmp_path):
    assert main(["--out", str(tmp_path), "--variants", "goldrush", "--states", "mid", "--phone"]) == 0
    assert sorted(path.name for path in tmp_path.iterdir()) == ["goldrush-mid-phone.png", "goldrush-mid.png"]
    full, phone = (Image.open(tmp_path / name) for name in ("goldrush-mid.png", "goldrush-mid-phone.png"))
    assert phone.size == (PHONE_WIDTH, round(full.size[1] * PHONE_WIDTH / full.size[0]))


def test_selected_and_target_mark_the_mid_game_pictures(tmp_path):
    args = ["--out", str(tmp_path), "--variants", "draw3", "--states", "fresh", "mid"]
    assert main([*args, "--selected", "w", "--target", "3"]) == 0
    assert main(args) == 0
    names = sorted(path.name for path in tmp_path.iterdir())
    assert names == ["draw3-fresh-selw-to3.png", "draw3-fresh.png", "draw3-mid-selw-to3.png", "draw3-mid.png"]
    alert = palette.index(palette.ALERT)
    for name, marked in (("draw3-mid-selw-to3.png", True), ("draw3-fresh-selw-to3.png", False)):
        colours = dict((i, n) for n, i in Image.open(tmp_path / name).getcolors(256) or [])
        assert (colours.get(alert, 0) > 900) is marked, name


def test_without_out_the_pictures_go_to_a_new_temporary_folder_never_over_the_docs(tmp_path, monkeypatch, capsys):
    docs = tmp_path / "docs" / "images"
    docs.mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "temp"))
    (tmp_path / "temp").mkdir()
    assert main(["--variants", "DRAW3", "--states", "fresh"]) == 0
    assert list(docs.iterdir()) == []
    [folder] = (tmp_path / "temp").iterdir()
    assert [path.name for path in folder.iterdir()] == ["draw3-fresh.png"]
    assert capsys.readouterr().out.startswith(f"writing to {folder} (--out DIR to choose the folder)\n")


def test_a_reader_that_stops_reading_ends_the_command_quietly(tmp_path):
    """``python -m render --out X | head -1``: the reader goes away after one line."""
    command = [sys.executable, "-m", "render", "--out", str(tmp_path), "--variants", "draw1", "draw3"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.readline().startswith(str(tmp_path))
    process.stdout.close()
    assert process.wait(timeout=120) == 141 and process.stderr.read() == ""


def test_an_argument_error_is_one_line(capsys):
    with pytest.raises(SystemExit):
        main(["--variants", "draw9"])
    err = capsys.readouterr().err
    assert err.startswith("error: argument --variants: invalid choice: 'draw9'") and err.count("\n") == 1

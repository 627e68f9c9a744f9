from PIL import Image

from render import palette
from render.__main__ import main
from render.layout import PHONE_WIDTH, WIDTH


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

from PIL import Image

from render.__main__ import main


def test_main_writes_a_picture_per_variant_and_state(tmp_path, capsys):
    assert main(["--out", str(tmp_path), "--states", "fresh", "won", "--four-colour"]) == 0
    names = sorted(path.name for path in tmp_path.iterdir())
    assert names == sorted(
        f"{v}-{s}-4c.png" for v in ("draw1", "draw3", "goldrush", "friday13") for s in ("fresh", "won")
    )
    assert Image.open(tmp_path / "friday13-won-4c.png").size[0] >= 1000
    assert "friday13-won-4c.png" in capsys.readouterr().out

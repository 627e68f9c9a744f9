"""The page's modules without a browser page: their ``node --test`` tests, and the shape of the page's code."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from bot.activity.page_words import speech_of
from languages import ENGLISH
from languages.pseudo import PSEUDO

HERE = Path(__file__).resolve().parent
STATIC = HERE.parents[3] / "bot" / "activity" / "static"
PAGE = sorted(path for path in STATIC.rglob("*.js") if "vendor" not in path.parts)
MAX_LINES = 250


def node_flags(node: str) -> list[str]:
    """The flags that make ``node`` read the page's ``.js`` files as the ES modules they are."""
    version = subprocess.run([node, "--version"], capture_output=True, text=True, check=True).stdout
    major = int(version.strip().lstrip("v").split(".")[0])
    return ["--experimental-default-type=module"] if major < 22 else ["--experimental-detect-module"]


@pytest.mark.processes  # node --test, a second or two
def test_the_pages_pure_modules_pass_their_node_tests(tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: Node 20 or later runs the page's module tests (node --test)")
    tests = [str(path) for path in sorted(HERE.glob("*.test.mjs"))]
    speeches = {"PAGE_SPEECH": speech_of(ENGLISH), "PAGE_SPEECH_PSEUDO": speech_of(PSEUDO)}
    for name, speech in speeches.items():
        (tmp_path / f"{name}.json").write_text(json.dumps(speech, ensure_ascii=False), encoding="utf-8")
    env = os.environ | {name: str(tmp_path / f"{name}.json") for name in speeches}
    result = subprocess.run(
        [node, *node_flags(node), "--test", *tests], capture_output=True, text=True, timeout=120, check=False, env=env
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]


def test_the_board_imports_nothing_of_the_app_and_the_controller_alone_sets_the_screen() -> None:
    board = [path for path in PAGE if path.parent.name == "board"]
    assert board
    for path in board:  # its own modules, and the page's words
        imports = re.findall(r'from "([^"]+)"', path.read_text(encoding="utf-8"))
        assert all(name.startswith("./") or name == "../speech.js" for name in imports), (path.name, imports)
    setters = [
        path.name for path in PAGE if re.search(r"(?<!dataset)\.screen\s*=[^=]", path.read_text(encoding="utf-8"))
    ]
    assert setters == ["controller.js"]


def test_the_page_parses_no_move_tests_no_family_and_keeps_its_files_short() -> None:
    files = [path for path in STATIC.rglob("*") if path.is_file() and "vendor" not in path.parts]
    assert all(len(path.read_text(encoding="utf-8").splitlines()) <= MAX_LINES for path in files), [
        path.name for path in files if len(path.read_text(encoding="utf-8").splitlines()) > MAX_LINES
    ]
    for path in PAGE:
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"""family\s*[!=]==|["'](klondike|friday13)["']""", text), path.name
        assert not re.search(r"""(split|indexOf)\(\s*["']-["']""", text), path.name

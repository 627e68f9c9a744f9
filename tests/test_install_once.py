"""``scripts/install-once`` (run by ``scripts/run-bot`` and ``scripts/test``) on a copy in a fake project.

Each case starts from a ``.venv`` a real failure leaves behind; the install is ``pip install pip``, which
the new ``.venv`` already satisfies: nothing is downloaded.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.processes  # new venvs and the install script

ROOT = Path(__file__).resolve().parents[1]
FAKE_310 = '#!/bin/sh\ncase "$*" in --version) echo "Python 3.10.12";; *) exit 1;; esac\n'
"""A Python 3.10 as far as install-once can tell: it names its version and fails every check."""


def project(tmp_path: Path) -> Path:
    """A copy of install-once in a project with an empty pyproject.toml."""
    root = tmp_path / "project"
    (root / "scripts").mkdir(parents=True)
    shutil.copy2(ROOT / "scripts" / "install-once", root / "scripts" / "install-once")
    (root / "pyproject.toml").write_text('[project]\nname = "fake"\nversion = "0"\n')
    return root


def executable(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return path


def install_once(root: Path, python: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHON": python}
    command = [str(root / "scripts" / "install-once"), "pip"]
    return subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, timeout=300, check=False)


def works(root: Path) -> bool:
    """Whether the project's .venv runs pip."""
    python = root / ".venv" / "bin" / "python"
    return subprocess.run([str(python), "-m", "pip", "--version"], capture_output=True, check=False).returncode == 0


@pytest.mark.parametrize("left_behind", ["a-broken-python", "no-pip", "python-3.10"])
def test_a_venv_a_failed_first_install_left_is_rebuilt(tmp_path, left_behind):
    root = project(tmp_path)
    if left_behind == "a-broken-python":
        executable(root / ".venv" / "bin" / "python", "#!/bin/sh\nexit 1\n")  # its Python was removed since
    elif left_behind == "python-3.10":
        executable(root / ".venv" / "bin" / "python", FAKE_310)
    else:  # no python3-venv: venv made the folder, then failed to install pip into it
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root / ".venv")], check=True)
    done = install_once(root, sys.executable)
    assert done.returncode == 0, done.stderr
    assert "install-once: .venv is broken or too old" in done.stderr and "rebuilding it" in done.stderr
    assert works(root)
    again = install_once(root, sys.executable)  # the stamp: nothing to do the second time
    assert again.returncode == 0 and again.stdout == again.stderr == ""


def test_without_python_3_11_it_says_what_to_do_and_leaves_no_venv(tmp_path):
    root = project(tmp_path)
    python = executable(tmp_path / "bin" / "python3.10", FAKE_310)
    done = install_once(root, str(python))
    assert done.returncode == 1 and not (root / ".venv").exists()
    assert done.stderr.startswith("install-once: Python 3.11 or newer is needed (found: Python 3.10.12); README.md")

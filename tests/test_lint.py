"""The code's habits, held by tools: ruff (pyproject.toml's [tool.ruff]) on every Python file, and
mypy on the player as it is installed (scripts/typecheck.py). Both come with the test extra."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_ruff_finds_nothing():
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise", "."],
                          cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_finds_nothing_in_the_player():
    done = subprocess.run([sys.executable, str(REPO / "scripts" / "typecheck.py")], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success: no issues found" in done.stdout

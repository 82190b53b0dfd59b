"""mypy on the player, as it is installed: ``python scripts/typecheck.py`` (``.ci/run`` runs it).

The repository keeps ``player/`` and ``compiler/`` at its root and pyproject.toml maps them into the
``guesstree`` package at install, a mapping mypy cannot read (the editable install is an import
hook). So mypy reads a temporary folder of links that lays the package out as it is installed (the
same files, nothing copied) and checks ``guesstree.player``, the runtime and its public API, with
the settings of pyproject.toml's ``[tool.mypy]``. Extra arguments go to mypy; its exit code is ours.
"""
from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYOUT = {"__init__.py": ROOT / "guesstree" / "__init__.py", "player": ROOT / "player", "compiler": ROOT / "compiler"}


def lay_out(folder: Path) -> None:
    """``folder/guesstree``: the package as installed, in links to the checkout's files (the docs'
    API reference reads the same, docs/hooks/api_source.py)."""
    package = folder / "guesstree"
    package.mkdir()
    for name, target in LAYOUT.items():
        (package / name).symlink_to(target)


def main(arguments: list[str]) -> int:
    with tempfile.TemporaryDirectory(prefix="guesstree-types-") as folder:
        lay_out(Path(folder))
        command = [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
                   "--cache-dir", str(Path(folder) / "cache"), "-p", "guesstree.player", *arguments]
        return subprocess.run(command, cwd=folder).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

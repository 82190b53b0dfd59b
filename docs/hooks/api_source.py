"""MkDocs hook: lets mkdocstrings read ``guesstree.player`` and ``guesstree.compiler`` from source.

The repository keeps ``player/`` and ``compiler/`` at its root and pyproject.toml maps them into
the ``guesstree`` package at install; griffe, which reads the source for mkdocstrings, finds only
``guesstree/`` there. So the build reads from a temporary folder of links that lays the package
out as it is installed (the same files, nothing copied), given to the Python handler as its path.
"""
from __future__ import annotations

import tempfile
from pathlib import Path

from mkdocs.plugins import event_priority

ROOT = Path(__file__).resolve().parents[2]
LAYOUT = {"__init__.py": ROOT / "guesstree" / "__init__.py", "player": ROOT / "player", "compiler": ROOT / "compiler"}
_folder = tempfile.TemporaryDirectory(prefix="guesstree-api-")  # removed when the build's process ends


def package_folder() -> str:
    """The folder that holds ``guesstree/`` laid out as installed (made once per process)."""
    package = Path(_folder.name) / "guesstree"
    if not package.exists():
        package.mkdir()
        for name, target in LAYOUT.items():
            (package / name).symlink_to(target)
    return _folder.name


@event_priority(100)  # before mkdocstrings' on_config, which reads the handler's paths
def on_config(config):
    handler = config.plugins["mkdocstrings"].config.handlers.setdefault("python", {})
    handler["paths"] = [package_folder()]
    return config

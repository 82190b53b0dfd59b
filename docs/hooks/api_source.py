"""MkDocs hook: lets mkdocstrings read ``guesstree.player`` and ``guesstree.compiler`` from source.

The repository keeps ``player/`` and ``compiler/`` at its root and pyproject.toml maps them into
the ``guesstree`` package at install; griffe, which reads the source for mkdocstrings, finds only
``guesstree/`` there. So the build reads from a temporary folder of links that lays the package
out as it is installed (the same files, nothing copied), given to the Python handler as its path.
"""
from __future__ import annotations

import importlib.util
import tempfile
from pathlib import Path

from mkdocs.plugins import event_priority

ROOT = Path(__file__).resolve().parents[2]
_folder = tempfile.TemporaryDirectory(prefix="guesstree-api-")  # removed when the build's process ends


def _lay_out():
    """scripts/typecheck.py's ``lay_out``, which makes the same layout for mypy (a script, not a module)."""
    spec = importlib.util.spec_from_file_location("typecheck", ROOT / "scripts" / "typecheck.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.lay_out


def package_folder() -> str:
    """The folder that holds ``guesstree/`` laid out as installed (made once per process)."""
    if not (Path(_folder.name) / "guesstree").exists():
        _lay_out()(Path(_folder.name))
    return _folder.name


@event_priority(100)  # before mkdocstrings' on_config, which reads the handler's paths
def on_config(config):
    handler = config.plugins["mkdocstrings"].config.handlers.setdefault("python", {})
    handler["paths"] = [package_folder()]
    return config

"""guesstree: precomputed decision trees for Mastermind-style code-breaking games.

    from guesstree import player                 # the runtime: msgpack and zstandard, nothing more
    tree = player.load_shipped("mastermind-c6-h4-entropy")
    tree.next_guess([])                          # (0, 1, 2, 3): ABCD, the entropy tree's first guess
    from guesstree import compiler               # the offline compiler: pip install 'guesstree[compiler]'

The repository keeps ``player/`` and ``compiler/`` at its root; ``pyproject.toml`` maps them into
this package. ``guesstree.player`` and ``guesstree.compiler`` are imported on first use, so that
``import guesstree`` costs nothing.
"""
from importlib import import_module

__version__ = "0.1.0"  # the one place: pyproject.toml reads it, a test holds package.json equal to it

__all__ = ["player", "compiler", "__version__"]


def __getattr__(name: str):
    if name in ("player", "compiler"):
        return import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'guesstree' has no attribute {name!r}")

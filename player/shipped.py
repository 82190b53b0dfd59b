"""The trees shipped with guesstree, as package data: listed by name, loaded from anywhere.

    >>> from guesstree import player
    >>> "mastermind-c6-h4-entropy" in player.shipped()
    True
    >>> player.load_shipped("mastermind-c6-h4-entropy").next_guess([])
    (0, 1, 2, 3)

In a checkout they are the files of ``trees/``; an installed package carries the same files.
"""
from __future__ import annotations

from .data import trees_folder as _folder
from .tree import SHIPPED, Tree, loads

SUFFIX = ".msgpack.zst"


def shipped() -> list[str]:
    """The names of the shipped trees (their file names without ``.msgpack.zst``), sorted."""
    return sorted(entry.name[:-len(SUFFIX)] for entry in _folder().iterdir()
                  if entry.name.endswith(SUFFIX) and entry.is_file())


def listing() -> list[dict]:
    """One row per shipped tree, by name: its game as people write it, strategy, secrets, average
    and worst guesses to win, and its file (what ``guesstree trees`` prints)."""
    rows = []
    for name in shipped():
        tree = load_shipped(name)
        stats = tree.stats
        rows.append({"name": name, "game": str(tree.game), "strategy": tree.strategy["name"],
                     "secrets": stats["secrets"], "average": round(stats["average"], 4), "worst": stats["worst"],
                     "file": str(_folder() / (name + SUFFIX))})
    return rows


def load_shipped(name: str) -> Tree:
    """Load the shipped tree ``name`` (as ``shipped()`` lists it; the ``.msgpack.zst`` may be given)."""
    if not isinstance(name, str):
        raise TypeError(f"a shipped tree's name is a string, not {type(name).__name__}")
    stem = name[:-len(SUFFIX)] if name.endswith(SUFFIX) else name
    names = shipped()
    if stem not in names:
        raise ValueError(f"no shipped tree is named {name!r}; choose from {', '.join(names)}")
    entry = _folder() / (stem + SUFFIX)
    return loads(entry.read_bytes(), SHIPPED + stem)

"""Where the package's data lies: the shipped trees and the opening book (standard library only)."""
from __future__ import annotations

from importlib import resources
from pathlib import Path


def trees_folder():
    """The installed package's ``player/trees``; in a checkout (an editable install too), ``trees/``."""
    try:
        return resources.files("guesstree.player.trees")
    except ModuleNotFoundError:
        return Path(__file__).resolve().parent.parent / "trees"

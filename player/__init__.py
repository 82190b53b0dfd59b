"""guesstree's runtime: load a compiled decision tree and ask it for the next guess.

    >>> from guesstree import player
    >>> tree = player.load("trees/mastermind-c6-h4-entropy.msgpack.zst")
    >>> tree.next_guess([])
    (0, 1, 2, 3)
    >>> player.shipped()[:2], player.load_shipped("mastermind-c6-h4-entropy").stats["total"]
    (['bulls-cows-d10-l3-optimal-expected', 'bulls-cows-d10-l4-entropy'], 5722)

Only the standard library, msgpack and zstandard are imported here.
"""
from .format import FormatError
from .games import Code, Feedback, Game, make_game
from .shipped import load_shipped, shipped
from .tree import History, InconsistentHistory, Tree, load, loads

from guesstree import __version__  # one version, held in guesstree/__init__.py

__all__ = ["load", "loads", "Tree", "Game", "make_game", "Code", "Feedback", "History",
           "FormatError", "InconsistentHistory", "shipped", "load_shipped", "__version__"]

"""guesstree's runtime: load a compiled decision tree and ask it for the next guess.

    >>> import player
    >>> tree = player.load("trees/mastermind-c6-h4-entropy.msgpack.zst")
    >>> tree.next_guess([])
    (0, 1, 2, 3)

Only the standard library, msgpack and zstandard are imported here.
"""
from .artifact import FormatError
from .games import Code, Feedback, Game, make_game
from .tree import History, InconsistentHistory, Tree, load, loads

__version__ = "0.1.0"

__all__ = ["load", "loads", "Tree", "Game", "make_game", "Code", "Feedback", "History",
           "FormatError", "InconsistentHistory", "__version__"]

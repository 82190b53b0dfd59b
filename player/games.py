"""The games by name: the built-in ones, plugins (``module:factory``), and rebuilding a game from
the spec an artifact records.

    >>> from guesstree.player.games import make_game
    >>> make_game("mastermind", colours=6, holes=4).title()
    'Mastermind, 6 colours, 4 holes'

A new built-in game is a module beside this one and a line in ``GAMES``: everything the tools
ask of a game (its command-line options, titles, file names, help) is a method of ``Game``.
"""
from __future__ import annotations

import importlib
import os
import sys

from .game import Code, Feedback, Game
from .pegs import BullsCows, Digits, Mastermind
from .twod import TwoD
from .words import Words

GAMES: dict[str, type[Game]] = {
    "mastermind": Mastermind,
    "bulls-cows": BullsCows,
    "digits": Digits,
    "twod": TwoD,
    "words": Words,
}


def make_game(name: str, **params) -> Game:
    """Build a game by CLI name (``mastermind``) or plugin path (``package.module:factory``)."""
    if name in GAMES:
        try:
            return GAMES[name](**params)
        except TypeError:
            accepted = ", ".join(GAMES[name].parameters) or "no parameters"
            raise ValueError(f"bad parameters for {name}: {', '.join(params)} (it takes {accepted})") from None
    if ":" in name:
        return _plugin(name, params)
    raise ValueError(f"unknown game: {name!r}; {_did_you_mean(name)}")


# Games people know by another name: the name here, and how to play it (what the name alone misses)
KNOWN_AS = {
    "wordle": ("words", "Wordle is words with its lists: --answers tests/data/wordle/wordlist_orig_hidden --guesses "
                        "tests/data/wordle/wordlist_orig_all, in guesstree's source; guesstree play "
                        "wordle-salet-optimal-expected plays the shipped tree"),
    "bulls-and-cows": ("bulls-cows", ""), "cows-and-bulls": ("bulls-cows", ""), "moo": ("bulls-cows", ""),
}


def _did_you_mean(name: str) -> str:
    """The rest of an unknown game's line: the game it may mean (``KNOWN_AS``, else the nearest
    names), or the games there are, as ``catalogue.canonical`` says of an unknown strategy."""
    import difflib

    lowered = name.strip().lower()
    if lowered in GAMES:
        return f"did you mean {lowered}? (game names are lower case)"
    if lowered in KNOWN_AS:
        meant, how = KNOWN_AS[lowered]
        return f"did you mean {meant}?{f' {how}' if how else ''}"
    close = difflib.get_close_matches(lowered, [*GAMES, *KNOWN_AS], n=2, cutoff=0.6)
    close = list(dict.fromkeys(KNOWN_AS[c][0] if c in KNOWN_AS else c for c in close))
    if close:
        return f"did you mean {' or '.join(close)}? (guesstree list shows them all)"
    return f"choose from {', '.join(GAMES)}, or module:factory"


def game_from_spec(spec: dict) -> Game:
    return make_game(spec["name"], **spec.get("params", {}))


def _import(module_name: str):
    """Import a plugin module, also from the current folder (as ``python -m`` would): the
    ``guesstree`` command's own folder is on ``sys.path``, the user's is not."""
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        here = os.getcwd()
        if error.name != module_name.partition(".")[0] or here in sys.path:
            raise
    sys.path.append(here)
    return importlib.import_module(module_name)


def _plugin(path: str, params: dict) -> Game:
    module_name, _, factory_name = path.partition(":")
    try:
        module = _import(module_name)
    except ImportError as error:
        raise ValueError(f"cannot import game plugin module {module_name!r}: {error}") from None
    except Exception as error:  # the plugin's own code failed as it was imported: its fault, said in a line
        raise ValueError(f"cannot import game plugin module {module_name!r}: it raised {_said(error)}") from None
    factory = getattr(module, factory_name, None)
    if not callable(factory):
        raise ValueError(f"game plugin {path!r}: {module_name} has no callable {factory_name!r}")
    try:
        game = factory(**params)
    except TypeError as error:
        raise ValueError(f"bad parameters for game plugin {path!r}: {error}") from None
    except Exception as error:
        raise ValueError(f"game plugin {path!r}: its factory {factory_name}() raised {_said(error)}") from None
    if not isinstance(game, Game):
        raise ValueError(f"game plugin {path!r} returned {type(game).__name__}, not a player.games.Game")
    game.name = path  # the spec must rebuild it through the same factory
    return game


def _said(error: Exception) -> str:
    """An exception of a plugin's code as a person reads it: ``RuntimeError: no board today``."""
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


__all__ = ["GAMES", "Game", "Code", "Feedback", "Mastermind", "Digits", "BullsCows", "TwoD", "Words",
           "make_game", "game_from_spec"]

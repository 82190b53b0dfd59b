"""The ``guesstree`` command line: a thin shell over the library.

The player's commands only read trees and never import the compiler: ``playing.py`` play, solve
and next; ``reading.py`` info and trees; ``checking.py`` verify and manifest; ``exporting.py``
export; ``app.py`` the app they are added to, what they share, and ``main``
(``player/program.py`` gives the program its shape). Other installed packages add commands to
the same program through the ``guesstree.commands`` entry points: the compiler adds compile,
bound, compare, list, openers and warm (``compiler/cli/``), loaded only when one of them runs or
help lists them.
"""
from __future__ import annotations

from . import checking, exporting, playing, reading  # noqa: F401 (each adds its commands to the app)
from .app import app, main

__all__ = ["app", "main"]

"""The compiler's commands (compile, compare, list, bound, openers, warm), added to the one
``guesstree`` program through the ``guesstree.commands`` entry points (see ``player/cli/``):
``app.py`` their app and first checks, ``parameters.py`` the options they share, ``build.py``
compile, compare and list, ``exact.py`` bound and openers, ``stops.py`` how their work fails or
stops, ``progress.py`` what a long command shows. Each parses, prints and exits over a library
call a Python user can make too (``guesstree.compiler``: ``build``, ``compare``, ``bound``,
``rank_openers``).

Importing this package imports neither numpy nor numba: a base install (the player alone) lists
these commands in its help, and running one says which extra to install.
"""
from __future__ import annotations

import typer

from . import build, exact, review  # noqa: F401 (each adds its commands to the app)
from .app import EXTRA, NEEDS_NOTHING, app, missing_dependency


def commands() -> dict:
    """This package's commands as click commands, by name (what the entry points load); where the
    compiler's dependencies are missing, the help of those that need them says so first."""
    found = dict(typer.main.get_command(app).commands)
    if missing_dependency() is not None:
        for name, command in found.items():
            if name not in NEEDS_NOTHING:
                command.short_help = f"(needs {EXTRA}) {command.get_short_help_str()}"
    return found


def main() -> None:
    """``python -m guesstree.compiler``: the whole program, as ``guesstree``."""
    from guesstree.player.cli import main as program

    program()

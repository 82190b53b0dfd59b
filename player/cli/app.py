"""The player's app: the ``guesstree`` program's own options, what its commands share (a TREE
argument and ``load_or_fail``, ``--plugin``), and ``main``, which runs it."""
from __future__ import annotations

import atexit
import difflib
import os
import sys
import threading
from pathlib import Path

import typer

from .. import FormatError, __version__, load
from ..program import Command, Program, fail

app = typer.Typer(
    cls=Program, no_args_is_help=True, rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
    help="Precomputed decision trees for Mastermind-style games: compile, play, verify.",
)


def _version(show: bool) -> None:
    if show:
        typer.echo(f"guesstree {__version__}")
        raise typer.Exit()


@app.callback()
def _program(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                          help="print the version and exit")) -> None:
    """Precomputed decision trees for Mastermind-style games: compile, play, verify.

    Commands: play, solve, next, review (a game's moves graded), info (what a tree does and
    holds), verify, manifest, export, trees (the shipped ones), list (the games and strategies);
    compile (a strategy's whole tree), bound (the optimal worst case), compare (strategies side by
    side), openers, warm.
    """


def command(*args, cls=Command, **kwargs):
    """``app.command`` with this program's help style (``cls``: a ``program.Command``)."""
    return app.command(*args, cls=cls, **kwargs)


PLUGIN = typer.Option(None, "--plugin", metavar="MODULE",
                      help="trust this plugin game module (repeatable; default: $GUESSTREE_PLUGINS)")
TREE = typer.Argument(..., metavar="TREE", help="artifact (.msgpack.zst), or the name of a shipped tree "
                                                  "(e.g. wordle-salet-optimal-expected)")


def load_or_fail(path: Path, plugins: list[str] | None = None):
    """The tree a TREE argument names: the artifact at ``path``, or where no such file exists and
    the name has no folder, the shipped tree of that name (``player.shipped()``)."""
    from ..shipped import SUFFIX, load_shipped, shipped

    names = shipped() if not path.exists() and path.parent == Path(".") else []
    named = path.name.removesuffix(SUFFIX) in names
    try:
        return load_shipped(path.name) if named else load(path, plugins=plugins or None)
    except FormatError as error:
        hint = ""
        if names and not named:
            near = difflib.get_close_matches(path.name.removesuffix(SUFFIX), names, n=1, cutoff=0.6)
            hint = f"; nor is it a shipped tree's name ({f'did you mean {near[0]}? ' if near else ''}guesstree trees lists them)"
        raise fail(f"{error}{hint}") from None


def paired(words: list[str], game, example) -> list[tuple[str, str]]:
    """The words that follow a tree (or a game) as (guess, feedback) pairs, oldest first; a guess
    without its feedback is the user's mistake, named with an example (``example``: a guess)."""
    if len(words) % 2:
        raise fail(f"give each guess with its feedback (e.g. {game.format_code(example)} "
                   f"{game.format_feedback(game.feedbacks()[0])}): {words[-1]!r} has none")
    return list(zip(words[::2], words[1::2]))


def main() -> None:
    try:
        app(prog_name="guesstree")
    except SystemExit as done:
        code = done.code
    else:
        code = 0
    if "numba" in sys.modules and threading.active_count() == 1:
        _end_now(code)
    sys.exit(code)


def _end_now(code) -> None:
    """End without the interpreter's teardown: once numba has loaded compiled code, tearing down
    takes 0.13 s, which a 1-second command would spend freeing memory that the system takes back
    anyway. What must happen at exit still does: the exit handlers, and the output flushed."""
    if code is not None and not isinstance(code, int):
        print(code, file=sys.stderr)
        code = 1
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe: nothing more can be said there
            pass
    os._exit(code or 0)

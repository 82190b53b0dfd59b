"""The compiler's commands' one app, and what every command that computes checks first: that the
compiler's dependencies are installed, and that numba's cache holds no kernel compiled from other
sources (``compiler.warm``)."""
from __future__ import annotations

import importlib.util

import typer

from guesstree.player.program import Command, fail

app = typer.Typer(rich_markup_mode=None)
EXTRA = "guesstree[compiler]"


NEEDS_NOTHING = ("list", "review")  # the commands that run on a player-only install too (review: from a tree)


def missing_dependency() -> str | None:
    """The first of the compiler's dependencies that is not installed, found without importing
    it (numba takes a while, and small games never load it)."""
    for name in ("numpy", "numba"):
        try:
            found = importlib.util.find_spec(name) is not None
        except ValueError:  # in sys.modules as None: blocked, as on a base install
            found = False
        if not found:
            return name
    return None


def need_compiler(warm: bool = True):
    """Check that the compiler's dependencies are installed, or say in one line which extra brings
    them; then clear numba's cache if it was compiled from other kernel sources (``warm.ensure_fresh``:
    nothing is compiled ahead, and numba is not loaded when the cache is fresh). Numba starts
    without its cffi typing in this process (``engine.numba_start``)."""
    missing = missing_dependency()
    if missing is not None:
        raise fail(f"this command needs the compiler's dependencies ({missing} is missing): pip install '{EXTRA}'")
    from ..engine.numba_start import numba_without_cffi
    from ..warm import ensure_fresh

    numba_without_cffi()
    if warm:
        ensure_fresh()


@app.command("warm", cls=Command)
def warm_command() -> None:
    """Compile all the compiler's kernels for this machine now (about a minute, once), so that no
    later compile, bound or compare stops to compile one (each compiles what it runs otherwise).

    Example: guesstree warm
    """
    need_compiler(warm=False)
    from ..warm import warm

    warm(say=lambda text: typer.echo(text, err=True))

"""How a command's work fails or stops: every error as one line and its exit code (``failures``),
a stopped search's message (exit 130), and SIGTERM taken as Ctrl-C (``terminate_as_interrupt``)."""
from __future__ import annotations

import contextlib
import errno
import os
import signal
import sys
import threading
from concurrent.futures import BrokenExecutor

import typer
from guesstree.player.cli import fail
from guesstree.player.games import Game


@contextlib.contextmanager
def failures(command: str, game: Game, doing: str, advice: str, os_said=None):
    """Every way a command's work fails, as one line and its exit code (the one mapping from errors
    to exit codes): a stopped search 130, with where its work is; anything else 2. ``doing`` and
    ``advice``: what a worker that died or memory that ran out interrupted, and what helps;
    ``os_said(error)``: what another system error says (default: that ``game`` could not be built)."""
    try:
        yield
    except _raised_by("search.solver", "Interrupted") as interrupted:  # (looked up as it is raised)
        raise _stopped(interrupted, command) from None
    except KeyboardInterrupt:
        raise _stopped(None, command) from None
    except _raised_by("workers.cluster", "ClusterError") as error:  # with where the search's work was saved
        saved = "" if error.checkpoint is None else \
            f"; the search's work is saved in {error.checkpoint} (run the same {command} command with --resume)"
        raise fail(f"{error}{saved}") from None
    except BrokenExecutor:
        raise fail(f"a worker process died while {doing} {game!r} (out of memory, or killed)") from None
    except ValueError as error:
        raise fail(str(error)) from None
    except (MemoryError, OSError) as error:  # OSError: a mapping or a process the system refused
        if isinstance(error, MemoryError) or error.errno in (errno.ENOMEM, errno.EAGAIN):
            raise fail(f"out of memory {doing} {game!r}: {advice}") from None
        said = os_said(error) if os_said is not None else f"cannot build {game!r}: {error.strerror or error}"
        raise fail(said) from None


def _raised_by(module: str, name: str) -> type:
    """The compiler's ``module``'s exception ``name`` where that module is loaded (only it raises
    it), else one nothing raises: importing search.solver ahead would load numba for a small build."""
    loaded = sys.modules.get(f"{__package__.rpartition('.')[0]}.{module}")
    return getattr(loaded, name) if loaded is not None else _NeverRaised


class _NeverRaised(Exception):
    pass


def _stopped(interrupted, command: str) -> typer.Exit:
    """Say on stderr that ``command``'s search was stopped, and where its work is saved (if
    ``interrupted`` says); exit 130."""
    if interrupted is None or interrupted.checkpoint is None:
        typer.echo("\ninterrupted: the search's work is lost (give --checkpoint FILE to keep it)", err=True)
    else:
        typer.echo(f"\ninterrupted: {interrupted.work} is saved in {interrupted.checkpoint}; run the same "
                   f"{command} command with --resume to continue", err=True)
    return typer.Exit(130)


@contextlib.contextmanager
def terminate_as_interrupt():
    """SIGTERM (a job's time limit, a service stopping) stops a search as Ctrl-C does: its jobs
    stopped, its checkpoint saved, its shared memory freed (``_interrupt`` handles both signals)."""
    try:
        previous = {sig: signal.signal(sig, _interrupt) for sig in (signal.SIGTERM, signal.SIGINT)}
    except ValueError:  # not the main thread (an embedding program): leave its handlers alone
        yield
        return
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _interrupt(signum: int, frame) -> None:
    """Raise KeyboardInterrupt; but a signal arriving while numba compiles, inside one of
    llvmlite's ctypes callbacks (where Python prints a raised exception and drops it), is sent
    again a moment later, once the callback has returned."""
    while frame is not None:
        if "llvmlite" in frame.f_code.co_filename:  # within a callback from llvm, or under one
            threading.Timer(0.05, os.kill, (os.getpid(), signum)).start()
            return
        frame = frame.f_back
    raise KeyboardInterrupt

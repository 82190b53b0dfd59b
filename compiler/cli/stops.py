"""How a command's work fails or stops: every error as one line and its exit code (``failures``),
a stopped search's message (exit 130), and SIGTERM taken as Ctrl-C (``terminate_as_interrupt``)."""
from __future__ import annotations

import contextlib
import errno
import os
import signal
import socket
import sys
import threading
from concurrent.futures import BrokenExecutor

import typer

from guesstree.player.program import fail
from guesstree.player.games import Game


@contextlib.contextmanager
def failures(command: str, game: Game, doing: str, advice: str, os_said=None):
    """Every way a command's work fails, as one line and its exit code (the one mapping from errors
    to exit codes): a stopped search 130, with where its work is; anything else 2. ``doing`` and
    ``advice``: what a worker that died or memory that ran out interrupted, and what helps;
    ``os_said(error)``: what another system error says (default: that ``game`` could not be built)."""
    from ..search.problem import STOPS  # (numpy's, never numba's)

    try:
        yield
    except _raised_by("search.solver", "Interrupted") as interrupted:  # (looked up as it is raised)
        raise _stopped(interrupted, command) from None
    except STOPS:
        raise _stopped(None, command) from None
    except _raised_by("workers.cluster", "ClusterError") as error:  # with where the search's work was saved
        saved = "" if error.checkpoint is None else \
            f"; the search's work is saved in {error.checkpoint} (run the same {command} command with --resume)"
        raise fail(f"{error}{saved}") from None
    except BrokenExecutor:
        raise fail(f"a worker process died while {doing} {game.title()} (out of memory, or killed)") from None
    except ValueError as error:
        raise fail(str(error)) from None
    except (MemoryError, OSError) as error:  # OSError: a mapping or a process the system refused
        if isinstance(error, MemoryError) or error.errno in (errno.ENOMEM, errno.EAGAIN):
            raise fail(f"out of memory {doing} {game.title()}: {advice}") from None
        said = os_said(error) if os_said is not None else f"cannot build {game.title()}: {error.strerror or error}"
        raise fail(said) from None


def stops() -> tuple:
    """What a stopped command's work raises (``except stops():``, evaluated only once one is raised,
    so that a command's module imports no numpy): KeyboardInterrupt, or a compiled search's ``Stopped``."""
    from ..search.problem import STOPS

    return STOPS


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
        typer.echo("interrupted: the search's work is lost (give --checkpoint FILE to keep it)", err=True)
    else:
        typer.echo(f"interrupted: {interrupted.work} is saved in {interrupted.checkpoint}; run the same "
                   f"{command} command with --resume to continue", err=True)
    return typer.Exit(130)


@contextlib.contextmanager
def terminate_as_interrupt():
    """SIGTERM (a job's time limit, a service stopping) stops a search as Ctrl-C does: its jobs
    stopped, its checkpoint saved, its shared memory freed (``_Stops`` handles both signals)."""
    try:
        stops = _Stops()
    except ValueError:  # not the main thread (an embedding program): leave its handlers alone
        yield
        return
    try:
        yield
    finally:
        stops.close()


class _Stops:
    """Ctrl-C and SIGTERM, while a command works: "stopping..." said at once, every search of the
    process told to stop (``problem.stop_all``), and KeyboardInterrupt raised in the main thread.
    Python runs a signal's handler in the main thread only between two of its instructions, never
    while that thread is inside a compiled search (numba), which may last minutes: so the signal's
    number also wakes a thread of ours (``signal.set_wakeup_fd``), which says it and sets the
    searches' stop flags at once; the compiled search then raises ``Stopped`` within a guess's
    weighing, and the handler runs."""

    SIGNALS = (signal.SIGTERM, signal.SIGINT)

    def __init__(self):
        self._said = threading.Lock()  # taken by the first signal, never released: "stopping..." once
        self._printed = threading.Event()  # ... and said before anything the stop itself says
        self._previous = {sig: signal.signal(sig, self._interrupt) for sig in self.SIGNALS}
        self._reader, self._writer = socket.socketpair()
        self._writer.setblocking(False)
        self._wakeup = signal.set_wakeup_fd(self._writer.fileno(), warn_on_full_buffer=False)
        self._thread = threading.Thread(target=self._watch, name="guesstree-stops", daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        if hasattr(signal, "pthread_sigmask"):  # the signals go to the main thread (``pool._interrupts_held``)
            signal.pthread_sigmask(signal.SIG_BLOCK, self.SIGNALS)
        while received := self._reader.recv(64):
            if any(number in self.SIGNALS for number in received):
                self._stop()

    def _stop(self) -> None:
        from ..search.problem import stop_all

        stop_all()
        if self._said.acquire(blocking=False):
            typer.echo("\nstopping...", err=True)
            self._printed.set()

    def _interrupt(self, signum: int, frame) -> None:
        """Raise KeyboardInterrupt, unless the main thread is already handling a stop (a compiled
        search's ``Stopped`` or the first KeyboardInterrupt: its checkpoint is being saved, its
        workers stopped). A signal arriving while numba compiles, inside one of llvmlite's ctypes
        callbacks (where Python prints a raised exception and drops it), is sent again a moment
        later, once the callback has returned."""
        from ..search.problem import STOPS

        self._stop()
        self._printed.wait(1.0)  # (said by the watching thread, perhaps: first all the same)
        while frame is not None:
            if "llvmlite" in frame.f_code.co_filename:  # within a callback from llvm, or under one
                threading.Timer(0.05, os.kill, (os.getpid(), signum)).start()
                return
            frame = frame.f_back
        if not isinstance(sys.exc_info()[1], STOPS):
            raise KeyboardInterrupt

    def close(self) -> None:
        signal.set_wakeup_fd(self._wakeup)
        for sig, handler in self._previous.items():
            signal.signal(sig, handler)
        self._writer.close()  # the watching thread reads the end, and ends
        self._thread.join(1.0)
        self._reader.close()

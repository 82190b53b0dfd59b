"""Worker processes, for the builder's subtrees (the exhaustive searches' jobs run on threads:
``search/jobs.py``, or on the worker processes of a Dask cluster: ``cluster.py``).

Workers are started with ``spawn``, the one start method that Linux, macOS and Windows all have
(macOS warns against ``fork``, Windows has none). A spawned worker starts from nothing: it
rebuilds its state once, from a recipe (``setup(*args)``: a game spec and options, say), and
big arrays reach it through named shared memory (``shared.SharedArray``), so that every worker reads
the same pages instead of a copy each.
"""
from __future__ import annotations

import ctypes
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import threading
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from multiprocessing.connection import Connection
from collections.abc import Callable, Iterator


@contextmanager
def main_unseen():
    """Spawn a worker without the parent's main module: by default a spawned worker imports it
    again, which runs a script's top-level code (one without an ``if __name__ == "__main__"``
    guard would start workers of its own) or fails for a script read from standard input. Every
    function a worker runs lives in the compiler's modules, so it needs nothing from there."""
    main = sys.modules.get("__main__")
    saved = {key: main.__dict__[key] for key in ("__file__", "__spec__") if main is not None and key in main.__dict__}
    for key in saved:
        setattr(main, key, None) if key == "__spec__" else delattr(main, key)
    try:
        yield
    finally:
        for key, value in saved.items():
            setattr(main, key, value)


class WorkerPool:
    """``workers`` spawned processes, each holding ``setup(*setup_args)``; ``map_unordered(job, jobs)``
    runs ``job(state, *args)`` for each ``args`` of ``jobs`` in one of them (``job`` a module-level
    function).

    Each worker talks to its parent over a pipe of its own, and nothing else: no queue, lock or
    semaphore that a killed process could leave behind in ``/dev/shm``, and no manager thread to
    race with a Ctrl-C. A worker ends with its parent however the parent ends: ``close`` stops it
    (``finally`` runs it on an exception, Ctrl-C and SIGTERM included), and a parent killed outright
    (SIGKILL, the out-of-memory killer) is noticed by the worker itself (``_exit_with_parent``)."""

    def __init__(self, workers: int, setup: Callable, *setup_args):
        if workers < 1:
            raise ValueError(f"a worker pool needs at least 1 worker, not {workers}")
        context = multiprocessing.get_context("spawn")
        self.workers = workers
        self._workers: list[tuple[multiprocessing.Process, Connection]] = []
        self._stale: set[Connection] = set()  # workers still running a job whose answer nobody awaits
        try:
            with main_unseen(), _interrupts_held():  # start them all now: a spawned worker takes a while to import
                for _ in range(workers):
                    ours, theirs = context.Pipe()
                    process = context.Process(target=_serve, args=(theirs, setup, setup_args),
                                              name="guesstree-worker", daemon=True)
                    process.start()
                    theirs.close()  # the worker's end lives in the worker only: its death is our EOF
                    self._workers.append((process, ours))
        except BaseException:
            self.close()
            raise

    @staticmethod
    def reporter(value) -> None:
        """A running job's way to tell its progress (``report``), handed to the jobs."""
        report(value)

    def map_unordered(self, job: Callable, jobs: list, progress: Callable | None = None) -> Iterator[tuple[int, object]]:
        """``(index, job(state, *jobs[index]))`` as each finishes, the jobs sent in order to the
        workers as they come free; ``progress(index, value)`` for each ``report(value)`` a running
        job makes. A job's exception is raised here; a worker that dies raises
        ``BrokenProcessPool``. Left early (an error, or not read to the end), the jobs still
        running finish in their workers, and their answers are dropped."""
        waiting = list(enumerate(jobs))[::-1]  # popped from the end: in order
        running: dict[Connection, int] = {}
        idle = [connection for _, connection in self._workers if connection not in self._stale][::-1]
        sentinels = {process.sentinel: process for process, _ in self._workers}
        process_of = {connection: process for process, connection in self._workers}
        try:
            while waiting or running:
                while waiting and idle:
                    index, args = waiting.pop()
                    connection = idle.pop()
                    connection.send((job, tuple(args)))
                    running[connection] = index
                for ready in multiprocessing.connection.wait([*running, *self._stale, *sentinels]):
                    if ready in sentinels:  # a worker ends only when closed: this one died (killed, out of memory)
                        raise _died(sentinels[ready])
                    try:
                        kind, value = ready.recv()
                    except (EOFError, OSError):
                        raise _died(process_of[ready]) from None
                    if kind == PROGRESS:  # the job runs on
                        if progress is not None and ready in running:
                            progress(running[ready], value)
                        continue
                    idle.append(ready)
                    if ready in self._stale:  # a job of an earlier call, left running
                        self._stale.discard(ready)
                        continue
                    index = running.pop(ready)
                    if kind == FAILED:
                        raise value
                    yield index, value
        finally:
            self._stale.update(running)

    def close(self) -> None:
        """Stop the workers now, running jobs or not, and wait for them to go."""
        workers, self._workers = self._workers, []
        for process, connection in workers:
            connection.close()  # an idle worker reads the end of its pipe, and returns
            if process.is_alive():
                process.terminate()  # a busy one is stopped (it holds nothing to save)
        for process, _ in workers:
            process.join(timeout=5)
            if process.is_alive():
                process.kill()
                process.join()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


STOP_GRACE = 0.5  # seconds a dead worker's parent waits for a stop signal of its own
DONE, FAILED, PROGRESS = "done", "failed", "progress"  # what a worker's message is
_parent: Connection | None = None  # in a worker: its pipe to the parent


def _died(process: multiprocessing.Process) -> BrokenProcessPool:
    """The error for a worker that ended by itself. A stop signal sent to the whole group reaches
    the workers too: the parent's own, a moment later, is the stop it means (a KeyboardInterrupt
    raised in this wait), so it is waited for."""
    process.join(STOP_GRACE)
    return BrokenProcessPool(f"a worker process ended (exit code {process.exitcode})")


@contextmanager
def _interrupts_held():
    """Hold Ctrl-C back while workers are spawned: a spawned process inherits the blocked signal,
    so one pressed while it starts stays pending until it ignores SIGINT (``_serve``) instead of
    ending it with a traceback; here it is raised as soon as the workers are started."""
    if not hasattr(signal, "pthread_sigmask"):  # Windows: no signal masks (and no process groups' SIGINT)
        yield
        return
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def _serve(connection: Connection, setup: Callable, setup_args: tuple) -> None:
    """A worker's life: build the state, then run jobs until the parent closes the pipe."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole group: the parent stops the pool
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # held while spawned: see _interrupts_held
    _exit_with_parent()
    global _parent
    _parent = connection
    try:
        state = setup(*setup_args)
    except BaseException as error:  # told as the first job's answer
        state, broken = None, error
    else:
        broken = None
    while True:
        try:
            job, args = connection.recv()
        except (EOFError, OSError):  # the parent closed the pipe (or is gone): done
            return
        if broken is not None:
            _answer(connection, FAILED, broken)
            return
        try:
            result = DONE, job(state, *args)
        except Exception as error:
            result = FAILED, error
        _answer(connection, *result)


def report(value) -> None:
    """From a job running in a worker: tell the parent ``value`` (``map_unordered``'s ``progress``)."""
    if _parent is not None:
        _answer(_parent, PROGRESS, value)


def _answer(connection: Connection, kind: str, value) -> None:
    try:
        connection.send((kind, value))
    except (EOFError, OSError):  # the parent is gone: nothing to tell
        os._exit(1)
    except Exception as error:  # a result or an exception that does not pickle: said as text
        connection.send((FAILED, RuntimeError(f"a worker's answer cannot be sent back: {error!r} ({value!r:.200})")))


PR_SET_PDEATHSIG = 1  # linux/prctl.h


def _exit_with_parent() -> None:
    """End this worker as soon as its parent process ends, however it ends (even killed).

    On Linux the kernel sends SIGKILL at once (``prctl(PR_SET_PDEATHSIG)``): a worker deep in a
    compiled kernel, which holds the interpreter's lock, goes too. Everywhere, a thread waits on
    the parent's sentinel (the pipe ``spawn`` leaves open in the parent, or its process handle on
    Windows), which becomes ready when the parent ends."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent.pid:  # the parent ended before the request took effect
        os._exit(1)

    def watch() -> None:
        multiprocessing.connection.wait([parent.sentinel])
        os._exit(1)
    threading.Thread(target=watch, name="guesstree-parent-watch", daemon=True).start()

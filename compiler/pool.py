"""Worker processes, for the builder's subtrees (the exhaustive searches' jobs run on threads:
``search/jobs.py``, or on the worker processes of a Dask cluster: ``cluster.py``).

Workers are started with ``spawn``, the one start method that Linux, macOS and Windows all have
(macOS warns against ``fork``, Windows has none). A spawned worker starts from nothing: it
rebuilds its state once, from a recipe (``setup(*args)``: a game spec and options, say), and
big arrays reach it through named shared memory (``SharedArray``), so that every worker reads
the same pages instead of a copy each.
"""
from __future__ import annotations

import mmap
import multiprocessing
import signal
import sys
import weakref
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from multiprocessing.shared_memory import SharedMemory
from typing import Callable

import numpy as np


class SharedArray:
    """A numpy array in named shared memory; pickled as its name, so a worker maps the same pages."""

    def __init__(self, shape: tuple[int, ...], dtype, name: str | None = None):
        self.shape, self.dtype = tuple(int(n) for n in shape), np.dtype(dtype)
        size = max(1, int(np.prod(self.shape, dtype=np.int64)) * self.dtype.itemsize)
        if name is None:  # map that much privately first: running short is a MemoryError, not a failed segment
            try:
                mmap.mmap(-1, size).close()
            except OSError:
                raise MemoryError(f"cannot map {size} bytes") from None
        self._memory = SharedMemory(name=name, create=name is None, size=size)  # created zero-filled
        self._owner = name is None
        self.array = np.ndarray(self.shape, self.dtype, buffer=self._memory.buf)
        if self._owner:  # freed with its maker, if not released before
            self._finalizer = weakref.finalize(self, _unlink, self._memory)

    def __reduce__(self):
        return SharedArray, (self.shape, self.dtype.str, self._memory.name)

    def release(self) -> None:
        """Unmap it here (if nothing else holds a view), and free it if this process made it."""
        self.array = None
        try:
            self._memory.close()
        except BufferError:  # a view is still alive: the pages go when the process ends
            pass
        if self._owner:
            self._owner = False
            self._finalizer()


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


def _unlink(memory: SharedMemory) -> None:
    try:
        memory.unlink()
    except FileNotFoundError:
        pass


_state: dict = {}  # in a worker: what its setup built


def _start(setup: Callable, args: tuple) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and stops the pool
    _state["value"] = setup(*args)


def _ready(state) -> None:
    pass


def _run(job: Callable, args: tuple):
    return job(_state["value"], *args)


class WorkerPool:
    """``workers`` spawned processes, each holding ``setup(*setup_args)``; ``submit(job, *args)``
    runs ``job(state, *args)`` in one of them (``job`` a module-level function)."""

    def __init__(self, workers: int, setup: Callable, *setup_args):
        context = multiprocessing.get_context("spawn")
        self.workers = workers
        self._executor = ProcessPoolExecutor(workers, mp_context=context, initializer=_start,
                                             initargs=(setup, setup_args))
        with main_unseen():  # start them all now: a spawned worker takes a while to import
            for _ in range(workers):
                self.submit(_ready)

    def submit(self, job: Callable, *args) -> Future:
        return self._executor.submit(_run, job, args)

    def map_unordered(self, job: Callable, jobs: list):
        """``(index, job(state, *jobs[index]))`` as each finishes."""
        running = {self.submit(job, *args): index for index, args in enumerate(jobs)}
        while running:
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                yield running.pop(future), future.result()

    def close(self) -> None:
        """Stop the workers now, running jobs or not."""
        processes = list((self._executor._processes or {}).values())  # noqa: SLF001 (no public handle)
        self._executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            if process.is_alive():
                process.terminate()
        for process in processes:
            process.join(timeout=5)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

"""The exhaustive searches' jobs: what a job is, where jobs run, and the board of the best total.

A job is a small typed value: what it runs (``run(solver)``, on the solver of the thread or the
cluster's worker that takes it) and what it returns (its docstring says), and which nodes it
solves (``solves``), whose table entries a process without this table needs with its result
(``entries``). Every job's answer is a fact (an exact total, or a proof that it exceeds the job's
cutoff) that does not depend on which worker computed it or when. Two backends serve the same
protocol (``submit``, ``finished``, ``result``, ``close``, ``slots``, ``capacity``): threads of this
process (``ThreadJobs``) and a Dask cluster (``cluster.DaskJobs``); ``schedule`` feeds either.
"""
from __future__ import annotations

import queue
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass
from collections.abc import Callable

import numpy as np

from . import table
from .problem import STOPS
from .table import FEASIBLE_TAG, INF

TAKE_SECONDS = 0.25  # a stopped search waits this long, at most, for the results of jobs already done


@dataclass(frozen=True)
class PartsTotal:
    """The least total of some parts of a guess (each within ``budget`` guesses), and the limit it
    ended with: ``(total, limit)``, the total exact if below that limit, else a lower bound at least
    that. ``fence``: see ``TotalSearch.limit_now``; ``level``: the parts' level in the tree."""

    parts: list
    played: tuple
    budget: int
    limit: int
    fence: tuple | None = None
    level: int = 2
    worst = False

    def run(self, solver):
        return solver.total.parts_total(self.parts, self.played, self.budget, self.limit, self.fence, self.level)

    def solves(self, space) -> list[tuple]:
        return [(part, self.played, self.budget) for part in self.parts]


@dataclass(frozen=True)
class RootTotal:
    """The least total of a tree opening with ``guess``, and the limit it ended with (as ``PartsTotal``)."""

    candidates: np.ndarray
    guess: int
    budget: int
    limit: int
    fence: tuple | None = None
    played: tuple = ()  # the guesses before, for a node below the root
    worst = False

    def run(self, solver):
        return solver.total.root_total(self.candidates, self.guess, self.budget, self.limit, self.fence, self.played)

    def solves(self, space) -> list[tuple]:
        played = self.played + (self.guess,)
        return [(part, played, self.budget - 1) for part in space.split(self.guess, self.candidates)]


@dataclass(frozen=True)
class WithinAfter:
    """Can every part that ``guess`` leaves be won within ``depth - 1`` more guesses? A bool."""

    candidates: np.ndarray
    played: tuple
    guess: int
    depth: int
    worst = True

    def run(self, solver):
        return solver.worst.within_after(self.candidates, self.played, self.guess, self.depth)

    def solves(self, space) -> list[tuple]:
        return [(part, self.played + (self.guess,), self.depth - 1) for part in space.split(self.guess, self.candidates)]


@dataclass(frozen=True)
class WithinNode:
    """Can every candidate of a node at ``level`` be won within ``depth`` guesses? A bool."""

    candidates: np.ndarray
    played: tuple
    depth: int
    level: int
    worst = True

    def run(self, solver):
        return solver.worst.within_node(self.candidates, self.played, self.depth, self.level)

    def solves(self, space) -> list[tuple]:
        return [(self.candidates, self.played, self.depth)]


@dataclass(frozen=True)
class OpenerTotal:
    """A job: the least total of a tree opening with ``guess``, if below ``limit`` (tightened by
    the board as the K-th best improves). Returns ``(total, limit, cpu_seconds, bound)``: the total
    exact if below the limit it ended with, else a lower bound at least that; ``bound``: the lower
    bound before any search (all its parts' lookahead bounds if a search followed), which decides
    how the guess was settled (``OpenerSearch.settled``)."""

    candidates: np.ndarray
    guess: int
    budget: int
    limit: int
    fence: tuple | None = None
    worst = False

    def run(self, solver):
        return solver.opener_total(self.candidates, self.guess, self.budget, self.limit, self.fence)

    def solves(self, space) -> list[tuple]:
        return [(part, (self.guess,), self.budget - 1) for part in space.split(self.guess, self.candidates)]


Job = PartsTotal | RootTotal | WithinAfter | WithinNode | OpenerTotal


def entries(space, job: Job) -> np.ndarray:
    """The table entries that make a finished job's result usable by a process without this
    table (a cluster's client): the entry of each node the job solved (exact, or a bound) and,
    below an exact one, those of its optimal tree, as the builder will look them up."""
    worst = job.worst
    stack = job.solves(space)
    rows = []
    while stack:
        candidates, played, budget = stack.pop()
        n = len(candidates)
        if n <= 2 or (worst and budget <= 2):
            continue  # never looked up: solved on the spot
        tag = FEASIBLE_TAG if worst else space.tag(n, budget)
        h1, h2 = space.key(candidates, played, tag)
        data = table.probe(space.table, h1, h2)
        if not data:
            continue
        rows.append((h1 ^ data, h2 ^ data, data))
        guess = int(table.data_guess(data))
        if worst:
            low, high = table.depths(data)
            solved = high and high <= budget and guess >= 0
        else:
            solved = table.data_exact(data) and table.data_value(data) < INF and guess >= 0
        if solved:
            stack.extend((part, played + (guess,), budget - 1) for part in space.split(guess, candidates))
    return np.array(rows, dtype=np.uint64).reshape(-1, 3)


def tightened(best: tuple | None, fence: tuple, limit: int) -> int:
    """A running job's limit, tightened by the best total that its node's search has found since
    the job was sent (``best``, as the board holds it). ``fence``: (the node's serial, the job's
    guess's tie-break key, the lower bound of the guess's other parts)."""
    serial, blind, guess, others = fence
    if best is None or best[0] != serial or best[1] >= INF:
        return limit
    _, value, best_blind, best_guess = best
    return min(limit, value + (1 if (blind, guess) < (best_blind, best_guess) else 0) - others)


class Board:
    """The best total of the node being searched in parallel, as the jobs' threads read it (see
    ``TotalSearch.limit_now``): (the node's serial, the total, its guess's tie-break key), or None.
    One tuple, replaced whole, so a reader never sees half of one."""

    def __init__(self):
        self.best: tuple | None = None

    def write(self, best: tuple) -> None:
        self.best = best

    def read(self) -> tuple | None:
        return self.best


class ThreadJobs:
    """Jobs on threads of this process, one per core: the compiled searches release the GIL, so
    they run at once over the one table, with nothing to start or copy. Each thread runs its jobs
    on a view of the solver (``views``: one per thread). ``stop``: set to make running searches
    give up (a compiled search raises ``problem.Stopped`` at its next node). A job's own jobs run
    in its thread, but for those it hands to a thread that has nothing to do (``share``)."""

    def __init__(self, views: list, stop: np.ndarray):
        self.slots = self.capacity = len(views)
        self._views: queue.SimpleQueue = queue.SimpleQueue()
        for view in views:
            self._views.put(view)
        self._stop = stop
        self._threads = ThreadPoolExecutor(len(views), thread_name_prefix="guesstree-search")
        self._lock = threading.Lock()
        self._active = 0  # jobs submitted and not finished

    def submit(self, job: Job):
        with self._lock:
            self._active += 1
        return self._threads.submit(self._run, job)

    def _run(self, job: Job):
        view = self._views.get()
        try:
            return job.run(view)
        finally:
            self._views.put(view)
            with self._lock:
                self._active -= 1

    def share(self, solver, next_job: Callable, on_result: Callable) -> None:
        """``schedule`` for a job running on one of these threads (``solver``: its view): its jobs
        run here one after the other, but where a thread is idle the next one goes there (the end
        of a search, where one long job would leave the other threads nothing to do). Waiting for
        those, a job that has not started yet is taken back and run here, so that no thread ever
        waits for a job that no thread runs."""
        handed: dict = {}  # future -> (key, job)
        while True:
            for future in [future for future in handed if future.done()]:
                on_result(handed.pop(future)[0], future.result())
            got = next_job()
            if got is None:
                if not handed:
                    return
                self._take_one(handed, solver, on_result)
                continue
            key, job = got
            if self._active < self.slots:
                handed[self.submit(job)] = (key, job)
            else:
                on_result(key, job.run(solver))

    @staticmethod
    def _take_one(handed: dict, solver, on_result: Callable) -> None:
        for future in list(handed):
            if future.cancel():  # not started: run here
                key, job = handed.pop(future)
                on_result(key, job.run(solver))
                return
        done = wait(list(handed), return_when=FIRST_COMPLETED)[0]
        for future in done:
            on_result(handed.pop(future)[0], future.result())

    def finished(self, handles: list, timeout: float) -> list:
        return list(wait(handles, timeout=timeout, return_when=FIRST_COMPLETED)[0])

    def result(self, handle, timeout: float | None = None):
        return handle.result(timeout)

    def close(self) -> None:
        self._stop[0] = 1
        self._threads.shutdown(wait=True, cancel_futures=True)
        self._stop[0] = 0


def schedule(jobs, next_job: Callable, on_result: Callable, solver) -> None:
    """Run the jobs that ``next_job()`` hands out (``(key, job)``, or None when none can start now)
    on ``jobs`` (a backend), and feed each result to ``on_result(key, result)`` until nothing is
    left to start or running; ``solver`` hears of jobs in flight and done (its ``note`` and ``tick``).
    Stopped (Ctrl-C, SIGTERM), it first takes in the jobs that had finished meanwhile, so that the
    checkpoint keeps their work."""
    running: dict = {}  # job handle -> key
    try:
        while True:
            while len(running) < jobs.capacity:
                handed = next_job()
                if handed is None:
                    break
                key, job = handed
                running[jobs.submit(job)] = key
            solver.note(in_flight=len(running))
            if not running:
                return
            for handle in jobs.finished(list(running), timeout=0.5):
                key = running.pop(handle)
                on_result(key, jobs.result(handle))
                solver.note(jobs_done=solver.status.get("jobs_done", 0) + 1, in_flight=len(running))
            solver.tick()
    except STOPS:
        _take_finished(jobs, running, on_result)
        raise


def _take_finished(jobs, running: dict, on_result: Callable) -> None:
    """The results of the jobs in ``running`` that are done already, each given to ``on_result``;
    a job that failed, or a backend that cannot say within ``TAKE_SECONDS`` (a cluster's worker that
    holds a result but is busy), is left out: the search is stopping anyway."""
    try:
        done = jobs.finished(list(running), timeout=0)
    except Exception:
        return
    deadline = time.monotonic() + TAKE_SECONDS
    for handle in done:
        try:
            on_result(running.pop(handle), jobs.result(handle, timeout=max(0.0, deadline - time.monotonic())))
        except Exception:
            continue

"""Where an exhaustive search's jobs run, chosen once for each solver (``dispatch_for``), and what
that makes the jobs of a node of the top two levels (``total.py``): the one policy the searches
follow, which they never decide again node by node.

- ``Here``: one thread (``--workers 1``), or a job on a cluster's worker (``inside``): every job
  runs where it is handed out, one after the other.
- ``Threads``: this process's threads (``jobs.ThreadJobs``), each running its jobs on a view of
  the solver that is ``OnThread``: a job's own jobs run in its thread, but for those a thread with
  nothing to do takes (``ThreadJobs.share``).
- ``Cluster``: a Dask cluster's workers (``cluster.DaskJobs``), reached when the solver is made.

Each policy says how the guesses of the root (``root``) and of a second-level node (``second``)
are weighed, as one of the kinds of ``weighing.py`` (``EachGuess``, ``PartsAsJobs``,
``GuessesAsJobs``, ``Ranked``), and runs the jobs a search hands out (``schedule``). A root of
many first guesses is searched as the openers' ranking searches them, whatever the policy.
"""
from __future__ import annotations

from collections.abc import Callable

from . import jobs
from .weighing import EachGuess, GuessesAsJobs, PartsAsJobs, Ranked, Weighing

ROOT_JOBS_PER_SLOT = 4  # on a cluster, first guesses are jobs when there are this many per worker
RANKED_ROOT_MIN = 16  # a root with this many guesses (one per class) or more is searched as the openers' ranking is
# (with no --first; with --openers K, K of them)


class Here:
    """Every job runs where it is handed out. ``inside``: the solver runs a job for another one (a
    cluster's worker), so it reports no progress and posts nothing to the board."""

    slots = 1

    def __init__(self, inside: bool = False):
        self.inside = inside

    def root(self, search, count: int) -> type[Weighing]:
        """How the root's ``count`` guesses are weighed in ``search`` (a ``TotalSearch``): as the
        openers' ranking weighs them where they are many and no --first fixes one, else as this
        policy's ``_root`` says."""
        if search.space.first is None and count >= RANKED_ROOT_MIN:
            return Ranked
        return self._root(search, count)

    def _root(self, search, count: int) -> type[Weighing]:
        return EachGuess

    def second(self) -> type[Weighing]:
        """How a second-level node's guesses are weighed."""
        return PartsAsJobs

    def schedule(self, solver, next_job: Callable, on_result: Callable) -> None:
        """Run the jobs ``next_job()`` hands out (``(key, job)``, or None when none can start now),
        feeding each result to ``on_result(key, result)``, until none is left."""
        while (handed := next_job()) is not None:
            key, job = handed
            on_result(key, job.run(solver))
            solver.note(jobs_done=solver.status.get("jobs_done", 0) + 1)

    def close(self) -> None:
        """Stop the jobs running elsewhere (none here)."""


class Elsewhere(Here):
    """Jobs run on a backend (``jobs.ThreadJobs`` or ``cluster.DaskJobs``), started on first use."""

    def __init__(self):
        super().__init__(inside=False)
        self.jobs = None

    def schedule(self, solver, next_job: Callable, on_result: Callable) -> None:
        jobs.schedule(self.start(solver), next_job, on_result, solver)

    def start(self, solver):
        """The backend, started on first use (each kind of place starts its own)."""
        raise NotImplementedError

    def close(self) -> None:
        if self.jobs is not None:
            self.jobs.close()
            self.jobs = None


class Threads(Elsewhere):
    """Jobs on ``workers`` threads of this process: the root's parts are the jobs (second-level
    nodes, each searched whole by one thread), or with ``--openers`` its first guesses."""

    def __init__(self, workers: int):
        super().__init__()
        self.workers = workers

    @property
    def slots(self) -> int:
        return self.workers

    def _root(self, search, count: int) -> type[Weighing]:
        return GuessesAsJobs if search.space.openers is not None else PartsAsJobs

    def start(self, solver):
        if self.jobs is None:
            views = [solver.view(row, OnThread(self)) for row in range(1, self.workers + 1)]
            self.jobs = jobs.ThreadJobs(views, solver.space.stop)
        return self.jobs


class OnThread(Here):
    """A job on one of ``threads``' threads: each guess of a second-level node a job of its own,
    which a thread with nothing to do takes from it (``ThreadJobs.share``)."""

    def __init__(self, threads: Threads):
        super().__init__(inside=True)
        self.threads = threads

    @property
    def slots(self) -> int:
        return self.threads.workers

    def second(self) -> type[Weighing]:
        return GuessesAsJobs

    def schedule(self, solver, next_job: Callable, on_result: Callable) -> None:
        self.threads.jobs.share(solver, next_job, on_result)


class Cluster(Elsewhere):
    """Jobs on the workers of the Dask cluster at ``address``: the second guesses' parts, or each
    first guess when they are many (``ROOT_JOBS_PER_SLOT`` a worker) or with ``--openers`` (else
    the jobs are the parts of the second guesses: Bulls and Cows has one first guess under
    symmetry)."""

    def __init__(self, address: str):
        super().__init__()
        self.address = address

    @property
    def slots(self) -> int:
        return self.jobs.slots  # (reached when the solver is made)

    def _root(self, search, count: int) -> type[Weighing]:
        many = search.space.openers is not None or count >= ROOT_JOBS_PER_SLOT * self.start(search.solver).slots
        return GuessesAsJobs if many else EachGuess

    def start(self, solver):
        if self.jobs is None:
            from ..workers.cluster import DaskJobs, search_description

            space = solver.space
            described = search_description(space, type(solver))
            self.jobs = DaskJobs(self.address, described, solver.absorb, space.table[space.table[:, 2] != 0])
            solver.board = self.jobs.board
            solver.note(dashboard=self.jobs.dashboard, workers=self.jobs.slots)
        return self.jobs


def dispatch_for(workers: int, cluster: str | None, inside: bool) -> Here:
    """The policy of a solver: a job's (``inside``: a cluster's worker), on ``cluster``, on
    ``workers`` threads, or here."""
    if inside:
        return Here(inside=True)
    if cluster is not None:
        return Cluster(cluster)
    return Threads(workers) if workers > 1 else Here()

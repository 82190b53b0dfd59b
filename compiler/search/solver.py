"""The exhaustive search of one game, run: the optimal strategies' answers with their proofs, the
guess an optimal tree plays at any node, and how the search runs (its jobs on threads or on a
cluster, its progress, Ctrl-C, checkpoints).

The searches themselves are ``total.py`` (least total) and ``worst.py`` (fewest guesses in the
worst case) over the game's ``space.py``; their jobs are ``jobs.py``; what a cluster's worker runs
is in ``compiler/workers/cluster.py``. What was solved is kept in the table; a checkpoint file
(``compiler/search/checkpoint.py``) holds its entries, so an interrupted search resumes where it stopped.
"""
from __future__ import annotations

import copy
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Callable

import numpy as np

from ..workers.settings import SearchSettings
from . import checkpoint, jobs, table
from .dispatch import Cluster, dispatch_for
from .problem import NODES, STOPS
from .proof import OBJECTIVES, LeastTotal, Objective
from .ranking import opener_total
from .space import SearchedGame, Space
from .table import INF
from .total import Infeasible, TotalSearch
from .weighted import WINF
from .weighted_search import WeightedSearch, decimal_text, refused
from .worst import WorstSearch

CHECKPOINT_EVERY = 300.0  # seconds between checkpoints of a long search

Status = dict  # what a long search is doing, for a progress display (see Solver.status)


class Interrupted(Exception):
    """The search (or a heuristic's build) was stopped (Ctrl-C); what it had done is in
    ``checkpoint``, if given; ``work``: what that is, as a message says it."""

    def __init__(self, checkpoint: Path | None, work: str = "the search's work"):
        self.checkpoint, self.work = checkpoint, work
        where = f"; its work is saved in {checkpoint}" if checkpoint else ""
        super().__init__(f"interrupted{where}")


@dataclass
class Report:
    """What a search proved, with its effort (effort is not part of any artifact)."""

    worst: int | None = None
    total: int | None = None
    nodes: int = 0
    seconds: float = 0.0
    proof: dict = field(default_factory=dict)
    first_guesses: dict = field(default_factory=dict)  # optimal-expected: how many a bound settled, a search


def worker_count(workers: int | None) -> int:
    """``--workers``, or one per core."""
    return max(1, (os.cpu_count() or 1) if workers is None else workers)


class Solver:
    """Exact solutions of one game (``searched``: a ``space.SearchedGame``): the fewest guesses in
    the worst case, the fewest in total within a depth budget, and the guess that an optimal tree
    plays at any node.

    ``search``: how it runs (``settings.SearchSettings``: its threads, checkpoint, progress display
    and cluster); ``board``: given to the solver of a cluster's worker, which runs jobs and nothing
    else.
    """

    def __init__(self, searched: SearchedGame, search: SearchSettings | None = None, board=None):
        search = search or SearchSettings()
        workers = self._workers = worker_count(search.workers)
        self.space = Space(searched, search.slots or table.slots_for(searched.max_memory), workers + 1)
        self.game = searched.game
        self.checkpoint = Path(search.checkpoint) if search.checkpoint else None
        self.progress = search.progress
        # where jobs run (``dispatch.py``), chosen once: a cluster's worker (given a board) runs them itself
        self.dispatch = dispatch_for(workers, search.cluster_address, inside=board is not None)
        # a weighted game's least total: its own search (``weighted_search.py``), None for the others
        self.weighted = self._weighted(searched)
        self.board = board or jobs.Board()  # the best total of the node searched in parallel, for running jobs
        self.total, self.worst = TotalSearch(self), WorstSearch(self)
        self.job_seconds = 0.0  # the time a cluster's workers spent in this search's jobs
        self.status: Status = {}
        self._started = self._saved = time.monotonic()
        self._solved: dict[tuple, Report] = {}
        self._fewest_worst: Report | None = None
        if search.resume and self.checkpoint.exists():
            self.load(self.checkpoint)
        if isinstance(self.dispatch, Cluster):
            self.dispatch.start(self)  # the cluster is reached (or refused) before the search starts

    def _weighted(self, searched: SearchedGame) -> WeightedSearch | None:
        """The weighted game's search, or None; what it does not do yet, refused here, before any work."""
        if self.game.weights is None:
            return None
        if searched.openers is not None:
            raise refused("--openers")
        if isinstance(self.dispatch, Cluster):
            raise refused("a cluster (--cluster)")
        return WeightedSearch(self.space, self._workers, self.note)

    @property
    def nodes(self) -> int:
        return self.space.nodes

    @property
    def inside(self) -> bool:
        """Does it run jobs for another solver (a thread's view, a cluster's worker)? Then it
        reports no progress and posts nothing to the board."""
        return self.dispatch.inside

    # -- the optimal strategies -------------------------------------------------------------------

    def solve(self, objective: Objective | str, max_depth: int | None = None) -> Report:
        """Solve the game for ``objective`` (``proof.Objective``, or its name: the least total,
        within ``max_depth`` if given, or within the fewest guesses in the worst case, perhaps
        after the fewest secrets that need them), with the proof the artifact records."""
        objective = _objective(objective)
        key = (objective, max_depth)
        if key not in self._solved and self.weighted is not None:
            self._solved[key] = self._solve_weighted(objective, max_depth)
        if key not in self._solved:
            started, nodes = time.monotonic(), self.nodes
            depth = self.minimum_worst().worst if objective.worst_first else max_depth
            penalty = self._penalize(objective, depth)
            root = self.total.minimum(depth)
            weighted = root.value
            space = self.space
            first = None if space.first is None else self.game.format_code(self.game.guesses[space.first])
            if weighted >= INF:
                opening = "" if first is None else f" opening with {first}"
                if penalty:  # a tree within the fewest guesses exists: its weighted total is too big to hold
                    raise ValueError(f"{self.game.title()} is too big for fewest-at-worst: its totals, weighted by "
                                     f"{penalty} for each secret that needs {depth} guesses, exceed {INF - 1}")
                if depth is None:
                    raise Infeasible(f"no tree{opening} wins every secret of {self.game.title()}")
                raise Infeasible(f"no tree{opening} wins every secret of {self.game.title()} within {depth} guesses "
                                 "(guesstree bound finds the fewest)")
            late, total = (None, weighted) if not penalty else self._unweigh(weighted, penalty)
            proven = LeastTotal(objective, total, depth, space.n_secrets, first, space.opener_scope or {}, late,
                                root.settled.proven)
            self._solved[key] = Report(worst=depth, total=total, nodes=self.nodes - nodes,
                                       seconds=time.monotonic() - started, proof=proven.to_dict(),
                                       first_guesses={"bound": root.settled.bound, "search": root.settled.search})
        return self._solved[key]

    def _solve_weighted(self, objective: Objective, max_depth: int | None) -> Report:
        """``solve`` for a weighted game: the least weighted total (within ``max_depth``, or the
        fewest guesses in the worst case), its tree's plain total beside it."""
        if objective.late_first:
            raise refused(objective.name)
        started, nodes = time.monotonic(), self.nodes
        depth = self.minimum_worst().worst if objective.worst_first else max_depth
        within = '' if depth is None else f' within {depth}'
        value = self.guarded(lambda: self.weighted.minimum(depth), task=f"least weighted total{within}")
        space = self.space
        first = None if space.first is None else self.game.format_code(self.game.guesses[space.first])
        if value >= WINF:
            if self._fits(depth):
                raise ValueError(f"{self.game.title()}'s weighted totals are too big for the exact search: in whole "
                                 f"units (the weights times {self.weighted.scale}) they pass {WINF - 1}")
            opening = "" if first is None else f" opening with {first}"
            raise Infeasible(f"no tree{opening} wins every secret of {self.game.title()}{within} guesses "
                             "(guesstree bound finds the fewest)")
        total, units = self.guarded(lambda: self.weighted.tree_totals(depth), task="the optimal tree's totals")
        if units != value:  # (the tree walked is the one the table holds: never, unless the search is wrong)
            raise RuntimeError(f"the optimal tree's weighted total {units} is not the search's {value}")
        weights = self.weighted.real(int(self.weighted.weights.sum()))
        proven = LeastTotal(objective, total, depth, space.n_secrets, first,
                            weighted_total=decimal_text(self.weighted.real(value)), total_weight=decimal_text(weights))
        return Report(worst=depth, total=total, nodes=self.nodes - nodes, seconds=time.monotonic() - started,
                      proof=proven.to_dict())

    def _fits(self, depth: int | None) -> bool:
        """Does some tree (opening with ``--first``, if given) win every secret within ``depth``?"""
        if depth is None:
            return True
        space = self.space
        if space.first is None:
            return self.minimum_worst().worst <= depth
        candidates = np.arange(space.n_secrets, dtype=np.int64)
        return depth >= 1 and all(space.within_below(part, (space.first,), depth - 1)
                                  for part in space.split(space.first, candidates))

    def _penalize(self, objective: Objective, depth: int | None) -> int:
        """Weigh the minimum-total searches for ``objective`` (``Objective.penalty``: on each secret
        won by the ``depth``-th guess, or none). Returns the penalty (0: none)."""
        space = self.space
        penalty = objective.penalty(space.n_secrets, depth, int(space.least[space.n_secrets]))
        if penalty != space.penalty:
            self.close()  # the jobs' views of the space, and a cluster's workers, were made with the old one
            space.penalize(penalty)
        return penalty

    def _unweigh(self, weighted: int, penalty: int) -> tuple[int, int]:
        """(secrets won by the last guess, total) of a weighted total: the total lies within the
        penalty above the least total by counting, so the two parts are unique."""
        late = (weighted - int(self.space.least[self.space.n_secrets])) // penalty
        return late, weighted - late * penalty

    def choose(self, node, objective: Objective | str, max_depth: int | None = None) -> int:
        """The guess that the canonical optimal tree plays at ``node`` (a builder ``Node``)."""
        objective = _objective(objective)
        report = self.solve(objective, max_depth)
        budget = None if report.worst is None else report.worst - len(node.path)
        if self.weighted is not None:
            return self.weighted.optimal_guess(node.candidates, node.played, budget)
        self._penalize(objective, report.worst)
        return self.total.optimal_guess(node.candidates, node.played, budget)

    def minimum_total(self, budget: int | None = None) -> int:
        """The fewest guesses in total of any tree within ``budget`` guesses (None: any depth);
        ``table.INF`` if no tree fits the budget. (A weighted game's least weighted total, in whole
        units, ``weighted.WINF`` if none fits: ``solve`` says more.)"""
        if self.weighted is not None:
            return self.guarded(lambda: self.weighted.minimum(budget), task="least weighted total")
        return self.total.minimum(budget).value

    def minimum_worst(self) -> Report:
        """The fewest guesses that win every secret, proven on both sides."""
        if self._fewest_worst is None:
            started, nodes = time.monotonic(), self.nodes
            found = self.worst.minimum()
            self._fewest_worst = Report(worst=found.depth, nodes=self.nodes - nodes,
                                        seconds=time.monotonic() - started, proof=found.to_dict())
        return self._fewest_worst

    # -- running: jobs, progress, interruption, checkpoints ----------------------------------------

    def note(self, **status) -> None:
        self.status.update(status)
        self.tick()

    def tick(self) -> None:
        if self.inside:
            return
        now = time.monotonic()
        if self.progress is not None:
            self.progress({**self.status, "nodes": self.nodes, "seconds": now - self._started})
        if self.checkpoint is not None and now - self._saved > CHECKPOINT_EVERY:
            self.save(self.checkpoint)

    def guarded(self, run: Callable, task: str):
        """Run a top-level search; on Ctrl-C (or a cluster that fails it) stop the jobs, save the
        table, raise Interrupted (or the cluster's error)."""
        from ..workers.cluster import ClusterError

        self.status["task"] = task
        try:
            result = run()
        except (*STOPS, ClusterError) as error:
            self.close()
            self.space.stop[0] = 0  # (set by Ctrl-C: the solver stays usable)
            if self.checkpoint is not None:
                self.save(self.checkpoint)
            if isinstance(error, ClusterError):
                raise ClusterError(str(error), self.checkpoint) from None
            raise Interrupted(self.checkpoint) from None
        if self.checkpoint is not None:
            self.save(self.checkpoint)
        return result

    def schedule(self, next_job: Callable, on_result: Callable) -> None:
        """Run the jobs that ``next_job()`` hands out (``(key, job)``, or None when none can start
        now) where the dispatch policy runs them, and feed each result to ``on_result(key,
        result)`` until nothing is left to start or running."""
        self.dispatch.schedule(self, next_job, on_result)

    def opener_total(self, candidates, guess: int, budget: int, limit: int, fence: tuple | None = None):
        """What an ``OpenerTotal`` job returns (``ranking.opener_total``), on this solver."""
        return opener_total(self, candidates, guess, budget, limit, fence)

    def entries(self, job):
        """The table entries that make ``job``'s result usable without this table (``jobs.entries``)."""
        return jobs.entries(self.space, job)

    def restore(self, entries) -> None:
        """Add table entries (a checkpoint's, or those a job returned) to the table."""
        if len(entries):
            table.restore(self.space.table, entries)

    def absorb(self, entries, nodes: int, seconds: float) -> None:
        """What a cluster's job learned: the table entries of its result, and its effort."""
        self.restore(entries)
        self.space.counters[self.space.row, NODES] += nodes
        self.job_seconds += seconds

    def view(self, row: int, dispatch) -> Solver:
        """This solver as a job's thread runs it (``dispatch``: ``dispatch.OnThread``): the same
        game, table and board, and a row of counters of its own; it reports no progress."""
        view = copy.copy(self)
        view.space, view.dispatch, view.status = self.space.view(row), dispatch, {}
        view.total, view.worst = TotalSearch(view), WorstSearch(view)
        return view

    def close(self) -> None:
        """Stop the jobs (the table stays)."""
        self.dispatch.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def save(self, path: str | os.PathLike) -> Path:
        """Write the table's entries to ``path`` atomically (see trees/CHECKPOINT.md)."""
        self._saved = time.monotonic()
        return checkpoint.save(path, self.space.table, self.space.identity())

    def load(self, path: str | os.PathLike) -> int:
        """Add a checkpoint's entries to the table; refuses one made for another search."""
        entries = checkpoint.load(path, self.space.identity())
        self.restore(entries)
        return len(entries)


def _objective(objective: Objective | str) -> Objective:
    """An objective, or the one of that name (a library caller's ``solve("optimal-expected")``)."""
    if isinstance(objective, Objective):
        return objective
    if objective not in OBJECTIVES:
        raise ValueError(f"unknown objective: {objective!r}; choose from {', '.join(OBJECTIVES)}")
    return OBJECTIVES[objective]

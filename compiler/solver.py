"""Optimal trees, by exhaustive search with proof: the fewest guesses in the worst case
(``bound``, ``optimal-worst``) and the fewest guesses in total (``optimal-expected``).

The compiled searches of ``exact.py`` do the work below the second guess. The two levels
above it run here, where they can afford more: guesses are reduced to one per class of the
symmetries that fix the history (``symmetry.py``, renaming played colours too; the third level
gets its classes handed to the compiled search), and the parts that a node's guesses leave are
solved as jobs by threads of this process (one per core: the compiled searches release the GIL)
that share one transposition table, or by the workers of a Dask cluster (``cluster.py``), which
keep tables of their own and return the entries of what they solved. On threads the jobs are the
first guesses' parts (second-level nodes, each searched whole by one thread); on a cluster the
second guesses' parts, or, with many first guesses, and with ``--openers``, each first guess.
The worst-case search (``bound``) runs the guesses of a node's largest part as jobs, and once
that part is won in time, the other parts. Each job's answer is a fact (an exact total,
or a proof that it exceeds the job's cutoff) that does not depend on which worker computed it or
when; running jobs tighten their cutoffs with the best total found meanwhile (the board). The
choice among guesses follows the canonical tie-break (the least total, then a possible secret,
then the lowest guess), so the tree is the same for any number of workers and any cluster.
Before any part of a guess is searched, every part but the largest gets a lower bound from one
guess's lookahead (``exact.lookahead_bound``), here as in the compiled search: their sum refutes
many guesses at once, and leaves the largest part a tight cutoff.

What was solved is kept in the table; a checkpoint file (``checkpoint.py``) holds its entries,
so an interrupted search resumes where it stopped.
"""
from __future__ import annotations

import copy
import hashlib
import json
import mmap
import os
import queue
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from . import checkpoint, exact, kernels
from .hint_rule import HintRule
from .symmetry import Symmetry

CHECKPOINT_EVERY = 300.0  # seconds between checkpoints of a long search
TABLE_SLOTS_MAX = 1 << 24  # 384 MiB of table at most
TABLE_SLOTS_MIN = 1 << 12
OBJECTIVES = ("optimal-worst", "optimal-expected")

Status = dict  # what a long search is doing, for a progress display (see Solver.status)
_lock = threading.Lock()  # a cluster's worker runs one job at a time (its solver is not thread-safe)


class Interrupted(Exception):
    """The search was stopped (Ctrl-C); what it had solved is in ``checkpoint``, if given."""

    def __init__(self, checkpoint: Path | None):
        self.checkpoint = checkpoint
        where = f"; its work is saved in {checkpoint}" if checkpoint else ""
        super().__init__(f"interrupted{where}")


class Infeasible(ValueError):
    """No tree wins every secret within the depth asked for."""


def table_slots(max_memory: int) -> int:
    """The table's size: a power of two, at most a 16th of the memory budget."""
    slots = TABLE_SLOTS_MAX
    while slots > TABLE_SLOTS_MIN and slots * 24 > max_memory // 16:
        slots //= 2
    return slots


class _Choice:
    """Branch and bound's choice at a node: the best guess so far under the canonical tie-break
    (least total, then a possible secret, then the lowest guess), and a lower bound on the rest."""

    def __init__(self, cutoff: int, floor: int):
        self.cutoff, self.floor = cutoff, floor
        self.value, self.key = exact.INF, None  # key: (not a candidate, guess)

    def limit(self, key: tuple) -> int:
        """What a guess's total must stay below to be the choice."""
        if self.key is None:
            return self.cutoff
        return min(self.cutoff, self.value + 1 if key < self.key else self.value)

    def hopeless(self, low: int) -> bool:
        """Can no guess whose bound is ``low`` (or more) be the choice?"""
        return self.key is not None and low >= min(self.cutoff, self.value + 1)

    def tries(self, order: "_Ordered"):
        """The guesses of ``order`` ((bound, not a candidate, guess), best first) still worth
        trying, with their places in it, as this choice tightens (read when the next is asked for)."""
        for index, (low, blind, guess) in enumerate(order):
            if self.worth_trying(low, (blind, guess)):
                yield index, (blind, guess)
            elif self.hopeless(low):
                return

    def worth_trying(self, low: int, key: tuple) -> bool:
        if low >= self.limit(key):
            self.refute(low)
            return False
        return True

    def consider(self, total: int, key: tuple) -> None:
        """A guess's total: exact, or (if at least its limit) a lower bound."""
        if total < self.limit(key):
            self.value, self.key = total, key
        else:
            self.refute(total)

    def refute(self, low: int) -> None:
        self.floor = min(self.floor, low)


ROOT_JOBS_PER_SLOT = 4  # on a cluster, first guesses are jobs when there are this many per worker
BIG_PART = 64  # a part at least this big is a job of its own; a guess's smaller parts share one


class _Trial:
    """A second-level guess being evaluated: its parts in groups (one job each) and, per group,
    a lower bound on its total that becomes exact when its job returns below its cutoff."""

    def __init__(self, key: tuple, n: int, parts: list, bounds: list[int]):
        self.key = key  # (not a candidate, guess): the tie-break
        paired = list(zip(parts, bounds))  # each part with a lower bound (exact for 1 and 2 secrets)
        small = [pair for pair in paired if 2 < len(pair[0]) < BIG_PART]
        grouped = [[pair] for pair in paired if len(pair[0]) >= BIG_PART] + ([small] if small else [])
        self.groups = [[part for part, _ in group] for group in grouped]
        self.known = [sum(bound for _, bound in group) for group in grouped]
        self.base = n + sum(bound for part, bound in paired if len(part) <= 2)
        self.sent = self.running = 0
        self.failed = self.settled = False

    def bound(self) -> int:
        return min(self.base + sum(self.known), exact.INF)

    def finished(self) -> bool:
        return self.failed or self.settled


@dataclass
class Report:
    """What a search proved, with its effort (effort is not part of any artifact)."""

    worst: int | None = None
    total: int | None = None
    nodes: int = 0
    seconds: float = 0.0
    proof: dict = field(default_factory=dict)


class Solver:
    """Exact solutions of one game (``context``: a ``BuildContext``): the fewest guesses
    in the worst case, the fewest in total within a depth budget, and the guess that an optimal
    tree plays at any node.

    ``workers``: processes for the big searches (default: one per core); ``checkpoint``: file
    that keeps the solved table across interruptions (read first if ``resume``); ``progress``:
    called with a status dict now and then during long searches.
    """

    def __init__(self, context, workers: int | None = None, checkpoint: str | os.PathLike | None = None,
                 resume: bool = False, progress: Callable[[Status], None] | None = None,
                 slots: int | None = None, cluster: str | None = None, board=None):
        game = context.game
        if context.matrix is None:
            raise ValueError(f"{game!r} is too big for an exact search: its feedback matrix "
                             "does not fit in --max-memory")
        if game.restricts_guesses and not game.hint_rule and context.options.candidates != "consistent":
            raise ValueError(f"{game!r} restricts guesses by what was played in a way the exact search "
                             "cannot follow (it follows the hint rule of hard mode): use --candidates consistent")
        if len(game.guesses) >= 1 << 20:
            raise ValueError(f"{game!r} has too many guesses for an exact search")
        self.context, self.game = context, game
        self.matrix = np.ascontiguousarray(context.matrix)
        # the matrix read by secret, which the compiled searches scan: itself for a symmetric score
        self.by_secret = context.columns if context.columns is not None else kernels.transposed(self.matrix)
        self.n_secrets = len(game.secrets)
        self.n_guesses = len(game.guesses)
        self.n_feedbacks, self.win = int(context.n_feedbacks), int(context.win_index)
        if np.count_nonzero(self.matrix == self.win) != self.n_secrets:  # each secret has its own guess
            raise ValueError(f"{game!r}: a guess wins more than one secret (the winning feedback must mean "
                             "the guess is the secret), so no tree can tell them apart")
        self.consistent = context.options.candidates == "consistent"
        self.secret_guess = np.ascontiguousarray(context.secret_guess, dtype=np.int64)
        self.guess_secret = np.ascontiguousarray(context.guess_secret, dtype=np.int64)
        self.children = int(kernels.most_children(self.matrix, self.n_feedbacks, self.win))
        self.least, self.least_blind, self.reach = exact.counting_tables(self.n_secrets, self.n_feedbacks,
                                                                         self.children)
        codes = context.scorer.guess_codes
        self.symmetry = Symmetry(game, codes, context.scorer.backend, rename_played=True) if game.permutable else None
        # hard mode's rule, which the compiled search carries as a state (empty arrays: no rule)
        self.hint_rule = HintRule(game, codes) if game.hint_rule and not self.consistent else None
        self._no_state = np.zeros(0, dtype=np.int64)
        self.first = context.first  # a fixed opening guess (--first), or None
        self.opener_scope: dict | None = None  # with --openers: how many first guesses were searched, of how many
        self._openings: dict[int, int] = {}  # with --openers: the best opener found, by the root's budget tag
        self.workers = worker_count(workers)
        self.cluster = cluster  # a Dask scheduler's address, or local:N (cluster.py), or None
        self.openers = context.options.openers  # search only this many first guesses (the heuristic's best)
        self.checkpoint = Path(checkpoint) if checkpoint else None
        self.progress = progress
        self._in_worker = board is not None  # a cluster's worker (a job's thread gets a view: see _view)
        self.table = _pages(slots or table_slots(context.options.max_memory))
        self.counters = np.zeros((self.workers + 1, 4), dtype=np.int64)  # a row for this thread and each job's
        self.stop = np.zeros(1, dtype=np.int64)  # set: the compiled searches in the jobs' threads give up
        # the best total of the node being searched in parallel, where running jobs read it
        self.board = board or Board()
        self._serial = 0
        self.job_seconds = 0.0  # the time a cluster's workers spent in this search's jobs
        self._row = 0
        nothing = np.zeros((0, 0), dtype=np.int64)
        hint = self.hint_rule
        self.problem = exact.Problem(
            self.matrix, self.by_secret, self.secret_guess, self.guess_secret, self.consistent, self.n_feedbacks, self.win,
            self.least, self.least_blind, self.reach, hint.codes if hint else nothing, hint.counts if hint else nothing,
            hint.marks if hint else nothing, self.table, self.counters[0], self.stop,
            *context.absent.arrays(self.secret_guess, game.permutable))
        self._jobs = None  # where jobs run: _ThreadJobs on this machine's cores, or cluster.DaskJobs
        self._started = time.monotonic()
        self._saved = time.monotonic()
        self.status: Status = {}
        self.fewest_worst: Report | None = None
        self._solved: dict[tuple, Report] = {}
        self._empty = np.zeros(0, dtype=np.bool_)
        if resume:
            if self.checkpoint is None:
                raise ValueError("--resume needs --checkpoint FILE")
            if self.checkpoint.exists():
                self.load(self.checkpoint)
        if not self._in_worker and self.cluster is not None:
            self._start_jobs()  # the cluster is reached (or refused) before the search starts

    def _state(self, candidates: np.ndarray, played: tuple[int, ...]) -> np.ndarray:
        """The node's hint-rule state: every played guess's answer is that of any candidate."""
        if self.hint_rule is None:
            return self._no_state
        return self.hint_rule.state(played, [self.matrix[guess, candidates[0]] for guess in played])

    # -- what the searches share ----------------------------------------------------------------

    @property
    def nodes(self) -> int:
        return int(self.counters[:, exact.NODES].sum())

    def _mask(self, played: tuple[int, ...]) -> np.ndarray:
        if self.symmetry is None:
            return self._empty
        mask = self.symmetry.canonical(played, len(self.secret_guess))
        return self._empty if mask is None else mask

    def _opening(self, candidates: np.ndarray, played: tuple[int, ...]) -> bool:
        """Is this the root of a search whose first guesses are restricted (--first, --openers)?
        What such a root is worth is not the root's value, so the table never holds it."""
        return not played and (self.first is not None or self.openers is not None) and len(candidates) == self.n_secrets

    def _guesses(self, candidates: np.ndarray, played: tuple[int, ...]) -> np.ndarray:
        """The allowed guesses, one per symmetry class."""
        if self._opening(candidates, played) and self.first is not None:
            return np.array([self.first], dtype=np.int64)
        guesses = self.secret_guess[candidates] if self.consistent else np.arange(self.n_guesses, dtype=np.int64)
        mask = self._mask(played)
        if len(mask):
            guesses = guesses[mask[guesses]]
        if self.hint_rule is not None:
            guesses = guesses[self.hint_rule.allowed(self._state(candidates, played))[guesses]]
        if self._opening(candidates, played):
            guesses = self._best_openers(candidates, guesses)
        return guesses

    def _best_openers(self, candidates: np.ndarray, guesses: np.ndarray) -> np.ndarray:
        """The ``--openers`` first guesses (one per symmetry class) that the game's heuristic ranks best."""
        ranked = self.context.best_guesses(guesses, candidates, self.game.heuristic, len(guesses))
        self.opener_scope = {"openers": min(self.openers, len(ranked)), "of": len(ranked),
                             "ranked_by": self.game.heuristic}
        return np.sort(ranked[:self.openers])

    def _key(self, candidates: np.ndarray, played: tuple, tag: int) -> tuple:
        h1, h2 = exact.set_key(candidates, np.int64(tag), np.uint64(exact.hint_salt(self._state(candidates, played))))
        return np.uint64(h1), np.uint64(h2)

    def _probe(self, candidates: np.ndarray, played: tuple, tag: int) -> int:
        return int(exact.probe(self.table, *self._key(candidates, played, tag)))

    def _store(self, candidates: np.ndarray, played: tuple, tag: int, value: int, exact_value: bool,
               guess: int) -> None:
        data = exact.pack(np.int64(min(value, exact.INF)), exact_value, np.int64(guess), np.int64(len(candidates)))
        exact.store(self.table, *self._key(candidates, played, tag), data)

    def _split(self, guess: int, candidates: np.ndarray):
        ordered, parts = exact.split(self.matrix, np.int64(guess), candidates, np.int64(self.n_feedbacks),
                                     np.int64(self.win))
        return [ordered[start:start + size] for start, size in parts]

    def _bounds(self, candidates: np.ndarray, guesses: np.ndarray, budget: int, largest: bool = False):
        return exact.guess_bounds(self.problem, candidates, guesses, np.int64(budget), largest)

    # -- minimum total ---------------------------------------------------------------------------

    def _total_below(self, candidates: np.ndarray, played: tuple, budget: int, cutoff: int) -> int:
        """The compiled search from a node down, with this node's symmetry."""
        return int(exact.min_total(self.problem, candidates, np.int64(budget), np.int64(cutoff), self._mask(played),
                                   self._state(candidates, played), self.context.absent.played(played)))

    def _parts_total(self, parts: list, played: tuple, budget: int, limit: int, fence: tuple | None = None,
                     level: int = 2):
        """A job: the least total of some parts (each within ``budget`` guesses), and the limit it
        ended with: the total is exact if below that limit, else a lower bound at least that.
        ``fence``: see ``_limit_now``; ``level``: the parts' level in the tree."""
        bounds = self._lower_bounds(parts, played, budget)
        total = min(sum(bounds), exact.INF)
        for part, bound in zip(parts, bounds):
            limit = self._limit_now(fence, limit)
            if total >= limit:
                break
            rest = total - bound
            value = self._total_node(part, played, budget, limit - rest, level)
            total = min(rest + value, exact.INF)
        return total, limit

    def _lower_bounds(self, parts: list, played: tuple, budget: int) -> list[int]:
        """Lower bounds on the least totals of a guess's parts (largest first) within ``budget``:
        by counting, and for a part of ``exact.LOOKAHEAD_MIN`` secrets or more but the first
        (whose own search starts with it), the best guess's by counting (``exact.lookahead_bound``;
        not with a hint rule)."""
        symbols = self.context.absent.played(played)
        return [int(exact.lookahead_bound(self.problem, part, np.int64(budget), symbols))
                if index and len(part) >= exact.LOOKAHEAD_MIN and self.hint_rule is None
                else int(exact.least_total(self.least, self.reach, len(part), budget))
                for index, part in enumerate(parts)]

    def _limit_now(self, fence: tuple | None, limit: int) -> int:
        """A running job's limit, tightened by the best total that its node's search has found
        since the job was sent (on the board). ``fence``: (the node's serial, the job's guess's
        tie-break key, the lower bound of the guess's other parts), or None for a fixed limit."""
        if fence is None:
            return limit
        serial, blind, guess, others = fence
        best = self.board.read()
        if best is None or best[0] != serial or best[1] >= exact.INF:
            return limit
        _, value, best_blind, best_guess = best
        return min(limit, value + (1 if (blind, guess) < (best_blind, best_guess) else 0) - others)

    def _post(self, serial: int, choice: "_Choice") -> None:
        """Put a node's best total on the board, for its running jobs."""
        if choice.key is not None and not self._in_worker:
            self.board.write((serial, choice.value, *choice.key))

    def _total_node(self, candidates: np.ndarray, played: tuple, budget: int, cutoff: int, level: int) -> int:
        """Like ``exact.min_total`` for the top two levels: symmetry classes, and the second
        level's guesses evaluated as parallel jobs. Stores what it solves in the table."""
        n = len(candidates)
        if n == 1:
            return 1 if budget >= 1 else exact.INF
        if budget < 2:
            return exact.INF
        if n == 2:
            return 3
        if level >= 2:
            return self._total_below(candidates, played, budget, cutoff)
        bound = int(exact.least_total(self.least, self.reach, n, budget))
        if bound >= cutoff:
            return bound
        tag = budget if budget < n else exact.UNLIMITED
        data = self._probe(candidates, played, tag)
        if data:
            if exact.data_exact(np.uint64(data)):
                return int(exact.data_value(np.uint64(data)))
            bound = max(bound, int(exact.data_value(np.uint64(data))))
            if bound >= cutoff:
                return bound
        guesses = self._guesses(candidates, played)
        bounds, parts, is_candidate, _ = self._bounds(candidates, guesses, budget)
        useful = (parts > 1) | is_candidate
        floor = exact.INF
        if (useful & (bounds >= cutoff)).any():
            floor = int(bounds[useful & (bounds >= cutoff)].min())
        keep = useful & (bounds < cutoff)
        order = _Ordered(bounds[keep], ~is_candidate[keep], guesses[keep])
        self.counters[self._row, exact.NODES] += 1
        choice = _Choice(cutoff, floor)
        if level == 0 and self._openers_as_jobs(len(order)):
            self._root_jobs(candidates, budget, order, choice)
        elif level == 0 and self.cluster is None and self.workers > 1:
            # jobs on threads: the root's guesses as a second level's are, their parts (second-level nodes) the jobs
            self._second_level(candidates, played, budget, order, choice, level=0)
        elif level == 0:  # the root: its guesses one after the other, each part a second-level node
            for _, key in choice.tries(order):
                self._note(root=self.game.format_code(self.game.guesses[key[1]]))
                total, limit = self._root_total(candidates, key[1], budget, choice.limit(key))
                choice.consider(total, key)
                if choice.key is not None:
                    self._note(best=choice.value)
        else:
            self._second_level(candidates, played, budget, order, choice)
        opening = self._opening(candidates, played)  # what the root is worth after --first is not its value
        if choice.key is not None:
            if opening:
                self._openings[tag] = choice.key[1]
            else:
                self._store(candidates, played, tag, choice.value, True, choice.key[1])
            return choice.value
        bound = max(bound, choice.floor)
        if not opening:
            self._store(candidates, played, tag, bound, bound >= exact.INF, -1)
        return bound

    def _second_level(self, candidates: np.ndarray, played: tuple, budget: int, order: "_Ordered",
                      choice: "_Choice", level: int = 1) -> None:
        """Evaluate the guesses of a node at ``level`` (the root's on threads, else a second-level
        node's; ``order``: (bound, not a candidate, guess), best first) as branch and bound does,
        with the parts of each guess as parallel jobs: the big parts one job each, the small ones
        together. A job's cutoff leaves the other parts their lower bounds, so it is exact or proves
        the guess too costly whatever the others give; the next guess starts when the current ones
        have no part left to hand out."""
        trials: list[_Trial] = []
        n = len(candidates)
        serial = self._new_serial()
        tries = choice.tries(order)

        def open_trial() -> bool:
            index, key = next(tries, (None, None))
            if key is None:
                return False
            parts = self._split(key[1], candidates)
            trials.append(_Trial(key, n, parts, self._lower_bounds(parts, played + (key[1],), budget - 1)))
            if level == 0:
                self._note(root=self.game.format_code(self.game.guesses[key[1]]), root_index=index + 1)
            else:
                self._note(guess_index=index + 1)
            return True

        def next_job():
            while True:
                trials[:] = [trial for trial in trials if not trial.finished()]
                for trial in trials:
                    limit = choice.limit(trial.key)
                    if trial.bound() >= limit:
                        trial.failed = True
                        choice.refute(trial.bound())
                        continue
                    if trial.sent < len(trial.groups):
                        index = trial.sent
                        trial.sent += 1
                        trial.running += 1
                        others = trial.bound() - trial.known[index]
                        fence = None if serial is None else (serial, *trial.key, others)
                        return ((trial, index), "_parts_total", (trial.groups[index], played + (trial.key[1],),
                                                                 budget - 1, limit - others, fence, level + 1))
                    if trial.running == 0:  # no part needed a job: its total is known
                        choice.consider(trial.bound(), trial.key)
                        trial.settled = True
                        self._post(serial, choice)
                if sum(not trial.finished() for trial in trials) >= self._slots() or not open_trial():
                    return None

        def on_result(job, result) -> None:
            trial, index = job
            value, group_cutoff = result
            trial.running -= 1
            if value < group_cutoff:
                trial.known[index] = value  # exact
            else:
                trial.known[index] = max(trial.known[index], value)  # the guess costs too much
                trial.failed = True
            if trial.failed:
                choice.refute(trial.bound())
            elif trial.sent == len(trial.groups) and trial.running == 0:  # every part exact
                choice.consider(trial.bound(), trial.key)
                trial.settled = True
                self._post(serial, choice)

        if level > 0:
            self._note(guesses=len(order), guess_index=0)
        self._schedule(next_job, on_result)

    def _root_total(self, candidates: np.ndarray, guess: int, budget: int, limit: int, fence: tuple | None = None):
        """The least total of a tree opening with ``guess``, and the limit it ended with (as
        ``_parts_total``): the search of one opener, a job when openers are jobs."""
        parts = self._split(guess, candidates)
        bounds = self._lower_bounds(parts, (guess,), budget - 1)
        total = min(len(candidates) + sum(bounds), exact.INF)
        for index, (part, bound) in enumerate(zip(parts, bounds)):
            limit = self._limit_now(fence, limit)
            if total >= limit:
                break
            if len(part) <= 2:
                continue
            self._note(part=f"{index + 1}/{len(parts)}", part_size=len(part))
            rest = total - bound
            value = self._total_node(part, (guess,), budget - 1, limit - rest, 1)
            total = min(rest + value, exact.INF)
        return total, limit

    def _openers_as_jobs(self, count: int) -> bool:
        """Is each first guess a job of its own? With --openers, and on a cluster when the first
        guesses are many (else the jobs are the parts of the second guesses: Bulls and Cows has
        one first guess under symmetry)."""
        if not self._parallel_possible() or self._in_worker:
            return False
        return self.openers is not None or (self.cluster is not None and count >= ROOT_JOBS_PER_SLOT * self._slots())

    def _root_jobs(self, candidates: np.ndarray, budget: int, order: "_Ordered", choice: "_Choice") -> None:
        """The root's guesses (``order``: (bound, not a candidate, guess), best first) as jobs,
        each the whole search below one opener, with the best total on the board."""
        serial = self._new_serial()
        tries = choice.tries(order)
        self._note(openers=len(order), openers_done=0)

        def next_job():
            _, key = next(tries, (None, None))
            if key is None:
                return None
            return key, "_root_total", (candidates, key[1], budget, choice.limit(key), (serial, *key, 0))

        def on_result(key, result) -> None:
            value, limit = result
            if value < limit:
                choice.consider(value, key)
            else:
                choice.refute(value)
            self._post(serial, choice)
            self._note(openers_done=self.status.get("openers_done", 0) + 1,
                       **({} if choice.key is None else {"best": choice.value}))

        self._schedule(next_job, on_result)
        self._note(openers_done=len(order))

    def _new_serial(self) -> int | None:
        """A number for a node whose jobs share its best total, or None in a worker: the board
        is its parent's (jobs within a job run here, each with its own limit)."""
        if self._in_worker:
            return None
        self._serial += 1
        return self._serial

    def minimum_total(self, budget: int | None = None) -> int:
        """The fewest guesses in total, over all secrets, of any tree within ``budget`` guesses
        (None: any depth); ``exact.INF`` if no tree fits the budget."""
        budget = exact.UNLIMITED if budget is None else budget
        root = np.arange(self.n_secrets, dtype=np.int64)
        self._total_below(root[:1], (), budget, exact.INF)  # loaded here once, not by each job's thread
        return self._guarded(lambda: self._total_node(root, (), budget, exact.INF + 1, 0),
                             task=f"minimum total{'' if budget >= exact.UNLIMITED else f' within {budget}'}")

    def optimal_guess(self, candidates: np.ndarray, played: tuple, budget: int | None) -> int:
        """The guess of the canonical optimal tree (least total within ``budget``) at a node."""
        candidates = np.ascontiguousarray(candidates, dtype=np.int64)
        n = len(candidates)
        if n <= 2:
            return int(self.secret_guess[candidates].min())
        budget = exact.UNLIMITED if budget is None else budget
        tag = budget if budget < n else exact.UNLIMITED
        for attempt in range(2):
            if self._opening(candidates, played) and tag in self._openings:
                return self._openings[tag]
            data = np.uint64(self._probe(candidates, played, tag))
            if data and exact.data_exact(data):
                if exact.data_value(data) >= exact.INF:
                    raise Infeasible(f"no tree wins every secret of {self.game!r} within {budget} guesses")
                return int(exact.data_guess(data))
            if attempt == 0:
                if len(played) == 0 and not self._in_worker:
                    self._guarded(lambda: self._total_node(candidates, (), budget, exact.INF + 1, 0),
                                  task="minimum total")
                else:  # a node whose entry was lost: solve it again (its parts are in the table)
                    self._total_below(candidates, played, budget, exact.INF + 1)
        raise RuntimeError(f"the optimal guess for {n} candidates was not found in the table")

    # -- minimum worst case ----------------------------------------------------------------------

    def _within_below(self, candidates: np.ndarray, played: tuple, depth: int) -> bool:
        return bool(exact.within(self.problem, candidates, np.int64(depth), self._mask(played),
                                 self._state(candidates, played)))

    def _within_after(self, candidates: np.ndarray, played: tuple, guess: int, depth: int) -> bool:
        """Can every part left by ``guess`` be won within ``depth - 1`` more guesses? (a job)"""
        return all(len(part) == 1 or self._within_below(part, played + (guess,), depth - 1)
                   for part in self._split(guess, candidates))

    def _within_node(self, candidates: np.ndarray, played: tuple, depth: int, level: int) -> bool:
        n = len(candidates)
        if n == 1:
            return depth >= 1
        if depth < 2 or n > exact.reachable(self.reach, depth):
            return False
        if level >= 2 or depth == 2:
            return self._within_below(candidates, played, depth)
        data = self._probe(candidates, played, exact.FEASIBLE_TAG)
        if data:
            low, high = exact.depths(np.uint64(data))
            if high and high <= depth:
                return True
            if low > depth:
                return False
        guesses = self._guesses(candidates, played)
        _, parts, is_candidate, largest = self._bounds(candidates, guesses, depth, largest=True)
        room = exact.reachable(self.reach, depth - 1)
        keep = ((parts > 1) | is_candidate) & (largest <= room)
        order = _Ordered(largest[keep], -parts[keep], ~is_candidate[keep], guesses[keep])
        self.counters[self._row, exact.NODES] += 1
        if level == 0:
            self._note(root_guesses=len(guesses), root_pruned=int(len(guesses) - keep.sum()))
        else:
            self._note(guesses=len(order))
        found: list = []
        position = [0]

        def next_job():
            if found or position[0] >= len(order):
                return None
            index = position[0]
            position[0] += 1
            guess = order[index][-1]
            if level == 0:
                return (index, guess), None, None
            self._note(guess_index=index + 1)
            return (index, guess), "_within_after", (candidates, played, guess, depth)

        def on_result(job, ok) -> None:
            if ok:
                found.append(job)

        if level == 0:
            while True:
                job = next_job()
                if job is None:
                    break
                (index, guess), _, _ = job
                self._note(root=self.game.format_code(self.game.guesses[guess]), root_index=index + 1)
                parts = [part for part in self._split(guess, candidates) if len(part) > 1]
                self._note(part="1", part_size=len(parts[0]) if parts else 1, jobs_done=0)
                # the largest part first, its guesses as jobs: it fails first if any does; once it
                # passes, the others most likely pass too, so they are the jobs, one each
                ok = not parts or self._within_node(parts[0], (guess,), depth - 1, 1)
                on_result((index, guess), ok and self._all_within(parts[1:], (guess,), depth - 1))
        else:
            self._schedule(next_job, on_result)
        opening = self._opening(candidates, played)
        if found:
            guess = min(found)[1]  # the first success in search order, as one process would find it
            if not opening:
                self._remember_depths(candidates, played, 0, depth, guess)
            return True
        if not opening:
            self._remember_depths(candidates, played, depth + 1, 0, -1)
        return False

    def _all_within(self, parts: list, played: tuple, depth: int) -> bool:
        """Can every one of ``parts`` (second-level nodes) be won within ``depth`` guesses? Each
        part is a job, largest first; none is started after one fails."""
        failed: list = []
        position = [0]

        def next_job():
            if failed or position[0] >= len(parts):
                return None
            position[0] += 1
            part = parts[position[0] - 1]
            self._note(part=f"{position[0] + 1}", part_size=len(part))
            return position[0], "_within_node", (part, played, depth, 1)

        def on_result(job, ok) -> None:
            if not ok:
                failed.append(job)

        self._schedule(next_job, on_result)
        return not failed

    def _remember_depths(self, candidates, played: tuple, low: int, high: int, guess: int) -> None:
        h1, h2 = self._key(candidates, played, exact.FEASIBLE_TAG)
        exact.remember_depths(self.table, h1, h2, np.int64(low), np.int64(high), np.int64(guess),
                               np.int64(len(candidates)))

    def minimum_worst(self) -> Report:
        """The fewest guesses that win every secret, proven on both sides: a tree that achieves
        it, and an exhaustive search showing that one guess fewer cannot."""
        if self.fewest_worst is not None:
            return self.fewest_worst
        started, nodes = time.monotonic(), self.nodes
        root = np.arange(self.n_secrets, dtype=np.int64)
        depth = 1
        while root.size > exact.reachable(self.reach, depth):
            depth += 1
        counted = depth  # below this, counting alone refutes
        self._within_below(root[:1], (), depth)  # loaded here once, not by each job's thread
        refuted: dict = {}
        while True:
            self.status = {}
            ok = self._guarded(lambda: self._within_node(root, (), depth, 0), task=f"worst case <= {depth}?")
            if ok:
                break
            refuted = {"depth": depth, "root_guesses": self.status.get("root_guesses", 0),
                       "root_guesses_pruned_by_counting": self.status.get("root_guesses_pruned", 0)}
            depth += 1
        witness = self._witness(root, depth)
        if depth == counted:
            lower = (f"{self.n_secrets} secrets are more than any tree of {depth - 1} guesses can win "
                     f"({int(exact.reachable(self.reach, depth - 1))}: no guess gets more than {self.children} "
                     "answers besides the win)")
        elif depth - 1 == 2:  # refuted by the compiled search at once: no first guess splits all apart
            lower = "exhaustive search: no first guess gives every secret a different answer"
        else:
            classes = " (one per symmetry class)" if self.symmetry is not None else ""
            lower = (f"exhaustive search: none of the {refuted['root_guesses']} first guesses{classes} "
                     f"leaves parts that can all be won within {depth - 2} more guesses")
        proof = {
            "upper": {"depth": depth, "first_guess": self.game.format_code(self.game.guesses[witness["first"]]),
                      "tree_total": witness["total"], "tree_nodes": witness["nodes"]},
            "lower": {"impossible": depth - 1, "by": lower},
        }
        self.fewest_worst = Report(worst=depth, nodes=self.nodes - nodes,
                                   seconds=time.monotonic() - started, proof=proof)
        return self.fewest_worst

    def _witness(self, root: np.ndarray, depth: int) -> dict:
        """The tree that the worst-case search found (from the table): its first guess and size."""
        total = nodes = 0
        stack = [(root, (), depth, 0)]
        first = None
        while stack:
            candidates, played, left, above = stack.pop()
            if len(candidates) == 1:
                total += above + 1
                nodes += 1
                continue
            guess = self._witness_guess(candidates, played, left)
            first = guess if first is None else first
            nodes += 1
            if self.guess_secret[guess] >= 0 and self.guess_secret[guess] in set(candidates.tolist()):
                total += above + 1
            for part in self._split(guess, candidates):
                stack.append((part, played + (guess,), left - 1, above + 1))
        return {"first": first, "total": total, "nodes": nodes}

    def _witness_guess(self, candidates: np.ndarray, played: tuple, depth: int) -> int:
        if self._opening(candidates, played):
            return self.first
        if depth == 2 or len(candidates) == 2:
            guesses = self._guesses(candidates, played) if len(candidates) > 2 else self.secret_guess[candidates]
            return int(exact.any_perfect(self.by_secret, guesses, candidates, np.int64(self.n_feedbacks)))
        for _ in range(2):
            data = np.uint64(self._probe(candidates, played, exact.FEASIBLE_TAG))
            if data:
                low, high = exact.depths(data)
                if high and high <= depth and exact.data_guess(data) >= 0:
                    return int(exact.data_guess(data))
            self._within_below(candidates, played, depth)  # lost from the table: find it again
        raise RuntimeError("the worst-case search's tree was not found in the table")

    # -- the optimal strategies -----------------------------------------------------------------

    def solve(self, objective: str, max_depth: int | None = None) -> Report:
        """Solve the game for ``objective`` (``optimal-worst``: the least total among trees of the
        fewest guesses in the worst case; ``optimal-expected``: the least total, within
        ``max_depth`` if given), with the proof the artifact records."""
        if objective not in OBJECTIVES:
            raise ValueError(f"unknown objective: {objective!r}; choose from {', '.join(OBJECTIVES)}")
        key = (objective, max_depth)
        if key not in self._solved:
            started, nodes = time.monotonic(), self.nodes
            depth = self.minimum_worst().worst if objective == "optimal-worst" else max_depth
            total = self.minimum_total(depth)
            opening = "" if self.first is None else \
                f" opening with {self.game.format_code(self.game.guesses[self.first])}"
            if total >= exact.INF and depth is None:
                raise Infeasible(f"no tree{opening} wins every secret of {self.game!r}")
            if total >= exact.INF:
                raise Infeasible(f"no tree{opening} wins every secret of {self.game!r} within {depth} guesses "
                                 "(guesstree bound finds the fewest)")
            proof = {"optimal": True}
            scope = self.opener_scope  # set when --openers restricted the root
            if scope is not None and scope["openers"] < scope["of"]:  # fewer openers than all: no proof
                opening = f" opening with one of the {scope['openers']} best first guesses by {scope['ranked_by']}"
                proof = {"optimal": False, "optimal_among": f"{scope['openers']} opener{'s' * (scope['openers'] > 1)}",
                         "openers_ranked_by": scope["ranked_by"], "openers_of": scope["of"]}
            if objective == "optimal-worst":
                proof["minimum_worst"] = depth
                proof["minimum_total"] = total
                proof["proven"] = (f"exhaustive search: no tree{opening} wins every secret within {depth - 1} "
                                   f"guesses, and none within {depth} takes fewer than {total} guesses in all")
            else:
                proof["minimum_total"] = total
                within = "" if depth is None else f" among trees that win every secret within {depth} guesses"
                proof["proven"] = (f"exhaustive search: no tree{opening} takes fewer than {total} guesses in all "
                                   f"over the {self.n_secrets} secrets{within}")
            if not proof["optimal"]:
                proof["proven"] = (f"optimal among {proof['optimal_among']} (of {scope['of']}), not proven optimal; "
                                   + proof["proven"])
            self._solved[key] = Report(worst=depth, total=total, nodes=self.nodes - nodes,
                                       seconds=time.monotonic() - started, proof=proof)
        report = self._solved[key]
        self.context.memo["proof"] = report.proof
        return report

    def choose(self, node, objective: str, max_depth: int | None = None) -> int:
        """The guess that the canonical optimal tree plays at ``node`` (a builder ``Node``)."""
        report = self.solve(objective, max_depth)
        budget = None if report.worst is None else report.worst - len(node.path)
        return self.optimal_guess(node.candidates, node.played, budget)

    # -- running: workers, progress, interruption, checkpoints ---------------------------------

    def _note(self, **status) -> None:
        self.status.update(status)
        self._tick()

    def _tick(self) -> None:
        if self._in_worker:
            return
        now = time.monotonic()
        if self.progress is not None:
            self.progress({**self.status, "nodes": self.nodes, "seconds": now - self._started})
        if self.checkpoint is not None and now - self._saved > CHECKPOINT_EVERY:
            self.save(self.checkpoint)

    def _guarded(self, run: Callable, task: str):
        """Run a top-level search; on Ctrl-C (or a cluster that fails it) stop the workers, save
        the table, raise Interrupted (or the cluster's error)."""
        from .cluster import ClusterError

        self.status["task"] = task
        try:
            result = run()
        except (KeyboardInterrupt, ClusterError) as error:
            self.close()
            if self.checkpoint is not None:
                self.save(self.checkpoint)
            if isinstance(error, ClusterError):
                raise ClusterError(str(error), self.checkpoint) from None
            raise Interrupted(self.checkpoint) from None
        if self.checkpoint is not None:
            self.save(self.checkpoint)
        return result

    def _parallel_possible(self) -> bool:
        """Do jobs run elsewhere (threads here, or a cluster's workers)?"""
        return self.cluster is not None or self.workers > 1

    def _slots(self) -> int:
        """How many jobs run at once."""
        return self._jobs.slots if self._jobs is not None else self.workers

    def _schedule(self, next_job: Callable, on_result: Callable) -> None:
        """Run the jobs that ``next_job()`` hands out (``(key, method, args)``, or None when none
        can start now), on the workers when it pays, and feed each result to ``on_result``
        until nothing is left to start or running."""
        if self._in_worker or not self._parallel_possible():
            while (job := next_job()) is not None:
                key, method, args = job
                on_result(key, getattr(self, method)(*args))
                self._note(jobs_done=self.status.get("jobs_done", 0) + 1)
            return
        jobs = self._start_jobs()
        running: dict = {}  # job handle -> key
        while True:
            while len(running) < jobs.capacity:
                job = next_job()
                if job is None:
                    break
                key, method, args = job
                running[jobs.submit(method, args)] = key
            self._note(in_flight=len(running))
            if not running:
                return
            for handle in jobs.finished(list(running), timeout=0.5):
                key = running.pop(handle)
                on_result(key, jobs.result(handle))
                self._note(jobs_done=self.status.get("jobs_done", 0) + 1, in_flight=len(running))
            self._tick()

    def _start_jobs(self):
        """Where the jobs run, started on first use: threads of this process, or the cluster."""
        if self._jobs is None:
            if self.cluster is not None:
                from .cluster import DaskJobs

                self._jobs = DaskJobs(self.cluster, _cluster_job, self._search(), self._absorb,
                                      self.table[self.table[:, 2] != 0])
                self.board = self._jobs.board
                self._note(dashboard=self._jobs.dashboard, workers=self._jobs.slots)
            else:
                self._jobs = _ThreadJobs([self._view(row) for row in range(1, self.workers + 1)], self.stop)
        return self._jobs

    def _search(self) -> dict:
        """What a cluster's worker needs to take part in this search (see ``_cluster_job``)."""
        import uuid

        import player

        game, context = self.game, self.context
        return {"id": uuid.uuid4().hex, "version": player.__version__, "game": repr(game),
                "recipe": context.portable_recipe(),
                "fingerprint": fingerprint(game, self.matrix)}

    def _absorb(self, entries: np.ndarray, nodes: int, seconds: float) -> None:
        """What a cluster's job learned: the table entries of its result, and its effort."""
        if len(entries):
            exact.restore(self.table, entries)
        self.counters[self._row, exact.NODES] += nodes
        self.job_seconds += seconds

    def job_entries(self, method: str, args: tuple) -> np.ndarray:
        """The table entries that make a finished job's result usable by a process without this
        table (a cluster's client): the entry of each node the job solved (exact, or a bound)
        and, below an exact one, those of its optimal tree, as the builder will look them up."""
        worst = method in ("_within_after", "_within_node")
        if method == "_parts_total":
            parts, played, budget = args[:3]
            stack = [(part, played, budget) for part in parts]
        elif method == "_within_node":  # (candidates, played, depth, level)
            stack = [args[:3]]
        else:  # _root_total (candidates, guess, budget, ...), _within_after (candidates, played, guess, depth)
            candidates, played, guess, budget = (args[0], (), args[1], args[2]) if not worst else args[:4]
            stack = [(part, played + (guess,), budget - 1) for part in self._split(guess, candidates)]
        rows = []
        while stack:
            candidates, played, budget = stack.pop()
            n = len(candidates)
            if n <= 2 or (worst and budget <= 2):
                continue  # never looked up: solved on the spot
            tag = exact.FEASIBLE_TAG if worst else (budget if budget < n else exact.UNLIMITED)
            h1, h2 = self._key(candidates, played, tag)
            data = exact.probe(self.table, h1, h2)
            if not data:
                continue
            rows.append((h1 ^ data, h2 ^ data, data))
            guess = int(exact.data_guess(data))
            if worst:
                low, high = exact.depths(data)
                solved = high and high <= budget and guess >= 0
            else:
                solved = exact.data_exact(data) and exact.data_value(data) < exact.INF and guess >= 0
            if solved:
                stack.extend((part, played + (guess,), budget - 1) for part in self._split(guess, candidates))
        return np.array(rows, dtype=np.uint64).reshape(-1, 3)

    def close(self) -> None:
        """Stop the jobs (the table stays)."""
        if self._jobs is not None:
            self._jobs.close()
            self._jobs = None

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def _view(self, row: int) -> "Solver":
        """This solver as a job's thread runs it: the same game, table and board, and a row of
        counters of its own; its jobs run where it is, and it reports no progress."""
        view = copy.copy(self)
        view._in_worker, view._row, view._jobs, view.status = True, row, None, {}
        view.problem = self.problem._replace(counters=self.counters[row])
        return view

    def save(self, path: str | os.PathLike) -> Path:
        """Write the table's entries to ``path`` atomically (see trees/CHECKPOINT.md)."""
        self._saved = time.monotonic()
        return checkpoint.save(path, self.table, self._identity())

    def load(self, path: str | os.PathLike) -> int:
        """Add a checkpoint's entries to the table; refuses one made for another search."""
        entries = checkpoint.load(path, self._identity())
        exact.restore(self.table, entries)
        return len(entries)

    def _identity(self) -> dict:
        return {"game": self.game.identity(), "candidates": "consistent" if self.consistent else "all"}


class _Ordered:
    """The rows of the columns ``keys`` as tuples, in ascending order (as ``sorted`` would give
    them), made as they are read: a node's search often reads only its first few."""

    def __init__(self, *keys: np.ndarray):
        order = np.lexsort(keys[::-1])
        self._columns = [key[order] for key in keys]

    def __len__(self) -> int:
        return len(self._columns[0])

    def __getitem__(self, index: int) -> tuple:
        return tuple(column[index].item() for column in self._columns)

    def __iter__(self):
        for start in range(0, len(self), 64):
            yield from zip(*(column[start:start + 64].tolist() for column in self._columns))


def _pages(slots: int) -> np.ndarray:
    """An empty table of its own: anonymous mapped pages (numpy's zeros would ask for huge pages,
    and a table touched at random places would then hold 2 MiB for every entry)."""
    return np.frombuffer(mmap.mmap(-1, slots * 24), dtype=np.uint64).reshape(slots, 3)


def worker_count(workers: int | None) -> int:
    """``--workers``, or one per core."""
    return max(1, (os.cpu_count() or 1) if workers is None else workers)


class Board:
    """The best total of the node being searched in parallel, as the jobs' threads read it (see
    Solver._limit_now): (the node's serial, the total, its guess's tie-break key), or None. One
    tuple, replaced whole, so a reader never sees half of one."""

    def __init__(self):
        self.best: tuple | None = None

    def write(self, best: tuple) -> None:
        self.best = best

    def read(self) -> tuple | None:
        return self.best


class _ThreadJobs:
    """Jobs on threads of this process, one per core: the compiled searches release the GIL, so
    they run at once over the one table, with nothing to start or copy. Each thread runs its jobs
    on a view of the solver (``views``: one per thread). ``stop``: set to make running searches
    give up (a compiled search raises ``exact.Stopped`` at its next node)."""

    def __init__(self, views: list, stop: np.ndarray):
        self.slots = self.capacity = len(views)
        self._views: queue.SimpleQueue = queue.SimpleQueue()
        for view in views:
            self._views.put(view)
        self._stop = stop
        self._threads = ThreadPoolExecutor(len(views), thread_name_prefix="guesstree-search")

    def submit(self, method: str, args: tuple):
        return self._threads.submit(self._run, method, args)

    def _run(self, method: str, args: tuple):
        view = self._views.get()
        try:
            return getattr(view, method)(*args)
        finally:
            self._views.put(view)

    def finished(self, handles: list, timeout: float) -> list:
        return list(wait(handles, timeout=timeout, return_when=FIRST_COMPLETED)[0])

    def result(self, handle):
        return handle.result()

    def close(self) -> None:
        self._stop[0] = 1
        self._threads.shutdown(wait=True, cancel_futures=True)
        self._stop[0] = 0


def fingerprint(game, matrix: np.ndarray) -> str:
    """What two processes must agree on to search the same game: its identity and every feedback."""
    digest = hashlib.sha256(json.dumps(game.identity(), sort_keys=True, default=str).encode())
    digest.update(np.ascontiguousarray(matrix).data)
    return digest.hexdigest()


_searches: dict = {}  # in a cluster's worker: the solver of the search it works for


def _cluster_job(search: dict, method: str, args: tuple, seed):
    """A job on a cluster's worker: ``method(*args)`` of this search's solver, made on the first
    job (and seeded with the entries of a resumed search's checkpoint, ``seed``). Returns the
    result, the table entries the client needs (``Solver.job_entries``) and the nodes searched;
    with ``method`` None only makes the solver. A worker with another guesstree, or one that
    rebuilds another game, is refused."""
    from .cluster import Refused, VariableBoard, worker_address

    with _lock:
        solver = _searches.get(search["id"])
        if solver is None:
            import player

            if search["version"] != player.__version__:
                raise Refused(f"the worker at {worker_address()} runs guesstree {player.__version__}, this client "
                              f"guesstree {search['version']}: install the same version on every machine")
            setup, arguments = search["recipe"]
            try:
                context = setup(*arguments)
            except ValueError as error:
                raise Refused(f"the worker at {worker_address()} cannot make the game {search['game']}: {error}") from None
            if fingerprint(context.game, context.matrix) != search["fingerprint"]:
                raise Refused(f"the worker at {worker_address()} makes another game than {search['game']} from the "
                              "same description (another version of its plugin or word lists?)")
            for old in _searches.values():
                old.close()
            _searches.clear()
            solver = _searches[search["id"]] = Solver(context, workers=1, board=VariableBoard(search["id"]))
            if seed is not None and len(seed):
                exact.restore(solver.table, seed)
        if method is None:  # a worker's first job, sent when the search starts: ready, or refused
            return None
        nodes, started = solver.nodes, time.perf_counter()
        result = getattr(solver, method)(*args)
        return result, solver.job_entries(method, args), solver.nodes - nodes, time.perf_counter() - started


def solver_for(context, **settings) -> Solver:
    """The build's solver, made on first use and kept in ``context.memo``."""
    solver = context.memo.get("optimal")
    if solver is None:
        solver = context.memo["optimal"] = Solver(context, **settings)
    return solver

"""The least total of any tree: the top two levels' branch and bound, above the compiled recursion.

The two levels above the third guess run here, where they can afford more: guesses are reduced to
one per class of the symmetries that fix the history (renaming played colours too; the third
level gets its classes handed to the compiled search), and the parts that a node's guesses leave
are solved as jobs (``jobs.py``), as the solver's dispatch policy says (``dispatch.py``, chosen
once): on threads the jobs are the first guesses' parts (second-level nodes, each searched whole
by one thread); on a cluster the second guesses' parts, or, with many first guesses, each first
guess. A root of many first guesses (``--openers K`` among them) is searched as the openers'
ranking searches them (``ranking.ranked_root``). Running jobs tighten their cutoffs with the best
total found meanwhile (the board). Before any part of a guess is searched, its parts are weighed
by the one rule (``Space.weigh``, compiled ``recursion.weigh_parts``): every part's counting bound,
then every part but the largest gets a lower bound from one guess's lookahead, largest first while
the sum is below the guess's limit: their sum refutes many guesses at once, and leaves the
largest part a tight cutoff. Below the root, a job's guess is one compiled
call (``recursion.guess_total``). The choice among guesses follows the canonical tie-break (the
least total, then a possible secret, then the lowest guess), so the tree is the same for any
number of workers and any cluster.
"""
from __future__ import annotations

import numpy as np

from .choice import Choice, Ordered
from .jobs import tightened
from .table import INF, UNLIMITED, data_exact, data_guess, data_value
from .weighing import Root, Settled


class Infeasible(ValueError):
    """No tree wins every secret within the depth asked for."""


class TotalSearch:
    """The minimum-total search of ``solver`` (a ``Solver``, or a job's view of one) at the top
    levels: each node's guesses by branch and bound, weighed by the kind the solver's dispatch
    policy chooses (``dispatch.py``, ``weighing.py``): one after the other here, their parts as
    jobs, themselves as jobs, or as the openers' ranking weighs them."""

    def __init__(self, solver):
        self.solver, self.space = solver, solver.space
        self.openings: dict[int, int] = {}  # with --first or --openers: the best opener, by the root's tag
        self._serial = 0

    # -- what the jobs run -------------------------------------------------------------------------

    def parts_total(self, parts: list, played: tuple, budget: int, limit: int, fence: tuple | None = None,
                    level: int = 2):
        """What a ``jobs.PartsTotal`` returns: ``(total, limit)``."""
        bounds = self.space.lower_bounds(parts, played, budget, 0, limit)
        return self._search_parts(parts, bounds, played, budget, limit, fence, level)

    def root_total(self, candidates: np.ndarray, guess: int, budget: int, limit: int, fence: tuple | None = None,
                   played: tuple = ()):
        """What a ``jobs.RootTotal`` returns: the least total of a tree opening with ``guess`` (after ``played``),
        and the limit it ended with: an opener's search, or a node's guess's (one compiled call with no board)."""
        if played and fence is None:  # (a fence: the board may tighten the limit between parts)
            return self.space.guess_total(candidates, played, guess, budget, limit), limit
        parts = self.space.split(guess, candidates)
        after = played + (guess,)
        bounds = self.space.lower_bounds(parts, after, budget - 1, len(candidates), limit)
        return self._search_parts(parts, bounds, after, budget - 1, limit, fence, len(after), len(candidates))

    def _search_parts(self, parts: list, bounds: list[int], played: tuple, budget: int, limit: int,
                      fence: tuple | None, level: int, base: int = 0) -> tuple[int, int]:
        """The least total of ``parts`` (largest first, at ``level``; ``bounds``: lower bounds on
        theirs) plus ``base``, if below ``limit``, else a lower bound at least the limit it ended
        with: each part searched in turn against what the others' bounds leave of the limit, as
        ``recursion.guess_total`` searches them. ``(total, limit)``."""
        total = min(base + sum(bounds), INF)
        for index, (part, bound) in enumerate(zip(parts, bounds)):
            limit = self.limit_now(fence, limit)
            if total >= limit:
                break
            if len(part) <= 2:
                continue  # its bound is exact
            if level == 1:  # where a long search is: the first guess's part
                self.solver.note(part=f"{index + 1}/{len(parts)}", part_size=len(part))
            rest = total - bound
            total = min(rest + self.node(part, played, budget, limit - rest, level), INF)
        return total, limit

    def limit_now(self, fence: tuple | None, limit: int) -> int:
        """A running job's limit, tightened by the best total on the board (``jobs.tightened``)."""
        return limit if fence is None else tightened(self.solver.board.read(), fence, limit)

    # -- a node of the top levels ------------------------------------------------------------------

    def root(self, budget: int) -> Root:
        """The root's least total within ``budget``, stored in the table (or, where the first guesses
        are restricted, its best opener in ``openings``), and how its first guesses were settled.
        The root is always searched (quick from a warm table): its value comes with the tally."""
        space = self.space
        candidates = np.arange(space.n_secrets, dtype=np.int64)
        bound = space.counted(len(candidates), budget)
        if len(candidates) <= 2 or bound >= INF:
            return Root(bound)
        choice, settled = self._choose(candidates, (), budget, INF + 1, 0)
        tag = space.tag(len(candidates), budget)
        value, guess = (choice.value, choice.key[1]) if choice.key is not None else (max(bound, choice.floor), -1)
        if space.opening(candidates, ()):  # what the root is worth after --first is not its value
            if guess >= 0:
                self.openings[tag] = guess
        else:
            space.store(candidates, (), tag, value, value >= INF or guess >= 0, guess)
        return Root(value, settled or Settled())  # (guesses as jobs: not counted)

    def node(self, candidates: np.ndarray, played: tuple, budget: int, cutoff: int, level: int) -> int:
        """Like ``recursion.min_total`` for the second level (``level`` 1; below, that search itself):
        symmetry classes, and the node's guesses weighed as the dispatch policy says. Stores what it
        solves in the table."""
        space, n = self.space, len(candidates)
        bound = space.counted(n, budget)
        if n <= 2 or bound >= INF or bound >= cutoff:
            return bound  # exact, or enough (as min_total finds it)
        if level >= 2:
            return space.total_below(candidates, played, budget, cutoff)
        tag = space.tag(n, budget)
        data = np.uint64(space.probe(candidates, played, tag))
        if data:
            if data_exact(data):
                return int(data_value(data))
            bound = max(bound, int(data_value(data)))
            if bound >= cutoff:
                return bound
        choice, _ = self._choose(candidates, played, budget, cutoff, level)
        if choice.key is not None:
            space.store(candidates, played, tag, choice.value, True, choice.key[1])
            return choice.value
        bound = max(bound, choice.floor)
        space.store(candidates, played, tag, bound, bound >= INF, -1)
        return bound

    def _choose(self, candidates: np.ndarray, played: tuple, budget: int, cutoff: int,
                level: int) -> tuple[Choice, Settled | None]:
        """The node's guesses, bounded by counting, then weighed best first as the dispatch policy
        says; at the root, with how its first guesses were settled."""
        space, dispatch = self.space, self.solver.dispatch
        guesses = space.guesses(candidates, played)
        bounds, parts, is_candidate, _ = space.bounds(candidates, guesses, budget)
        useful = (parts > 1) | is_candidate
        floor = INF
        if (useful & (bounds >= cutoff)).any():
            floor = int(bounds[useful & (bounds >= cutoff)].min())
        keep = useful & (bounds < cutoff)
        order = Ordered(bounds[keep], ~is_candidate[keep], guesses[keep])
        space.count_node()
        choice = Choice(cutoff, floor)
        kind = dispatch.root(self, len(order)) if level == 0 else dispatch.second()
        return choice, kind(self, candidates, played, budget, order, choice, level).run()

    def new_serial(self) -> int | None:
        """A number for a node whose jobs share its best total, or None in a job: the board is its
        parent's (jobs within a job run here, each with its own limit)."""
        if self.solver.inside:
            return None
        self._serial += 1
        return self._serial

    def post(self, serial: int, choice: Choice) -> None:
        """Put a node's best total on the board, for its running jobs."""
        if choice.key is not None and not self.solver.inside:
            self.solver.board.write((serial, choice.value, *choice.key))

    # -- the searches a solver starts --------------------------------------------------------------

    def minimum(self, budget: int | None = None) -> Root:
        """The fewest guesses in total, over all secrets, of any tree within ``budget`` guesses
        (None: any depth; ``INF`` if no tree fits the budget), with how its first guesses were settled."""
        budget = UNLIMITED if budget is None else budget
        root = np.arange(self.space.n_secrets, dtype=np.int64)
        self.space.total_below(root[:1], (), budget, INF)  # loaded here once, not by each job's thread
        return self.solver.guarded(lambda: self.root(budget),
                                   task=f"minimum total{'' if budget >= UNLIMITED else f' within {budget}'}")

    def optimal_guess(self, candidates: np.ndarray, played: tuple, budget: int | None) -> int:
        """The guess of the canonical optimal tree (least total within ``budget``) at a node."""
        space = self.space
        candidates = np.ascontiguousarray(candidates, dtype=np.int64)
        n = len(candidates)
        if n <= 2:
            return int(space.secret_guess[candidates].min())
        budget = UNLIMITED if budget is None else budget
        tag = space.tag(n, budget)
        for attempt in range(2):
            if space.opening(candidates, played) and tag in self.openings:
                return self.openings[tag]
            data = np.uint64(space.probe(candidates, played, tag))
            if data and data_exact(data):
                if data_value(data) >= INF:
                    raise Infeasible(f"no tree wins every secret of {space.game.title()} within {budget} guesses")
                return int(data_guess(data))
            if attempt == 0:
                if len(played) == 0 and not self.solver.inside:
                    self.minimum(budget)
                else:  # a node whose entry was lost: solve it again (its parts are in the table)
                    space.total_below(candidates, played, budget, INF + 1)
        raise RuntimeError(f"the optimal guess for {n} candidates was not found in the table")

"""The fewest guesses that win every secret: the top levels of the worst-case search, above the
compiled ``recursion.within``, and the tree it found.

The root's guesses are tried in turn; for each, its largest part first, with that part's guesses
as jobs (it fails first if any does), and once it passes, the other parts, one job each. The
first guess that passes, in search order, is the one a single process would find.
"""
from __future__ import annotations

import numpy as np

from . import recursion
from .choice import Ordered
from .counting import reachable
from .jobs import WithinAfter, WithinNode
from .proof import WorstCase
from .table import FEASIBLE_TAG, data_guess, depths


class WorstSearch:
    """The worst-case search of ``solver`` (a ``Solver``, or a job's view of one) at the top levels."""

    def __init__(self, solver):
        self.solver, self.space = solver, solver.space

    def within_after(self, candidates: np.ndarray, played: tuple, guess: int, depth: int) -> bool:
        """What a ``jobs.WithinAfter`` returns."""
        return all(len(part) == 1 or self.space.within_below(part, played + (guess,), depth - 1)
                   for part in self.space.split(guess, candidates))

    def within_node(self, candidates: np.ndarray, played: tuple, depth: int, level: int) -> bool:
        """What a ``jobs.WithinNode`` returns: can every candidate be won within ``depth`` guesses?"""
        space, solver = self.space, self.solver
        n = len(candidates)
        if n == 1:
            return depth >= 1
        if depth < 2 or n > reachable(space.reach, depth):
            return False
        if level >= 2 or depth == 2:
            return space.within_below(candidates, played, depth)
        data = space.probe(candidates, played, FEASIBLE_TAG)
        if data:
            low, high = depths(np.uint64(data))
            if high and high <= depth:
                return True
            if low > depth:
                return False
        guesses = space.guesses(candidates, played)
        _, parts, is_candidate, largest = space.bounds(candidates, guesses, depth, largest=True)
        room = reachable(space.reach, depth - 1)
        keep = ((parts > 1) | is_candidate) & (largest <= room)
        order = Ordered(largest[keep], -parts[keep], ~is_candidate[keep], guesses[keep])
        space.count_node()
        if level == 0:
            solver.note(root_guesses=len(guesses), root_pruned=int(len(guesses) - keep.sum()))
            found = self._root_guess(candidates, depth, order)
        else:
            solver.note(guesses=len(order))
            found = self._any_guess(candidates, played, depth, order)
        opening = space.opening(candidates, played)
        if found is not None:
            if not opening:
                space.remember_depths(candidates, played, 0, depth, found)
            return True
        if not opening:
            space.remember_depths(candidates, played, depth + 1, 0, -1)
        return False

    def _root_guess(self, candidates: np.ndarray, depth: int, order: Ordered) -> int | None:
        """The first root guess (in ``order``) whose parts can all be won within ``depth - 1`` more:
        its largest part first, that part's guesses as jobs (it fails first if any does); once it
        passes, the others most likely pass too, so they are the jobs, one each."""
        space, solver = self.space, self.solver
        for index in range(len(order)):
            guess = order[index][-1]
            solver.note(root=space.game.format_code(space.game.guesses[guess]), root_index=index + 1)
            parts = [part for part in space.split(guess, candidates) if len(part) > 1]
            solver.note(part="1", part_size=len(parts[0]) if parts else 1, jobs_done=0)
            ok = not parts or self.within_node(parts[0], (guess,), depth - 1, 1)
            if ok and self._all_within(parts[1:], (guess,), depth - 1):
                return guess
        return None

    def _any_guess(self, candidates: np.ndarray, played: tuple, depth: int, order: Ordered) -> int | None:
        """The first guess (in ``order``) after which every part can be won in time, its guesses as
        jobs; none is started after one succeeds."""
        found: list = []
        position = [0]

        def next_job():
            if found or position[0] >= len(order):
                return None
            index = position[0]
            position[0] += 1
            guess = order[index][-1]
            self.solver.note(guess_index=index + 1)
            return (index, guess), WithinAfter(candidates, played, guess, depth)

        def on_result(job, ok) -> None:
            if ok:
                found.append(job)

        self.solver.schedule(next_job, on_result)
        return min(found)[1] if found else None  # the first success in search order

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
            self.solver.note(part=f"{position[0] + 1}", part_size=len(part))
            return position[0], WithinNode(part, played, depth, 1)

        def on_result(job, ok) -> None:
            if not ok:
                failed.append(job)

        self.solver.schedule(next_job, on_result)
        return not failed

    def minimum(self) -> WorstCase:
        """The fewest guesses that win every secret, proven on both sides: a tree that achieves
        it, and an exhaustive search showing that one guess fewer cannot."""
        space, solver = self.space, self.solver
        root = np.arange(space.n_secrets, dtype=np.int64)
        depth = 1
        while root.size > reachable(space.reach, depth):
            depth += 1
        counted = depth  # below this, counting alone refutes
        space.within_below(root[:1], (), depth)  # loaded here once, not by each job's thread
        refuted_root_guesses = 0
        while True:
            solver.status = {}
            if solver.guarded(lambda depth=depth: self.within_node(root, (), depth, 0), task=f"worst case <= {depth}?"):
                break
            refuted_root_guesses = solver.status.get("root_guesses", 0)
            depth += 1
        first, total, nodes = self._witness(root, depth)
        return WorstCase(depth=depth, first_guess=space.game.format_code(space.game.guesses[first]),
                         tree_total=total, tree_nodes=nodes, counted=counted, secrets=space.n_secrets,
                         reachable=int(reachable(space.reach, depth - 1)), children=space.children,
                         root_guesses=refuted_root_guesses, by_class=space.symmetry is not None)

    def _witness(self, root: np.ndarray, depth: int) -> tuple[int, int, int]:
        """The tree that the worst-case search found (from the table): its first guess, total and nodes."""
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
            if self.space.guess_secret[guess] >= 0 and self.space.guess_secret[guess] in set(candidates.tolist()):
                total += above + 1
            for part in self.space.split(guess, candidates):
                stack.append((part, played + (guess,), left - 1, above + 1))
        return first, total, nodes

    def _witness_guess(self, candidates: np.ndarray, played: tuple, depth: int) -> int:
        space = self.space
        if space.opening(candidates, played):
            return space.first
        if depth == 2 or len(candidates) == 2:
            guesses = space.guesses(candidates, played) if len(candidates) > 2 else space.secret_guess[candidates]
            return int(recursion.any_perfect(space.by_secret, guesses, candidates, np.int64(space.n_feedbacks)))
        for _ in range(2):
            data = np.uint64(space.probe(candidates, played, FEASIBLE_TAG))
            if data:
                low, high = depths(data)
                if high and high <= depth and data_guess(data) >= 0:
                    return int(data_guess(data))
            space.within_below(candidates, played, depth)  # lost from the table: find it again
        raise RuntimeError("the worst-case search's tree was not found in the table")

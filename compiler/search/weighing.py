"""The ways to weigh a node's guesses at the top two levels (``total.py``), one small class each,
chosen by the solver's dispatch policy (``dispatch.py``) and run once per node (``run``): the
guesses one after the other (``EachGuess``), their parts as jobs (``PartsAsJobs``), the guesses
themselves as jobs (``GuessesAsJobs``), or as the openers' ranking weighs them (``Ranked``). Each is
made with the node (its candidates, the guesses played, the budget, its guesses in order best
first as ``(bound, not a candidate, guess)``, the ``Choice`` that keeps the best, its level) and
returns, at the root, how its first guesses were settled. The job-handing ones have the shape of
``ranking.OpenerSearch``: ``next_job`` hands out the next job (or None), ``on_result`` takes one
back, and the solver's ``schedule`` runs them wherever the policy says."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .choice import Choice, Ordered
from .jobs import PartsTotal, RootTotal
from .ranking import ranked_root
from .table import INF

BIG_PART = 64  # a part at least this big is a job of its own; a guess's smaller parts share one


@dataclass(frozen=True)
class Settled:
    """How the root's first guesses were settled: by a bound alone, or by a search of some part
    (effort, which depends on the order jobs finish in: never part of an artifact); and where the
    ranking searched the root, what the full proof's header says of them, the same in every run
    (``proven``: ``ranking.ranked_root``)."""

    bound: int = 0
    search: int = 0
    proven: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Root:
    """What the search of the root found: its least total (``INF``: no tree fits the budget) and
    how its first guesses were settled."""

    value: int
    settled: Settled = Settled()


class Trial:
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
        return min(self.base + sum(self.known), INF)

    def size(self, index: int) -> int:
        """The secrets of the group of parts ``index`` (one job)."""
        return sum(len(part) for part in self.groups[index])

    def finished(self) -> bool:
        return self.failed or self.settled


class Weighing:
    """One node's guesses, to be weighed by ``run`` (each kind below): over ``search`` (a
    ``TotalSearch``) and its solver, with ``choice`` keeping the best."""

    def __init__(self, search, candidates: np.ndarray, played: tuple, budget: int, order: Ordered, choice: Choice,
                 level: int):
        self.search, self.solver, self.space = search, search.solver, search.space
        self.candidates, self.played, self.budget = candidates, played, budget
        self.order, self.choice, self.level = order, choice, level

    def run(self) -> Settled | None:
        raise NotImplementedError


class Ranked(Weighing):
    """The root's first guesses as the openers' ranking searches them, with K = 1 (``ranking.ranked_root``)."""

    def run(self) -> Settled:
        found = ranked_root(self.solver, self.budget, self.choice)
        refuted = found["refuted_by_bound"]
        return Settled(refuted, found["first_guesses"] - refuted, found if self.space.openers is None else {})


class EachGuess(Weighing):
    """The root's guesses one after the other, each part a second-level node."""

    def run(self) -> Settled:
        solver, space, choice = self.solver, self.space, self.choice
        searched = 0
        for _, key in choice.tries(self.order):
            solver.note(root=space.game.format_code(space.game.guesses[key[1]]))
            nodes = space.nodes
            total, limit = self.search.root_total(self.candidates, key[1], self.budget, choice.limit(key))
            searched += space.nodes != nodes
            choice.consider(total, key)
            if choice.key is not None:
                solver.note(best=choice.value)
        return Settled(len(self.order) - searched, searched)


class PartsAsJobs(Weighing):
    """The guesses of a node at ``level`` (the root's on threads, else a second-level node's) as
    branch and bound weighs them, with the parts of each guess as parallel jobs: the big parts one
    job each, the small ones together. A job's cutoff leaves the other parts their lower bounds, so
    it is exact or proves the guess too costly whatever the others give; the next guess starts when
    the current ones have no part left to hand out."""

    def run(self) -> Settled | None:
        self.trials: list[Trial] = []
        self.serial = self.search.new_serial()
        self.tries = self.choice.tries(self.order)
        self.sent = 0  # guesses with a part sent as a job
        if self.level > 0:
            self.solver.note(guesses=len(self.order), guess_index=0)
        self.solver.schedule(self.next_job, self.on_result)
        return Settled(len(self.order) - self.sent, self.sent) if self.level == 0 else None

    def open_trial(self) -> bool:
        """Start weighing the next guess, if one is left."""
        index, key = next(self.tries, (None, None))
        if key is None:
            return False
        space, n = self.space, len(self.candidates)
        parts, after = space.split(key[1], self.candidates), self.played + (key[1],)
        bounds = space.lower_bounds(parts, after, self.budget - 1, n, self.choice.limit(key))
        self.trials.append(Trial(key, n, parts, bounds))
        if self.level == 0:
            self.solver.note(root=space.game.format_code(space.game.guesses[key[1]]), root_index=index + 1, part=None)
        else:
            self.solver.note(guess_index=index + 1)
        return True

    def next_job(self):
        """The next part of a guess to search, ``((trial, index), PartsTotal)``, or None for now."""
        choice = self.choice
        while True:
            self.trials[:] = [trial for trial in self.trials if not trial.finished()]
            for trial in self.trials:
                limit = choice.limit(trial.key)
                if trial.bound() >= limit:
                    trial.failed = True
                    choice.refute(trial.bound())
                    continue
                if trial.sent < len(trial.groups):
                    return self._hand_out(trial, limit)
                if trial.running == 0:  # no part needed a job: its total is known
                    self._settle(trial)
            if sum(not trial.finished() for trial in self.trials) >= self.solver.dispatch.slots or not self.open_trial():
                return None

    def _hand_out(self, trial: Trial, limit: int):
        index = trial.sent
        self.sent += index == 0  # a guess searched (the others a bound settled)
        trial.sent += 1
        trial.running += 1
        others = trial.bound() - trial.known[index]
        fence = None if self.serial is None else (self.serial, *trial.key, others)
        if self.level == 0:  # where a long search is: the first guess's part handed out last
            self.solver.note(part=f"{index + 1}/{len(trial.groups)}", part_size=trial.size(index))
        return (trial, index), PartsTotal(trial.groups[index], self.played + (trial.key[1],), self.budget - 1,
                                          limit - others, fence, self.level + 1)

    def on_result(self, job, result) -> None:
        trial, index = job
        value, group_cutoff = result
        trial.running -= 1
        if value < group_cutoff:
            trial.known[index] = value  # exact
        else:
            trial.known[index] = max(trial.known[index], value)  # the guess costs too much
            trial.failed = True
        if trial.failed:
            self.choice.refute(trial.bound())
        elif trial.sent == len(trial.groups) and trial.running == 0:  # every part exact
            self._settle(trial)

    def _settle(self, trial: Trial) -> None:
        self.choice.consider(trial.bound(), trial.key)
        trial.settled = True
        self.search.post(self.serial, self.choice)


class GuessesAsJobs(Weighing):
    """The root's guesses as jobs, each the whole search below one opener, with the best total on
    the board; or those of a node after ``played`` in a job (whose view reports no progress; its
    board is its parent's)."""

    def run(self) -> None:
        self.serial = self.search.new_serial()
        self.tries = self.choice.tries(self.order)
        self.solver.note(openers=len(self.order), openers_done=0)
        self.solver.schedule(self.next_job, self.on_result)
        self.solver.note(openers_done=len(self.order))

    def next_job(self):
        _, key = next(self.tries, (None, None))
        if key is None:
            return None
        fence = None if self.serial is None else (self.serial, *key, 0)
        return key, RootTotal(self.candidates, key[1], self.budget, self.choice.limit(key), fence, self.played)

    def on_result(self, key, result) -> None:
        value, limit = result
        choice, solver = self.choice, self.solver
        if value < limit:
            choice.consider(value, key)
        else:
            choice.refute(value)
        self.search.post(self.serial, choice)
        solver.note(openers_done=solver.status.get("openers_done", 0) + 1,
                    **({} if choice.key is None else {"best": choice.value}))

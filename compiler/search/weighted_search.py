"""The least weighted total of a game whose secrets weigh differently (``Game.weights``): the
solver's minimum-total search when the game is weighted (``WeightedSearch``), over the compiled
``weighted.wmin_total``. What it cannot do yet it refuses (``refused``), never answers wrongly.

The weights are whole numbers in the game's proportions (``player.game.integer_weights``): a
weighted total here is in those units, the real one that divided by ``scale``. The root's guesses
are weighed here, best bound first, as jobs on the solver's threads (each guess's tree one
compiled call, ``weighted.wguess_total``, over the shared table; ``choice.Choice`` keeps the
canonical best whatever order they finish in), with progress; below the root the compiled
recursion searches alone, with no symmetry classes (weights need not be symmetric). The guess of
the canonical optimal tree at a node is read from the table, as the unweighted search's.
"""
from __future__ import annotations

import hashlib
import queue
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from fractions import Fraction

import numpy as np

from guesstree.player.game import integer_weights

from .choice import Choice, Ordered
from .table import UNLIMITED
from .weighted import WINF, Weights, part_bound, root_bounds, wexact, wguess, wguess_total, wmin_total, wpack, \
    wstore, wvalue


def refused(what: str) -> ValueError:
    """The one message of what the weighted search does not do."""
    return ValueError(f"the exact search does not take weights for {what} yet")


def decimal_text(value: Fraction) -> str:
    """A weighted total as text: a decimal where it has a finite one (``1234``, ``56.25``), else
    the fraction (``1234/3``)."""
    value = Fraction(value)
    denominator, twos, fives = value.denominator, 0, 0
    while denominator % 2 == 0:
        denominator, twos = denominator // 2, twos + 1
    while denominator % 5 == 0:
        denominator, fives = denominator // 5, fives + 1
    if denominator != 1:
        return f"{value.numerator}/{value.denominator}"
    places = max(twos, fives)
    if places == 0:
        return str(value.numerator)
    digits = str(abs(value.numerator) * 10 ** places // value.denominator).rjust(places + 1, "0")
    return ("-" if value < 0 else "") + digits[:-places] + "." + digits[-places:]


def weights_digest(weights) -> str:
    """The weights as a checkpoint's identity holds them (``Space.identity``): the sha256 of their
    whole units and scale."""
    ints, scale = integer_weights(weights)
    return hashlib.sha256(repr((ints, scale)).encode()).hexdigest()


def least_depths(least: np.ndarray) -> np.ndarray:
    """The depth of the i-th secret of the best conceivable tree (``counting``'s table ``least``
    holds their sums)."""
    return np.ascontiguousarray(np.diff(np.asarray(least, dtype=np.int64)))


class WeightedSearch:
    """The least weighted total of ``space``'s game (a ``space.Space`` whose game has weights),
    its root's guesses on ``workers`` threads (the space has a row of counters for each, from 1),
    its progress told to ``note`` (``Solver.note``)."""

    def __init__(self, space, workers: int = 1, note=None):
        game = space.game
        if len(game.weights) != space.n_secrets:
            raise ValueError(f"{game.title()} has {len(game.weights)} weights for {space.n_secrets} secrets")
        ints, self.scale = integer_weights(game.weights)
        if min(ints) < 1:
            raise ValueError(f"{game.title()}: every weight must be positive")
        if sum(ints) >= WINF:  # a total is at least the weights' sum
            raise ValueError(f"{game.title()}'s weights are too fine for the exact search: their sum in whole "
                             f"units ({sum(ints)}, the weights times {self.scale}) passes {WINF - 1}")
        self.space, self.workers, self.note = space, max(1, workers), note or (lambda **status: None)
        self.weights = np.array(ints, dtype=np.int64)
        self.wt = Weights(self.weights, least_depths(space.least), np.ascontiguousarray(space.reach),
                          least_depths(space.least_blind))

    def real(self, units: int) -> Fraction:
        """A weighted total in the game's own weights."""
        return Fraction(units, self.scale)

    def _below(self, candidates: np.ndarray, played: tuple, budget: int, cutoff: int) -> int:
        space = self.space
        return int(wmin_total(space.problem, self.wt, candidates, np.int64(budget), np.int64(cutoff),
                              np.zeros(0, dtype=np.bool_), space.state(candidates, played)))

    def _with_guess(self, candidates: np.ndarray, played: tuple, guess: int, budget: int) -> int:
        """The least weighted total of a tree that plays ``guess`` at this node (exact)."""
        space = self.space
        total = int(self.weights[candidates].sum())
        for part in space.split(guess, candidates):
            total += self._below(np.ascontiguousarray(part), played + (guess,), budget - 1, WINF + 1)
        return min(total, WINF)

    def minimum(self, budget: int | None) -> int:
        """The least weighted total of any tree within ``budget`` guesses (None: any depth), in
        whole units; ``WINF`` if none fits (or its total passes what the table holds: the solver
        tells the two apart). With ``--first``, of the trees that open with it."""
        space = self.space
        budget = UNLIMITED if budget is None else budget
        candidates = np.arange(space.n_secrets, dtype=np.int64)
        if space.first is not None:
            if budget < 1:
                return WINF
            return self._with_guess(candidates, (), space.first, budget)
        return self._root(candidates, budget)

    def _root(self, candidates: np.ndarray, budget: int) -> int:
        """The root's least weighted total within ``budget``, stored in the table with its guess."""
        space = self.space
        bound = int(part_bound(self.wt, candidates, np.int64(budget)))
        if len(candidates) <= 2 or bound >= WINF:
            return bound
        state = space.state(candidates, ())
        guesses = space.secret_guess[candidates] if space.consistent else np.arange(space.n_guesses, dtype=np.int64)
        if space.hint_rule is not None:
            guesses = np.ascontiguousarray(guesses[space.hint_rule.allowed(state)[guesses]])
        bounds, parts, is_candidate = root_bounds(space.problem, self.wt, candidates, guesses, np.int64(budget))
        useful = (parts > 1) | is_candidate
        order = Ordered(np.maximum(bounds[useful], bound), ~is_candidate[useful], guesses[useful])
        choice = Choice(WINF, WINF)
        self._weigh(candidates, state, budget, order, choice)
        value, guess = (choice.value, choice.key[1]) if choice.key is not None else (max(bound, choice.floor), -1)
        h1, h2 = space.key(candidates, (), space.tag(len(candidates), budget))
        data = wpack(np.int64(min(value, WINF)), True, np.int64(guess), np.int64(len(candidates)))
        wstore(space.table, h1, h2, np.uint64(data))  # (numba hands a uint64 back as an int)
        return value

    def _weigh(self, candidates: np.ndarray, state: np.ndarray, budget: int, order: Ordered, choice: Choice) -> None:
        """The root's guesses of ``order`` as jobs on the threads, each with the limit ``choice``
        sets when it starts (a stale one is looser: its result is exact or refutes, as a fresh
        one's), best first; stopped (the stop flag) and waited for if anything goes wrong."""
        space, game = self.space, self.space.game
        rows: queue.SimpleQueue = queue.SimpleQueue()
        for row in range(1, self.workers + 1):
            rows.put(row)

        def weigh(guess: int, limit: int) -> int:
            row = rows.get()
            try:
                view = space.view(row)
                return int(wguess_total(view.problem, self.wt, candidates, np.int64(guess), np.int64(budget),
                                        np.int64(limit), state))
            finally:
                rows.put(row)

        tries, running, done = choice.tries(order), {}, 0
        self.note(openers=len(order), openers_done=0)
        with ThreadPoolExecutor(self.workers) as pool:
            try:
                while True:
                    while len(running) < self.workers:
                        index, key = next(tries, (None, None))
                        if key is None:
                            break
                        running[pool.submit(weigh, key[1], choice.limit(key))] = key
                        self.note(root=game.format_code(game.guesses[key[1]]), in_flight=len(running))
                    if not running:
                        break
                    finished, _ = wait(running, return_when=FIRST_COMPLETED)
                    for future in finished:
                        choice.consider(future.result(), running.pop(future))
                        done += 1
                    best = {} if choice.key is None else {"best": decimal_text(self.real(choice.value))}
                    self.note(openers_done=done, in_flight=len(running), **best)
            except BaseException:
                space.stop[0] = 1  # the threads' compiled searches stop at their next node
                wait(running)
                raise
        self.note(openers_done=len(order), in_flight=0)

    def optimal_guess(self, candidates: np.ndarray, played: tuple, budget: int | None) -> int:
        """The guess of the canonical optimal tree (least weighted total within ``budget``) at a node."""
        space = self.space
        candidates = np.ascontiguousarray(candidates, dtype=np.int64)
        budget = UNLIMITED if budget is None else budget
        if not played and len(candidates) == space.n_secrets and space.first is not None:
            return space.first
        if len(candidates) <= 2:  # the heavier first; of equal weights, the lower guess
            guesses = space.secret_guess[candidates]
            return int(min(zip(-self.weights[candidates], guesses))[1])
        tag = space.tag(len(candidates), budget)
        for attempt in range(2):
            data = np.uint64(space.probe(candidates, played, tag))
            if data and wexact(data):
                if wvalue(data) >= WINF:
                    raise ValueError(f"no tree wins every secret of {space.game.title()} within {budget} guesses")
                return int(wguess(data))
            if attempt == 0:  # solved once more (a lost entry; its parts are in the table)
                self._below(candidates, played, budget, WINF + 1)
        raise RuntimeError(f"the optimal guess for {len(candidates)} candidates was not found in the table")

    def tree_totals(self, budget: int | None) -> tuple[int, int]:
        """``(total, weighted total)`` of the canonical optimal tree within ``budget``: its guesses
        over every secret once, and weighted (whole units), walked node by node as a build plays it."""
        space = self.space
        plain = weighted = 0
        stack = [(np.arange(space.n_secrets, dtype=np.int64), (), budget)]
        while stack:
            candidates, played, left = stack.pop()
            guess = self.optimal_guess(candidates, played, left)
            depth = len(played) + 1
            secret = int(space.guess_secret[guess])
            if secret >= 0 and secret in candidates:
                plain += depth
                weighted += depth * int(self.weights[secret])
            for part in space.split(guess, candidates):
                stack.append((np.ascontiguousarray(part), played + (guess,), None if left is None else left - 1))
        return plain, weighted

"""One game as the exhaustive searches see it: the game as asked (``SearchedGame``: its arrays,
made once, and what may be played), the counting tables, the transposition table, and what a node
needs from them (its guesses, its key in the table, its parts). The top levels (``total.py``,
``worst.py``) and the compiled recursion (``recursion.py``, through ``problem``) read the same space.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass
from collections.abc import Callable

import numpy as np

from guesstree.player.games import Game

from ..engine import kernels
from ..engine.arrays import GameArrays
from ..engine.kernels import transposed
from ..engine.symmetry import AbsentSymbols
from . import recursion, table
from .counting import branching_tables, least_total
from .hint_kernels import hint_salt
from .partitions import guess_bounds, split
from .problem import NODES, Problem, stop_flag
from .recursion import LOOKAHEAD_MIN, lookahead_bound
from .table import FEASIBLE_TAG, INF, total_tag
from .weighted_search import refused, weights_digest


@dataclass(frozen=True)
class SearchedGame:
    """A game as an exact search is asked to search it: its ``arrays`` (a ``GameArrays``), which
    guesses may be played (``consistent``: only candidates), a fixed first guess (``first``, an
    index) or how many of the heuristic's best first guesses to search (``openers``), the memory
    budget that sizes its transposition table, and ``rank(guesses, candidates, heuristic, count)``:
    the heuristic's best guesses at a node (``strategies.best_guesses``), for ``--openers`` and the
    openers' ranking. Never changed once made."""

    arrays: GameArrays
    max_memory: int
    consistent: bool = False
    first: int | None = None
    openers: int | None = None
    rank: Callable | None = None

    @classmethod
    def of(cls, context) -> SearchedGame:
        """The game of a build's ``context`` (a ``BuildContext``), as its options ask."""
        options = context.options
        return cls(context.arrays, options.max_memory, options.candidates == "consistent", context.first,
                   options.openers, context.best_guesses)

    @property
    def game(self) -> Game:
        return self.arrays.game

    @property
    def matrix(self) -> np.ndarray | None:
        return self.arrays.matrix

    def recipe(self) -> tuple:
        """How a process on another machine (a cluster's worker) makes the same game, with no file
        and no shared memory of ours: ``(function, arguments)``, both picklable."""
        return on_worker, (self.game.portable().spec(), self.arrays.scorer.backend, self.consistent, self.first,
                           self.openers, self.max_memory)


def on_worker(spec: dict, backend: str, consistent: bool, first: int | None, openers: int | None,
              max_memory: int) -> SearchedGame:
    """A cluster's worker's game (``SearchedGame.recipe``): its own matrix, scored on one thread
    (the worker runs one job at a time, one worker per core)."""
    return SearchedGame(GameArrays.in_worker(spec, max_memory, backend), max_memory, consistent, first, openers)


CLASS_SIZE_MIN = 4  # secrets per class on average, for the classes' counting bounds to be worth their cost


def symbol_classes(absent: AbsentSymbols, secret_guess: np.ndarray, by_secret: np.ndarray, n_feedbacks: int,
                   win: int) -> tuple[np.ndarray, np.ndarray]:
    """``(secret_class, class_branching)``: the secrets in classes by the symbols they have, and per
    class the most answers but the win that any guess gets on it (``recursion.class_bound``), in a
    game of peg scores whose classes hold ``CLASS_SIZE_MIN`` secrets or more on average; else one
    class, which bounds nothing (empty arrays)."""
    nothing = np.zeros(0, dtype=np.int64)
    if not absent.usable:
        return nothing, nothing
    symbols, secret_class = np.unique(absent.guess_bits[secret_guess], return_inverse=True)
    if len(symbols) < 2 or len(symbols) * CLASS_SIZE_MIN > len(secret_guess):
        return nothing, nothing
    secret_class = np.ascontiguousarray(secret_class, dtype=np.int64)
    return secret_class, kernels.most_children_by_class(by_secret, secret_class, len(symbols), n_feedbacks, win)


class Space:
    """The ``searched`` game (a ``SearchedGame``) prepared for an exact search, over a table of
    ``slots`` entries with ``rows`` rows of counters (one per thread that searches it)."""

    def __init__(self, searched: SearchedGame, slots: int, rows: int):
        arrays, game = searched.arrays, searched.game
        if arrays.matrix is None:
            raise ValueError(f"{game.title()} is too big for an exact search: its feedback matrix "
                             "does not fit in --max-memory")
        if game.restricts_guesses and not game.hint_rule and not searched.consistent:
            raise ValueError(f"{game.title()} restricts guesses by what was played in a way the exact search "
                             "cannot follow (it follows the hint rule of hard mode): use --candidates consistent")
        if len(game.guesses) >= 1 << 20:
            raise ValueError(f"{game.title()} has too many guesses for an exact search")
        self.searched, self.game = searched, game
        self.matrix = np.ascontiguousarray(arrays.matrix)
        # the matrix read by secret, which the compiled searches scan: itself for a symmetric score
        self.by_secret = arrays.columns if arrays.columns is not None else transposed(self.matrix)
        self.n_secrets, self.n_guesses = len(game.secrets), len(game.guesses)
        self.n_feedbacks, self.win = arrays.n_feedbacks, arrays.win
        if np.count_nonzero(self.matrix == self.win) != self.n_secrets:  # each secret has its own guess
            raise ValueError(f"{game.title()}: a guess wins more than one secret (the winning feedback must mean "
                             "the guess is the secret), so no tree can tell them apart")
        self.consistent = searched.consistent
        self.secret_guess, self.guess_secret = arrays.secret_guess, arrays.guess_secret
        self.absent = arrays.absent
        self.children = int(kernels.most_children(self.matrix, self.n_feedbacks, self.win))  # answers but the win, at most
        self.least_by, self.least_blind_by, self.reach_by = branching_tables(self.n_secrets, self.n_feedbacks,
                                                                             self.children)
        self.least, self.least_blind, self.reach = (self.least_by[self.children], self.least_blind_by[self.children],
                                                    self.reach_by[self.children])
        self.secret_class, self.class_branching = symbol_classes(self.absent, self.secret_guess, self.by_secret,
                                                                 self.n_feedbacks, self.win)
        self.symmetry = arrays.symmetry  # its classes with played colours renamed too (``mask``)
        # hard mode's rule, which the compiled search carries as a state (empty arrays: no rule)
        self.hint_rule = arrays.hint_rule if not self.consistent else None
        self.first = searched.first  # a fixed opening guess (--first), or None
        self.openers = searched.openers  # search only this many first guesses (the heuristic's best)
        self.opener_scope: dict | None = None  # with --openers: how many first guesses were searched, of how many
        self.table = table.empty_table(slots)
        self.counters = np.zeros((rows, 4), dtype=np.int64)  # what the searches did, a row per thread
        self.row = 0
        self.stop = stop_flag()  # set: the compiled searches give up at their next node or guess
        self.penalty = 0  # fewest-at-worst: see Problem.penalty (set by ``penalize``)
        self._counted: dict[tuple, int] = {}  # ``counted``'s, by (n, budget, penalty); the views share it
        self.problem = self._problem()
        self._no_state = np.zeros(0, dtype=np.int64)
        self._empty = np.zeros(0, dtype=np.bool_)

    def _problem(self) -> Problem:
        hint, nothing = self.hint_rule, np.zeros((0, 0), dtype=np.int64)
        return Problem(
            matrix=self.matrix, by_secret=self.by_secret, secret_guess=self.secret_guess,
            guess_secret=self.guess_secret, consistent=self.consistent, n_feedbacks=self.n_feedbacks, win=self.win,
            least=self.least, least_blind=self.least_blind, reach=self.reach, children=self.children,
            least_by=self.least_by, least_blind_by=self.least_blind_by, reach_by=self.reach_by,
            hint_codes=hint.positions if hint else nothing, letter_counts=hint.counts if hint else nothing,
            marks=hint.marks if hint else nothing, table=self.table, counters=self.counters[self.row], stop=self.stop,
            secret_class=self.secret_class, class_branching=self.class_branching, penalty=self.penalty,
            **self.absent.problem_fields(self.secret_guess, self.game.permutable))

    def penalize(self, penalty: int) -> None:
        """From now on a secret won by the last guess of a search's budget costs ``penalty`` more
        (0: nothing): the minimum-total searches then find the fewest such secrets first."""
        self.penalty = int(penalty)
        self.problem = self.problem._replace(penalty=self.penalty)

    def view(self, row: int) -> Space:
        """This space as another thread searches it: the same table, its own row of counters."""
        view = copy.copy(self)
        view.row = row
        view.problem = self.problem._replace(counters=self.counters[row])
        return view

    @property
    def nodes(self) -> int:
        return int(self.counters[:, NODES].sum())

    def count_node(self) -> None:
        self.counters[self.row, NODES] += 1

    # -- a node: its state, symmetry, guesses and key --------------------------------------------

    def state(self, candidates: np.ndarray, played: tuple[int, ...]) -> np.ndarray:
        """The node's hint-rule state: every played guess's answer is that of any candidate."""
        if self.hint_rule is None:
            return self._no_state
        return self.hint_rule.state(played, [self.matrix[guess, candidates[0]] for guess in played])

    def mask(self, played: tuple[int, ...]) -> np.ndarray:
        """The guesses that stand for their symmetry class after ``played`` (empty: all)."""
        if self.symmetry is None:
            return self._empty
        mask = self.symmetry.canonical(played, len(self.secret_guess), renames=True)
        return self._empty if mask is None else mask

    def opening(self, candidates: np.ndarray, played: tuple[int, ...]) -> bool:
        """Is this the root of a search whose first guesses are restricted (--first, --openers)?
        What such a root is worth is not the root's value, so the table never holds it."""
        return not played and (self.first is not None or self.openers is not None) and len(candidates) == self.n_secrets

    def guesses(self, candidates: np.ndarray, played: tuple[int, ...]) -> np.ndarray:
        """The allowed guesses, one per symmetry class."""
        if self.opening(candidates, played) and self.first is not None:
            return np.array([self.first], dtype=np.int64)
        guesses = self.secret_guess[candidates] if self.consistent else np.arange(self.n_guesses, dtype=np.int64)
        mask = self.mask(played)
        if len(mask):
            guesses = guesses[mask[guesses]]
        if self.hint_rule is not None:
            guesses = guesses[self.hint_rule.allowed(self.state(candidates, played))[guesses]]
        if self.opening(candidates, played):
            guesses = self._best_openers(candidates, guesses)
        return guesses

    def _best_openers(self, candidates: np.ndarray, guesses: np.ndarray) -> np.ndarray:
        """The ``--openers`` first guesses (one per symmetry class) that the game's heuristic ranks best."""
        ranked = self.searched.rank(guesses, candidates, self.game.heuristic, len(guesses))
        self.opener_scope = {"openers": min(self.openers, len(ranked)), "of": len(ranked),
                             "ranked_by": self.game.heuristic}
        return np.sort(ranked[:self.openers])

    def key(self, candidates: np.ndarray, played: tuple, tag: int) -> tuple:
        h1, h2 = table.set_key(candidates, np.int64(tag), np.uint64(hint_salt(self.state(candidates, played))))
        return np.uint64(h1), np.uint64(h2)

    def probe(self, candidates: np.ndarray, played: tuple, tag: int) -> int:
        return int(table.probe(self.table, *self.key(candidates, played, tag)))

    def store(self, candidates: np.ndarray, played: tuple, tag: int, value: int, exact: bool, guess: int) -> None:
        data = table.pack(np.int64(min(value, INF)), exact, np.int64(guess), np.int64(len(candidates)))
        table.store(self.table, *self.key(candidates, played, tag), data)

    def remember_depths(self, candidates, played: tuple, low: int, high: int, guess: int) -> None:
        h1, h2 = self.key(candidates, played, FEASIBLE_TAG)
        table.remember_depths(self.table, h1, h2, np.int64(low), np.int64(high), np.int64(guess),
                              np.int64(len(candidates)))

    # -- what a node's guesses leave ---------------------------------------------------------------

    def split(self, guess: int, candidates: np.ndarray) -> list[np.ndarray]:
        """The parts ``guess`` leaves of ``candidates`` but the win, largest first."""
        ordered, parts = split(self.matrix, np.int64(guess), candidates, np.int64(self.n_feedbacks),
                               np.int64(self.win))
        return [ordered[start:start + size] for start, size in parts.tolist()]  # (Python ints: slices faster)

    def bounds(self, candidates: np.ndarray, guesses: np.ndarray, budget: int, largest: bool = False):
        """Per guess: its counting bound, parts, whether it is a candidate, largest part (``guess_bounds``)."""
        return guess_bounds(self.problem, candidates, guesses, np.int64(budget), largest, np.int64(self.children))

    def weigh(self, parts: list, played: tuple, budget: int, base: int, limit: int, order: list[int],
              pure: bool = False, limit_now=None) -> tuple[list[int], int]:
        """Lower bounds on the least totals of a guess's ``parts`` (after ``played``) within
        ``budget``, by rising effort: every part's counting bound, then the lookahead bound
        (``lookahead``, ``pure`` as there) of the parts ``order`` names, in that order, while
        ``base`` plus the bounds is below ``limit`` (as ``limit_now(limit)`` reads it, if given: a
        job's, which the board tightens). Once it is not, the guess is refuted, and the rest keep
        their counting bounds. Returns the bounds and their sum with ``base`` (at most ``INF``).
        The one rule; its compiled twin is the first half of ``recursion.guess_total``, with the
        order ``search_order``."""
        bounds = [self.counted(len(part), budget) for part in parts]
        total = min(base + sum(bounds), INF)
        for index in order:
            if limit_now is not None:
                limit = limit_now(limit)
            if total >= limit:
                break
            bound = self.lookahead(parts[index], played, budget, pure)
            total, bounds[index] = min(total + bound - bounds[index], INF), bound
        return bounds, total

    def search_order(self, parts: list, limit: int) -> list[int]:
        """The search's lookaheads: every part of ``LOOKAHEAD_MIN`` secrets or more but the first
        (whose own search starts with one), largest first; none under a hint rule (they do not pay
        there), nor with no limit (above ``INF``: nothing could be refuted, no cutoff tightened)."""
        if self.hint_rule is not None or limit > INF:
            return []
        return [index for index in range(1, len(parts)) if len(parts[index]) >= LOOKAHEAD_MIN]

    def lower_bounds(self, parts: list, played: tuple, budget: int, base: int, limit: int) -> list[int]:
        """``weigh``'s bounds in the search's order (``search_order``)."""
        return self.weigh(parts, played, budget, base, limit, self.search_order(parts, limit))[0]

    def lookahead(self, part: np.ndarray, played: tuple, budget: int, pure: bool = False) -> int:
        """The part's one-guess lookahead bound within ``budget`` (``recursion.lookahead_bound``), over
        the guesses the hint rule allows after ``played``, if there is one; ``pure``: the lookahead's
        own value, the same in every run (the openers' bounds, which the full proof's header counts)."""
        return int(lookahead_bound(self.problem, part, np.int64(budget), self.absent.played(played),
                                   self.state(part, played), pure, np.int64(self.children)))

    def counted(self, n: int, budget: int) -> int:
        """The counting bound of n secrets within ``budget`` (``counting.least_total``, with the penalty)."""
        key = (n, budget, self.penalty)
        known = self._counted.get(key)
        if known is None:  # (a compiled call costs more than the lookup: the root's jobs ask it for every part)
            known = self._counted[key] = int(least_total(self.least, self.reach, n, budget, self.penalty))
        return known

    def tag(self, n: int, budget: int) -> int:
        """A minimum-total entry's tag (``table.total_tag``)."""
        return int(total_tag(n, budget, self.penalty))

    # -- the compiled recursion from a node down ---------------------------------------------------

    def unweighted(self) -> None:
        """Refuse a search of unweighted totals on a weighted game: the solver runs its own
        (``weighted_search.py``) and never comes here, ``compiler/review.py`` does."""
        if self.game.weights is not None:
            raise refused("guesstree review")

    def total_below(self, candidates: np.ndarray, played: tuple, budget: int, cutoff: int) -> int:
        """``recursion.min_total`` from a node down, with this node's symmetry."""
        self.unweighted()
        return int(recursion.min_total(self.problem, candidates, np.int64(budget), np.int64(cutoff),
                                       self.mask(played), self.state(candidates, played),
                                       self.absent.played(played), np.int64(self.children)))

    def guess_total(self, candidates: np.ndarray, played: tuple, guess: int, budget: int, limit: int) -> int:
        """``recursion.guess_total``: a guess at a node below the root (after ``played``) searched
        in one compiled call."""
        self.unweighted()
        after = played + (guess,)
        return int(recursion.guess_total(self.problem, candidates, np.int64(guess), np.int64(budget), np.int64(limit),
                                         self.mask(after), self.state(candidates, played),
                                         self.absent.played(after), np.int64(self.children)))

    def within_below(self, candidates: np.ndarray, played: tuple, depth: int) -> bool:
        """``recursion.within`` from a node down, with this node's symmetry."""
        return bool(recursion.within(self.problem, candidates, np.int64(depth), self.mask(played),
                                     self.state(candidates, played)))

    def identity(self) -> dict:
        """What a checkpoint must have been made for (see trees/CHECKPOINT.md); a weighted game's
        weights too (its entries are weighted totals, ``weighted.py``)."""
        identity = {"game": self.game.identity(), "candidates": "consistent" if self.consistent else "all"}
        if self.game.weights is not None:
            identity["weights"] = weights_digest(self.game.weights)
        return identity

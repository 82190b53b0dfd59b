"""Strategies: how to pick the next guess for a set of candidate secrets.

Every strategy is a ``Strategy``: it checks and records its own settings (which ones it takes is
``catalogue.py``'s), says which guesses it may play and what its choices read of the game
(``is_exact``, ``scores_every_guess``, ``samples``: the builder lays out its work by them), does
whatever whole-game work it needs before the builder asks (``prepared``: the exhaustive ones solve
the game there, the one place a search starts, and close their solver when the tree is built) and
picks a node's guess (``choose``). A heuristic is a small function of the partition counts: the
engine reduces each guess's partition to one integer statistic, the heuristic turns it into a
score, and the context's ``canonical_pick`` applies the spec's tie-break. The tree builder knows
none of them.
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from collections.abc import Callable, Iterator
from typing import ClassVar

import numpy as np

from . import catalogue
from .catalogue import DEFAULT_MAX_TIME, SETTINGS, canonical, flag, settings_of, takers
from .engine.statistic import CLOG_MARGIN, CLOG_SUM, MAX_PART, PARTS, SUM_SQUARES, entropy
from .search.proof import FEWEST_AT_WORST, OPTIMAL_EXPECTED, OPTIMAL_WORST, Objective


class Strategy:
    """What every strategy does (``name`` is its key in ``catalogue.STRATEGIES``)."""

    name: str
    # What a choice reads of the game, which decides how the builder lays out the work: "every"
    # (scores all allowed guesses on all candidates), "sample" (scores samples of them), "answers"
    # (reads nothing but the answers to the guess it plays), or "solution" (looks up the game
    # solved by ``prepared``). The builder asks the questions below, not the tag.
    reads: ClassVar[str] = "every"

    @property
    def is_exact(self) -> bool:
        """Does it play a game solved by an exhaustive search (``prepared``)? Its build runs in one
        process over the search's matrix, and has no estimate."""
        return self.reads == "solution"

    @property
    def scores_every_guess(self) -> bool:
        """Does it score every allowed guess on every candidate (so reads the whole matrix, or each
        first guess's part of it)?"""
        return self.reads == "every"

    @property
    def samples(self) -> bool:
        """Does it score samples of the guesses on samples of the candidates (``--seed``)?"""
        return self.reads == "sample"

    @property
    def doc(self) -> str:
        return catalogue.STRATEGIES[self.name][0]

    @property
    def settings(self) -> tuple[str, ...]:
        """The ``Options`` fields this strategy takes, in the order an artifact records them."""
        return settings_of(self.name)

    def candidates(self, requested: str) -> str:
        """The guesses it may play, given ``--candidates``: "all" allowed ones, or "consistent"."""
        return requested

    def check(self, options) -> None:
        """A ValueError naming the flag, for a setting out of range or one this strategy does not take."""
        for name, setting in SETTINGS.items():
            value = getattr(options, name)
            setting.check(name, value)
            if value != setting.default and name not in self.settings:
                raise ValueError(f"{flag(name)} applies to --strategy {', '.join(takers(name))} only")

    def record(self, options) -> dict:
        """Its settings as the artifact's strategy records them: only what changes the tree."""
        return {name: getattr(options, name) for name in self.settings if getattr(options, name) is not None}

    report: ClassVar = None  # what a whole-game search proved (``Solved``), as the artifact's strategy records it

    @contextmanager
    def prepared(self, context, search=None) -> Iterator[Strategy]:
        """Whole-game work before the builder asks node by node: the strategy that then chooses
        (itself, or an exhaustive strategy's ``Solved``) for the length of a ``with`` block, and
        whatever that work started (a search's jobs) stopped when the block ends, however it ends."""
        yield self

    def choose(self, context, node) -> int:
        raise NotImplementedError


@dataclass(frozen=True)
class Heuristic(Strategy):
    """Scores guesses by their partitions; the best score is the largest."""

    name: str
    statistic: int  # which reduction of the partition counts (statistic.CLOG_SUM, ...)
    score: Callable[[np.ndarray, int], np.ndarray]  # (statistic per guess, candidates) -> score
    sampled: bool = False  # scores a sample of the guesses on a sample of the candidates (--seed)
    perfect_is_best: bool = True  # a candidate that splits all candidates apart is the pick
    # only the pick and its ties need exact statistics: the scorer may drop a guess that cannot be it
    # (minimax: once a part is too big; entropy: by the least sum its parts allow)
    pick_only: bool = False

    @property
    def reads(self) -> str:
        return "sample" if self.sampled else "every"

    def choose(self, context, node) -> int:
        if context.weights is not None and self.statistic != PARTS:  # (most-parts counts parts, weights aside)
            return self.choose_weighted(context, node)
        candidates = node.candidates
        guess_ids = context.allowed(node)
        scored, stats = candidates, None
        if self.sampled:
            guess_ids, scored = self.sample(context, node, guess_ids)
        elif context.shortcuts:  # each provably picks what full scoring would pick (tests compare)
            if len(candidates) <= 2:  # every useful guess splits them; the lowest candidate wins the tie
                return int(context.secret_guess[candidates[0]])
            guess_ids = context.symmetric(guess_ids, node)
            most = context.most_parts(guess_ids, candidates) if self.statistic == PARTS else None
            if most is not None:
                return most
            if self.perfect_is_best and len(candidates) <= context.n_feedbacks:
                # a partition into singletons scores best; a candidate achieving it beats the rest,
                # then the lowest guess
                perfect = context.first_perfect(candidates)
                if perfect is None:
                    perfect, stats, parts = context.perfect_or_stats(guess_ids, candidates, self.statistic,
                                                                     self.pick_only)
                if perfect is not None:
                    return perfect
        if stats is None:  # (only the pick's and its ties' exact, where ``pick_only``)
            stats, parts = context.partition_stats(guess_ids, scored, self.statistic,
                                                   context.shortcuts and self.pick_only)
        if self.pick_only and context.shortcuts:
            guess_ids, stats, parts = near_the_least(guess_ids, stats, parts, self.statistic, len(scored))
        pick = context.canonical_pick(guess_ids, self.score(stats, len(scored)), parts, candidates)
        return pick if pick >= 0 else int(context.secret_guess[candidates[0]])

    def sample(self, context, node, guess_ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(guesses, candidates)`` that a sampled heuristic scores at ``node``: samples of each."""
        rng, options, candidates = context.rng(node.path), context.options, node.candidates
        if len(guess_ids) > options.guess_sample:
            guess_ids = np.sort(rng.choice(guess_ids, options.guess_sample, replace=False))
        if len(candidates) > options.secret_sample:
            candidates = np.sort(rng.choice(candidates, options.secret_sample, replace=False))
        return guess_ids, candidates

    def choose_weighted(self, context, node) -> int:
        """``choose`` in a weighted game: the score of each guess's partition by weight, the node's
        weight for its candidates' count (entropy on the weighted probabilities, minimax on the
        heaviest part, expected-size on the sum of the parts' squared weights over the node's);
        ties to a candidate, then the heaviest (``context.weighted_pick``). The shortcuts: two
        candidates or fewer (the heavier first), and for entropy and expected-size a split into
        singletons, the best there is, where no other can come within a tie of it
        (``context.first_perfect_by_weight``; minimax's heaviest part ties with other splits')."""
        candidates = node.candidates
        guess_ids = context.allowed(node)
        scored = candidates
        if self.sampled:
            guess_ids, scored = self.sample(context, node, guess_ids)
        elif context.shortcuts:
            if len(candidates) <= 2:  # every useful guess splits them: the heavier candidate wins the tie
                return context.heaviest(candidates)
            guess_ids = context.symmetric(guess_ids, node)
            if self.perfect_is_best and self.statistic in (CLOG_SUM, SUM_SQUARES):
                perfect = context.first_perfect_by_weight(guess_ids, candidates, self.statistic)
                if perfect is not None:
                    return perfect
        stats, parts, weight = context.weighted_stats(guess_ids, scored, self.statistic)
        pick = context.weighted_pick(guess_ids, self.score(stats, weight), parts, candidates)
        return pick if pick >= 0 else context.heaviest(candidates)


def near_the_least(guess_ids: np.ndarray, stats: np.ndarray, parts: np.ndarray, statistic: int, n: int):
    """``(guess_ids, stats, parts)`` of the guesses that may be the pick of a ``pick_only``
    heuristic: a statistic within a tie's reach of the least (entropy's ``CLOG_MARGIN`` per
    candidate is far wider than ``context.TIE``; minimax's ties are equal), so that the scores and
    the tie-break read those few, not every guess. The rest are far off (their statistics bound
    theirs from below). A guess of one part, no use but as a candidate, sums the most of all: none
    is left out while one of two parts or more is there (with ``n`` > 2 candidates, each candidate
    splits them)."""
    if n <= 2 or not len(parts) or parts.max() <= 1:
        return guess_ids, stats, parts
    keep = np.flatnonzero(stats <= stats.min() + (CLOG_MARGIN * n if statistic == CLOG_SUM else 0))
    return guess_ids[keep], stats[keep], parts[keep]


@dataclass(frozen=True)
class Simple(Strategy):
    """Plays a consistent candidate without scoring: the first one, or a random one."""

    name: str
    randomised: bool
    reads: ClassVar[str] = "answers"

    def candidates(self, requested: str) -> str:
        return "consistent"  # only candidates, whatever --candidates says

    def choose(self, context, node) -> int:
        if self.randomised:
            return int(context.secret_guess[context.rng(node.path).choice(node.candidates)])
        return int(context.secret_guess[node.candidates[0]])


@dataclass(frozen=True)
class Exhaustive(Strategy):
    """Plays the guess of an optimal tree, found by exhaustive search with proof (``search/``):
    the least total within the fewest guesses in the worst case (``optimal-worst``), the same
    after the fewest secrets that need the worst case (``fewest-at-worst``), or the least total
    (``optimal-expected``, within ``--max-depth`` if given): its ``objective``, which it carries
    into the search. On a weighted game (``Game.weights``) the total is the weighted total
    (``search/weighted_search.py``; ``fewest-at-worst`` and ``--openers`` are refused there)."""

    objective: Objective
    reads: ClassVar[str] = "solution"

    @property
    def name(self) -> str:
        return self.objective.name

    def check(self, options) -> None:
        super().check(options)
        if options.max_time != DEFAULT_MAX_TIME or options.force:
            raise ValueError("--max-time and --force apply to the heuristic strategies only: they bound "
                             "the estimate of a heuristic's build")
        if options.openers is not None and options.first is not None:
            raise ValueError("--openers and --first exclude each other: --first fixes the one opener")

    # The solver is imported when an exhaustive strategy runs: its compiled searches load numba.
    @contextmanager
    def prepared(self, context, search=None) -> Iterator[Solved]:
        """Solve the whole game once (the one place a search starts), before the builder asks node
        by node: the strategy that plays the optimal tree found, with the search's report, while
        the block runs; the solver closed (its jobs stopped) when it ends, however it ends.
        ``search``: its progress, checkpoint and where its jobs run (default: threads here)."""
        from .search.solver import Solver
        from .search.space import SearchedGame

        if search is not None and search.progress is not None:
            search.progress({"task": "preparing the search (its bounds' tables, the guesses alike)"})
        solver = Solver(SearchedGame.of(context), search)
        try:
            yield Solved(self, solver, solver.solve(self.objective, context.options.max_depth))
        finally:
            solver.close()


@dataclass(frozen=True)
class Solved(Strategy):
    """An exhaustive ``strategy`` whose game its ``solver`` solved (``Exhaustive.prepared``, which
    closes the solver): plays the canonical optimal tree, node by node; ``report``: what the search
    proved, and its effort."""

    strategy: Exhaustive
    solver: object  # a search.solver.Solver
    report: object  # its search.solver.Report
    reads: ClassVar[str] = "solution"

    @property
    def name(self) -> str:
        return self.strategy.name

    def choose(self, context, node) -> int:
        return self.solver.choose(node, self.strategy.objective, context.options.max_depth)


def best_guesses(arrays, guess_ids: np.ndarray, candidates: np.ndarray, heuristic: str, count: int) -> np.ndarray:
    """The ``count`` of ``guess_ids`` that ``heuristic`` ranks best at a node of ``candidates`` (over
    ``arrays``, a ``GameArrays``), best first: by score, then a possible secret, then the lowest
    guess; useless guesses never."""
    strategy = get_strategy(heuristic)
    stats, parts = arrays.scorer.partition_stats(guess_ids, candidates, strategy.statistic)
    scores = strategy.score(stats, len(candidates)).astype(np.float64)
    is_candidate = np.isin(arrays.guess_secret[guess_ids], candidates) & (arrays.guess_secret[guess_ids] >= 0)
    ranked = np.lexsort((guess_ids, ~is_candidate, -scores))
    ranked = ranked[((parts > 1) | is_candidate)[ranked]]
    return guess_ids[ranked[:count]]


def _entropy(stats, n):
    return entropy(stats, n)


def _neg_entropy(stats, n):
    return -entropy(stats, n)


def _neg_max(stats, n):
    return -stats.astype(np.float64)


def _neg_expected(stats, n):
    return -stats.astype(np.float64) / n


def _parts(stats, n):
    return stats.astype(np.float64)


STRATEGIES = {
    s.name: s
    for s in (
        Simple("first", False),
        Simple("random", True),
        Heuristic("entropy", CLOG_SUM, _entropy, pick_only=True),
        Heuristic("worst-entropy", CLOG_SUM, _neg_entropy, perfect_is_best=False),
        Heuristic("sampled-entropy", CLOG_SUM, _entropy, sampled=True, perfect_is_best=False),
        Heuristic("minimax", MAX_PART, _neg_max, pick_only=True),
        Heuristic("most-parts", PARTS, _parts),
        Heuristic("expected-size", SUM_SQUARES, _neg_expected),
        Exhaustive(OPTIMAL_WORST),
        Exhaustive(OPTIMAL_EXPECTED),
        Exhaustive(FEWEST_AT_WORST),
    )
}
assert list(STRATEGIES) == list(catalogue.STRATEGIES)  # one registry: every name has its behaviour


def get_strategy(name: str | Strategy) -> Strategy:
    """The strategy of that name, or of an author's (``catalogue.ALIASES``; a strategy is itself)."""
    if isinstance(name, Strategy):
        return name
    return STRATEGIES[canonical(name)]

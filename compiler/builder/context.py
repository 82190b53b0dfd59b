"""The build context: what strategies may ask of the game while a tree is built.

The builder (``runner.py``) makes one per build, over the game's arrays (``arrays.py``); the
strategies (``strategies.py``) ask it for the guesses allowed at a node, their partitions'
statistics, one guess per symmetry class, and the randomness of a node.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from guesstree.player.game import Game, integer_weights

from ..engine.arrays import GameArrays
from ..engine.kinds import backend_kernels
from ..engine.numba_start import numba_without_cffi
from ..engine.statistic import CLOG_SUM
from ..options import Options
from ..strategies import best_guesses

TIE = 1e-9  # scores within this relative distance of the best are a tie
SYMMETRY_MIN_CANDIDATES = 64  # below this, scoring every guess is cheaper than finding classes


class Node(NamedTuple):
    """A node of the tree being built."""

    candidates: np.ndarray  # secret indices, ascending
    path: tuple[int, ...]  # feedback indices from the root: the node's position in the tree
    played: tuple[int, ...]  # guess indices from the root


class BuildContext:
    """What strategies may ask while a tree is built: allowed guesses, partitions, symmetry classes,
    randomness; over the game's arrays (``arrays``: a ``GameArrays``) as ``options`` ask.
    ``weights``: each secret's, whole numbers (``secret_weights``; None: every one weighs 1), as the
    arrays number the secrets (given for a part's, computed from the game by default)."""

    def __init__(self, arrays: GameArrays, options: Options, weights: np.ndarray | None = None):
        self.arrays, self.options = arrays, options
        self.weights = secret_weights(arrays.game) if weights is None else weights
        game = self.game = arrays.game
        self.scorer, self.absent, self.hint_rule = arrays.scorer, arrays.absent, arrays.hint_rule
        self.secret_guess, self.guess_secret = arrays.secret_guess, arrays.guess_secret
        self.all_guesses = np.arange(len(game.guesses), dtype=np.int64)
        self.feedbacks, self.n_feedbacks, self.win_index = arrays.feedbacks, arrays.n_feedbacks, arrays.win
        self.restricted = game.restricts_guesses  # guesses allowed depend on the history (hard mode)
        self.shortcuts = options.engine != "reference"  # the reference engine scores every guess at every node
        self._symmetry = arrays.symmetry
        self._candidate_guess = np.zeros(len(game.guesses), dtype=bool)
        self.first = None if options.first is None else arrays.opening(options.first)

    def for_part(self, part: np.ndarray) -> BuildContext:
        """This context narrowed to the secrets ``part`` (``GameArrays.part``): strategies choose
        exactly as they would here."""
        arrays = self.arrays.part(part)
        if arrays is self.arrays:
            return self
        return BuildContext(arrays, self.options, None if self.weights is None else self.weights[part])

    def recipe(self, matrix) -> tuple:
        """How a worker process rebuilds this context over ``matrix`` (the matrix in shared memory,
        a ``workers.shared.SharedArray``, or None for none): ``(function, arguments)``, both picklable."""
        return in_pool_worker, (self.game.spec(), self.options, self.scorer.backend, matrix,
                                False if matrix is None else None)

    def portable_recipe(self, whole: bool | None = None) -> tuple:
        """How a process on another machine rebuilds this context, with no file and no shared
        memory of ours: ``(function, arguments)``, both picklable (the game carries its words).
        ``whole``: its matrix, as ``engine.scorer.Scorer`` takes it (False: none, as a big build's)."""
        return in_worker, (self.game.portable().spec(), self.options, self.scorer.backend, None, whole)

    def best_guesses(self, guess_ids: np.ndarray, candidates: np.ndarray, heuristic: str, count: int) -> np.ndarray:
        """``strategies.best_guesses`` over this game's arrays."""
        return best_guesses(self.arrays, guess_ids, candidates, heuristic, count)

    def close(self) -> None:
        """Free the matrix if it is in shared memory."""
        self.scorer.release()

    def symmetric(self, guess_ids: np.ndarray, node: Node) -> np.ndarray:
        """Drop guesses that a lower guess of the same symmetry class stands for, or a lower guess
        alike because they differ only in symbols that no candidate has."""
        if self._symmetry is None:
            return guess_ids
        many = len(node.candidates) >= SYMMETRY_MIN_CANDIDATES
        if many:
            mask = self._symmetry.canonical(node.played, len(node.candidates))
            guess_ids = guess_ids if mask is None else guess_ids[mask[guess_ids]]
        if many or self.absent.repeats:  # with repeats two passes over the guesses find them: always worth it
            guess_ids = self.absent.lowest(guess_ids, self.secret_guess[node.candidates])
        return guess_ids

    def first_perfect(self, candidates: np.ndarray) -> int | None:
        """The first candidate that puts every candidate in a part of its own, if any."""
        guess_ids = self.secret_guess[candidates]
        index = self.scorer.first_perfect(guess_ids, candidates)
        return None if index < 0 else int(guess_ids[index])

    def allowed(self, node: Node) -> np.ndarray:
        """The guesses a strategy may play at ``node``: all (that the game's rules allow after
        the node's history) or only the candidates, which every rule allows."""
        if self.options.candidates == "consistent":
            return self.secret_guess[node.candidates]
        if not self.restricted or not node.played:
            return self.all_guesses
        if self.hint_rule is not None:
            return self.all_guesses[self.hint_rule.allowed(self.hint_rule.state(node.played, node.path))]
        history = [(self.game.guesses[g], self.feedbacks[f]) for g, f in zip(node.played, node.path)]
        return self.all_guesses[[self.game.allows(guess, history) is None for guess in self.game.guesses]]

    def answers(self, guess: int, candidates: np.ndarray) -> np.ndarray:
        """Feedback indices of one guess against ``candidates``."""
        return self.scorer.answers(guess, candidates)

    def is_candidate(self, guess_ids: np.ndarray, candidates: np.ndarray) -> np.ndarray:
        """Per guess of ``guess_ids``: is it one of ``candidates`` (every secret is a guess)?"""
        played = self.secret_guess[candidates]
        self._candidate_guess[played] = True
        result = self._candidate_guess[guess_ids]
        self._candidate_guess[played] = False
        return result

    def perfect_or_stats(self, guess_ids: np.ndarray, candidates: np.ndarray, statistic: int, pick_only: bool = False):
        """``(guess, None, None)``: the first of ``guess_ids`` that puts every candidate in a part of
        its own; else ``(None, stats, parts)`` of ``partition_stats``."""
        first, stats, parts = self.scorer.perfect_or_stats(guess_ids, candidates, statistic, pick_only)
        return (int(guess_ids[first]), None, None) if first >= 0 else (None, stats, parts)

    def canonical_pick(self, guess_ids: np.ndarray, scores: np.ndarray, parts: np.ndarray,
                       candidates: np.ndarray) -> int:
        """The spec's tie-break: the best score of a useful guess (a candidate, or of two parts or
        more; ties within a relative ``TIE``), then a candidate, then the lowest guess; -1 if none
        of ``guess_ids`` is useful."""
        played = self.secret_guess[candidates]
        self._candidate_guess[played] = True
        try:
            return int(backend_kernels(self.scorer.backend).canonical_pick(
                guess_ids, np.asarray(scores, dtype=np.float64), self._candidate_guess, parts, TIE))
        finally:
            self._candidate_guess[played] = False

    def most_parts(self, guess_ids: np.ndarray, candidates: np.ndarray) -> int | None:
        """most-parts' pick among ``guess_ids`` by full scoring's rule (the most parts, then a
        candidate, then the lowest guess), where the game scores partitions from its codes; else
        None. The candidates are scanned first, to the first of the most parts a candidate can
        make (every answer, or one each), then the other guesses, to the first of the most parts
        they can make (every answer but the win)."""
        if not self.scorer.on_the_fly:
            return None
        if len(candidates) < SYMMETRY_MIN_CANDIDATES:  # (so no candidate was dropped for a classmate)
            own, others = self.secret_guess[candidates], guess_ids  # scanning them twice costs less than sorting out
        else:
            mine = self.is_candidate(guess_ids, candidates)
            own, others = guess_ids[mine], guess_ids[~mine]
        top = min(len(candidates), self.n_feedbacks)
        top_other = min(len(candidates), self.n_feedbacks - 1)  # another guess never wins
        first, own_parts = self.scorer.first_with_parts(own, candidates, top)
        if first >= 0:
            return int(own[first])
        best = int(own_parts.max())  # (none made ``top``: these are all scored)
        if best < top_other and len(others):
            first, other_parts = self.scorer.first_with_parts(others, candidates, top_other)
            if first >= 0:
                return int(others[first])
            if other_parts.max() > best:  # the first of them, which is no candidate
                return int(others[np.argmax(other_parts)])
        return int(own[own_parts == best].min())

    def partition_stats(self, guess_ids: np.ndarray, candidates: np.ndarray, statistic: int, pick_only: bool = False):
        """Per guess: the strategy's statistic of its partition of ``candidates``, and its part count
        (``pick_only``: exact only for the best guesses, where the scorer can drop the others early)."""
        return self.scorer.partition_stats(guess_ids, candidates, statistic, pick_only)

    # -- a weighted game's (``weights``): strategies.Heuristic.choose_weighted asks these -----------
    def heaviest(self, candidates: np.ndarray) -> int:
        """The guess of the heaviest of ``candidates`` (equal weights: the first)."""
        return int(self.secret_guess[candidates[int(np.argmax(self.weights[candidates]))]])

    def weighted_stats(self, guess_ids: np.ndarray, candidates: np.ndarray, statistic: int):
        """Per guess: the strategy's statistic of its partition of ``candidates`` by weight (float64),
        and its part count; and the node's weight, which the score reads for the candidates' count."""
        weights = self.weights[candidates]
        stats, parts = self.scorer.weighted_stats(guess_ids, candidates, statistic, weights)
        return stats, parts, int(weights.sum())

    def first_perfect_by_weight(self, guess_ids: np.ndarray, candidates: np.ndarray, statistic: int) -> int | None:
        """Entropy's or expected-size's pick in a weighted game where a split of ``candidates`` into
        singletons is it: the heaviest candidate that makes one (equal weights: the first), else the
        first of ``guess_ids``; None where none does, or where another split might come within a
        tie of it (then every guess is scored). Merging parts of weights ``a <= b`` costs entropy at
        least ``a / W`` bits (of at most log2 n) and adds ``2ab`` to the sum of squares (of the
        singletons' sum of squared weights): a clear gap unless weights lie some 10**9 apart."""
        if len(candidates) > self.n_feedbacks:
            return None
        weights = self.weights[candidates].astype(np.float64)
        least, total = weights.min(), weights.sum()
        if statistic == CLOG_SUM:
            clear = least / total > 2 * TIE * np.log2(len(candidates))
        else:
            clear = least * least > 2 * TIE * float((weights * weights).sum())
        if not clear:
            return None
        heaviest = self.secret_guess[candidates[np.argsort(-weights, kind="stable")]]
        for choices in (heaviest, guess_ids):
            index = self.scorer.first_perfect(choices, candidates)
            if index >= 0:
                return int(choices[index])
        return None

    def weighted_pick(self, guess_ids: np.ndarray, scores: np.ndarray, parts: np.ndarray,
                      candidates: np.ndarray) -> int:
        """``canonical_pick`` of a weighted game: the best score of a useful guess (ties within a
        relative ``TIE``), then a candidate, then the heaviest candidate, then the lowest guess
        (player/advice.py's tie-break); -1 if none of ``guess_ids`` is useful."""
        is_candidate = self.is_candidate(guess_ids, candidates)
        useful = (parts > 1) | is_candidate
        if not useful.any():
            return -1
        scores = np.where(useful, np.asarray(scores, dtype=np.float64), -np.inf)
        best = scores.max()
        tied = useful & (scores >= best - TIE * abs(best))
        if (tied & is_candidate).any():
            tied &= is_candidate
            weight = np.where(tied, self.weights[np.maximum(self.guess_secret[guess_ids], 0)], -1)
            tied &= weight == weight.max()
        return int(guess_ids[tied].min())

    def rng(self, key: tuple) -> np.random.Generator:
        """Randomness for one node: from the seed and the node's path, never from build order."""
        return np.random.default_rng(np.random.SeedSequence([self.options.seed, len(key), *key]))


MAX_WEIGHT = 1 << 53  # the weights' whole-number total: its sums stay exact in float64


def secret_weights(game: Game) -> np.ndarray | None:
    """Each secret's weight as a whole number (``game.integer_weights``), None where every one
    weighs 1; a ValueError where their total is too big to count exactly."""
    if game.weights is None:
        return None
    weights, _ = integer_weights(game.weights)
    if sum(weights) >= MAX_WEIGHT:
        raise ValueError(f"the weights of {game.title()} need too many digits together: as whole numbers in the "
                         f"same proportions they sum to {sum(weights):.3g}, more than 2**53; give fewer decimals")
    return np.asarray(weights, dtype=np.int64)


def in_worker(spec: dict, options: Options, backend: str, matrix=None, whole: bool | None = None) -> BuildContext:
    """A worker's build context (``recipe``, ``portable_recipe``): the same game and options over
    the arrays it rebuilds (``GameArrays.in_worker``)."""
    return BuildContext(GameArrays.in_worker(spec, options.max_memory, backend, matrix, whole), options)


def in_pool_worker(*arguments) -> BuildContext:
    """``in_worker`` in one of our worker processes (``recipe``), numba started as in the command's
    process (``engine.numba_start``); a Dask worker, which may serve other work, is left as it is."""
    numba_without_cffi()
    return in_worker(*arguments)

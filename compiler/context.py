"""The build context: what strategies may ask of the game while a tree is built.

The builder (``builder.py``) makes one per build; the strategies (``strategies.py``) ask it for the
guesses allowed at a node, their partitions' statistics, one guess per symmetry class, and the
randomness of a node; an exhaustive strategy's solver is kept in its ``solver``.
"""
from __future__ import annotations

import copy
from typing import NamedTuple

import numpy as np

from guesstree.player.games import Game, game_from_spec

from .feedback import Scorer, backend_kernels
from .hint_rule import HintRule
from .options import Options
from .strategies import clog_table, get_strategy
from .symmetry import AbsentSymbols, Symmetry

TIE = 1e-9  # scores within this relative distance of the best are a tie
SYMMETRY_MIN_CANDIDATES = 64  # below this, scoring every guess is cheaper than finding classes


class Node(NamedTuple):
    """A node of the tree being built."""

    candidates: np.ndarray  # secret indices, ascending
    path: tuple[int, ...]  # feedback indices from the root: the node's position in the tree
    played: tuple[int, ...]  # guess indices from the root


class BuildContext:
    """What strategies may ask while a tree is built: allowed guesses, partitions, symmetry classes,
    randomness; and an exhaustive strategy's solver for the whole build (``solver``)."""

    def __init__(self, game: Game, options: Options, scorer: Scorer):
        self.game, self.options, self.scorer = game, options, scorer
        guess_index = {g: i for i, g in enumerate(game.guesses)}
        missing = [s for s in game.secrets if s not in guess_index]
        if missing:
            raise ValueError(f"{game!r}: secret {game.format_code(missing[0])} is not an allowed guess, "
                             "so no strategy could ever win it")
        self._number(np.array([guess_index[s] for s in game.secrets], dtype=np.int64))
        self.all_guesses = np.arange(len(game.guesses), dtype=np.int64)
        self.feedbacks = game.feedbacks()
        self.n_feedbacks = len(self.feedbacks)
        self.win_index = game.feedbacks().index(game.win)
        self.clog = clog_table(len(game.secrets))
        self.restricted = game.restricts_guesses  # guesses allowed depend on the history (hard mode)
        self.hint_rule = HintRule(game, scorer.guess_codes) if game.hint_rule else None  # that, vectorised
        self.shortcuts = options.engine != "reference"  # the reference engine scores every guess at every node
        self.solver = None  # an exhaustive strategy's search (search/solver.py), made on first use
        self._symmetry = Symmetry(game, scorer.guess_codes, scorer.backend) if game.permutable else None
        self.absent = AbsentSymbols(game, scorer.guess_codes)  # guesses alike by symbols no candidate has
        self.first = None if options.first is None else self._opening(options.first)

    def _number(self, secret_guess: np.ndarray) -> None:
        """Number the secrets: ``secret_guess[secret]`` is each one's guess index."""
        self.secret_guess = secret_guess
        self.guess_secret = np.full(len(self.game.guesses), -1, dtype=np.int64)
        self.guess_secret[secret_guess] = np.arange(len(secret_guess))
        self._candidate_guess = np.zeros(len(self.game.guesses), dtype=bool)

    @property
    def matrix(self) -> np.ndarray | None:
        """The whole matrix [guess, secret], if the scorer keeps one."""
        return self.scorer.matrix

    @property
    def columns(self) -> np.ndarray | None:
        """The matrix read by columns [secret, guess], where the score is symmetric."""
        return self.scorer.columns

    def for_part(self, part: np.ndarray) -> "BuildContext":
        """This context narrowed to the secrets ``part`` (numbered 0 .. len(part)-1 there) over a
        matrix of every guess against them alone, if it fits the memory budget (else this one).
        Guesses keep their numbers, so strategies choose exactly as they would here."""
        scorer = self.scorer.part(part, self.secret_guess[part])
        if scorer is None:
            return self
        narrow = copy.copy(self)
        narrow.scorer = scorer
        narrow._number(self.secret_guess[part])
        return narrow

    def recipe(self, matrix) -> tuple:
        """How a worker process rebuilds this context over ``matrix`` (the matrix in shared memory,
        a ``pool.SharedArray``, or None for none): ``(function, arguments)``, both picklable."""
        return worker_context, (self.game.spec(), self.options, self.scorer.backend, matrix)

    def portable_recipe(self, whole: bool | None = None) -> tuple:
        """How a process on another machine rebuilds this context, with no file and no shared
        memory of ours: ``(function, arguments)``, both picklable (the game carries its words).
        ``whole``: its matrix, as ``feedback.Scorer`` takes it (False: none, as a big build's)."""
        return own_context, (self.game.portable().spec(), self.options, self.scorer.backend, whole)

    def best_guesses(self, guess_ids: np.ndarray, candidates: np.ndarray, heuristic: str, count: int) -> np.ndarray:
        """The ``count`` of ``guess_ids`` that ``heuristic`` ranks best at a node of ``candidates``, best
        first (by score, then a possible secret, then the lowest guess; useless guesses never)."""
        strategy = get_strategy(heuristic)
        stats, parts = self.partition_stats(guess_ids, candidates, strategy.statistic)
        scores = strategy.score(stats, len(candidates)).astype(np.float64)
        is_candidate = self.is_candidate(guess_ids, candidates)
        ranked = np.lexsort((guess_ids, ~is_candidate, -scores))
        ranked = ranked[((parts > 1) | is_candidate)[ranked]]
        return guess_ids[ranked[:count]]

    def close(self) -> None:
        """Stop a solver's jobs, and free the matrix if it is in shared memory."""
        solver, self.solver = self.solver, None
        if solver is not None:
            solver.close()
        self.scorer.release()

    def _opening(self, text: str) -> int:
        code = self.game.parse_code(text)
        index = {g: i for i, g in enumerate(self.game.guesses)}.get(code)
        if index is None:
            raise ValueError(f"--first {text}: {self.game.format_code(code)} is not an allowed guess")
        return index

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
        index = self.scorer.first_perfect(guess_ids, candidates, self.n_feedbacks)
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
        first, stats, parts = self.scorer.perfect_or_stats(guess_ids, candidates, self.n_feedbacks, statistic,
                                                           self.clog, pick_only)
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
        return self.scorer.partition_stats(guess_ids, candidates, self.n_feedbacks, statistic, self.clog, pick_only)

    def rng(self, key: tuple) -> np.random.Generator:
        """Randomness for one node: from the seed and the node's path, never from build order."""
        return np.random.default_rng(np.random.SeedSequence([self.options.seed, len(key), *key]))


def worker_context(spec: dict, options: Options, backend: str, matrix) -> BuildContext:
    """A worker's build context: the same game and options, over the parent's shared matrix (or
    none: matrices of parts, made by the worker)."""
    game = game_from_spec(spec)
    scorer = Scorer(game, options.max_memory, backend, matrix=None if matrix is None else matrix.array,
                    whole=False if matrix is None else None)
    scorer.threads = False  # one process per core already
    return BuildContext(game, options, scorer)


def own_context(spec: dict, options: Options, backend: str, whole: bool | None = None) -> BuildContext:
    """A build context with a matrix of its own, or none (a cluster's worker, one per core: see
    ``portable_recipe``)."""
    game = game_from_spec(spec)
    scorer = Scorer(game, options.max_memory, backend, whole=whole)
    scorer.threads = False
    return BuildContext(game, options, scorer)

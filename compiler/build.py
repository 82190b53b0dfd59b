"""The tree builder: expands a strategy over every secret, breadth first.

Nodes are numbered in the order they are expanded, children in feedback order, so a
node's children are consecutive and every child comes after its parent.
"""
from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Callable, NamedTuple

import numpy as np

from player.games import Game

from . import reference
from .feedback import Scorer
from .strategies import clog_table, get_strategy
from .symmetry import Symmetry

ENGINES = ("fast", "reference")
SYMMETRY_MIN_CANDIDATES = 64
COLUMN_MAX_CANDIDATES = 1024  # below this, read the transposed matrix
PERFECT_CHUNK = 4096  # guesses scored at a time while looking for a perfect split  # below this, scoring every guess is cheaper than finding classes


class Node(NamedTuple):
    candidates: np.ndarray  # secret indices, ascending
    path: tuple[int, ...]  # feedback indices from the root: the node's position in the tree
    played: tuple[int, ...]  # guess indices from the root
DEFAULT_MAX_MEMORY = 8 << 30


@dataclass(frozen=True)
class Options:
    """Everything that decides the tree (``engine`` decides only how fast it is built)."""

    strategy: str = "entropy"
    candidates: str = "all"  # "all" allowed guesses, or only "consistent" ones
    seed: int = 0
    guess_sample: int = 500
    secret_sample: int = 1000
    engine: str = "fast"
    max_memory: int = DEFAULT_MAX_MEMORY

    def __post_init__(self):
        strategy = get_strategy(self.strategy)
        if self.candidates not in ("all", "consistent"):
            raise ValueError(f"--candidates must be 'all' or 'consistent', not {self.candidates!r}")
        if not hasattr(strategy, "statistic") and self.candidates != "consistent":
            object.__setattr__(self, "candidates", "consistent")  # first/random only play candidates
        if self.engine not in ENGINES:
            raise ValueError(f"unknown engine: {self.engine!r}; choose from {', '.join(ENGINES)}")
        for name in ("guess_sample", "secret_sample"):
            if getattr(self, name) < 1:
                raise ValueError(f"--{name.replace('_', '-')} must be at least 1")
        if not 0 <= self.seed < 2**63:
            raise ValueError(f"--seed must be a whole number from 0 to 2**63-1, not {self.seed}")

    def spec(self) -> dict:
        """The strategy as the artifact records it: only what changes the tree."""
        strategy = get_strategy(self.strategy)
        spec = {"name": self.strategy, "candidates": self.candidates}
        if strategy.randomised:
            spec["seed"] = self.seed
        if strategy.sampled:
            spec["guess_sample"] = self.guess_sample
            spec["secret_sample"] = self.secret_sample
        return spec


class Search:
    """What strategies may ask while the tree is built: allowed guesses, partitions, randomness."""

    def __init__(self, game: Game, options: Options, scorer: Scorer):
        self.game, self.options, self.scorer = game, options, scorer
        matrix = self.matrix = scorer.matrix  # None when the game is too big for one
        guess_index = {g: i for i, g in enumerate(game.guesses)}
        missing = [s for s in game.secrets if s not in guess_index]
        if missing:
            raise ValueError(f"{game!r}: secret {game.format_code(missing[0])} is not an allowed guess, "
                             "so no strategy could ever win it")
        self.secret_guess = np.array([guess_index[s] for s in game.secrets], dtype=np.int64)
        self.guess_secret = np.full(len(game.guesses), -1, dtype=np.int64)
        self.guess_secret[self.secret_guess] = np.arange(len(game.secrets))
        self.all_guesses = np.arange(len(game.guesses), dtype=np.int64)
        self.n_feedbacks = len(game.feedbacks())
        self.clog = clog_table(len(game.secrets))
        self._in_candidates = np.zeros(len(game.secrets), dtype=bool)
        # columns[secret, guess]: a symmetric score makes the matrix its own transpose
        symmetric = getattr(game, "symmetric_score", False) and game.guesses == game.secrets
        self.columns = matrix if symmetric and matrix is not None else None
        self.shortcuts = options.engine == "fast"  # the reference engine scores every guess at every node
        self._symmetry = Symmetry(game, scorer.guess_codes) if Symmetry.applies(game) else None

    def symmetric(self, guess_ids: np.ndarray, node: "Node") -> np.ndarray:
        """Drop guesses that a lower guess of the same symmetry class stands for."""
        if self._symmetry is None or len(node.candidates) < SYMMETRY_MIN_CANDIDATES:
            return guess_ids
        mask = self._symmetry.canonical(node.played)
        return guess_ids if mask is None else guess_ids[mask[guess_ids]]

    def partition_stats_until_perfect(self, guess_ids: np.ndarray, candidates: np.ndarray, statistic: int):
        """``partition_stats`` in chunks of guesses, stopping at the first guess that puts
        every candidate in a part of its own: ``(stats, parts, that guess or None)``."""
        stats, parts = [], []
        for start in range(0, len(guess_ids), PERFECT_CHUNK):
            chunk = guess_ids[start:start + PERFECT_CHUNK]
            chunk_stats, chunk_parts = self.partition_stats(chunk, candidates, statistic)
            perfect = np.flatnonzero(chunk_parts == len(candidates))
            if len(perfect):
                return None, None, int(chunk[perfect[0]])
            stats.append(chunk_stats)
            parts.append(chunk_parts)
        return np.concatenate(stats), np.concatenate(parts), None

    def first_perfect(self, candidates: np.ndarray) -> int | None:
        """The lowest candidate that puts every candidate in a part of its own, if any."""
        from .kernels import first_perfect

        guess_ids = self.secret_guess[candidates]
        if self.matrix is None:
            every = np.arange(len(candidates))
            index = first_perfect(self.scorer.block(guess_ids, candidates), every, every, self.n_feedbacks)
        else:
            index = first_perfect(self.matrix, guess_ids, candidates, self.n_feedbacks)
        return None if index < 0 else int(guess_ids[index])

    def allowed(self, candidates: np.ndarray) -> np.ndarray:
        if self.options.candidates == "consistent":
            return self.secret_guess[candidates]
        return self.all_guesses

    def is_candidate(self, guess_ids: np.ndarray, candidates: np.ndarray) -> np.ndarray:
        self._in_candidates[candidates] = True
        secret = self.guess_secret[guess_ids]
        result = (secret >= 0) & self._in_candidates[np.maximum(secret, 0)]
        self._in_candidates[candidates] = False
        return result

    def partition_stats(self, guess_ids: np.ndarray, candidates: np.ndarray, statistic: int):
        """Per guess: the strategy's statistic of its partition of ``candidates``, and its part count."""
        from . import kernels

        if self.options.engine == "reference":
            count = reference.partition_stats
        elif self.columns is not None and len(candidates) < COLUMN_MAX_CANDIDATES:
            return kernels.partition_stats(self.columns, guess_ids, candidates, self.n_feedbacks,
                                           statistic, self.clog, by_column=True)
        else:
            count = kernels.partition_stats
        if self.matrix is not None:
            return count(self.matrix, guess_ids, candidates, self.n_feedbacks, statistic, self.clog)
        stats, parts = [], []  # no matrix: score blocks of guesses on demand
        step = max(1, self.scorer.block_cells // len(candidates))
        every = np.arange(len(candidates))
        for start in range(0, len(guess_ids), step):
            chunk = guess_ids[start:start + step]
            block = self.scorer.block(chunk, candidates)
            chunk_stats, chunk_parts = count(block, np.arange(len(chunk)), every, self.n_feedbacks, statistic, self.clog)
            stats.append(chunk_stats)
            parts.append(chunk_parts)
        return np.concatenate(stats), np.concatenate(parts)

    def rng(self, key: tuple) -> np.random.Generator:
        """Randomness for one node: from the seed and the node's path, never from build order."""
        return np.random.default_rng(np.random.SeedSequence([self.options.seed, len(key), *key]))


@dataclass
class Built:
    """A complete tree in memory, ready to be written (see trees/FORMAT.md for the arrays)."""

    game: Game
    options: Options
    node_guess: list[int] = field(default_factory=list)  # guess index per node
    edge_counts: list[int] = field(default_factory=list)  # children per node
    edge_feedback: list[int] = field(default_factory=list)  # feedback index per edge; edge e leads to node e + 1
    stats: dict = field(default_factory=dict)

    @property
    def nodes(self) -> int:
        return len(self.node_guess)


Progress = Callable[[int, int], None]  # (secrets solved so far, all secrets)


def build(game: Game, options: Options, progress: Progress | None = None) -> Built:
    """Expand ``options.strategy`` over every secret of ``game``."""
    scorer = Scorer(game, options.max_memory)
    search = Search(game, options, scorer)
    strategy = get_strategy(options.strategy)
    n = len(game.secrets)
    win_index = game.feedbacks().index(game.win)
    wins = np.zeros(n, dtype=np.int64)
    determined = np.full(n, -1 if n > 1 else 0, dtype=np.int64)
    built = Built(game, options)
    queue = deque([Node(np.arange(n, dtype=np.int64), (), ())])
    solved = 0
    while queue:
        node = queue.popleft()
        candidates = node.candidates
        depth = len(node.path) + 1
        if len(candidates) == 1:  # a leaf: play the secret
            built.node_guess.append(int(search.secret_guess[candidates[0]]))
            built.edge_counts.append(0)
            wins[candidates[0]] = depth
            solved += 1
            continue
        guess = int(strategy.choose(search, node))
        built.node_guess.append(guess)
        answers = scorer.answers(guess, candidates)
        order = np.argsort(answers, kind="stable")
        answers, candidates = answers[order], candidates[order]
        cuts = np.flatnonzero(np.diff(answers)) + 1
        if not len(cuts) and answers[0] != win_index:
            raise RuntimeError(f"strategy {options.strategy} made no progress at path {node.path}")
        edges_before = len(built.edge_feedback)
        played = node.played + (guess,)
        for start, part in zip(np.concatenate(([0], cuts)), np.split(candidates, cuts)):
            answer = int(answers[start])
            if len(part) == 1 and determined[part[0]] < 0:
                determined[part[0]] = depth
            if answer == win_index:
                wins[part[0]] = depth
                solved += 1
            else:
                built.edge_feedback.append(answer)
                queue.append(Node(part, node.path + (answer,), played))
        built.edge_counts.append(len(built.edge_feedback) - edges_before)
        if progress is not None:
            progress(solved, n)
    built.stats = statistics(wins, determined)
    return built


def statistics(wins: np.ndarray, determined: np.ndarray) -> dict:
    """The header's statistics from guesses-to-win and guesses-to-determine per secret."""
    n = len(wins)
    win_hist, det_hist = Counter(wins.tolist()), Counter(determined.tolist())
    return {
        "secrets": n,
        "total": int(wins.sum()),
        "average": float(wins.sum()) / n,
        "worst": int(wins.max()),
        "histogram": {int(k): win_hist[k] for k in sorted(win_hist)},
        "determined_total": int(determined.sum()),
        "determined_average": float(determined.sum()) / n,
        "determined_worst": int(determined.max()),
        "determined_histogram": {int(k): det_hist[k] for k in sorted(det_hist)},
    }

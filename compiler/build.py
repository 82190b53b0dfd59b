"""The tree builder: expands a strategy over every secret, breadth first.

Nodes are numbered in the order they are expanded, children in feedback order, so a
node's children are consecutive and every child comes after its parent.
"""
from __future__ import annotations

import os
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Callable, NamedTuple

import numpy as np

from player.games import Game

from .feedback import HintRule, Scorer, backend_for, kernels
from .strategies import clog_table, get_strategy
from .symmetry import Symmetry

ENGINES = ("fast", "numba", "numpy", "reference")  # fast: numpy kernels for small games, numba for the rest
SYMMETRY_MIN_CANDIDATES = 64  # below this, scoring every guess is cheaper than finding classes
COLUMN_MAX_CANDIDATES = 1024  # below this, read the transposed matrix
PARALLEL_MIN_SECRETS = 8192  # smaller games build faster than worker processes start


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
    first: str | None = None  # a fixed opening guess, as the game writes it
    max_depth: int | None = None  # optimal-expected: the most guesses any secret may take

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
        if self.max_depth is not None:
            if self.strategy != "optimal-expected":
                raise ValueError("--max-depth applies to --strategy optimal-expected only")
            if isinstance(self.max_depth, bool) or not isinstance(self.max_depth, int) or self.max_depth < 1:
                raise ValueError(f"--max-depth must be a whole number of at least 1, not {self.max_depth!r}")

    def spec(self) -> dict:
        """The strategy as the artifact records it: only what changes the tree."""
        strategy = get_strategy(self.strategy)
        spec = {"name": self.strategy, "candidates": self.candidates}
        if strategy.randomised:
            spec["seed"] = self.seed
        if strategy.sampled:
            spec["guess_sample"] = self.guess_sample
            spec["secret_sample"] = self.secret_sample
        if self.first is not None:
            spec["first"] = self.first
        if self.max_depth is not None:
            spec["max_depth"] = self.max_depth
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
        self.feedbacks = game.feedbacks()
        self.n_feedbacks = len(self.feedbacks)
        self.win_index = game.feedbacks().index(game.win)
        self.threads = True  # may kernels start threads (not in forked workers)
        self.clog = clog_table(len(game.secrets))
        self._in_candidates = np.zeros(len(game.secrets), dtype=bool)
        # columns[secret, guess]: a symmetric score makes the matrix its own transpose
        symmetric = getattr(game, "symmetric_score", False) and game.guesses == game.secrets
        self.columns = matrix if symmetric and matrix is not None else None
        self.ruled = game.restricts_guesses  # guesses allowed depend on the history (hard mode)
        self.rule = HintRule(game, scorer.guess_codes) if game.keeps_hints else None  # that, vectorised
        self.shortcuts = options.engine != "reference"  # the reference engine scores every guess at every node
        self.kernels = kernels("numpy" if options.engine == "reference" else scorer.backend)
        self.memo: dict = {}  # what a strategy keeps for the whole build (the optimal solver and its proof)
        self._symmetry = Symmetry(game, scorer.guess_codes, scorer.backend) if Symmetry.applies(game) else None
        self.first = None if options.first is None else self._opening(options.first)

    def _opening(self, text: str) -> int:
        code = self.game.parse_code(text)
        index = {g: i for i, g in enumerate(self.game.guesses)}.get(code)
        if index is None:
            raise ValueError(f"--first {text}: {self.game.format_code(code)} is not an allowed guess")
        return index

    def symmetric(self, guess_ids: np.ndarray, node: "Node") -> np.ndarray:
        """Drop guesses that a lower guess of the same symmetry class stands for."""
        if self._symmetry is None or len(node.candidates) < SYMMETRY_MIN_CANDIDATES:
            return guess_ids
        mask = self._symmetry.canonical(node.played)
        return guess_ids if mask is None else guess_ids[mask[guess_ids]]

    def first_perfect(self, candidates: np.ndarray, guess_ids: np.ndarray | None = None) -> int | None:
        """The first of ``guess_ids`` (default: the candidates themselves) that puts every
        candidate in a part of its own, if any."""
        first_perfect = self.kernels.first_perfect
        guess_ids = self.secret_guess[candidates] if guess_ids is None else guess_ids
        if self.columns is not None:
            index = first_perfect(self.columns, guess_ids, candidates, self.n_feedbacks, True)
            return None if index < 0 else int(guess_ids[index])
        if self.matrix is not None:
            index = first_perfect(self.matrix, guess_ids, candidates, self.n_feedbacks)
            return None if index < 0 else int(guess_ids[index])
        every = np.arange(len(candidates))
        step = max(1, self.scorer.block_cells // len(candidates))
        for start in range(0, len(guess_ids), step):  # no matrix: blocks on demand
            chunk = guess_ids[start:start + step]
            index = first_perfect(self.scorer.block(chunk, candidates), np.arange(len(chunk)), every, self.n_feedbacks)
            if index >= 0:
                return int(chunk[index])
        return None

    def allowed(self, node: "Node") -> np.ndarray:
        """The guesses a strategy may play at ``node``: all (that the game's rules allow after
        the node's history) or only the candidates, which every rule allows."""
        if self.options.candidates == "consistent":
            return self.secret_guess[node.candidates]
        if not self.ruled or not node.played:
            return self.all_guesses
        if self.rule is not None:
            return self.all_guesses[self.rule.allowed(self.rule.state(node.played, node.path))]
        history = [(self.game.guesses[g], self.feedbacks[f]) for g, f in zip(node.played, node.path)]
        return self.all_guesses[[self.game.allows(guess, history) is None for guess in self.game.guesses]]

    def is_candidate(self, guess_ids: np.ndarray, candidates: np.ndarray) -> np.ndarray:
        self._in_candidates[candidates] = True
        secret = self.guess_secret[guess_ids]
        result = (secret >= 0) & self._in_candidates[np.maximum(secret, 0)]
        self._in_candidates[candidates] = False
        return result

    def partition_stats(self, guess_ids: np.ndarray, candidates: np.ndarray, statistic: int):
        """Per guess: the strategy's statistic of its partition of ``candidates``, and its part count."""
        kernels = self.kernels
        if self.columns is not None and len(candidates) < COLUMN_MAX_CANDIDATES:
            return kernels.partition_stats(self.columns, guess_ids, candidates, self.n_feedbacks,
                                           statistic, self.clog, by_column=True, threads=self.threads)

        def count(*args):
            return kernels.partition_stats(*args, threads=self.threads)
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
    proof: dict = field(default_factory=dict)  # what an exhaustive strategy proved (joins the strategy spec)

    @property
    def nodes(self) -> int:
        return len(self.node_guess)


Progress = Callable[[int, int], None]  # (secrets solved so far, all secrets)


@dataclass
class Subtree:
    """The nodes below one node, breadth first, level by level, and what they settle."""

    levels: list[tuple[list[int], list[int], list[int]]] = field(default_factory=list)  # (guesses, edge counts, edge feedbacks)
    wins: list[tuple[int, int]] = field(default_factory=list)  # (secret, guesses to win)
    determined: list[tuple[int, int]] = field(default_factory=list)  # (secret, guesses to determine)

    def level(self, index: int):
        while len(self.levels) <= index:
            self.levels.append(([], [], []))
        return self.levels[index]


def expand(search: "Search", start: Node, progress: Callable[[int], None] | None = None) -> Subtree:
    """Expand the strategy below ``start``, breadth first; children in feedback order."""
    strategy = get_strategy(search.options.strategy)
    subtree = Subtree()
    queue = deque([start])
    top = len(start.path)
    while queue:
        node = queue.popleft()
        candidates = node.candidates
        depth = len(node.path) + 1
        guesses, counts, feedbacks = subtree.level(depth - 1 - top)
        if len(candidates) == 1:  # a leaf: play the secret
            guesses.append(int(search.secret_guess[candidates[0]]))
            counts.append(0)
            subtree.wins.append((int(candidates[0]), depth))
            if progress is not None:
                progress(len(subtree.wins))
            continue
        guess, parts = _split(search, strategy, node, subtree)
        guesses.append(guess)
        counts.append(len(parts))
        for answer, child in parts:
            feedbacks.append(answer)
            queue.append(child)
        if progress is not None:
            progress(len(subtree.wins))
    return subtree


def _split(search: "Search", strategy, node: Node, subtree: Subtree) -> tuple[int, list[tuple[int, Node]]]:
    """Choose the node's guess and partition its candidates: ``(guess, [(feedback, child)])``,
    recording in ``subtree`` the secrets that the guess wins or determines."""
    guess = search.first if search.first is not None and not node.path else int(strategy.choose(search, node))
    answers = search.scorer.answers(guess, node.candidates)
    order = np.argsort(answers, kind="stable")
    answers, candidates = answers[order], node.candidates[order]
    cuts = (np.flatnonzero(answers[1:] != answers[:-1]) + 1).tolist()
    if not cuts and answers[0] != search.win_index:
        if not node.path and search.first is not None:
            raise ValueError(f"--first {search.options.first} tells nothing about the secret: every secret "
                             "gives it the same answer")
        raise RuntimeError(f"strategy {strategy.name} made no progress at path {node.path}")
    depth = len(node.path) + 1
    played = node.played + (guess,)
    children = []
    starts = [0, *cuts]
    for answer, start, end in zip(answers[starts].tolist(), starts, [*cuts, len(candidates)]):
        part = candidates[start:end]
        if end - start == 1:
            subtree.determined.append((int(part[0]), depth))
        if answer == search.win_index:
            subtree.wins.append((int(part[0]), depth))
        else:
            children.append((answer, Node(part, node.path + (answer,), played)))
    return guess, children


def build(game: Game, options: Options, progress: Progress | None = None, workers: int | None = None,
          search: Search | None = None) -> Built:
    """Expand ``options.strategy`` over every secret of ``game``.

    Big games expand the first guess's subtrees in ``workers`` processes (default: one per
    core); the tree is the same for any number of workers. ``search``: one made beforehand
    (e.g. with an optimal solver set up to report progress and keep checkpoints).
    """
    search = search or Search(game, options, Scorer(game, options.max_memory, backend_for(game, options.engine)))
    scorer = search.scorer
    strategy = get_strategy(options.strategy)
    if hasattr(strategy, "prepare"):
        strategy.prepare(search)  # a whole-game search (the optimal strategies), before any node
    n = len(game.secrets)
    root = Node(np.arange(n, dtype=np.int64), (), ())
    workers = (os.cpu_count() or 1) if workers is None else workers
    if workers > 1 and n >= PARALLEL_MIN_SECRETS and scorer.matrix is not None:
        tree = _expand_in_parallel(search, root, workers, progress)
    else:
        tree = expand(search, root, None if progress is None else (lambda solved: progress(solved, n)))
    built = Built(game, options)
    for guesses, counts, feedbacks in tree.levels:
        built.node_guess += guesses
        built.edge_counts += counts
        built.edge_feedback += feedbacks
    wins = np.zeros(n, dtype=np.int64)
    determined = np.full(n, 0 if n == 1 else -1, dtype=np.int64)
    for secret, depth in tree.wins:
        wins[secret] = depth
    for secret, depth in tree.determined:
        determined[secret] = depth
    built.stats = statistics(wins, determined)
    built.proof = dict(search.memo.get("proof", {}))
    return built


def _expand_in_parallel(search: "Search", root: Node, workers: int, progress: Progress | None) -> Subtree:
    """Split the root here, expand its children's subtrees in forked worker processes, and
    splice them level by level in feedback order: exactly the breadth-first tree that one
    process builds, whatever the number of workers."""
    tree = Subtree()
    guess, children = _split(search, get_strategy(search.options.strategy), root, tree)
    tree.levels.append(([guess], [len(children)], [answer for answer, _ in children]))
    largest_first = sorted(range(len(children)), key=lambda i: -len(children[i][1].candidates))
    subtrees: list[Subtree | None] = [None] * len(children)
    solved, n = len(tree.wins), len(root.candidates)
    import multiprocessing  # only big games start workers; small ones skip the import

    context = multiprocessing.get_context("fork")
    with context.Pool(min(workers, len(children)) or 1, initializer=_start_worker, initargs=(search,)) as pool:
        jobs = [(i, children[i][1]) for i in largest_first]
        for i, subtree in pool.imap_unordered(_expand_job, jobs):
            subtrees[i] = subtree
            solved += len(subtree.wins)
            if progress is not None:
                progress(solved, n)
    for subtree in subtrees:
        for depth, (guesses, counts, feedbacks) in enumerate(subtree.levels, 1):
            level = tree.level(depth)
            level[0].extend(guesses)
            level[1].extend(counts)
            level[2].extend(feedbacks)
        tree.wins += subtree.wins
        tree.determined += subtree.determined
    return tree


_worker: dict = {}  # the forked worker's search, set once by _start_worker


def _start_worker(search: "Search") -> None:
    search.threads = False  # one process per core already
    _worker["search"] = search


def _expand_job(job: tuple[int, Node]) -> tuple[int, Subtree]:
    index, node = job
    return index, expand(_worker["search"], node)


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

"""The tree builder: expands a strategy over every secret, breadth first.

Nodes are numbered in the order they are expanded, children in feedback order, so a
node's children are consecutive and every child comes after its parent. Big games expand
the first guess's subtrees in worker processes (``pool.py``) and splice them level by level:
the tree is the same for any number of workers.
"""
from __future__ import annotations

import os
from collections import deque
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from guesstree.player.games import Game
from guesstree.player.stats import Statistics

from .context import BuildContext, Node
from .feedback import Scorer, backend_for
from .options import Options
from .search.settings import SearchSettings

PARALLEL_MIN_SECRETS = 20000  # smaller games build faster in one process (its kernels use every core)
# From this many guesses x secrets, a heuristic's tree is built without the whole matrix. A game
# that scores partitions straight from its codes (``Scorer.on_the_fly``: peg games on the compiled
# engine) needs none at all; otherwise the root is scored in blocks, and each of its subtrees over
# a matrix of its own part's secrets (the largest part of 8x5 Mastermind would take 231 MB instead
# of the whole matrix's 1 GiB). A sampled heuristic scores blocks on demand instead: it reads a
# sample of guesses on a sample of secrets.
PART_MIN_CELLS = 1 << 28


@dataclass
class Built:
    """A complete tree in memory, ready to be written (see trees/FORMAT.md for the arrays)."""

    game: Game
    options: Options
    node_guess: list[int] = field(default_factory=list)  # guess index per node
    edge_counts: list[int] = field(default_factory=list)  # children per node
    edge_feedback: list[int] = field(default_factory=list)  # feedback index per edge; edge e leads to node e + 1
    stats: Statistics | None = None  # set once the tree is complete
    proof: dict = field(default_factory=dict)  # what an exhaustive strategy proved (joins the strategy spec)
    # how its search settled the first guesses, {"bound": n, "search": m}: effort, not in the artifact
    first_guesses: dict = field(default_factory=dict)

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


def expand(context: BuildContext, start: Node, progress: Callable[[int], None] | None = None) -> Subtree:
    """Expand the strategy below ``start``, breadth first; children in feedback order."""
    strategy = context.options.strategy
    subtree = Subtree()
    queue = deque([start])
    top = len(start.path)
    while queue:
        node = queue.popleft()
        candidates = node.candidates
        depth = len(node.path) + 1
        guesses, counts, feedbacks = subtree.level(depth - 1 - top)
        if len(candidates) == 1:  # a leaf: play the secret
            guesses.append(int(context.secret_guess[candidates[0]]))
            counts.append(0)
            subtree.wins.append((int(candidates[0]), depth))
            if progress is not None:
                progress(len(subtree.wins))
            continue
        guess, parts = _split(context, strategy, node, subtree)
        guesses.append(guess)
        counts.append(len(parts))
        for answer, child in parts:
            feedbacks.append(answer)
            queue.append(child)
        if progress is not None:
            progress(len(subtree.wins))
    return subtree


def _split(context: BuildContext, strategy, node: Node, subtree: Subtree) -> tuple[int, list[tuple[int, Node]]]:
    """Choose the node's guess and partition its candidates: ``(guess, [(feedback, child)])``,
    recording in ``subtree`` the secrets that the guess wins or determines."""
    guess = context.first if context.first is not None and not node.path else int(strategy.choose(context, node))
    answers = context.answers(guess, node.candidates)
    order = np.argsort(answers, kind="stable")
    answers, candidates = answers[order], node.candidates[order]
    cuts = (np.flatnonzero(answers[1:] != answers[:-1]) + 1).tolist()
    if not cuts and answers[0] != context.win_index:
        if not node.path and context.first is not None:
            raise ValueError(f"--first {context.options.first} tells nothing about the secret: every secret "
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
        if answer == context.win_index:
            subtree.wins.append((int(part[0]), depth))
        else:
            children.append((answer, Node(part, node.path + (answer,), played)))
    return guess, children


@dataclass(frozen=True)
class Layout:
    """How a build lays out its work: the matrix it keeps, and who expands the first guess's subtrees."""

    backend: str  # the kernels' (feedback.BACKENDS)
    matrix: str  # "whole" (if it fits the memory budget), "shared" (so, in shared memory), "none" (blocks, parts)
    workers: int  # processes expanding the first guess's subtrees (1: this one)
    parts: bool  # each of those subtrees over a matrix of its own part's secrets

    @classmethod
    def of(cls, game: Game, options: Options, workers: int) -> "Layout":
        """A strategy that looks its choices up in a solved game does them in one process, over
        its search's matrix (and the compiled kernels its search runs on, unless ``--engine`` says
        otherwise). A scoring one splits the work among processes in a game big enough to pay for
        them, and needs no whole matrix in a large game (one that reads every guess scores each
        first guess's subtree over its own part's matrix; a sampled one reads blocks, and one that
        reads only its guess's answers, the row of that guess)."""
        n, reads = game.secret_count(), options.strategy.reads
        if reads == "solution":
            return cls("numba" if options.engine == "fast" else backend_for(game, options.engine), "whole", 1, False)
        backend = backend_for(game, options.engine)
        split = workers if workers > 1 and n >= PARALLEL_MIN_SECRETS else 1
        if game.guess_count() * n >= PART_MIN_CELLS:
            return cls(backend, "none", split, reads == "every")
        return cls(backend, "shared" if split > 1 else "whole", split, False)

    def scorer(self, game: Game, options: Options) -> Scorer:
        return Scorer(game, options.max_memory, self.backend, shared=self.matrix == "shared",
                      whole=False if self.matrix == "none" else None)

    def splits(self, scorer: Scorer) -> bool:
        """Are the first guess's subtrees expanded as jobs? With no whole matrix, or over a shared one."""
        return self.matrix == "none" or (self.matrix == "shared" and scorer.shared is not None)


def build(game: Game, options: Options, progress: Progress | None = None, workers: int | None = None,
          search: SearchSettings | None = None) -> Built:
    """Expand ``options.strategy`` over every secret of ``game``.

    Big games expand the first guess's subtrees in ``workers`` processes (default: one per
    core); the tree is the same for any number of workers. ``search``: how an exhaustive
    strategy's search runs (its progress, checkpoint and cluster; only those strategies take one).
    """
    strategy = options.strategy
    strategy.accept(search)  # before any work
    layout = Layout.of(game, options, (os.cpu_count() or 1) if workers is None else workers)
    context = BuildContext(game, options, layout.scorer(game, options))
    n = game.secret_count()
    try:
        report = strategy.prepare(context, search)  # a whole-game search, for the exhaustive strategies
        root = Node(np.arange(n, dtype=np.int64), (), ())
        if layout.splits(context.scorer):
            parts = layout.parts and not context.scorer.on_the_fly
            tree = _expand_below_root(context, root, layout.workers, progress, by_parts=parts)
        else:
            tree = expand(context, root, None if progress is None else (lambda solved: progress(solved, n)))
    finally:
        context.close()
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
    built.stats = Statistics.from_depths(wins.tolist(), determined.tolist())
    if report is not None:
        built.proof, built.first_guesses = dict(report.proof), dict(report.first_guesses)
    return built


def _expand_below_root(context: BuildContext, root: Node, workers: int, progress: Progress | None,
                       by_parts: bool) -> Subtree:
    """Split the root here, expand its children's subtrees (in worker processes if ``workers`` > 1;
    ``by_parts``: each over a matrix of its own secrets only) and splice them level by level in
    feedback order: exactly the breadth-first tree that one process builds."""
    options = context.options
    pool = None
    if workers > 1:  # the workers start while the root is split here
        from .pool import WorkerPool  # (multiprocessing: imported only by builds that use it)

        setup, arguments = context.recipe(None if by_parts else context.scorer.shared)
        pool = WorkerPool(workers, setup, *arguments)
    try:
        tree = Subtree()
        guess, children = _split(context, options.strategy, root, tree)
        tree.levels.append(([guess], [len(children)], [answer for answer, _ in children]))
        largest_first = sorted(range(len(children)), key=lambda i: -len(children[i][1].candidates))
        subtrees: list[Subtree | None] = [None] * len(children)
        solved, n = len(tree.wins), len(root.candidates)
        jobs = [(children[i][1], by_parts) for i in largest_first]
        done = pool.map_unordered(_expand_job, jobs) if pool is not None else \
            ((k, _expand_job(context, *job)) for k, job in enumerate(jobs))
        for k, subtree in done:
            subtrees[largest_first[k]] = subtree
            solved += len(subtree.wins)
            if progress is not None:
                progress(solved, n)
    finally:
        if pool is not None:
            pool.close()
    for subtree in subtrees:
        for depth, (guesses, counts, feedbacks) in enumerate(subtree.levels, 1):
            level = tree.level(depth)
            level[0].extend(guesses)
            level[1].extend(counts)
            level[2].extend(feedbacks)
        tree.wins += subtree.wins
        tree.determined += subtree.determined
    return tree


def _expand_job(context: BuildContext, node: Node, by_parts: bool) -> Subtree:
    """The subtree below ``node``; ``by_parts``: over a matrix of the node's secrets, made here
    and dropped after (secrets numbered within the part, then numbered back)."""
    if not by_parts:
        return expand(context, node)
    part = node.candidates
    narrow = context.for_part(part)
    if narrow is context:  # no matrix of the part fits the budget: the secrets keep their numbers
        return expand(context, node)
    subtree = expand(narrow, Node(np.arange(len(part), dtype=np.int64), node.path, node.played))
    subtree.wins = [(int(part[secret]), depth) for secret, depth in subtree.wins]
    subtree.determined = [(int(part[secret]), depth) for secret, depth in subtree.determined]
    return subtree

"""The tree builder: expands a strategy over every secret, breadth first.

Nodes are numbered in the order they are expanded, children in feedback order, so a
node's children are consecutive and every child comes after its parent. Big games expand
the first guess's subtrees in worker processes (``pool.py``) and splice them level by level:
the tree is the same for any number of workers.
"""
from __future__ import annotations

import functools
import os
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Callable, Iterator

import numpy as np

from guesstree.player.games import Game
from guesstree.player.stats import Statistics

from .arrays import GameArrays
from .context import BuildContext, Node
from .estimate import Estimate, estimate
from .feedback import Scorer, backend_for, check_listing, peg_words
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


class Built:
    """A complete tree, ready to be written (see trees/FORMAT.md for the arrays): its nodes in
    memory (``Nodes``), or in the build's spool on disk (``Spooled``)."""

    def __init__(self, game: Game, options: Options, tree: "Nodes | Spooled | None" = None,
                 stats: Statistics | None = None):
        self.game, self.options = game, options
        self.tree = tree if tree is not None else Nodes([], [], [])
        self.stats = stats  # set once the tree is complete
        self.proof: dict = {}  # what an exhaustive strategy proved (joins the strategy spec)
        # how its search settled the first guesses, {"bound": n, "search": m}: effort, not in the artifact
        self.first_guesses: dict = {}

    @property
    def nodes(self) -> int:
        return self.tree.count

    # the whole tree's arrays, as lists (a spooled tree's read into memory: for small trees and tests)
    @property
    def node_guess(self) -> list[int]:  # guess index per node
        return self.tree.column(0)

    @property
    def edge_counts(self) -> list[int]:  # children per node
        return self.tree.column(1)

    @property
    def edge_feedback(self) -> list[int]:  # feedback index per edge; edge e leads to node e + 1
        return self.tree.column(2)


@dataclass
class Nodes:
    """A tree's arrays in memory, breadth first."""

    node_guess: list[int]
    edge_counts: list[int]
    edge_feedback: list[int]

    @property
    def count(self) -> int:
        return len(self.node_guess)

    def column(self, k: int) -> list[int]:
        return (self.node_guess, self.edge_counts, self.edge_feedback)[k]

    def levels(self) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """The arrays in pieces of consecutive nodes, each with its nodes' edges (here one piece)."""
        yield tuple(np.asarray(column, dtype=np.int64) for column in (self.node_guess, self.edge_counts, self.edge_feedback))


class Spooled:
    """A tree whose first guess's subtrees are records of a spool (``spool.py``): read level by
    level, in feedback order, when the tree is written."""

    def __init__(self, root: tuple[int, int, list[int]], spool, jobs: int):
        self.root, self.spool, self.jobs = root, spool, jobs
        self.count = 1 + sum(spool.nodes.values())

    def levels(self) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        guess, count, feedbacks = self.root
        yield np.array([guess]), np.array([count]), np.array(feedbacks, dtype=np.int64)
        for depth in range(max(self.spool.depths.values(), default=0)):  # a job's record is read per level it has
            for job in range(self.jobs):
                if depth < self.spool.depths[job]:
                    yield self.spool.record(job).levels[depth]

    def column(self, k: int) -> list[int]:
        return [int(v) for piece in self.levels() for v in piece[k]]


Progress = Callable[[int, int, int], None]  # (secrets solved so far, all secrets, nodes placed so far)


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


def expand(context: BuildContext, start: Node, progress: Callable[[int, int], None] | None = None,
           strategy=None) -> Subtree:
    """Expand ``strategy`` (default the options') below ``start``, breadth first; children in
    feedback order. ``progress(solved, nodes)``: the secrets won and the nodes placed so far."""
    strategy = strategy or context.options.strategy
    subtree = Subtree()
    queue = deque([start])
    top, placed = len(start.path), 0
    while queue:
        node = queue.popleft()
        placed += 1
        candidates = node.candidates
        depth = len(node.path) + 1
        guesses, counts, feedbacks = subtree.level(depth - 1 - top)
        if len(candidates) == 1:  # a leaf: play the secret
            guesses.append(int(context.secret_guess[candidates[0]]))
            counts.append(0)
            subtree.wins.append((int(candidates[0]), depth))
            if progress is not None:
                progress(len(subtree.wins), placed)
            continue
        guess, parts = _split(context, strategy, node, subtree)
        guesses.append(guess)
        counts.append(len(parts))
        for answer, child in parts:
            feedbacks.append(answer)
            queue.append(child)
        if progress is not None:
            progress(len(subtree.wins), placed)
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

    def peg_words(self, game: Game) -> str | None:
        """How a peg game with no matrix is scored: from its packed codes, "unary" or "nibbles"
        (``feedback.peg_words``), or "blocks" where they do not pack; None with a matrix, or for
        another game."""
        if self.matrix != "none" or getattr(game, "feedback_kind", None) != "pegs":
            return None
        return peg_words(game, self.backend) or "blocks"

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
    core), each subtree written to disk as it finishes (``spool.py``); the tree is the same for
    any number of workers. ``search``: how the build runs: an exhaustive strategy's search (its
    threads, progress, checkpoint and cluster), a heuristic's checkpoint of its finished
    subtrees (``--checkpoint FILE``, read back with ``resume``), its workers, and the cluster
    that expands those subtrees instead (``cluster.DaskMap``: the same tree).
    """
    strategy = options.strategy
    search = search or SearchSettings()
    exhaustive = strategy.reads == "solution"
    layout, _ = plan(game, options, search, workers)  # refused here if it cannot finish: before any work
    context = BuildContext(GameArrays.of(game, layout.scorer(game, options)), options)
    n = game.secret_count()
    wins, determined = np.zeros(n, dtype=np.int64), np.full(n, 0 if n == 1 else -1, dtype=np.int64)
    chosen = strategy
    try:
        chosen = strategy.prepare(context, search)  # a whole-game search, for the exhaustive strategies
        root = Node(np.arange(n, dtype=np.int64), (), ())
        if layout.splits(context.scorer) or (not exhaustive and (search.checkpoint or search.cluster) is not None):
            parts = layout.parts and not context.scorer.on_the_fly
            tree = _expand_below_root(context, root, layout.workers, progress, parts, search, (wins, determined))
        else:
            shown = None if progress is None else (lambda solved, nodes: progress(solved, n, nodes))
            subtree = expand(context, root, shown, chosen)
            tree = Nodes(*([value for level in subtree.levels for value in level[k]] for k in range(3)))
            _settle(wins, subtree.wins)
            _settle(determined, subtree.determined)
    finally:
        chosen.close()
        context.close()
    built = Built(game, options, tree, Statistics.from_depths(wins.tolist(), determined.tolist()))
    if chosen.report is not None:
        built.proof, built.first_guesses = dict(chosen.report.proof), dict(chosen.report.first_guesses)
    return built


def plan(game: Game, options: Options, search: SearchSettings | None = None,
         workers: int | None = None) -> tuple[Layout, Estimate | None]:
    """How ``build`` lays out the work (``workers`` processes, default ``search.workers`` for a
    heuristic, else one per core) and what it will take (``estimate.py``; None for an exhaustive
    strategy); a ValueError with the figures for a build that cannot finish (``Estimate.check``)."""
    if workers is None:
        given = search.workers if search is not None and options.strategy.reads != "solution" else None
        workers = given if given is not None else (os.cpu_count() or 1)
    check_listing(game, options.max_memory)  # the one limit that no option lifts, first
    layout = Layout.of(game, options, workers)
    figures = estimate(game, options, layout)
    if figures is not None:
        figures.check(f"{options.name} on {game!r}", options.max_time, options.force)
    return layout, figures


def _settle(depths: np.ndarray, pairs) -> None:
    """``depths[secret] = depth`` for each ``(secret, depth)`` of ``pairs`` (lists or two arrays)."""
    secrets, values = pairs if isinstance(pairs, tuple) else (np.asarray(pairs, dtype=np.int64).reshape(-1, 2).T)
    depths[secrets] = values


def _expand_below_root(context: BuildContext, root: Node, workers: int, progress: Progress | None,
                       by_parts: bool, search: SearchSettings, depths: tuple[np.ndarray, np.ndarray]) -> Spooled:
    """Split the root here, expand its children's subtrees (in worker processes if ``workers`` > 1;
    ``by_parts``: each over a matrix of its own secrets only), each written to the spool as it
    finishes (``search.checkpoint``, resumed if ``search.resume``; else a temporary file): read
    back level by level in feedback order, exactly the breadth-first tree that one process builds.
    ``depths``: the wins and determined arrays, filled here."""
    from .cluster import ClusterError  # (Dask is imported there only when a cluster is used)
    from .spool import Limits, Record, Spool, identity

    options = context.options
    pool = spool = None
    try:
        if search.cluster_address is not None:  # its workers make the context while the root is split here
            from .cluster import DaskMap  # (Dask: imported only by builds that use it)

            pool = DaskMap(search.cluster_address, context)
        elif workers > 1:  # the workers start while the root is split here
            from .pool import WorkerPool  # (multiprocessing: imported only by builds that use it)

            setup, arguments = context.recipe(None if by_parts else context.scorer.shared)
            pool = WorkerPool(workers, setup, *arguments)
        top = Subtree()
        guess, children = _split(context, options.strategy, root, top)
        parts = [(answer, child.candidates) for answer, child in children]
        limits = Limits([secrets for _, secrets in parts], context.game.guess_count(),
                        len(context.game.feedbacks()), context.win_index)
        spool = Spool(identity(context, guess, parts), limits, search.checkpoint, search.resume)
        wins, determined = depths
        _settle(wins, top.wins)
        _settle(determined, top.determined)
        for won, known in spool.resumed:
            _settle(wins, won)
            _settle(determined, known)
        solved, n = int((wins > 0).sum()), len(root.candidates)
        placed = 1 + sum(spool.nodes.values())  # the root, and the subtrees resumed
        if progress is not None:
            progress(solved, n, placed)
        largest_first = sorted((i for i in range(len(children)) if i not in spool.offsets),
                               key=lambda i: -len(children[i][1].candidates))
        nodes = [children[i][1] for i in largest_first]
        deeper = _splits_again(pool, nodes, n)
        running: dict[int, tuple[int, int]] = {}  # job: (secrets won, nodes placed) so far, as it reports

        def show(k: int | None = None, so_far: tuple[int, int] | None = None) -> None:
            if k is not None:
                running[k] = so_far
            progress(solved + sum(won for won, _ in running.values()), n,
                     placed + sum(made for _, made in running.values()))
        for k, subtree in _subtrees(context, pool, nodes, by_parts, deeper, show if progress else None):
            record = Record.of(largest_first[k], subtree)
            spool.add(record)
            _settle(wins, subtree.wins)
            _settle(determined, subtree.determined)
            solved, placed = solved + len(subtree.wins), placed + record.nodes
            running.pop(k, None)
            if progress is not None:
                show()
    except BaseException as error:
        if spool is not None:
            spool.close()
        kept = spool is not None and spool.kept
        if isinstance(error, KeyboardInterrupt) and kept:
            from .search.solver import Interrupted

            raise Interrupted(spool.path, "the build's work") from None
        if kept and isinstance(error, ClusterError):  # with where the work is saved
            error.checkpoint = spool.path
        raise
    finally:
        if pool is not None:
            pool.close()
    return Spooled((guess, len(children), [answer for answer, _ in children]), spool, len(children))


SPLIT_MIN_SECRETS = 5000  # on a cluster, a child of the root this big is split by a job, its parts each a job


def _subtrees(context: BuildContext, pool, nodes: list[Node], by_parts: bool, deeper: bool,
              partial: Callable[[int, tuple[int, int]], None] | None = None):
    """``(i, the subtree below nodes[i])`` as each is done, each in a job of ``pool`` (None: here);
    ``partial(i, (secrets won, nodes placed))`` now and then while one runs (not on a cluster).
    ``deeper``: a node of ``SPLIT_MIN_SECRETS`` or more is split by a job of its own, then each of
    its parts expanded by one, the pieces spliced here as ``expand`` would have built them (a
    cluster's many workers share the work of the first guess's biggest parts)."""
    def run(job, jobs):
        if pool is not None:
            return pool.map_unordered(job, jobs)
        return ((k, job(context, *arguments)) for k, arguments in enumerate(jobs))

    if not deeper or by_parts:
        if pool is None:
            for k, node in enumerate(nodes):
                report = partial and functools.partial(partial, k)
                yield k, _expand_job(context, node, by_parts, report, REPORT_SECONDS)
        else:
            from .pool import WorkerPool, report  # (a worker process's way to tell its progress)

            reporter = report if isinstance(pool, WorkerPool) else None
            jobs = [(node, by_parts, reporter, REPORT_SECONDS) for node in nodes]
            yield from pool.map_unordered(_expand_job, jobs, partial)
        return
    split = {}  # i: (the subtree's top node, the nodes below it)
    for i, done in run(_top_job, [(node, SPLIT_MIN_SECRETS) for node in nodes]):
        if isinstance(done, Subtree):
            yield i, done
        else:
            split[i] = done
    below = [(i, j) for i in split for j in range(len(split[i][1]))]
    pieces = {i: [None] * len(split[i][1]) for i in split}
    for k, subtree in run(_expand_job, [(split[i][1][j], False) for i, j in below]):
        i, j = below[k]
        pieces[i][j] = subtree
        if all(piece is not None for piece in pieces[i]):
            yield i, _spliced(split.pop(i)[0], pieces.pop(i))


def _splits_again(pool, nodes: list[Node], secrets: int) -> bool:
    """Are the big parts split again (``_subtrees``)? On a cluster whose workers would otherwise
    wait for the biggest part's job: it holds more than a worker's share of the secrets."""
    slots = getattr(pool, "slots", None)  # (a cluster's; worker processes here are few)
    return slots is not None and len(nodes) > 0 and len(nodes[0].candidates) * slots > secrets


def _top_job(context: BuildContext, node: Node, split_min: int):
    """The subtree below ``node``, or for a node of ``split_min`` secrets or more its top: the
    node's guess alone (a ``Subtree`` of one level) and the nodes below it."""
    if len(node.candidates) < split_min:
        return expand(context, node)
    top = Subtree()
    guess, children = _split(context, context.options.strategy, node, top)
    guesses, counts, feedbacks = top.level(0)
    guesses.append(guess)
    counts.append(len(children))
    feedbacks.extend(answer for answer, _ in children)
    return top, [child for _, child in children]


def _spliced(top: Subtree, pieces: list[Subtree]) -> Subtree:
    """``top`` (one node) with the subtrees below its children, in feedback order, level by level."""
    for depth in range(max((len(piece.levels) for piece in pieces), default=0)):
        level = top.level(depth + 1)
        for piece in pieces:
            if depth < len(piece.levels):
                for column, values in zip(level, piece.levels[depth]):
                    column.extend(values)
    for piece in pieces:
        top.wins.extend(piece.wins)
        top.determined.extend(piece.determined)
    return top


REPORT_SECONDS = 0.5  # a job tells its progress at most this often


def _expand_job(context: BuildContext, node: Node, by_parts: bool, report: Callable | None = None,
                every: float = REPORT_SECONDS) -> Subtree:
    """The subtree below ``node``; ``by_parts``: over a matrix of the node's secrets, made here
    and dropped after (secrets numbered within the part, then numbered back); ``report((secrets
    won, nodes placed))`` at most every ``every`` seconds while it runs."""
    progress = None
    if report is not None:
        last = [time.monotonic()]

        def progress(won: int, placed: int) -> None:
            if time.monotonic() - last[0] >= every:
                last[0] = time.monotonic()
                report((won, placed))
    if not by_parts:
        return expand(context, node, progress)
    part = node.candidates
    narrow = context.for_part(part)
    if narrow is context:  # no matrix of the part fits the budget: the secrets keep their numbers
        return expand(context, node, progress)
    subtree = expand(narrow, Node(np.arange(len(part), dtype=np.int64), node.path, node.played), progress)
    subtree.wins = [(int(part[secret]), depth) for secret, depth in subtree.wins]
    subtree.determined = [(int(part[secret]), depth) for secret, depth in subtree.determined]
    return subtree

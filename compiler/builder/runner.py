"""The tree builder: expands a strategy over every secret, breadth first (``expand.py``), here or,
in a big game, the first guess's subtrees as jobs (``subtrees``) on one of three runners with one
interface (``map_unordered``): this process (``Here``), worker processes (``workers.pool``) or a
Dask cluster (``workers.cluster``); each subtree is written to the spool as it finishes and read
back level by level, so the tree is the same bytes for any runner and any number of workers.
"""
from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np

from guesstree.player.games import Game
from guesstree.player.stats import Statistics

from ..engine.arrays import GameArrays
from ..options import Options
from ..search.problem import STOPS
from ..workers.settings import SearchSettings
from .context import BuildContext, Node
from .expand import REPORT_SECONDS, Subtree, Work, expand, expand_job, spliced, split, top_job
from .plan import Layout, plan
from .tree import Built, Nodes, Spooled

# (secrets solved so far, all secrets, nodes placed so far, work done, work done and guessed ahead: ``expand.Work``)
Progress = Callable[[int, int, int, int, int], None]


def build(game: Game, options: Options, progress: Progress | None = None, workers: int | None = None,
          search: SearchSettings | None = None, layout: Layout | None = None) -> Built:
    """Expand ``options.strategy`` over every secret of ``game``.

    Big games expand the first guess's subtrees in ``workers`` processes (default: one per
    core), each subtree written to disk as it finishes (``spool.py``); the tree is the same for
    any number of workers. ``search``: how the build runs: an exhaustive strategy's search (its
    threads, progress, checkpoint and cluster), a heuristic's checkpoint of its finished
    subtrees (``--checkpoint FILE``, read back with ``resume``), its workers, and the cluster
    that expands those subtrees instead (``cluster.DaskMap``: the same tree). ``layout``: the
    caller's ``plan`` of this build (which refused it if it cannot finish), not made again;
    without it, ``plan`` is asked here, before any work.
    """
    strategy = options.strategy
    search = search or SearchSettings()
    if layout is None:
        layout, _ = plan(game, options, search, workers)  # refused here if it cannot finish: before any work
    if strategy.is_exact and search.progress is not None:  # said at once: listing and scoring a big game takes seconds
        search.progress({"task": f"listing the codes, scoring {game.guess_count():,} guesses x "
                                 f"{game.secret_count():,} secrets"})
    context = BuildContext(GameArrays.of(game, layout.scorer(game, options)), options)
    n = game.secret_count()
    wins, determined = np.zeros(n, dtype=np.int64), np.full(n, 0 if n == 1 else -1, dtype=np.int64)
    as_jobs = layout.splits(context.scorer) or (not strategy.is_exact and (search.checkpoint or search.cluster) is not None)
    try:
        # a whole-game search, for the exhaustive strategies: its solver lives as long as this block
        with strategy.prepared(context, search) as chosen:
            root = Node(np.arange(n, dtype=np.int64), (), ())
            if as_jobs:
                parts = layout.parts and not context.scorer.on_the_fly
                tree = _expand_below_root(context, root, layout.workers, progress, parts, search, (wins, determined))
            else:
                shown = None if progress is None else \
                    (lambda solved, nodes, work, ahead: progress(solved, n, nodes, work, int(work + ahead)))
                subtree = expand(context, root, shown, chosen)
                tree = Nodes(*([value for level in subtree.levels for value in level[k]] for k in range(3)))
                _settle(wins, subtree.wins)
                _settle(determined, subtree.determined)
    finally:
        context.close()
    built = Built(game, options, tree, Statistics.from_depths(wins.tolist(), determined.tolist(), game.weights))
    if chosen.report is not None:
        built.proof, built.first_guesses = dict(chosen.report.proof), dict(chosen.report.first_guesses)
    return built


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
    from ..workers.cluster import ClusterError  # (Dask is imported there only when a cluster is used)
    from .spool import Limits, Record, Spool, identity

    options = context.options
    pool = spool = None
    try:
        pool = _runner(context, workers, by_parts, search)  # its workers start while the root is split here
        top = Subtree()
        guess, children = split(context, options.strategy, root, top)
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
        largest_first = sorted((i for i in range(len(children)) if i not in spool.offsets),
                               key=lambda i: -len(children[i][1].candidates))
        nodes = [children[i][1] for i in largest_first]
        measure = Work(context.n_feedbacks)
        waiting = {k: measure.ahead(len(node.candidates), 2) for k, node in enumerate(nodes)}  # each job's, guessed
        done = sum(measure.ahead(len(child.candidates), 2) for i, (_, child) in enumerate(children)
                   if i in spool.offsets)  # the subtrees resumed (as guessed; the root's split costs none)
        deeper = _splits_again(pool, nodes, n)
        running: dict[int, tuple] = {}  # job: (secrets won, nodes placed, work done, ahead) so far, as it reports

        def show(k: int | None = None, so_far: tuple | None = None) -> None:
            if k is not None:
                running[k] = so_far
            now = [sum(column) for column in zip((0, 0, 0, 0), *running.values())]
            work = done + now[2]
            progress(solved + now[0], n, placed + now[1], int(work),
                     int(work + now[3] + sum(ahead for job, ahead in waiting.items() if job not in running)))
        if progress is not None:
            show()
        for k, subtree in _subtrees(pool, nodes, by_parts, deeper, show if progress else None):
            record = Record.of(largest_first[k], subtree)
            spool.add(record)
            _settle(wins, subtree.wins)
            _settle(determined, subtree.determined)
            solved, placed, done = solved + len(subtree.wins), placed + record.nodes, done + subtree.work
            running.pop(k, None)
            waiting.pop(k)
            if progress is not None:
                show()
    except BaseException as error:
        if spool is not None:
            spool.close()
        kept = spool is not None and spool.kept
        if isinstance(error, STOPS) and kept:
            from ..search.solver import Interrupted

            raise Interrupted(spool.path, "the build's work") from None
        if kept and isinstance(error, ClusterError):  # with where the work is saved
            error.checkpoint = spool.path
        raise
    finally:
        if pool is not None:
            pool.close()
    return Spooled((guess, len(children), [answer for answer, _ in children]), spool, len(children))


SPLIT_MIN_SECRETS = 5000  # on a cluster, a child of the root this big is split by a job, its parts each a job


def _subtrees(pool, nodes: list[Node], by_parts: bool, deeper: bool,
              partial: Callable[[int, tuple[int, int]], None] | None = None):
    """``(i, the subtree below nodes[i])`` as each is done, each in a job of ``pool`` (a runner:
    ``Here``, ``WorkerPool`` or ``DaskMap``); ``partial(i, (secrets won, nodes placed))`` now and
    then while one runs (not on a cluster). ``deeper``: a node of ``SPLIT_MIN_SECRETS`` or more is
    split by a job of its own, then each of its parts expanded by one, the pieces spliced here as
    ``expand`` would have built them (a cluster's many workers share the work of the first guess's
    biggest parts)."""
    if not deeper or by_parts:
        jobs = [(node, by_parts, pool.reporter, REPORT_SECONDS) for node in nodes]
        yield from pool.map_unordered(expand_job, jobs, partial)
        return
    split = {}  # i: (the subtree's top node, the nodes below it)
    for i, done in pool.map_unordered(top_job, [(node, SPLIT_MIN_SECRETS) for node in nodes]):
        if isinstance(done, Subtree):
            yield i, done
        else:
            split[i] = done
    below = [(i, j) for i in split for j in range(len(split[i][1]))]
    pieces = {i: [None] * len(split[i][1]) for i in split}
    for k, subtree in pool.map_unordered(expand_job, [(split[i][1][j], False) for i, j in below]):
        i, j = below[k]
        pieces[i][j] = subtree
        if all(piece is not None for piece in pieces[i]):
            yield i, spliced(split.pop(i)[0], pieces.pop(i))


class Here:
    """The runner of a build's jobs in this process, one after another, with the interface of
    ``WorkerPool`` and ``DaskMap``: ``map_unordered(job, jobs, progress)`` calls ``job(context,
    *arguments)``; a job tells its progress through ``reporter``."""

    slots = None  # (a cluster's workers; here there is no one to share the work with)

    def __init__(self, context: BuildContext):
        self.context, self._progress = context, None

    def reporter(self, value) -> None:
        if self._progress is not None:
            self._progress(value)

    def map_unordered(self, job: Callable, jobs: list, progress: Callable | None = None):
        for k, arguments in enumerate(jobs):
            self._progress = progress and functools.partial(progress, k)
            yield k, job(self.context, *arguments)
        self._progress = None

    def close(self) -> None:
        pass


def _runner(context: BuildContext, workers: int, by_parts: bool, search: SearchSettings):
    """Where a build's jobs run: on the cluster ``search`` names, in ``workers`` processes over the
    shared matrix (none where ``by_parts``), or here. (Dask and multiprocessing are imported only by
    the builds that use them.)"""
    if search.cluster_address is not None:
        from ..workers.cluster import DaskMap

        return DaskMap(search.cluster_address, context)
    if workers > 1:
        from ..workers.pool import WorkerPool

        setup, arguments = context.recipe(None if by_parts else context.scorer.shared)
        return WorkerPool(workers, setup, *arguments)
    return Here(context)


def _splits_again(pool, nodes: list[Node], secrets: int) -> bool:
    """Are the big parts split again (``_subtrees``)? On a cluster whose workers would otherwise
    wait for the biggest part's job: it holds more than a worker's share of the secrets."""
    slots = getattr(pool, "slots", None)  # (a cluster's; worker processes here are few)
    return slots is not None and len(nodes) > 0 and len(nodes[0].candidates) * slots > secrets

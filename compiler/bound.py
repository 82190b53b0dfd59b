"""The exhaustive searches as library calls: the optimal worst case of a game (``bound``, what
``guesstree bound`` prints), and a build context whose solver is set up for a long search
(progress, checkpoints, jobs on threads or a cluster: ``prepared_context``). The search itself is
the subpackage ``search/``.

    from guesstree.compiler.bound import bound
    bound(make_game("bulls-cows")).worst   # 7
"""
from __future__ import annotations

from typing import Callable

from .context import BuildContext
from .feedback import Scorer
from .options import DEFAULT_MAX_MEMORY, Options
from .search.solver import Report, Status, solver_for


def prepared_context(game, options, workers: int | None = None, checkpoint=None, resume: bool = False,
                     progress: Callable[[Status], None] | None = None, cluster: str | None = None):
    """A build context whose solver (``search.solver.solver_for(context)``) reports progress and
    keeps checkpoints, and runs its jobs on this machine's threads or on a Dask ``cluster`` (an
    address, or local:N), for calling the search directly. (To build a tree with such a search,
    ``build(game, options, search=search.settings.SearchSettings(...))``.)"""
    context = BuildContext(game, options, Scorer(game, options.max_memory))
    try:
        solver_for(context, workers=workers, checkpoint=checkpoint, resume=resume, progress=progress, cluster=cluster)
    except BaseException:
        context.close()
        raise
    return context


def bound(game, candidates: str = "all", max_memory: int | None = None, workers: int | None = None,
          checkpoint=None, resume: bool = False, progress: Callable[[Status], None] | None = None,
          cluster: str | None = None) -> Report:
    """The optimal worst case of ``game``: the fewest guesses within which some strategy wins
    every secret, with its proof (a tree that achieves it, and the refutation of one fewer)."""
    options = Options(strategy="optimal-worst", candidates=candidates, max_memory=max_memory or DEFAULT_MAX_MEMORY)
    context = prepared_context(game, options, workers, checkpoint, resume, progress, cluster)
    try:
        return solver_for(context).minimum_worst()
    finally:
        context.close()

"""The exhaustive searches as library calls: the optimal worst case of a game (``bound``, what
``guesstree bound`` prints), and a build context whose solver is set up for a long search
(progress, checkpoints, jobs on threads or a cluster: ``prepared_context``). The search itself is
the subpackage ``search/``.

    from guesstree.compiler.bound import bound
    bound(make_game("bulls-cows")).worst   # 7
"""
from __future__ import annotations

from dataclasses import dataclass

from .context import BuildContext
from .feedback import Scorer
from .options import DEFAULT_MAX_MEMORY, Options
from .search.settings import SearchSettings
from .search.solver import solver_for


def prepared_context(game, options, search: SearchSettings | None = None):
    """A build context whose solver (``search.solver.solver_for(context)``) runs as ``search``
    says (progress, checkpoints, jobs on threads or on a Dask cluster), for calling the search
    directly. (To build a tree with such a search, ``build(game, options, search=...)``.)"""
    context = BuildContext(game, options, Scorer(game, options.max_memory))
    try:
        solver_for(context, search)
    except BaseException:
        context.close()
        raise
    return context


@dataclass(frozen=True)
class Bound:
    """What ``bound`` proved: the optimal worst case (``worst``) and its proof both ways (``proof``:
    ``search.proof.WorstCase.to_dict()``), with the search's effort."""

    worst: int
    proof: dict
    nodes: int = 0
    seconds: float = 0.0

    def to_dict(self) -> dict:
        return {"worst": self.worst, "nodes": self.nodes, "seconds": round(self.seconds, 3), "proof": self.proof}

    def text(self, game) -> str:
        """What ``bound`` prints: the optimal worst case, a tree that achieves it, why one fewer cannot be."""
        upper, lower = self.proof["upper"], self.proof["lower"]
        return (f"{game!r}: the optimal worst case is {self.worst} guesses\n"
                f"  achieved: a tree opening with {upper['first_guess']} wins every secret within {upper['depth']} "
                f"(total {upper['tree_total']}, {upper['tree_nodes']} nodes)\n"
                f"  no tree within {lower['impossible']}: {lower['by']}\n"
                f"  ({self.nodes} nodes searched, {self.seconds:.2f} s)")


def bound(game, candidates: str = "all", max_memory: int | None = None, search: SearchSettings | None = None) -> Bound:
    """The optimal worst case of ``game``: the fewest guesses within which some strategy wins
    every secret, with its proof (a tree that achieves it, and the refutation of one fewer).
    ``search``: how the search runs (threads, checkpoint, progress, cluster)."""
    options = Options(strategy="optimal-worst", candidates=candidates, max_memory=max_memory or DEFAULT_MAX_MEMORY)
    context = prepared_context(game, options, search)
    try:
        report = solver_for(context).minimum_worst()
    finally:
        context.close()
    return Bound(report.worst, report.proof, report.nodes, report.seconds)

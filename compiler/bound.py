"""The exhaustive search as a library call: the optimal worst case of a game (``bound``, what
``guesstree bound`` prints), and a solver set up for a long search of a game (``solver_of``:
progress, checkpoints, jobs on threads or a cluster). The search itself is the subpackage
``search/``.

    from guesstree.compiler.bound import bound
    bound(make_game("bulls-cows")).worst   # 7
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

from .arrays import GameArrays
from .options import DEFAULT_MAX_MEMORY, check_candidates
from .search.settings import SearchSettings
from .search.solver import Solver
from .search.space import SearchedGame
from .strategies import best_guesses


def searched_game(game, candidates: str = "all", max_memory: int | None = None,
                  first: str | None = None) -> SearchedGame:
    """``game`` with arrays of its own as a search called directly sees it (``--candidates``,
    ``--max-memory``, ``--first``)."""
    check_candidates(candidates)
    max_memory = max_memory or DEFAULT_MAX_MEMORY
    arrays = GameArrays.made(game, max_memory)
    return SearchedGame(arrays, max_memory, candidates == "consistent",
                        None if first is None else arrays.opening(first), rank=functools.partial(best_guesses, arrays))


def solver_of(game, candidates: str = "all", max_memory: int | None = None,
              search: SearchSettings | None = None) -> Solver:
    """A solver of ``game`` (``--candidates``, ``--max-memory``) that runs as ``search`` says
    (progress, checkpoints, jobs on threads or on a Dask cluster), for calling the search
    directly. (To build a tree with such a search, ``build(game, options, search=...)``.)"""
    return Solver(searched_game(game, candidates, max_memory), search)


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
    solver = solver_of(game, candidates, max_memory, search)
    try:
        report = solver.minimum_worst()
    finally:
        solver.close()
    return Bound(report.worst, report.proof, report.nodes, report.seconds)

"""The exhaustive search as library calls: the optimal worst case of a game (``bound``, what
``guesstree bound`` prints), the exact ranking of its first guesses (``rank_openers``, what
``guesstree openers`` prints) and one first guess's exact total and rank (``rank_of``); and a
solver set up for a long search of a game (``solving``: progress, checkpoints, jobs on threads or
a cluster, closed when done). The search itself is the subpackage ``search/``.

    from guesstree.compiler.exact import bound, rank_openers
    bound(make_game("bulls-cows")).worst   # 7
    ranking = rank_openers(make_game("mastermind", colours=3, holes=3), top=2)
    [(o.code, o.total) for o in ranking.best]   # [('AAB', 73), ('ABC', 80)]
"""
from __future__ import annotations

import functools
from contextlib import contextmanager
from dataclasses import dataclass
from collections.abc import Iterator

from .catalogue import SETTINGS
from .engine.arrays import GameArrays
from .options import DEFAULT_MAX_MEMORY, check_candidates
from .search.ranking import check_top, ranked, ranked_first
from .search.standings import FirstRank, Ranking
from .search.solver import Solver
from .search.space import SearchedGame
from .search.weighted_search import refused
from .strategies import best_guesses
from .workers.settings import SearchSettings


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
    directly; its caller closes it (``solving`` does). (To build a tree with such a search,
    ``build(game, options, search=...)``.)"""
    return Solver(searched_game(game, candidates, max_memory), search)


@contextmanager
def solving(game, candidates: str = "all", max_memory: int | None = None,
            search: SearchSettings | None = None) -> Iterator[Solver]:
    """``solver_of``'s solver for the length of a ``with`` block, closed (its threads, workers and
    table released) when the block ends, however it ends."""
    solver = solver_of(game, candidates, max_memory, search)
    try:
        yield solver
    finally:
        solver.close()


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
        return (f"{game.title()}: the optimal worst case is {self.worst} guesses\n"
                f"  achieved: a tree opening with {upper['first_guess']} wins every secret within {upper['depth']} "
                f"(total {upper['tree_total']}, {upper['tree_nodes']} nodes)\n"
                f"  no tree within {lower['impossible']}: {lower['by']}\n"
                f"  ({self.nodes} nodes searched, {self.seconds:.2f} s)")


def bound(game, candidates: str = "all", max_memory: int | None = None, search: SearchSettings | None = None) -> Bound:
    """The optimal worst case of ``game``: the fewest guesses within which some strategy wins
    every secret, with its proof (a tree that achieves it, and the refutation of one fewer).
    ``search``: how the search runs (threads, checkpoint, progress, cluster)."""
    with solving(game, candidates, max_memory, search) as solver:
        report = solver.minimum_worst()
    return Bound(report.worst, report.proof, report.nodes, report.seconds)


def _unweighted(game) -> None:
    """The openers' ranking is of unweighted totals: a weighted game's is refused, not ranked wrongly."""
    if game.weights is not None:
        raise refused("ranking first guesses (openers)")


def rank_openers(game, top: int = 10, max_depth: int | None = None, candidates: str = "all",
                 max_memory: int | None = None, search: SearchSettings | None = None) -> Ranking:
    """The ``top`` first guesses of ``game`` with the least totals of an optimal tree (within
    ``max_depth`` guesses, if given), each exact with its average and worst case, ties in the
    canonical guess order; every other first guess proven to rank below them. One first guess
    per symmetry class in a game with symmetries. ``search``: how the search runs (threads,
    checkpoint, progress, cluster)."""
    check_top(top)
    SETTINGS["max_depth"].check("max_depth", max_depth)
    _unweighted(game)
    with solving(game, candidates, max_memory, search) as solver:
        return ranked(solver, top, max_depth)


def rank_of(game, first: str, max_depth: int | None = None, candidates: str = "all", max_memory: int | None = None,
            search: SearchSettings | None = None) -> FirstRank:
    """The exact total of an optimal tree of ``game`` opening with ``first`` (as the game writes
    it), its average and worst case, and its exact rank among the first guesses (by symmetry
    class): each other first guess proven better (with its total) or worse."""
    try:
        code = game.parse_code(first)
    except ValueError as error:
        raise ValueError(f"--first {first}: {error}") from None
    if not game.is_guess(code):
        raise ValueError(f"--first {first}: {game.format_code(code)} is not an allowed guess")
    SETTINGS["max_depth"].check("max_depth", max_depth)
    _unweighted(game)
    with solving(game, candidates, max_memory, search) as solver:
        return ranked_first(solver, game.guesses.index(code), max_depth)

"""Which first guess is best, as library calls: the exact ranking of a game's first guesses
(``rank_openers``, what ``guesstree openers`` prints) and one first guess's exact total and
rank (``rank_of``). The search itself is ``search/openers.py``.

    from guesstree.compiler.openers import rank_openers
    ranking = rank_openers(make_game("mastermind", colours=3, holes=3), top=2)
    [(o.code, o.total) for o in ranking.best]   # [('AAB', 73), ('ABC', 80)]
"""
from __future__ import annotations

from .bound import solver_of
from .catalogue import SETTINGS
from .search.openers import FirstRank, Ranking, ranked, ranked_first
from .search.settings import SearchSettings


def rank_openers(game, top: int = 10, max_depth: int | None = None, candidates: str = "all",
                 max_memory: int | None = None, search: SearchSettings | None = None) -> Ranking:
    """The ``top`` first guesses of ``game`` with the least totals of an optimal tree (within
    ``max_depth`` guesses, if given), each exact with its average and worst case, ties in the
    canonical guess order; every other first guess proven to rank below them. One first guess
    per symmetry class in a game with symmetries. ``search``: how the search runs (threads,
    checkpoint, progress, cluster)."""
    if isinstance(top, bool) or not isinstance(top, int) or top < 1:
        raise ValueError(f"--top must be a whole number of at least 1, not {top!r}")
    SETTINGS["max_depth"].check("max_depth", max_depth)
    solver = solver_of(game, candidates, max_memory, search)
    try:
        return ranked(solver, top, max_depth)
    finally:
        solver.close()


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
    index = game.guesses.index(code)
    SETTINGS["max_depth"].check("max_depth", max_depth)
    solver = solver_of(game, candidates, max_memory, search)
    try:
        return ranked_first(solver, index, max_depth)
    finally:
        solver.close()

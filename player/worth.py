"""What a position of a game and a guess there are worth, as far as the player knows it: the totals
of ``player.review`` (``T*``, ``T(g)``) as intervals (``Span``), from the trees that reach the
position (the reviewed one, the opening book's), counting, and one or two secrets, by rules 1 to 4
of ``docs/tutorials/review.md`` (``TreeFacts``). Standard library only."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from .book import openings, unchanged
from .games import Code, Feedback, Game

if TYPE_CHECKING:
    from .tree import Tree

NEVER = 1 << 62  # the total of a position no strategy wins within the depth limit
Steps = list[tuple[Code, Feedback]]


class Span(NamedTuple):
    """What a total is known to be: at least ``low``, at most ``high`` (None: no upper bound known);
    exact when they meet. ``NEVER`` for a position that cannot be won within the depth limit."""

    low: int
    high: int | None

    @property
    def exact(self) -> bool:
        return self.low == self.high

    def meet(self, other: Span) -> Span:
        """What both say."""
        highs = [high for high in (self.high, other.high) if high is not None]
        return Span(max(self.low, other.low), min(highs) if highs else None)

    def at_most(self, high: int | None) -> Span:
        return self if high is None else self.meet(Span(0, high))


class Best(NamedTuple):
    """What a position is worth: ``T*``, the guesses that reach it (all of them where ``complete``),
    and the worst case of optimal play from there."""

    total: Span
    guesses: tuple[Code, ...] = ()
    complete: bool = False
    worst: int | None = None


class Worth(NamedTuple):
    """What a guess is worth at a position: ``T(g)`` and the worst case of optimal play after it."""

    total: Span
    worst: int | None = None


def least_total(count: int, depth: int | None, branching: int) -> int:
    """The counting bound: the least total any strategy can have over ``count`` secrets within
    ``depth`` guesses (None: any), a perfect tree filling its levels of 1, b, b², ... nodes;
    ``NEVER`` where even that tree cannot hold them."""
    total, level, size, placed = 0, 1, 1, 0
    while placed < count:
        if depth is not None and level > depth:
            return NEVER
        take = min(size, count - placed)
        total, placed, level, size = total + take * level, placed + take, level + 1, size * branching
    return total


def parts_of(game: Game, guess: Code, candidates: Sequence[Code]) -> dict[Feedback, list[Code]]:
    """The candidates by the answer ``guess`` gets from each, in their order."""
    parts: dict[Feedback, list[Code]] = {}
    score = game.score
    for secret in candidates:
        parts.setdefault(score(guess, secret), []).append(secret)
    return parts


Map = Callable[[Code], Code]



class TreeFacts:
    """What a tree and the opening book say of a game's positions (rules 1 to 4 of
    ``docs/tutorials/review.md``), and counting where they say nothing. ``tree``: None for counting
    alone; ``max_depth``: the review's depth limit (None: none)."""

    def __init__(self, game: Game, tree=None, max_depth: int | None = None):
        self.game, self.tree, self.max_depth = game, tree, max_depth
        self.book = None if tree is None else tree.book
        self.branching = max(1, len(game.feedbacks()) - 1)
        self._walked: dict[tuple[int, int], tuple[int, int]] = {}

    def _left(self, steps: Steps) -> int | None:
        return None if self.max_depth is None else self.max_depth - len(steps)

    def _trees(self, steps: Steps, guess: Code | None = None) -> list[tuple[Tree, Map, Map]]:
        """The trees that may reach the position: the reviewed one, and the book's for the first
        guess played (or, at the start, for ``guess``), each with the maps to it and back."""
        tree = self.tree
        if tree is None:
            return []
        first = steps[0][0] if steps else guess
        found: list[tuple[Tree, Map, Map]] = [(tree, unchanged, unchanged)]
        if first is not None:
            found += openings(tree, first, self.book)  # (the tree itself too, where the first guess is its own's image)
        elif self.book is not None:
            found += [(opening, unchanged, unchanged) for opening in self.book.trees_for(tree)]
        return found

    def _reached(self, steps: Steps, guess: Code | None = None):
        """``(tree, node, to, back)`` for each tree whose path the history follows to this position."""
        for tree, to, back in self._trees(steps, guess):
            node, left, won = tree._follow([(to(g), f) for g, f in steps])
            if left is None and not won:
                yield tree, node, to, back

    def _subtree(self, tree, node: int, candidates: list[Code]) -> tuple[int, int]:
        """The total and the worst case of ``tree``'s subtree at ``node``, whose secrets are ``candidates``."""
        key = (id(tree), node)
        if key not in self._walked:
            stats = tree.stats
            if node == 0 and stats is not None and stats.secrets == len(candidates):
                self._walked[key] = (int(stats.total), int(stats.worst))
            else:
                self._walked[key] = self._walk(tree, node, candidates)
        return self._walked[key]

    def _walk(self, tree, node: int, candidates: list[Code]) -> tuple[int, int]:
        game = tree.game
        total, worst = 0, 0
        stack = [(node, candidates, 1)]
        while stack:
            node, secrets, depth = stack.pop()
            total += len(secrets)  # each secret here takes this guess ...
            worst = max(worst, depth)
            for feedback, part in parts_of(game, tree.guess_of(node), secrets).items():
                if feedback == game.win:
                    continue
                child = tree.child(node, feedback)
                if child is None:
                    raise ValueError(f"{tree.name}: no answer to {game.format_code(tree.guess_of(node))} "
                                     f"{game.format_feedback(feedback)}, which a secret gives")
                stack.append((child, part, depth + 1))  # ... and those left, the guesses below it
        return total, worst

    def counts(self, tree, played: int, worst: int) -> bool:
        """Rule 1: is ``tree`` an optimum of the review's kind at a node after ``played`` guesses
        whose subtree takes ``worst`` guesses at most?"""
        strategy = tree.strategy
        if strategy.get("name") != "optimal-expected" or strategy.get("optimal") is not True \
                or strategy.get("candidates", "all") != "all":
            return False
        built = strategy.get("max_depth")
        return built == self.max_depth or (built is None and (self.max_depth is None or played + worst <= self.max_depth))

    def _fits(self, played: int, worst: int) -> bool:
        return self.max_depth is None or played + worst <= self.max_depth

    def best(self, steps: Steps, candidates: list[Code]) -> Best:
        n = len(candidates)
        low = least_total(n, self._left(steps), self.branching)
        known = Span(low, low if n <= 2 or low >= NEVER else None)  # one or two secrets: guess them in turn
        if low >= NEVER:
            return Best(known, (), True, None)  # no strategy wins them within the limit: no guess is best
        if n <= 2:
            return Best(known, tuple(candidates), True, n)
        for tree, node, to, back in self._reached(steps):
            total, deepest = self._subtree(tree, node, [to(code) for code in candidates])
            fixed_first = node == 0 and not steps and tree.strategy.get("first") is not None
            if self.counts(tree, len(steps), deepest) and not fixed_first:
                return Best(Span(total, total), (back(tree.guess_of(node)),), False, deepest)
            if self._fits(len(steps), deepest):
                known = known.at_most(total)  # any strategy's total bounds the best
        return Best(known)

    def worth(self, steps: Steps, candidates: list[Code], guess: Code) -> Worth:
        n, left = len(candidates), self._left(steps)
        after = None if left is None else left - 1
        low, sizes = n, []
        for feedback, part in parts_of(self.game, guess, candidates).items():
            if feedback != self.game.win:
                low = min(low + least_total(len(part), after, self.branching), NEVER)
                sizes.append(len(part))
        if low >= NEVER:
            return Worth(Span(NEVER, NEVER))
        if max(sizes, default=0) <= 2:  # every part guessed in turn: the counting bound is the total
            return Worth(Span(low, low), 1 + max(sizes, default=0))
        known = Span(low, None)
        for tree, node, to, _ in self._reached(steps, guess):
            if tree.guess_of(node) != to(guess):
                continue
            total, deepest = self._subtree(tree, node, [to(code) for code in candidates])
            if self.counts(tree, len(steps), deepest):
                return Worth(Span(total, total), deepest)
            if self._fits(len(steps), deepest):
                known = known.at_most(total)
        return Worth(known)

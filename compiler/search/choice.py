"""Branch and bound's bookkeeping at one node of the top levels: the guesses in the order they are
tried (``Ordered``) and the best one so far with a lower bound on the rest (``Choice``), the same
rules as the compiled ``recursion.min_total`` keeps in its locals.
"""
from __future__ import annotations

import numpy as np

from .table import INF


class Choice:
    """Branch and bound's choice at a node: the best guess so far under the canonical tie-break
    (least total, then a possible secret, then the lowest guess), and a lower bound on the rest."""

    def __init__(self, cutoff: int, floor: int):
        self.cutoff, self.floor = cutoff, floor
        self.value, self.key = INF, None  # key: (not a candidate, guess)

    def limit(self, key: tuple) -> int:
        """What a guess's total must stay below to be the choice."""
        if self.key is None:
            return self.cutoff
        return min(self.cutoff, self.value + 1 if key < self.key else self.value)

    def hopeless(self, low: int) -> bool:
        """Can no guess whose bound is ``low`` (or more) be the choice?"""
        return self.key is not None and low >= min(self.cutoff, self.value + 1)

    def tries(self, order: Ordered):
        """The guesses of ``order`` ((bound, not a candidate, guess), best first) still worth
        trying, with their places in it, as this choice tightens (read when the next is asked for)."""
        for index, (low, blind, guess) in enumerate(order):
            if self.worth_trying(low, (blind, guess)):
                yield index, (blind, guess)
            elif self.hopeless(low):
                return

    def worth_trying(self, low: int, key: tuple) -> bool:
        if low >= self.limit(key):
            self.refute(low)
            return False
        return True

    def consider(self, total: int, key: tuple) -> None:
        """A guess's total: exact, or (if at least its limit) a lower bound."""
        if total < self.limit(key):
            self.value, self.key = total, key
        else:
            self.refute(total)

    def refute(self, low: int) -> None:
        self.floor = min(self.floor, low)


class Ordered:
    """The rows of the columns ``keys`` as tuples, in ascending order (as ``sorted`` would give
    them), made as they are read: a node's search often reads only its first few."""

    def __init__(self, *keys: np.ndarray):
        order = np.lexsort(keys[::-1])
        self._columns = [key[order] for key in keys]

    def __len__(self) -> int:
        return len(self._columns[0])

    def __getitem__(self, index: int) -> tuple:
        return tuple(column[index].item() for column in self._columns)

    def __iter__(self):
        for start in range(0, len(self), 64):
            yield from zip(*(column[start:start + 64].tolist() for column in self._columns))

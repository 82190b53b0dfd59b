"""Symmetry: guesses that the history cannot tell apart partition the candidates alike.

For games whose secrets and guesses are closed under renaming colours and reordering
positions (mastermind in all its variants, digits, bulls-and-cows), any permutation of
the colours not played so far, combined with any permutation of positions on which
every played guess agrees, fixes the history and so the candidate set. Scoring only the
lowest guess of each class changes no choice: classmates score exactly the same, are all
candidates or all not, and the tie-break prefers the lowest index.
"""
from __future__ import annotations

import itertools

import numpy as np

from player.games import BullsCows, Game, Mastermind

MAX_PERMUTATIONS = 5040


class Symmetry:
    def __init__(self, game: Game, guess_codes: np.ndarray, backend: str = "numba"):
        self.codes, self.backend = guess_codes, backend
        self.colours = game.symbols
        self._cache: dict[tuple, np.ndarray | None] = {}

    @staticmethod
    def applies(game: Game) -> bool:
        return isinstance(game, (Mastermind, BullsCows))

    def canonical(self, played: tuple[int, ...]) -> np.ndarray | None:
        """Mask of the guesses that are lowest in their class, or None if nothing is symmetric."""
        if played not in self._cache:
            self._cache[played] = self._compute(played)
        return self._cache[played]

    def _compute(self, played: tuple[int, ...]) -> np.ndarray | None:
        from .feedback import kernels

        holes = self.codes.shape[1]
        history = self.codes[list(played)] if played else np.zeros((0, holes), dtype=np.uint8)
        used = np.zeros(self.colours, dtype=np.bool_)
        used[np.unique(history)] = True
        classes: dict[tuple, list[int]] = {}
        for position in range(holes):
            classes.setdefault(tuple(history[:, position]), []).append(position)
        groups = [group for group in classes.values() if len(group) > 1]
        if used.all() and not groups:
            return None
        perms = []
        for choice in itertools.product(*(itertools.permutations(g) for g in groups)):
            perm = list(range(holes))
            for group, image in zip(groups, choice):
                for source, target in zip(group, image):
                    perm[source] = target
            perms.append(perm)
            if len(perms) > MAX_PERMUTATIONS:
                break
        identity = np.tile(np.arange(self.colours, dtype=np.int64), (len(perms), 1))  # played colours keep their names
        return kernels(self.backend).canonical_under(self.codes, np.array(perms, dtype=np.int64), identity, used)

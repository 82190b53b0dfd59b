"""The hint rule of hard mode (``Game.hint_rule``), vectorised: which guesses a history allows.

Its compiled twin is ``search/hint.py`` (``hint_next``, ``hint_allowed``, ``hint_salt``), which the
exhaustive searches carry through their recursion; the tests hold both to ``Game.allows``.
"""
from __future__ import annotations

import numpy as np

from guesstree.player.games import Game


class HintRule:
    """The hint rule of hard mode (``Game.hint_rule``) in arrays. A node's state is one int
    array: per position the exact symbol (-1: none), then per symbol the least count any one
    guess revealed. The compiled search carries the same state (``search.hint.hint_next``,
    ``search.hint.hint_allowed``); the tests hold both to the game's own ``allows``."""

    def __init__(self, game: Game, guess_codes: np.ndarray):
        self.codes = np.ascontiguousarray(guess_codes, dtype=np.int64)
        self.holes = self.codes.shape[1]
        self.counts = np.stack([(self.codes == symbol).sum(axis=1) for symbol in range(game.symbols)], axis=1)
        self.marks = np.array(game.feedbacks(), dtype=np.int64).reshape(-1, self.holes)  # per position: 2, 1 or 0
        self.start = np.concatenate([np.full(self.holes, -1), np.zeros(game.symbols)]).astype(np.int64)

    def state(self, played, feedbacks) -> np.ndarray:
        """The state after each guess of ``played`` got the feedback (index) beside it."""
        state = self.start.copy()
        exact, least = state[:self.holes], state[self.holes:]
        for guess, feedback in zip(played, feedbacks):
            marks, symbols = self.marks[feedback], self.codes[guess]
            exact[marks == 2] = symbols[marks == 2]
            np.maximum(least, np.bincount(symbols[marks > 0], minlength=len(least)), out=least)
        return state

    def allowed(self, state: np.ndarray) -> np.ndarray:
        """Which guesses the state allows."""
        exact, least = state[:self.holes], state[self.holes:]
        fixed, needed = exact >= 0, least > 0
        return (self.codes[:, fixed] == exact[fixed]).all(axis=1) & (self.counts[:, needed] >= least[needed]).all(axis=1)

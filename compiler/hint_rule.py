"""The hint rule of hard mode (``Game.hint_rule``): which guesses a history allows.

The rule is stated once, here (``next_state``, ``allowed_by``), in code that runs both as Python
over numpy arrays (``HintRule``, at a node of any build) and compiled (``search/hint.py``, which
the exhaustive searches carry through their recursion); the tests hold it to ``Game.allows``.
"""
from __future__ import annotations

import numpy as np

from guesstree.player.games import Game


def next_state(state: np.ndarray, codes: np.ndarray, marks: np.ndarray, guess: int, feedback: int) -> np.ndarray:
    """The state after ``guess`` got ``feedback``: the positions its exact marks fix, and per
    symbol the most copies of it that this one guess revealed, if more than before."""
    child = state.copy()
    holes = codes.shape[1]
    for i in range(holes):
        if marks[feedback, i] == 2:
            child[i] = codes[guess, i]
        if marks[feedback, i] > 0:
            symbol = codes[guess, i]
            revealed = 0
            for j in range(holes):
                if codes[guess, j] == symbol and marks[feedback, j] > 0:
                    revealed += 1
            if revealed > child[holes + symbol]:
                child[holes + symbol] = revealed
    return child


def allowed_by(state: np.ndarray, codes: np.ndarray, symbol_counts: np.ndarray) -> np.ndarray:
    """Which guesses the state allows: each fixed position's symbol, each revealed symbol as often."""
    holes = codes.shape[1]
    allowed = np.ones(codes.shape[0], np.bool_)
    for i in range(holes):
        if state[i] >= 0:
            allowed &= codes[:, i] == state[i]
    for symbol in range(state.shape[0] - holes):
        if state[holes + symbol] > 0:
            allowed &= symbol_counts[:, symbol] >= state[holes + symbol]
    return allowed


class HintRule:
    """The hint rule of hard mode (``Game.hint_rule``) over a game's guesses. A node's state is
    one int array: per position the exact symbol (-1: none), then per symbol the least count any
    one guess revealed. ``codes``, ``counts`` (per guess, of each symbol) and ``marks`` (per
    feedback, of each position: 2 exact, 1 present, 0 absent) are the arrays the compiled search
    is given too."""

    def __init__(self, game: Game, guess_codes: np.ndarray):
        self.codes = np.ascontiguousarray(guess_codes, dtype=np.int64)
        self.holes = self.codes.shape[1]
        self.counts = np.stack([(self.codes == symbol).sum(axis=1) for symbol in range(game.symbols)], axis=1)
        self.marks = np.array(game.feedbacks(), dtype=np.int64).reshape(-1, self.holes)
        self.start = np.concatenate([np.full(self.holes, -1), np.zeros(game.symbols)]).astype(np.int64)

    def state(self, played, feedbacks) -> np.ndarray:
        """The state after each guess of ``played`` got the feedback (index) beside it."""
        state = self.start
        for guess, feedback in zip(played, feedbacks):
            state = next_state(state, self.codes, self.marks, guess, feedback)
        return state

    def allowed(self, state: np.ndarray) -> np.ndarray:
        """Which guesses the state allows."""
        return allowed_by(state, self.codes, self.counts)

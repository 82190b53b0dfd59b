"""The hint rule of hard mode (``Game.hint_rule``): which guesses a history allows.

The rule is stated once, here (``next_state``, ``allowed_by``), in code that runs both as Python
over numpy arrays (``HintRule``, at a node of any build) and compiled (``search/hint_kernels.py``, which
the exhaustive searches carry through their recursion); the tests hold it to ``Game.allows``.
"""
from __future__ import annotations

import numpy as np

from guesstree.player.games import Game


def next_state(state: np.ndarray, positions: np.ndarray, marks: np.ndarray, guess: int, feedback: int) -> np.ndarray:
    """The state after ``guess`` got ``feedback``: the positions its exact marks fix, and per
    symbol the most copies of it that this one guess revealed, if more than before."""
    child = state.copy()
    holes = positions.shape[0]
    for i in range(holes):
        if marks[feedback, i] == 2:
            child[i] = positions[i, guess]
        if marks[feedback, i] > 0:
            symbol = positions[i, guess]
            revealed = 0
            for j in range(holes):
                if positions[j, guess] == symbol and marks[feedback, j] > 0:
                    revealed += 1
            if revealed > child[holes + symbol]:
                child[holes + symbol] = revealed
    return child


def allowed_by(state: np.ndarray, positions: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Which guesses the state allows: each fixed position's symbol, each revealed symbol as often.
    Each test reads one contiguous row (a position's symbols, a symbol's counts), as fast compiled
    as in numpy."""
    holes = positions.shape[0]
    allowed = np.ones(positions.shape[1], np.bool_)
    for i in range(holes):
        if state[i] >= 0:
            allowed &= positions[i] == state[i]
    for symbol in range(state.shape[0] - holes):
        if state[holes + symbol] > 0:
            allowed &= counts[symbol] >= state[holes + symbol]
    return allowed


class HintRule:
    """The hint rule of hard mode (``Game.hint_rule``) over a game's guesses. A node's state is
    one int array: per position the exact symbol (-1: none), then per symbol the least count any
    one guess revealed. ``positions`` (per position, each guess's symbol there), ``counts`` (per
    symbol, its count in each guess) and ``marks`` (per feedback, of each position: 2 exact, 1
    present, 0 absent) are the arrays the compiled search is given too."""

    def __init__(self, game: Game, guess_codes: np.ndarray):
        codes = np.asarray(guess_codes, dtype=np.int64)
        self.positions = np.ascontiguousarray(codes.T)
        self.holes = codes.shape[1]
        self.counts = np.stack([(codes == symbol).sum(axis=1) for symbol in range(game.symbols)])
        self.marks = np.array(game.feedbacks(), dtype=np.int64).reshape(-1, self.holes)
        self.start = np.concatenate([np.full(self.holes, -1), np.zeros(game.symbols)]).astype(np.int64)

    def state(self, played, feedbacks) -> np.ndarray:
        """The state after each guess of ``played`` got the feedback (index) beside it."""
        state = self.start
        for guess, feedback in zip(played, feedbacks):
            state = next_state(state, self.positions, self.marks, guess, feedback)
        return state

    def allowed(self, state: np.ndarray) -> np.ndarray:
        """Which guesses the state allows."""
        return allowed_by(state, self.positions, self.counts)

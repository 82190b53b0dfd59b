"""The hint rule of hard mode (``Game.hint_rule``), and of ultra-hard mode: which guesses a history allows.

The rule is stated once, here (``next_state``, ``allowed_by``), in code that runs both as Python
over numpy arrays (``HintRule``, at a node of any build) and compiled (``search/hint_kernels.py``, which
the exhaustive searches carry through their recursion); the tests hold it to ``Game.allows``.
"""
from __future__ import annotations

import numpy as np

from guesstree.player.games import Game


def next_state(state: np.ndarray, positions: np.ndarray, marks: np.ndarray, counts: np.ndarray, guess: int,
               feedback: int) -> np.ndarray:
    """The state after ``guess`` got ``feedback``: the positions its exact marks fix, and per
    symbol the most copies of it that this one guess revealed, if more than before. Ultra-hard
    mode's longer state also keeps, per symbol, the fewest copies a guess showed it has (a symbol
    marked absent beside its revealed copies has exactly those), and per position the symbols it
    cannot hold: all but an exact mark's, a present or absent mark's, and one shown absent."""
    child = state.copy()
    holes, symbols = positions.shape[0], counts.shape[0]
    ultra = state.shape[0] > holes + symbols
    banned = holes + 2 * symbols  # where ultra-hard mode's table of symbols banned by position starts
    for i in range(holes):
        symbol = positions[i, guess]
        if marks[feedback, i] == 2:
            child[i] = symbol
            if ultra:
                child[banned + i * symbols:banned + (i + 1) * symbols] = 1
                child[banned + i * symbols + symbol] = 0
        elif ultra:
            child[banned + i * symbols + symbol] = 1
        if marks[feedback, i] == 0 and not ultra:
            continue  # (hard mode learns nothing from an absent mark: its loop spared)
        revealed, absent = 0, False
        for j in range(holes):
            if positions[j, guess] == symbol:
                if marks[feedback, j] > 0:
                    revealed += 1
                else:
                    absent = True
        if revealed > child[holes + symbol]:
            child[holes + symbol] = revealed
        if ultra and absent and revealed < child[holes + symbols + symbol]:
            child[holes + symbols + symbol] = revealed
            if revealed == 0:
                for j in range(holes):
                    child[banned + j * symbols + symbol] = 1
    return child


def allowed_by(state: np.ndarray, positions: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Which guesses the state allows: each fixed position's symbol, each revealed symbol as often.
    Each test reads one contiguous row (a position's symbols, a symbol's counts), as fast compiled
    as in numpy. (Ultra-hard mode's longer state: ``ultra_allowed``, kept apart: a branch of it here
    makes numba compile this one five times slower.)"""
    holes = positions.shape[0]
    allowed = np.ones(positions.shape[1], np.bool_)
    for i in range(holes):
        if state[i] >= 0:
            allowed &= positions[i] == state[i]
    for symbol in range(state.shape[0] - holes):
        if state[holes + symbol] > 0:
            allowed &= counts[symbol] >= state[holes + symbol]
    return allowed


def ultra_allowed(state: np.ndarray, positions: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """``allowed_by`` for ultra-hard mode's state: each revealed symbol as often, none more often
    than shown, and none where it cannot stand (which holds the fixed symbols and the absent ones)."""
    holes, symbols = positions.shape[0], counts.shape[0]
    allowed = np.ones(positions.shape[1], np.bool_)
    for symbol in range(symbols):
        if state[holes + symbol] > 0:
            allowed &= counts[symbol] >= state[holes + symbol]
        if 0 < state[holes + symbols + symbol] < holes:
            allowed &= counts[symbol] <= state[holes + symbols + symbol]
    clear_banned(allowed, state[holes + 2 * symbols:], positions)
    return allowed


def clear_banned(allowed: np.ndarray, banned: np.ndarray, positions: np.ndarray) -> None:
    """Clears in ``allowed`` each guess that holds a symbol where ``banned`` (per position, per
    symbol: 1 where it cannot stand) says it cannot. (Compiled, one pass over the guesses instead:
    ``search/hint_kernels.py``.)"""
    symbols = banned.shape[0] // positions.shape[0]
    for i in range(positions.shape[0]):  # each guess's symbol there looked up in the position's row
        allowed &= banned[i * symbols + positions[i]] == 0


class HintRule:
    """The hint rule of hard mode (``Game.hint_rule``) over a game's guesses. A node's state is
    one int array: per position the exact symbol (-1: none), then per symbol the least count any
    one guess revealed; in ultra-hard mode (``Game.ultra_hard``: every guess could be the answer)
    then per symbol the most count it may have (``holes``: unknown) and per position and symbol
    1 where the symbol cannot stand (a fixed position's other symbols, an absent symbol's every one). ``positions`` (per position, each guess's symbol there), ``counts`` (per
    symbol, its count in each guess) and ``marks`` (per feedback, of each position: 2 exact, 1
    present, 0 absent) are the arrays the compiled search is given too."""

    def __init__(self, game: Game, guess_codes: np.ndarray):
        codes = np.asarray(guess_codes, dtype=np.int64)
        self.positions = np.ascontiguousarray(codes.T)
        self.holes = codes.shape[1]
        self.counts = np.stack([(codes == symbol).sum(axis=1) for symbol in range(game.symbols)])
        self.marks = np.array(game.feedbacks(), dtype=np.int64).reshape(-1, self.holes)
        ultra = [np.full(game.symbols, self.holes), np.zeros(self.holes * game.symbols)] if game.ultra_hard else []
        self.start = np.concatenate([np.full(self.holes, -1), np.zeros(game.symbols), *ultra]).astype(np.int64)

    def state(self, played, feedbacks) -> np.ndarray:
        """The state after each guess of ``played`` got the feedback (index) beside it."""
        state = self.start
        for guess, feedback in zip(played, feedbacks):
            state = next_state(state, self.positions, self.marks, self.counts, guess, feedback)
        return state

    def allowed(self, state: np.ndarray) -> np.ndarray:
        """Which guesses the state allows."""
        ultra = len(state) > self.holes + len(self.counts)
        return (ultra_allowed if ultra else allowed_by)(state, self.positions, self.counts)

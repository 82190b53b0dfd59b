"""Feedback in bulk: ``block(guess_ids, secret_ids)[i, j]`` is the index of
``score(guesses[i], secrets[j])`` in ``game.feedbacks()``, as uint8, computed in compiled
or vectorised code.

A ``Scorer`` keeps the whole guesses x secrets matrix when it fits the memory budget
(lookups are then one byte each) and otherwise computes blocks on demand, so that games
too big for a matrix still run in bounded memory.

Kernels come from one of two backends: ``numba`` (compiled, cached on disk) or ``numpy``
(vectorised). They give the same numbers; numpy wins for small games, whose whole build
takes less time than loading numba into the process.
"""
from __future__ import annotations

import numpy as np

from player.games import BullsCows, Game, Mastermind, TwoD
from player.words import Words

GIB = 1 << 30
BLOCK_CELLS = 1 << 24  # cells per on-demand block
BACKENDS = ("numba", "numpy")
NUMPY_MAX_CELLS = 1 << 22  # guesses x secrets up to which the numpy backend is the faster one


def backend_for(game: Game, engine: str) -> str:
    """The kernels' backend for an engine: ``fast`` picks by the game's size."""
    if engine in BACKENDS:
        return engine
    if engine == "reference" or len(game.guesses) * len(game.secrets) <= NUMPY_MAX_CELLS:
        return "numpy"
    return "numba"


def kernels(backend: str):
    """The module holding ``backend``'s kernels (importing numba only when asked for)."""
    if backend == "numba":
        from . import kernels as compiled
        return compiled
    from . import vectorised
    return vectorised


def codes_array(codes) -> np.ndarray:
    return np.array(codes, dtype=np.uint8).reshape(len(codes), -1)


class Scorer:
    def __init__(self, game: Game, max_memory: int, backend: str = "numba"):
        feedbacks = game.feedbacks()
        if len(feedbacks) > 255:
            raise ValueError(f"{game!r} has {len(feedbacks)} feedback values; at most 255 are supported")
        self.game, self.backend = game, backend
        self.guess_codes, self.secret_codes = codes_array(game.guesses), codes_array(game.secrets)
        self._block = _block_function(game, self.guess_codes, self.secret_codes, backend)
        cells = len(game.guesses) * len(game.secrets)
        codes_bytes = 64 * (len(game.guesses) + len(game.secrets))
        if 2 * codes_bytes > max_memory:
            raise ValueError(f"{game!r} needs at least {2 * codes_bytes / (1 << 20):.1f} MiB, "
                             f"over the --max-memory budget of {max_memory / (1 << 20):.1f} MiB")
        # cells per block computed at once: numpy's temporaries take tens of bytes per cell
        per_cell = 16 if backend == "numba" else 64
        self.block_cells = max(1 << 12, min(BLOCK_CELLS, max_memory // per_cell))
        # the whole matrix only when it leaves room for the rest of the build
        self.matrix = None
        if cells + codes_bytes <= max_memory * 0.8:
            self.matrix = self._whole()

    def _whole(self) -> np.ndarray:
        if self.backend == "numba":  # compiled kernels need no temporaries
            return self._block(None, None)
        n_guesses, n_secrets = len(self.game.guesses), len(self.game.secrets)
        matrix = np.empty((n_guesses, n_secrets), dtype=np.uint8)
        step = max(1, self.block_cells // n_secrets)
        for start in range(0, n_guesses, step):
            matrix[start:start + step] = self._block(np.arange(start, min(n_guesses, start + step)), None)
        return matrix

    def block(self, guess_ids: np.ndarray | None, secret_ids: np.ndarray | None) -> np.ndarray:
        """Feedback indices for every (guess, secret) pair; ``None`` means all of them."""
        if self.matrix is not None:
            if guess_ids is None and secret_ids is None:
                return self.matrix
            return self.matrix[np.ix_(self._ids(guess_ids, True), self._ids(secret_ids, False))]
        return self._block(guess_ids, secret_ids)

    def answers(self, guess: int, secret_ids: np.ndarray) -> np.ndarray:
        """Feedback indices of one guess against some secrets."""
        if self.matrix is not None:
            return self.matrix[guess, secret_ids]
        return self._block(np.array([guess]), secret_ids)[0]

    def _ids(self, ids, guesses: bool):
        if ids is None:
            return np.arange(len(self.game.guesses if guesses else self.game.secrets))
        return ids


def _block_function(game: Game, guess_codes: np.ndarray, secret_codes: np.ndarray, backend: str):
    feedbacks = game.feedbacks()
    index = {f: i for i, f in enumerate(feedbacks)}

    def pick(codes, ids):
        return codes if ids is None else codes[ids]

    if isinstance(game, (Mastermind, BullsCows)):
        table = np.full((game.length + 1, game.length + 1), 255, dtype=np.uint8)
        for i, (right, moved) in enumerate(feedbacks):
            table[right, moved] = i
        peg_matrix = kernels(backend).peg_matrix
        if backend == "numba" and game.symbols <= 16 and game.length <= 7:
            from .kernels import pack_nibbles, peg_matrix_packed

            guess_words = pack_nibbles(guess_codes, game.symbols)
            secret_words = pack_nibbles(secret_codes, game.symbols)
            by_common = np.full(256, 255, dtype=np.uint8)  # [black << 4 | common]
            for i, (right, moved) in enumerate(feedbacks):
                by_common[right << 4 | (right + moved)] = i

            def packed(guess_ids, secret_ids):
                return peg_matrix_packed(*(pick(w, guess_ids) for w in guess_words),
                                         *(pick(w, secret_ids) for w in secret_words), game.length, by_common)
            return packed

        def pegs(guess_ids, secret_ids):
            return peg_matrix(pick(guess_codes, guess_ids), pick(secret_codes, secret_ids), game.symbols, table)
        return pegs

    if isinstance(game, Words):
        word_matrix = kernels(backend).word_matrix
        table = np.full(3 ** game.length, 255, dtype=np.uint8)
        for i, feedback in enumerate(feedbacks):
            table[int("".join(map(str, feedback)), 3)] = i

        def words(guess_ids, secret_ids):
            return word_matrix(pick(guess_codes, guess_ids), pick(secret_codes, secret_ids), table)
        return words

    if isinstance(game, TwoD):
        table = np.zeros((2, 2, 2), dtype=np.uint8)
        for (below, above, equal), i in index.items():
            table[below, above, equal] = i

        def twod(guess_ids, secret_ids):
            g = pick(guess_codes, guess_ids)[:, None, :]
            s = pick(secret_codes, secret_ids)[None, :, :]
            return table[np.all(s <= g, axis=2).astype(np.intp), np.all(s >= g, axis=2).astype(np.intp),
                         np.all(s == g, axis=2).astype(np.intp)]
        return twod

    def generic(guess_ids, secret_ids):
        """Any game, through its own pure-Python ``score``: slow, but needs nothing more."""
        guesses = game.guesses if guess_ids is None else [game.guesses[i] for i in guess_ids]
        secrets = game.secrets if secret_ids is None else [game.secrets[i] for i in secret_ids]
        out = np.empty((len(guesses), len(secrets)), dtype=np.uint8)
        for g, guess in enumerate(guesses):
            try:
                out[g] = [index[game.score(guess, secret)] for secret in secrets]
            except KeyError as error:
                raise ValueError(f"{game!r}: score({guess}, ...) gave {error.args[0]!r}, "
                                 "which is not in the game's feedbacks()") from None
        return out
    return generic


class HintRule:
    """The hint rule of hard mode (``Game.keeps_hints``) in arrays. A node's state is one int
    array: per position the exact symbol (-1: none), then per symbol the least count any one
    guess revealed. The compiled search carries the same state (``exact.rule_next``,
    ``exact.rule_allowed``); the tests hold both to the game's own ``allows``."""

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

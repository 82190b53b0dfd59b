"""A game's codes in arrays and the kernel that scores them (``Codes``): what a scorer and the
scorers of its parts share; and the check that listing them fits the memory budget."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from guesstree.player.game import Game
from guesstree.player.wording import size

from .kinds import BlockFunction, block_function, feedback_dtype

BLOCK_CELLS = 1 << 24  # cells per on-demand block


def codes_array(codes) -> np.ndarray:
    return np.array(codes, dtype=np.uint8).reshape(len(codes), -1)


LISTED_BYTES = 128  # memory per code while the game lists it (a Python tuple of small ints, and its row)


def check_listing(game: Game, max_memory: int) -> None:
    """A ValueError unless listing the game's codes fits ``max_memory``: checked before listing
    them, since a game may have more codes than memory."""
    n_guesses, n_secrets = game.guess_count(), game.secret_count()
    listing = LISTED_BYTES * (n_guesses + n_secrets)
    if listing > max_memory:
        guesses = "as many guesses" if n_guesses == n_secrets else f"{n_guesses} guesses"
        raise ValueError(f"{game.label()} is too big: listing its {n_secrets} secrets and {guesses} takes about "
                         f"{size(listing)}, over --max-memory {size(max_memory)}")


def matrix_fits(guesses: int, secrets: int, listed: int, cell_bytes: int, max_memory: int) -> bool:
    """Does a matrix of ``guesses`` against ``secrets`` (of ``listed`` secrets) leave room within
    ``max_memory`` for the rest: a fifth of it, and the codes' own 64 bytes each?"""
    return guesses * secrets * cell_bytes + 64 * (guesses + listed) <= max_memory * 0.8


@dataclass(frozen=True)
class Codes:
    """A game's codes in arrays and the kernel that scores them (``block``): what a scorer and the
    scorers of its parts share. ``square``: the score is symmetric over guesses that are the
    secrets (score(a, b) == score(b, a)), so a matrix is its own transpose."""

    game: Game
    backend: str
    guess_codes: np.ndarray
    secret_codes: np.ndarray
    dtype: np.dtype
    block: BlockFunction
    block_cells: int  # cells per block computed at once
    max_memory: int
    square: bool

    @classmethod
    def of(cls, game: Game, max_memory: int, backend: str) -> Codes:
        check_listing(game, max_memory)
        try:
            dtype = feedback_dtype(len(game.feedbacks()))
        except ValueError as error:
            raise ValueError(f"{game.title()} has {error}") from None
        guess_codes, secret_codes = codes_array(game.guesses), codes_array(game.secrets)
        per_cell = 16 if backend == "numba" else 64  # numpy's temporaries take tens of bytes per cell
        return cls(game, backend, guess_codes, secret_codes, dtype,
                   block_function(game, guess_codes, secret_codes, backend),
                   max(1 << 12, min(BLOCK_CELLS, max_memory // per_cell)), max_memory,
                   game.symmetric_score and game.guesses == game.secrets)

    def fits(self, n_secrets: int) -> bool:
        """Does a matrix of every guess against ``n_secrets`` secrets leave room for the rest?"""
        return matrix_fits(len(self.guess_codes), n_secrets, len(self.secret_codes), self.dtype.itemsize,
                           self.max_memory)

    def rows(self, guess_ids: np.ndarray | None = None, secret_ids: np.ndarray | None = None,
             out: np.ndarray | None = None) -> np.ndarray:
        """The matrix of ``guess_ids`` against ``secret_ids`` (None: all of them), into ``out`` if
        given; numpy's kernels a block of guesses at a time (their temporaries take tens of bytes
        per cell), compiled ones at once."""
        n_rows = len(self.guess_codes) if guess_ids is None else len(guess_ids)
        n_columns = len(self.secret_codes) if secret_ids is None else len(secret_ids)
        step = max(1, self.block_cells // max(1, n_columns))
        if out is None:
            if self.backend == "numba" or step >= n_rows:
                return self.block(guess_ids, secret_ids)
            out = np.empty((n_rows, n_columns), dtype=self.dtype)
        every = np.arange(n_rows) if guess_ids is None else guess_ids
        for start in range(0, n_rows, step):
            out[start:start + step] = self.block(every[start:start + step], secret_ids)
        return out

    def whole(self, shared: bool):
        """The whole matrix, and the shared memory that holds it (``workers.shared.SharedArray``) if
        ``shared``, else None."""
        if not shared:
            return self.rows(), None
        from ..workers.shared import SharedArray

        memory = SharedArray((len(self.guess_codes), len(self.secret_codes)), self.dtype)
        return self.rows(out=memory.array), memory

    def chunks(self, guess_ids: np.ndarray, n_secrets: int):
        """``guess_ids`` in blocks of at most ``block_cells`` cells against ``n_secrets`` secrets."""
        step = max(1, self.block_cells // max(1, n_secrets))
        return (guess_ids[start:start + step] for start in range(0, len(guess_ids), step))

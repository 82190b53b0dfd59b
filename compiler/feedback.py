"""The feedback matrix: ``matrix[guess, secret]`` is the index of ``score(guess, secret)``
in ``game.feedbacks()``, as uint8, computed in vectorised or compiled code."""
from __future__ import annotations

import numpy as np

from player.games import BullsCows, Game, Mastermind, TwoD

GIB = 1 << 30


def codes_array(codes) -> np.ndarray:
    return np.array(codes, dtype=np.uint8).reshape(len(codes), -1)


def matrix_bytes(game: Game) -> int:
    return len(game.guesses) * len(game.secrets)


def check_budget(game: Game, max_memory: float) -> None:
    """Refuse a game whose feedback matrix would not fit the memory budget (bytes)."""
    need = matrix_bytes(game)
    if need > max_memory:
        raise ValueError(
            f"{game!r} needs {need / GIB:.1f} GiB for its feedback matrix "
            f"({len(game.guesses)} guesses x {len(game.secrets)} secrets), over the "
            f"--max-memory budget of {max_memory / GIB:.1f} GiB")


def feedback_matrix(game: Game) -> np.ndarray:
    feedbacks = game.feedbacks()
    if len(feedbacks) > 255:
        raise ValueError(f"{game!r} has {len(feedbacks)} feedback values; at most 255 are supported")
    guesses, secrets = codes_array(game.guesses), codes_array(game.secrets)
    if isinstance(game, (Mastermind, BullsCows)):
        from .kernels import pack_nibbles, peg_matrix, peg_matrix_packed

        table = np.full((game.length + 1, game.length + 1), 255, dtype=np.uint8)
        for index, (right, moved) in enumerate(feedbacks):
            table[right, moved] = index
        if game.symbols <= 16 and game.length <= 7:
            return peg_matrix_packed(*pack_nibbles(guesses, game.symbols), *pack_nibbles(secrets, game.symbols),
                                     game.length, table)
        return peg_matrix(guesses, secrets, game.symbols, table)
    if isinstance(game, TwoD):
        return _twod_matrix(game, guesses, secrets)
    return _generic_matrix(game)


def _twod_matrix(game: TwoD, guesses: np.ndarray, secrets: np.ndarray) -> np.ndarray:
    g, s = guesses[:, None, :], secrets[None, :, :]
    below = np.all(s <= g, axis=2)
    above = np.all(s >= g, axis=2)
    equal = np.all(s == g, axis=2)
    index = {f: i for i, f in enumerate(game.feedbacks())}
    table = np.zeros((2, 2, 2), dtype=np.uint8)
    for (b, a, e), i in index.items():
        table[b, a, e] = i
    return table[below.astype(np.intp), above.astype(np.intp), equal.astype(np.intp)]


def _generic_matrix(game: Game) -> np.ndarray:
    """Any game, through its own pure-Python ``score``: slow, but needs nothing from the game."""
    index = {f: i for i, f in enumerate(game.feedbacks())}
    out = np.empty((len(game.guesses), len(game.secrets)), dtype=np.uint8)
    for g, guess in enumerate(game.guesses):
        try:
            out[g] = [index[game.score(guess, secret)] for secret in game.secrets]
        except KeyError as error:
            raise ValueError(f"{game!r}: score({guess}, ...) gave {error.args[0]!r}, "
                             f"which is not in the game's feedbacks()") from None
    return out

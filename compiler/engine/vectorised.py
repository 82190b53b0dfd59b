"""Numpy twins of the compiled kernels, for games small enough that loading numba (about half
a second per process) costs more than the compiled loops save.

Each function gives exactly what its twin in ``kernels.py`` gives; the test suite compares
them, and the trees built with each, byte for byte.
"""
from __future__ import annotations

import numpy as np

from . import reference


def peg_matrix(guesses: np.ndarray, secrets: np.ndarray, colours: int, table: np.ndarray) -> np.ndarray:
    """``kernels.peg_matrix``: black pegs are equal positions, the common pegs the sum over
    colours of the smaller count in guess and secret. In bytes, a hole or a colour at a time (a
    pass over the matrix each), then one lookup of ``black * (holes + 1) + common``."""
    holes = guesses.shape[1]
    narrow = np.uint8 if (holes + 1) ** 2 <= 256 else np.uint16
    black = np.zeros((len(guesses), len(secrets)), dtype=narrow)
    for h in range(holes):
        black += guesses[:, h, None] == secrets[None, :, h]
    common = np.zeros_like(black)
    for colour in range(colours):
        in_guess = (guesses == colour).sum(axis=1, dtype=narrow)
        in_secret = (secrets == colour).sum(axis=1, dtype=narrow)
        common += np.minimum(in_guess[:, None], in_secret[None, :])
    black *= holes + 1
    black += common
    return _by_black_common(table, holes)[black]


def _by_black_common(table: np.ndarray, holes: int) -> np.ndarray:
    """``table[black, common - black]`` at ``black * (holes + 1) + common`` (for common >= black)."""
    flat = np.full((holes + 1) ** 2, np.iinfo(table.dtype).max, dtype=table.dtype)
    for right in range(holes + 1):
        for common in range(right, holes + 1):
            flat[right * (holes + 1) + common] = table[right, common - right]
    return flat


def word_matrix(guesses: np.ndarray, secrets: np.ndarray, table: np.ndarray) -> np.ndarray:
    """``kernels.word_matrix``: a letter off its place is present when fewer of the guess's
    earlier unmatched copies of it came before than the secret holds unmatched."""
    exact = guesses[:, None, :] == secrets[None, :, :]  # (G, S, L)
    length = guesses.shape[1]
    code = np.zeros(exact.shape[:2], dtype=np.intp)
    for i in range(length):
        letter = guesses[:, i][:, None]  # (G, 1)
        unmatched = ((secrets[None, :, :] == letter[:, :, None]) & ~exact).sum(axis=2)
        earlier = ((guesses[:, :i] == letter)[:, None, :] & ~exact[:, :, :i]).sum(axis=2)
        mark = np.where(exact[:, :, i], 2, (earlier < unmatched).astype(np.intp))
        code = code * 3 + mark
    return table[code]


def partition_stats(matrix, guess_ids, candidates, n_feedbacks, statistic, clog, by_column=False, threads=True):
    """``kernels.partition_stats`` by the plain bincount of ``reference.py`` (one thread)."""
    return reference.partition_stats(matrix.T if by_column else matrix, guess_ids, candidates, n_feedbacks,
                                     statistic, clog)


def weighted_partition_stats(matrix, guess_ids, candidates, weights, n_feedbacks, statistic, by_column=False,
                             threads=True):
    """``kernels.weighted_partition_stats`` by the plain bincount of ``reference.py`` (one thread)."""
    return reference.weighted_partition_stats(matrix.T if by_column else matrix, guess_ids, candidates, weights,
                                              n_feedbacks, statistic)


def first_perfect(matrix: np.ndarray, guess_ids: np.ndarray, candidates: np.ndarray, n_feedbacks: int,
                  by_column: bool = False) -> int:
    """``kernels.first_perfect``: the first guess whose answers are all different, or -1."""
    answers = matrix[np.ix_(candidates, guess_ids)].T if by_column else matrix[np.ix_(guess_ids, candidates)]
    answers = np.sort(answers, axis=1)
    perfect = (np.diff(answers, axis=1) != 0).all(axis=1)
    hits = np.flatnonzero(perfect)
    return int(hits[0]) if len(hits) else -1


def canonical_pick(guess_ids: np.ndarray, scores: np.ndarray, marked: np.ndarray, parts: np.ndarray,
                   tie: float) -> int:
    """``kernels.canonical_pick``: the best score of a useful guess (ties within a relative
    ``tie``), then a candidate (``marked``), then the lowest guess; -1 if none is useful."""
    is_candidate = marked[guess_ids]
    useful = (parts > 1) | is_candidate
    if not useful.any():
        return -1
    scores = np.where(useful, scores.astype(np.float64), -np.inf)
    best = scores.max()
    tied = useful & (scores >= best - tie * abs(best))
    preferred = tied & is_candidate
    if preferred.any():
        tied = preferred
    return int(guess_ids[tied].min())


def canonical_under(codes: np.ndarray, perms: np.ndarray, maps: np.ndarray, used: np.ndarray) -> np.ndarray:
    """``kernels.canonical_under``: mark each code that is the lowest of its class (see there)."""
    n_codes, holes = codes.shape
    codes = codes.astype(np.int64)
    free = np.flatnonzero(~used)
    keep = np.ones(n_codes, dtype=bool)
    rows = np.arange(n_codes)
    for perm, colour_map in zip(perms, maps):
        moved = codes[:, perm]
        image = np.empty_like(moved)
        fresh = np.zeros(n_codes, dtype=np.int64)  # free colours named so far
        for h in range(holes):
            c = moved[:, h]
            earlier = moved[:, :h] == c[:, None]
            seen = earlier.any(axis=1)
            first = earlier.argmax(axis=1) if h else 0  # where the colour first appeared (if seen)
            new = ~used[c] & ~seen  # a free colour met for the first time takes the next free name
            named = free[np.minimum(fresh, len(free) - 1)] if len(free) else fresh
            image[:, h] = np.where(used[c], colour_map[c], np.where(seen, image[rows, first], named))
            fresh += new
        differs = image != codes
        at = differs.argmax(axis=1)
        keep &= ~(differs.any(axis=1) & (image[rows, at] < codes[rows, at]))
    return keep

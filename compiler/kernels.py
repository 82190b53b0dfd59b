"""Compiled inner loops (numba, cached on disk): feedback matrices and partition statistics.

Each kernel has a plain numpy twin in ``reference.py``; the test suite checks that both
give identical trees, byte for byte.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

# What a partition is reduced to, per guess (see strategies.STATISTICS).
CLOG_SUM, MAX_PART, SUM_SQUARES, PARTS = 0, 1, 2, 3


@njit(cache=True, parallel=True)
def peg_matrix(guesses, secrets, colours, table):
    """Feedback index of every (guess, secret) pair for (black, white) style games.

    ``guesses`` (G, H) and ``secrets`` (S, H) hold symbol indices; ``table[black, white]``
    is the feedback's index. White pegs are the multiset overlap minus the blacks.
    """
    n_guesses, holes = guesses.shape
    n_secrets = secrets.shape[0]
    secret_counts = np.zeros((n_secrets, colours), np.uint8)
    for s in range(n_secrets):
        for h in range(holes):
            secret_counts[s, secrets[s, h]] += 1
    out = np.empty((n_guesses, n_secrets), np.uint8)
    for g in prange(n_guesses):
        guess = guesses[g]
        counts = np.zeros(colours, np.int64)
        distinct = np.empty(holes, np.int64)
        n_distinct = 0
        for h in range(holes):
            c = guess[h]
            if counts[c] == 0:
                distinct[n_distinct] = c
                n_distinct += 1
            counts[c] += 1
        for s in range(n_secrets):
            secret = secrets[s]
            black = 0
            for h in range(holes):
                if guess[h] == secret[h]:
                    black += 1
            common = 0
            for k in range(n_distinct):
                c = distinct[k]
                common += min(counts[c], secret_counts[s, c])
            out[g, s] = table[black, common - black]
    return out


@njit(cache=True, parallel=True)
def partition_stats(matrix, guess_ids, candidates, n_feedbacks, statistic, clog):
    """For each guess, reduce its partition of ``candidates`` to one int, and count its parts.

    ``clog[c]`` is ``c * log2(c)`` in fixed point, so that sums are exact integers and two
    partitions with the same multiset of part sizes get exactly the same statistic.
    """
    m = guess_ids.shape[0]
    stats = np.empty(m, np.int64)
    parts = np.empty(m, np.int64)
    chunks = min(m, 256)
    size = (m + chunks - 1) // chunks
    for chunk in prange(chunks):
        counts = np.zeros(n_feedbacks, np.int64)
        for i in range(chunk * size, min(m, (chunk + 1) * size)):
            row = matrix[guess_ids[i]]
            counts[:] = 0
            for c in candidates:
                counts[row[c]] += 1
            acc = 0
            p = 0
            for f in range(n_feedbacks):
                x = counts[f]
                if x:
                    p += 1
                    if statistic == CLOG_SUM:
                        acc += clog[x]
                    elif statistic == MAX_PART:
                        if x > acc:
                            acc = x
                    elif statistic == SUM_SQUARES:
                        acc += x * x
            if statistic == PARTS:
                acc = p
            stats[i] = acc
            parts[i] = p
    return stats, parts

"""The straightforward numpy engine: the fast kernels must give exactly what this gives."""
from __future__ import annotations

import numpy as np

from .statistic import CLOG_SUM, MAX_PART, PARTS, SUM_SQUARES, weighted_value

CHUNK_CELLS = 1 << 22  # guesses x candidates per bincount, to bound memory


def partition_counts(matrix: np.ndarray, guess_ids: np.ndarray, candidates: np.ndarray, n_feedbacks: int) -> np.ndarray:
    """``counts[i, f]``: how many candidates answer feedback ``f`` to guess ``guess_ids[i]``."""
    answers = matrix[np.ix_(guess_ids, candidates)].astype(np.int64)
    offsets = n_feedbacks * np.arange(len(guess_ids), dtype=np.int64)[:, None]
    flat = np.bincount((answers + offsets).ravel(), minlength=len(guess_ids) * n_feedbacks)
    return flat.reshape(len(guess_ids), n_feedbacks)


def partition_stats(matrix, guess_ids, candidates, n_feedbacks, statistic, clog):
    stats, parts = [], []
    step = max(1, CHUNK_CELLS // max(1, len(candidates)))
    for start in range(0, len(guess_ids), step):
        counts = partition_counts(matrix, guess_ids[start:start + step], candidates, n_feedbacks)
        if statistic == CLOG_SUM:
            stats.append(clog[counts].sum(axis=1))
        elif statistic == MAX_PART:
            stats.append(counts.max(axis=1))
        elif statistic == SUM_SQUARES:
            stats.append((counts * counts).sum(axis=1))
        elif statistic == PARTS:
            stats.append((counts > 0).sum(axis=1))
        else:
            raise ValueError(f"unknown partition statistic {statistic}")
        parts.append((counts > 0).sum(axis=1))
    return np.concatenate(stats).astype(np.int64), np.concatenate(parts).astype(np.int64)


def weighted_partition_stats(matrix, guess_ids, candidates, weights, n_feedbacks, statistic):
    """``partition_stats`` of a weighted game: each candidate counts its weight (``weights``, one per
    candidate) in its part; the statistic as ``statistic.weighted_value`` says (float64)."""
    stats, parts = [], []
    weights = np.asarray(weights, dtype=np.float64)  # whole numbers: their sums exact below 2 ** 53
    step = max(1, CHUNK_CELLS // max(1, len(candidates)))
    for start in range(0, len(guess_ids), step):
        chunk = guess_ids[start:start + step]
        answers = matrix[np.ix_(chunk, candidates)].astype(np.int64)
        offsets = n_feedbacks * np.arange(len(chunk), dtype=np.int64)[:, None]
        flat = np.bincount((answers + offsets).ravel(), weights=np.broadcast_to(weights, answers.shape).ravel(),
                           minlength=len(chunk) * n_feedbacks)
        counts = flat.reshape(len(chunk), n_feedbacks)
        stats.append(weighted_value(counts, statistic))
        parts.append((counts > 0).sum(axis=1))
    return np.concatenate(stats).astype(np.float64), np.concatenate(parts).astype(np.int64)

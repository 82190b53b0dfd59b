"""What a guess's partition of the candidates is reduced to, one integer per guess: each heuristic
in ``strategies.py`` names one, and every engine (``reference.py``, ``vectorised.py``,
``kernels.py``) computes it alike; ``clog_table`` the fixed-point c log c that their sums read.
In a weighted game a part is its candidates' weights (whole numbers: ``game.integer_weights``) and
the statistic a float64 (``weighted_value``), which the same scores read with the node's weight for
its candidates' count."""
import numpy as np

CLOG_SUM, MAX_PART, SUM_SQUARES, PARTS = 0, 1, 2, 3  # sum of c*log2(c) (fixed point), largest part, sum of squares, parts

NO_CLOG = np.zeros(1, np.int64)  # the c log c table that counting parts never reads
CLOG_SCALE = float(1 << 32)  # fixed point for c*log2(c): exact integer sums, same for equal multisets
CLOG_MARGIN = 1024  # per candidate, in clog's fixed point: far wider than a tie (context.TIE) and rounding


def clog_table(n: int) -> np.ndarray:
    """``round(c * log2(c) * 2**32)`` for c in 0..n."""
    c = np.arange(n + 1, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        values = np.where(c > 1, c * np.log2(np.maximum(c, 1)), 0.0)
    return np.rint(values * CLOG_SCALE).astype(np.int64)


def entropy(clog_sum: np.ndarray, n: int) -> np.ndarray:
    """Shannon entropy (bits) of partitions of n candidates from their fixed-point sum of c*log2(c)."""
    return np.log2(n) - clog_sum / (CLOG_SCALE * n)


def weighted_value(counts: np.ndarray, statistic: int) -> np.ndarray:
    """Per row of ``counts`` (each part's weight, by feedback): the statistic of a weighted
    partition, as float64: the sum of w*log2(w) (times ``CLOG_SCALE``, as ``entropy`` reads it),
    the heaviest part, the sum of the parts' squared weights, or the parts. ``kernels.py`` sums the
    same terms in feedback order."""
    counts = np.asarray(counts, dtype=np.float64)
    if statistic == CLOG_SUM:
        with np.errstate(divide="ignore", invalid="ignore"):
            terms = np.where(counts > 0, counts * np.log2(np.maximum(counts, 1.0)), 0.0)
        return terms.sum(axis=1) * CLOG_SCALE
    if statistic == MAX_PART:
        return counts.max(axis=1)
    if statistic == SUM_SQUARES:
        return (counts * counts).sum(axis=1)
    if statistic == PARTS:
        return (counts > 0).sum(axis=1).astype(np.float64)
    raise ValueError(f"unknown partition statistic {statistic}")

"""What a guess's partition of the candidates is reduced to, one integer per guess: each heuristic
in ``strategies.py`` names one, and every engine (``reference.py``, ``vectorised.py``,
``kernels.py``) computes it alike; ``clog_table`` the fixed-point c log c that their sums read."""
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

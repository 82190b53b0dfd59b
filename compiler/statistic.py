"""What a guess's partition of the candidates is reduced to, one integer per guess: each heuristic
in ``strategies.py`` names one, and every engine (``reference.py``, ``vectorised.py``,
``kernels.py``) computes it alike."""

CLOG_SUM, MAX_PART, SUM_SQUARES, PARTS = 0, 1, 2, 3  # sum of c*log2(c) (fixed point), largest part, sum of squares, parts

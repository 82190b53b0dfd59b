"""The game's arrays and its scoring, under both the heuristic builder and the exact search:
``arrays.py`` one game's arrays made once (``GameArrays``), ``scorer.py`` the one source of answers
(``Scorer``: a matrix held, blocks computed, or partitions straight from packed codes) over
``codes.py`` (the codes in arrays, ``Codes``) and ``kinds.py`` (the kernels by family of scores, a
plugin's ``register``, the backends); the kernels themselves compiled (``kernels.py``, numba),
vectorised (``vectorised.py``, numpy) and plain (``reference.py``), entropy's pick on packed codes
(``least_sums.py``), reducing a partition to the ``statistic.py`` a heuristic names;
``symmetry.py`` guesses alike, ``hint_rule.py`` hard mode's rule, ``numba_start.py`` how numba starts
in our own processes.
Nothing is imported here, so that a module of this package loads only what it needs."""

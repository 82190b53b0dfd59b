"""The hint rule of hard mode, compiled: ``hint_rule.py``'s statement of it (``next_state``,
``allowed_by``), which the exhaustive searches carry through their recursion, and a state's share
of a table key.

A node's state is one int array: per position the green letter (-1 for none), then per letter
the least count any one guess revealed; its arrays are ``HintRule.positions``, ``.counts`` (the
letter counts) and ``.marks``. An empty state means no rule.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..engine.hint_rule import allowed_by, next_state
from .table import SEED2, mix

hint_next = njit(cache=True, nogil=True)(next_state)  # the state after a guess got a feedback
hint_allowed = njit(cache=True, nogil=True)(allowed_by)  # which guesses a state allows


@njit(cache=True, nogil=True)
def hint_salt(state):
    """The state's share of a table key (0 without a rule)."""
    if state.shape[0] == 0:
        return np.uint64(0)
    h = SEED2
    for x in state:
        h = mix(h ^ np.uint64(x + 2))
    return h

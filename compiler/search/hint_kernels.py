"""The hint rule of hard mode (and ultra-hard mode's), compiled: ``hint_rule.py``'s statement of
it (``next_state``, ``allowed_by``), which the exhaustive searches carry through their recursion,
and a state's share of a table key.

A node's state is one int array: per position the green letter (-1 for none), then per letter
the least count any one guess revealed (ultra-hard mode's goes on: ``HintRule``); its arrays are
``HintRule.positions``, ``.counts`` (the letter counts) and ``.marks``. An empty state means no rule.
"""
from __future__ import annotations

import numpy as np
from numba import njit
from numba.extending import overload

from ..engine.hint_rule import allowed_by, clear_banned, next_state, ultra_allowed
from .table import SEED2, mix


@overload(clear_banned, jit_options={"cache": True, "nogil": True})
def _clear_banned(allowed, banned, positions):
    """``clear_banned`` compiled: each guess still allowed read once (a third of the time of a
    pass per position)."""
    def compiled(allowed, banned, positions):
        holes = positions.shape[0]
        symbols = banned.shape[0] // holes
        for g in range(positions.shape[1]):
            if allowed[g]:
                for i in range(holes):
                    if banned[i * symbols + positions[i, g]]:
                        allowed[g] = False
                        break
    return compiled

hint_next = njit(cache=True, nogil=True)(next_state)  # the state after a guess got a feedback
hard_allowed = njit(cache=True, nogil=True)(allowed_by)
compiled_ultra_allowed = njit(cache=True, nogil=True)(ultra_allowed)


@njit(cache=True, nogil=True)
def hint_allowed(state, positions, counts):
    """Which guesses a state allows (ultra-hard mode's by its longer state)."""
    if state.shape[0] > positions.shape[0] + counts.shape[0]:
        return compiled_ultra_allowed(state, positions, counts)
    return hard_allowed(state, positions, counts)


@njit(cache=True, nogil=True)
def hint_child(state, problem, guess, feedback):
    """The state after ``guess`` got ``feedback``, over a search's ``Problem``."""
    return hint_next(state, problem.hint_codes, problem.marks, problem.letter_counts, guess, feedback)


@njit(cache=True, nogil=True)
def hint_salt(state):
    """The state's share of a table key (0 without a rule)."""
    if state.shape[0] == 0:
        return np.uint64(0)
    h = SEED2
    for x in state:
        h = mix(h ^ np.uint64(x + 2))
    return h

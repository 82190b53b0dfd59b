"""The hint rule of hard mode, compiled: the twin of ``compiler/hint_rule.py`` that the
exhaustive searches carry through their recursion.

A node's state is one int array: per position the green letter (-1 for none), then per letter
the least count any one guess revealed; its arrays are ``HintRule.codes``, ``.counts`` (the
letter counts) and ``.marks``. An empty state means no rule. The tests hold both twins to the
game's own ``allows``.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .table import SEED2, mix


@njit(cache=True, nogil=True)
def hint_next(state, codes, marks, guess, feedback):
    """The state after ``guess`` got ``feedback``."""
    child = state.copy()
    holes = codes.shape[1]
    for i in range(holes):
        if marks[feedback, i] == 2:
            child[i] = codes[guess, i]
        if marks[feedback, i] > 0:
            letter = codes[guess, i]
            revealed = 0
            for j in range(holes):
                if codes[guess, j] == letter and marks[feedback, j] > 0:
                    revealed += 1
            if revealed > child[holes + letter]:
                child[holes + letter] = revealed
    return child


@njit(cache=True, nogil=True)
def hint_allowed(state, codes, letter_counts):
    """Which guesses the state allows."""
    n_guesses, holes = codes.shape
    allowed = np.ones(n_guesses, np.bool_)
    needed = np.empty(state.shape[0] - holes, np.int64)
    n_needed = 0
    for letter in range(state.shape[0] - holes):
        if state[holes + letter] > 0:
            needed[n_needed] = letter
            n_needed += 1
    for g in range(n_guesses):
        for i in range(holes):
            if state[i] >= 0 and codes[g, i] != state[i]:
                allowed[g] = False
                break
        if allowed[g]:
            for k in range(n_needed):
                letter = needed[k]
                if letter_counts[g, letter] < state[holes + letter]:
                    allowed[g] = False
                    break
    return allowed


@njit(cache=True, nogil=True)
def hint_salt(state):
    """The state's share of a table key (0 without a rule)."""
    if state.shape[0] == 0:
        return np.uint64(0)
    h = SEED2
    for x in state:
        h = mix(h ^ np.uint64(x + 2))
    return h

"""Guesses that count once: those alike because they play symbols that no candidate has
(``symmetry.AbsentSymbols`` is the vectorised twin), and those that differ by a renaming of the
symbols that no guess before them played; and the one compiled filter of the guesses a node
scores (``kept_guesses``), which the recursion and the lookahead share.

A renaming of the symbols that no guess on the path from the root played maps every played guess,
and so the candidate set, to itself, and keeps every score: guesses that differ only by such a
renaming are worth the same. The lowest of them plays those symbols, in order of first
appearance, as the lowest of them (as ``kernels.canonical_under`` names free colours).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..engine.kernels import _popcount


@njit(cache=True, nogil=True)
def absent_symbols(problem, candidates):
    """The symbols that no candidate has, as bits, when there are two or more (else 0: one absent
    symbol makes no guesses alike) and the game has absent-symbol classes."""
    if problem.guess_symbols.shape[0] == 0:
        return np.uint64(0)
    present = np.uint64(0)
    for c in candidates:
        present |= problem.secret_symbols[c]
    absent = problem.every_symbol & ~present
    return absent if _popcount(absent) >= 2 else np.uint64(0)


@njit(cache=True, nogil=True)
def lowest_alike(problem, guess, absent):
    """Is ``guess`` the lowest of the guesses that differ from it only in which of the ``absent``
    symbols they play?"""
    mine = problem.guess_symbols[guess] & absent
    if mine == 0:
        return True
    if problem.repeats:
        return mine == absent & (~absent + np.uint64(1))
    return lowest_renamed(problem, guess, absent)


@njit(cache=True, nogil=True)
def unplayed_symbols(problem, played):
    """The symbols that no played guess has (``played``: theirs, as bits), when two or more may
    be renamed (else 0)."""
    if not problem.renames:
        return np.uint64(0)
    free = problem.every_symbol & ~played
    return free if _popcount(free) >= 2 else np.uint64(0)


@njit(cache=True, nogil=True)
def lowest_renamed(problem, guess, free):
    """Is ``guess`` the lowest of the guesses that differ from it only by a renaming of the
    ``free`` symbols: does it play them, in order of first appearance, as the lowest of them?"""
    if problem.guess_symbols[guess] & free == 0:
        return True
    want, seen = free, np.uint64(0)
    for h in range(problem.guess_codes.shape[1]):
        bit = np.uint64(1) << np.uint64(problem.guess_codes[guess, h])
        if bit & free and not bit & seen:
            lowest = want & (~want + np.uint64(1))
            if bit != lowest:
                return False
            want ^= lowest
            seen |= bit
    return True


@njit(cache=True, nogil=True)
def kept_guesses(problem, guesses, mask, allowed, absent, free):
    """``guesses`` without those that a lower one stands for: by its symmetry class (``mask``), by
    playing other ``absent`` symbols (``lowest_alike``), or other ``free`` ones (``lowest_renamed``);
    and without those a hint rule forbids (``allowed``). Empty arrays and 0 mean no such rule: then
    ``guesses`` themselves (a lookahead on Wordle's original lists, 180 000 of them in a full proof,
    spared a pass over the 12972 guesses each)."""
    if not (mask.shape[0] or allowed.shape[0] or absent or free):
        return guesses
    kept = np.empty(guesses.shape[0], np.int64)
    m = 0
    for g in guesses:
        if (mask.shape[0] and not mask[g]) or (allowed.shape[0] and not allowed[g]):
            continue
        if (absent and not lowest_alike(problem, g, absent)) or (free and not lowest_renamed(problem, g, free)):
            continue
        kept[m] = g
        m += 1
    return kept[:m]

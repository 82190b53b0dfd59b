"""Entropy's pick on packed peg codes (``kinds.PackedPegs``): the least sum of c log c over a
guess's parts exact, and the sums of the guesses that may tie with it; every other guess gets a
lower bound of its sum beyond a tie's reach, which is all the pick needs (``pick_sums``). First by
multisets of colours (``_by_multisets``), then by parts (``_least_clog_only``), the passes over
the candidates in ``packed.py``'s kernels.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .packed import UNARY, UNARY_WIDE, WIDE_HOLES, _peg_key, equal_parts, packed_partition_stats
from .statistic import CLOG_MARGIN, CLOG_SUM, PARTS

# entropy's parts at nodes of LEVELS_MIN candidates or more (below LEVELS_MAX) also count the answers of each
# number of common colours: a closer least sum, that leaves fewer guesses to sum
LEVELS_MIN, LEVELS_MAX = 256, 1 << 16
# entropy's pick at nodes of PRUNE_MIN candidates or more: a multiset of colours' least sum first
# (``_multiset_bounds``), then the guesses of the multisets that could hold the pick alone; at least
# PROBE_GUESSES of the most promising summed first, for a sum to compare the multisets' with
PRUNE_MIN, PROBE_GUESSES = 24, 64


def pick_sums(block, guess_ids, candidates, clog, threads, stop=0):
    """``packed.packed_partition_stats`` of ``CLOG_SUM`` for entropy's pick on the packed codes of
    ``block`` (a ``kinds.PackedPegs``): ``(stats, parts, first)``, the sums exact for the least and
    its ties only (see ``_least_clog_only``, and ``_by_multisets`` from ``PRUNE_MIN`` candidates
    where no scan stops at a perfect split)."""
    words = (block.guess_words, block.secret_words, block.layout)
    if not stop and len(candidates) >= PRUNE_MIN and len(guess_ids) > PROBE_GUESSES:
        return _by_multisets(words, guess_ids, candidates, clog, threads, block.multisets)
    return _least_clog_only(words, guess_ids, candidates, clog, threads, stop)


def _least_clog_only(words, guess_ids, candidates, clog, threads, stop):
    """``pick_sums`` by parts: every guess's parts first (a bit per answer, a fraction of counting
    them), then the sums of the guesses of the most parts, then of fewer, while they could come
    near the least sum so far. A guess of ``p`` parts sums at least what ``p`` equal parts would (c log c is convex:
    ``least_clogs``); at nodes of ``LEVELS_MIN`` candidates or more, the parts pass also counts
    the answers of each number of common colours, and the least sum is each such level's parts as
    equal as can be (``_levels_block``; simulated on 24 of 8x6 entropy's nodes of 512 or more: 16%
    of the guesses' cells left to sum, not 52%). Where that least sum is more than the bound plus a
    margin far wider than a tie, the guess cannot be the pick, and it is its statistic. The parts
    are exact for every guess."""
    n = len(candidates)
    levels = bool(LEVELS_MIN <= n < LEVELS_MAX and words[2] != UNARY_WIDE)
    bounds, parts, first = packed_partition_stats(*words, guess_ids, candidates, PARTS, clog, threads, stop,
                                                  levels=levels)
    if first >= 0 or not len(guess_ids):
        return parts, parts, first
    most = int(parts.max())
    least = least_clogs(clog, n, most)
    stats = bounds if levels else _least_of(parts, least)
    bound = int(least[-1]) + (1 << 62)  # none yet (far above any sum, and far from overflowing)
    for p in range(most, 0, -1):  # most parts first
        if least[p] > bound + CLOG_MARGIN * n:
            break  # (and fewer parts allow no less)
        level = _with_parts(parts, p, stats, bound + CLOG_MARGIN * n)
        if len(level):
            sums = packed_partition_stats(*words, guess_ids[level], candidates, CLOG_SUM, clog, threads)[0]
            stats[level] = sums
            bound = min(bound, int(sums.min()))
    return stats, parts, -1


def multisets_of(guess_words) -> tuple[np.ndarray, np.ndarray]:
    """Each guess's multiset of colours (the index of its count word among the distinct ones: the
    words hold the count of each colour), and the first guess of each."""
    _, first, of = np.unique(guess_words[1], return_index=True, return_inverse=True)
    return of.astype(np.int64), first.astype(np.int64)


def _by_multisets(words, guess_ids, candidates, clog, threads, multisets):
    """``_least_clog_only`` of the guesses whose multiset of colours allows a sum near enough the
    least: the guesses of one multiset share the candidates' counts by common colours, so one least
    sum bounds all of theirs (``_multiset_bounds``). The guesses of the multisets that allow the
    least are summed first (``PROBE_GUESSES`` at least), and a multiset whose bound is beyond that
    sum plus the margin cannot hold the pick nor a tie: its guesses are dropped, with its bound as
    their statistic and no parts (their parts are not counted)."""
    (guess_words, secret_words, layout), (of, firsts) = words, multisets
    positions, counts = secret_words[0][candidates], secret_words[1][candidates]
    bounds = _multiset_bounds(guess_words[0][firsts], guess_words[1][firsts], positions, counts, layout, clog)
    stats, sizes = _guess_bounds(of, guess_ids, bounds)
    order = np.argsort(bounds, kind="stable")
    enough = order[min(np.searchsorted(np.cumsum(sizes[order]), PROBE_GUESSES), len(order) - 1)]
    probe = _at_most(stats, bounds[enough])
    sums = packed_partition_stats(*words, guess_ids[probe], candidates, CLOG_SUM, clog, threads)[0]
    kept = _at_most(stats, int(sums.min()) + CLOG_MARGIN * len(candidates))
    found, found_parts, _ = _least_clog_only(words, guess_ids[kept], candidates, clog, threads, 0)
    parts = np.zeros(len(guess_ids), np.int64)
    stats[kept], parts[kept] = found, found_parts
    return stats, parts, -1


@njit(cache=True)
def _multiset_bounds(first_positions, first_counts, positions, counts, layout, clog):
    """For each multiset of colours (the words of a guess of it), the least sum of c log c that a
    guess of it allows: its candidates counted by their common colours with it (the same for any
    order of its colours), and each such level in as equal parts as it could answer (of ``c``
    common colours, at most ``c + 1`` ways: from 0 to ``c`` blacks). c log c is convex and
    superadditive, so this is at most any of the guesses' sums."""
    wide, n = layout == UNARY_WIDE, positions.shape[0]
    levels = np.zeros(WIDE_HOLES + 1, np.int64)
    bounds = np.empty(first_positions.shape[0], np.int64)
    for r in range(first_positions.shape[0]):
        position, count = first_positions[r], first_counts[r]
        levels[:] = 0
        for j in range(n):  # (a key's common colours: the key mod 9 for 8 holes, else its low 3 bits)
            if wide:
                levels[_peg_key(position, count, positions[j], counts[j], layout, True, True) % 9] += 1
            elif layout == UNARY:
                levels[_peg_key(position, count, positions[j], counts[j], layout, True, False) & 7] += 1
            else:
                levels[_peg_key(position, count, positions[j], counts[j], layout, False, False) & 7] += 1
        least = 0
        for common in range(levels.shape[0]):
            least += equal_parts(levels[common], min(levels[common], common + 1), clog, n)
        bounds[r] = least
    return bounds


@njit(cache=True)
def _guess_bounds(of, guess_ids, bounds):
    """Each guess's multiset's bound, and how many of the guesses each multiset has."""
    stats = np.empty(guess_ids.shape[0], np.int64)
    sizes = np.zeros(bounds.shape[0], np.int64)
    for i in range(guess_ids.shape[0]):
        mine = of[guess_ids[i]]
        stats[i] = bounds[mine]
        sizes[mine] += 1
    return stats, sizes


# The two passes over every guess that entropy's pick makes besides the kernels, compiled: numpy's
# gather, count and search per level took twice as long (0.37 against 0.18 ms at 82 000 guesses).

@njit(cache=True)
def _least_of(parts, least):
    """``least[parts]``: each guess's least sum by its parts."""
    stats = np.empty(parts.shape[0], np.int64)
    for i in range(parts.shape[0]):
        stats[i] = least[parts[i]]
    return stats


@njit(cache=True)
def _with_parts(parts, p, stats, most):
    """The indices of the guesses of ``p`` parts (any, for ``p`` < 0) whose statistic is at most
    ``most``, in order."""
    found = np.empty(parts.shape[0] + 1, np.int64)
    k = 0
    for i in range(parts.shape[0]):
        found[k] = i  # (written for every guess, kept for those of p parts: no branch)
        k += ((p < 0) | (parts[i] == p)) & (stats[i] <= most)
    return found[:k]


def _at_most(stats, most):
    """The indices of the statistics of at most ``most``, in order (``_with_parts`` of any parts)."""
    return _with_parts(stats, -1, stats, most)


def least_clogs(clog: np.ndarray, n: int, most: int) -> np.ndarray:
    """For ``p`` = 0 to ``most`` parts of ``n`` candidates, the least sum of ``clog`` over the parts:
    ``n mod p`` parts of one more than the others, as equal as can be."""
    p = np.arange(1, most + 1)
    size, larger = n // p, n % p
    return np.concatenate(([0], larger * clog[np.minimum(size + 1, n)] + (p - larger) * clog[size]))

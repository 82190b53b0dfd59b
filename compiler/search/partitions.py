"""How a guess splits a node's candidates, and the counting bound of each guess (``guess_bounds``),
compiled: what every node of the exhaustive searches computes first.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..engine.kernels import _popcount
from .counting import least_total, reachable
from .problem import Stopped
from .table import GOLD, INF, M1

COUNTS_MIN = 96  # candidates from which a block's counts (cleared per block) pay for more than 64 feedbacks
BLOCK = 256  # guesses scored together: their answers sit in cache while the candidates' rows stream by
PAIRWISE_MAX = 24  # up to this many candidates, a guess's parts come from comparing answers (``_pairwise_parts``;
# per cell on Wordle's parts: 0.19 to 0.24 ns at 12 to 27 candidates, where the bits take 0.25 to 0.30)
TILE = 2048  # guesses whose answers ``_pairwise_tile`` compares together
BITS_BLOCK = 512  # guesses whose answers ``_bit_parts`` marks together, as four words each (16 KiB)
# a guess's answers cost about five times as much gathered as read in a run (Wordle's, 30 to 1000 candidates):
# where the guesses are at least a third of the span they come from, every guess of the span is read
SPAN_READ = 3


@njit(cache=True, nogil=True)
def split(matrix, guess, candidates, n_feedbacks, win):
    """The candidates ordered by feedback (ascending within each part), and the parts other than
    the win as rows ``(start, size)``, largest first (then by feedback)."""
    n = candidates.shape[0]
    counts = np.zeros(n_feedbacks + 1, np.int64)
    row = matrix[guess]
    for c in candidates:
        counts[row[c] + 1] += 1
    starts = np.cumsum(counts)
    ordered = np.empty(n, np.int64)
    fill = starts[:-1].copy()
    for c in candidates:
        f = row[c]
        ordered[fill[f]] = c
        fill[f] += 1
    m = 0
    for f in range(n_feedbacks):
        if f != win and counts[f + 1] > 0:
            m += 1
    parts = np.empty((m, 2), np.int64)
    keys = np.empty(m, np.int64)
    j = 0
    for f in range(n_feedbacks):
        if f != win and counts[f + 1] > 0:
            parts[j, 0], parts[j, 1] = starts[f], counts[f + 1]
            keys[j] = -counts[f + 1] * (n_feedbacks + 1) + f
            j += 1
    return ordered, parts[np.argsort(keys)]


@njit(cache=True, nogil=True)
def _partition(problem, guess, candidates, counts, touched, budget, branching):
    """How ``guess`` splits the candidates: (parts, the counting bound of the guesses after it (by
    the tables of ``branching``), its largest part but the win, whether it is a candidate).
    ``counts`` (one per feedback) must be all zero and is left so; ``touched`` is scratch of the
    same length. Only the feedbacks that occur are visited, so a node costs its candidates, not
    the game's feedbacks."""
    least, reach = problem.least_by[branching], problem.reach_by[branching]
    row = problem.matrix[guess]
    k = 0
    for c in candidates:
        f = row[c]
        if counts[f] == 0:
            touched[k] = f
            k += 1
        counts[f] += 1
    bound, largest, candidate = 0, 0, False
    for i in range(k):
        f = touched[i]
        x = counts[f]
        counts[f] = 0
        if f == problem.win:
            candidate = True
        else:
            bound += least_total(least, reach, x, budget - 1, problem.penalty)
            largest = max(largest, x)
    return k, bound, largest, candidate


@njit(cache=True, nogil=True)
def _allowed(n_guesses, candidates, secret_guess, consistent):
    if consistent:
        return secret_guess[candidates]
    return np.arange(n_guesses)


@njit(cache=True, nogil=True)
def _is_candidate(guess, candidates, guess_secret):
    secret = guess_secret[guess]
    if secret < 0:
        return False
    i = np.searchsorted(candidates, secret)
    return i < candidates.shape[0] and candidates[i] == secret


@njit(cache=True, nogil=True)
def _same_answers(matrix, a, b, candidates):
    ra, rb = matrix[a], matrix[b]
    for c in candidates:
        if ra[c] != rb[c]:
            return False
    return True


@njit(cache=True, nogil=True)
def _answers_hash(matrix, guess, candidates):
    row = matrix[guess]
    h = GOLD
    for c in candidates:
        h = (h ^ np.uint64(row[c])) * M1
    return h


@njit(cache=True, nogil=True)
def _repeats(matrix, guess, candidates, tried, tried_hash, n_tried):
    """Was a guess with the same answer on every candidate (so worth the same) tried before?
    ``(repeat, n_tried)``; a new guess is added to ``tried``."""
    answers = _answers_hash(matrix, guess, candidates)
    for t in range(n_tried):
        if tried_hash[t] == answers and _same_answers(matrix, tried[t], guess, candidates):
            return True, n_tried
    tried[n_tried], tried_hash[n_tried] = guess, answers
    return False, n_tried + 1


@njit(cache=True, inline="always")
def _count_block(by_secret, candidates, guesses, first, contiguous, j0, width, counts):
    """How often each answer occurs among the candidates for each of ``guesses[j0 : j0 + width]``,
    into ``counts`` (cleared first): one candidate's row of ``by_secret`` at a time, read without
    an index where the guesses are ``contiguous`` from ``first``."""
    counts[:] = 0
    for c in candidates:
        row = by_secret[c][first + j0:] if contiguous else by_secret[c]
        for j in range(width):
            counts[j, row[j] if contiguous else row[guesses[j0 + j]]] += 1


@njit(cache=True, nogil=True)
def _contiguous(guesses):
    """``(first, contiguous)``: whether ``guesses[j] == first + j`` for every j (read without an index)."""
    m = guesses.shape[0]
    first = guesses[0] if m else 0
    for j in range(1, m):
        if guesses[j] != first + j:
            return first, False
    return first, m > 0


@njit(cache=True, nogil=True)
def _perfect_bounds(problem, candidates, guesses, first, contiguous, bounds, parts, candidate):
    """Per guess: its number of parts, whether it is a candidate, and ``3n - parts - won``, n plus
    the sum of 2k - 1 over its parts but the win: the counting bound where every part of k secrets
    costs 2k - 1 after, and below it elsewhere (a part never costs less). Only which answers occur
    is kept: for up to ``PAIRWISE_MAX`` candidates by comparing their answers two by two
    (``_pairwise_parts``), else as bits (``_bit_parts``; games of up to 256 feedbacks). Guesses
    gathered from a span at most ``SPAN_READ`` times their number are read as the whole span."""
    m, n = guesses.shape[0], candidates.shape[0]
    lo, hi = first, first + m - 1
    if not contiguous and m > 0:
        lo, hi = np.min(guesses), np.max(guesses)
    if contiguous or SPAN_READ * m < hi - lo + 1:
        _parts_of(problem, candidates, guesses, first, contiguous, parts, candidate)
    else:  # every guess of their span, read in a run, then theirs picked out
        every_parts, every_candidate = np.empty(hi - lo + 1, np.int64), np.empty(hi - lo + 1, np.bool_)
        _parts_of(problem, candidates, np.arange(lo, hi + 1), lo, np.bool_(True), every_parts, every_candidate)  # (not a literal: one compiled version)
        for j in range(m):
            parts[j], candidate[j] = every_parts[guesses[j] - lo], every_candidate[guesses[j] - lo]
    for j in range(m):
        bounds[j] = 3 * n - parts[j] - (1 if candidate[j] else 0)


@njit(cache=True, nogil=True)
def _parts_of(problem, candidates, guesses, first, contiguous, parts, candidate):
    """Per guess: its number of parts and whether it is a candidate, the faster way for so many candidates."""
    if candidates.shape[0] <= PAIRWISE_MAX:
        _pairwise_parts(problem, candidates, guesses, first, contiguous, parts, candidate)
    else:
        _bit_parts(problem, candidates, guesses, first, contiguous, parts, candidate)


@njit(cache=True, nogil=True)
def _bit_parts(problem, candidates, guesses, first, contiguous, parts, candidate):
    """Per guess: its number of parts and whether it is a candidate, by setting a bit for each
    answer that occurs in four words a guess (games of up to 256 feedbacks), ``BITS_BLOCK``
    guesses at a time: each candidate's answers are read along its row of ``by_secret`` where the
    guesses run contiguous (a long run that the prefetcher follows), else gathered into ``rows``
    first."""
    m, n = guesses.shape[0], candidates.shape[0]
    words = (np.empty(BITS_BLOCK, np.uint64), np.empty(BITS_BLOCK, np.uint64), np.empty(BITS_BLOCK, np.uint64),
             np.empty(BITS_BLOCK, np.uint64))
    rows = np.empty((0 if contiguous else n, BITS_BLOCK), np.uint8)  # (answers below 256 here: bytes)
    order = np.arange(n)
    win, one = problem.win, np.uint64(1)
    for j0 in range(0, m, BITS_BLOCK):
        width = min(m - j0, BITS_BLOCK)
        if contiguous:
            _bit_tile(problem.by_secret, candidates, first + j0, width, *words)
        else:
            _gather(problem.by_secret, candidates, guesses, j0, width, rows)
            _bit_tile(rows, order, np.int64(0), width, *words)  # (not a literal 0: one compiled tile)
        won = words[win >> 6]
        for j in range(width):
            parts[j0 + j] = (_popcount(words[0][j]) + _popcount(words[1][j]) + _popcount(words[2][j])
                             + _popcount(words[3][j]))
            candidate[j0 + j] = (won[j] >> np.uint64(win & 63)) & one != 0


@njit(cache=True, inline="always")
def _gather(by_secret, candidates, guesses, j0, width, rows):
    """Candidate i's answers to ``guesses[j0 : j0 + width]`` into ``rows[i]``, for guesses that do
    not run contiguous (a kernel's tiles then read ``rows`` as they read ``by_secret``)."""
    for i in range(candidates.shape[0]):
        row, mine = by_secret[candidates[i]], rows[i]
        for j in range(width):
            mine[j] = row[guesses[j0 + j]]


@njit(cache=True, inline="always")
def _in_word(word, a, b, c, d, ba, bb, bc, bd):
    """The bits ``ba`` to ``bd`` of the answers whose word (``a`` to ``d``) is ``word``, or-ed."""
    zero = np.uint64(0)
    return (ba if a == word else zero) | (bb if b == word else zero) | (bc if c == word else zero) \
        | (bd if d == word else zero)


@njit(cache=True, nogil=True)
def _bit_tile(rows, order, start, width, w0, w1, w2, w3):
    """Which answers each of ``width`` guesses gets from the candidates, as bits of ``w0`` to ``w3``
    (answers 0 to 63, 64 to 127, ...): candidate i answers them ``rows[order[i]][start : start +
    width]``. Four candidates a step, so that a guess's words are loaded and stored once for four
    answers; a bit and its word are chosen without a branch, eight guesses to a vector instruction."""
    zero, one, low, shift = np.uint64(0), np.uint64(1), np.uint64(63), np.uint64(6)
    for j in range(width):
        w0[j], w1[j], w2[j], w3[j] = zero, zero, zero, zero
    n, i = order.shape[0], 0
    while i < n:
        r0 = rows[order[i]][start:start + width]
        r1 = rows[order[min(i + 1, n - 1)]][start:start + width]  # (past the end: the last again, which adds nothing)
        r2 = rows[order[min(i + 2, n - 1)]][start:start + width]
        r3 = rows[order[min(i + 3, n - 1)]][start:start + width]
        for j in range(width):
            a, b, c, d = np.uint64(r0[j]), np.uint64(r1[j]), np.uint64(r2[j]), np.uint64(r3[j])
            ba, bb, bc, bd = one << (a & low), one << (b & low), one << (c & low), one << (d & low)
            a, b, c, d = a >> shift, b >> shift, c >> shift, d >> shift
            w0[j] |= _in_word(0, a, b, c, d, ba, bb, bc, bd)
            w1[j] |= _in_word(1, a, b, c, d, ba, bb, bc, bd)
            w2[j] |= _in_word(2, a, b, c, d, ba, bb, bc, bd)
            w3[j] |= _in_word(3, a, b, c, d, ba, bb, bc, bd)
        i += 4


@njit(cache=True, nogil=True)
def _pairwise_parts(problem, candidates, guesses, first, contiguous, parts, candidate):
    """Per guess: its number of parts and whether it is a candidate, found by comparing the
    candidates' answers two by two (``_pairwise_tile``), a tile of guesses at a time: read where
    they lie in ``by_secret`` where the guesses are ``contiguous`` from ``first``, else gathered
    into ``rows`` first."""
    m, n = guesses.shape[0], candidates.shape[0]
    alike, opened = np.empty(TILE, np.uint8), np.empty(TILE, np.uint8)
    if contiguous:
        for g0 in range(0, m, TILE):
            width = min(m - g0, TILE)
            _pairwise_tile(problem.by_secret, candidates, first + g0, width, alike, opened)
            for g in range(width):  # (loops, not slices: numba compiles them in a fraction of the time)
                parts[g0 + g], candidate[g0 + g] = opened[g], False
        for c in candidates:  # (only a secret's own guess wins it)
            g = problem.secret_guess[c] - first
            if 0 <= g < m:
                candidate[g] = True
        return
    rows, order = np.empty((n, TILE), np.uint8), np.arange(n)  # (answers below 256 here: bytes)
    win = np.uint8(problem.win)
    for g0 in range(0, m, TILE):
        width = min(m - g0, TILE)
        _gather(problem.by_secret, candidates, guesses, g0, width, rows)
        for g in range(width):
            candidate[g0 + g] = False
        for i in range(n):
            mine = rows[i]
            for g in range(width):
                candidate[g0 + g] |= mine[g] == win
        _pairwise_tile(rows, order, np.int64(0), width, alike, opened)  # (not a literal 0: one compiled tile)
        for g in range(width):
            parts[g0 + g] = opened[g]


@njit(cache=True, nogil=True)
def _pairwise_tile(rows, order, start, width, alike, opened):
    """How many parts each of ``width`` guesses makes of the candidates, into ``opened``: candidate
    i answers them ``rows[order[i]][start : start + width]``, and it opens a part unless one before
    it answers alike. That is n(n - 1)/2 comparisons a guess where setting each answer's bit
    (``_bit_parts``) is n, but a comparison takes a byte of a vector's lanes where a bit takes a
    64-bit word: for few candidates, the faster."""
    one = np.uint8(1)
    for g in range(width):
        opened[g] = 0
    for j in range(order.shape[0]):
        mine = rows[order[j]][start:start + width]
        for g in range(width):
            alike[g] = 0
        i = 0
        while i + 4 <= j:  # four earlier candidates at a time: one load and store of ``alike`` for four
            r0, r1 = rows[order[i]][start:start + width], rows[order[i + 1]][start:start + width]
            r2, r3 = rows[order[i + 2]][start:start + width], rows[order[i + 3]][start:start + width]
            for g in range(width):
                x = mine[g]
                alike[g] |= (r0[g] == x) | (r1[g] == x) | (r2[g] == x) | (r3[g] == x)
            i += 4
        for k in range(i, j):
            earlier = rows[order[k]][start:start + width]
            for g in range(width):
                alike[g] |= earlier[g] == mine[g]
        for g in range(width):
            opened[g] += alike[g] ^ one


@njit(cache=True, nogil=True)
def least_bound(problem, candidates, guesses, budget, branching, narrow):
    """The least counting bound (``guess_bounds``') of the guesses that split the candidates (into
    two parts or more, or one of them), INF if none: what a one-guess lookahead needs. Where
    ``guess_bounds`` would count every guess's parts, this takes each guess's ``3n - parts - won``
    (``_perfect_bounds``), a lower bound on its counting bound, and counts the parts only of the
    guesses whose lower bound is below the least counting bound found: the guess with the least
    lower bound first, then the others below it (none, where no part is bigger than the most
    answers a guess gets plus one, and the lower bound is exact). The parts are counted by the
    tables of ``branching``, or (``narrow``, where ``guesses`` stand for every guess that may
    follow) of the most answers but the win that ``guesses`` get here, if fewer."""
    m, n = guesses.shape[0], candidates.shape[0]
    cap = reachable(problem.reach_by[branching], budget - 1)
    if problem.penalty > 0 or problem.n_feedbacks > 256 or n > cap or m == 0:
        totals, n_parts, candidate, _ = guess_bounds(problem, candidates, guesses, budget, np.bool_(False), branching)
        most = 1
        for j in range(m):
            most = max(most, n_parts[j] - (1 if candidate[j] else 0))
        if narrow and most < branching:  # (the parts counted again by the narrower tables)
            totals, n_parts, candidate, _ = guess_bounds(problem, candidates, guesses, budget, np.bool_(False), np.int64(most))
        best = INF
        for j in range(m):
            if (n_parts[j] > 1 or candidate[j]) and totals[j] < best:
                best = totals[j]
        return best
    first, contiguous = _contiguous(guesses)
    low, parts = np.empty(m, np.int64), np.empty(m, np.int64)
    candidate = np.empty(m, np.bool_)
    _perfect_bounds(problem, candidates, guesses, first, contiguous, low, parts, candidate)
    lowest, at, most = INF, -1, 1
    for j in range(m):
        most = max(most, parts[j] - (1 if candidate[j] else 0))
        if not (parts[j] > 1 or candidate[j]):
            low[j] = INF
        elif low[j] < lowest:
            lowest, at = low[j], j
    if narrow:
        branching = min(branching, most)
    perfect = problem.least_by[branching][n] == 2 * n - 1  # no part is bigger: each lower bound is exact
    if at < 0 or perfect:
        return lowest
    # the exact bound of each guess whose lower bound is below the least found, the lowest first
    # (most likely the least)
    counts, touched = np.zeros(problem.n_feedbacks, np.int64), np.empty(problem.n_feedbacks, np.int64)
    best = _exact_bound(problem, guesses[at], candidates, counts, touched, budget, branching)
    for j in range(m):
        if problem.stop[0]:  # (a lookahead over thousands of guesses takes seconds: it polls the stop flag)
            raise Stopped("stopped")
        if j != at and low[j] < best:
            best = min(best, _exact_bound(problem, guesses[j], candidates, counts, touched, budget, branching))
    return best


@njit(cache=True, nogil=True)
def _exact_bound(problem, guess, candidates, counts, touched, budget, branching):
    """One guess's counting bound by the tables of ``branching`` (``_partition``), INF if it splits nothing."""
    k, after, _, won = _partition(problem, guess, candidates, counts, touched, budget, branching)
    return min(candidates.shape[0] + after, INF) if k > 1 or won else INF


@njit(cache=True, nogil=True)
def guess_bounds(problem, candidates, guesses, budget, largest_needed, branching):
    """Per guess: the counting bound of the total after it (INF: a part cannot be won within
    ``budget - 1`` more guesses), by the tables of ``branching`` (``counting.branching_tables``:
    the most answers but the win that any guess gets at the node or above it), its number of
    parts, whether it is a candidate, and (if ``largest_needed``, else -1) its largest part other
    than the win.

    The answers are read from ``by_secret``, a block of guesses at a time: each candidate's row
    streams through cache instead of one scattered byte per pair from every guess's row. When
    every part of k secrets costs exactly 2k - 1 guesses after (few candidates, many feedbacks)
    the bound only needs the number of parts, so only which answers occur is kept, as bits (the
    win's part has one secret: ``Solver`` checks that only a secret's own guess wins it). Else,
    with up to 64 feedbacks or ``COUNTS_MIN`` candidates or more (where clearing a block's counts
    pays: a word game's big parts), each answer's count per guess of the block, in 16 bits; else
    one guess at a time, visiting only the feedbacks that occur (``_partition``)."""
    m, n = guesses.shape[0], candidates.shape[0]
    n_feedbacks, win = problem.n_feedbacks, problem.win
    least, reach = problem.least_by[branching], problem.reach_by[branching]
    by_secret = problem.by_secret
    first, contiguous = _contiguous(guesses)
    cap = reachable(reach, budget - 1)  # a bigger part cannot be won in time
    # a bigger part leaves secrets to the last guess, each costing the penalty (fewest-at-worst)
    late = reachable(reach, budget - 2) if problem.penalty > 0 and budget >= 2 else n
    penalty = problem.penalty
    bounds = np.empty(m, np.int64)
    parts = np.empty(m, np.int64)
    largest = np.full(m, -1, np.int64)
    candidate = np.empty(m, np.bool_)
    if not largest_needed and n_feedbacks <= 256 and least[n] == 2 * n - 1 and n <= cap and n <= late:
        _perfect_bounds(problem, candidates, guesses, first, contiguous, bounds, parts, candidate)
        return bounds, parts, candidate, largest
    if (n_feedbacks <= 64 or n >= COUNTS_MIN) and n_feedbacks <= 256 and n < 65536:
        counts = np.zeros((BLOCK, n_feedbacks), np.uint16)
        for j0 in range(0, m, BLOCK):
            if problem.stop[0]:
                raise Stopped("stopped")
            width = min(m - j0, BLOCK)
            _count_block(by_secret, candidates, guesses, first, contiguous, j0, width, counts)
            for j in range(width):
                k, after, big = 0, 0, 0
                for f in range(n_feedbacks):
                    x = np.int64(counts[j, f])
                    if x:
                        k += 1
                        if f != win:
                            after += (least[x] + (penalty * (x - late) if x > late else 0)) if x <= cap else INF
                            big = max(big, x)
                parts[j0 + j], candidate[j0 + j], bounds[j0 + j] = k, counts[j, win] > 0, min(n + after, INF)
                if largest_needed:
                    largest[j0 + j] = big
        return bounds, parts, candidate, largest
    counts1 = np.zeros(n_feedbacks, np.int64)
    touched = np.empty(n_feedbacks, np.int64)
    for j in range(m):
        if problem.stop[0]:
            raise Stopped("stopped")
        parts[j], after, big, candidate[j] = _partition(problem, guesses[j], candidates, counts1, touched, budget,
                                                        branching)
        bounds[j] = min(n + after, INF)
        if largest_needed:
            largest[j] = big
    return bounds, parts, candidate, largest

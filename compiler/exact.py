"""Exhaustive search, compiled: the minimum total and the minimum worst case of any tree.

Both searches work on candidate sets (ascending secret indices) over the feedback matrix
``matrix[guess, secret]`` and remember what they learn in a transposition table: a flat
array of entries keyed by a 128-bit hash of (candidate set, depth budget, hint-rule state).
The searches of a process's threads share one table, so they pool what they solve; an entry is
three words ``(key1 ^ data, key2 ^ data, data)``, so a torn write from two threads at once reads
as a miss, never as a wrong answer. Losing an entry costs time, not correctness.

The compiled functions release the GIL (``nogil``), so the threads search at once; a search
runs for minutes inside one call, and a cluster's worker must still answer its scheduler
meanwhile (``cluster.py``).

A guess is bounded by counting before it is searched (``counting_tables``: no tree does better
than a perfect one), and ``min_total`` bounds its parts but the largest by one guess's lookahead
(``lookahead_bound``). Guesses alike because they play symbols that no candidate has count
once, and in ``min_total`` so do guesses that differ by a renaming of the symbols that no guess on
the path played.

Totals count guesses to win: a set of one secret costs 1, of two 3 (guess one, then the
other), and a guess at a node adds one guess for every candidate still there.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from .kernels import _popcount, first_perfect

INF = (1 << 24) - 1  # "no tree within the budget", and the largest total an entry can hold
BUCKET = 4  # slots probed per key
UNLIMITED = 1 << 20  # depth budget that never binds
FEASIBLE_TAG = (1 << 20) + 1  # key namespace of the worst-case search
PERFECT_MAX = 64  # below this many candidates, look for a candidate that splits them all apart first

# counters (one row per process): what the searches did, for progress and reports
NODES, HITS, STORES = 0, 1, 2

_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_GOLD = np.uint64(0x9E3779B97F4A7C15)
_SEED2 = np.uint64(0xD6E8FEB86659FD93)
_S30, _S27, _S31 = np.uint64(30), np.uint64(27), np.uint64(31)


# -- lower bounds from counting alone ----------------------------------------------------------

def counting_tables(n_secrets: int, n_feedbacks: int, children: int | None = None) -> tuple[np.ndarray, np.ndarray,
                                                                                         np.ndarray]:
    """``(least, least_blind, reach)``: ``least[n]`` is the smallest total any tree can have for n
    secrets, ``least_blind[n]`` the same when the first guess cannot be one of them, and
    ``reach[d]`` the most secrets any tree of depth d can win (capped above ``n_secrets``).

    A node wins at most one secret (its guess) and has at most ``children`` other children (the
    most answers but the win that any guess gives, ``kernels.most_children``; at most
    ``n_feedbacks - 1``, the default), so depth k holds at most ``children ** (k - 1)`` nodes: the
    best conceivable tree fills the levels in order. The game's own count can be far below the
    feedbacks': a Mastermind guess of 5 holes has 20 feedback values, but when every secret
    plays all 5 colours once, a guess's whites are fixed by its colours and it gets one of at
    most 6 answers.
    """
    branching = max(1, n_feedbacks - 1 if children is None else min(children, n_feedbacks - 1))

    def fill(first_level: int) -> np.ndarray:
        least = np.zeros(n_secrets + 1, dtype=np.int64)
        depth, room, total = 1, first_level, 0
        level = 1
        for n in range(1, n_secrets + 1):
            while room == 0:
                depth, level = depth + 1, min(level * branching, n_secrets + 1)
                room = level
            room -= 1
            total += depth
            least[n] = total
        return least

    reach = [0]
    level = 1
    while reach[-1] <= n_secrets:
        reach.append(min(reach[-1] + level, n_secrets + 1))
        level = min(level * branching, n_secrets + 1)
    return fill(1), fill(0), np.array(reach, dtype=np.int64)


@njit(cache=True, nogil=True)
def reachable(reach, depth):
    """Most secrets a tree of ``depth`` guesses can win."""
    return reach[depth] if depth < reach.shape[0] else reach[reach.shape[0] - 1]


@njit(cache=True, nogil=True)
def least_total(least, reach, n, budget):
    """Smallest conceivable total for n secrets within ``budget`` guesses (INF: impossible)."""
    if n > reachable(reach, budget):
        return INF
    return least[n]


# -- the transposition table ------------------------------------------------------------------

@njit(cache=True, nogil=True)
def _mix(x):
    x = (x ^ (x >> _S30)) * _M1
    x = (x ^ (x >> _S27)) * _M2
    return x ^ (x >> _S31)


@njit(cache=True, nogil=True)
def set_key(candidates, tag, salt):
    """Two independent 64-bit hashes of (candidate set, tag, salt); ``salt`` stands for what
    else decides the node's value (a hard-mode state), 0 for nothing."""
    h1 = _mix(np.uint64(tag) + _GOLD) ^ salt
    h2 = _mix(np.uint64(tag) ^ _SEED2) ^ salt
    for c in candidates:
        v = np.uint64(c)
        h1 = _mix(h1 ^ (v + _GOLD))
        h2 = _mix(h2 + (v ^ _SEED2)) ^ (h2 >> _S31)
    return h1, h2


# data word: value (24 bits) | exact (1) | guess + 1 (21) | size (16, capped)
@njit(cache=True, nogil=True)
def pack(value, exact, guess, size):
    data = np.uint64(value) | (np.uint64(1 if exact else 0) << np.uint64(24))
    data |= np.uint64(guess + 1) << np.uint64(25)
    return data | (np.uint64(min(size, 65535)) << np.uint64(46))


@njit(cache=True, nogil=True)
def data_value(data):
    return np.int64(data & np.uint64(0xFFFFFF))


@njit(cache=True, nogil=True)
def data_exact(data):
    return (data >> np.uint64(24)) & np.uint64(1) == np.uint64(1)


@njit(cache=True, nogil=True)
def data_guess(data):
    return np.int64((data >> np.uint64(25)) & np.uint64(0x1FFFFF)) - 1


@njit(cache=True, nogil=True)
def data_size(data):
    return np.int64(data >> np.uint64(46))


@njit(cache=True, nogil=True)
def probe(table, h1, h2):
    """The entry's data word, or 0."""
    base = np.int64(h1 & np.uint64(table.shape[0] - 1)) & ~(BUCKET - 1)
    for i in range(base, base + BUCKET):
        data = table[i, 2]
        if data != 0 and (table[i, 0] ^ data) == h1 and (table[i, 1] ^ data) == h2:
            return data
    return np.uint64(0)


@njit(cache=True, nogil=True)
def store(table, h1, h2, data):
    """Write an entry over the same key (never an exact one over a bound), else into an empty
    slot, else over the entry of the smallest set: the cheapest to find again."""
    base = np.int64(h1 & np.uint64(table.shape[0] - 1)) & ~(BUCKET - 1)
    victim, smallest = base, 1 << 62
    for i in range(base, base + BUCKET):
        old = table[i, 2]
        if old == 0:
            if smallest >= 0:
                victim, smallest = i, -1
            continue
        if (table[i, 0] ^ old) == h1 and (table[i, 1] ^ old) == h2:
            if data_exact(old) and not data_exact(data):
                return
            victim = i
            break
        size = data_size(old)
        if size < smallest:
            victim, smallest = i, size
    table[victim, 2] = np.uint64(0)  # readers see a miss while the entry changes
    table[victim, 0] = h1 ^ data
    table[victim, 1] = h2 ^ data
    table[victim, 2] = data


@njit(cache=True, nogil=True)
def restore(table, entries):
    """Store saved entries (rows of a table) into ``table``, whatever its size."""
    for i in range(entries.shape[0]):
        data = entries[i, 2]
        if data != 0:
            store(table, entries[i, 0] ^ data, entries[i, 1] ^ data, data)


# -- the hint rule (hard mode) ------------------------------------------------------------------
#
# The compiled twin of ``hint_rule.HintRule``: its state (per position the green letter, -1 for
# none, then per letter the least count), its arrays ``codes``, ``letter_counts`` and ``marks``.
# An empty state means no rule.

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
    h = _SEED2
    for x in state:
        h = _mix(h ^ np.uint64(x + 2))
    return h


class Stopped(Exception):
    """A search was told to stop (``Problem.stop``); what it had solved is in the table."""


# -- one search's shared data --------------------------------------------------------------------

class Problem(NamedTuple):
    """What every node of one exhaustive search reads: the game's matrix and index maps, the
    counting tables, the hint rule's arrays (empty: no rule), and the table and this process's
    counters that it writes."""

    matrix: np.ndarray  # matrix[guess, secret]: feedback index
    by_secret: np.ndarray  # the same, read as by_secret[secret, guess] (the matrix itself if the score is symmetric)
    secret_guess: np.ndarray  # secret index -> its guess index
    guess_secret: np.ndarray  # guess index -> its secret index, or -1
    consistent: bool  # only candidates may be guessed
    n_feedbacks: int
    win: int  # the winning feedback's index
    least: np.ndarray  # see counting_tables
    least_blind: np.ndarray
    reach: np.ndarray
    hint_codes: np.ndarray  # see hint_next, hint_allowed
    letter_counts: np.ndarray
    marks: np.ndarray
    table: np.ndarray  # the transposition table
    counters: np.ndarray  # this thread's row: NODES, HITS, STORES
    stop: np.ndarray  # one cell: set, the search raises Stopped at its next node
    guess_symbols: np.ndarray  # each guess's symbols as bits (empty: no classes of guesses alike, see below)
    secret_symbols: np.ndarray  # each secret's symbols as bits
    guess_codes: np.ndarray  # [guess, position]: its symbol
    repeats: bool  # guesses may repeat a symbol
    every_symbol: np.uint64  # the game's symbols as bits
    renames: bool  # symbols that no played guess has may be renamed (see ``lowest_renamed``)


# -- guesses alike because they play symbols that no candidate has (``symmetry.AbsentSymbols``) ----

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


# -- guesses alike because they play symbols that no guess before them played ---------------------
#
# A renaming of the symbols that no guess on the path from the root played maps every played guess,
# and so the candidate set, to itself, and keeps every score: guesses that differ only by such a
# renaming are worth the same. The lowest of them plays those symbols, in order of first
# appearance, as the lowest of them (as ``kernels.canonical_under`` names free colours).

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
    and without those a hint rule forbids (``allowed``). Empty arrays and 0 mean no such rule."""
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


@njit(cache=True, nogil=True)
def _partition(problem, guess, candidates, counts, touched, budget):
    """How ``guess`` splits the candidates: (parts, the counting bound of the guesses after it,
    its largest part but the win, whether it is a candidate). ``counts`` (one per feedback) must
    be all zero and is left so; ``touched`` is scratch of the same length. Only the feedbacks
    that occur are visited, so a node costs its candidates, not the game's feedbacks."""
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
            bound += least_total(problem.least, problem.reach, x, budget - 1)
            largest = max(largest, x)
    return k, bound, largest, candidate


# -- partitions --------------------------------------------------------------------------------

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
    h = _GOLD
    for c in candidates:
        h = (h ^ np.uint64(row[c])) * _M1
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


BLOCK = 256  # guesses scored together: their answers sit in cache while the candidates' rows stream by


@njit(cache=True, nogil=True)
def guess_bounds(problem, candidates, guesses, budget, largest_needed):
    """Per guess: the counting bound of the total after it (INF: a part cannot be won within
    ``budget - 1`` more guesses), its number of parts, whether it is a candidate, and (if
    ``largest_needed``, else -1) its largest part other than the win.

    The answers are read from ``by_secret``, a block of guesses at a time: each candidate's row
    streams through cache instead of one scattered byte per pair from every guess's row. When
    every part of k secrets costs exactly 2k - 1 guesses after (few candidates, many feedbacks)
    the bound only needs the number of parts, so only which answers occur is kept, as bits (the
    win's part has one secret: ``Solver`` checks that only a secret's own guess wins it)."""
    m, n = guesses.shape[0], candidates.shape[0]
    n_feedbacks, win, least = problem.n_feedbacks, problem.win, problem.least
    by_secret = problem.by_secret
    first = guesses[0] if m else 0
    contiguous = m > 0 and guesses[m - 1] - first == m - 1  # guesses[j] == first + j: read without an index
    for j in range(1, m if contiguous else 0):
        if guesses[j] != first + j:
            contiguous = False
            break
    cap = reachable(problem.reach, budget - 1)  # a bigger part cannot be won in time
    bounds = np.empty(m, np.int64)
    parts = np.empty(m, np.int64)
    largest = np.full(m, -1, np.int64)
    candidate = np.empty(m, np.bool_)
    one = np.uint64(1)
    if not largest_needed and n_feedbacks <= 256 and least[n] == 2 * n - 1 and n <= cap:
        words = 1 if n_feedbacks <= 64 else 4
        bits = np.zeros((BLOCK, words), np.uint64)
        win_word, win_bit = win >> 6, np.uint64(win & 63)
        for j0 in range(0, m, BLOCK):
            width = min(m - j0, BLOCK)
            bits[:] = 0
            for c in candidates:
                row = by_secret[c][first + j0:] if contiguous else by_secret[c]
                for j in range(width):
                    f = row[j] if contiguous else row[guesses[j0 + j]]
                    bits[j, f >> 6] |= one << np.uint64(f & 63)
            for j in range(width):
                k = 0
                for w in range(words):
                    k += _popcount(bits[j, w])
                won = (bits[j, win_word] >> win_bit) & one == one
                parts[j0 + j], candidate[j0 + j] = k, won
                bounds[j0 + j] = 3 * n - k - (1 if won else 0)  # n + the sum of 2k - 1 over the parts but the win
        return bounds, parts, candidate, largest
    if n_feedbacks <= 64 and n < 65536:
        counts = np.zeros((BLOCK, n_feedbacks), np.uint16)
        for j0 in range(0, m, BLOCK):
            width = min(m - j0, BLOCK)
            counts[:] = 0
            for c in candidates:
                row = by_secret[c][first + j0:] if contiguous else by_secret[c]
                for j in range(width):
                    counts[j, row[j] if contiguous else row[guesses[j0 + j]]] += 1
            for j in range(width):
                k, after, big = 0, 0, 0
                for f in range(n_feedbacks):
                    x = np.int64(counts[j, f])
                    if x:
                        k += 1
                        if f != win:
                            after += least[x] if x <= cap else INF
                            big = max(big, x)
                parts[j0 + j], candidate[j0 + j], bounds[j0 + j] = k, counts[j, win] > 0, min(n + after, INF)
                if largest_needed:
                    largest[j0 + j] = big
        return bounds, parts, candidate, largest
    counts1 = np.zeros(n_feedbacks, np.int64)
    touched = np.empty(n_feedbacks, np.int64)
    for j in range(m):
        parts[j], after, big, candidate[j] = _partition(problem, guesses[j], candidates, counts1, touched, budget)
        bounds[j] = min(n + after, INF)
        if largest_needed:
            largest[j] = big
    return bounds, parts, candidate, largest


# -- minimum total -----------------------------------------------------------------------------

CANDIDATES_FIRST = 48  # up to this many candidates, try them as guesses before the other guesses
LOOKAHEAD_MIN = 12  # parts at least this big get a bound from one guess's lookahead before any is searched


@njit(cache=True, nogil=True)
def lookahead_bound(problem, candidates, budget, played):
    """A lower bound on the least total of ``candidates`` within ``budget`` guesses: the table's,
    or the least over every guess of the candidates plus the counting bounds of its parts (what
    ``min_total`` would first compute there), which it stores in the table. Guesses alike by
    absent or unplayed symbols count once. For a search without a hint rule (with one it does not pay)."""
    least, reach, n = problem.least, problem.reach, candidates.shape[0]
    bound = least_total(least, reach, n, budget)
    if n <= 2 or budget < 2 or bound >= INF:
        return bound
    h1, h2 = set_key(candidates, budget if budget < n else UNLIMITED, np.uint64(0))
    data = probe(problem.table, h1, h2)
    if data != 0:
        if data_exact(data) or data_value(data) > bound:
            return data_value(data)
    everything = np.zeros(0, np.bool_)
    scan = kept_guesses(problem, _allowed(problem.matrix.shape[0], candidates, problem.secret_guess, problem.consistent),
                        everything, everything, absent_symbols(problem, candidates), unplayed_symbols(problem, played))
    totals, n_parts, candidate, _ = guess_bounds(problem, candidates, scan, budget, False)
    best = INF
    for j in range(scan.shape[0]):
        if (n_parts[j] > 1 or candidate[j]) and totals[j] < best:
            best = totals[j]
    if best > bound:
        store(problem.table, h1, h2, pack(min(best, INF), best >= INF, -1, n))
        bound = best
    return bound


@njit(cache=True, nogil=True)
def min_total(problem, candidates, budget, cutoff, mask, state, played):
    """The smallest total of any tree that wins every candidate within ``budget`` guesses,
    if it is below ``cutoff``; otherwise some lower bound that is at least ``cutoff``.

    ``mask`` (empty: all guesses) restricts this node's guesses to symmetry classes'
    representatives; ``state`` (empty: none) is the node's hint-rule state, which allows
    only some guesses (the candidates always) and is part of the node's key; ``played``: the
    symbols of the guesses on the path from the root, as bits (see ``lowest_renamed``). Among guesses
    of equal total the best is, canonically, a candidate first and then the lowest guess;
    an exact result is stored with that guess.
    """
    matrix, table, counters, win = problem.matrix, problem.table, problem.counters, problem.win
    least, reach, consistent = problem.least, problem.reach, problem.consistent
    n = candidates.shape[0]
    if n == 1:
        return 1 if budget >= 1 else INF
    if budget < 2:
        return INF
    if n == 2:
        return 3
    bound = least_total(least, reach, n, budget)
    if bound >= cutoff:
        return bound
    key_budget = budget if budget < n else UNLIMITED
    hinted = state.shape[0] > 0
    h1, h2 = set_key(candidates, key_budget, hint_salt(state))
    data = probe(table, h1, h2)
    if data != 0:
        counters[HITS] += 1
        if data_exact(data):
            return data_value(data)
        bound = max(bound, data_value(data))
        if bound >= cutoff:
            return bound
    if n <= problem.n_feedbacks and n <= PERFECT_MAX and bound == 2 * n - 1:
        own = np.sort(problem.secret_guess[candidates])  # the candidates as guesses, lowest first
        i = first_perfect(matrix, own, candidates, problem.n_feedbacks)
        if i >= 0:  # nothing beats 2n - 1, and the lowest perfect candidate is the canonical pick
            store(table, h1, h2, pack(2 * n - 1, True, own[i], n))
            return 2 * n - 1
    counters[NODES] += 1
    if problem.stop[0]:
        raise Stopped("stopped")
    n_guesses = matrix.shape[0]
    allowed = hint_allowed(state, problem.hint_codes, problem.letter_counts) if hinted and not consistent \
        else np.zeros(0, np.bool_)
    # phases: the candidates first when they are few (a good total from them may spare
    # scoring every other guess), then the rest
    first_phase = 1 if consistent or n > CANDIDATES_FIRST else 0
    blind = problem.least_blind[n]  # no guess outside the candidates does better
    best, best_key, best_guess = INF, 0, -1
    floor = INF  # the least bound among guesses not tried
    order_keys = np.empty(n_guesses, np.int64)
    order_ids = np.empty(n_guesses, np.int64)
    order_bounds = np.empty(n_guesses, np.int64)
    tried = np.empty(n_guesses, np.int64)
    tried_hash = np.empty(n_guesses, np.uint64)
    n_tried = 0
    known = np.empty(problem.n_feedbacks, np.int64)  # a guess's parts' lower bounds
    absent = absent_symbols(problem, candidates)  # the candidates themselves play none
    free = unplayed_symbols(problem, played)
    for phase in range(first_phase, 2):
        if phase == 1 and first_phase == 0 and best_guess >= 0 and best <= blind:
            break
        guesses = problem.secret_guess[candidates] if phase == 0 or consistent else np.arange(n_guesses)
        scan_limit = cutoff if best_guess < 0 else min(cutoff, best + 1)  # ties may still win
        scan = kept_guesses(problem, guesses, mask, allowed, absent, free)
        n_scan = scan.shape[0]
        totals, n_parts, candidates_too, _ = guess_bounds(problem, candidates, scan, budget, False)
        m = 0
        for j in range(n_scan):
            g, total, parts, candidate = scan[j], totals[j], n_parts[j], candidates_too[j]
            if phase == 1 and first_phase == 0 and candidate and _is_candidate(g, candidates, problem.guess_secret):
                continue  # done in phase 0
            if total >= scan_limit:
                floor = min(floor, total)
                continue
            if parts < 2 and not candidate:
                continue  # learns nothing
            order_keys[m] = (total * 2 + (0 if candidate else 1)) * n_guesses + g
            order_ids[m] = g
            order_bounds[m] = total
            m += 1
        order = np.argsort(order_keys[:m])
        for i in order:
            g, low, own_key = order_ids[i], order_bounds[i], order_keys[i] % (2 * n_guesses)
            limit = cutoff
            if best_guess >= 0:
                limit = min(cutoff, best + 1 if own_key < best_key else best)
                if low >= min(cutoff, best + 1):
                    break
            if low >= limit:
                floor = min(floor, low)
                continue
            if not hinted:  # with a hint rule, what a guess reveals matters beyond its partition
                repeat, n_tried = _repeats(matrix, g, candidates, tried, tried_hash, n_tried)
                if repeat:
                    continue
            ordered, parts = split(matrix, g, candidates, problem.n_feedbacks, win)
            played_after = played | problem.guess_symbols[g] if problem.renames else played
            total = low
            for p in range(parts.shape[0]):
                size = parts[p, 1]
                known[p] = least[size]
                # a lookahead on the parts but the first (whose own search starts with it), largest first
                if p > 0 and size >= LOOKAHEAD_MIN and total < limit and not hinted:
                    known[p] = lookahead_bound(problem, ordered[parts[p, 0]:parts[p, 0] + size], budget - 1,
                                               played_after)
                    total = min(total + known[p] - least[size], INF)
            for p in range(parts.shape[0]):
                if total >= limit:
                    break
                start, size = parts[p, 0], parts[p, 1]
                if size <= 2:
                    continue  # its bound is exact
                rest = total - known[p]
                part = ordered[start:start + size]
                child = hint_next(state, problem.hint_codes, problem.marks, g, matrix[g, part[0]]) if hinted else state
                value = min_total(problem, part, budget - 1, limit - rest, mask[:0], child, played_after)
                total = min(rest + value, INF)
            if total < limit:
                best, best_key, best_guess = total, own_key, g
            else:
                floor = min(floor, total)
    if best_guess >= 0:
        store(table, h1, h2, pack(best, True, best_guess, n))
        counters[STORES] += 1
        return best
    bound = max(bound, floor)
    store(table, h1, h2, pack(min(bound, INF), bound >= INF, -1, n))
    counters[STORES] += 1
    return bound


# -- minimum worst case ------------------------------------------------------------------------

# A worst-case entry knows low <= (fewest guesses that win every candidate) <= high (0: unknown)
# and the guess that achieved ``high``: value = low | high << 12.
@njit(cache=True, nogil=True)
def depths(data):
    value = data_value(data)
    return value & 0xFFF, value >> 12


@njit(cache=True, nogil=True)
def remember_depths(table, h1, h2, low, high, guess, n):
    old = probe(table, h1, h2)
    if old != 0:
        old_low, old_high = depths(old)
        low = max(low, old_low)
        if high == 0 or (old_high and old_high < high):
            high, guess = old_high, data_guess(old)
    store(table, h1, h2, pack(min(low, 0xFFF) | (min(high, 0xFFF) << 12), False, guess, n))


@njit(cache=True, nogil=True)
def any_perfect(by_secret, guesses, candidates, n_feedbacks):
    """The first of ``guesses`` that puts every candidate in a part of its own, or -1
    (``by_secret``: see ``Problem``)."""
    i = first_perfect(by_secret, guesses, candidates, n_feedbacks, True)
    return guesses[i] if i >= 0 else -1


@njit(cache=True, nogil=True)
def within(problem, candidates, depth, mask, state):
    """Is there a tree that wins every candidate within ``depth`` guesses? Branch and bound:
    the guesses with the smallest largest part first, a guess dropped as soon as one of its
    parts cannot be won in the guesses left (by counting, or by searching that part: the
    largest part first, so that failures come fast). ``mask`` (empty: all guesses) restricts
    this node's guesses to symmetry classes' representatives, ``state`` (empty: none) to
    what a hint rule allows (see ``min_total``).
    """
    matrix, table, counters, win, n_feedbacks = problem.matrix, problem.table, problem.counters, problem.win, \
        problem.n_feedbacks
    n = candidates.shape[0]
    if n == 1:
        return depth >= 1
    if n > reachable(problem.reach, depth) or depth < 2:
        return False
    n_guesses = matrix.shape[0]
    hinted = state.shape[0] > 0
    allowed = hint_allowed(state, problem.hint_codes, problem.letter_counts) if hinted and not problem.consistent \
        else np.zeros(0, np.bool_)
    guesses = kept_guesses(problem, _allowed(n_guesses, candidates, problem.secret_guess, problem.consistent), mask,
                           allowed, absent_symbols(problem, candidates), np.uint64(0))
    if depth == 2:  # only a guess that tells every candidate apart will do
        return any_perfect(problem.by_secret, guesses, candidates, n_feedbacks) >= 0
    h1, h2 = set_key(candidates, FEASIBLE_TAG, hint_salt(state))
    data = probe(table, h1, h2)
    if data != 0:
        counters[HITS] += 1
        low, high = depths(data)
        if high and high <= depth:
            return True
        if low > depth:
            return False
    counters[NODES] += 1
    if problem.stop[0]:
        raise Stopped("stopped")
    room = reachable(problem.reach, depth - 1)
    _, n_parts, candidates_too, largest_parts = guess_bounds(problem, candidates, guesses, depth, True)
    order_keys = np.empty(guesses.shape[0], np.int64)
    order_ids = np.empty(guesses.shape[0], np.int64)
    m = 0
    for j in range(guesses.shape[0]):
        g, parts, candidate, largest = guesses[j], n_parts[j], candidates_too[j], largest_parts[j]
        if (parts < 2 and not candidate) or largest > room:
            continue
        # smallest largest part, then most parts, then a candidate, then the lowest guess
        order_keys[m] = ((largest * (n_feedbacks + 1) + n_feedbacks - parts) * 2 + (0 if candidate else 1)) * n_guesses + g
        order_ids[m] = g
        m += 1
    order = np.argsort(order_keys[:m])
    tried = np.empty(m, np.int64)
    tried_hash = np.empty(m, np.uint64)
    n_tried = 0
    for i in order:
        g = order_ids[i]
        if not hinted:
            repeat, n_tried = _repeats(matrix, g, candidates, tried, tried_hash, n_tried)
            if repeat:
                continue
        ordered, parts = split(matrix, g, candidates, n_feedbacks, win)
        ok = True
        for p in range(parts.shape[0]):
            start, size = parts[p, 0], parts[p, 1]
            if size == 1:
                continue
            part = ordered[start:start + size]
            child = hint_next(state, problem.hint_codes, problem.marks, g, matrix[g, part[0]]) if hinted else state
            if not within(problem, part, depth - 1, mask[:0], child):
                ok = False
                break
        if ok:
            remember_depths(table, h1, h2, 0, depth, g, n)
            return True
    remember_depths(table, h1, h2, depth + 1, 0, -1, n)
    return False

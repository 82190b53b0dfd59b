"""Compiled inner loops (numba, cached on disk): feedback matrices and partition statistics.

Each kernel has a plain numpy twin in ``vectorised.py`` (partition statistics: ``reference.py``);
the test suite checks that both give the same numbers and identical trees, byte for byte. The
kernels on packed peg codes are ``packed.py``.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange, types
from numba.extending import intrinsic

from .statistic import CLOG_SCALE, CLOG_SUM, MAX_PART, PARTS, SUM_SQUARES

BLOCK = 2048  # guesses per block
KEY_CHUNK = 256  # candidates whose keys are made at once
PARALLEL_CELLS = 1 << 20  # below this, starting threads costs more than it saves


def peg_matrix(guesses, secrets, colours, table):
    """Feedback index of every (guess, secret) pair for (black, white) style games.

    ``guesses`` (G, H) and ``secrets`` (S, H) hold symbol indices, secrets in lexicographic
    order; ``table[black, white]`` is the feedback's index, of the matrix's type (uint8, or
    uint16 for the holes of more than 255 feedback values). White pegs are the multiset
    overlap minus the blacks. Consecutive secrets share prefixes, so only the positions
    after the shared prefix are rescored: about one position per pair instead of H. Small
    blocks (a single guess's answers, say) on this thread, as ``peg_matrix_packed``: starting
    the threads took 2.5 ms a call, most of a first-consistent build of 8 holes.
    """
    out = np.empty((guesses.shape[0], secrets.shape[0]), table.dtype)
    run = _peg_matrix_parallel if out.size >= PARALLEL_CELLS else _peg_matrix_serial
    run(guesses, secrets, colours, table, _shared_prefixes(secrets), out)
    return out


@njit(cache=True)
def _shared_prefixes(secrets):
    """Per secret, the length of the prefix it shares with the secret before it."""
    n_secrets, holes = secrets.shape
    shared = np.zeros(n_secrets, np.int64)
    for s in range(1, n_secrets):
        h = 0
        while h < holes and secrets[s, h] == secrets[s - 1, h]:
            h += 1
        shared[s] = h
    return shared


@njit(cache=True, inline="always")
def _peg_rows(guesses, secrets, colours, table, shared, out):
    n_guesses, holes = guesses.shape
    for g in prange(n_guesses):  # on threads where inlined into a parallel kernel
        guess = guesses[g]
        in_guess = np.zeros(colours, np.int64)
        for h in range(holes):
            in_guess[guess[h]] += 1
        in_secret = np.zeros(colours, np.int64)  # colour counts of the secret's scored prefix
        black = np.zeros(holes + 1, np.int64)  # black and common pegs of each prefix
        common = np.zeros(holes + 1, np.int64)
        row = out[g]
        for s in range(secrets.shape[0]):
            start = shared[s]
            if s > 0:
                for h in range(start, holes):
                    in_secret[secrets[s - 1, h]] -= 1
            for h in range(start, holes):
                c = secrets[s, h]
                black[h + 1] = black[h] + (1 if guess[h] == c else 0)
                common[h + 1] = common[h] + (1 if in_secret[c] < in_guess[c] else 0)
                in_secret[c] += 1
            row[s] = table[black[holes], common[holes] - black[holes]]


@njit(cache=True, parallel=True)
def _peg_matrix_parallel(guesses, secrets, colours, table, shared, out):
    _peg_rows(guesses, secrets, colours, table, shared, out)


@njit(cache=True)
def _peg_matrix_serial(guesses, secrets, colours, table, shared, out):
    _peg_rows(guesses, secrets, colours, table, shared, out)


@intrinsic
def _ctpop(typingctx, x):
    """The number of bits set in a 64-bit word: one instruction where the processor has it (LLVM's ``ctpop``)."""
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return types.uint64(types.uint64), codegen


@njit(cache=True)
def first_perfect(matrix, guess_ids, candidates, n_feedbacks, by_column=False):
    """The first of ``guess_ids`` that puts every candidate in a part of its own, or -1
    (``by_column``: ``matrix`` is read as ``matrix[secret, guess]``, see ``partition_stats``)."""
    seen = np.zeros(n_feedbacks, np.bool_)
    one = np.uint64(1)
    for i in range(guess_ids.shape[0]):
        g = guess_ids[i]
        perfect = True
        if n_feedbacks <= 64:  # the answers seen so far as bits of one word
            bits = np.uint64(0)
            for c in candidates:
                bit = one << np.uint64(matrix[c, g] if by_column else matrix[g, c])
                if bits & bit:
                    perfect = False
                    break
                bits |= bit
        else:
            seen[:] = False
            for c in candidates:
                f = matrix[c, g] if by_column else matrix[g, c]
                if seen[f]:
                    perfect = False
                    break
                seen[f] = True
        if perfect:
            return i
    return -1


@njit(cache=True, parallel=True)
def most_children(matrix, n_feedbacks, win):
    """The most distinct answers other than ``win`` in any row of ``matrix``: how many children a
    node can have at most besides its win (``exact.counting_tables``)."""
    most = np.zeros(matrix.shape[0], np.int64)
    for g in prange(matrix.shape[0]):
        seen = np.zeros(n_feedbacks, np.bool_)
        row = matrix[g]
        k = 0
        for s in range(row.shape[0]):
            f = row[s]
            if not seen[f]:
                seen[f] = True
                k += 1
        most[g] = k - (1 if seen[win] else 0)
    return most.max() if matrix.shape[0] else 0


@njit(cache=True, parallel=True)
def most_children_by_class(by_secret, secret_class, n_classes, n_feedbacks, win):
    """Per class of secrets (``secret_class``: each secret's, from 0 to ``n_classes`` - 1), the most
    distinct answers other than ``win`` that any guess gets on the class's secrets (``by_secret``:
    [secret, guess]): ``most_children`` of each class."""
    order = np.argsort(secret_class, kind="mergesort")
    starts = np.searchsorted(secret_class[order], np.arange(n_classes + 1))
    n_guesses, words = by_secret.shape[1], (n_feedbacks + 63) // 64
    win_word, win_bit, one = win >> 6, np.uint64(win & 63), np.uint64(1)
    most = np.zeros(n_classes, np.int64)
    for k in prange(n_classes):
        bits = np.zeros((n_guesses, words), np.uint64)  # which answers each guess gets on the class
        for i in range(starts[k], starts[k + 1]):
            row = by_secret[order[i]]
            for g in range(n_guesses):
                f = row[g]
                bits[g, f >> 6] |= one << np.uint64(f & 63)
        for g in range(n_guesses):
            answers = 0
            for w in range(words):
                answers += _popcount(bits[g, w])
            most[k] = max(most[k], answers - np.int64((bits[g, win_word] >> win_bit) & one))
    return most


@njit(cache=True, inline="always")
def _reduce(counts, statistic, clog):
    """One guess's partition counts -> (statistic, number of parts)."""
    acc = 0
    p = 0
    for f in range(counts.shape[0]):
        x = counts[f]
        if x:
            p += 1
            if statistic == CLOG_SUM:
                acc += clog[x]
            elif statistic == MAX_PART:
                if x > acc:
                    acc = x
            elif statistic == SUM_SQUARES:
                acc += x * x
    return (p if statistic == PARTS else acc), p


@njit(cache=True, inline="always")
def _popcount(x):
    return np.int64(_ctpop(x))


@njit(cache=True)
def _rows_block(matrix, guess_ids, candidates, n_feedbacks, statistic, clog, stats, parts, lo, hi):
    if statistic == PARTS and n_feedbacks <= 64:  # only which answers occur: the bits of one word
        one = np.uint64(1)
        for i in range(lo, hi):
            row = matrix[guess_ids[i]]
            bits = np.uint64(0)
            for c in candidates:
                bits |= one << np.uint64(row[c])
            stats[i] = parts[i] = _popcount(bits)
        return
    counts = np.zeros(n_feedbacks, np.int64)
    for i in range(lo, hi):
        row = matrix[guess_ids[i]]
        counts[:] = 0
        for c in candidates:
            counts[row[c]] += 1
        stats[i], parts[i] = _reduce(counts, statistic, clog)


@njit(cache=True)
def _columns_block(columns, guess_ids, candidates, n_feedbacks, statistic, clog, stats, parts, lo, hi):
    """``_rows_block`` on the transposed matrix: for each guess the few candidates' rows are
    read at the guess's column, and as the guesses advance those rows stream through cache."""
    if statistic == PARTS and n_feedbacks <= 64:
        one = np.uint64(1)
        for i in range(lo, hi):
            g = guess_ids[i]
            bits = np.uint64(0)
            for c in candidates:
                bits |= one << np.uint64(columns[c, g])
            stats[i] = parts[i] = _popcount(bits)
        return
    counts = np.zeros(n_feedbacks, np.int64)
    for i in range(lo, hi):
        g = guess_ids[i]
        counts[:] = 0
        for c in candidates:
            counts[columns[c, g]] += 1
        stats[i], parts[i] = _reduce(counts, statistic, clog)


@njit(cache=True, inline="always")
def _blocks(by_column, matrix, guess_ids, candidates, n_feedbacks, statistic, clog, stats, parts):
    m = guess_ids.shape[0]
    for b in prange((m + BLOCK - 1) // BLOCK):  # on threads where inlined into a parallel kernel
        lo, hi = b * BLOCK, min(m, (b + 1) * BLOCK)
        if by_column:
            _columns_block(matrix, guess_ids, candidates, n_feedbacks, statistic, clog, stats, parts, lo, hi)
        else:
            _rows_block(matrix, guess_ids, candidates, n_feedbacks, statistic, clog, stats, parts, lo, hi)


@njit(cache=True, parallel=True)
def _parallel(by_column, matrix, guess_ids, candidates, n_feedbacks, statistic, clog, stats, parts):
    _blocks(by_column, matrix, guess_ids, candidates, n_feedbacks, statistic, clog, stats, parts)


@njit(cache=True)
def _serial(by_column, matrix, guess_ids, candidates, n_feedbacks, statistic, clog, stats, parts):
    _blocks(by_column, matrix, guess_ids, candidates, n_feedbacks, statistic, clog, stats, parts)


def partition_stats(matrix, guess_ids, candidates, n_feedbacks, statistic, clog, by_column=False, threads=True):
    """For each guess, reduce its partition of ``candidates`` to one int, and count its parts.

    ``matrix[guess, secret]`` holds feedback indices; with ``by_column`` it is read as
    ``matrix[secret, guess]`` (the transposed matrix, or the matrix itself when the score is
    symmetric): for few candidates that streams a few rows through cache instead of
    gathering one scattered byte per pair from every guess's row.

    ``clog[c]`` is ``c * log2(c)`` in fixed point, so that sums are exact integers and two
    partitions with the same multiset of part sizes get exactly the same statistic.
    """
    stats = np.zeros(len(guess_ids), np.int64)
    parts = np.zeros(len(guess_ids), np.int64)
    run = _parallel if threads and len(guess_ids) * len(candidates) >= PARALLEL_CELLS else _serial
    run(by_column, matrix, guess_ids, candidates, n_feedbacks, statistic, clog, stats, parts)
    return stats, parts


# -- weighted games: each candidate counts its weight (a whole number) in its part -------------

@njit(cache=True, inline="always")
def _reduce_weighted(counts, statistic):
    """One guess's partition by weight -> (statistic, number of parts): ``statistic.weighted_value``."""
    acc = 0.0
    p = 0
    for f in range(counts.shape[0]):
        x = counts[f]
        if x:
            p += 1
            w = np.float64(x)
            if statistic == CLOG_SUM:
                acc += w * np.log2(w)
            elif statistic == MAX_PART:
                if w > acc:
                    acc = w
            elif statistic == SUM_SQUARES:
                acc += w * w
    if statistic == CLOG_SUM:
        acc *= CLOG_SCALE
    return (np.float64(p) if statistic == PARTS else acc), p


@njit(cache=True, inline="always")
def _weighted_blocks(by_column, matrix, guess_ids, candidates, weights, n_feedbacks, statistic, stats, parts):
    m = guess_ids.shape[0]
    for b in prange((m + BLOCK - 1) // BLOCK):  # on threads where inlined into a parallel kernel
        counts = np.zeros(n_feedbacks, np.int64)
        for i in range(b * BLOCK, min(m, (b + 1) * BLOCK)):
            g = guess_ids[i]
            counts[:] = 0
            if by_column:
                for k in range(candidates.shape[0]):
                    counts[matrix[candidates[k], g]] += weights[k]
            else:
                row = matrix[g]
                for k in range(candidates.shape[0]):
                    counts[row[candidates[k]]] += weights[k]
            stats[i], parts[i] = _reduce_weighted(counts, statistic)


@njit(cache=True, parallel=True)
def _weighted_parallel(by_column, matrix, guess_ids, candidates, weights, n_feedbacks, statistic, stats, parts):
    _weighted_blocks(by_column, matrix, guess_ids, candidates, weights, n_feedbacks, statistic, stats, parts)


@njit(cache=True)
def _weighted_serial(by_column, matrix, guess_ids, candidates, weights, n_feedbacks, statistic, stats, parts):
    _weighted_blocks(by_column, matrix, guess_ids, candidates, weights, n_feedbacks, statistic, stats, parts)


def weighted_partition_stats(matrix, guess_ids, candidates, weights, n_feedbacks, statistic, by_column=False,
                             threads=True):
    """``partition_stats`` of a weighted game: each of ``candidates`` counts its weight (``weights``,
    whole numbers, one per candidate in their order) in its part, and the statistic is a float64
    (``statistic.weighted_value``); and the parts."""
    stats = np.zeros(len(guess_ids), np.float64)
    parts = np.zeros(len(guess_ids), np.int64)
    run = _weighted_parallel if threads and len(guess_ids) * len(candidates) >= PARALLEL_CELLS else _weighted_serial
    run(by_column, matrix, guess_ids, candidates, np.asarray(weights, np.int64), n_feedbacks, statistic, stats, parts)
    return stats, parts


@njit(cache=True)
def canonical_pick(guess_ids, scores, marked, parts, tie):
    """The spec's tie-break over ``guess_ids`` (``marked[guess]``: is it a candidate; ``parts``:
    how many parts each makes): the best score of a useful guess (a candidate, or of two parts or
    more), ties within a relative ``tie``, then a candidate, then the lowest guess; -1 if none is
    useful. Two passes, with nothing made per guess."""
    found, best = False, -np.inf
    for i in range(guess_ids.shape[0]):
        if (parts[i] > 1 or marked[guess_ids[i]]) and (not found or scores[i] > best):
            found, best = True, scores[i]
    if not found:
        return -1
    least = best - tie * abs(best)
    chosen, of_candidate = -1, False
    for i in range(guess_ids.shape[0]):
        g = guess_ids[i]
        candidate = marked[g]
        if not (parts[i] > 1 or candidate) or scores[i] < least:
            continue
        if candidate and not of_candidate:  # a candidate beats every guess that is not one
            chosen, of_candidate = g, True
        elif candidate == of_candidate and (chosen < 0 or g < chosen):
            chosen = g
    return chosen


@njit(cache=True, parallel=True)
def word_matrix(guesses, secrets, table):
    """Feedback index of every (guess, word) pair for word games: per position 2 exact,
    1 present (at most as often as the letter is unmatched in the secret, left to right),
    0 absent; ``table`` maps the base-3 number of the marks to the feedback's index (of the
    matrix's type: uint16 from 6 letters on, whose 3 ** 6 marks exceed a byte).

    A guess against all the words at once, position by position, over the words' letters by
    column (loops that vectorise): a letter off its place is present when the words hold more of
    it off the exact places than the guess played before it off theirs."""
    n_guesses, length = guesses.shape
    n = secrets.shape[0]
    out = np.empty((n_guesses, n), table.dtype)
    columns = np.ascontiguousarray(secrets.T)
    for g in prange(n_guesses):
        guess = guesses[g]
        # bytes, and codes of 16 bits (3 ** 10 marks at most): the loops then run 32 or 16 lanes at
        # a time where 64-bit ones ran 4 (Wordle's matrix 4.6 times faster)
        exact = np.empty((length, n), np.uint8)
        codes = np.zeros(n, np.uint16)
        unmatched = np.empty(n, np.uint8)  # of the letter played: the word's, off the exact places
        earlier = np.empty(n, np.uint8)  # the guess's before this place, off the exact ones
        for i in range(length):
            letter, column, row = guess[i], columns[i], exact[i]
            for s in range(n):
                row[s] = column[s] == letter
        for i in range(length):
            letter = guess[i]
            unmatched[:] = 0
            for p in range(length):
                column, row = columns[p], exact[p]
                for s in range(n):
                    unmatched[s] += (column[s] == letter) & (row[s] ^ 1)
            earlier[:] = 0
            for j in range(i):
                if guess[j] == letter:
                    row = exact[j]
                    for s in range(n):
                        earlier[s] += row[s] ^ 1
            row = exact[i]
            for s in range(n):
                codes[s] = codes[s] * 3 + (2 if row[s] else (1 if unmatched[s] > earlier[s] else 0))
        for s in range(n):
            out[g, s] = table[codes[s]]
    return out


# -- symmetry (the builder's classes, and the exact search's) ---------------------------------

@njit(cache=True)
def canonical_under(codes, perms, maps, used):
    """Mark each code that is the lowest of its class under a group of symmetries that fix the
    history. Symmetry p moves position ``perms[p, h]`` to h and renames each colour c that
    the history used to ``maps[p, c]``; the other colours may be renamed freely, so they take
    the lowest free names in order of first appearance. Codes are in lexicographic order, so
    the lowest of a class is its canonical representative."""
    n_codes, holes = codes.shape
    colours = used.shape[0]
    free = np.empty(colours, np.int64)
    n_free = 0
    for c in range(colours):
        if not used[c]:
            free[n_free] = c
            n_free += 1
    keep = np.ones(n_codes, np.bool_)
    named = np.empty(colours, np.int64)
    for g in range(n_codes):
        for p in range(perms.shape[0]):
            named[:] = -1
            fresh = 0
            for h in range(holes):
                c = codes[g, perms[p, h]]
                if used[c]:
                    image = maps[p, c]
                else:
                    if named[c] < 0:
                        named[c] = free[fresh]
                        fresh += 1
                    image = named[c]
                if image != codes[g, h]:
                    if image < codes[g, h]:
                        keep[g] = False
                    break
            if not keep[g]:
                break
    return keep


@njit(cache=True, parallel=True)
def transposed(matrix):
    """``matrix.T`` as a contiguous array, copied in tiles that stay in cache (numpy's copy
    reads or writes one byte per cache line)."""
    rows, columns = matrix.shape
    out = np.empty((columns, rows), matrix.dtype)
    tile = 64
    for r0 in prange((rows + tile - 1) // tile):
        r = r0 * tile
        for c in range(0, columns, tile):
            for i in range(r, min(rows, r + tile)):
                for j in range(c, min(columns, c + tile)):
                    out[j, i] = matrix[i, j]
    return out

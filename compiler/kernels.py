"""Compiled inner loops (numba, cached on disk): feedback matrices and partition statistics.

Each kernel has a plain numpy twin in ``vectorised.py`` (partition statistics: ``reference.py``);
the test suite checks that both give the same numbers and identical trees, byte for byte. The
kernels on packed peg codes (``peg_matrix_packed``, ``packed_partition_stats``) are the compiled
engine's own way to the same numbers, checked against the numpy engine's matrix.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from .statistic import CLOG_SUM, MAX_PART, PARTS, SUM_SQUARES

BLOCK = 2048  # guesses per block
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


NIBBLES_LOW = np.uint64(0x1111111111111111)
NIBBLES_HIGH = np.uint64(0x8888888888888888)
BYTES_LOW = np.uint64(0x0F0F0F0F0F0F0F0F)
BYTES_ONE = np.uint64(0x0101010101010101)
BYTES_HIGH = np.uint64(0x8080808080808080)
WIDE_HOLES, WIDE_COLOURS = 8, 8  # packed with a byte per colour's count (a count of 8 needs more than a nibble)


def packs(holes: int, colours: int) -> bool:
    """Can codes of this many holes and colours be packed (``pack_nibbles``)?"""
    return colours <= 16 and holes <= 7 or holes == WIDE_HOLES and colours <= WIDE_COLOURS


def key_count(holes: int) -> int:
    """How many keys ``_peg_key`` gives for codes of ``holes``: ``black << 3 | common`` up to 7
    holes, ``black * 9 + common`` for 8 (``wide``)."""
    return 81 if holes == WIDE_HOLES else 64


def peg_key(black: int, common: int, holes: int) -> int:
    """``_peg_key``'s key of a (black, common) pair, as Python computes it (for tables)."""
    return black * 9 + common if holes == WIDE_HOLES else black << 3 | common


def pack_nibbles(codes: np.ndarray, colours: int) -> tuple[np.ndarray, np.ndarray]:
    """Each code as two words: the colour per position (4 bits each), the count per colour (4
    bits each up to 7 holes; a byte each for 8 holes of at most 8 colours)."""
    n, holes = codes.shape
    width = 8 if holes == WIDE_HOLES else 4
    shifts = np.arange(16, dtype=np.uint64)
    positions = (codes.astype(np.uint64) << (4 * shifts)[:holes]).sum(axis=1, dtype=np.uint64)
    counts = np.zeros(n, dtype=np.uint64)
    for c in range(colours):
        counts += (codes == c).sum(axis=1).astype(np.uint64) << (width * shifts)[c]
    return positions, counts


@njit(cache=True, inline="always")
def _peg_key(position, count, other_position, other_count, low, wide):
    """One (black, common) pair from packed words, as ``black << 3 | common`` (< 64 for up to 7
    holes), or for 8 holes (``wide``, counts in bytes) as ``black * 9 + common`` (< 81): blacks
    are the zero nibbles of the XOR of positions, the common colours the sum of per-field
    minimums of the counts. Branch-free, so loops over candidates vectorise (``wide`` is fixed
    in each loop: a caller passes a constant)."""
    z = ~(position ^ other_position)
    t = z & (z >> np.uint64(1)) & (z >> np.uint64(2)) & (z >> np.uint64(3)) & low
    black = (t * NIBBLES_LOW) >> np.uint64(60)
    if wide:
        d = (count | BYTES_HIGH) - other_count
        m = ((d & BYTES_HIGH) >> np.uint64(7)) * np.uint64(255)
        least = (other_count & m) | (count & ~m)
        common = (least * BYTES_ONE) >> np.uint64(56)
        return (black << np.uint64(3)) + black + common
    d = (count | NIBBLES_HIGH) - other_count
    m = ((d & NIBBLES_HIGH) >> np.uint64(3)) * np.uint64(15)
    least = (other_count & m) | (count & ~m)
    y = (least & BYTES_LOW) + ((least >> np.uint64(4)) & BYTES_LOW)
    common = (y * BYTES_ONE) >> np.uint64(56)
    return (black << np.uint64(3)) | common


_LOW_NIBBLES = np.array([sum(1 << 4 * h for h in range(holes)) for holes in range(9)], np.uint64)  # by holes (up to 8)


@njit(cache=True, inline="always")
def _is_wide(low):
    """Codes of 8 holes (``low``: their positions' low nibbles, ``_LOW_NIBBLES[8]``)?"""
    return (low >> np.uint64(4 * (WIDE_HOLES - 1))) != np.uint64(0)


@njit(cache=True, inline="always")
def _packed_row(guess_position, guess_count, secret_positions, secret_counts, low, table, row):
    if _is_wide(low):
        for s in range(secret_positions.shape[0]):
            row[s] = table[_peg_key(guess_position, guess_count, secret_positions[s], secret_counts[s], low, True)]
    else:
        for s in range(secret_positions.shape[0]):
            row[s] = table[_peg_key(guess_position, guess_count, secret_positions[s], secret_counts[s], low, False)]


@njit(cache=True, inline="always")
def _packed_rows(guess_positions, guess_counts, secret_positions, secret_counts, low, table, out):
    for g in prange(guess_positions.shape[0]):  # on threads where inlined into a parallel kernel
        _packed_row(guess_positions[g], guess_counts[g], secret_positions, secret_counts, low, table, out[g])


# Each body that may run on threads is written once, inline, and compiled twice: on threads
# (``parallel=True``: its prange loop is split among them) and on the calling thread alone.

@njit(cache=True, parallel=True)
def _packed_matrix_parallel(guess_positions, guess_counts, secret_positions, secret_counts, low, table, out):
    _packed_rows(guess_positions, guess_counts, secret_positions, secret_counts, low, table, out)


@njit(cache=True)
def _packed_matrix_serial(guess_positions, guess_counts, secret_positions, secret_counts, low, table, out):
    _packed_rows(guess_positions, guess_counts, secret_positions, secret_counts, low, table, out)


def peg_matrix_packed(guess_positions, guess_counts, secret_positions, secret_counts, holes, table):
    """``peg_matrix`` for the codes that pack (``packs``), on packed words (``pack_nibbles``):
    ``table[key]`` is the feedback's index (``peg_key``). Small blocks (a single guess's
    answers, say) on this thread: a parallel region's threads spin a while after it ends, which
    costs dearly in worker processes that share the cores."""
    out = np.empty((len(guess_positions), len(secret_positions)), np.uint8)
    run = _packed_matrix_parallel if out.size >= PARALLEL_CELLS else _packed_matrix_serial
    run(guess_positions, guess_counts, secret_positions, secret_counts, _LOW_NIBBLES[holes], table, out)
    return out


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


_POP1, _POP2 = np.uint64(0x5555555555555555), np.uint64(0x3333333333333333)
_POP4, _POP_SUM = np.uint64(0x0F0F0F0F0F0F0F0F), np.uint64(0x0101010101010101)


@njit(cache=True, inline="always")
def _popcount(x):
    x = x - ((x >> np.uint64(1)) & _POP1)
    x = (x & _POP2) + ((x >> np.uint64(2)) & _POP2)
    x = (x + (x >> np.uint64(4))) & _POP4
    return np.int64((x * _POP_SUM) >> np.uint64(56))


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


# -- partitions straight from packed peg codes, with no matrix --------------------------------

@njit(cache=True)
def _packed_block(guess_positions, guess_counts, guess_ids, positions, counts, low, statistic, clog,
                  stats, parts, lo, hi, stop):
    """``_rows_block`` with each answer computed from the codes (``positions``/``counts``: the
    candidates' words) instead of read from a matrix. ``stop`` > 0: the block ends at its first
    guess of ``stop`` parts, whose index it returns (else ``hi``)."""
    one, wide = np.uint64(1), _is_wide(low)
    n = positions.shape[0]
    if statistic == PARTS:  # which answers occur: one bit per (black, common) key, in two words for 8 holes
        for i in range(lo, hi):
            g = guess_ids[i]
            position, count = guess_positions[g], guess_counts[g]
            bits = above = np.uint64(0)
            if wide:
                for j in range(n):
                    key = _peg_key(position, count, positions[j], counts[j], low, True)
                    high = key >> np.uint64(6)  # 1 for a key of 64 or more
                    bit = one << (key & np.uint64(63))
                    bits |= bit & (high - one)
                    above |= bit & (np.uint64(0) - high)
            else:
                for j in range(n):
                    bits |= one << _peg_key(position, count, positions[j], counts[j], low, False)
            stats[i] = parts[i] = _popcount(bits) + _popcount(above)
            if stop and parts[i] == stop:
                return i
        return hi
    keys = np.empty(n, np.uint64)
    by_key = np.zeros(81 if wide else 64, np.int64)
    for i in range(lo, hi):
        g = guess_ids[i]
        position, count = guess_positions[g], guess_counts[g]
        if wide:  # the keys first (vectorised), then the counts
            for j in range(n):
                keys[j] = _peg_key(position, count, positions[j], counts[j], low, True)
        else:
            for j in range(n):
                keys[j] = _peg_key(position, count, positions[j], counts[j], low, False)
        by_key[:] = 0
        for j in range(n):
            by_key[keys[j]] += 1
        stats[i], parts[i] = _reduce(by_key, statistic, clog)
        if stop and parts[i] == stop:
            return i
    return hi


@njit(cache=True, inline="always")
def _packed_blocks(guess_positions, guess_counts, guess_ids, positions, counts, low, statistic, clog, stats, parts,
                   stop, ends):
    """Block by block; ``ends[b]`` (``m`` when called): where block ``b`` stopped (``stop``). A block
    after one that stopped is skipped: on one thread always; on threads when that one is seen
    done, for the first guess of ``stop`` parts is still the least of the ends."""
    m = guess_ids.shape[0]
    for b in prange((m + BLOCK - 1) // BLOCK):  # on threads where inlined into a parallel kernel
        if stop and b and ends[b - 1] < m:
            ends[b] = ends[b - 1]
            continue
        lo, hi = b * BLOCK, min(m, (b + 1) * BLOCK)
        end = _packed_block(guess_positions, guess_counts, guess_ids, positions, counts, low, statistic, clog,
                            stats, parts, lo, hi, stop)
        if end < hi:
            ends[b] = end


@njit(cache=True, parallel=True)
def _packed_parallel(guess_positions, guess_counts, guess_ids, positions, counts, low, statistic, clog, stats, parts,
                     stop, ends):
    _packed_blocks(guess_positions, guess_counts, guess_ids, positions, counts, low, statistic, clog, stats, parts,
                   stop, ends)


@njit(cache=True)
def _packed_serial(guess_positions, guess_counts, guess_ids, positions, counts, low, statistic, clog, stats, parts,
                   stop, ends):
    _packed_blocks(guess_positions, guess_counts, guess_ids, positions, counts, low, statistic, clog, stats, parts,
                   stop, ends)


def packed_partition_stats(guess_words, secret_words, holes, guess_ids, candidates, statistic, clog, threads=True,
                           stop=0):
    """``partition_stats`` for a peg game scored from packed words (``pack_nibbles``: the guesses'
    and the secrets' position and count words), with no matrix: each answer costs about as much
    as reading it from one, and nothing is made beforehand.

    Returns ``(stats, parts, first)``: with ``stop`` > 0, ``first`` is the index of the first
    guess of ``stop`` parts (the stats of those after it are left unmade), else -1."""
    m = len(guess_ids)
    stats = np.zeros(m, np.int64)
    parts = np.zeros(m, np.int64)
    ends = np.full((m + BLOCK - 1) // BLOCK, m, np.int64)
    positions, counts = secret_words[0][candidates], secret_words[1][candidates]
    run = _packed_parallel if threads and m * len(candidates) >= PARALLEL_CELLS else _packed_serial
    run(guess_words[0], guess_words[1], guess_ids, positions, counts, _LOW_NIBBLES[holes], statistic, clog, stats,
        parts, stop, ends)
    first = int(ends.min()) if len(ends) else m
    return stats, parts, first if first < m else -1


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

"""Compiled kernels on packed peg codes (numba, cached on disk): a peg game's codes packed in two
64-bit words each (``pack_codes``), its matrix made from them (``peg_matrix_packed``) and, with no
matrix at all, every guess's partition of the candidates scored straight from the words
(``packed_partition_stats``; entropy's pick over them is ``least_sums.py``). The
compiled engine's own way to the numbers of ``kernels.py``, checked against the numpy engine's
matrix by the tests.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from .kernels import BLOCK, KEY_CHUNK, PARALLEL_CELLS, _ctpop, _popcount, _reduce
from .statistic import CLOG_SUM, MAX_PART, PARTS, SUM_SQUARES

NIBBLES_LOW = np.uint64(0x1111111111111111)
NIBBLES_HIGH = np.uint64(0x8888888888888888)
BYTES_LOW = np.uint64(0x0F0F0F0F0F0F0F0F)
BYTES_ONE = np.uint64(0x0101010101010101)
WIDE_HOLES = 8  # keys of (black, common) pairs past 64: two words of bits
LEVEL_CHUNK = 255  # candidates counted a byte per level at a time (then added into 16-bit totals)
EVEN_BYTES = np.uint64(0x00FF00FF00FF00FF)
UNARY, UNARY_WIDE = np.uint64(0), np.uint64(1)  # layouts of unary words (``pack_codes``), of up to 7 holes or 8


def packs(holes: int, colours: int) -> bool:
    """Can codes of this many holes and colours be packed (``pack_codes``)?"""
    return unary(holes, colours) or colours <= 16 and holes <= 7


def unary(holes: int, colours: int) -> bool:
    """Are they packed in unary words, a bit per (colour, hole) (keys of up to 8 holes)?"""
    return holes <= WIDE_HOLES and holes * colours <= 64


def key_count(holes: int) -> int:
    """How many keys ``_peg_key`` gives for codes of ``holes``: ``black << 3 | common`` up to 7
    holes, ``black * 9 + common`` for 8 (``wide``)."""
    return 81 if holes == WIDE_HOLES else 64


def peg_key(black: int, common: int, holes: int) -> int:
    """``_peg_key``'s key of a (black, common) pair, as Python computes it (for tables)."""
    return black * 9 + common if holes == WIDE_HOLES else black << 3 | common


def pack_codes(codes: np.ndarray, colours: int) -> tuple[tuple[np.ndarray, np.ndarray], np.uint64]:
    """Each code as two words, and their layout (what the kernels on packed words take):
    - ``unary`` ones (``UNARY``, or ``UNARY_WIDE`` for 8 holes): a bit per (colour, hole) that
      the code plays, and per colour as many low bits of its field as the code has pegs of it,
      so that a pair's blacks are the bits that the first words share, its common colours the bits
      that the second words share;
    - else, up to 7 holes and 16 colours, nibbles: the colour per hole and the count per colour in
      4 bits each; the layout is then the mask of the holes' low nibbles."""
    n, holes = codes.shape
    one = np.uint64(1)
    positions = np.zeros(n, dtype=np.uint64)
    counts = np.zeros(n, dtype=np.uint64)
    if unary(holes, colours):
        for h in range(holes):
            positions |= one << (codes[:, h].astype(np.uint64) * np.uint64(holes) + np.uint64(h))
        for c in range(colours):
            pegs = (codes == c).sum(axis=1).astype(np.uint64)
            counts |= ((one << pegs) - one) << np.uint64(c * holes)
        return (positions, counts), (UNARY_WIDE if holes == WIDE_HOLES else UNARY)
    for h in range(holes):
        positions |= codes[:, h].astype(np.uint64) << np.uint64(4 * h)
    for c in range(colours):
        counts |= (codes == c).sum(axis=1).astype(np.uint64) << np.uint64(4 * c)
    return (positions, counts), np.uint64(sum(1 << 4 * h for h in range(holes)))


@njit(cache=True, inline="always")
def _peg_key(position, count, other_position, other_count, layout, unary, wide):
    """One (black, common) pair from packed words (``pack_codes``), as ``black << 3 | common``
    (< 64 for up to 7 holes), or for 8 holes (``wide``) as ``black * 9 + common`` (< 81). In unary
    words, the bits shared; in nibbles, the blacks are the zero nibbles of the XOR of positions,
    the common colours the sum of per-colour minimums of the counts. Branch-free, so loops over
    candidates vectorise (``unary`` and ``wide`` are fixed in each loop: a caller passes constants)."""
    if unary:
        black, common = _ctpop(position & other_position), _ctpop(count & other_count)
        if wide:
            return (black << np.uint64(3)) + black + common
        return (black << np.uint64(3)) | common
    z = ~(position ^ other_position)
    t = z & (z >> np.uint64(1)) & (z >> np.uint64(2)) & (z >> np.uint64(3)) & layout
    black = (t * NIBBLES_LOW) >> np.uint64(60)
    d = (count | NIBBLES_HIGH) - other_count
    m = ((d & NIBBLES_HIGH) >> np.uint64(3)) * np.uint64(15)
    least = (other_count & m) | (count & ~m)
    y = (least & BYTES_LOW) + ((least >> np.uint64(4)) & BYTES_LOW)
    common = (y * BYTES_ONE) >> np.uint64(56)
    return (black << np.uint64(3)) | common


@njit(cache=True, inline="always")
def _packed_row(guess_position, guess_count, secret_positions, secret_counts, layout, table, row):
    n = secret_positions.shape[0]
    if layout == UNARY_WIDE:
        for s in range(n):
            row[s] = table[_peg_key(guess_position, guess_count, secret_positions[s], secret_counts[s], layout, True,
                                    True)]
    elif layout == UNARY:
        for s in range(n):
            row[s] = table[_peg_key(guess_position, guess_count, secret_positions[s], secret_counts[s], layout, True,
                                    False)]
    else:
        for s in range(n):
            row[s] = table[_peg_key(guess_position, guess_count, secret_positions[s], secret_counts[s], layout, False,
                                    False)]


@njit(cache=True, inline="always")
def _packed_rows(guess_positions, guess_counts, secret_positions, secret_counts, layout, table, out):
    for g in prange(guess_positions.shape[0]):  # on threads where inlined into a parallel kernel
        _packed_row(guess_positions[g], guess_counts[g], secret_positions, secret_counts, layout, table, out[g])


# Each body that may run on threads is written once, inline, and compiled twice: on threads
# (``parallel=True``: its prange loop is split among them) and on the calling thread alone.

@njit(cache=True, parallel=True)
def _packed_matrix_parallel(guess_positions, guess_counts, secret_positions, secret_counts, layout, table, out):
    _packed_rows(guess_positions, guess_counts, secret_positions, secret_counts, layout, table, out)


@njit(cache=True)
def _packed_matrix_serial(guess_positions, guess_counts, secret_positions, secret_counts, layout, table, out):
    _packed_rows(guess_positions, guess_counts, secret_positions, secret_counts, layout, table, out)


def peg_matrix_packed(guess_positions, guess_counts, secret_positions, secret_counts, layout, table):
    """``peg_matrix`` for the codes that pack (``packs``), on packed words of ``layout`` (``pack_codes``):
    ``table[key]`` is the feedback's index (``peg_key``). Small blocks (a single guess's
    answers, say) on this thread: a parallel region's threads spin a while after it ends, which
    costs dearly in worker processes that share the cores."""
    out = np.empty((len(guess_positions), len(secret_positions)), np.uint8)
    run = _packed_matrix_parallel if out.size >= PARALLEL_CELLS else _packed_matrix_serial
    run(guess_positions, guess_counts, secret_positions, secret_counts, layout, table, out)
    return out


# -- partitions straight from packed peg codes, with no matrix --------------------------------

@njit(cache=True)
def _packed_block(guess_positions, guess_counts, guess_ids, positions, counts, layout, statistic, clog, levels,
                  stats, parts, lo, hi, stop, pick_only):
    """``_rows_block`` with each answer computed from the codes (``positions``/``counts``: the
    candidates' words) instead of read from a matrix. ``stop`` > 0: the block ends at its first
    guess of ``stop`` parts, whose index it returns (else ``hi``). ``pick_only`` (minimax): a guess
    is dropped once a part of it is larger than the largest part of a guess before it in the block
    (see ``packed_partition_stats``). ``levels`` (entropy's parts, ``least_sums._least_clog_only``): a closer
    least sum of c log c than the parts allow, by ``_levels_block``."""
    one, wide = np.uint64(1), layout == UNARY_WIDE
    n = positions.shape[0]
    if statistic == PARTS and levels:
        _levels_block(guess_positions, guess_counts, guess_ids, positions, counts, layout, clog, stats, parts, lo, hi)
        for i in range(lo, hi):
            if stop and parts[i] == stop:
                return i
        return hi
    if statistic == PARTS:  # which answers occur: one bit per (black, common) key, in two words for 8 holes
        for i in range(lo, hi):
            g = guess_ids[i]
            position, count = guess_positions[g], guess_counts[g]
            bits = above = np.uint64(0)
            if wide:
                for j in range(n):
                    key = _peg_key(position, count, positions[j], counts[j], layout, True, True)
                    high = key >> np.uint64(6)  # 1 for a key of 64 or more
                    bit = one << (key & np.uint64(63))
                    bits |= bit & (high - one)
                    above |= bit & (np.uint64(0) - high)
            elif layout == UNARY:
                for j in range(n):
                    bits |= one << _peg_key(position, count, positions[j], counts[j], layout, True, False)
            else:
                for j in range(n):
                    bits |= one << _peg_key(position, count, positions[j], counts[j], layout, False, False)
            stats[i] = parts[i] = _popcount(bits) + _popcount(above)
            if stop and parts[i] == stop:
                return i
        return hi
    keys = np.empty(min(n, KEY_CHUNK), np.uint64)
    by_key = np.zeros(81 if wide else 64, np.int64)
    bound = n  # minimax's pick only: the least largest part of a guess before, in this block
    for i in range(lo, hi):
        g = guess_ids[i]
        position, count = guess_positions[g], guess_counts[g]
        largest = 0
        for start in range(0, n, KEY_CHUNK):  # the keys of a chunk first (vectorised), then their counts
            end = min(n, start + KEY_CHUNK)
            _chunk_keys(position, count, positions, counts, layout, start, end, keys)
            if pick_only and statistic == MAX_PART:
                for j in range(end - start):
                    c = by_key[keys[j]] + 1
                    by_key[keys[j]] = c
                    if c > bound:  # worse than a guess before it: not the pick
                        largest = c
                        break
                if largest > bound:
                    break
            else:
                for j in range(end - start):
                    by_key[keys[j]] += 1
        if largest > bound:
            stats[i], parts[i] = largest, 0  # a lower bound of its largest part
            by_key[:] = 0
            continue
        if n <= KEY_CHUNK:  # the parts read back from the keys, which clears them
            stats[i], parts[i] = _reduce_keys(by_key, keys, n, statistic, clog)
        else:
            stats[i], parts[i] = _reduce(by_key, statistic, clog)
            by_key[:] = 0
        if pick_only and statistic == MAX_PART:
            bound = min(bound, stats[i])
        if stop and parts[i] == stop:
            return i
    return hi


@njit(cache=True, inline="always")
def _chunk_keys(position, count, positions, counts, layout, start, end, keys):
    """The keys of one guess (``position``, ``count``) against the candidates ``start`` to ``end``,
    into ``keys[0:end - start]``. The loops index slices from 0: an index that might be negative
    (``positions[j]`` for ``j`` from ``start``) is wrapped element by element, which turns the
    vectorised loads into gathers, 4 times as slow."""
    positions, counts = positions[start:end], counts[start:end]
    if layout == UNARY_WIDE:
        for j in range(end - start):
            keys[j] = _peg_key(position, count, positions[j], counts[j], layout, True, True)
    elif layout == UNARY:
        for j in range(end - start):
            keys[j] = _peg_key(position, count, positions[j], counts[j], layout, True, False)
    else:
        for j in range(end - start):
            keys[j] = _peg_key(position, count, positions[j], counts[j], layout, False, False)


@njit(cache=True, inline="always")
def _reduce_keys(by_key, keys, n, statistic, clog):
    """``_reduce`` of the counts ``by_key`` of the ``n`` keys ``keys``, read at those keys alone
    (fewer than all the keys of a game), clearing them. Without a branch per key (whether a part
    is new is not predictable): a key met again reads the 0 left by its first meeting."""
    acc = 0
    p = 0
    for j in range(n):
        x = by_key[keys[j]]
        by_key[keys[j]] = 0
        p += x != 0
        if statistic == CLOG_SUM:
            acc += clog[x]  # (clog[0] is 0)
        elif statistic == MAX_PART:
            acc = max(acc, x)
        elif statistic == SUM_SQUARES:
            acc += x * x
    return acc, p


@njit(cache=True, inline="always")
def _packed_blocks(guess_positions, guess_counts, guess_ids, positions, counts, layout, statistic, clog, levels,
                   stats, parts, stop, pick_only, ends):
    """Block by block; ``ends[b]`` (``m`` when called): where block ``b`` stopped (``stop``). A block
    after one that stopped is skipped: on one thread always; on threads when that one is seen
    done, for the first guess of ``stop`` parts is still the least of the ends."""
    m = guess_ids.shape[0]
    for b in prange((m + BLOCK - 1) // BLOCK):  # on threads where inlined into a parallel kernel
        if stop and b and ends[b - 1] < m:
            ends[b] = ends[b - 1]
            continue
        lo, hi = b * BLOCK, min(m, (b + 1) * BLOCK)
        end = _packed_block(guess_positions, guess_counts, guess_ids, positions, counts, layout, statistic, clog,
                            levels, stats, parts, lo, hi, stop, pick_only)
        if end < hi:
            ends[b] = end


@njit(cache=True, parallel=True)
def _packed_parallel(guess_positions, guess_counts, guess_ids, positions, counts, layout, statistic, clog, levels,
                     stats, parts, stop, pick_only, ends):
    _packed_blocks(guess_positions, guess_counts, guess_ids, positions, counts, layout, statistic, clog, levels,
                   stats, parts, stop, pick_only, ends)


@njit(cache=True)
def _packed_serial(guess_positions, guess_counts, guess_ids, positions, counts, layout, statistic, clog, levels,
                   stats, parts, stop, pick_only, ends):
    _packed_blocks(guess_positions, guess_counts, guess_ids, positions, counts, layout, statistic, clog, levels,
                   stats, parts, stop, pick_only, ends)


def packed_partition_stats(guess_words, secret_words, layout, guess_ids, candidates, statistic, clog, threads=True,
                           stop=0, pick_only=False, levels=False):
    """``partition_stats`` for a peg game scored from packed words (``pack_codes``: the guesses'
    and the secrets' position and count words, and their layout), with no matrix: each answer
    costs less than reading it from one, and nothing is made beforehand.

    Returns ``(stats, parts, first)``: with ``stop`` > 0, ``first`` is the index of the first
    guess of ``stop`` parts (the stats of those after it are left unmade), else -1. ``pick_only``:
    only the pick (the least statistic) need be scored exactly, and every guess as good: with
    ``MAX_PART`` (minimax), a guess that cannot be (a part larger than a guess's before it) is
    dropped, with a larger part than the pick's as its statistic and no parts (entropy's, of
    ``CLOG_SUM``: ``least_sums.pick_sums``). ``levels``: see ``_packed_block``."""
    m = len(guess_ids)
    made = np.zeros if stop else np.empty  # (without a stop, the kernel writes every guess's)
    stats, parts = made(m, np.int64), made(m, np.int64)
    ends = np.full((m + BLOCK - 1) // BLOCK, m, np.int64)
    positions, counts = secret_words[0][candidates], secret_words[1][candidates]
    run = _packed_parallel if threads and m * len(candidates) >= PARALLEL_CELLS else _packed_serial
    run(guess_words[0], guess_words[1], guess_ids, positions, counts, layout, statistic, clog, levels, stats,
        parts, stop, pick_only, ends)
    first = int(ends.min()) if len(ends) else m
    return stats, parts, first if first < m else -1


@njit(cache=True)
def _levels_block(guess_positions, guess_counts, guess_ids, positions, counts, layout, clog, stats, parts, lo, hi):
    """For guesses ``lo`` to ``hi``, ``_packed_block``'s parts, and as the statistic the least sum
    of c log c that the answers of each number of common colours allow: that level's candidates in
    as equal parts as it has answers (c log c is convex and superadditive, so at most the guess's
    sum; at least what the parts alone allow). A chunk of ``LEVEL_CHUNK`` candidates at a time for
    every guess, a byte per level counting it (a key of up to 7 holes: ``black << 3 | common``),
    added into 16-bit totals: the even levels' in one word, the odd ones' in another."""
    one, byte, n = np.uint64(1), np.uint64(8), positions.shape[0]
    low, to_byte = np.uint64(7), np.uint64(3)  # a key's common colours; their level's byte (times 8)
    seen = np.zeros((hi - lo, 3), np.uint64)  # the answers' bits, the totals of the even and the odd levels
    for j0 in range(0, n, LEVEL_CHUNK):
        chunk_positions, chunk_counts = positions[j0:j0 + LEVEL_CHUNK], counts[j0:j0 + LEVEL_CHUNK]
        for i in range(hi - lo):
            position, count = guess_positions[guess_ids[lo + i]], guess_counts[guess_ids[lo + i]]
            bits = commons = np.uint64(0)
            if layout == UNARY:
                for j in range(chunk_positions.shape[0]):
                    key = _peg_key(position, count, chunk_positions[j], chunk_counts[j], layout, True, False)
                    bits |= one << key
                    commons += one << ((key & low) << to_byte)
            else:
                for j in range(chunk_positions.shape[0]):
                    key = _peg_key(position, count, chunk_positions[j], chunk_counts[j], layout, False, False)
                    bits |= one << key
                    commons += one << ((key & low) << to_byte)
            seen[i, 0] |= bits
            seen[i, 1] += commons & EVEN_BYTES
            seen[i, 2] += (commons >> byte) & EVEN_BYTES
    for i in range(hi - lo):
        bits, least = seen[i, 0], 0
        for level in range(8):
            total = np.int64((seen[i, 1 + (level & 1)] >> np.uint64(16 * (level >> 1))) & np.uint64(0xFFFF))
            answers = _popcount((bits >> np.uint64(level)) & BYTES_ONE)  # (every eighth key: one level's)
            least += equal_parts(total, answers, clog, n)
        stats[lo + i], parts[lo + i] = least, _popcount(bits)


@njit(cache=True, inline="always")
def equal_parts(total, answers, clog, n):
    """The least sum of ``clog`` (c log c) over ``total`` candidates that give ``answers`` answers
    (0 for none): the parts as equal as can be, ``total mod answers`` of them one larger."""
    size = np.int64(total / max(answers, 1))  # (exact in floating point, and no integer division)
    larger = total - size * answers
    return (answers - larger) * clog[size] + larger * clog[min(size + 1, n)]

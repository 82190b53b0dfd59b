"""Compiled inner loops (numba, cached on disk): feedback matrices and partition statistics.

Each kernel has a plain numpy twin in ``vectorised.py`` (partition statistics: ``reference.py``);
the test suite checks that both give the same numbers and identical trees, byte for byte. The
kernels on packed peg codes (``peg_matrix_packed``, ``packed_partition_stats``) are the compiled
engine's own way to the same numbers, checked against the numpy engine's matrix.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange, types
from numba.extending import intrinsic

from .statistic import CLOG_SUM, MAX_PART, PARTS, SUM_SQUARES

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


NIBBLES_LOW = np.uint64(0x1111111111111111)
NIBBLES_HIGH = np.uint64(0x8888888888888888)
BYTES_LOW = np.uint64(0x0F0F0F0F0F0F0F0F)
BYTES_ONE = np.uint64(0x0101010101010101)
WIDE_HOLES = 8  # keys of (black, common) pairs past 64: two words of bits
UNARY, UNARY_WIDE = np.uint64(0), np.uint64(1)  # layouts of unary words (``pack_codes``), of up to 7 holes or 8


@intrinsic
def _ctpop(typingctx, x):
    """The number of bits set in a 64-bit word: one instruction where the processor has it (LLVM's ``ctpop``)."""
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return types.uint64(types.uint64), codegen


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


# -- partitions straight from packed peg codes, with no matrix --------------------------------

@njit(cache=True)
def _packed_block(guess_positions, guess_counts, guess_ids, positions, counts, layout, statistic, clog,
                  stats, parts, lo, hi, stop, pick_only):
    """``_rows_block`` with each answer computed from the codes (``positions``/``counts``: the
    candidates' words) instead of read from a matrix. ``stop`` > 0: the block ends at its first
    guess of ``stop`` parts, whose index it returns (else ``hi``). ``pick_only`` (minimax): a guess
    is dropped once a part of it is larger than the largest part of a guess before it in the block
    (see ``packed_partition_stats``)."""
    one, wide = np.uint64(1), layout == UNARY_WIDE
    n = positions.shape[0]
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
    into ``keys[0:end - start]``."""
    if layout == UNARY_WIDE:
        for j in range(start, end):
            keys[j - start] = _peg_key(position, count, positions[j], counts[j], layout, True, True)
    elif layout == UNARY:
        for j in range(start, end):
            keys[j - start] = _peg_key(position, count, positions[j], counts[j], layout, True, False)
    else:
        for j in range(start, end):
            keys[j - start] = _peg_key(position, count, positions[j], counts[j], layout, False, False)


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
def _packed_blocks(guess_positions, guess_counts, guess_ids, positions, counts, layout, statistic, clog, stats, parts,
                   stop, pick_only, ends):
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
                            stats, parts, lo, hi, stop, pick_only)
        if end < hi:
            ends[b] = end


@njit(cache=True, parallel=True)
def _packed_parallel(guess_positions, guess_counts, guess_ids, positions, counts, layout, statistic, clog, stats, parts,
                     stop, pick_only, ends):
    _packed_blocks(guess_positions, guess_counts, guess_ids, positions, counts, layout, statistic, clog, stats, parts,
                   stop, pick_only, ends)


@njit(cache=True)
def _packed_serial(guess_positions, guess_counts, guess_ids, positions, counts, layout, statistic, clog, stats, parts,
                   stop, pick_only, ends):
    _packed_blocks(guess_positions, guess_counts, guess_ids, positions, counts, layout, statistic, clog, stats, parts,
                   stop, pick_only, ends)


def packed_partition_stats(guess_words, secret_words, layout, guess_ids, candidates, statistic, clog, threads=True,
                           stop=0, pick_only=False):
    """``partition_stats`` for a peg game scored from packed words (``pack_codes``: the guesses'
    and the secrets' position and count words, and their layout), with no matrix: each answer
    costs less than reading it from one, and nothing is made beforehand.

    Returns ``(stats, parts, first)``: with ``stop`` > 0, ``first`` is the index of the first
    guess of ``stop`` parts (the stats of those after it are left unmade), else -1. ``pick_only``:
    only the pick (the least statistic) need be scored exactly, and every guess as good; with
    ``MAX_PART``, a guess that cannot be (a part larger than a guess's before it) is dropped, with
    a larger part than the pick's as its statistic and no parts; with ``CLOG_SUM`` see
    ``_least_clog_only``."""
    if pick_only and statistic == CLOG_SUM:
        return _least_clog_only(guess_words, secret_words, layout, guess_ids, candidates, clog, threads, stop)
    m = len(guess_ids)
    stats = np.zeros(m, np.int64)
    parts = np.zeros(m, np.int64)
    ends = np.full((m + BLOCK - 1) // BLOCK, m, np.int64)
    positions, counts = secret_words[0][candidates], secret_words[1][candidates]
    run = _packed_parallel if threads and m * len(candidates) >= PARALLEL_CELLS else _packed_serial
    run(guess_words[0], guess_words[1], guess_ids, positions, counts, layout, statistic, clog, stats,
        parts, stop, pick_only, ends)
    first = int(ends.min()) if len(ends) else m
    return stats, parts, first if first < m else -1


CLOG_MARGIN = 1024  # per candidate, in clog's fixed point: far wider than a tie (context.TIE) and rounding


def _least_clog_only(guess_words, secret_words, layout, guess_ids, candidates, clog, threads, stop):
    """``packed_partition_stats`` of ``CLOG_SUM`` exact for the least sums (entropy's pick) and its
    ties: every guess's parts first (a bit per answer, a fraction of counting them), then the sums
    of the guesses of the most parts, then of fewer, while they could come near the least sum so
    far. A guess of ``p`` parts sums at least what ``p`` equal parts would (c log c is convex:
    ``least_clogs``); where that is more than the bound plus a margin far wider than a tie, it
    cannot be the pick, and that least sum is its statistic. The parts are exact for every guess."""
    words = guess_words, secret_words, layout
    _, parts, first = packed_partition_stats(*words, guess_ids, candidates, PARTS, clog, threads, stop)
    if first >= 0 or not len(guess_ids):
        return parts, parts, first
    n = len(candidates)
    least = least_clogs(clog, n, int(parts.max()))
    stats = least[parts]
    bound = int(least[-1]) + (1 << 62)  # none yet (far above any sum, and far from overflowing)
    for p in np.flatnonzero(np.bincount(parts))[::-1]:  # the part counts that occur, most first
        if least[p] > bound + CLOG_MARGIN * n:
            break  # (and fewer parts allow no less)
        level = np.flatnonzero(parts == p)
        stats[level] = packed_partition_stats(*words, guess_ids[level], candidates, CLOG_SUM, clog, threads)[0]
        bound = min(bound, int(stats[level].min()))
    return stats, parts, -1


def least_clogs(clog: np.ndarray, n: int, most: int) -> np.ndarray:
    """For ``p`` = 0 to ``most`` parts of ``n`` candidates, the least sum of ``clog`` over the parts:
    ``n mod p`` parts of one more than the others, as equal as can be."""
    p = np.arange(1, most + 1)
    size, larger = n // p, n % p
    return np.concatenate(([0], larger * clog[np.minimum(size + 1, n)] + (p - larger) * clog[size]))


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

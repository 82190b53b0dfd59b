"""The least weighted total, compiled: the exhaustive search of a game whose secrets weigh
differently (``Game.weights``, issue 68), ``sum(weight(s) * guesses(s))`` in the integer units of
``player.game.integer_weights``.

It is ``recursion.min_total`` with the weights in, and with what the weights undo left out:

- the counting bound of a set pairs the best conceivable tree's depths (``counting.py``: the
  i-th secret of any tree sits at least as deep as the i-th of that tree) with the weights sorted
  heaviest first, which by the rearrangement inequality no tree's weighted total goes below
  (``part_bound``); a guess's bound is the node's weight plus its parts' (``guess_bounds``: one
  pass over the candidates heaviest first, each the next of its part);
- no symmetry classes, no renaming of unplayed symbols: weights need not be symmetric. Guesses
  that play symbols no candidate has (``alike.absent_symbols``) and guesses with the same answer on
  every candidate (``partitions._repeats``) still count once: they leave the same parts;
- the perfect candidate that ends a node at once is the lowest of the heaviest (``heaviest_perfect``);
- the one-guess lookahead bounds the parts as there (``lookahead``); no class bounds and no
  narrowed branching (weaker bounds, never wrong ones);
- its table entries hold 36-bit values (``wpack``): weighted totals in integer units reach 10^9
  (Wordle's answers at 100000, the other guesses at 1) where the unweighted entries hold 24 bits.
  They share the game's table under the same keys (a weighted game's every minimum-total entry is
  weighted; the worst-case search's, ``FEASIBLE_TAG``, are the usual ones).

One thread searches, from the root down (``WeightedSearch`` in ``weighted_search.py``). The
canonical tie-break is the unweighted search's: the least total, then a possible secret, then the
lowest guess.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from ..engine.kernels import first_perfect
from .alike import absent_symbols, kept_guesses
from .counting import reachable
from .hint_kernels import hint_allowed, hint_child, hint_salt
from .partitions import _allowed, _is_candidate, _repeats, split
from .problem import HITS, NODES, STORES, Stopped
from .recursion import CANDIDATES_FIRST, LOOKAHEAD_MIN
from .table import BUCKET, probe, set_key, total_tag

VALUE_BITS = 36
WINF = (1 << VALUE_BITS) - 1  # "no tree within the budget", and the largest weighted total an entry holds
_VALUE_MASK = np.uint64(WINF)
_EXACT_SHIFT = np.uint64(VALUE_BITS)
_GUESS_SHIFT = np.uint64(VALUE_BITS + 1)
_SIZE_SHIFT = np.uint64(VALUE_BITS + 22)
_SIZE_MAX = 63  # the set's size, capped: what the store's choice of a victim reads


class Weights(NamedTuple):
    """What the weighted search reads besides the ``problem.Problem``: each secret's weight (whole
    numbers, at least 1), and the best conceivable tree's depth of its i-th secret (``steps[i]``,
    from 0) and how many secrets a tree of each depth can win at most (``reach``), by the game's
    counting tables."""

    weights: np.ndarray
    steps: np.ndarray
    reach: np.ndarray
    blind_steps: np.ndarray  # the same depths where the node's guess wins none (``counting``'s least_blind)


# data word of a weighted entry: value (36 bits) | exact (1) | guess + 1 (21) | size (6, capped)
@njit(cache=True, nogil=True)
def wpack(value, exact, guess, size):
    data = np.uint64(value) | (np.uint64(1 if exact else 0) << _EXACT_SHIFT)
    data |= np.uint64(guess + 1) << _GUESS_SHIFT
    return data | (np.uint64(min(size, _SIZE_MAX)) << _SIZE_SHIFT)


@njit(cache=True, nogil=True)
def wvalue(data):
    return np.int64(data & _VALUE_MASK)


@njit(cache=True, nogil=True)
def wexact(data):
    return (data >> _EXACT_SHIFT) & np.uint64(1) == np.uint64(1)


@njit(cache=True, nogil=True)
def wguess(data):
    return np.int64((data >> _GUESS_SHIFT) & np.uint64(0x1FFFFF)) - 1


@njit(cache=True, nogil=True)
def wstore(table, h1, h2, data):
    """``table.store`` for weighted entries: over the same key (never an exact one over a bound),
    else into an empty slot, else over the entry of the smallest set."""
    base = np.int64(h1 & np.uint64(table.shape[0] - 1)) & ~(BUCKET - 1)
    victim, smallest = base, 1 << 62
    for i in range(base, base + BUCKET):
        old = table[i, 2]
        if old == 0:
            if smallest >= 0:
                victim, smallest = i, -1
            continue
        if (table[i, 0] ^ old) == h1 and (table[i, 1] ^ old) == h2:
            if wexact(old) and not wexact(data):
                return
            victim = i
            break
        size = np.int64(old >> _SIZE_SHIFT)
        if size < smallest:
            victim, smallest = i, size
    table[victim, 2] = np.uint64(0)  # readers see a miss while the entry changes
    table[victim, 0] = h1 ^ data
    table[victim, 1] = h2 ^ data
    table[victim, 2] = data


@njit(cache=True, nogil=True)
def wrestore(table, entries):
    """Store saved weighted entries (a checkpoint's) into ``table``."""
    for i in range(entries.shape[0]):
        data = entries[i, 2]
        if data != 0:
            wstore(table, entries[i, 0] ^ data, entries[i, 1] ^ data, data)


@njit(cache=True, nogil=True)
def part_bound(wt, members, budget):
    """The weighted counting bound of the secrets ``members`` within ``budget`` guesses (``WINF``:
    more than any tree of that depth wins): the i-th heaviest weighs at least the i-th depth of the
    best conceivable tree. Exact for one or two secrets."""
    n = members.shape[0]
    if n > reachable(wt.reach, budget):
        return WINF
    w = np.sort(wt.weights[members])  # lightest first: the heaviest meets the shallowest depth
    total = 0
    for i in range(n):
        total += wt.steps[i] * w[n - 1 - i]
    return min(total, WINF)


@njit(cache=True, nogil=True)
def guess_bounds(problem, wt, heavy, guesses, budget, weight):
    """Per guess: the weighted counting bound of a tree that plays it at a node of candidates
    ``heavy`` (heaviest first) and total ``weight``, within ``budget`` guesses: the node's weight
    plus each part's ``part_bound`` (its members met heaviest first, each the next of its part);
    its number of parts; whether it is a candidate."""
    m, n_feedbacks, win = guesses.shape[0], problem.n_feedbacks, problem.win
    weights, steps = wt.weights, wt.steps
    cap = reachable(wt.reach, budget - 1)
    bounds, parts = np.empty(m, np.int64), np.empty(m, np.int64)
    candidate = np.empty(m, np.bool_)
    counts, touched = np.zeros(n_feedbacks, np.int64), np.empty(n_feedbacks, np.int64)
    for j in range(m):
        if problem.stop[0]:
            raise Stopped("stopped")
        row = problem.matrix[guesses[j]]
        k, after = 0, 0
        for c in heavy:
            f = row[c]
            rank = counts[f]
            if rank == 0:
                touched[k] = f
                k += 1
            counts[f] = rank + 1
            if f != win:
                after += steps[rank] * weights[c]
        won, over = False, False
        for i in range(k):
            f = touched[i]
            if f == win:
                won = True
            elif counts[f] > cap:
                over = True
            counts[f] = 0
        parts[j], candidate[j] = k, won
        bounds[j] = WINF if over else min(weight + after, WINF)
    return bounds, parts, candidate


@njit(cache=True, nogil=True)
def lookahead(problem, wt, candidates, budget):
    """A lower bound on the least weighted total of ``candidates`` within ``budget`` (no hint rule):
    the table's, or the least weighted counting bound of any guess here (what ``wmin_total`` would
    first compute), which it stores in the table (``recursion.lookahead_bound``'s rule, weighted)."""
    n = candidates.shape[0]
    bound = part_bound(wt, candidates, budget)
    if n <= 2 or budget < 2 or bound >= WINF:
        return bound
    h1, h2 = set_key(candidates, total_tag(n, budget, 0), np.uint64(0))
    data = probe(problem.table, h1, h2)
    if data != 0 and (wexact(data) or wvalue(data) > bound):
        return wvalue(data)
    nothing = np.zeros(0, np.bool_)
    scan = kept_guesses(problem, _allowed(problem.matrix.shape[0], candidates, problem.secret_guess,
                                          problem.consistent),
                        nothing, nothing, absent_symbols(problem, candidates), np.uint64(0))
    own = wt.weights[candidates]
    totals, n_parts, candidates_too = guess_bounds(problem, wt, candidates[np.argsort(-own)], scan, budget, own.sum())
    best = WINF
    for j in range(scan.shape[0]):
        if (n_parts[j] > 1 or candidates_too[j]) and totals[j] < best:
            best = totals[j]
    if best > bound:
        wstore(problem.table, h1, h2, wpack(best, best >= WINF, -1, n))
        bound = best
    return bound


@njit(cache=True, nogil=True)
def heaviest_perfect(problem, wt, candidates):
    """The lowest guess of the heaviest candidates that puts every candidate in a part of its own,
    or -1: where the counting bound is one guess for the heaviest and two for the rest, the
    canonical optimal guess (nothing does better, nothing but such a candidate as well)."""
    own = wt.weights[candidates]
    heaviest = candidates[own == own.max()]
    guesses = np.sort(problem.secret_guess[heaviest])
    i = first_perfect(problem.matrix, guesses, candidates, problem.n_feedbacks)
    return guesses[i] if i >= 0 else -1


@njit(cache=True, nogil=True)
def weigh_parts(problem, wt, ordered, parts, budget, limit, weight, known, hinted):
    """Lower bounds on the least weighted totals of a guess's parts (``parts``: (start, size) in
    ``ordered``, largest first) within ``budget``, into ``known``: every part's counting bound, then
    (no hint rule) the lookahead of every part of ``LOOKAHEAD_MIN`` secrets or more but the first
    (whose own search starts with one), largest first, while ``weight`` plus the bounds is below
    ``limit``. Returns that sum (at most ``WINF``): ``recursion.weigh_parts``' rule, weighted."""
    total = weight
    for p in range(parts.shape[0]):
        known[p] = part_bound(wt, ordered[parts[p, 0]:parts[p, 0] + parts[p, 1]], budget)
        total += known[p]
    total = min(total, WINF)
    if not hinted:
        for p in range(1, parts.shape[0]):
            start, size = parts[p, 0], parts[p, 1]
            if total >= limit or size < LOOKAHEAD_MIN:
                break
            ahead = lookahead(problem, wt, ordered[start:start + size], budget)
            total = min(total + ahead - known[p], WINF)
            known[p] = ahead
    return total


@njit(cache=True, nogil=True)
def blind_bound(wt, own, counted):
    """What any guess that is not a candidate costs at least at a node of weights ``own``: none
    of the candidates is won at the node (``counting``'s least_blind, weighted), and never below
    the node's own counting bound ``counted``."""
    n, w = own.shape[0], np.sort(own)
    blind = 0
    for i in range(n):
        blind += wt.blind_steps[i] * w[n - 1 - i]
    return max(min(blind, WINF), counted)


@njit(cache=True, nogil=True)
def ranked(problem, wt, candidates, heavy, scan, budget, weight, bound, scan_limit, skip_candidates, order_keys,
           order_ids, order_bounds):
    """A phase's guesses ``scan`` by their bounds (``guess_bounds``, at least ``bound``), into
    ``order_keys`` (bound, then a candidate, then the lowest guess), ``order_ids`` and
    ``order_bounds``: those that learn something, below ``scan_limit``, and (``skip_candidates``)
    not the candidates that the first phase tried. Returns ``(m, floor)``: how many, and the least
    bound of those left out for their bound (``WINF``: none)."""
    n_guesses = problem.matrix.shape[0]
    totals, n_parts, candidates_too = guess_bounds(problem, wt, heavy, scan, budget, weight)
    m, floor = 0, WINF
    for j in range(scan.shape[0]):
        g, total, candidate = scan[j], max(totals[j], bound), candidates_too[j]
        if skip_candidates and candidate and _is_candidate(g, candidates, problem.guess_secret):
            continue  # done in phase 0
        if n_parts[j] < 2 and not candidate:
            continue  # learns nothing
        if total >= scan_limit:
            floor = min(floor, total)
            continue
        order_keys[m] = (total * 2 + (0 if candidate else 1)) * n_guesses + g
        order_ids[m], order_bounds[m] = g, total
        m += 1
    return m, floor


@njit(cache=True, nogil=True)
def known_value(problem, wt, candidates, counted, cutoff, h1, h2, mask):
    """``(value, settled)`` of a node (key ``h1, h2``) before its guesses are weighed: the table's
    exact value, or its bound if that reaches ``cutoff``, or the counting bound ``counted`` where
    the heaviest candidates' lowest perfect guess achieves it (stored); else the best lower bound
    known, not settled."""
    n, bound = candidates.shape[0], counted
    data = probe(problem.table, h1, h2)
    if data != 0:
        problem.counters[HITS] += 1
        if wexact(data):
            return wvalue(data), True
        bound = max(bound, wvalue(data))
        if bound >= cutoff:
            return bound, True
    if n <= problem.n_feedbacks and wt.steps[n - 1] == 2 and bound == counted and mask.shape[0] == 0:
        perfect = heaviest_perfect(problem, wt, candidates)
        if perfect >= 0:
            wstore(problem.table, h1, h2, wpack(counted, True, perfect, n))
            return counted, True
    return bound, False


@njit(cache=True, nogil=True)
def settle(problem, h1, h2, n, best, best_guess, bound):
    """Store what a node's search found: its least total with its guess (``best_guess`` >= 0), or
    the lower bound ``bound`` (exact at ``WINF``: no tree). Returns it."""
    problem.counters[STORES] += 1
    if best_guess >= 0:
        wstore(problem.table, h1, h2, wpack(best, True, best_guess, n))
        return best
    wstore(problem.table, h1, h2, wpack(min(bound, WINF), bound >= WINF, -1, n))
    return bound


@njit(cache=True, nogil=True)
def wmin_total(problem, wt, candidates, budget, cutoff, mask, state):
    """The least weighted total of any tree that wins every candidate (sorted) within ``budget``
    guesses, if it is below ``cutoff``; otherwise some lower bound that is at least ``cutoff``.
    ``mask`` (empty: all) restricts this node's guesses; ``state`` (empty: none) is the node's
    hint-rule state. The phases of ``recursion.min_total``: the candidates first when they are
    few (a total from them that no other guess beats spares scoring the others), then the rest,
    best bound first, their parts weighed (``weigh_parts``). An exact result is stored with its
    guess, the canonical one among equal totals: a candidate first, then the lowest guess."""
    matrix, win, consistent = problem.matrix, problem.win, problem.consistent
    n = candidates.shape[0]
    counted = part_bound(wt, candidates, budget)
    if n <= 2 or counted >= WINF or counted >= cutoff:
        return counted  # exact, or enough
    hinted = state.shape[0] > 0
    h1, h2 = set_key(candidates, total_tag(n, budget, 0), hint_salt(state))
    bound, settled = known_value(problem, wt, candidates, counted, cutoff, h1, h2, mask)
    if settled:
        return bound
    problem.counters[NODES] += 1
    if problem.stop[0]:
        raise Stopped("stopped")
    n_guesses = matrix.shape[0]
    allowed = hint_allowed(state, problem.hint_codes, problem.letter_counts) if hinted and not consistent \
        else np.zeros(0, np.bool_)
    own = wt.weights[candidates]
    weight = own.sum()
    heavy = candidates[np.argsort(-own)]
    blind = blind_bound(wt, own, counted)  # no guess outside the candidates does better
    first_phase = 1 if consistent or n > CANDIDATES_FIRST else 0
    absent = absent_symbols(problem, candidates)
    best, best_key, best_guess = WINF, 0, -1
    floor = WINF  # the least bound among guesses not tried
    order_keys, order_ids = np.empty(n_guesses, np.int64), np.empty(n_guesses, np.int64)
    order_bounds = np.empty(n_guesses, np.int64)
    tried, tried_hash = np.empty(n_guesses, np.int64), np.empty(n_guesses, np.uint64)
    n_tried = 0
    known = np.empty(problem.n_feedbacks, np.int64)  # a guess's parts' lower bounds
    for phase in range(first_phase, 2):
        if phase == 1 and first_phase == 0 and best_guess >= 0 and best <= blind:
            break
        guesses = problem.secret_guess[candidates] if phase == 0 or consistent else np.arange(n_guesses)
        scan_limit = cutoff if best_guess < 0 else min(cutoff, best + 1)  # ties may still win
        scan = kept_guesses(problem, guesses, mask, allowed, absent, np.uint64(0))
        m, left_out = ranked(problem, wt, candidates, heavy, scan, budget, weight, bound, scan_limit,
                             phase == 1 and first_phase == 0, order_keys, order_ids, order_bounds)
        floor = min(floor, left_out)
        order = np.argsort(order_keys[:m])
        for i in order:
            if problem.stop[0]:
                raise Stopped("stopped")
            g, low, own_key = order_ids[i], order_bounds[i], order_keys[i] % (2 * n_guesses)
            limit = cutoff
            if best_guess >= 0:
                if low >= min(cutoff, best + 1):
                    break
                limit = min(cutoff, best + 1 if own_key < best_key else best)
            if low >= limit:
                floor = min(floor, low)
                continue
            if not hinted:  # with a hint rule, what a guess reveals matters beyond its partition
                repeat, n_tried = _repeats(matrix, g, candidates, tried, tried_hash, n_tried)
                if repeat:
                    continue
            ordered, parts = split(matrix, g, candidates, problem.n_feedbacks, win)
            total = weigh_parts(problem, wt, ordered, parts, budget - 1, limit, weight, known, hinted)
            for p in range(parts.shape[0]):
                if total >= limit:
                    break
                start, size = parts[p, 0], parts[p, 1]
                if size <= 2:
                    continue  # its bound is exact
                rest = total - known[p]
                part = ordered[start:start + size]
                child = hint_child(state, problem, g, matrix[g, part[0]]) if hinted else state
                total = min(rest + wmin_total(problem, wt, part, budget - 1, limit - rest, mask[:0], child), WINF)
            if total < limit:
                best, best_key, best_guess = total, own_key, g
            else:
                floor = min(floor, total)
    return settle(problem, h1, h2, n, best, best_guess, max(bound, floor))


@njit(cache=True, nogil=True)
def wguess_total(problem, wt, candidates, guess, budget, limit, state):
    """The least weighted total of a tree that plays ``guess`` at a node of ``candidates`` (within
    ``budget`` guesses, this one among them) if it is below ``limit``, else a lower bound that is
    at least ``limit``: the root's guesses, one call each (``WeightedSearch``). The steps of
    ``wmin_total`` on one guess, which it keeps inline."""
    matrix, hinted = problem.matrix, state.shape[0] > 0
    ordered, parts = split(matrix, guess, candidates, problem.n_feedbacks, problem.win)
    known = np.empty(parts.shape[0], np.int64)
    total = weigh_parts(problem, wt, ordered, parts, budget - 1, limit, wt.weights[candidates].sum(), known, hinted)
    nothing = np.zeros(0, np.bool_)
    for p in range(parts.shape[0]):
        if total >= limit:
            break
        start, size = parts[p, 0], parts[p, 1]
        if size <= 2:
            continue
        rest, part = total - known[p], ordered[start:start + size]
        child = hint_child(state, problem, guess, matrix[guess, part[0]]) if hinted else state
        total = min(rest + wmin_total(problem, wt, part, budget - 1, limit - rest, nothing, child), WINF)
    return total


@njit(cache=True, nogil=True)
def root_bounds(problem, wt, candidates, guesses, budget):
    """``guess_bounds`` of a node's ``guesses`` (the candidates met heaviest first), for the root's
    order in Python."""
    own = wt.weights[candidates]
    return guess_bounds(problem, wt, candidates[np.argsort(-own)], guesses, budget, own.sum())

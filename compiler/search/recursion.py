"""The exhaustive searches below the top levels, compiled: the minimum total (``min_total``) and
whether every secret can be won within a depth (``within``), each a recursion over candidate sets.

Both search nodes of ``matrix[guess, secret]`` and remember what they learn in the transposition
table (``table.py``). The compiled functions release the GIL (``nogil``), so a process's threads
search at once over one table; a search runs for minutes inside one call, and a cluster's worker
must still answer its scheduler meanwhile (``cluster.py``). A guess is bounded by counting before
it is searched (``counting.py``: no tree does better than a perfect one), and ``min_total`` bounds
its parts but the largest by one guess's lookahead (``lookahead_bound``). Guesses alike count once
(``alike.py``).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..engine.kernels import first_perfect
from .alike import absent_symbols, kept_guesses, unplayed_symbols
from .counting import least_total, reachable
from .hint_kernels import hint_allowed, hint_child, hint_salt
from .partitions import _allowed, _is_candidate, _repeats, guess_bounds, least_bound, split
from .problem import HITS, NODES, STORES, Stopped
from .table import (FEASIBLE_TAG, INF, PURE_SALT, data_exact, data_value, depths, pack, probe, remember_depths,
                    set_key, store, total_tag)

CANDIDATES_FIRST = 48  # up to this many candidates, try them as guesses before the other guesses
# parts at least this big get a bound from one guess's lookahead before any is searched (12 until
# the bounds counted each node's answers: then 4 halved 6x5 without repeated secrets, and 7x4 and 6x4 lost nothing)
LOOKAHEAD_MIN = 4
PERFECT_MAX = 64  # below this many candidates, look for a candidate that splits them all apart first


@njit(cache=True, nogil=True)
def class_bound(problem, candidates, budget, branching):
    """(bound, branching): the counting bound of the candidates within ``budget`` by the tables of
    ``branching``, or more: a tree restricted to some of its secrets is a tree of theirs with the
    same depths, so the total is at least the sum over the candidates' classes (secrets of the same
    symbols) of each class's counting bound, by its own branching. All of one class: the branching
    narrowed to that class's."""
    n, penalty = candidates.shape[0], problem.penalty
    bound = least_total(problem.least_by[branching], problem.reach_by[branching], n, budget, penalty)
    if problem.class_branching.shape[0] <= 1 or n <= 2:
        return bound, branching
    ids = problem.secret_class[candidates]
    ids.sort()
    total, start = 0, 0
    for i in range(1, n + 1):
        if i == n or ids[i] != ids[start]:
            b = min(branching, max(1, problem.class_branching[ids[start]]))
            total += least_total(problem.least_by[b], problem.reach_by[b], i - start, budget, penalty)
            start = i
    if ids[0] == ids[n - 1]:
        branching = min(branching, max(1, problem.class_branching[ids[0]]))
    return max(bound, min(total, INF)), branching


@njit(cache=True, nogil=True)
def lookahead_bound(problem, candidates, budget, played, state, pure, branching):
    """A lower bound on the least total of ``candidates`` within ``budget`` guesses: the table's,
    or the least over every guess of the candidates plus the counting bounds of its parts (what
    ``min_total`` would first compute there), which it stores in the table. Guesses alike by
    absent or unplayed symbols count once. ``state`` (empty: none) is the node's hint-rule state:
    only the guesses it allows, and it is part of the key (``min_total`` computes none under a
    hint rule, where it does not pay; the openers' ranking does). ``pure``: the lookahead's own
    value, never a search's bound from the table (which depends on what was searched before), so
    that it is the same in every run; it has entries of its own (``PURE_SALT``), and counts by the
    game's tables. Else it counts by those of ``branching`` (the most answers but the win that a
    guess gets at a node above, ``counting.branching_tables``), or of the most that a guess gets
    here, if fewer (with no hint rule: where every guess may follow)."""
    n = candidates.shape[0]
    if pure:
        branching = problem.children
        bound = least_total(problem.least_by[branching], problem.reach_by[branching], n, budget, problem.penalty)
    else:
        bound, branching = class_bound(problem, candidates, budget, branching)
    if n <= 2 or budget < 2 or bound >= INF:
        return bound
    tag, salt = total_tag(n, budget, problem.penalty), hint_salt(state)
    h1, h2 = set_key(candidates, tag, salt)
    data = probe(problem.table, h1, h2)
    known = data != 0 and (data_exact(data) or data_value(data) > bound)
    p1, p2 = h1, h2
    if pure:
        p1, p2 = set_key(candidates, tag, salt ^ PURE_SALT)
        own = probe(problem.table, p1, p2)
        if own != 0:
            return data_value(own)
    elif known:
        return data_value(data)
    everything = np.zeros(0, np.bool_)
    allowed = hint_allowed(state, problem.hint_codes, problem.letter_counts) if state.shape[0] > 0 \
        and not problem.consistent else everything
    scan = kept_guesses(problem, _allowed(problem.matrix.shape[0], candidates, problem.secret_guess, problem.consistent),
                        everything, allowed, absent_symbols(problem, candidates), unplayed_symbols(problem, played))
    narrow = not pure and state.shape[0] == 0  # (under a hint rule, the guesses allowed here are not all)
    best = least_bound(problem, candidates, scan, budget, branching, narrow)
    if best > bound:
        if not (known and (data_exact(data) or data_value(data) >= best)):
            store(problem.table, h1, h2, pack(min(best, INF), best >= INF, -1, n))
        bound = best
    if pure:
        store(problem.table, p1, p2, pack(min(bound, INF), bound >= INF, -1, n))
    return bound


@njit(cache=True, nogil=True)
def weigh_parts(problem, ordered, parts, budget, limit, played, state, known, branching):
    """Lower bounds on the least totals of a guess's parts (``parts``: (start, size) in ``ordered``,
    the node's candidates by feedback, largest part first) within ``budget``, into ``known``, by rising effort: every part's counting
    bound, then the lookahead bound (``lookahead_bound``, after ``played``) of every part of
    ``LOOKAHEAD_MIN`` secrets or more but the first (whose own search starts with one), largest
    first, while the candidates plus the bounds are below ``limit``; none under a hint rule (``state``: they
    do not pay there) or with no limit (above ``INF``). Returns that sum (at most ``INF``). The one
    rule, compiled; ``Space.weigh`` is the same in Python, its order a parameter. The counting
    bounds are by the tables of ``branching`` (the most answers but the win at the parts' node)."""
    least, reach, penalty = problem.least_by[branching], problem.reach_by[branching], problem.penalty
    total = ordered.shape[0]
    for p in range(parts.shape[0]):
        if parts[p, 1] > 2:
            known[p], _ = class_bound(problem, ordered[parts[p, 0]:parts[p, 0] + parts[p, 1]], budget, branching)
        else:
            known[p] = least_total(least, reach, parts[p, 1], budget, penalty)
        total += known[p]
    if state.shape[0] == 0 and limit <= INF:
        for p in range(1, parts.shape[0]):
            start, size = parts[p, 0], parts[p, 1]
            if total >= limit or size < LOOKAHEAD_MIN:
                break
            bound = lookahead_bound(problem, ordered[start:start + size], budget, played, state, np.bool_(False), branching)
            total += bound - known[p]
            known[p] = bound
    return min(total, INF)


@njit(cache=True, nogil=True)
def min_total(problem, candidates, budget, cutoff, mask, state, played, branching):
    """The smallest total of any tree that wins every candidate within ``budget`` guesses,
    if it is below ``cutoff``; otherwise some lower bound that is at least ``cutoff``.

    ``mask`` (empty: all guesses) restricts this node's guesses to symmetry classes'
    representatives; ``state`` (empty: none) is the node's hint-rule state, which allows
    only some guesses (the candidates always) and is part of the node's key; ``played``: the
    symbols of the guesses on the path from the root, as bits (see ``alike.lowest_renamed``);
    ``branching``: the most answers but the win that a guess gets at a node above (its counting
    tables count; ``counting.branching_tables``), which the parts get narrowed to the most that a
    guess gets here, once every guess is scored (with no hint rule). Among
    guesses of equal total the best is, canonically, a candidate first and then the lowest guess;
    an exact result is stored with that guess.

    One function over 80 lines, not helpers: split into six (the node's known value, the ranking,
    the parts' bounds, the store) the search ran 10 to 20% slower (numba does not inline them into
    the recursion), and a helper that calls ``min_total`` back cannot be cached (numba's cache of
    mutually recursive functions crashes on load), so the phases are marked by comments instead.
    The parts' bounds are the one helper: ``weigh_parts``, the rule ``guess_total`` shares.
    """
    matrix, table, counters, win = problem.matrix, problem.table, problem.counters, problem.win
    consistent, penalty = problem.consistent, problem.penalty
    n = candidates.shape[0]
    counted, branching = class_bound(problem, candidates, budget, branching)
    least, reach = problem.least_by[branching], problem.reach_by[branching]
    plain = least_total(least, reach, n, budget, penalty)  # by counting alone
    if n <= 2 or counted >= INF:
        return counted  # exact
    bound = counted
    if bound >= cutoff:
        return bound
    hinted = state.shape[0] > 0
    h1, h2 = set_key(candidates, total_tag(n, budget, penalty), hint_salt(state))
    data = probe(table, h1, h2)
    if data != 0:
        counters[HITS] += 1
        if data_exact(data):
            return data_value(data)
        bound = max(bound, data_value(data))
        if bound >= cutoff:
            return bound
    if n <= problem.n_feedbacks and n <= PERFECT_MAX and least[n] == 2 * n - 1 and bound == plain:
        own = np.sort(problem.secret_guess[candidates])  # the candidates as guesses, lowest first
        i = first_perfect(matrix, own, candidates, problem.n_feedbacks)
        if i >= 0:  # nothing beats 2n - 1 (and its penalty), and the lowest perfect candidate is the canonical pick
            store(table, h1, h2, pack(counted, True, own[i], n))
            return counted
    # -- searched here: each guess's counting bound, then the guesses best first --------------
    counters[NODES] += 1
    if problem.stop[0]:
        raise Stopped("stopped")
    n_guesses = matrix.shape[0]
    allowed = hint_allowed(state, problem.hint_codes, problem.letter_counts) if hinted and not consistent \
        else np.zeros(0, np.bool_)
    # phases: the candidates first when they are few (a good total from them may spare
    # scoring every other guess), then the rest
    first_phase = 1 if consistent or n > CANDIDATES_FIRST else 0
    # no guess outside the candidates does better
    blind = max(problem.least_blind_by[branching][n] + plain - least[n], counted)
    narrow = branching  # the most answers but the win that a guess gets here, once every guess is scored
    best, best_key, best_guess = INF, 0, -1
    floor = INF  # the least bound among guesses not tried
    order_keys = np.empty(n_guesses, np.int64)
    order_ids = np.empty(n_guesses, np.int64)
    order_bounds = np.empty(n_guesses, np.int64)
    tried = np.empty(n_guesses, np.int64)
    tried_hash = np.empty(n_guesses, np.uint64)
    n_tried = np.int64(0)  # (not a literal 0: one compiled version of _repeats)
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
        totals, n_parts, candidates_too, _ = guess_bounds(problem, candidates, scan, budget, np.bool_(False), branching)
        low_here = bound  # what any guess here costs at least
        if phase == 1 and not hinted:  # every guess scored: fewer answers here are fewer below
            most = 1
            for j in range(n_scan):
                most = max(most, n_parts[j] - (1 if candidates_too[j] else 0))
            narrow = min(branching, most)
            low_here = max(bound, least_total(problem.least_by[narrow], problem.reach_by[narrow], n, budget, penalty))
        m = 0
        for j in range(n_scan):
            g, total, parts, candidate = scan[j], max(totals[j], low_here), n_parts[j], candidates_too[j]
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
            if problem.stop[0]:  # (a node of many guesses weighs for seconds)
                raise Stopped("stopped")
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
            total = weigh_parts(problem, ordered, parts, budget - 1, limit, played_after, state, known, narrow)
            for p in range(parts.shape[0]):
                if total >= limit:
                    break
                start, size = parts[p, 0], parts[p, 1]
                if size <= 2:
                    continue  # its bound is exact
                rest = total - known[p]
                part = ordered[start:start + size]
                child = hint_child(state, problem, g, matrix[g, part[0]]) if hinted else state
                value = min_total(problem, part, budget - 1, limit - rest, mask[:0], child, played_after, narrow)
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


@njit(cache=True, nogil=True)
def guess_total(problem, candidates, guess, budget, limit, mask, state, played, branching):
    """The least total of a tree that plays ``guess`` at a node of ``candidates`` (within
    ``budget`` guesses, this one among them) if it is below ``limit``, else a lower bound that is
    at least ``limit``: ``TotalSearch.root_total`` below the root, in one call rather than one per
    part. As there: the parts' counting bounds, the lookaheads of the parts but the first (largest
    first, while the sum is below ``limit``; none with no limit or under a hint rule), then each
    part's ``min_total`` (``mask``, ``played``: after the guess; ``state``: the node's hint-rule
    state, each part's derived as ``min_total`` derives it; ``branching``: as there). The steps of
    ``min_total`` on one guess, which it keeps inline."""
    matrix = problem.matrix
    ordered, parts = split(matrix, guess, candidates, problem.n_feedbacks, problem.win)
    m, hinted = parts.shape[0], state.shape[0] > 0
    known = np.empty(m, np.int64)
    total = weigh_parts(problem, ordered, parts, budget - 1, limit, played, state, known, branching)
    for p in range(m):
        start, size = parts[p, 0], parts[p, 1]
        if total >= limit:
            break
        if size <= 2:
            continue
        rest, part = total - known[p], ordered[start:start + size]
        child = hint_child(state, problem, guess, matrix[guess, part[0]]) if hinted else state
        total = min(rest + min_total(problem, part, budget - 1, limit - rest, mask, child, played, branching), INF)
    return total


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
    _, n_parts, candidates_too, largest_parts = guess_bounds(problem, candidates, guesses, depth, np.bool_(True),
                                                             problem.children)
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
    n_tried = np.int64(0)
    for i in order:
        if problem.stop[0]:
            raise Stopped("stopped")
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
            child = hint_child(state, problem, g, matrix[g, part[0]]) if hinted else state
            if not within(problem, part, depth - 1, mask[:0], child):
                ok = False
                break
        if ok:
            remember_depths(table, h1, h2, 0, depth, g, n)
            return True
    remember_depths(table, h1, h2, depth + 1, 0, -1, n)
    return False

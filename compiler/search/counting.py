"""Lower bounds from counting alone: no tree does better than a perfect one.

Totals count guesses to win: a set of one secret costs 1, of two 3 (guess one, then the other),
and a guess at a node adds one guess for every candidate still there. The fewest-at-worst search
adds a penalty for every secret that a tree wins with the last guess of its budget (see
``Problem.penalty``): its totals weigh how many need the worst case before how many guesses in all.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .table import INF


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
        sizes, level, held = [first_level], 1, first_level  # the most nodes at each depth, from 1; their sum
        while held < n_secrets:
            level = min(level * branching, n_secrets + 1)
            sizes.append(level)
            held += level
        depths = np.repeat(np.arange(1, len(sizes) + 1, dtype=np.int64), sizes)[:n_secrets]
        return np.concatenate([np.zeros(1, dtype=np.int64), np.cumsum(depths)])

    reach = [0]
    level = 1
    while reach[-1] <= n_secrets:
        reach.append(min(reach[-1] + level, n_secrets + 1))
        level = min(level * branching, n_secrets + 1)
    return fill(1), fill(0), np.array(reach, dtype=np.int64)


def branching_tables(n_secrets: int, n_feedbacks: int, children: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``counting_tables`` for every branching up to ``children``, as rows: ``least_by[b]``,
    ``least_blind_by[b]`` and ``reach_by[b]`` are the tables of a node where no guess gets more
    than b answers besides the win (row 0 as row 1; ``reach`` rows padded with their last value).

    Fewer answers at a node are fewer at every node below it (a guess's parts of a subset are at
    most its parts of the set), so the most answers a node's guesses get (``min_total`` counts
    them as it scores them) bounds its whole subtree. A game's most can be far above its nodes':
    a Mastermind guess of 5 holes on secrets of 5 colours out of 6 gets up to 10 answers, but
    once the colour left out is known only its blacks vary.

    The rows of two answers or more at once (a game of 150 answers a guess spent 0.1 s a row at
    a time): the k-th secret of the best conceivable tree sits one level below each full level
    before it."""
    one = counting_tables(n_secrets, n_feedbacks, 1)  # (a level a depth: as deep as the secrets)
    branching = np.maximum(2, np.minimum(np.arange(children + 1), n_feedbacks - 1)).astype(np.int64)
    cap = n_secrets + 1
    levels = [np.ones(children + 1, dtype=np.int64)]  # nodes at each depth from the root, capped
    while levels[-1].min() < cap:
        levels.append(np.minimum(levels[-1] * branching, cap))
    levels = np.array(levels)  # [depth - 1, branching]
    secrets = np.arange(1, n_secrets + 1)

    def fill(first_level: int) -> np.ndarray:
        held = np.cumsum(levels, axis=0) - (1 - first_level)  # secrets the depths 1 to d hold
        # [branching, secret]: one more than the depths full before it (a search per branching:
        # comparing every secret with every depth of every branching took 0.08 s for Wordle)
        depth = 1 + np.stack([np.searchsorted(held[:, b], secrets, side="left") for b in range(children + 1)])
        return np.concatenate([np.zeros((children + 1, 1), dtype=np.int64), np.cumsum(depth, axis=1)], axis=1)

    reach = np.minimum(np.concatenate([np.zeros((1, children + 1), dtype=np.int64), np.cumsum(levels, axis=0)]), cap)
    reach_by = np.full((children + 1, len(one[2])), cap, dtype=np.int64)
    reach_by[:, :len(reach)] = reach.T
    tables = fill(1), fill(0), reach_by
    for table, row in zip(tables, one):
        table[:2, :len(row)] = row  # no answer but one (or none) besides the win
    return tables


@njit(cache=True, nogil=True)
def reachable(reach, depth):
    """Most secrets a tree of ``depth`` guesses can win."""
    return reach[depth] if depth < reach.shape[0] else reach[reach.shape[0] - 1]


@njit(cache=True, nogil=True)
def least_total(least, reach, n, budget, penalty):
    """Smallest conceivable total for n secrets within ``budget`` guesses (INF: impossible). With
    a ``penalty`` (``Problem.penalty``), each secret won by the budget's last guess costs that much
    more, and at least all those that one guess fewer cannot reach are (exact for n <= 2)."""
    if n > reachable(reach, budget):
        return INF
    if penalty == 0 or budget < 1:
        return least[n]
    late = n - reachable(reach, budget - 1)
    return min(least[n] + penalty * late, INF) if late > 0 else least[n]

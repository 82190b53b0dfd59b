"""Which first guess is best: the exact ranking of the first guesses by their least totals
(``ranked``, what ``guesstree openers`` prints through ``guesstree.compiler.exact.rank_openers``), and one
first guess's exact total and its exact rank (``ranked_first``), and the full proof's root
searched the same way (``ranked_root``).

The ranking is the root's branch and bound of the full proof (``total.py``) with the cutoff at
the K-th best total instead of the best: a first guess whose lower bound is at least the K-th
best key (total, then the canonical guess order) cannot rank in, so it is refuted; the others
are searched exactly below that cutoff. The effort rises only where the cheaper bound failed:
every first guess's counting bound at once (vectorised over the guesses), then, in its job, its
parts' one-guess lookahead bounds (``lookahead_order``), each stopping as soon as the sum refutes
it, then the search of its parts. Whatever the order in which jobs finish, the K best and their
totals are the same (ties go to the lower guess), and each first guess outside them has a proven
lower bound that puts it below the K-th. How each was settled is said the same in every run
(``OpenerSearch.settled``): by a bound when its bound before any search (counting, then its parts'
lookahead bounds, each the lookahead's own value: ``Space.lookahead(pure=True)``) refutes it
against the final K-th, else by a search. Only the bound's value in ``--report`` (``at_least``) and
the effort depend on the order.

    from guesstree.compiler.exact import rank_openers
    from guesstree.player import make_game
    ranking = rank_openers(make_game("mastermind", colours=3, holes=3), top=2)
    [(o.guess, o.total) for o in ranking.best]
"""
from __future__ import annotations

import time

import numpy as np

from .jobs import OpenerTotal
from .standings import BOUND, SEARCH, FirstRank, Opener, Ranking
from .table import INF, UNLIMITED

SEEDS_PER_PLACE, SEEDS_MIN = 10, 100  # first guesses the heuristic ranks best, searched first: per place ranked, at least

# parts at least this big get the ranking's lookahead bound (its own, not the search's
# ``recursion.LOOKAHEAD_MIN``: what the full proof's header says of the first guesses depends on it)
LOOKAHEAD_MIN = 12

SERIAL = 0  # the board's node number for the ranking's root (the root searches number theirs from 1)


def seeds_for(top: int) -> int:
    return max(SEEDS_MIN, SEEDS_PER_PLACE * top)


class Best:
    """The ``top`` best exact totals so far, by key (total, then the tie-break key of the guess:
    (not a candidate, guess) as the tree prefers, or (0, guess) for the canonical order alone),
    and what a first guess must stay below to rank in: the K-th's total, or one more for a guess
    whose tie-break key comes before the K-th's."""

    def __init__(self, top: int):
        self.top = top
        self.keys: list[tuple[int, int, int]] = []  # (total, blind, guess) ascending, at most ``top``

    def kth(self) -> tuple[int, int, int] | None:
        return self.keys[-1] if len(self.keys) == self.top else None

    def limit(self, key: tuple[int, int]) -> int:
        kth = self.kth()
        if kth is None:
            return INF  # a total of INF is no tree at all: it never ranks
        return min(INF, kth[0] + 1 if key < kth[1:] else kth[0])

    def add(self, total: int, key: tuple[int, int]) -> None:
        self.keys = sorted(self.keys + [(total, *key)])[:self.top]

    def board(self) -> tuple | None:
        """The K-th best as the running jobs read it (``TotalSearch.limit_now``)."""
        kth = self.kth()
        return None if kth is None else (SERIAL, *kth)


def opener_total(solver, candidates: np.ndarray, guess: int, budget: int, limit: int, fence: tuple | None = None):
    """What an ``OpenerTotal`` job returns, by rising effort: the parts' counting bounds, their
    lookahead bounds (in ``lookahead_order``, while the sum does not refute the guess), their search."""
    started = time.thread_time()
    space, search = solver.space, solver.total
    parts = space.split(guess, candidates)
    played = (guess,)
    bounds, total = space.weigh(parts, played, budget - 1, len(candidates), limit, lookahead_order(space, parts),
                                pure=True, limit_now=lambda limit: search.limit_now(fence, limit))
    limit, bound = search.limit_now(fence, limit), total
    if total < limit and any(len(part) > 2 for part in parts):
        total, limit = rising(solver, parts, bounds, total, played, budget - 1, limit, fence)
    return total, limit, time.thread_time() - started, bound


def lookahead_order(space, parts: list) -> list[int]:
    """The parts big enough for a lookahead bound (``LOOKAHEAD_MIN``), in the order that refutes a
    first guess for the fewest secrets read: a part's lookahead gains the most over its counting
    bound, per secret, at about the size that two guesses can win (``reach[2]``, the most answers a
    guess gets plus one), less below it, and far less above it, where its counting bound already
    counts a third guess for most secrets (Wordle, 150: 0.24 a secret at 12 to 25, 0.62 at 100 to
    150, 0.50 at 150 to 250, 0.23 at 250 to 400, 0.07 above). Against the largest first, a third
    fewer secrets read. The order changes the effort only: the bound of a guess it refutes is at
    least the limit either way, and one it does not refute gets every part's bound."""
    two = int(space.reach[2])  # (reach holds at least 0, 1 and the next: it ends above the secrets)

    def gain(size: int) -> float:
        return size if size <= two else two * (two / size) ** 3

    return sorted((i for i, part in enumerate(parts) if len(part) >= LOOKAHEAD_MIN), key=lambda i: -gain(len(parts[i])))


def rising(solver, parts: list, bounds: list[int], total: int, played: tuple, budget: int, limit: int,
           fence: tuple | None) -> tuple[int, int]:
    """Search ``parts`` (``bounds``: lower bounds on their totals within ``budget``, summing with the
    guesses already counted to ``total``) until their sum is exact or refutes ``limit``: each search
    asks a part only for its share of what the sum lacks (by size), so that a guess is refuted by
    many cheap proofs that its parts cost a little more than their bounds, not by solving its
    largest parts exactly. A part that proves cheaper than asked is exact. ``(total, limit)``, as
    ``TotalSearch.root_total`` returns them."""
    search = solver.total
    exact = [len(part) <= 2 for part in parts]  # parts of one or two secrets: their bound is exact
    while True:
        limit = search.limit_now(fence, limit)
        left = [index for index in range(len(parts)) if not exact[index]]
        if total >= limit or not left:
            return total, limit
        weight = sum(len(parts[index]) for index in left)
        for index in left:
            limit = search.limit_now(fence, limit)
            if total >= limit:
                break
            share = max(1, -(-(limit - total) * len(parts[index]) // weight))  # rounded up
            cutoff = min(bounds[index] + share, INF)
            solver.note(part=f"{index + 1}/{len(parts)}", part_size=len(parts[index]))
            value = max(search.node(parts[index], played, budget, cutoff, 1), bounds[index])
            exact[index] = value < cutoff
            total, bounds[index] = min(total + value - bounds[index], INF), value


def lookahead_total(space, guess: int, candidates: np.ndarray, budget: int) -> int:
    """A lower bound on the least total of a tree opening with ``guess``: the sum of its parts'
    lookahead bounds (under a hint rule, over the guesses it allows there; counting bounds for
    parts too small to pay)."""
    parts = space.split(guess, candidates)
    every = [index for index, part in enumerate(parts) if len(part) >= LOOKAHEAD_MIN]
    return space.weigh(parts, (guess,), budget - 1, len(candidates), INF + 1, every, pure=True)[1]


def opener_tree(solver, guess: int, budget: int) -> tuple[int, int]:
    """``(total, worst)`` of the canonical optimal tree opening with ``guess`` (what ``compile
    --first`` builds), walked through the table that its search filled."""
    space, search = solver.space, solver.total
    total = worst = 0
    stack = [(np.arange(space.n_secrets, dtype=np.int64), (), budget, guess)]
    while stack:
        candidates, played, left, chosen = stack.pop()
        depth = len(played) + 1
        if chosen is None:
            chosen = search.optimal_guess(candidates, played, left)
        if space.guess_secret[chosen] >= 0 and np.isin(space.guess_secret[chosen], candidates):
            total, worst = total + depth, max(worst, depth)
        for part in space.split(chosen, candidates):
            if len(part) == 1:
                total, worst = total + depth + 1, max(worst, depth + 1)
                continue
            stack.append((part, played + (chosen,), left - 1, None))
    return total, worst


class OpenerSearch:
    """The ranking's search on ``solver`` (a ``Solver`` of an optimal-expected search with no
    fixed first guess): the first guesses' jobs, handed out best counting bound first.
    ``frozen``: the best are given (``best.add`` before ``run``) and stay: each first guess is
    searched against them alone, found better (exact) or refuted, as ``ranked_first`` ranks one."""

    def __init__(self, solver, top: int, budget: int | None, tree_order: bool = False, frozen: bool = False):
        self.solver, self.space = solver, solver.space
        self.top, self.budget, self.frozen = top, UNLIMITED if budget is None else budget, frozen
        self.root = np.arange(self.space.n_secrets, dtype=np.int64)
        game = self.space.game
        guesses = self.space.guesses(self.root, ())
        counted, parts, is_candidate, _ = self.space.bounds(self.root, guesses, self.budget)
        useful = (parts > 1) | is_candidate
        self.useless = int((~useful).sum())
        self.guesses, self.counted = guesses[useful], counted[useful]  # put in order by ``prepare``
        # ties: a possible secret first, then the lowest guess (the tree's), or the lowest alone
        blind = ~is_candidate[useful] if tree_order else np.zeros(len(self.guesses), dtype=bool)
        self.keys = {int(g): (int(b), int(g)) for g, b in zip(self.guesses, blind)}
        self.sorted_from = 0  # from here on, ``counted`` ascends
        self.openers = {int(g): Opener(int(g), game.format_code(game.guesses[g])) for g in self.guesses}
        self.best = Best(top)
        self.next = 0  # the next first guess to hand out, in ``self.guesses``
        self.done = 0  # jobs done
        self.counted_out = 0  # first guesses that the counting bound refuted, with no job
        self.cpu = 0.0

    def without(self, guess: int) -> None:
        """Leave ``guess`` out of the search (the one that ``rank_of`` ranks); before ``prepare``."""
        keep = self.guesses != guess
        self.guesses, self.counted = self.guesses[keep], self.counted[keep]
        self.openers.pop(guess, None)

    def prepare(self) -> None:
        """The order of the jobs: first the heuristic's best, least lookahead bound first (a good
        predictor of the total: the K-th best is near its final value from the start), then the
        rest by counting bound, where one that the bound refutes refutes every later one."""
        guesses, counted, space = self.guesses, self.counted, self.space
        seeds = space.searched.rank(guesses, self.root, space.game.heuristic, seeds_for(self.top))
        looked = np.array([lookahead_total(space, int(g), self.root, self.budget) for g in seeds], dtype=np.int64)
        first = np.lexsort((seeds, looked))
        rest = ~np.isin(guesses, seeds)
        order = np.lexsort((guesses[rest], counted[rest]))
        self.guesses = np.concatenate([seeds[first], guesses[rest][order]])
        self.counted = np.concatenate([looked[first], counted[rest][order]])  # each a lower bound
        self.sorted_from = len(seeds)

    def pending(self) -> int:
        """First guesses not yet handed out whose counting bound does not refute them now."""
        kth = self.best.kth()
        if kth is None:
            return len(self.guesses) - self.next
        start = max(self.next, self.sorted_from)
        return start - self.next + int(np.searchsorted(self.counted[start:], kth[0] + 1, side="left"))

    def next_job(self):
        while self.next < len(self.guesses):
            guess, counted = int(self.guesses[self.next]), int(self.counted[self.next])
            self.next += 1
            limit = self.best.limit(self.keys[guess])
            if counted >= limit:  # the counting bound refutes it: no job
                self.openers[guess].at_least = self.openers[guess].bound = counted
                self.counted_out += 1
                if self.next > self.sorted_from and self.best.kth() is not None and counted > self.best.kth()[0]:
                    # and every later one
                    for rest in range(self.next, len(self.guesses)):
                        later = self.openers[int(self.guesses[rest])]
                        later.at_least = later.bound = int(self.counted[rest])
                    self.counted_out += len(self.guesses) - self.next
                    self.next = len(self.guesses)
                    self.note()
                continue
            self.solver.note(root=self.openers[guess].code)
            return guess, OpenerTotal(self.root, guess, self.budget, limit, (SERIAL, *self.keys[guess], 0))
        return None

    def on_result(self, guess: int, result) -> None:
        opener = self.openers[guess]
        value, limit, opener.cpu_seconds, opener.bound = result
        self.done, self.cpu = self.done + 1, self.cpu + opener.cpu_seconds
        if value < limit:
            opener.total = value
            if value < INF and not self.frozen:
                self.best.add(value, self.keys[guess])
                board = self.best.board()
                if board is not None:
                    self.solver.board.write(board)
        else:
            opener.at_least = value
        self.note()

    def note(self) -> None:
        kth = self.best.kth()
        settled = self.done + self.counted_out
        self.solver.note(openers=self.done + self.pending(), openers_done=self.done, settled=settled,
                         refuted=settled - len(self.best.keys), top=self.top,
                         **({} if kth is None else {"kth": kth[0]}))

    def run(self) -> None:
        self.solver.note(task=f"ranking {len(self.guesses)} first guesses")
        self.prepare()
        self.solver.schedule(self.next_job, self.on_result)

    def settled(self) -> dict[str, int]:
        """How each first guess outside the best is settled, the same in every run (its ``settled``),
        and how many each way: by a bound when its bound before any search is at least what it must
        stay below to rank in, by the final K-th; else by a search (its bound was below every K-th
        of the run, so every run searches it). A run may have searched one that a bound settles:
        one it reached before the K-th best was found."""
        ranked = {guess for _, _, guess in self.best.keys}
        counts = {BOUND: 0, SEARCH: 0}
        for opener in self.openers.values():
            if opener.guess in ranked:
                opener.settled = SEARCH  # its exact total
            elif opener.bound is not None:
                opener.settled = BOUND if opener.bound >= self.best.limit(self.keys[opener.guess]) else SEARCH
                counts[opener.settled] += 1
        return counts

    def ranking(self, started: float) -> Ranking:
        self.settled()
        best = [self.openers[guess] for _, _, guess in self.best.keys]
        for opener in best:
            total, opener.worst = opener_tree(self.solver, opener.guess, self.budget)
            if total != opener.total:
                raise RuntimeError(f"the tree opening with {opener.code} has {total} guesses, its search said "
                                   f"{opener.total}")
        space = self.space
        return Ranking(space.n_secrets, self.top, space.symmetry is not None, best,
                       [self.openers[g] for g in sorted(self.openers)],
                       None if self.budget >= UNLIMITED else self.budget, time.monotonic() - started, self.cpu,
                       self.solver.nodes, self.useless)


def check_top(top) -> None:
    """``--top``: a whole number of at least 1, or a ValueError that names it."""
    if isinstance(top, bool) or not isinstance(top, int) or top < 1:
        raise ValueError(f"--top must be a whole number of at least 1, not {top!r}")


def ranked(solver, top: int, max_depth: int | None = None) -> Ranking:
    """The ``top`` best first guesses of ``solver``'s game (see ``rank_openers``), on its threads
    or cluster, with its progress, checkpoint and Ctrl-C."""
    check_top(top)
    started = time.monotonic()
    search = OpenerSearch(solver, top, max_depth)
    search.space.total_below(search.root[:1], (), search.budget, INF)  # loaded here once, not by each thread
    solver.guarded(search.run, task="ranking first guesses")
    if not search.best.keys:
        within = "" if max_depth is None else f" within {max_depth} guesses"
        raise ValueError(f"no tree wins every secret of {search.space.game.title()}{within} (guesstree bound finds the fewest)")
    return search.ranking(started)


def ranked_first(solver, first: int, max_depth: int | None = None) -> FirstRank:
    """The exact total of the first guess ``first`` (an index) and its exact rank (see ``rank_of``):
    every other first guess searched against it alone (``OpenerSearch(frozen=True)``), so that the
    effort grows with the rank, as ``ranked`` with ``top`` the rank. On ``solver``'s threads or
    cluster, with its progress, checkpoint and Ctrl-C."""
    started = time.monotonic()
    search = OpenerSearch(solver, 1, max_depth, frozen=True)
    space, budget, game = search.space, search.budget, search.space.game
    code = game.format_code(game.guesses[first])
    if len(space.split(first, search.root)) < 2 and space.guess_secret[first] < 0:
        raise ValueError(f"--first {code} tells no secret apart (every secret answers it alike): "
                         "it only wastes a guess")
    stand_in = _standing_for(space, search, first)
    search.without(stand_in)

    def run():
        total, _, seconds, _ = opener_total(solver, search.root, first, budget, INF)
        if total >= INF:
            raise ValueError(f"no tree opening with {code} wins every secret within {max_depth} guesses")
        search.best.add(total, (0, stand_in))  # its class ranks by the guess that stands for it
        solver.board.write(search.best.board())
        search.run()
        return total, seconds

    total, seconds = solver.guarded(run, task=f"first guess {code}")
    opener = Opener(first, code, total, settled=SEARCH, cpu_seconds=seconds)
    opener.worst = opener_tree(solver, first, budget)[1]
    settled = search.settled()
    better = sorted((o for o in search.openers.values() if o.total is not None), key=lambda o: (o.total, o.guess))
    refuted = {BOUND: settled[BOUND] + search.useless, SEARCH: settled[SEARCH] - len(better)}
    return FirstRank(space.n_secrets, opener, len(search.openers) + search.useless + 1, len(better) + 1, better,
                     refuted, space.symmetry is not None,
                     None if stand_in == first else game.format_code(game.guesses[stand_in]),
                     None if budget >= UNLIMITED else budget, time.monotonic() - started, seconds + search.cpu)


def _standing_for(space, search: OpenerSearch, first: int) -> int:
    """The first guess that stands for ``first``'s symmetry class in ``search`` (itself if none other)."""
    if space.symmetry is None or first in search.openers:
        return first
    guesses = space.game.guesses
    lowest = guesses.index(space.symmetry.lowest_of_class(guesses[first]))  # a guess too: the game is permutable
    return lowest if lowest in search.openers else first


def ranked_root(solver, budget: int, choice) -> dict[str, int]:
    """The full proof's root (``TotalSearch`` with many first guesses): the best first guess under
    the tree's tie-break, as the ranking searches them (each a job, the best found first by their
    lookahead bounds, each refuted by rising effort), put in ``choice`` (a ``choice.Choice``).
    Returns what the proof's header says of its first guesses, the same in every run: how many
    (one per symmetry class, if any), how many a bound refuted (those that learn nothing among
    them) and how many a search refuted (``OpenerSearch.settled``)."""
    search = OpenerSearch(solver, 1, budget, tree_order=True)
    search.run()
    if search.best.keys:
        choice.value, choice.key = search.best.keys[0][0], search.best.keys[0][1:]
    choice.refute(min((o.value for o in search.openers.values() if o.value is not None), default=INF))
    counts = search.settled()
    return {"first_guesses": len(search.openers) + search.useless, "by_class": search.space.symmetry is not None,
            "refuted_by_bound": counts[BOUND] + search.useless, "refuted_by_search": counts[SEARCH]}

"""Symmetry: guesses that the history cannot tell apart partition the candidates alike.

For a permutable game (``Game.permutable``: mastermind in all its variants, digits, bulls and
cows), a reordering of the positions together with a renaming of the colours maps secrets to
secrets and keeps every score; one that maps each played guess to itself fixes the candidate
set of every node below, so guesses of one class score exactly the same, are all candidates or
all not, and only the lowest of each class need be scored: the canonical tie-break prefers it.

Two groups are used: the builder's keeps the played colours' names (reorderings on which every
played guess agrees, with any renaming of the colours not played yet); the exhaustive search's
also renames played colours (after ABCD, every reordering of A-D with the matching reordering of
the positions). Any subset of a group is sound too (a guess dropped for a lower classmate leads,
step by step, to a kept one), which is what bounds the cost: checking a symmetry costs about one
pass over the codes' positions, scoring the node one pass over guesses x candidates, so a node
enumerates at most candidates / (holes x a backend's cost per position) symmetries, and finding
classes never costs more than one scoring pass.
"""
from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np

from guesstree.player.games import Game

MAX_SYMMETRIES = 5040  # symmetries enumerated per history at most
COST_PER_POSITION = {"numba": 1, "numpy": 8}  # checking one code's position, in scoring one cell
KEPT_BYTES = 1 << 26  # AbsentSymbols keeps its masks of the guesses kept up to this size in all


class Symmetry:
    """Per history (the guesses played, as indices into ``codes``), a mask of the guesses that are
    the lowest of their class. ``rename_played``: may played colours be renamed (the search's
    group), unless ``canonical`` is told otherwise: one object serves both groups."""

    def __init__(self, game: Game, codes: np.ndarray, backend: str = "numba", rename_played: bool = False):
        self.codes = np.ascontiguousarray(codes, dtype=np.int64)
        self.colours, self.backend, self.rename_played = game.symbols, backend, rename_played
        # are the codes in the order of their symbols (the first position first)? Then putting a
        # code's symbols in order along positions gives a lower code (``_in_order``)
        self.ordered = len(self.codes) > 1 and bool(np.array_equal(np.lexsort(self.codes.T[::-1]),
                                                                   np.arange(len(self.codes))))
        self._cache: dict[tuple, np.ndarray | None] = {}  # by (played, renames)

    def canonical(self, played: tuple[int, ...], candidates: int = MAX_SYMMETRIES,
                  renames: bool | None = None) -> np.ndarray | None:
        """Mask of the guesses lowest in their class, or None when no symmetry is left.
        ``candidates``: how many the node has, which bounds the symmetries worth enumerating;
        ``renames``: may played colours be renamed (default ``rename_played``)."""
        renames = self.rename_played if renames is None else renames
        if (played, renames) not in self._cache:
            worth = candidates // (self.codes.shape[1] * COST_PER_POSITION[self.backend])
            self._cache[played, renames] = self._compute(played, max(1, min(worth, MAX_SYMMETRIES)), renames)
        return self._cache[played, renames]

    def lowest_of_class(self, code) -> tuple[int, ...]:
        """The lowest code of ``code``'s class before any guess (the search's group, where every
        colour may be renamed and every position moved): its colours renamed 0, 1, ... from the most
        frequent (ties by first appearance), then put in order along the positions."""
        rename = {colour: new for new, (colour, _) in enumerate(Counter(code).most_common())}
        return tuple(sorted(rename[colour] for colour in code))

    def images(self, guess: int, played: tuple[int, ...]) -> list[int]:
        """Every guess of ``guess``'s class after ``played`` (the search's group, played colours
        renamed too), as indices into the codes: each partitions the candidates of every node below
        as ``guess`` does, so its total there is the same. All of them, not a subset: the group
        is enumerated whole (a game of many holes would want a bound here)."""
        history = self.codes[list(played)] if played else np.zeros((0, self.codes.shape[1]), dtype=np.int64)
        index = {tuple(code): row for row, code in enumerate(self.codes.tolist())}
        code = self.codes[guess].tolist()
        found = set()
        for perm, rename in zip(*self._symmetries(history, math.factorial(self.codes.shape[1]) ** 2, True)):
            moved = [code[source] for source in perm]
            free = sorted({colour for colour in moved if rename[colour] < 0})
            unnamed = [colour for colour in range(self.colours) if colour not in set(rename)]
            for names in itertools.permutations(unnamed, len(free)):
                named = dict(zip(free, names))
                image = tuple(rename[colour] if rename[colour] >= 0 else named[colour] for colour in moved)
                if image in index:
                    found.add(index[image])
        return sorted(found)

    def _compute(self, played: tuple[int, ...], limit: int, renames: bool) -> np.ndarray | None:
        from .kinds import backend_kernels

        history = self.codes[list(played)] if played else np.zeros((0, self.codes.shape[1]), dtype=np.int64)
        used = np.zeros(self.colours, dtype=np.bool_)
        used[history.ravel()] = True
        perms, maps = self._symmetries(history, limit, renames)
        # where the symmetries enumerated may be fewer than the group's (all of it: order adds nothing),
        # at the top two levels (below, the many nodes' passes would cost more than they save)
        in_order = self._in_order(history) if len(perms) >= limit and len(played) <= 1 else None
        if len(perms) == 1 and used.all():  # only the identity, and no colour left to rename
            return in_order
        lowest = backend_kernels(self.backend).canonical_under(self.codes, np.array(perms, dtype=np.int64),
                                                       np.array(maps, dtype=np.int64), used)
        return lowest if in_order is None else lowest & in_order

    def _in_order(self, history: np.ndarray) -> np.ndarray | None:
        """Over every guess: are its symbols in increasing order along each block of positions that
        the played guesses treat alike (the same symbol in each), or None if no block has two? A
        reordering within a block fixes every played guess, and one that puts a guess's symbols in
        order there gives a lower code of its class (at the root, so does naming the colours in
        decreasing order of their counts); with the enumerated symmetries (a subset of the group
        too) this keeps the lowest of each class, and it checks the whole of these in one pass: a
        game of many holes has far more than ``MAX_SYMMETRIES`` (2x10: 7 257 600 at the root)."""
        if not self.ordered:
            return None
        blocks: dict[tuple, list[int]] = {}
        for h in range(self.codes.shape[1]):
            blocks.setdefault(tuple(history[:, h]), []).append(h)
        kept = None
        for positions in blocks.values():
            for a, b in zip(positions, positions[1:]):
                step = self.codes[:, a] <= self.codes[:, b]
                kept = step if kept is None else kept & step
        if kept is not None and len(history) == 0:  # the root, where every colour may be renamed too:
            # the lowest of a class plays each colour at least as often as the next one
            counts = np.stack([(self.codes == c).sum(axis=1) for c in range(self.colours)], axis=1)
            kept &= np.all(counts[:, :-1] >= counts[:, 1:], axis=1)
        return kept

    def _symmetries(self, history: np.ndarray, limit: int, renames: bool) -> tuple[list, list]:
        """Up to ``limit`` (position reordering, colour map) pairs that map every played guess to
        itself, the identity first. ``perm[h]`` is the position moved to h; ``rename[c]`` the
        new name of played colour c (-1 for the others, which the kernel names freely)."""
        holes = self.codes.shape[1]
        columns = [tuple(history[:, h]) for h in range(holes)]
        perms, maps = [], []
        perm = [-1] * holes
        taken = [False] * holes
        rename = [-1] * self.colours
        named = [False] * self.colours

        def place(h: int) -> None:  # depth first over the positions; sources in increasing order
            if len(perms) >= limit:
                return
            if h == holes:
                perms.append(list(perm))
                maps.append(list(rename) if renames else list(range(self.colours)))
                return
            for source in range(holes):
                if taken[source]:
                    continue
                if not renames:
                    if columns[source] != columns[h]:
                        continue
                    taken[source], perm[h] = True, source
                    place(h + 1)
                    taken[source] = False
                    continue
                added, ok = [], True
                for a, b in zip(columns[source], columns[h]):
                    if rename[a] < 0 and not named[b]:
                        rename[a], named[b] = b, True
                        added.append(a)
                    elif rename[a] != b:
                        ok = False
                        break
                if ok:
                    taken[source], perm[h] = True, source
                    place(h + 1)
                    taken[source] = False
                for a in added:
                    named[rename[a]], rename[a] = False, -1
        place(0)
        return perms, maps


class AbsentSymbols:
    """Guesses alike because they play symbols that no candidate has.

    In a game of peg scores (``Game.feedback_kind`` "pegs": the symbols right in place and the
    overlap of the two multisets), a symbol that no candidate has never counts: guesses that differ only in which such absent
    symbols they play answer alike on every candidate, so only the lowest of them need be scored,
    and the canonical tie-break prefers it. When guesses may repeat symbols, the lowest plays the
    lowest absent symbol wherever it plays any; when they may not, the lowest absent symbols in
    increasing order along its positions. One absent symbol makes no two guesses alike. This
    holds when every code of the game's repeat rule is a guess (else the lowest might not be one):
    ``usable`` says whether it does. ``search.alike.absent_symbols`` is its compiled twin.
    """

    def __init__(self, game: Game, guess_codes: np.ndarray):
        self.usable = self.repeats = False
        k = getattr(game, "symbols", 0)
        if game.feedback_kind != "pegs" or not 2 <= k <= 64:
            return
        codes = np.asarray(guess_codes, dtype=np.int64)
        ordered = np.sort(codes, axis=1)
        repeats = bool((ordered[:, 1:] == ordered[:, :-1]).any())
        if len(codes) != (k ** codes.shape[1] if repeats else math.perm(k, codes.shape[1])):
            return
        self.usable, self.repeats, self.codes = True, repeats, codes
        self._kept_by_absent: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self.guess_bits = np.bitwise_or.reduce(np.uint64(1) << codes.astype(np.uint64), axis=1)
        self.every = np.uint64((1 << k) - 1)

    def problem_fields(self, secret_guess: np.ndarray, permutable: bool) -> dict:
        """The fields of ``search.problem.Problem`` that carry this (empty ones when not usable), and
        whether the search may rename the symbols that no played guess has (``permutable``: the game's)."""
        if not self.usable:
            return {"guess_symbols": np.zeros(0, np.uint64), "secret_symbols": np.zeros(0, np.uint64),
                    "guess_codes": np.zeros((0, 0), np.int64), "repeats": False, "every_symbol": np.uint64(0),
                    "renames": False}
        return {"guess_symbols": self.guess_bits, "secret_symbols": self.guess_bits[secret_guess],
                "guess_codes": self.codes, "repeats": self.repeats, "every_symbol": self.every, "renames": permutable}

    def played(self, guesses: tuple[int, ...]) -> np.uint64:
        """The symbols of ``guesses`` as bits (0 when not usable)."""
        if not self.usable or not guesses:
            return np.uint64(0)
        return np.bitwise_or.reduce(self.guess_bits[list(guesses)])

    def lowest(self, guess_ids: np.ndarray, candidate_guesses: np.ndarray) -> np.ndarray:
        """``guess_ids`` without those that a lower one alike stands for, at a node whose candidates
        are the guesses ``candidate_guesses``."""
        if not self.usable:
            return guess_ids
        absent = int(self.every) & ~int(np.bitwise_or.reduce(self.guess_bits[candidate_guesses]))
        if absent.bit_count() < 2:
            return guess_ids
        kept, kept_ids = self._kept(absent)
        if len(guess_ids) == len(self.codes):  # every guess (in order): the guesses kept, made once
            return kept_ids
        return guess_ids[kept[guess_ids]]

    def _kept(self, absent: int) -> tuple[np.ndarray, np.ndarray]:
        """Over every guess: is it the lowest of those alike when the symbols ``absent`` are? With
        the indices of those that are. Kept for the next nodes with the same absent symbols, those
        used last kept first when there are too many to keep (a tree visits sets of absent symbols
        in runs: 8x6 most-parts' 227 sets, met 30 693 times, cost 4 714 makings so, 6 575 when
        all were dropped at once)."""
        found = self._kept_by_absent.pop(absent, None)
        if found is not None:
            self._kept_by_absent[absent] = found  # (the dict's order: the one used last is last)
            return found
        while self._kept_by_absent and (len(self._kept_by_absent) + 1) * len(self.codes) * 9 > KEPT_BYTES:
            del self._kept_by_absent[next(iter(self._kept_by_absent))]  # (a byte and an index a guess)
        if self.repeats:  # with no absent symbol but the lowest
            kept = (self.guess_bits & np.uint64(absent & (absent - 1))) == 0
        else:  # distinct symbols: the k-th absent one played (along the positions) is the k-th lowest absent
            played = (np.uint64(absent) >> self.codes.astype(np.uint64)) & np.uint64(1) == 1
            rank = np.cumsum(played, axis=1) - 1
            names = np.array([s for s in range(64) if absent >> s & 1], dtype=np.int64)
            expected = names[np.minimum(rank, len(names) - 1)]
            kept = np.all(~played | (self.codes == expected), axis=1)
        found = self._kept_by_absent[absent] = kept, np.flatnonzero(kept)
        return found

"""Help off the tree: the secrets still possible after any history, and a good next guess once a
person has played a guess of their own.

The rule ``suggest`` follows (the JavaScript player, ``player/js``, follows the same one, so both
give the same answer for every history):

- While the history follows the tree, the tree's own guess (``None`` once won).
- Else, while it follows the opening book (``player.book``): the book's optimum for the first
  guess (in a game whose codes may be renamed and reordered, the peg games, for its class); then,
  in such a game, the tree itself where the first guess is in the class of the tree's own, carried
  by the symmetry between them. Each tree's guess is played while the history follows it.
- Otherwise, with ``C`` the candidates (the secrets, in canonical order, that give every answer):
  one or two left, the first of them. Else every guess the game allows after the history is
  ranked by the parts it splits ``C`` into (Kooi's most-parts), ties going to a guess that may be
  the secret, then to the lowest code. In a game whose secrets have weights (``game.weights``: a
  words list that gives them), the heavier of one or two candidates comes first (equal weights:
  the first), and ties in parts go to a guess that may be the secret, then to the heavier of them,
  then to the lowest code. The ranking is over ``m = max(SAMPLE, FEEDBACKS // guesses
  allowed)`` members of ``C`` evenly spaced when ``C`` has more, and then its best ``SHORTLIST``
  are ranked again over all of ``C``. (A guess that splits ``C`` into single secrets ends the
  ranking: none does better.)
- The look-ahead keeps every game within the tree's own worst case ``W`` where it can: the first
  guess of the shortlist (best first) after which every part can still be won within ``W``
  guesses in all is played; failing that, within ``W + 1``; failing both, the best-ranked guess.
  A part can be won within ``d`` guesses if it has at most ``d`` secrets (guess them in turn), or
  if, with ``d >= 2``, one of the ``TRIES`` guesses that split it into the most parts (its
  secrets, at most ``SHORTLIST`` of them evenly spaced, then the shortlist's guesses the game
  allows there) leaves parts that can each be won within ``d - 1`` (with ``d = 2``: only a guess
  that tells every secret apart). Scoring ``g`` guesses on a set of ``n`` costs
  ``g * (n + OVERHEAD)``, and checking hard mode's rule for ``g`` guesses ``g * OVERHEAD``; once
  the look-ahead has spent ``BUDGET`` on one suggestion (``HARD_BUDGET`` in a game that narrows
  its guesses, as hard mode does), it answers "cannot" for every set it would have to split. Each suggestion starts afresh: the answer
  depends on the history alone, never on what was asked before.
"""
from __future__ import annotations

import heapq
from collections.abc import Sequence

from .games import Code, Feedback

SAMPLE = 32  # at least this many secrets each guess is ranked on ...
FEEDBACKS = 400_000  # ... and as many as make this many feedbacks over the pool: ~25 ms of CPython
SHORTLIST = 60  # the best guesses by the sample, ranked again on every candidate; the look-ahead plays them
TRIES = 6  # guesses, best first, the look-ahead tries on each set below the one to guess for
BUDGET = 20_000  # what the look-ahead may spend on one suggestion (~10 ms of CPython), counted as ...
OVERHEAD = 16  # ... (secrets + OVERHEAD) per guess it scores on a set: a set's rows cost as much again
HARD_BUDGET = 3_000_000  # where the game narrows the guesses (hard mode): its traps (_ATCH, _OUND) lie deeper

Steps = list[tuple[Code, Feedback]]


def candidates(game, steps: Sequence[tuple[Code, Feedback]]) -> list[Code]:
    """The secrets of ``game``, in canonical order, that give every (guess, feedback) of ``steps``."""
    remaining = game.secrets
    for guess, feedback in steps:
        remaining = game.consistent(guess, feedback, remaining)
    return remaining


def best_guess(game, worst: int, steps: Steps, remaining: list[Code]) -> Code:
    """The guess of the module's rule in ``game`` after ``steps``, whose candidates are ``remaining``;
    ``worst``: the tree's worst case, which the look-ahead keeps where it can."""
    if len(remaining) <= 2:
        return heaviest_first(game, remaining)[0]
    shortlist = ranked(game, game.guesses_after(steps), remaining)
    look = Lookahead(game, shortlist)
    for depth in (worst, worst + 1):
        for guess in shortlist:
            if look.keeps(guess, remaining, depth - len(steps) - 1, steps):
                return guess
    return shortlist[0]


def ranked(game, pool: Sequence[Code], remaining: list[Code]) -> list[Code]:
    """The best ``SHORTLIST`` guesses of ``pool`` by the parts they split ``remaining`` into, best first."""
    allowed = game._guess_set if pool is game.guesses else set(pool)
    possible = set(remaining)
    order = [c for c in heaviest_first(game, remaining) if c in allowed] + [g for g in pool if g not in possible]
    n, size = len(remaining), max(SAMPLE, FEEDBACKS // len(order))
    exact = n <= size
    sample = remaining if exact else [remaining[i * n // size] for i in range(size)]
    counts = []
    for count in game.partition_counts(order, sample):
        counts.append(count)
        if exact and count == n:
            break
    top = heapq.nlargest(SHORTLIST, range(len(counts)), key=counts.__getitem__)  # ties keep the order
    if not exact:
        again = list(game.partition_counts([order[i] for i in top], remaining))
        top = [i for _, i in sorted(zip(again, top), key=lambda pair: (-pair[0], pair[1]))]
    return [order[i] for i in top]


def heaviest_first(game, secrets: list[Code]) -> list[Code]:
    """``secrets`` (in canonical order) heaviest first, equal weights in their order; as they are
    where every secret weighs the same (``game.weights`` is None)."""
    if game.weights is None:
        return secrets
    weight = dict(zip(game.secrets, game.weights))
    return sorted(secrets, key=lambda secret: -weight[secret])  # (sorted is stable: ties keep their order)


class Lookahead:
    """Can a set of secrets still be won within so many guesses? (the module's rule, bounded)"""

    def __init__(self, game, shortlist: list[Code]):
        self.game, self.shortlist = game, shortlist
        self.budget = HARD_BUDGET if game.restricts_guesses else BUDGET
        self._splitters: dict[int, tuple] = {}  # id(set) -> (set, its splitter): each set's rows made once

    def keeps(self, guess: Code, secrets: list[Code], left: int, steps: Steps, pool: list[Code] | None = None) -> bool:
        """After ``guess``, can every part of ``secrets`` be won within ``left`` more guesses?
        ``pool``: the shortlist's guesses the game allows after ``steps`` (all of it at first)."""
        game = self.game
        pool = self.shortlist if pool is None else pool
        for part in self.parts(guess, secrets):
            after = steps
            if game.restricts_guesses:  # hard mode's rule holds step by step: only the new one to check
                after = steps + [(guess, game.score(guess, part[0]))]
                rule = [after[-1]] if game.hint_rule else after
                allowed = [] if self.budget <= 0 else [g for g in pool if game.allows(g, rule) is None]
                self.budget -= len(pool) * OVERHEAD  # checking the rule costs as much as a row
            else:
                allowed = pool
            if not self.within(part, left, after, allowed):
                return False
        return True

    def within(self, secrets: list[Code], depth: int, steps: Steps, pool: list[Code]) -> bool:
        game = self.game
        n = len(secrets)
        if n <= depth and all(game.is_guess(secret) for secret in secrets):
            return True
        if depth < 2 or self.budget <= 0:
            return False
        possible = self.members(secrets)
        playable = [s for s in secrets if game.is_guess(s)]
        if len(playable) > SHORTLIST:
            playable = [playable[i * len(playable) // SHORTLIST] for i in range(SHORTLIST)]
        guesses = playable + [g for g in pool if g not in possible]
        self.budget -= len(guesses) * (n + OVERHEAD)
        split = self.splitter(secrets)
        counts = [len(set(split(guess))) for guess in guesses]
        for i in heapq.nlargest(TRIES, range(len(guesses)), key=counts.__getitem__):
            if depth == 2 and counts[i] < n:
                break  # two guesses left: only a guess that tells every secret apart will do
            if self.keeps(guesses[i], secrets, depth - 1, steps, pool):
                return True
        return False

    def splitter(self, secrets: list[Code]):
        """``game.splitter(secrets)``, made once for each set of one suggestion (the set is kept with
        it, so that its id names it until the suggestion ends)."""
        return self._known(secrets)[1]

    def members(self, secrets: list[Code]) -> set[Code]:
        """``set(secrets)``, made once for each set of one suggestion."""
        return self._known(secrets)[2]

    def _known(self, secrets: list[Code]) -> tuple:
        known = self._splitters.get(id(secrets))
        if known is None:
            known = self._splitters[id(secrets)] = (secrets, self.game.splitter(secrets), set(secrets))
        return known

    def parts(self, guess: Code, secrets: list[Code]) -> list[list[Code]]:
        """The parts ``guess`` splits ``secrets`` into, in the order of their first secret, but for
        the one it wins (``guess`` itself, when it is one of them)."""
        groups: dict = {}
        values = self.splitter(secrets)(guess)
        for value, secret in zip(values, secrets):
            groups.setdefault(value, []).append(secret)
        if guess in self.members(secrets):
            del groups[values[secrets.index(guess)]]  # its part is the one whose feedback is the win
        return list(groups.values())

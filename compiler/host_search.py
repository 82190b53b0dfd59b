"""The fewest guesses that beat an adversarial host (``bound --host absurdle``), proven both ways.

The host (``player/host.py``) answers every guess with the feedback that keeps the most secrets,
ties to the one that tells least, and so is one deterministic game: a sequence of guesses meets one
sequence of answers. It is beaten when one secret is left and is guessed; so the fewest guesses are
one more than the fewest that leave one secret. The search deepens one guess at a time: within
``d`` guesses, ``d - 1`` must leave one secret, and the last of those must split what is left into
parts of one each (checked by the engine's ``first_perfect``, over every guess); the guesses before
are tried in order of the secrets the host keeps after them, and a set the host keeps is dropped
when more than ``F ** k`` secrets are left for ``k`` more guesses to split (``F``: the game's
feedbacks). Depth ``d`` proven impossible is every such branch tried: the proof of the bound's
lower side; the sequence found, replayed by the player's own host, its upper side.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from guesstree.player.games import Game
from guesstree.player.host import answer, answer_and_parts, check_host
from guesstree.player.wording import counted

from .engine.arrays import GameArrays
from .options import DEFAULT_MAX_MEMORY


@dataclass
class HostBound:
    """What ``fewest_against`` proved: ``worst``, the fewest guesses that beat the host, and a
    sequence that does (``guesses``, with the host's ``answers``)."""

    host: str
    worst: int
    guesses: list = field(default_factory=list)
    answers: list = field(default_factory=list)
    tried: int = 0  # sets the host keeps that were searched to prove one fewer guess impossible
    any_rule: bool = True  # one fewer is impossible whichever of equal largest parts the host keeps
    ties: int = 0  # guesses of the sequence after which the host had equal largest parts to choose from
    seconds: float = 0.0

    def to_dict(self, game: Game) -> dict:
        return {"host": self.host, "worst": self.worst, "guesses": [game.format_code(g) for g in self.guesses],
                "answers": [game.format_feedback(f) for f in self.answers], "tried": self.tried,
                "any_rule": self.any_rule, "ties": self.ties, "seconds": round(self.seconds, 3)}

    def text(self, game: Game) -> str:
        steps = ", ".join(f"{game.format_code(g)} {game.format_feedback(f)}" for g, f in zip(self.guesses, self.answers))
        ties = "no tie on the way, so they beat it whatever its rule between equal parts" if not self.ties else \
            f"{self.ties} of them left the host equal largest parts (its rule chose)"
        rule = "whichever of equal largest parts the host keeps" if self.any_rule else "under its rule between equal parts"
        return (f"{game.title()}, against the {self.host} host: the fewest guesses are {self.worst}\n"
                f"  achieved: {steps} ({ties})\n"
                f"  none within {self.worst - 1}: every sequence of {self.worst - 2} guesses leaves more than one "
                f"secret, {rule} ({counted(self.tried, 'set')} the host keeps searched)\n"
                f"  ({self.seconds:.2f} s)")


BLOCK = 1 << 22  # cells (a guess against a secret) that one block of ``_Search.kept`` holds at once: 32 MiB


class _Search:
    def __init__(self, game: Game, arrays: GameArrays):
        if arrays.matrix is None:
            raise ValueError(f"{game.title()} is too big for this search: its feedback matrix does not fit in --max-memory")
        self.game, self.arrays = game, arrays
        self.matrix = arrays.matrix  # [guess, secret]: feedback indices
        self.n_feedbacks = arrays.n_feedbacks
        order = sorted(range(self.n_feedbacks), key=lambda f: game.host_key(arrays.feedbacks[f]))
        rank = np.empty(self.n_feedbacks, dtype=np.int64)
        rank[order] = np.arange(self.n_feedbacks)
        self.tell_least = (self.n_feedbacks - 1 - rank)  # higher: the host prefers it among parts as big
        self.all_guesses = np.arange(len(game.guesses), dtype=np.int64)
        self.tried = 0
        self.failed: set[tuple] = set()  # (the set's bytes, guesses, any_tie, unique) found not to leave one

    def kept(self, pool: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per guess, the feedback the host answers over ``pool``, how many secrets it keeps, and the
        size of each part (per guess, per feedback); in blocks of guesses of at most ``BLOCK`` cells."""
        n, guesses = self.n_feedbacks, len(self.all_guesses)
        counts = np.empty((guesses, n), dtype=np.int64)
        step = max(1, BLOCK // len(pool))
        for start in range(0, guesses, step):
            rows = self.all_guesses[start:start + step]
            values = self.matrix[np.ix_(rows, pool)].astype(np.int64) + (np.arange(len(rows)) * n)[:, None]
            counts[start:start + len(rows)] = np.bincount(values.ravel(), minlength=len(rows) * n).reshape(-1, n)
        chosen = np.argmax(counts * n + self.tell_least, axis=1)
        return chosen, counts[self.all_guesses, chosen], counts

    def split_perfectly(self, pool: np.ndarray, played: tuple) -> int:
        """A guess that puts every secret of ``pool`` in a part of its own, or -1."""
        if len(pool) > self.n_feedbacks:
            return -1
        guesses = self.canonical(played)
        found = self.arrays.scorer.first_perfect(guesses, pool)
        return int(guesses[found]) if found >= 0 else -1

    def canonical(self, played: tuple) -> np.ndarray:
        """One guess of each class of guesses alike after ``played`` (all of them in a game without
        symmetries): alike guesses keep alike sets, so the host keeps as many after each."""
        mask = None if self.arrays.symmetry is None else \
            self.arrays.symmetry.canonical(played, len(self.arrays.secret_guess), renames=True)
        return self.all_guesses if mask is None else self.all_guesses[mask]

    def leaves_one(self, pool: np.ndarray, guesses: int, any_tie: bool = False, unique: bool = False,
                   played: tuple = ()) -> list[int] | None:
        """Guesses (at most ``guesses``) after which the host keeps one secret of ``pool``, or None.
        ``any_tie``: the host may keep any of the largest parts (whatever its rule between them), and
        a sequence is one that some such choice lets through; ``unique``: only guesses whose largest
        part of more than one secret is the only one that large (whatever the host's rule, it keeps it)."""
        self.tried += 1
        if len(pool) == 1:
            return []
        if guesses == 0 or len(pool) > self.n_feedbacks ** guesses:
            return None
        if guesses == 1:
            g = self.split_perfectly(pool, played)
            return None if g < 0 else [g]
        known = (pool.tobytes(), guesses, any_tie, unique)  # (what a set allows is the set's, however reached)
        if known in self.failed:  # (another order of guesses reached the same set)
            return None
        chosen, sizes, counts = self.kept(pool)
        alike = self.canonical(played)
        for g in alike[np.argsort(sizes[alike], kind="stable")]:
            if sizes[g] >= len(pool) or sizes[g] > self.n_feedbacks ** (guesses - 1):
                break
            kept = np.flatnonzero(counts[g] == sizes[g]) if any_tie else [chosen[g]]
            if unique and sizes[g] > 1 and np.count_nonzero(counts[g] == sizes[g]) > 1:
                continue
            for feedback in kept:
                found = self.leaves_one(pool[self.matrix[g, pool] == feedback], guesses - 1, any_tie, unique,
                                        (*played, int(g)))
                if found is not None:
                    return [int(g), *found]
        self.failed.add(known)
        return None


def fewest_against(game: Game, host: str = "absurdle", max_memory: int | None = None, most: int = 10,
                   progress: Callable[[str], None] | None = None) -> HostBound:
    """The fewest guesses that beat ``host`` in ``game`` (at most ``most``), with a sequence that does
    and the search that proves one fewer impossible; a ValueError if ``most`` do not suffice.
    ``progress``: told a line as each number of guesses is refuted."""
    check_host(host)
    if game.restricts_guesses:
        raise ValueError(f"{game.title()}: the search against a host plays every allowed guess; a game whose rules "
                         "narrow the guesses (hard mode) is not searched")
    started = time.monotonic()
    arrays = GameArrays.made(game, max_memory or DEFAULT_MAX_MEMORY)
    search = _Search(game, arrays)
    pool = np.arange(len(game.secrets), dtype=np.int64)
    for before in range(0, most):
        search.tried = 0
        found = search.leaves_one(pool, before)
        if found is not None:
            break
        tried = search.tried  # the proof that ``before`` guesses leave more than one secret
        if progress is not None:
            progress(f"  no win within {counted(before + 1, 'guess', 'guesses')} ({counted(tried, 'set')} the host keeps "
                     f"searched, {time.monotonic() - started:.1f} s); trying {before + 2}")
    else:
        raise ValueError(f"{game.title()}: the {host} host is not beaten within {most} guesses")
    found = search.leaves_one(pool, before, unique=True) or found  # one that beats the host whatever its rule, if any
    # whichever of equal largest parts the host kept, could one fewer guess do? (no: the bound holds for any tie rule)
    any_rule = before == 0 or search.leaves_one(pool, before - 1, any_tie=True) is None
    guesses = [game.guesses[g] for g in found]
    left: list = list(game.secrets)
    answers, ties = [], 0
    for g in guesses:  # replayed by the player's own host: the bound's upper side
        feedback, parts = answer_and_parts(game, g, left)
        left = parts[feedback]
        answers.append(feedback)
        # did the host choose between largest parts of more than one secret? (0 such choices: the sequence
        # beats it whatever its rule between them, the last guess being the one secret it keeps)
        ties += len(left) > 1 and sum(len(part) == len(left) for part in parts.values()) > 1
    assert len(left) == 1, "the search and the host disagree"
    last, win = left[0], answer(game, left[0], left)[0]
    assert win == game.win
    return HostBound(host, len(guesses) + 1, guesses + [last], answers + [win], tried if before else 0,
                     any_rule, ties, time.monotonic() - started)

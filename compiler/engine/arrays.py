"""One game's arrays, made once and never changed (``GameArrays``): the answers (a ``Scorer``: the
matrix or blocks of it, the codes, the backend), the index maps between secrets and guesses, the
feedbacks and the win's, the guesses alike by absent symbols or by the game's symmetries, and
hard mode's rule. The heuristic
builder's context (``builder/context.py``) and the exact search (``search/space.py``) both read them.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from guesstree.player.games import Game, game_from_spec

from .scorer import Scorer
from .hint_rule import HintRule
from .symmetry import AbsentSymbols, Symmetry


@dataclass(frozen=True)
class GameArrays:
    """``game``'s arrays over ``scorer`` (``of``); ``secret_guess[secret]``: its guess index,
    ``guess_secret[guess]``: its secret index or -1; ``hint_rule``: hard mode's, vectorised (None:
    the game has none); ``symmetry``: the classes of guesses alike under the game's symmetries
    (None: it has none), the builder's group and the search's."""

    game: Game
    scorer: Scorer
    secret_guess: np.ndarray
    guess_secret: np.ndarray
    feedbacks: list
    win: int
    absent: AbsentSymbols
    hint_rule: HintRule | None
    symmetry: Symmetry | None

    @classmethod
    def of(cls, game: Game, scorer: Scorer) -> GameArrays:
        """The arrays of ``game`` over ``scorer``; a ValueError for a secret that is no guess."""
        guess_index = {g: i for i, g in enumerate(game.guesses)}
        missing = [s for s in game.secrets if s not in guess_index]
        if missing:
            raise ValueError(f"{game.title()}: secret {game.format_code(missing[0])} is not an allowed guess, "
                             "so no strategy could ever win it")
        secret_guess = np.array([guess_index[s] for s in game.secrets], dtype=np.int64)
        feedbacks = game.feedbacks()
        return cls(game, scorer, secret_guess, _inverse(secret_guess, len(game.guesses)), feedbacks,
                   feedbacks.index(game.win), AbsentSymbols(game, scorer.guess_codes),
                   HintRule(game, scorer.guess_codes) if game.hint_rule else None,
                   Symmetry(game, scorer.guess_codes, scorer.backend) if game.permutable else None)

    @classmethod
    def made(cls, game: Game, max_memory: int, backend: str = "numba") -> GameArrays:
        """The arrays of ``game`` with a scorer of their own, its whole matrix if it fits ``max_memory``."""
        return cls.of(game, Scorer(game, max_memory, backend))

    @classmethod
    def in_worker(cls, spec: dict, max_memory: int, backend: str, matrix=None, whole: bool | None = None) -> GameArrays:
        """The arrays that a worker process rebuilds from a game's ``spec``, scored on one thread
        (there is a worker per core already): over its parent's ``matrix`` (a ``SharedArray``), or
        with a matrix of its own where it fits, none where ``whole`` is False (``Scorer``)."""
        game = game_from_spec(spec)
        shared = None if matrix is None else matrix.array
        return cls.of(game, Scorer(game, max_memory, backend, matrix=shared, whole=whole, threads=False))

    @property
    def n_feedbacks(self) -> int:
        return len(self.feedbacks)

    @property
    def matrix(self) -> np.ndarray | None:
        """The whole matrix [guess, secret], if the scorer keeps one."""
        return self.scorer.matrix

    @property
    def columns(self) -> np.ndarray | None:
        """The matrix read by columns [secret, guess], where the score is symmetric."""
        return self.scorer.columns

    def part(self, part: np.ndarray) -> GameArrays:
        """These arrays narrowed to the secrets ``part`` (numbered 0 .. len(part)-1 there) over a
        matrix of every guess against them alone, if it fits the memory budget (else these).
        Guesses keep their numbers."""
        scorer = self.scorer.part(part, self.secret_guess[part])
        if scorer is None:
            return self
        secret_guess = self.secret_guess[part]
        return replace(self, scorer=scorer, secret_guess=secret_guess,
                       guess_secret=_inverse(secret_guess, len(self.game.guesses)))

    def opening(self, text: str, flag: str = "--first") -> int:
        """The index of the guess ``text`` names; a ValueError naming ``flag`` for one the game does not allow."""
        code = self.game.parse_code(text)
        index = {g: i for i, g in enumerate(self.game.guesses)}.get(code)
        if index is None:
            raise ValueError(f"{flag} {text}: {self.game.format_code(code)} is not an allowed guess")
        return index


def _inverse(secret_guess: np.ndarray, n_guesses: int) -> np.ndarray:
    """guess index -> secret index, or -1."""
    guess_secret = np.full(n_guesses, -1, dtype=np.int64)
    guess_secret[secret_guess] = np.arange(len(secret_guess))
    return guess_secret

"""A tiny plugin game for the tests: two positions, three symbols, its own scorer.

Feedback is (hits, sign): how many positions match, and whether the guess's symbols add up
to less (0), the same (1) or more (2) than the secret's. Only the secret itself answers (2, 1).
"""
from __future__ import annotations

import itertools

from guesstree.player.games import Code, Feedback, Game


class Tiny(Game):
    name = "tiny"
    length, symbols = 2, 3
    win = (2, 1)

    def __init__(self, symbols: int = 3):
        self.symbols = symbols

    def params(self) -> dict:
        return {"symbols": self.symbols}

    def _secrets(self) -> list[Code]:
        return list(itertools.product(range(self.symbols), repeat=self.length))

    def _guesses(self) -> list[Code]:
        return self._secrets()

    def feedbacks(self) -> list[Feedback]:
        return [(0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 1)]

    def score(self, guess: Code, secret: Code) -> Feedback:
        hits = sum(g == s for g, s in zip(guess, secret))
        difference = sum(guess) - sum(secret)
        return hits, (difference > 0) - (difference < 0) + 1


def make(symbols: int = 3) -> Tiny:
    return Tiny(symbols)


def not_a_game() -> str:
    return "hello"


def broken(symbols: int = 3) -> Tiny:
    raise RuntimeError("no board today")


class Lying(Tiny):
    """A scorer that answers what its game cannot give: the compiler names the game and the guess."""

    def score(self, guess: Code, secret: Code) -> Feedback:
        return 9, 9


def lying(symbols: int = 3) -> Lying:
    return Lying(symbols)

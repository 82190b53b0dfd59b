"""The pair game: find a point of a square grid from whether it lies below-left or above-right of each guess."""
from __future__ import annotations

import itertools
import re

from .game import Code, Feedback, Game, require_int


class TwoD(Game):
    """Find a point ``(x, y)`` of a square grid; feedback: below-left of the guess, above-right, or it.

    Feedback is ``(secret <= guess in both coordinates, secret >= guess in both, secret == guess)``.
    """

    name = "twod"
    page_kind = "pair"
    feedback_kind = "pair"
    _words: dict[tuple[int, ...], str] = {(1, 0, 0): "<=", (0, 1, 0): ">=", (0, 0, 0): "none", (1, 1, 1): "=="}
    parameters = {"size": (int, "twod: side of the grid (default 5)")}
    _meanings: dict[tuple[int, ...], str] = {(1, 0, 0): "at most the guess in both coordinates", (0, 1, 0): "at least the guess in both coordinates",
                 (0, 0, 0): "neither", (1, 1, 1): "it is the guess"}
    _aliases = {"le": (1, 0, 0), "ge": (0, 1, 0), "no": (0, 0, 0), "neither": (0, 0, 0),
                "eq": (1, 1, 1), "=": (1, 1, 1), "win": (1, 1, 1)}

    def __init__(self, size: int = 5):
        require_int("size", size, 1, 256)
        self.size, self.length, self.symbols = size, 2, size
        self.win = (1, 1, 1)

    def params(self) -> dict:
        return {"size": self.size}

    def title(self) -> str:
        return f"Twod, {self.size}x{self.size} grid"

    def slug(self) -> str:
        return f"twod-s{self.size}"

    def instructions(self) -> str:
        return ("Think of a point x,y of the grid. For each guess, answer <= if your point is at most the guess "
                "in both coordinates, >= if at least in both, none if neither, == if it is the guess.")

    def describe_feedback(self, feedback: Feedback) -> str:
        return self._meanings[tuple(feedback)]

    def secret_count(self) -> int:
        return self.size ** 2

    def guess_count(self) -> int:
        return self.size ** 2

    def is_guess(self, code: Code) -> bool:
        return len(code) == 2 and all(type(s) is int and 0 <= s < self.size for s in code)

    is_secret = is_guess  # every point of the grid is both

    def _secrets(self) -> list[Code]:
        return list(itertools.product(range(self.size), repeat=2))

    def _guesses(self) -> list[Code]:
        return self._secrets()

    def feedbacks(self) -> list[Feedback]:
        return [(0, 0, 0), (0, 1, 0), (1, 0, 0), (1, 1, 1)]

    def score(self, guess: Code, secret: Code) -> Feedback:
        below = secret[0] <= guess[0] and secret[1] <= guess[1]
        above = secret[0] >= guess[0] and secret[1] >= guess[1]
        return int(below), int(above), int(guess == secret)

    def format_code(self, code: Code) -> str:
        return f"{code[0]},{code[1]}"

    def check_code(self, code: Code, text: object = None) -> Code:
        """A point of the grid, or a ValueError that gives the grid's range (``5,2`` in 5x5)."""
        point = tuple(code)
        shown = text if text is not None else point
        if len(point) != 2:
            raise ValueError(f"{shown!r} is not a point x,y: two numbers, x and y from 0 to {self.size - 1}")
        if not all(isinstance(s, int) and not isinstance(s, bool) and 0 <= s < self.size for s in point):
            raise ValueError(f"{shown!r} is off the grid: x and y from 0 to {self.size - 1}")
        return point

    def format_feedback(self, feedback: Feedback) -> str:
        return self._words[tuple(feedback)]

    def parse_feedback(self, text: str) -> Feedback:
        cleaned = text.strip().lower()
        for feedback, word in self._words.items():
            if cleaned == word:
                return feedback
        if cleaned in self._aliases:
            return self._aliases[cleaned]
        digits = re.sub(r"[\s,]+", "", cleaned)
        if re.fullmatch(r"[01]{3}", digits):
            return self.check_feedback(tuple(int(c) for c in digits), text)
        raise ValueError(f"{text!r} is not twod feedback: write <=, >=, none or == (or 100, 010, 000, 111)")

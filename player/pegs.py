"""The peg games: Mastermind, its all-digits twin, and Bulls and Cows. Feedback is a pair of
counts: symbols right in place (black, strike, bull) and right but elsewhere (white, ball, cow).
"""
from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from functools import cached_property

from .game import Code, Feedback, Game, require_int
from .lanes import LanePlan, Lanes
from .rules import FEEDBACK_HELP, rule_for, rule_param

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


class PegGame(Game):
    """What the peg games share: (right, moved) feedback, its text forms, and its symmetry."""

    symmetric_score = True
    permutable = True
    peg_letters = ("B", "W")  # how the two counts are written: 2B1W
    peg_names = ("black", "white")
    thing, symbol_name = "code", "colour"  # what a person thinks of, and what it is made of
    page_kind = "pegs"
    feedback_kind = "pegs"

    def _is_code(self, code: Code) -> bool:
        """Is ``code`` ``length`` of the game's symbols (what ``is_guess`` and ``is_secret`` ask first)?"""
        return len(code) == self.length and all(type(s) is int and 0 <= s < self.symbols for s in code)

    def _peg_splitter(self, secrets):
        """``Game.splitter`` for a score of (symbols in place, symbols in common - in place), each
        guess scored on every secret at once (``player.lanes``): a secret's feedback number is
        ``in place * (length + 1) + in common``."""
        return self._lane_plan.splitter(secrets)

    def _peg_consistent(self, guess, feedback, secrets):
        return self._lane_plan.consistent(guess, self.lane_number(feedback), secrets)

    def full_number(self, full: Feedback) -> int:
        black, white = full
        return black * (self.length + 1) + black + white

    def _peg_partition_counts(self, guesses, secrets):
        return self._lane_plan.partition_counts(guesses, secrets)

    @cached_property
    def _lane_plan(self) -> LanePlan:
        return LanePlan(self.guesses, self.length, _peg_groups, _PegRows(self.length + 1), self.lane_table)

    def full_feedbacks(self) -> list[Feedback]:
        n = self.length
        return [(b, w) for b in range(n + 1) for w in range(n + 1 - b) if not (b == n - 1 and w == 1)]

    def feedbacks(self) -> list[Feedback]:
        return self.full_feedbacks() if self.reduction is None else self.reduction.feedbacks

    def format_feedback(self, feedback: Feedback) -> str:
        if self.rule is not None:
            return self.rule.format(feedback, self.peg_letters)
        return f"{feedback[0]}{self.peg_letters[0]}{feedback[1]}{self.peg_letters[1]}"

    def parse_feedback(self, text: str) -> Feedback:
        if self.rule is not None:
            return self.check_feedback(self.rule.parse(text, self.peg_letters, self.length), text)
        first, second = self.peg_letters
        cleaned = text.strip().upper()
        numbers = re.fullmatch(r"(\d+)\s*[\s,/-]\s*(\d+)", cleaned) or re.fullmatch(r"(\d)(\d)", cleaned)
        counted = re.fullmatch(rf"(?:(\d+)\s*{first})?\s*(?:(\d+)\s*{second})?", cleaned)
        if numbers:
            feedback = int(numbers[1]), int(numbers[2])
        elif counted and cleaned:
            feedback = int(counted[1] or 0), int(counted[2] or 0)
        elif cleaned and re.fullmatch(rf"[{first}{second}]+", cleaned):
            feedback = cleaned.count(first), cleaned.count(second)
        elif cleaned in ("-", "0", "NONE"):
            feedback = 0, 0
        else:
            raise ValueError(f"{text!r} is not feedback for {self.name}: write e.g. '2{first}1{second}' or '2 1'")
        right, moved = feedback
        names, n = self.peg_names, self.length
        if right + moved > n:
            raise ValueError(f"{text!r} is impossible: {right} {names[0]} + {moved} {names[1]} exceed {n} positions")
        if right == n - 1 and moved == 1:
            raise ValueError(f"{text!r} is impossible: with {n - 1} {names[0]} the last symbol cannot be misplaced")
        return feedback

    def describe_feedback(self, feedback: Feedback) -> str:
        if self.rule is not None:
            return self.rule.describe(feedback, self.peg_names)
        return ", ".join(f"{n} {name[:-1] if n == 1 and name.endswith('s') else name}"
                         for n, name in zip(feedback, self.peg_names))

    def instructions(self) -> str:
        if self.rule is not None:
            return self.rule.instructions(self.thing, self.peg_letters, self.length)
        (first, second), (right, moved) = self.peg_letters, self.peg_names
        return (f"Think of a {self.thing}. For each guess, give the {right} (right {self.symbol_name} in the right "
                f"place) and the {moved} (right {self.symbol_name} in the wrong place): e.g. 2{first}1{second} "
                f"for 2 {right} and 1 {moved[:-1] if moved.endswith('s') else moved}, or '2 1'; "
                f"{self.length}{first}0{second} when the guess is your secret.")


class Mastermind(PegGame):
    """A code of coloured pegs (4 holes, 6 colours by default); feedback (black, white) pegs."""

    name = "mastermind"
    parameters = {
        "colours": (int, "mastermind: number of colours (default 6)"),
        "holes": (int, "mastermind: number of holes (default 4)"),
        "secret_repeats": (bool, "mastermind: may a secret repeat a colour (default yes)"),
        "guess_repeats": (bool, "mastermind: may a guess repeat a colour (default yes)"),
        "feedback": (str, FEEDBACK_HELP),
    }

    def __init__(self, colours: int = 6, holes: int = 4, secret_repeats: bool = True, guess_repeats: bool = True,
                 feedback: str | None = None):
        require_int("colours", colours, 1, 26)
        require_int("holes", holes, 1, 12)
        if not secret_repeats and colours < holes:
            raise ValueError(f"--no-secret-repeats needs at least as many colours as holes ({colours} < {holes})")
        if secret_repeats and not guess_repeats:
            raise ValueError("--no-guess-repeats needs --no-secret-repeats: a secret with a repeated colour could never be guessed")
        self.colours, self.holes = colours, holes
        self.secret_repeats, self.guess_repeats = bool(secret_repeats), bool(guess_repeats)
        self.length, self.symbols = holes, colours
        self.rule = rule_for(self.feedback_kind, feedback)
        self.win = self.told((holes, 0))

    def params(self) -> dict:
        return {"colours": self.colours, "holes": self.holes,
                "secret_repeats": self.secret_repeats, "guess_repeats": self.guess_repeats, **rule_param(self.rule)}

    def title(self) -> str:
        return f"Mastermind, {self.colours} colours, {self.holes} holes{self._rules()}"

    def label(self) -> str:
        return f"Mastermind {self.colours}x{self.holes}{self._rules()}"

    def _rules(self) -> str:
        rules = [] if self.secret_repeats else ["distinct colours"]
        if self.rule is not None:
            rules.insert(0, self.rule.said)
        if not self.guess_repeats:
            rules.append("guesses distinct")
        elif not self.secret_repeats:
            rules.append("guesses may repeat")
        return f" ({', '.join(rules)})" if rules else ""

    def slug(self) -> str:
        slug = f"mastermind-c{self.colours}-h{self.holes}" + ("" if self.rule is None else f"-{self.rule.name}")
        if not (self.secret_repeats or self.guess_repeats):
            return slug + "-no-repeats"  # no code repeats a colour
        return slug + ("" if self.secret_repeats else "-distinct") + ("" if self.guess_repeats else "-distinct-guesses")

    def _codes(self, repeats: bool) -> list[Code]:
        if repeats:
            return list(itertools.product(range(self.colours), repeat=self.holes))
        return list(itertools.permutations(range(self.colours), self.holes))

    def _secrets(self) -> list[Code]:
        return self._codes(self.secret_repeats)

    def _guesses(self) -> list[Code]:
        return self._codes(self.guess_repeats)

    def secret_count(self) -> int:
        return self.colours ** self.holes if self.secret_repeats else math.perm(self.colours, self.holes)

    def guess_count(self) -> int:
        return self.colours ** self.holes if self.guess_repeats else math.perm(self.colours, self.holes)

    def is_guess(self, code: Code) -> bool:
        return self._is_code(code) and (self.guess_repeats or len(set(code)) == len(code))

    def is_secret(self, code: Code) -> bool:
        return self._is_code(code) and (self.secret_repeats or len(set(code)) == len(code))

    def score(self, guess: Code, secret: Code) -> Feedback:
        black = sum(g == s for g, s in zip(guess, secret))
        common = Counter(guess) & Counter(secret)
        return self.told((black, sum(common.values()) - black))

    splitter, partition_counts, consistent = PegGame._peg_splitter, PegGame._peg_partition_counts, PegGame._peg_consistent

    def format_code(self, code: Code) -> str:
        return "".join(LETTERS[s] for s in code)

    def parse_code(self, text: str) -> Code:
        cleaned = re.sub(r"[\s,]+", "", text.strip()).upper()
        if cleaned.isascii() and cleaned.isdigit() and self.colours <= 9:
            code = tuple(int(c) - 1 for c in cleaned)  # digits are 1-based colours
        elif cleaned and all(c in LETTERS for c in cleaned):
            code = tuple(LETTERS.index(c) for c in cleaned)
        else:
            raise ValueError(f"{text!r} is not a code: write {self.holes} letters A-{LETTERS[self.colours - 1]}"
                             + (f" or digits 1-{self.colours}" if self.colours <= 9 else ""))
        if len(code) != self.holes:
            raise ValueError(f"{text!r} has {len(code)} colours; this game has {self.holes} holes")
        bad = [c for c in code if not 0 <= c < self.colours]
        if bad:
            raise ValueError(f"{text!r} uses a colour outside A-{LETTERS[self.colours - 1]}")
        return code


class Digits(Mastermind):
    """A number of digits that may repeat (4 by default); feedback (strikes, balls)."""

    name = "digits"
    peg_letters = ("S", "B")
    peg_names = ("strikes", "balls")
    thing, symbol_name = "number", "digit"
    page_kind = "digits"
    parameters = {"length": (int, "bulls-cows, digits: code length (default 4)")}

    def __init__(self, length: int = 4):
        require_int("length", length, 1, 10)
        super().__init__(colours=10, holes=length)

    def params(self) -> dict:
        return {"length": self.holes}

    def title(self) -> str:
        return f"Digits, {self.holes} digits"

    label = title  # not Mastermind's "10x4"

    def slug(self) -> str:
        return f"digits-l{self.holes}"

    format_code = Game.format_code  # digits, not Mastermind's letters

    def parse_code(self, text: str) -> Code:
        return _parse_digits(text, self)


class BullsCows(PegGame):
    """A number of distinct digits (4 of 10 by default); feedback (bulls, cows) written 1A2B."""

    name = "bulls-cows"
    peg_letters = ("A", "B")
    peg_names = ("bulls", "cows")
    thing, symbol_name = "number with different digits", "digit"
    page_kind = "digits"
    parameters = {
        "digits": (int, "bulls-cows: number of digits (default 10)"),
        "length": (int, "bulls-cows, digits: code length (default 4)"),
    }

    def __init__(self, digits: int = 10, length: int = 4):
        require_int("digits", digits, 1, 10)
        require_int("length", length, 1, digits)
        self.digits, self.length, self.symbols = digits, length, digits
        self.win = (length, 0)

    def params(self) -> dict:
        return {"digits": self.digits, "length": self.length}

    def title(self) -> str:
        return f"Bulls and cows, {self.length} of {self.digits} digits"

    def slug(self) -> str:
        return f"bulls-cows-d{self.digits}-l{self.length}"

    def _secrets(self) -> list[Code]:
        return list(itertools.permutations(range(self.digits), self.length))

    def _guesses(self) -> list[Code]:
        return self._secrets()

    def secret_count(self) -> int:
        return math.perm(self.digits, self.length)

    def guess_count(self) -> int:
        return self.secret_count()

    def is_guess(self, code: Code) -> bool:
        return self._is_code(code) and len(set(code)) == len(code)

    is_secret = is_guess  # the secrets are the guesses: numbers of distinct digits

    def score(self, guess: Code, secret: Code) -> Feedback:
        bulls = sum(g == s for g, s in zip(guess, secret))
        return bulls, len(set(guess) & set(secret)) - bulls

    splitter, partition_counts, consistent = PegGame._peg_splitter, PegGame._peg_partition_counts, PegGame._peg_consistent

    def parse_code(self, text: str) -> Code:
        code = _parse_digits(text, self)
        if len(set(code)) != len(code):
            raise ValueError(f"{text!r} repeats a digit; bulls-and-cows codes have distinct digits")
        return code


def _peg_groups(guess: Code) -> tuple:
    """A guess's parts for ``_PegRows``: each (position, symbol) in place, and each symbol with
    how often the guess holds it (negated, to tell the two kinds apart)."""
    return tuple(enumerate(guess)) + tuple((-times, symbol) for symbol, times in Counter(guess).items())


class _PegRows:
    """The row of one part of a peg guess: ``scale`` where the secret holds the symbol in place,
    or the times the symbol is in common (at most how often the guess holds it)."""

    def __init__(self, scale: int):
        self.scale = scale

    def __call__(self, lanes: Lanes, group) -> int:
        first, symbol = group
        if first >= 0:
            return lanes.at(first, symbol) * self.scale
        return lanes.translate(lanes.count(symbol), _AT_MOST[-first])


_AT_MOST = [bytes(min(i, times) for i in range(256)) for times in range(16)]


def _parse_digits(text: str, game: Game) -> Code:
    cleaned = re.sub(r"[\s,]+", "", text.strip())
    if not cleaned.isdigit() or not cleaned.isascii():
        raise ValueError(f"{text!r} is not a code: write {game.length} digits")
    return game.check_code(tuple(int(c) for c in cleaned), text)

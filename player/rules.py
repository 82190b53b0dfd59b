"""Feedback rules: what the host tells of a guess's full score, as a game option (``--feedback``).

A rule is a reduction of the score its family of games computes, never a game of its own: Mastermind
with black pegs only tells the pegs right in place (``(black,)`` of ``(black, white)``); a word game with
counts-only feedback tells how many letters are in place and how many elsewhere (``(exact, present)`` of
the marks, as Jotto's and Wordzy Master's hosts do), and with ``common`` only how many letters the two
words share, and whether the guess is the word (``(common, won)``: an anagram shares every letter, so
the win is said apart). The game scores in full and reduces (``Game.score``); every feedback of the game
is a reduction of a full one, so the compiler's kernels look it up in their tables of full scores, and
the players reduce the score they already compute. The artifact records the rule as the game's
``feedback`` parameter (trees/FORMAT.md §2.1), written only when a game has one.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import ClassVar

Feedback = tuple[int, ...]  # player.game's, which imports this module

FULL = "full"  # the family's own score: no rule
FEEDBACK_HELP = ("mastermind: black for black pegs only; words: counts (letters in place, letters elsewhere) or "
                 "common (letters in common); default full")


class Rule:
    """A reduction of a family's full feedback (``family``: ``Game.feedback_kind``), with its text forms."""

    name: ClassVar[str]
    family: ClassVar[str]
    said: ClassVar[str]  # what the host tells, for help and errors

    def reduce(self, full: Feedback) -> Feedback:
        raise NotImplementedError

    def format(self, feedback: Feedback, letters: Sequence[str]) -> str:
        raise NotImplementedError

    def parse(self, text: str, letters: Sequence[str], length: int) -> Feedback:
        raise NotImplementedError

    def instructions(self, thing: str, letters: Sequence[str], length: int) -> str:
        raise NotImplementedError

    def describe(self, feedback: Feedback, names: Sequence[str]) -> str:
        return ", ".join(f"{n} {name}" for n, name in zip(feedback, names))


def _counts(text: str, letters: Sequence[str], size: int) -> tuple[int, ...] | None:
    """``size`` counts typed as numbers (``2 1``, ``21``), counted letters (``2B1W``, ``2G``), the letters
    themselves (``BBW``) or nothing at all (``-``, ``0``, ``none``); None when it is none of those."""
    cleaned = text.strip().upper()
    separated = r"\s*[\s,/-]\s*".join([r"(\d+)"] * size)
    numbers = re.fullmatch(separated, cleaned) or re.fullmatch(r"(\d)" * size, cleaned)
    counted = re.fullmatch(r"\s*".join(rf"(?:(\d+)\s*{letter})?" for letter in letters[:size]), cleaned)
    if numbers:
        return tuple(int(n) for n in numbers.groups())
    if counted and cleaned:
        return tuple(int(n or 0) for n in counted.groups())
    if cleaned and re.fullmatch(f"[{''.join(letters[:size])}]+", cleaned):
        return tuple(cleaned.count(letter) for letter in letters[:size])
    if cleaned in ("-", "0", "NONE"):
        return (0,) * size
    return None


class Counted(Rule):
    """A rule that tells ``size`` counts, each written with its letter: ``2B``, ``1G2Y``."""

    size: ClassVar[int]
    mistake: ClassVar[str]  # what the text is not, and what to write instead ({0}, {1}: the letters)

    def format(self, feedback: Feedback, letters: Sequence[str]) -> str:
        return "".join(f"{n}{letter}" for n, letter in zip(feedback, letters))

    def parse(self, text: str, letters: Sequence[str], length: int) -> Feedback:
        counts = _counts(text, letters, self.size)
        if counts is None:
            raise ValueError(f"{text!r} is not {self.mistake.format(*letters)}")
        return counts


class Black(Counted):
    """Mastermind with black pegs only: how many symbols are right in place, nothing of the others."""

    name, family, said, size = "black", "pegs", "black pegs only", 1
    mistake = "feedback with black pegs only: write the pegs right in place, e.g. '2{0}' or '2'"

    def reduce(self, full: Feedback) -> Feedback:
        return (full[0],)

    def instructions(self, thing: str, letters: Sequence[str], length: int) -> str:
        return (f"Think of a {thing}. For each guess, give only how many are right in the right place, e.g. "
                f"2{letters[0]} or 2; {length}{letters[0]} when the guess is your {thing}.")


class Counts(Counted):
    """Counts-only word feedback: how many letters are in place, and how many are in the word elsewhere."""

    name, family, said, size = "counts", "marks", "counts only", 2
    mistake = "counts-only feedback: write the letters in place and those elsewhere, e.g. '1{0}2{1}' or '1 2'"

    def reduce(self, full: Feedback) -> Feedback:
        return full.count(2), full.count(1)

    def instructions(self, thing: str, letters: Sequence[str], length: int) -> str:
        return (f"Think of a {thing}. For each guess, give how many letters are in the right place ({letters[0]}) "
                f"and how many are in the word elsewhere ({letters[1]}): e.g. 1{letters[0]}2{letters[1]} or '1 2'; "
                f"{length}{letters[0]}0{letters[1]} when the guess is your word.")


class Common(Rule):
    """Letters in common (Jotto): how many letters the guess shares with the word, counting repeats as
    Wordle's marks do, and whether it is the word (``won``, said apart: an anagram shares them all)."""

    name, family, said = "common", "marks", "letters in common"
    WIN = "WIN"

    def reduce(self, full: Feedback) -> Feedback:
        return sum(mark > 0 for mark in full), int(min(full, default=2) == 2)

    def format(self, feedback: Feedback, letters: Sequence[str]) -> str:
        return self.WIN if feedback[1] else str(feedback[0])

    def parse(self, text: str, letters: Sequence[str], length: int) -> Feedback:
        cleaned = text.strip().upper()
        if cleaned in (self.WIN, "WON", "="):
            return length, 1
        if cleaned.isascii() and cleaned.isdigit():
            return int(cleaned), 0
        raise ValueError(f"{text!r} is not feedback of letters in common: write how many letters the guess "
                         f"shares with the word, e.g. '2', or '{self.WIN}' when it is the word")

    def instructions(self, thing: str, letters: Sequence[str], length: int) -> str:
        return (f"Think of a {thing}. For each guess, give how many letters it has in common with your word "
                f"(a repeated letter counts as often as both hold it), e.g. 2; {self.WIN} when the guess is your word.")

    def describe(self, feedback: Feedback, names: Sequence[str]) -> str:
        return "the word" if feedback[1] else f"{feedback[0]} in common"


RULES: dict[str, Rule] = {rule.name: rule for rule in (Black(), Counts(), Common())}


def rule_for(family: str | None, name: str | None) -> Rule | None:
    """The rule named ``name`` for a game of ``family`` (None or ``full``: the full score)."""
    if name is None or name == FULL:
        return None
    ours = [key for key, rule in RULES.items() if rule.family == family]
    rule = RULES.get(name) if isinstance(name, str) else None
    if rule is None or rule.family != family:
        raise ValueError(f"--feedback must be {', '.join([FULL, *ours])} for this game, not {name!r}")
    return rule


def rule_param(rule: Rule | None) -> dict:
    """The game parameter that records ``rule`` (none for the full score: such a tree keeps its bytes)."""
    return {} if rule is None else {"feedback": rule.name}


class Reduction:
    """A rule applied to one game: its feedbacks (the reductions of the full ones, sorted), each one's
    index, and ``table``, the index of each full feedback's number (``number(full)``, below 256) for
    ``player.lanes``, whose rows hold full numbers (those below 256: a game with more has no lanes)."""

    def __init__(self, rule: Rule, full_feedbacks: Sequence[Feedback], number: Callable[[Feedback], int] | None = None):
        self.rule = rule
        self.feedbacks = sorted({rule.reduce(full) for full in full_feedbacks})
        self.index = {feedback: i for i, feedback in enumerate(self.feedbacks)}
        table = bytearray(256)
        if number is not None:
            for full in full_feedbacks:
                if (value := number(full)) < 256:
                    table[value] = self.index[rule.reduce(full)]
        self.table = bytes(table)

"""Word games (Wordle and its kin): secrets from an answer list, guesses from an allowed list.

Feedback per position is 2 (exact, green), 1 (present elsewhere, yellow) or 0 (absent), with
the official rule for repeated letters: a letter is marked present at most as many times as it
occurs unmatched in the secret. The lists are read lazily, so that a tree loads without them;
whatever needs the secrets (verifying, tracking candidates) reads them and refuses files whose
canonical list does not match the sha256 the tree recorded.
"""
from __future__ import annotations

import hashlib
import re
from collections import Counter
from functools import cached_property

from .games import Code, Feedback, Game, _require_int

ALPHABET = "abcdefghijklmnopqrstuvwxyz"
EMOJI = {"🟩": "2", "🟨": "1", "⬛": "0", "⬜": "0"}
LETTERS = {"g": "2", "y": "1", "b": "0", "-": "0", ".": "0", "x": "0", "w": "0"}
SYMBOLS = "-YG"  # feedback text: absent, present, exact


def read_words(path: str, length: int) -> list[str]:
    """One word per line, case-folded, deduplicated and sorted; a bad line is refused by file and line."""
    try:
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except FileNotFoundError:
        raise ValueError(f"{path}: no such word list") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"{path}: cannot read the word list ({error})") from None
    words = set()
    for number, line in enumerate(lines, 1):
        word = line.strip().casefold()
        if not word:
            continue
        if len(word) != length or not all(c in ALPHABET for c in word):
            raise ValueError(f"{path}, line {number}: {line.strip()!r} is not a word of {length} letters a-z")
        words.add(word)
    if not words:
        raise ValueError(f"{path}: the word list is empty")
    return sorted(words)


def list_sha256(words: list[str]) -> str:
    """The sha256 of the canonical list (sorted, lower case, one word per line)."""
    return hashlib.sha256("".join(w + "\n" for w in words).encode()).hexdigest()


class Words(Game):
    """Guess a word of ``length`` letters; ``hard`` mode makes every guess keep the hints so far."""

    name = "words"

    def __init__(self, answers: str, guesses: str | None = None, hard: bool = False, length: int = 5,
                 answers_sha256: str | None = None, guesses_sha256: str | None = None):
        if not isinstance(answers, str) or not answers:
            raise ValueError("words needs --answers FILE, a list of the possible secrets")
        if guesses is not None and not isinstance(guesses, str):
            raise ValueError(f"--guesses must be a file name, not {guesses!r}")
        _require_int("length", length, 1, 10)
        self.answers_path, self.guesses_path = answers, guesses
        self.hard, self.length, self.symbols = bool(hard), length, len(ALPHABET)
        self.win = (2,) * length
        self._answers_sha256, self._guesses_sha256 = answers_sha256, guesses_sha256

    def params(self) -> dict:
        return {"answers": self.answers_path, "guesses": self.guesses_path, "hard": self.hard,
                "length": self.length, "answers_sha256": self.answers_sha256,
                "guesses_sha256": self.guesses_sha256}

    def __repr__(self) -> str:  # the lists' digests and the defaults would only hide the call
        shown = {"answers": self.answers_path, "guesses": self.guesses_path, "hard": self.hard, "length": self.length}
        defaults = {"guesses": None, "hard": False, "length": 5}
        return "Words(" + ", ".join(f"{k}={v!r}" for k, v in shown.items() if defaults.get(k, object()) != v) + ")"

    @property
    def answers_sha256(self) -> str:
        return self._answers_sha256 or list_sha256(self._answer_words)

    @property
    def guesses_sha256(self) -> str:
        return self._guesses_sha256 or list_sha256(self._guess_words)

    @cached_property
    def _answer_words(self) -> list[str]:
        return self._checked(read_words(self.answers_path, self.length), self.answers_path, self._answers_sha256)

    @cached_property
    def _guess_words(self) -> list[str]:
        if self.guesses_path is None:
            return self._answer_words
        words = read_words(self.guesses_path, self.length)
        words = self._checked(words, self.guesses_path, self._guesses_sha256)
        missing = sorted(set(self._answer_words) - set(words))
        if missing:  # an answer that may not be guessed could never be won
            raise ValueError(f"{self.guesses_path}: the answer {missing[0]!r} (of {len(missing)}) is not "
                             "an allowed guess, so it could never be won")
        return words

    @staticmethod
    def _checked(words: list[str], path: str, expected: str | None) -> list[str]:
        if expected is not None and list_sha256(words) != expected:
            raise ValueError(f"{path}: this word list is not the one the tree was built from "
                             f"(its sha256 differs from {expected[:12]}...)")
        return words

    def _secrets(self) -> list[Code]:
        return [self._code(w) for w in self._answer_words]

    def _guesses(self) -> list[Code]:
        return [self._code(w) for w in self._guess_words]

    @staticmethod
    def _code(word: str) -> Code:
        return tuple(ALPHABET.index(c) for c in word)

    def feedbacks(self) -> list[Feedback]:
        n = self.length
        every = [tuple(int(d) for d in _base3(i, n)) for i in range(3 ** n)]
        # all exact but one present is impossible: the present letter would have to be elsewhere
        return [f for f in every if not (f.count(2) == n - 1 and f.count(1) == 1)]

    def score(self, guess: Code, secret: Code) -> Feedback:
        result = [0] * len(guess)
        unmatched = Counter()
        for i, (g, s) in enumerate(zip(guess, secret)):
            if g == s:
                result[i] = 2
            else:
                unmatched[s] += 1
        for i, g in enumerate(guess):
            if result[i] != 2 and unmatched[g] > 0:
                result[i] = 1
                unmatched[g] -= 1
        return tuple(result)

    @property
    def restricts_guesses(self) -> bool:
        return self.hard

    @property
    def keeps_hints(self) -> bool:  # hard mode's rule is the hint rule the compiler follows
        return self.hard

    def allows(self, guess: Code, history) -> str | None:
        """Hard mode: greens stay in place, revealed letters are reused as often as revealed."""
        if not self.hard:
            return None
        for step, (played, feedback) in enumerate(history, 1):
            for position, (letter, mark) in enumerate(zip(played, feedback)):
                if mark == 2 and guess[position] != letter:
                    return (f"hard mode: guess {step} fixed {ALPHABET[letter].upper()} at position "
                            f"{position + 1}")
            revealed = Counter(letter for letter, mark in zip(played, feedback) if mark)
            have = Counter(guess)
            for letter, times in sorted(revealed.items()):
                if have[letter] < times:
                    return (f"hard mode: guess {step} revealed {ALPHABET[letter].upper()}"
                            f"{f' {times} times' if times > 1 else ''}, which this guess does not reuse")
        return None

    def format_code(self, code: Code) -> str:
        return "".join(ALPHABET[c] for c in code).upper()

    def parse_code(self, text: str) -> Code:
        word = text.strip().casefold()
        if not all(c in ALPHABET for c in word) or not word:
            raise ValueError(f"{text!r} is not a word: use the letters a-z")
        return self.check_code(self._code(word), text)

    def format_feedback(self, feedback: Feedback) -> str:
        return "".join(SYMBOLS[m] for m in feedback)

    def parse_feedback(self, text: str) -> Feedback:
        cleaned = re.sub(r"\s+", "", text.strip())
        digits = "".join(EMOJI.get(c, LETTERS.get(c.casefold(), c)) for c in cleaned)
        if len(digits) != self.length or not set(digits) <= set("012"):
            raise ValueError(f"{text!r} is not feedback for {self.length}-letter words: write "
                             f"{self.length} marks, G (exact), Y (present) or - (absent), e.g. "
                             f"'GY-{'-' * (self.length - 3)}', or 2/1/0, or the coloured squares")
        return self.check_feedback(tuple(int(d) for d in digits), text)


def _base3(value: int, width: int) -> str:
    digits = []
    for _ in range(width):
        value, digit = divmod(value, 3)
        digits.append(str(digit))
    return "".join(reversed(digits))


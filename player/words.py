"""Word games (Wordle and its kin): secrets from an answer list, guesses from an allowed list.

Feedback per position is 2 (exact, green), 1 (present elsewhere, yellow) or 0 (absent), with
the official rule for repeated letters: a letter is marked present at most as many times as it
occurs unmatched in the secret. A tree carries its words (the answers, and the other guesses it
plays), so it works away from the lists it was compiled from; a tree written before it did so
names its files, which are read when needed and refused unless they match the recorded sha256.
"""
from __future__ import annotations

import hashlib
import os
import re
import warnings
from collections import Counter
from fractions import Fraction
from functools import cached_property

from .game import Code, Feedback, Game, require_int
from .lanes import LanePlan
from .weights import (carried_weights, note_weight, others_option, others_param,
                      secrets_weighed, weighed, weighed_line, weights_param, word_part)
from .word_lanes import letter_groups, letter_row
from .wording import counted

ALPHABET = "abcdefghijklmnopqrstuvwxyz"
EMOJI = {"🟩": "2", "🟨": "1", "⬛": "0", "⬜": "0"}
# The marks a person may type, and no other: exact G 2; present Y 1; absent - . B X 0 (B: Wordle's black
# square). Not W: in Mastermind W is a white peg, a colour present elsewhere (player/js reads the same marks).
LETTERS = {"g": "2", "y": "1", "b": "0", "-": "0", ".": "0", "x": "0"}
MARKS_SAID = "G (exact), Y (present) or - (absent; also B, X or .)"
SYMBOLS = "-YG"  # feedback text: absent, present, exact


MAX_LENGTH = 10  # words of up to 10 letters: 3 ** 10 marks still fit the compiler's two-byte feedback


def _lines(path: str) -> list[str]:
    """A word list's lines, each without its ``#`` comment (a line of only a comment is blank)."""
    try:
        with open(path, encoding="utf-8-sig") as handle:  # -sig: a byte-order mark (as Notepad writes) is no letter
            text = handle.read()
    except FileNotFoundError:
        raise ValueError(f"{path}: no such word list") from None
    except UnicodeDecodeError as error:
        raise ValueError(f"{path}: not a word list: not UTF-8 text (byte {error.start} is "
                         f"0x{error.object[error.start]:02x}); a word list is one word per line") from None
    except OSError as error:
        raise ValueError(f"{path}: cannot read the word list ({error.strerror or error})") from None
    if "\0" in text:
        raise ValueError(f"{path}: not a word list: a binary file (it holds NUL bytes); a word list is one word per line")
    return [line.split("#", 1)[0] for line in text.splitlines()]


def list_length(path: str) -> int:
    """The length of a word list's words, from its first word (``read_words`` checks the rest)."""
    for line in _lines(path):
        word = word_part(line).strip()
        if word:
            if not 1 <= len(word) <= MAX_LENGTH:
                raise ValueError(f"{path}: its first word {word!r} has {len(word)} letters; words of 1 to "
                                 f"{MAX_LENGTH} letters are supported")
            return len(word)
    raise ValueError(f"{path}: the word list is empty")


def read_words(path: str, length: int, inferred: bool = False, weights: dict[str, Fraction] | None = None) -> list[str]:
    """One word per line (blank lines and `#` comments skipped), case-folded, deduplicated (a
    ``DuplicateWords`` warning names the file, how many, and the first) and sorted; a bad line is
    refused by file and line.
    ``inferred``: ``length`` is the list's first word's, not a --length given (the error says so).
    ``weights``: an answer list's, filled (``player.weights``); without it a line's weight is refused."""
    words: dict[str, int] = {}  # each word's first line
    repeated = []  # (line, word) of each repetition, in order
    for number, line in enumerate(_lines(path), 1):
        text, weight = weighed_line(line, path, number, weights is not None)
        word = text.casefold()
        if not word:
            continue
        if weights is not None:
            note_weight(weights, word, weight, path, number, words)
        if len(word) != length or not all(c in ALPHABET for c in word):
            why = f" (the list's first word has {length}: give --length N for another length)" if inferred else ""
            raise ValueError(f"{path}, line {number}: {line.strip()!r} is not a word of {length} letters a-z{why}")
        if word in words:
            repeated.append((number, word))
        else:
            words[word] = number
    if not words:
        raise ValueError(f"{path}: the word list is empty")
    if repeated:
        number, word = repeated[0]
        warnings.warn(f"{path}: {counted(len(repeated), 'duplicate word')} dropped, the first {word!r} on line {number} "
                      f"(as on line {words[word]})", DuplicateWords, stacklevel=2)
    return sorted(words)


class DuplicateWords(UserWarning):
    """A word list holds a word more than once: the game counts it once (``read_words`` says which file,
    how many, and the first with its line)."""


def _carried(text: str, length: int, key: str, empty: bool = False) -> list[str]:
    """Words carried in a spec: sorted, distinct, of ``length`` letters a-z, separated by spaces."""
    words = text.split(" ") if text else []
    if not words and not empty:
        raise ValueError(f"{key} is empty")
    if words != sorted(set(words)) or not all(len(w) == length and set(w) <= set(ALPHABET) for w in words):
        raise ValueError(f"{key} is not a sorted list of distinct words of {length} letters a-z")
    return words


def list_sha256(words: list[str]) -> str:
    """The sha256 of the canonical list (sorted, lower case, one word per line)."""
    return hashlib.sha256("".join(w + "\n" for w in words).encode()).hexdigest()


Digests = tuple[str | None, str | None]  # the answer list's and the guess list's sha256, where recorded


def _known_length(length: int | None) -> int:
    length = 5 if length is None else length  # a spec without its length (none written so): the original game's
    require_int("length", length, 1, MAX_LENGTH)
    return length


class WordFiles:
    """Word lists read from files (``answers``, ``guesses``: what ``guesstree compile words``
    reads), when first needed, and refused unless they match the sha256 recorded for them, if any.
    ``length``: the words' (None: the first answer's). ``others_weight``: every other allowed guess is a
    secret too, of this weight (the secrets, answers and others, are then what ``answers_sha256`` is of)."""

    def __init__(self, answers, guesses, length: int | None, sha256: Digests, others_weight=None):
        self.inferred = length is None and isinstance(answers, str) and bool(answers)
        self.length = _known_length(list_length(answers) if self.inferred else length)
        if not isinstance(answers, str) or not answers:
            raise ValueError("words needs --answers FILE, a list of the possible secrets")
        if guesses is not None and not isinstance(guesses, str):
            raise ValueError(f"--guesses must be a file name, not {guesses!r}")
        self.answers, self.guesses = answers, guesses
        self.answers_sha256, self.guesses_sha256 = sha256
        self.others_weight = others_option(others_weight, guesses)

    def spec(self, keys: dict) -> dict:
        """A spec's parameters: the files, then ``keys`` (the order specs have been written in)."""
        return {"answers": self.answers, "guesses": self.guesses, **keys, **others_param(self.others_weight)}

    def answer_words(self) -> list[str]:
        return _checked(list(self._secrets), self.answers, self.answers_sha256)

    def weights(self, answer_words: list[str]) -> tuple[Fraction, ...] | None:
        return weighed([self._secrets[word] for word in answer_words])

    @cached_property
    def _secrets(self) -> dict[str, Fraction]:  # each secret's weight, in order
        weights: dict[str, Fraction] = {}
        read_words(self.answers, self.length, self.inferred, weights)
        return secrets_weighed(weights, self.guess_words([]) if self.others_weight else [], self.others_weight)

    def guess_words(self, answer_words: list[str]) -> list[str]:
        if self.guesses is None:
            return answer_words
        words = _checked(self._read(self.guesses), self.guesses, self.guesses_sha256)
        missing = sorted(set(answer_words) - set(words))
        if missing:  # an answer that may not be guessed could never be won
            more = f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
            raise ValueError(f"{self.answers}: the answer {missing[0]!r}{more} is not in the guess list "
                             f"{self.guesses}, so it could never be won")
        return words

    def _read(self, path: str) -> list[str]:
        return read_words(path, self.length, self.inferred)

    def describe(self, game: Words) -> str:
        """The call that rebuilds the game (the lists' digests and the defaults would only hide it)."""
        shown = {"answers": self.answers, "guesses": self.guesses, "hard": game.hard, "length": self.length,
                 "others_weight": others_param(self.others_weight).get("others_weight")}
        defaults = {"guesses": None, "hard": False, "length": self.length if self.inferred else 5, "others_weight": None}
        return "Words(" + ", ".join(f"{k}={v!r}" for k, v in shown.items() if defaults.get(k, object()) != v) + ")"

    def stem(self) -> str:
        """The answer file's name, as a file name's part."""
        return re.sub(r"[^a-z0-9]+", "-", os.path.basename(self.answers).rsplit(".", 1)[0].lower()).strip("-")


class CarriedWords:
    """Word lists carried in a spec, as an artifact records them: ``answer_words``, and
    ``guess_words`` (the guesses that are not answers), checked when read back, not at first use."""

    def __init__(self, answer_words: str, guess_words: str | None, length: int | None, sha256: Digests,
                 answer_weights: str | None = None):
        self.length = _known_length(length)
        if not (all(isinstance(digest, str) for digest in sha256)
                and isinstance(answer_words, str) and isinstance(guess_words, str)):
            raise ValueError("embedded word lists need answer_words, guess_words and both sha256 as text")
        self.answer_text, self.guess_text = answer_words, guess_words
        self.answers_sha256, self.guesses_sha256 = sha256
        self.answers = _carried(answer_words, self.length, "answer_words")
        if list_sha256(self.answers) != self.answers_sha256:
            raise ValueError("the answer words it carries do not match their sha256")
        self.extra = _carried(guess_words, self.length, "guess_words", empty=True)
        self.answer_weights = carried_weights(answer_weights, len(self.answers))

    def spec(self, keys: dict) -> dict:
        """A spec's parameters: ``keys``, then the words (the order artifacts have been written in)."""
        return {**keys, "answer_words": self.answer_text, "guess_words": self.guess_text,
                **weights_param(self.weights(self.answers))}

    def answer_words(self) -> list[str]:
        return self.answers

    def weights(self, answer_words: list[str]) -> tuple[Fraction, ...] | None:
        return None if self.answer_weights is None else weighed(list(self.answer_weights))

    def guess_words(self, answer_words: list[str]) -> list[str]:
        return sorted(set(self.extra) | set(answer_words))

    def describe(self, game: Words) -> str:
        hard = ", hard=True" if game.hard else ""
        hard += ", weighted" if game.weights is not None else ""
        return f"Words({counted(len(game.secrets), 'answer')}, {counted(len(game.guesses), 'guess', 'guesses')}{hard})"

    def stem(self) -> str:
        return ""


def word_lists(answers, guesses, length: int | None, carried: dict, sha256: Digests, others_weight=None):
    """Where a game's words come from, decided once: carried in its spec (``carried``, ``CARRIED``), or files."""
    if set(carried) - set(CARRIED):  # as a call with an unknown keyword
        raise TypeError(f"Words() got an unexpected keyword argument {sorted(set(carried) - set(CARRIED))[0]!r}")
    answer_words, guess_words, answer_weights = (carried.get(key) for key in CARRIED)
    if answer_words is None:
        if guess_words is not None or answer_weights is not None:
            raise ValueError(f"{'guess_words' if guess_words is not None else 'answer_weights'} needs answer_words")
        return WordFiles(answers, guesses, length, sha256, others_weight)
    if answers is not None or guesses is not None or others_weight is not None:
        raise ValueError("words takes its lists from files (and --others-weight) or from answer_words, not both")
    return CarriedWords(answer_words, guess_words, length, sha256, answer_weights)


CARRIED = ("answer_words", "guess_words", "answer_weights")  # the keywords of the lists a spec carries


def _checked(words: list[str], path: str, expected: str | None) -> list[str]:
    if expected is not None and list_sha256(words) != expected:
        raise ValueError(f"{path}: this word list is not the one the tree was built from "
                         f"(its sha256 differs from {expected[:12]}...)")
    return words


class Words(Game):
    """Guess a word from a list (5 letters by default); hard mode makes every guess keep the hints so far.

    The words come from files (``answers``, ``guesses``: what ``guesstree compile words`` reads) or
    are carried in the spec itself (``answer_words``, ``guess_words``: what an artifact records, so
    that a tree works away from its lists): ``lists``, a ``WordFiles`` or a ``CarriedWords``, chosen
    when the game is made. ``guess_words`` holds the guesses that are not answers (an older
    artifact only those its tree plays); the lists' sha256 stay as provenance.
    """

    name = "words"
    page_kind = "letters"
    feedback_kind = "marks"
    parameters = {
        "answers": (str, "words: file of the possible secrets, one word per line"),
        "guesses": (str, "words: file of the allowed guesses (default: the answers)"),
        "hard": (bool, "words: hard mode, every guess keeps the hints so far"),
        "length": (int, "words: word length (default: the answer list's, 1 to 10)"),
        "others_weight": (float, "words: every other allowed guess is a secret too, of this weight (e.g. 0.001); "
                                 "an answer list's line may give its word a weight: crane 3"),
    }

    def __init__(self, answers: str | None = None, guesses: str | None = None, hard: bool = False,
                 length: int | None = None, answers_sha256: str | None = None, guesses_sha256: str | None = None,
                 others_weight=None, **carried: str | None):  # carried: the lists a spec carries (CARRIED)
        self.lists = word_lists(answers, guesses, length, carried, (answers_sha256, guesses_sha256), others_weight)
        self.hard, self.length, self.symbols = bool(hard), self.lists.length, len(ALPHABET)
        self.win = (2,) * self.length

    def params(self) -> dict:
        return self.lists.spec({"hard": self.hard, "length": self.length, "answers_sha256": self.answers_sha256,
                                "guesses_sha256": self.guesses_sha256})

    def identity(self) -> dict:  # the same lists make the same game, from files or carried along
        return {"name": self.name, "hard": self.hard, "length": self.length,
                "answers_sha256": self.answers_sha256, "guesses_sha256": self.guesses_sha256, **weights_param(self.weights)}

    @cached_property
    def weights(self) -> tuple[Fraction, ...] | None:  # type: ignore[override]  # (Game's: a class attribute)
        """Each secret's weight, in the order of ``secrets`` (None: every one weighs 1)."""
        return self.lists.weights(self._answer_words)

    def portable(self, played: set[Code] | None = None) -> Words:
        """The same game carrying its words: the answers, and the other guesses (only ``played``
        ones, if given)."""
        answers = set(self._answer_words)
        extra = [w for w in self._guess_words if w not in answers
                 and (played is None or self._code(w) in played)]
        return Words(hard=self.hard, length=self.length, answers_sha256=self.answers_sha256,
                     guesses_sha256=self.guesses_sha256, answer_words=" ".join(self._answer_words),
                     guess_words=" ".join(extra), **weights_param(self.weights))

    def __repr__(self) -> str:
        return self.lists.describe(self)

    def title(self) -> str:
        hard = (", weighted" if self.weights is not None else "") + (", hard mode" if self.hard else "")
        return f"Words of {counted(self.length, 'letter')} ({counted(len(self.secrets), 'answer')}{hard})"

    def slug(self) -> str:
        weights = "".join(f" {text}" for text in weights_param(self.weights).values())  # (none: as before weights)
        digest = hashlib.sha256(f"{self.answers_sha256} {self.guesses_sha256}{weights}".encode()).hexdigest()[:8]
        stem = self.lists.stem()
        parts = ["words", stem[:24], "" if self.length == 5 else f"l{self.length}", digest, "hard" if self.hard else ""]
        return "-".join(part for part in parts if part)

    def instructions(self) -> str:
        n = self.length
        return (f"Think of a word of {n} letters. For each guess, type one mark per letter: G if the letter is "
                f"right and in the right place, Y if it is in the word elsewhere, - if it is not "
                f"(e.g. GY{'-' * (n - 2)}; also B, X or . for absent, 210{'0' * (n - 3)} or the coloured squares); "
                f"{'G' * n} when the guess is your word.")

    def describe_feedback(self, feedback: Feedback) -> str:
        names = {2: "exact", 1: "present", 0: "absent"}
        return ", ".join(f"{names[m]}" for m in feedback)

    @property
    def answers_sha256(self) -> str:
        return self.lists.answers_sha256 or list_sha256(self._answer_words)

    @property
    def guesses_sha256(self) -> str:
        return self.lists.guesses_sha256 or list_sha256(self._guess_words)

    @cached_property
    def _answer_words(self) -> list[str]:
        return self.lists.answer_words()

    @cached_property
    def _guess_words(self) -> list[str]:
        return self.lists.guess_words(self._answer_words)

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
        # The secret's letters where the guess misses: each marks one guess letter present, left
        # to right. (A list, not a Counter: a player's suggestion scores tens of thousands of pairs.)
        unmatched = [s for g, s in zip(guess, secret) if g != s]
        if not unmatched:
            return (2,) * len(guess)
        result = []
        for g, s in zip(guess, secret):
            if g == s:
                result.append(2)
            elif g in unmatched:
                result.append(1)
                unmatched.remove(g)
            else:
                result.append(0)
        return tuple(result)

    def partition_count(self, guess: Code, secrets) -> int:
        """``Game.partition_count``, with a secret that shares no letter with the guess (all absent)
        counted without scoring it."""
        letters, absent = set(guess), (0,) * len(guess)
        score = self.score
        return len({absent if letters.isdisjoint(secret) else score(guess, secret) for secret in secrets})

    def splitter(self, secrets):
        """``Game.splitter``, each guess scored on every secret at once (``player.lanes``) for words
        of up to 5 letters, whose feedback numbers (the marks in base 3) fit a byte."""
        plan = self._lane_plan
        return super().splitter(secrets) if plan is None else plan.splitter(secrets)

    def consistent(self, guess, feedback, secrets):
        plan = self._lane_plan
        if plan is None:
            return super().consistent(guess, feedback, secrets)
        return plan.consistent(guess, sum(mark * 3 ** p for p, mark in enumerate(feedback)), secrets)

    def partition_counts(self, guesses, secrets):
        plan = self._lane_plan
        return super().partition_counts(guesses, secrets) if plan is None else plan.partition_counts(guesses, secrets)

    @cached_property
    def _lane_plan(self) -> LanePlan | None:
        """A guess's groups are its letters, each with the positions it holds."""
        return LanePlan(self.guesses, self.length, letter_groups, letter_row) if 3 ** self.length <= 256 else None

    def guesses_after(self, history) -> list[Code]:
        """``Game.guesses_after``: hard mode's rule as one regular expression over the word list."""
        if not self.hard or not history:
            return self.guesses
        fixed, revealed = ["."] * self.length, Counter[int]()
        for played, feedback in history:
            for position, (letter, mark) in enumerate(zip(played, feedback)):
                if mark == 2:
                    fixed[position] = ALPHABET[letter]
            revealed |= Counter(letter for letter, mark in zip(played, feedback) if mark)
        ahead = "".join(f"(?=(?:[^{ALPHABET[letter]}\\n]*{ALPHABET[letter]}){{{times}}})"
                        for letter, times in sorted(revealed.items()))
        codes = self._code_of_word
        return [codes[word] for word in re.findall(f"^{ahead}{''.join(fixed)}$", self._guess_text, re.M)]

    @cached_property
    def _guess_text(self) -> str:
        return "\n".join(self._guess_words)

    @cached_property
    def _code_of_word(self) -> dict[str, Code]:
        return dict(zip(self._guess_words, self.guesses))

    @property
    def restricts_guesses(self) -> bool:
        return self.hard

    @property
    def hint_rule(self) -> bool:  # hard mode's rule is the hint rule the compiler follows
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
        if "w" in cleaned.casefold():
            raise ValueError(f"{text!r}: W is no mark of word games (in Mastermind it means present); "
                             f"write Y for present, - for absent")
        if len(digits) != self.length or not set(digits) <= set("012"):
            raise ValueError(f"{text!r} is not feedback for {self.length}-letter words: write "
                             f"{self.length} marks, {MARKS_SAID}, e.g. "
                             f"'GY-{'-' * (self.length - 3)}', or 2/1/0, or the coloured squares")
        return self.check_feedback(tuple(int(d) for d in digits), text)


def _base3(value: int, width: int) -> str:
    digits = []
    for _ in range(width):
        value, digit = divmod(value, 3)
        digits.append(str(digit))
    return "".join(reversed(digits))


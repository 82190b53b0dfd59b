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
from functools import cache, cached_property

from .game import Code, Feedback, Game, require_int
from .lanes import LanePlan, Lanes
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
        word = _word_part(line).strip()
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
    ``weights``: an answer list's, filled with each word's weight (``line_weight``); without it a
    line that carries a weight is refused (a guess list's)."""
    words: dict[str, int] = {}  # each word's first line
    repeated = []  # (line, word) of each repetition, in order
    for number, line in enumerate(_lines(path), 1):
        weight = line_weight(line, path, number, weights is not None)
        word = _word_part(line).strip().casefold()
        if not word:
            continue
        if weights is not None:
            _note_weight(weights, word, weight, path, number, words)
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


# -- weights: how likely each answer is, relatively (an answer list's line ``crane 3``) ----------
WEIGHT = re.compile(r"[0-9]+(?:\.[0-9]+)?")  # a positive decimal number: digits, a point and digits; no sign, no exponent


def parse_weight(text: str) -> Fraction | None:
    """A weight as a line or an option gives it (``3``, ``0.25``), or None if it is none (zero included)."""
    if not WEIGHT.fullmatch(text):
        return None
    weight = Fraction(text)
    return weight if weight > 0 else None


def format_weight(weight: Fraction) -> str:
    """A weight as decimal text, the fewest digits that say it (``1``, ``0.25``): ``parse_weight``'s pair."""
    weight = Fraction(weight)
    places = 0
    while (weight * 10 ** places).denominator != 1 and places <= 64:  # (a weight read from decimal text ends)
        places += 1
    if (weight * 10 ** places).denominator != 1:
        return str(weight)  # 1/3: no decimal form, which parse_weight refuses
    whole, rest = divmod((weight * 10 ** places).numerator, 10 ** places)
    return f"{whole}.{rest:0{places}d}".rstrip("0").rstrip(".") if places else str(whole)


def format_weights(weights) -> str:
    """Weights as ``answer_weights`` carries them: decimal text, one space apart."""
    return " ".join(format_weight(w) for w in weights)


def _split_weight(line: str) -> tuple[str, str | None]:
    """A line's word and the text of its weight, if it gives one after the word (a second item
    that holds a digit, a point or a sign: ``crane 3``, ``crane -1``); else the line itself,
    whose letters ``read_words`` checks (``can to`` is a bad word, not a bad weight)."""
    items = line.split()
    if len(items) == 2 and re.search(r"[0-9.+-]", items[1]):
        return items[0], items[1]
    return line, None


def _word_part(line: str) -> str:
    """A line without the weight after its word."""
    return _split_weight(line)[0]


def line_weight(line: str, path: str, number: int, allowed: bool) -> Fraction:
    """The weight a line gives its word (1 if none); refused by file and line where it is not a
    positive decimal number, or where the list takes none (``allowed``: an answer list's)."""
    _, text = _split_weight(line)
    if text is None:
        return Fraction(1)
    if not allowed:
        raise ValueError(f"{path}, line {number}: {line.strip()!r} gives a weight, but only the answer list's "
                         "words have weights (a guess list is words alone)")
    weight = parse_weight(text)
    if weight is None:
        raise ValueError(f"{path}, line {number}: {line.strip()!r}: the weight {text!r} is not a positive decimal "
                         "number (e.g. 3 or 0.25; no sign, no exponent)")
    return weight


def _note_weight(weights: dict[str, Fraction], word: str, weight: Fraction, path: str, number: int,
                 lines: dict[str, int]) -> None:
    """Record ``word``'s weight: a word listed twice keeps its first line's, refused if another is given."""
    if word in weights and weights[word] != weight:
        raise ValueError(f"{path}, line {number}: {word!r} weighs {format_weight(weight)} here but "
                         f"{format_weight(weights[word])} on line {lines[word]}")
    weights.setdefault(word, weight)


def weight_option(value) -> Fraction:
    """``--others-weight``'s value (decimal text, or a number from Python), or a ValueError naming the option."""
    text = value if isinstance(value, str) else str(value)
    if isinstance(value, float) and "e" in text:  # 1e-05: as Python writes a small float
        text = format(value, "f")
    weight = None if isinstance(value, bool) else (Fraction(value) if isinstance(value, Fraction) else parse_weight(text))
    if weight is None or weight <= 0 or parse_weight(format_weight(weight)) != weight:  # (1/3 has no decimal form)
        raise ValueError(f"--others-weight must be a positive decimal number (e.g. 0.001), not {value!r}")
    return weight


def carried_weights(text, count: int) -> tuple[Fraction, ...] | None:
    """``answer_weights`` read back: one weight per carried answer, as ``format_weights`` writes
    them (None: no such key); a ValueError for any other text."""
    if text is None:
        return None
    items = text.split(" ") if isinstance(text, str) else []
    weights = [parse_weight(item) for item in items]
    if len(items) != count or None in weights or format_weights(weights) != text:
        raise ValueError(f"answer_weights is not {count} weights, one per answer word, as decimal text "
                         "one space apart (e.g. '1 0.25 3')")
    return tuple(w for w in weights if w is not None)


def _weighed(weights: list[Fraction]) -> tuple[Fraction, ...] | None:
    """The game's weights: None where every one is 1."""
    return None if all(w == 1 for w in weights) else tuple(weights)


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
    ``length``: the words' (None: the first answer's). ``others_weight``: every allowed guess that is
    no answer is a possible secret too, of this weight (the secrets are then both, and the recorded
    ``answers_sha256`` theirs)."""

    def __init__(self, answers, guesses, length: int | None, sha256: Digests, others_weight=None):
        self.inferred = length is None and isinstance(answers, str) and bool(answers)
        self.length = _known_length(list_length(answers) if self.inferred else length)
        if not isinstance(answers, str) or not answers:
            raise ValueError("words needs --answers FILE, a list of the possible secrets")
        if guesses is not None and not isinstance(guesses, str):
            raise ValueError(f"--guesses must be a file name, not {guesses!r}")
        self.answers, self.guesses = answers, guesses
        self.answers_sha256, self.guesses_sha256 = sha256
        self.others_weight = None if others_weight is None else weight_option(others_weight)
        if self.others_weight is not None and guesses is None:
            raise ValueError("--others-weight needs --guesses: without a guess list every allowed word is an answer")

    def spec(self, keys: dict) -> dict:
        """A spec's parameters: the files, then ``keys`` (the order specs have been written in)."""
        others = {} if self.others_weight is None else {"others_weight": format_weight(self.others_weight)}
        return {"answers": self.answers, "guesses": self.guesses, **keys, **others}

    def answer_words(self) -> list[str]:
        return _checked(list(self._secrets), self.answers, self.answers_sha256)

    def weights(self, answer_words: list[str]) -> tuple[Fraction, ...] | None:
        return _weighed([self._secrets[word] for word in answer_words])

    @cached_property
    def _secrets(self) -> dict[str, Fraction]:
        """Each possible secret's weight, in order: the answer list's words, then (``others_weight``)
        the other allowed guesses."""
        weights: dict[str, Fraction] = {}
        answers = read_words(self.answers, self.length, self.inferred, weights)
        if self.others_weight is not None:
            weights.update((word, self.others_weight) for word in self._guess_list if word not in weights)
        return {word: weights[word] for word in sorted({*answers, *weights})}

    @cached_property
    def _guess_list(self) -> list[str]:
        """The guess file's words (none without one)."""
        return [] if self.guesses is None else _checked(self._read(self.guesses), self.guesses, self.guesses_sha256)

    def guess_words(self, answer_words: list[str]) -> list[str]:
        if self.guesses is None:
            return answer_words
        words = self._guess_list
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
                 "others_weight": None if self.others_weight is None else format_weight(self.others_weight)}
        defaults = {"guesses": None, "hard": False, "length": self.length if self.inferred else 5, "others_weight": None}
        return "Words(" + ", ".join(f"{k}={v!r}" for k, v in shown.items() if defaults.get(k, object()) != v) + ")"

    def stem(self) -> str:
        """The answer file's name, as a file name's part."""
        return re.sub(r"[^a-z0-9]+", "-", os.path.basename(self.answers).rsplit(".", 1)[0].lower()).strip("-")


class CarriedWords:
    """Word lists carried in a spec, as an artifact records them: ``answer_words``, and
    ``guess_words`` (the guesses that are not answers), checked when read back, not at first use."""

    def __init__(self, answer_words: str, guess_words: str, length: int | None, sha256: Digests,
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
        """A spec's parameters: ``keys``, then the words (the order artifacts have been written in)
        and their weights, where some is not 1."""
        weights = {} if self.weights(self.answers) is None else {"answer_weights": format_weights(self.answer_weights)}
        return {**keys, "answer_words": self.answer_text, "guess_words": self.guess_text, **weights}

    def answer_words(self) -> list[str]:
        return self.answers

    def weights(self, answer_words: list[str]) -> tuple[Fraction, ...] | None:
        return None if self.answer_weights is None else _weighed(list(self.answer_weights))

    def guess_words(self, answer_words: list[str]) -> list[str]:
        return sorted(set(self.extra) | set(answer_words))

    def describe(self, game: Words) -> str:
        hard = ", hard=True" if game.hard else ""
        weighted = ", weighted" if game.weights is not None else ""
        return (f"Words({counted(len(game.secrets), 'answer')}, {counted(len(game.guesses), 'guess', 'guesses')}"
                f"{hard}{weighted})")

    def stem(self) -> str:
        return ""


def word_lists(answers, guesses, length: int | None, answer_words, guess_words, sha256: Digests,
               weights: tuple = (None, None)):
    """Where a game's words come from, decided once: carried in its spec, or files. ``weights``:
    ``(others_weight, answer_weights)``, the first for files, the second carried."""
    others_weight, answer_weights = weights
    if answer_words is None:
        if guess_words is not None or answer_weights is not None:
            raise ValueError(f"{'guess_words' if guess_words is not None else 'answer_weights'} needs answer_words")
        return WordFiles(answers, guesses, length, sha256, others_weight)
    if answers is not None or guesses is not None:
        raise ValueError("words takes its lists from files or from answer_words, not both")
    if others_weight is not None:
        raise ValueError("others_weight applies to lists read from files: answer_words carries every secret")
    return CarriedWords(answer_words, guess_words, length, sha256, answer_weights)


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
        "others_weight": (float, "words: every allowed guess that is no answer is a possible secret too, of this "
                                 "weight (e.g. 0.001); an answer list's line may give its word's weight: crane 3"),
    }

    def __init__(self, answers: str | None = None, guesses: str | None = None, hard: bool = False,
                 length: int | None = None, answers_sha256: str | None = None, guesses_sha256: str | None = None,
                 answer_words: str | None = None, guess_words: str | None = None, others_weight=None,
                 answer_weights: str | None = None):
        self.lists = word_lists(answers, guesses, length, answer_words, guess_words, (answers_sha256, guesses_sha256),
                                (others_weight, answer_weights))
        self.hard, self.length, self.symbols = bool(hard), self.lists.length, len(ALPHABET)
        self.win = (2,) * self.length

    def params(self) -> dict:
        return self.lists.spec({"hard": self.hard, "length": self.length, "answers_sha256": self.answers_sha256,
                                "guesses_sha256": self.guesses_sha256})

    def identity(self) -> dict:  # the same lists make the same game, from files or carried along
        return {"name": self.name, "hard": self.hard, "length": self.length,
                "answers_sha256": self.answers_sha256, "guesses_sha256": self.guesses_sha256, **self._weights_param()}

    @cached_property
    def weights(self) -> tuple[Fraction, ...] | None:  # type: ignore[override]  # (Game's: a class attribute)
        """Each secret's weight, in the order of ``secrets`` (None: every one weighs 1)."""
        return self.lists.weights(self._answer_words)

    def _weights_param(self) -> dict:
        """``answer_weights``, as a spec carries them, where some weight is not 1."""
        return {} if self.weights is None else {"answer_weights": format_weights(self.weights)}

    def portable(self, played: set[Code] | None = None) -> Words:
        """The same game carrying its words: the answers, and the other guesses (only ``played``
        ones, if given)."""
        answers = set(self._answer_words)
        extra = [w for w in self._guess_words if w not in answers
                 and (played is None or self._code(w) in played)]
        return Words(hard=self.hard, length=self.length, answers_sha256=self.answers_sha256,
                     guesses_sha256=self.guesses_sha256, answer_words=" ".join(self._answer_words),
                     guess_words=" ".join(extra), **self._weights_param())

    def __repr__(self) -> str:
        return self.lists.describe(self)

    def title(self) -> str:
        hard = ", hard mode" if self.hard else ""
        weighted = ", weighted" if self.weights is not None else ""
        return f"Words of {counted(self.length, 'letter')} ({counted(len(self.secrets), 'answer')}{weighted}{hard})"

    def slug(self) -> str:
        weights = "".join(f" {text}" for text in self._weights_param().values())  # (none: as before weights)
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
        return LanePlan(self.guesses, self.length, _letter_groups, _letter_row) if 3 ** self.length <= 256 else None

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


def _letter_groups(guess: Code) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """A guess's letters, each with the positions it holds: (letter, positions), by first position."""
    positions: dict[int, list[int]] = {}
    for position, letter in enumerate(guess):
        positions.setdefault(letter, []).append(position)
    return tuple((letter, tuple(held)) for letter, held in positions.items())


def _letter_row(lanes: Lanes, group) -> int:
    """What a letter held at ``positions`` adds to each secret's feedback number: the lanes of
    ``count << m | exact bits`` (below 192), translated by the marks they give."""
    letter, positions = group
    key = lanes.count(letter) << len(positions)
    for i, position in enumerate(positions):
        key += lanes.at(position, letter) << i
    return lanes.translate(key, _marks_table(positions))


@cache
def _marks_table(positions: tuple[int, ...]) -> bytes:
    """For a letter at ``positions`` of the guess and a secret holding it ``count`` times, exactly
    at the positions of the bits ``exact``: the letter's marks as a number in base 3. Misplaced
    copies are marked present left to right while the secret's unmatched copies last."""
    m, table = len(positions), bytearray(256)
    for key in range(min(256, 11 << m)):
        count, exact = key >> m, key & ((1 << m) - 1)
        unmatched = count - bin(exact).count("1")
        value = 0
        for i, position in enumerate(positions):
            if exact >> i & 1:
                value += 2 * 3 ** position
            elif unmatched > 0:
                value += 3 ** position
                unmatched -= 1
        table[key] = value
    return bytes(table)


def _base3(value: int, width: int) -> str:
    digits = []
    for _ in range(width):
        value, digit = divmod(value, 3)
        digits.append(str(digit))
    return "".join(reversed(digits))


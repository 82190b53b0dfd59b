"""Word lists: read from files (one word per line, ``read_words``) or carried in a tree's spec, and
where a game's words come from (``word_lists``: ``WordFiles`` or ``CarriedWords``), checked against
the sha256 recorded for them.
"""
from __future__ import annotations

import hashlib
import os
import re
import warnings
from fractions import Fraction
from functools import cached_property
from typing import Any

from .game import require_int
from .letters import AZ, Alphabet, is_letter, named, normal_word
from .weights import (carried_weights, note_weight, others_option, others_param, secrets_weighed, weighed, weighed_line,
                      weights_param, word_part)
from .wording import counted

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


def words_of_length(path: str, length: int) -> list[str]:
    """The words of ``length`` letters of a dictionary (Debian's ``/usr/share/dict/LANGUAGE``: words of
    every length, and some that are not all letters, l'eau, e-mail, which it leaves out), made normal
    and sorted: a game's list."""
    return sorted({word for line in _lines(path) if len(word := normal_word(line.strip())) == length
                   and word.isalpha()})


def list_length(path: str) -> int:
    """The length of a word list's words, from its first word (``read_words`` checks the rest)."""
    for line in _lines(path):
        word = normal_word(word_part(line).strip())
        if word:
            if not 1 <= len(word) <= MAX_LENGTH:
                raise ValueError(f"{path}: its first word {word!r} has {len(word)} letters; words of 1 to "
                                 f"{MAX_LENGTH} letters are supported")
            return len(word)
    raise ValueError(f"{path}: the word list is empty")


def read_words(path: str, length: int, inferred: bool = False, weights: dict[str, Fraction] | None = None) -> list[str]:
    """One word per line (blank lines and `#` comments skipped), of letters (``is_letter``) made
    normal (``normal_word``: NFC, lower case), deduplicated (a
    ``DuplicateWords`` warning names the file, how many, and the first) and sorted; a bad line is
    refused by file and line.
    ``inferred``: ``length`` is the list's first word's, not a --length given (the error says so).
    ``weights``: an answer list's, filled (``player.weights``); without it a line's weight is refused."""
    words: dict[str, int] = {}  # each word's first line
    repeated = []  # (line, word) of each repetition, in order
    for number, line in enumerate(_lines(path), 1):
        text, weight = weighed_line(line, path, number, weights is not None)
        word = normal_word(text)
        if not word:
            continue
        if weights is not None:
            note_weight(weights, word, weight, path, number, words)
        stray = None if word.isascii() and word.isalpha() else next((c for c in word if not is_letter(c)), None)
        if stray is not None:
            raise ValueError(f"{path}, line {number}: {line.strip()!r} holds {named(stray)}, which is not a letter")
        if len(word) != length:
            why = f" (the list's first word has {length}: give --length N for another length)" if inferred else ""
            raise ValueError(f"{path}, line {number}: {line.strip()!r} is not a word of {length} letters{why}")
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


def _carried(text: str, length: int, key: str, letters: str, empty: bool = False) -> list[str]:
    """Words carried in a spec: sorted, distinct, of ``length`` of ``letters``, separated by spaces."""
    words = text.split(" ") if text else []
    if not words and not empty:
        raise ValueError(f"{key} is empty")
    known = set(letters)
    if words != sorted(set(words)) or not all(len(w) == length and known.issuperset(w) for w in words):
        shown = "a-z" if letters == AZ else "of its alphabet"
        raise ValueError(f"{key} is not a sorted list of distinct words of {length} letters {shown}")
    return words


def list_sha256(words: list[str]) -> str:
    """The sha256 of the canonical list (sorted, lower case, one word per line, UTF-8)."""
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
    secret too, of this weight (the secrets, answers and others, are then what ``answers_sha256`` is of).
    ``alphabet``: the letters given (None: those the lists use)."""

    def __init__(self, answers, guesses, length: int | None, sha256: Digests, others_weight=None,
                 alphabet: Alphabet | None = None):
        self.given = alphabet
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

    def alphabet(self, answer_words: list[str], guess_words: list[str]) -> Alphabet:
        """The letters the lists use (a-z where they use no other), or those given, if the lists keep to them."""
        if self.given is None:
            return Alphabet.of_words(guess_words)
        stray = next((c for word in guess_words for c in word if c not in self.given.index), None)
        if stray is not None:
            raise ValueError(f"the word lists use {named(stray)}, which is not in the alphabet given")
        return self.given

    def describe(self, game: Any) -> str:
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
                 answer_weights: str | None = None, alphabet: Alphabet | None = None):
        self.length, self.given = _known_length(length), alphabet or Alphabet(AZ)
        if not (all(isinstance(digest, str) for digest in sha256)
                and isinstance(answer_words, str) and isinstance(guess_words, str)):
            raise ValueError("embedded word lists need answer_words, guess_words and both sha256 as text")
        self.answer_text, self.guess_text = answer_words, guess_words
        self.answers_sha256, self.guesses_sha256 = sha256
        self.answers = _carried(answer_words, self.length, "answer_words", self.given.letters)
        if list_sha256(self.answers) != self.answers_sha256:
            raise ValueError("the answer words it carries do not match their sha256")
        self.extra = _carried(guess_words, self.length, "guess_words", self.given.letters, empty=True)
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

    def alphabet(self, answer_words: list[str], guess_words: list[str]) -> Alphabet:
        return self.given  # (its words were checked against it)

    def describe(self, game: Any) -> str:
        hard = ", hard=True" if game.hard else ""
        hard += ", weighted" if game.weights is not None else ""
        return f"Words({counted(len(game.secrets), 'answer')}, {counted(len(game.guesses), 'guess', 'guesses')}{hard})"

    def stem(self) -> str:
        return ""


def word_lists(answers, guesses, length: int | None, recorded: dict, others_weight=None):
    """Where a game's words come from, decided once: carried in its spec (``recorded``: what an
    artifact records, ``Words.recorded``), or files."""
    get = recorded.get
    letters, capitals = get("alphabet"), get("capitals")
    alphabet = None if letters is None and capitals is None else Alphabet(letters, capitals, check=True)  # type: ignore[arg-type]
    sha256 = get("answers_sha256"), get("guesses_sha256")
    answer_words, guess_words, answer_weights = get("answer_words"), get("guess_words"), get("answer_weights")
    if answer_words is None:
        if guess_words is not None or answer_weights is not None:
            raise ValueError(f"{'guess_words' if guess_words is not None else 'answer_weights'} needs answer_words")
        return WordFiles(answers, guesses, length, sha256, others_weight, alphabet)
    if answers is not None or guesses is not None or others_weight is not None:
        raise ValueError("words takes its lists from files (and --others-weight) or from answer_words, not both")
    return CarriedWords(answer_words, guess_words, length, sha256, answer_weights, alphabet)


def _checked(words: list[str], path: str, expected: str | None) -> list[str]:
    if expected is not None and list_sha256(words) != expected:
        raise ValueError(f"{path}: this word list is not the one the tree was built from "
                         f"(its sha256 differs from {expected[:12]}...)")
    return words

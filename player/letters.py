"""The letters of word games: any Unicode letters, made normal by one rule (``normal_word``), and a
game's alphabet (``Alphabet``): the letters its lists use in code point order, each with the capital
words are shown in. Standard library only; the JavaScript and C players read the alphabet and the
capitals an artifact carries (trees/FORMAT.md §2.1) and need no Unicode tables of their own.
"""
from __future__ import annotations

import unicodedata

AZ = "abcdefghijklmnopqrstuvwxyz"  # the alphabet of every list that uses no other letters (codes 0..25)
MAX_LETTERS = 255  # the most letters a game may use: a code's letters are bytes


def normal_word(text: str) -> str:
    """A word as games hold it: NFC, then each code point in lower case where its lower case is one
    code point, else as it is. Per code point, never per word (Σ becomes σ, never the final ς; İ,
    whose lower case is two code points, stays İ): a word's length never changes."""
    if text.isascii():  # (most lists: NFC changes nothing and lower case is one to one)
        return text.lower()
    return "".join(map(_lower, unicodedata.normalize("NFC", text)))


def _lower(letter: str) -> str:
    lower = letter.lower()
    return lower if len(lower) == 1 else letter


def is_letter(character: str) -> bool:
    """A letter of a word: Unicode's letters (L*) and marks (M*: a mark NFC leaves on its own, as
    in Devanagari, is a letter of its own)."""
    return unicodedata.category(character)[0] in "LM"


def named(character: str) -> str:
    """A character as a message shows it: ``'-' (U+002D HYPHEN-MINUS)``."""
    return f"{character!r} (U+{ord(character):04X} {unicodedata.name(character, 'unnamed')})"


def capitals_of(letters: str) -> str:
    """How each letter is shown: its upper case where that is one code point whose lower case is the
    letter again and that no other letter is or showed as; else the letter itself (ß shows as ß,
    the final ς as ς: Σ is σ's)."""
    taken, shown = set(letters), []
    for letter in letters:
        upper = letter.upper()
        capital = upper if len(upper) == 1 and upper.lower() == letter and upper not in taken else letter
        taken.add(capital)
        shown.append(capital)
    return "".join(shown)


class Alphabet:
    """A game's letters, in code point order (so that codes sort as the words do), and their capitals,
    the form words are shown in; a code is its letters' indices. ``check``: the letters come from a
    file nobody vouches for, and are held to the rules ``Alphabet.of_words`` makes them by."""

    def __init__(self, letters: str, capitals: str | None = None, check: bool = False):
        if check:
            _check_alphabet(letters, capitals)
        self.letters, self.capitals = letters, capitals_of(letters) if capitals is None else capitals
        self.index = {letter: i for i, letter in enumerate(self.letters)}
        self.typed = {**{capital: i for i, capital in enumerate(self.capitals)}, **self.index}

    @classmethod
    def of_words(cls, words) -> Alphabet:
        """The letters ``words`` use, or a-z if they use no other."""
        used = set("".join(words))
        if len(used) > MAX_LETTERS:
            raise ValueError(f"the word lists use {len(used)} different letters; a game takes at most {MAX_LETTERS}")
        return cls(AZ if used <= set(AZ) else "".join(sorted(used)))

    @property
    def is_az(self) -> bool:
        return self.letters == AZ

    def params(self) -> dict:
        """The game's parameters that carry the alphabet: none for a-z (the trees before alphabets)."""
        return {} if self.is_az else {"alphabet": self.letters, "capitals": self.capitals}

    def code(self, word: str):
        return tuple(self.index[c] for c in word)

    def word(self, code) -> str:
        return "".join(self.letters[c] for c in code)

    def shown(self, code) -> str:
        return "".join(self.capitals[c] for c in code)

    def read(self, text: str):
        """A typed word's code: NFC, then each code point a letter or a capital (the error names the first that is neither)."""
        word = unicodedata.normalize("NFC", text.strip())
        stray = next((c for c in word if c not in self.typed), None)
        if stray is not None or not word:
            if self.is_az:  # (as the players have always said it)
                raise ValueError(f"{text!r} is not a word: use the letters a-z")
            if stray is None:
                raise ValueError(f"{text!r} is not a word: no letters")
            # (Unicode's name for ASCII alone, as the C player, which has no other table of names, says it)
            shown = named(stray) if stray.isascii() else f"{stray!r} (U+{ord(stray):04X})"
            raise ValueError(f"{text!r} is not a word: {shown} is not one of this game's letters ({self.listed()})")
        return tuple(self.typed[c] for c in word)

    def listed(self) -> str:
        return " ".join(self.letters)


def _check_alphabet(letters, capitals) -> None:
    """An alphabet and its capitals as a file carries them: what ``Alphabet.of_words`` and
    ``capitals_of`` could have made, or refused (a reader meets them before any word)."""
    if not isinstance(letters, str) or not isinstance(capitals, str):
        raise ValueError("alphabet and capitals must both be text")
    if not 1 <= len(letters) <= MAX_LETTERS or list(letters) != sorted(set(letters)):
        raise ValueError(f"alphabet must be 1 to {MAX_LETTERS} distinct letters in code point order")
    odd = next((c for c in letters if not is_letter(c) or normal_word(c) != c), None)
    if odd is not None:
        raise ValueError(f"alphabet holds {named(odd)}, which is not a letter in lower case and NFC")
    if len(capitals) != len(letters) or len(set(capitals)) != len(capitals) or not all(map(is_letter, capitals)):
        raise ValueError("capitals must be one distinct letter for each letter of the alphabet")
    if any(capital in letters and capital != letter for letter, capital in zip(letters, capitals)):
        raise ValueError("a capital is another letter of the alphabet")

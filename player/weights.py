"""Weighted answers: how likely each answer of a word list is, relatively (an answer list's line
``crane 3``), and the weights as an artifact carries them (``answer_weights``, trees/FORMAT.md §2.1).

A weight is a positive decimal number: digits, optionally a point and digits; no sign, no exponent
(``parse_weight``, and its pair ``format_weight``, the fewest digits that say it). A line without
one weighs 1; a guess list gives none (``weighed_line`` refuses it by file and line). The game's
weights are ``fractions.Fraction``, exact; ``Game.weights`` is None where every one is 1.
"""
from __future__ import annotations

import re
from fractions import Fraction

ONE = Fraction(1)  # a line without a weight
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


def split_weight(line: str) -> tuple[str, str | None]:
    """A line's word and the text of its weight, if it gives one after the word (a second item
    that holds a digit, a point or a sign: ``crane 3``, ``crane -1``); else the line itself,
    whose letters ``read_words`` checks (``can to`` is a bad word, not a bad weight)."""
    items = line.split()
    if len(items) == 2 and re.search(r"[0-9.+-]", items[1]):
        return items[0], items[1]
    return line, None


def word_part(line: str) -> str:
    """A line without the weight after its word."""
    return split_weight(line)[0]


def weighed_line(line: str, path: str, number: int, allowed: bool) -> tuple[str, Fraction]:
    """A line's word, stripped (``read_words`` checks its letters), and the weight it gives it (1 if
    none); refused by file and line where the weight is not a positive decimal number, or where the
    list takes none (``allowed``: an answer list's)."""
    text = line.strip()
    if text.isalpha() or not text:  # a word alone, as nearly every line is: no weight to look for
        return text, ONE
    word, weight_text = split_weight(text)
    if weight_text is None:
        return text, ONE
    if not allowed:
        raise ValueError(f"{path}, line {number}: {text!r} gives a weight, but only the answer list's "
                         "words have weights (a guess list is words alone)")
    weight = parse_weight(weight_text)
    if weight is None:
        raise ValueError(f"{path}, line {number}: {text!r}: the weight {weight_text!r} is not a positive decimal "
                         "number (e.g. 3 or 0.25; no sign, no exponent)")
    return word, weight


def note_weight(weights: dict[str, Fraction], word: str, weight: Fraction, path: str, number: int,
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


def weighed(weights: list[Fraction]) -> tuple[Fraction, ...] | None:
    """The game's weights: None where every one is 1."""
    return None if all(w == 1 for w in weights) else tuple(weights)


def others_option(value, guesses) -> Fraction | None:
    """``--others-weight`` as lists from files take it: None where not given; refused without a guess list."""
    if value is None:
        return None
    if guesses is None:
        raise ValueError("--others-weight needs --guesses: without a guess list every allowed word is an answer")
    return weight_option(value)


def others_param(weight: Fraction | None) -> dict:
    """``others_weight`` as a spec of lists from files records it, if given."""
    return {} if weight is None else {"others_weight": format_weight(weight)}


def weights_param(weights) -> dict:
    """``answer_weights`` as a spec carries them, where some weight is not 1 (``weights`` not None)."""
    return {} if weights is None else {"answer_weights": format_weights(weights)}


def secrets_weighed(answers: dict[str, Fraction], guesses: list[str], others: Fraction | None) -> dict[str, Fraction]:
    """Each possible secret's weight, in order: the answers' (each word's), and with ``others`` every
    other allowed guess's."""
    weights = dict(answers)
    if others is not None:
        weights.update((word, others) for word in guesses if word not in answers)
    return dict(sorted(weights.items()))

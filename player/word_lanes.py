"""Words' plan for ``player.lanes`` (``Words.splitter``): a guess's letters, each with the positions
it holds, and the marks each gives every secret at once (the official rule for repeated letters)."""
from __future__ import annotations

from functools import cache

from .game import Code
from .lanes import Lanes


def letter_groups(guess: Code) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """A guess's letters, each with the positions it holds: (letter, positions), by first position."""
    positions: dict[int, list[int]] = {}
    for position, letter in enumerate(guess):
        positions.setdefault(letter, []).append(position)
    return tuple((letter, tuple(held)) for letter, held in positions.items())


def letter_row(lanes: Lanes, group) -> int:
    """What a letter held at ``positions`` adds to each secret's feedback number: the lanes of
    ``count << m | exact bits`` (below 192), translated by the marks they give."""
    letter, positions = group
    key = lanes.count(letter) << len(positions)
    for i, position in enumerate(positions):
        key += lanes.at(position, letter) << i
    return lanes.translate(key, marks_table(positions))


@cache
def marks_table(positions: tuple[int, ...]) -> bytes:
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

"""One guess scored against many secrets at once, in the standard library only.

A Python integer is a row of byte lanes, one per secret. For a fixed set of secrets, each group of
a guess (a Wordle letter and the positions it holds; a Mastermind colour in one hole) has a row:
what that group adds to each secret's feedback number. A guess's feedback on every secret is the
sum of its groups' rows (no lane carries into the next: every feedback number is below 256), and
``len(set(row))`` is the number of parts the guess splits the secrets into. The rows are made with
``bytes.translate`` and integer arithmetic once per set of secrets, so that scoring a guess costs a
few big-integer additions whatever the number of secrets: what lets ``player.advice`` weigh every
allowed guess of a game within a few tens of milliseconds.
"""
from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence

from .game import Code

Row = bytes  # one feedback number (a byte) per secret, in the secrets' order

_ONE_OF = [bytes(int(i == symbol) for i in range(256)) for symbol in range(256)]


class Lanes:
    """The rows of one set of secrets: where each symbol stands, and how often each occurs."""

    def __init__(self, secrets: Sequence[Code], length: int):
        self.width = len(secrets)
        self._columns = [bytes(secret[p] for secret in secrets) for p in range(length)]
        self._at: dict[tuple[int, int], int] = {}
        self._count: dict[int, int] = {}

    def at(self, position: int, symbol: int) -> int:
        """1 in the lane of each secret with ``symbol`` at ``position``, else 0."""
        row = self._at.get((position, symbol))
        if row is None:
            row = int.from_bytes(self._columns[position].translate(_ONE_OF[symbol]), "little")
            self._at[position, symbol] = row
        return row

    def count(self, symbol: int) -> int:
        """How often each secret holds ``symbol``."""
        row = self._count.get(symbol)
        if row is None:
            row = self._count[symbol] = sum(self.at(p, symbol) for p in range(len(self._columns)))
        return row

    def translate(self, row: int, table: bytes) -> int:
        """Each lane ``v`` of ``row`` replaced by ``table[v]``."""
        return int.from_bytes(row.to_bytes(self.width, "little").translate(table), "little")


class LanePlan:
    """How a game's guesses split into groups: ``groups_of(guess)`` names a guess's groups, and
    ``row_of(lanes, group)`` makes a group's row for the secrets of ``lanes``. Each allowed guess's
    groups are numbered once, so that scoring it is a sum of list items. Under a feedback rule
    (``player.rules``) ``told`` maps each full feedback number to the number of what the host tells."""

    def __init__(self, guesses: Iterable[Code], length: int, groups_of: Callable[[Code], Sequence[Hashable]],
                 row_of: Callable[[Lanes, Hashable], int], told: bytes | None = None):
        numbers: dict[Hashable, int] = {}
        self._ids = {guess: tuple(numbers.setdefault(group, len(numbers)) for group in groups_of(guess))
                     for guess in guesses}
        self._groups = list(numbers)
        self._length, self._groups_of, self._row_of, self._told = length, groups_of, row_of, told

    def _numbers(self, total: int, width: int) -> Row:
        row = total.to_bytes(width, "little")
        return row if self._told is None else row.translate(self._told)

    def _rows(self, secrets: Sequence[Code]) -> tuple[Lanes, _Rows]:
        lanes = Lanes(secrets, self._length)
        return lanes, _Rows(lanes, self._groups, self._row_of)

    def _total(self, guess: Code, lanes: Lanes, rows: _Rows) -> int:
        ids = self._ids.get(guess)
        if ids is None:  # not an allowed guess: its groups made for it alone
            return sum(self._row_of(lanes, group) for group in self._groups_of(guess))
        return sum(map(rows.__getitem__, ids))

    def splitter(self, secrets: Sequence[Code]) -> Callable[[Code], Row]:
        """``split(guess)``: the feedback number of ``guess`` on each of ``secrets``."""
        lanes, rows = self._rows(secrets)
        return lambda guess: self._numbers(self._total(guess, lanes, rows), lanes.width)

    def consistent(self, guess: Code, number: int, secrets: Sequence[Code]) -> list[Code]:
        """The secrets of ``secrets`` whose feedback number from ``guess`` is ``number``."""
        lanes = Lanes(secrets, self._length)
        total = sum(self._row_of(lanes, group) for group in self._groups_of(guess))
        return [secret for secret, value in zip(secrets, self._numbers(total, lanes.width)) if value == number]

    def partition_counts(self, guesses: Iterable[Code], secrets: Sequence[Code]) -> Iterator[int]:
        """The number of parts each of ``guesses`` splits ``secrets`` into, one by one."""
        lanes, rows = self._rows(secrets)
        width, get, ids = lanes.width, rows.__getitem__, self._ids
        for guess in guesses:
            known = ids.get(guess)
            total = self._total(guess, lanes, rows) if known is None else sum(map(get, known))
            yield len(set(self._numbers(total, width)))


class _Rows(dict):
    """The rows of a plan's groups (by number) for one set of secrets, each made when first asked."""

    def __init__(self, lanes: Lanes, groups: list, row_of: Callable[[Lanes, Hashable], int]):
        super().__init__()
        self._lanes, self._groups, self._row_of = lanes, groups, row_of

    def __missing__(self, number: int) -> int:
        row = self[number] = self._row_of(self._lanes, self._groups[number])
        return row

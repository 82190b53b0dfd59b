"""The opening book: for the first guesses people play, the best tree after them, which ``suggest``
follows once a person has opened with one of them (``player.advice`` states where it stands in the
rule; ``player/js`` reads the same book).

The book is a folder of ordinary artifacts (``trees/book/``, package data like the shipped trees,
each verified as they are) with an index, ``BOOK.json``, written by ``scripts/build_trees.py
--book``::

    {"format": "guesstree-book", "openings": [{"file": "wordle-crane-optimal-expected.msgpack.zst",
     "game": {"name": "words", "params": {...}}, "first": "CRANE", "total": 7930, "worst": 6}, ...]}

``game`` is the artifact's own game spec without the word lists it carries (``game_key``), so that
a tree finds its game's openings without loading them. In a game whose codes may be renamed and
reordered (``Game.permutable``: the peg games), one opening serves a whole class of first guesses:
it is listed under the class's first code (``class_of``), and a history is carried to it and its
guesses back by the symmetry that takes the person's first guess there.

A ``Book`` is given to a tree, never found behind its back: ``Tree.book`` (``player.load`` and
``load_shipped`` give the shipped one, ``player.tree.shipped_book()``; ``book=None``, the rule
alone), as the JavaScript player's ``useBook``.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from functools import cached_property
from pathlib import Path
from typing import Generic, Protocol, TypeVar

from .format import FormatError
from .games import Code, Game

FORMAT = "guesstree-book"
INDEX = "BOOK.json"
MAX_INDEX_BYTES = 1 << 20  # an index is a few hundred bytes an opening
LISTS = ("answer_words", "guess_words")  # a words game's carried lists: named by their sha256 beside them


def game_key(spec) -> dict:
    """The game of an artifact's header as the book names it: its spec without carried word lists."""
    if not isinstance(spec, dict) or not isinstance(spec.get("params"), dict):
        return {}
    return {"name": spec.get("name"), "params": {k: v for k, v in spec["params"].items() if k not in LISTS}}


def _canonical(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


class Symmetry:
    """Renaming and reordering a peg game's codes: ``forward`` takes the first guess it was made for to
    the first code of its class, ``back`` undoes it (feedback is the same on both sides)."""

    def __init__(self, order: list[int], names: dict[int, int]):
        self.order, self.names = order, names
        self.unnames = {new: old for old, new in names.items()}

    def forward(self, code: Code) -> Code:
        return tuple(self.names[code[i]] for i in self.order)

    def back(self, code: Code) -> Code:
        result = [0] * len(code)
        for at, i in enumerate(self.order):
            result[i] = self.unnames[code[at]]
        return tuple(result)


def class_of(code: Code, symbols: int) -> tuple[Code, Symmetry]:
    """The first code of ``code``'s class (its symbols renamed and its positions reordered: the symbol
    held most often first, as 0 in the first places, then the next...) and the symmetry taking it there.
    Positions are grouped by symbol, the groups by count (most first) and then by where they first
    appear; symbols not in ``code`` keep their order after those that are."""
    counts: dict[int, int] = {}
    first: dict[int, int] = {}
    for at, symbol in enumerate(code):
        counts[symbol] = counts.get(symbol, 0) + 1
        first.setdefault(symbol, at)
    order = sorted(range(len(code)), key=lambda i: (-counts[code[i]], first[code[i]], i))
    names: dict[int, int] = {}
    for i in order:
        names.setdefault(code[i], len(names))
    for symbol in range(symbols):
        names.setdefault(symbol, len(names))
    symmetry = Symmetry(order, names)
    return symmetry.forward(code), symmetry


class Playable(Protocol):
    """What the book reads of a tree: ``player.tree.Tree`` is one (the tree imports the book, never the reverse)."""
    game: Game
    header: dict

    def guess_of(self, node: int) -> Code: ...


T = TypeVar("T", bound=Playable)
Opening = tuple[T, Callable[[Code], Code], Callable[[Code], Code]]  # a tree, the way to it, the way back


def openings(tree: T, first: Code, book: Book[T] | None) -> list[Opening[T]]:
    """The trees that ``suggest`` may follow after the first guess ``first``, best first: ``book``'s
    optimum for ``first`` (in a permutable game, for its class), if it has one for ``tree``'s game;
    then, in a permutable game, ``tree`` itself where ``first`` is in its first guess's class.
    Each with the maps that carry a code to that tree and back. ``book``: None for no book."""
    game = tree.game
    if not game.permutable:
        found = None if book is None else book.opening(tree, first)
        return [] if found is None else [(found, unchanged, unchanged)]
    canonical, mine = class_of(first, game.symbols)
    found = None if book is None else book.opening(tree, canonical)
    trees: list[Opening[T]] = [] if found is None else [(found, mine.forward, mine.back)]
    own, theirs = class_of(tree.guess_of(0), game.symbols)
    if own == canonical and tree.guess_of(0) != first:
        trees.append((tree, lambda code: theirs.back(mine.forward(code)), lambda code: mine.back(theirs.forward(code))))
    return trees


class Book(Generic[T]):
    """An opening book: the index ``BOOK.json`` in ``folder`` and the trees it lists, each read by
    ``load(data, name)`` the first time it is asked for. A folder without an index is an empty book;
    a damaged index or tree is refused as a damaged artifact is (``FormatError`` naming it)."""

    def __init__(self, folder: Path, load: Callable[[bytes, str], T]):
        self.folder, self._load_tree = Path(folder), load
        self._trees: dict[str, T] = {}  # file -> its tree, once read

    def __repr__(self) -> str:
        return f"Book({str(self.folder)!r})"

    def opening(self, tree: T, first: Code) -> T | None:
        """The book's tree for ``tree``'s game after the first guess ``first``, or None."""
        file = self.index.get((_key(tree), tree.game.format_code(first)))
        found = None if file is None else self._load(file)
        return found if found is not None and found.game == tree.game else None

    def openers(self, tree) -> list[str]:
        """The first guesses (as the game writes them) the book holds for ``tree``'s game, sorted."""
        key = _key(tree)
        return sorted(first for game, first in self.index if game == key)

    def trees_for(self, tree) -> list:
        """Every tree of the book for ``tree``'s game."""
        key = _key(tree)
        found = [self._load(file) for (game, _), file in self.index.items() if game == key]
        return [opening for opening in found if opening.game == tree.game]

    @cached_property
    def index(self) -> dict[tuple[str, str], str]:
        """BOOK.json's openings, (game, first guess) -> file; empty where there is no index."""
        entry = self.folder / INDEX
        if not entry.is_file():
            return {}
        data = entry.read_bytes()
        if len(data) > MAX_INDEX_BYTES:
            raise FormatError(f"{INDEX}: larger than a book's index may be ({MAX_INDEX_BYTES} bytes)")
        try:
            document = json.loads(data)
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise FormatError(f"{INDEX}: not JSON ({error})") from None
        if not isinstance(document, dict) or document.get("format") != FORMAT or not isinstance(document.get("openings"), list):
            raise FormatError(f"{INDEX}: not a {FORMAT} index")
        index = {}
        for number, opening in enumerate(document["openings"], 1):
            file = opening.get("file") if isinstance(opening, dict) else None
            if not (isinstance(file, str) and file.endswith(".msgpack.zst") and "/" not in file and "\\" not in file
                    and isinstance(opening.get("first"), str) and isinstance(opening.get("game"), dict)):
                raise FormatError(f"{INDEX}: opening {number} is not a file, a game and a first guess")
            index[(_canonical(opening["game"]), opening["first"])] = file
        return index

    def _load(self, file: str):
        if file not in self._trees:
            try:
                data = (self.folder / file).read_bytes()
            except OSError as error:
                raise FormatError(f"book/{file}: listed in {INDEX} but cannot be read ({error.strerror or error})") from None
            self._trees[file] = self._load_tree(data, f"book/{file}")
        return self._trees[file]


def _key(tree) -> str:
    """How the index names ``tree``'s game."""
    return _canonical(game_key(tree.header.get("game")))


def unchanged(code: Code) -> Code:
    """The map between a tree and one of the same game whose codes need no carrying."""
    return code

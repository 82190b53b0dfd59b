"""A loaded decision tree: answers ``next_guess(history)`` by walking parallel arrays."""
from __future__ import annotations

import os
from collections.abc import Iterable
from functools import cache

from .advice import best_guess, candidates
from .artifact import Chunked, decode, read
from .book import Book, openings
from .body import MAX_NODES, Chunks, read_body
from .data import trees_folder
from .games import Code, Feedback, Game
from .header import MAX_NOTICE_BYTES, PLUGINS_ENV, Header, notice_problem  # noqa: F401 (the old names, importable here)
from .sources import source_of
from .stats import Statistics

SHIPPED = "shipped:"  # the name of a tree loaded by player.load_shipped, before the shipped name

History = list[tuple[Code, Feedback]]  # (guess, feedback) pairs, oldest first


class InconsistentHistory(ValueError):
    """The history leaves the tree: a different guess, or feedback no remaining secret gives."""


class NotAllowedGuess(ValueError):
    """A guess of the history that is not one of the game's allowed guesses (a typo, a non-word):
    ``step`` and ``problem`` say which and why, for a caller that words its own way to play it."""

    def __init__(self, step: int, problem: str):
        super().__init__(f"step {step}: {problem} (any_guess=True plays it anyway)")
        self.step, self.problem = step, problem


class Tree:
    """A compiled strategy for one game. Node 0 is the first guess; see trees/FORMAT.md."""

    def __init__(self, header: dict, body: dict | Chunked, name: str = "<tree>", plugins: Iterable[str] | None = None,
                 book: Book | None = None):
        """``book``: the opening book ``suggest`` follows after a first guess of one's own
        (``player.book``); None, the rule alone."""
        self.name = name
        self.header = header
        self.book = book
        fields = Header.read(header, name, plugins)
        self.game: Game = fields.game
        self.strategy: dict = fields.strategy
        self.stats: Statistics = fields.stats
        self.producer: str = fields.producer
        self.notice: str | None = fields.notice
        self.allowed_guesses: int | None = fields.allowed_guesses
        table, self._store = read_body(body, self.game, name)
        self._nodes, self.feedbacks = table.nodes, table.feedbacks
        self._feedback_index = {f: i for i, f in enumerate(self.feedbacks)}

    def __repr__(self) -> str:
        if self.name.startswith(SHIPPED):
            return f"guesstree.player.load_shipped({self.name[len(SHIPPED):]!r})"
        return f"guesstree.player.load({self.name!r})"

    @property
    def use_book(self) -> bool:
        """Does ``suggest`` follow an opening book? Setting it gives the tree the shipped book, or
        none (``tree.book`` takes any ``Book``)."""
        return self.book is not None

    @use_book.setter
    def use_book(self, wanted: bool) -> None:
        self.book = shipped_book() if wanted else None

    # -- lookups -------------------------------------------------------------
    @property
    def nodes(self) -> int:
        return self._nodes

    @property
    def chunks(self) -> tuple[int, int] | None:
        """``(chunks, nodes per chunk)`` of a chunked tree (trees/FORMAT.md §10), read as lookups
        need them; ``None`` for a whole one."""
        store = self._store
        return (len(store.chunk_edges), store.size) if isinstance(store, Chunks) else None

    def guess_of(self, node: int) -> Code:
        return self._store.guess_of(node)

    def edges(self, node: int) -> list[tuple[Feedback, int]]:
        """``(feedback, child)`` for each answer other than the win, in feedback order."""
        feedbacks = self.feedbacks
        return [(feedbacks[index], child) for index, child in self._store.edges(node)]

    def child(self, node: int, feedback: Feedback) -> int | None:
        index = self._feedback_index.get(feedback)
        return None if index is None else self._store.child(node, index)

    def next_guess(self, history) -> Code | None:
        """The guess to play after ``history``; ``None`` once the winning feedback was given to a
        guess that can be the secret (one of the game's secrets, which gives every earlier answer).

        ``history`` is a list (or any iterable) of ``(guess, feedback)`` pairs, oldest first, each
        as the game's tuples (``((0, 1, 2, 3), (1, 1))``) or its text forms (``("ABCD", "1B1W")``).
        A history the tree does not follow raises ``InconsistentHistory`` naming the step; see
        ``suggest`` for a guess after any history.
        """
        node, left, won = self._follow(self._steps(history))
        if left is not None:
            raise InconsistentHistory(left)
        return None if won else self.guess_of(node)

    def candidates(self, history, any_guess: bool = False) -> list[Code]:
        """The secrets still possible after ``history`` (in canonical order), on the tree or off it.
        A guess the game does not allow is refused (``ValueError``) unless ``any_guess``."""
        return candidates(self.game, self._checked(history, any_guess))

    def suggest(self, history, any_guess: bool = False) -> Code | None:
        """The tree's guess while ``history`` follows the tree; after a guess of the person's own,
        the opening book's (``player.book``) while the history follows it, else a good guess
        (``player.advice`` states the rule); ``None`` once won.

        Raises ``InconsistentHistory`` if no secret gives every answer of the history, and
        ``ValueError`` for a guess that is not one of the game's allowed guesses (a typo, a
        non-word), unless ``any_guess``.
        """
        steps = self._checked(history, any_guess)
        node, left, won = self._follow(steps)
        if left is None:
            return None if won else self.guess_of(node)
        win = self.game.win
        won_at = next((step for step, (_, feedback) in enumerate(steps, 1) if feedback == win), None)
        if won_at is not None:
            if won_at != len(steps):
                raise InconsistentHistory(gone_on(won_at))
            if not self._wins(steps):
                raise InconsistentHistory(self._no_secret(steps))
            return None
        # a history that a tree of the same game follows is one some secret gives: no candidates needed
        for tree, to, back in openings(self, steps[0][0], self.book):
            node, left, _ = tree._follow([(to(guess), feedback) for guess, feedback in steps])
            if left is None:
                return back(tree.guess_of(node))
        remaining = candidates(self.game, steps)
        if not remaining:
            raise InconsistentHistory(self._no_secret(steps))
        return best_guess(self.game, self.stats.worst, steps, remaining)

    def _wins(self, steps) -> bool:
        """Can the last guess of ``steps``, answered with the win, be the secret: one of the game's
        secrets that gives every earlier answer? (The win answers the secret alone, so this is
        ``candidates(steps) != []`` for the cost of a score a step.)"""
        secret, score = steps[-1][0], self.game.score
        return self.game.is_secret(secret) and all(score(guess, secret) == feedback for guess, feedback in steps[:-1])

    def _no_secret(self, steps) -> str:
        return "no secret gives all these answers: " + ", ".join(f"{self._code(g)} {self._feedback(f)}" for g, f in steps)

    def _follow(self, steps) -> tuple[int, str | None, bool]:
        """Walk ``steps`` down the tree: ``(node reached, why the history leaves the tree or None,
        won)``; where it leaves, the node is the last one it followed."""
        node = 0
        win, guess_of, child_of, indices = self.game.win, self._store.guess_of, self._store.child, self._feedback_index
        for step, (guess, feedback) in enumerate(steps, 1):
            expected = guess_of(node)
            if guess != expected:
                return node, f"step {step}: the tree plays {self._code(expected)} here, not {self._code(guess)}", False
            if feedback == win:
                if step != len(steps):
                    return node, gone_on(step), False
                if not self._wins(steps):  # the tree's guess here is no secret, or not one the answers allow
                    return node, self._no_secret(steps), False
                return node, None, True
            index = indices.get(feedback)
            child = None if index is None else child_of(node, index)
            if child is None:
                self._check_step(step, guess, feedback)  # a tuple the game cannot give is refused as its text is
                return node, f"step {step}: no secret left gives {self._feedback(feedback)} to {self._code(guess)}", False
            node = child
        return node, None, False

    def _steps(self, history) -> list[tuple[Code, Feedback]]:
        """``history`` as (guess, feedback) tuples; text forms parsed; anything else named."""
        if type(history) not in (list, tuple) and (history is None or isinstance(history, (str, bytes))
                                                   or not isinstance(history, Iterable)):
            raise TypeError(f"history must be a list of (guess, feedback) pairs, not {type(history).__name__}")
        steps = []
        for step, pair in enumerate(history, 1):
            if type(pair) is tuple and len(pair) == 2 and type(pair[0]) is tuple and type(pair[1]) is tuple:
                steps.append(pair)  # the game's own tuples, as next_guess answers them: nothing to convert
                continue
            if isinstance(pair, (str, bytes)) or not isinstance(pair, Iterable) or len(pair := tuple(pair)) != 2:
                raise TypeError(f"step {step}: expected a (guess, feedback) pair, not {pair!r}")
            guess, feedback = pair
            try:
                guess = self.game.parse_code(guess) if isinstance(guess, str) else tuple(guess)
                feedback = self.game.parse_feedback(feedback) if isinstance(feedback, str) else tuple(feedback)
            except TypeError:
                raise TypeError(f"step {step}: a guess and a feedback are tuples of ints or the game's text "
                                f"(e.g. {self._code(self.guess_of(0))!r}), not {pair!r}") from None
            except ValueError as error:
                raise ValueError(f"step {step}: {error}") from None
            steps.append((guess, feedback))
        return steps

    def _checked(self, history, any_guess: bool = False) -> list[tuple[Code, Feedback]]:
        """``_steps``, each tuple also checked as the game's text is: what ``candidates`` and
        ``suggest`` score must be a code and a feedback of the game (``next_guess`` needs no such
        check on its hot path: a wrong tuple is simply not the tree's guess); and, unless
        ``any_guess``, each guess one the game allows."""
        steps = self._steps(history)
        for step, (guess, feedback) in enumerate(steps, 1):
            self._check_step(step, guess, feedback)
            problem = None if any_guess else self.unknown_guess(guess)
            if problem:
                raise NotAllowedGuess(step, problem)
        return steps

    def _check_step(self, step: int, guess, feedback) -> None:
        """A ValueError naming the step where ``guess`` is not a code of the game or ``feedback``
        not a feedback it can give (``(0, 5)`` in Mastermind 6x4: "step 1: (0, 5) is feedback that
        cannot occur ...")."""
        try:
            self.game.check_code(guess)
            self.game.check_feedback(feedback)
        except ValueError as error:
            raise ValueError(f"step {step}: {error}") from None

    def unknown_guess(self, guess: Code) -> str | None:
        """Why ``guess`` is not one of the game's allowed guesses, or None. (A tree that carries
        fewer guesses than it was compiled with cannot tell, and takes every code.)"""
        if self.allowed_guesses is not None or self.game.is_guess(guess):
            return None
        count = self.game.guess_count()
        return f"{self._code(guess)} is not one of the game's {count} allowed guesses"

    def path(self, secret: Code | str) -> History:
        """The guesses and feedback the tree plays against ``secret`` (a code or its text), up to the win."""
        secret = self.game.parse_code(secret) if isinstance(secret, str) else self.game.check_code(secret)
        node, played = 0, []
        while True:
            guess = self.guess_of(node)
            feedback = self.game.score(guess, secret)
            played.append((guess, feedback))
            if feedback == self.game.win:
                return played
            child = self.child(node, feedback)
            if child is None:
                raise InconsistentHistory(
                    f"the tree cannot play {self._code(secret)}: it has no answer after "
                    + ", ".join(f"{self._code(g)} {self._feedback(f)}" for g, f in played))
            node = child

    def _code(self, code) -> str:
        try:
            return self.game.format_code(code)
        except (ValueError, IndexError, TypeError):
            return repr(code)

    def _feedback(self, feedback) -> str:
        try:
            return self.game.format_feedback(feedback)
        except (ValueError, IndexError, KeyError, TypeError):
            return repr(feedback)


def gone_on(won: int) -> str:
    """The message for a history with entries after the win at step ``won``: it names the first extra one."""
    return f"step {won + 1}: the game was won at step {won}, yet the history goes on"


SHIPPED_BOOK = "shipped"  # load's and loads' default book: the one shipped with guesstree


@cache
def shipped_book() -> Book:
    """The opening book shipped with guesstree (``trees/book/``), read as it is asked for."""
    return Book(trees_folder() / "book", lambda data, name: loads(data, name, book=None))


def load(path: str | os.PathLike, plugins: Iterable[str] | None = None, book: Book | None | str = SHIPPED_BOOK) -> Tree:
    """Load an artifact; any file that is not a valid one raises ``FormatError`` (a missing one
    ``MissingFile``, which is also a ``FileNotFoundError``).

    ``plugins`` names the plugin modules the tree's game may come from (default: the
    comma-separated ``GUESSTREE_PLUGINS``); see ``player.header``. ``book``: the opening book
    ``suggest`` follows (default: the shipped one; None: the rule alone).
    """
    header, body = read(source_of(path), str(path))
    return Tree(header, body, str(path), plugins, _book(book))


def loads(data: bytes, name: str = "<bytes>", plugins: Iterable[str] | None = None,
          book: Book | None | str = SHIPPED_BOOK) -> Tree:
    header, body = decode(data, name)
    return Tree(header, body, name, plugins, _book(book))


def _book(book: Book | None | str) -> Book | None:
    if book == SHIPPED_BOOK:
        return shipped_book()
    if book is not None and not isinstance(book, Book):
        raise TypeError(f"book must be a player.book.Book, None or {SHIPPED_BOOK!r}, not {type(book).__name__}")
    return book


__all__ = ["Tree", "load", "loads", "shipped_book", "InconsistentHistory", "History", "MAX_NODES"]

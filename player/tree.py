"""A loaded decision tree: answers ``next_guess(history)`` by walking parallel arrays."""
from __future__ import annotations

import os
from array import array
from itertools import accumulate

from .artifact import FormatError, decode, read_file, unpack_uints
from .games import Code, Feedback, Game, game_from_spec

STAT_KEYS = ("secrets", "total", "average", "worst", "histogram",
             "determined_total", "determined_average", "determined_worst", "determined_histogram")

History = list[tuple[Code, Feedback]]  # (guess, feedback) pairs, oldest first


class InconsistentHistory(ValueError):
    """The history leaves the tree: a different guess, or feedback no remaining secret gives."""


class Tree:
    """A compiled strategy for one game. Node 0 is the first guess; see trees/FORMAT.md."""

    def __init__(self, header: dict, body: dict, name: str = "<tree>"):
        self.name = name
        self.header = header
        self.game: Game = _game(header, name)
        self.strategy: dict = header.get("strategy") if isinstance(header.get("strategy"), dict) else {}
        self.stats: dict = _stats(header, name)
        self._read_body(body)

    def __repr__(self) -> str:
        return f"player.load({self.name!r})"

    # -- lookups -------------------------------------------------------------
    @property
    def nodes(self) -> int:
        return self._nodes

    def guess_of(self, node: int) -> Code:
        h = self._length
        return tuple(self._guess[node * h:(node + 1) * h])

    def edges(self, node: int) -> list[tuple[Feedback, int]]:
        """``(feedback, child)`` for each answer other than the win, in feedback order."""
        return [(self.feedbacks[self._edge_feedback[e]], e + 1)
                for e in range(self._first_edge[node], self._first_edge[node + 1])]

    def child(self, node: int, feedback: Feedback) -> int | None:
        index = self._feedback_index.get(feedback)
        if index is not None:
            edge_feedback = self._edge_feedback
            for e in range(self._first_edge[node], self._first_edge[node + 1]):
                if edge_feedback[e] == index:
                    return e + 1
        return None

    def next_guess(self, history) -> Code | None:
        """The guess to play after ``history``; ``None`` once the winning feedback was given."""
        node = 0
        win = self.game.win
        last = len(history)
        for step, (guess, feedback) in enumerate(history, 1):
            guess, feedback = tuple(guess), tuple(feedback)
            expected = self.guess_of(node)
            if guess != expected:
                raise InconsistentHistory(
                    f"step {step}: the tree plays {self._code(expected)} here, not {self._code(guess)}")
            if feedback == win:
                if step != last:
                    raise InconsistentHistory(f"step {step}: the game was already won, yet the history goes on")
                return None
            child = self.child(node, feedback)
            if child is None:
                raise InconsistentHistory(
                    f"step {step}: no secret left gives {self._feedback(feedback)} to {self._code(guess)}")
            node = child
        return self.guess_of(node)

    def path(self, secret: Code) -> History:
        """The guesses and feedback the tree plays against ``secret``, up to the win."""
        secret = self.game.check_code(secret)
        node, played = 0, []
        while True:
            guess = self.guess_of(node)
            feedback = self.game.score(guess, secret)
            played.append((guess, feedback))
            if feedback == self.game.win:
                return played
            node = self.child(node, feedback)
            if node is None:
                raise InconsistentHistory(
                    f"the tree cannot play {self._code(secret)}: it has no answer after "
                    + ", ".join(f"{self._code(g)} {self._feedback(f)}" for g, f in played))

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

    # -- reading and checking the body ---------------------------------------
    def _read_body(self, body: dict) -> None:
        def fail(reason: str) -> FormatError:
            return FormatError(f"{self.name}: {reason}")

        nodes, length = body.get("nodes"), body.get("code_length")
        if type(nodes) is not int or nodes < 1:
            raise fail(f"bad node count {nodes!r}")
        if length != self.game.length:
            raise fail(f"code length {length!r} does not match the game's {self.game.length}")
        feedbacks = body.get("feedbacks")
        if not isinstance(feedbacks, list) or not feedbacks:
            raise fail("the feedback table is missing")
        known = self.game.feedback_set
        self.feedbacks: list[Feedback] = []
        for item in feedbacks:
            if not isinstance(item, list) or tuple(item) not in known:
                raise fail(f"the feedback table holds {item!r}, which this game never gives")
            self.feedbacks.append(tuple(item))
        if len(set(self.feedbacks)) != len(self.feedbacks):
            raise fail("the feedback table repeats a value")
        self._feedback_index = {f: i for i, f in enumerate(self.feedbacks)}
        win_index = self._feedback_index.get(self.game.win, -1)

        width = body.get("feedback_width")
        arrays = {}
        for key, item_width in (("guess", 1), ("edge_count", width), ("edge_feedback", width)):
            data = body.get(key)
            if not isinstance(data, bytes) or item_width not in (1, 2) or len(data) % item_width:
                raise fail(f"body array {key!r} is missing or malformed")
            arrays[key] = unpack_uints(data, item_width)
        guess, counts, edge_feedback = arrays["guess"], arrays["edge_count"], arrays["edge_feedback"]
        if len(guess) != nodes * length:
            raise fail(f"{len(guess)} guess symbols for {nodes} nodes of {length}")
        if len(counts) != nodes or len(edge_feedback) != nodes - 1:
            raise fail(f"{len(counts)} edge counts and {len(edge_feedback)} edges for {nodes} nodes")
        first = array("I", [0])
        first.extend(accumulate(counts))
        if first[-1] != nodes - 1:
            raise fail(f"the edge counts add up to {first[-1]}, but {nodes} nodes need {nodes - 1} edges")
        if guess and max(guess) >= self.game.symbols:
            raise fail(f"a guess uses symbol {max(guess)}, beyond the game's {self.game.symbols}")
        if edge_feedback and max(edge_feedback) >= len(self.feedbacks):
            raise fail("an edge names a feedback beyond the feedback table")
        for node in range(nodes):
            start, stop = first[node], first[node + 1]
            if stop > start and start < node:
                raise fail(f"node {node}: its children would come before it (a cycle)")
            answers = edge_feedback[start:stop]
            if win_index in answers or len(set(answers)) != len(answers):
                raise fail(f"node {node}: an edge repeats a feedback or follows the winning one")
        self._nodes, self._length = nodes, length
        self._guess, self._first_edge, self._edge_feedback = bytes(guess), first, edge_feedback


def _game(header: dict, name: str) -> Game:
    spec = header.get("game")
    if not (isinstance(spec, dict) and isinstance(spec.get("name"), str) and isinstance(spec.get("params", {}), dict)):
        raise FormatError(f"{name}: the header has no usable game spec")
    try:
        return game_from_spec(spec)
    except (ValueError, TypeError) as error:
        raise FormatError(f"{name}: cannot rebuild the game {spec.get('name')!r}: {error}") from None


def _stats(header: dict, name: str) -> dict:
    stats = header.get("stats")
    if not isinstance(stats, dict) or any(key not in stats for key in STAT_KEYS):
        raise FormatError(f"{name}: the header's statistics are missing or incomplete")
    for key in ("histogram", "determined_histogram"):
        histogram = stats[key]
        if not isinstance(histogram, dict) or not all(type(k) is int and type(v) is int for k, v in histogram.items()):
            raise FormatError(f"{name}: the statistic {key!r} is not a map of ints")
    return stats


def load(path: str | os.PathLike) -> Tree:
    """Load an artifact; any file that is not a valid one raises ``FormatError``."""
    header, body = decode(read_file(path), str(path))
    return Tree(header, body, str(path))


def loads(data: bytes, name: str = "<bytes>") -> Tree:
    header, body = decode(data, name)
    return Tree(header, body, name)


__all__ = ["Tree", "load", "loads", "InconsistentHistory", "History"]

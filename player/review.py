"""A game's review: what each move cost against the best one, and how lucky each answer was
(``docs/tutorials/review.md`` defines every figure and the rules below).

    from guesstree.player import load_shipped
    from guesstree.player.review import review
    report = review(load_shipped("wordle-salet-optimal-expected"), [("crane", "-Y---"), ("moist", "---YY")])
    report.moves[0].verdict, report.to_dict()

Every figure rests on totals: ``T(g)``, the guesses that playing ``g`` at a position and optimal
play after it take over the position's secrets, and ``T*``, the least ``T(g)`` over the guesses
allowed there. This module knows them from what the player carries (``TreeFacts``: the tree, the
opening book, counting), exactly where a tree built by the exact search reaches the position and
as bounds elsewhere; the compiler's review (``guesstree.compiler.review``) computes them by the
exhaustive search and falls back on these facts where its time runs out. Standard library only;
what a position and a guess are known to be worth is ``player.worth``.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from .games import Code, Game
from .tree import gone_on
from .worth import NEVER, Best, Span, Steps, TreeFacts, Worth

GOOD, INACCURACY = 0.05, 0.2  # the verdicts' bands of loss, in guesses on average (below: good, inaccuracy)
PLACES = 4  # the figures' decimals
SHOWN = 4  # best guesses the text names before counting the rest


class Facts(Protocol):
    """What a review asks of its source, at the position ``candidates`` that ``steps`` leave."""

    def best(self, steps: Steps, candidates: list[Code]) -> Best: ...

    def worth(self, steps: Steps, candidates: list[Code], guess: Code) -> Worth: ...


# -- the figures -------------------------------------------------------------------------------

Figure = tuple[float | None, float | None]


def _ratio(total: int | None, n: int) -> float | None:
    return None if total is None or total >= NEVER else round(total / n, PLACES)


def _difference(plus: int | None, minus: int | None, n: int, clip: bool = False) -> float | None:
    if plus is None or minus is None or plus >= NEVER or minus >= NEVER:
        return None
    value = (plus - minus) / n
    return round(max(value, 0.0) if clip else value, PLACES)


def _shown(figure: Figure, signed: bool = False) -> str:
    """A figure as text: one number where exact, ``≥ low`` with no upper end, else the range."""
    low, high = figure
    text = (lambda value: f"{value:+g}") if signed else (lambda value: f"{value:g}")
    if low is None and high is None:
        return "?"
    if high is None:
        return f"≥{text(low)}"
    if low is None:
        return f"≤{text(high)}"
    return text(low) if low == high else f"{text(low)}..{text(high)}"


def _count(value: int | None) -> str:
    return "?" if value is None else str(value)


def verdict_of(loss: float) -> str:
    """The verdict of a move that lost ``loss`` guesses on average (0: one of the best)."""
    if loss <= 0:
        return "best"
    return "good" if loss < GOOD else "inaccuracy" if loss < INACCURACY else "mistake"


def _verdict(total: Span, best: Span, n: int) -> str:
    """The verdict of a move over what its totals are known to be: one band, or the bands between."""
    if total.low >= NEVER:
        return "mistake"  # no strategy wins every secret within the limit after it
    low = verdict_of((total.low - best.high) / n) if best.high is not None else "best"
    if total.high is None:
        return low if low == "mistake" else f"{low} or worse"
    high = verdict_of((total.high - best.low) / n)
    return low if low == high else f"{low} to {high}"


@dataclass
class Move:
    """One move of a reviewed game and its figures (``docs/tutorials/review.md``)."""

    step: int
    guess: str
    feedback: str
    candidates: int  # secrets still possible before the guess
    left: int  # ... after its answer (0 once won)
    total: Span  # T(g)
    best_total: Span  # T*
    left_total: Span  # T* of what the answer left (0 once won)
    best: list[str]
    best_complete: bool
    worst: int | None
    best_worst: int | None

    @property
    def won(self) -> bool:
        return self.left == 0

    @property
    def expected(self) -> Figure:
        return _ratio(self.total.low, self.candidates), _ratio(self.total.high, self.candidates)

    @property
    def best_expected(self) -> Figure:
        return _ratio(self.best_total.low, self.candidates), _ratio(self.best_total.high, self.candidates)

    @property
    def loss(self) -> Figure:
        n, total, best = self.candidates, self.total, self.best_total
        low = _difference(total.low, best.high, n, clip=True) if best.high is not None else \
            (None if total.low >= NEVER else 0.0)  # a loss is never below 0
        return low, _difference(total.high, best.low, n, clip=True)

    @property
    def luck(self) -> Figure:
        """``(T(g) - n) / n - T*(left) / left``: above 0, the answer left fewer guesses than the average one."""
        n, m, total, left = self.candidates, max(self.left, 1), self.total, self.left_total
        if total.low >= NEVER:
            return None, None
        low = None if total.low is None or left.high is None else round((total.low - n) / n - left.high / m, PLACES)
        high = None if total.high is None else round((total.high - n) / n - left.low / m, PLACES)
        return low, high

    @property
    def verdict(self) -> str:
        return _verdict(self.total, self.best_total, self.candidates)

    @property
    def exact(self) -> bool:
        return self.total.exact and self.best_total.exact and self.left_total.exact

    def to_dict(self) -> dict:
        def span(value: Span) -> list:
            return [None if end is None or end >= NEVER else end for end in value]
        return {"step": self.step, "guess": self.guess, "feedback": self.feedback, "candidates": self.candidates,
                "left": self.left, "total": span(self.total), "best_total": span(self.best_total),
                "left_total": span(self.left_total), "expected": list(self.expected),
                "best_expected": list(self.best_expected), "loss": list(self.loss), "luck": list(self.luck),
                "best": self.best, "best_complete": self.best_complete, "worst": self.worst,
                "best_worst": self.best_worst, "verdict": self.verdict, "exact": self.exact}


@dataclass
class Review:
    """A reviewed game: its moves and their sum; ``source`` says where the figures come from and
    ``missing`` what a compiler's install would add (None: nothing)."""

    game: str
    tree: str | None
    max_depth: int | None
    source: str
    moves: list[Move]
    start: Span  # T* of the whole game, over every secret
    secrets: int
    missing: str | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def won(self) -> bool:
        return bool(self.moves) and self.moves[-1].won

    @property
    def exact(self) -> bool:
        return all(move.exact for move in self.moves)

    def summed(self, figure: str) -> Figure:
        """A figure summed over the moves (an end unknown in one move is unknown in the sum)."""
        ends = [getattr(move, figure) for move in self.moves]
        low = [end[0] for end in ends]
        high = [end[1] for end in ends]
        return (None if None in low else round(sum(low), PLACES)), (None if None in high else round(sum(high), PLACES))

    @property
    def expected_start(self) -> Figure:
        """The guesses the best play needs on average over every secret, before any move."""
        return _ratio(self.start.low, self.secrets), _ratio(self.start.high, self.secrets)

    def verdicts(self) -> dict[str, int]:
        counted: dict[str, int] = {}
        for move in self.moves:
            counted[move.verdict] = counted.get(move.verdict, 0) + 1
        return counted

    def text(self) -> str:
        """The review as ``guesstree review`` prints it: a line a move, the summary, what is approximate."""
        where = f", with {self.tree}" if self.tree else ""
        limit = "" if self.max_depth is None else f", within {self.max_depth} guesses"
        rows = [("step", "guess", "feedback", "secrets", "expected", "best", "loss", "worst", "luck", "verdict",
                 "best guesses")]
        for move in self.moves:
            best = " ".join(move.best[:SHOWN]) + (f" and {len(move.best) - SHOWN} more" if len(move.best) > SHOWN else "")
            if move.best and not move.best_complete:
                best += " (others may tie)"
            rows.append((str(move.step), move.guess, move.feedback,
                         f"{move.candidates}→{'won' if move.won else move.left}", _shown(move.expected),
                         _shown(move.best_expected), _shown(move.loss),
                         f"{_count(move.worst)}/{_count(move.best_worst)}", _shown(move.luck, signed=True),
                         move.verdict, best))
        widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
        lines = [f"{self.game}: reviewed by {self.source}{where}{limit}"]
        lines += ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows]
        if not self.moves:
            return "\n".join(lines[:1] + [f"no moves given: the best play needs {_shown(self.expected_start)} "
                                           "guesses on average"])
        verdicts = ", ".join(f"{count} {verdict}" for verdict, count in self.verdicts().items())
        ending = f"won in {len(self.moves)} guesses" if self.won else f"not won yet after {len(self.moves)} guesses"
        lines.append(f"{ending}; lost {_shown(self.summed('loss'))} guesses in all to the best play; "
                     f"luck {_shown(self.summed('luck'), signed=True)}; {verdicts}")
        lines.append("expected: guesses still needed on average, this one included, with optimal play after it; "
                     "best: the same after the best guess; worst: the most after the guess / after the best; "
                     "luck: guesses saved by the answer against the average answer")
        if not self.exact:
            lines.append("≥ and ranges are bounds: the exact figure lies within")
        lines += [f"note: {note}" for note in self.notes]
        if self.missing:
            lines.append(f"note: {self.missing}: pip install 'guesstree[compiler]'")
        return "\n".join(lines)

    def to_dict(self) -> dict:
        return {"game": self.game, "tree": self.tree, "max_depth": self.max_depth, "source": self.source,
                "exact": self.exact, "missing": self.missing,
                "moves": [move.to_dict() for move in self.moves],
                "summary": {"guesses": len(self.moves), "won": self.won, "loss": list(self.summed("loss")),
                            "luck": list(self.summed("luck")), "expected_start": list(self.expected_start),
                            "verdicts": self.verdicts()}}


def reviewed(game: Game, steps: Steps, facts: Facts, *, tree: str | None, max_depth: int | None, source: str,
             searched: bool = True) -> Review:
    """The review of ``steps`` (checked: see ``checked_steps``) with what ``facts`` knows;
    ``searched``: by the exhaustive search (else the review says what the search would add)."""
    remaining = list(game.secrets)
    best = facts.best([], remaining)
    start, moves = best.total, []
    for index, (guess, feedback) in enumerate(steps):
        worth = facts.worth(steps[:index], remaining, guess)
        total = worth.total.meet(Span(best.total.low, None))  # no guess beats the best ...
        best_total = best.total.at_most(total.high)  # ... and the best is at most any guess
        if index == 0:
            start = best_total
        after = [] if feedback == game.win else game.consistent(guess, feedback, remaining)
        following = facts.best(steps[:index + 1], after) if after else Best(Span(0, 0), (), True, 0)
        moves.append(Move(index + 1, game.format_code(guess), game.format_feedback(feedback), len(remaining),
                          len(after), total, best_total, following.total,
                          [game.format_code(code) for code in best.guesses], best.complete, worth.worst,
                          best.worst))
        if index:  # what the answer left is the next position: the same total, as narrowed there
            moves[index - 1].left_total = best_total
        best, remaining = following, after
    for move in moves:  # a move proven as good as the best is one of the best
        if move.exact and move.total.low == move.best_total.low < NEVER and move.guess not in move.best:
            move.best.append(move.guess)
    return Review(str(game.title()), tree, max_depth, source, moves, start, len(game.secrets),
                  None if searched else _missing(moves))


def _missing(moves: list[Move]) -> str | None:
    """What the exhaustive search would add to a review from the tree and the book (None: nothing)."""
    def named(steps: list[int]) -> str:
        return f"{'move' if len(steps) == 1 else 'moves'} {', '.join(map(str, steps))}"
    bounded = [move.step for move in moves if not move.exact]
    incomplete = [move.step for move in moves if not move.best_complete]
    parts = ([f"the exact figures of {named(bounded)} (bounds here)"] if bounded else []) + \
        ([f"every best guess tied at {named(incomplete)} (the tree's own here)"] if incomplete else [])
    return f"the exhaustive search (guesstree review with the compiler's install) would give {' and '.join(parts)}" \
        if parts else None


# -- checking a history --------------------------------------------------------------------------

def checked_steps(game: Game, history: Sequence[tuple[str, str]], any_guess: bool = False) -> Steps:
    """``history`` (text pairs) as the game's codes, each step checked as ``play`` checks it: a code
    and a feedback of the game, a guess it allows (unless ``any_guess``; hard mode's rule always),
    an answer some secret still gives, and a win only at the end, on a possible secret. A
    ``ValueError`` names the first step that fails."""
    steps: Steps = []
    remaining = list(game.secrets)
    for step, (guess_text, feedback_text) in enumerate(history, 1):
        try:
            guess, feedback = game.parse_code(guess_text), game.parse_feedback(feedback_text)
        except ValueError as error:
            raise ValueError(f"step {step}: {error}") from None
        if steps and steps[-1][1] == game.win:
            raise ValueError(gone_on(step - 1))
        if not any_guess and not game.is_guess(guess):
            raise ValueError(f"step {step}: {game.format_code(guess)} is not one of the game's "
                             f"{game.guess_count()} allowed guesses (--any-guess reviews it anyway)")
        refused = game.allows(guess, steps)
        if refused:
            raise ValueError(f"step {step}: {game.format_code(guess)} cannot be played here ({refused})")
        remaining = game.consistent(guess, feedback, remaining)
        if not remaining:
            played = ", ".join(f"{game.format_code(g)} {game.format_feedback(f)}" for g, f in [*steps, (guess, feedback)])
            raise ValueError(f"step {step}: no secret gives all these answers: {played}")
        steps.append((guess, feedback))
    return steps


def tree_name(tree) -> str:
    """How a review names ``tree``: its file's name without the folder and ``.msgpack.zst`` (a
    shipped tree's name)."""
    base = re.split(r"[\\/]", tree.name)[-1].removeprefix("shipped:")
    return base.removesuffix(".msgpack.zst")


def review(tree, history, max_depth: int | None = None, any_guess: bool = False) -> Review:
    """The review of ``history`` ((guess, feedback) text pairs, oldest first) in ``tree``'s game from
    what the player carries: ``tree``, its opening book and counting (``TreeFacts``). ``max_depth``:
    the depth limit the game is reviewed with (default: the tree's own). A history no secret fits,
    or with a guess the game does not allow (unless ``any_guess``), raises ``ValueError`` naming
    its first such step."""
    game = tree.game
    depth = tree.strategy.get("max_depth") if max_depth is None else max_depth
    steps = checked_steps(game, history, any_guess)
    return reviewed(game, steps, TreeFacts(game, tree, depth), tree=tree_name(tree),
                    max_depth=depth, source="tree and book", searched=False)


def shipped_tree(game: Game, max_depth: int | None = None):
    """The shipped tree that settles most of ``game``'s review within ``max_depth``: an optimum
    of the whole game (rule 1 at its root) if one is shipped, else any ``optimal-expected`` tree of
    the game (its bounds, its book); None if none is. The manifest says which trees to open."""
    from .data import trees_folder
    from .manifest import NAME, read_manifest
    from .shipped import SUFFIX, load_shipped

    found = []
    for file, entry in read_manifest(trees_folder() / NAME).items():
        if (entry.get("game") or {}).get("name") != game.name or (entry.get("strategy") or {}).get("name") != "optimal-expected":
            continue
        tree = load_shipped(file.removesuffix(SUFFIX))
        if tree.game == game:
            facts = TreeFacts(game, tree, max_depth)
            whole = tree.strategy.get("first") is None and facts.counts(tree, 0, int(tree.stats.worst))
            found.append((not whole, file, tree))
    return min(found, key=lambda item: item[:2])[2] if found else None

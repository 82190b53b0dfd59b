"""What a code-breaking game is: secrets, allowed guesses, ``score`` and the winning feedback,
with the text forms and everything the tools ask of a game.

Standard library only: the player and the verifier use the game's own pure-Python scorer,
independently of the compiler's vectorised one. Every method below has a default that works
for any game, so a plugin game is first-class; the built-in games override what they know better.
"""
from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from fractions import Fraction
from functools import cached_property
from typing import ClassVar

from .rules import Reduction, Rule

Code = tuple[int, ...]  # one symbol index per position (colour, digit, coordinate, letter)
Feedback = tuple[int, ...]  # the codemaker's answer, e.g. (black, white)
Parameter = tuple[type, str]  # a keyword that builds a game, given as a command-line option: its type and its help


class Game:
    """A code-breaking game: secrets, allowed guesses, ``score`` and the winning feedback.

    Subclasses (and plugins) provide ``name``, ``params()``, ``length``, ``symbols``,
    ``win``, ``_secrets()``, ``_guesses()``, ``feedbacks()`` and ``score()``; the text forms
    below work for any game whose symbols are small ints.
    """

    name: str = "game"
    length: int  # symbols per code
    symbols: int  # symbol values are 0 .. symbols-1
    win: Feedback  # the answer to a guess that is the secret, and to no other
    # score(a, b) == score(b, a) for all codes
    symmetric_score: ClassVar[bool] = False
    # Secrets and guesses are closed under renaming the symbols and reordering the positions, and
    # ``score`` is unchanged by doing both to guess and secret: the compiler then scores one guess
    # per class of the symmetries that fix what has been played.
    permutable: ClassVar[bool] = False
    # Which family of scores ``score`` is, for the compiler's compiled kernels (and what it may
    # assume of the family): "pegs" (symbols right in place, and the overlap of the two multisets
    # of symbols: Mastermind, digits, Bulls and Cows), "marks" (a mark per position: Wordle's
    # exact, present, absent), "pair" (twod's below, above, equal), or None: the compiler scores
    # through ``score`` itself (a plugin may register a kernel for its own kind).
    feedback_kind: ClassVar[str | None] = None
    # How the web page lets a person answer: "pegs", "digits", "pair", "letters" or "text".
    page_kind: ClassVar[str] = "text"
    # The keyword parameters that build the game, each a command-line option: keyword -> (type, help).
    parameters: ClassVar[dict[str, Parameter]] = {}
    # The heuristic strategy that ranks first guesses when an exact search tries only the best
    # few (``--openers K``).
    heuristic: ClassVar[str] = "entropy"
    # Each secret's weight, in the order of ``secrets`` (how likely it is, relatively): None where
    # every secret weighs 1, as in every game but a word list that carries weights. The objective is
    # then the weighted total, the weights times each secret's guesses; ``integer_weights`` gives
    # the compiler whole numbers in the same proportions.
    weights: tuple[Fraction, ...] | None = None
    # What the host tells of the full score (``player.rules``: black pegs only, counts-only word
    # feedback, letters in common), the game's ``feedback`` option; None: the full score.
    rule: Rule | None = None

    def told(self, full: Feedback) -> Feedback:
        """The feedback the host gives for the full score ``full``: ``full`` itself, or its reduction by the rule."""
        return full if self.rule is None else self.rule.reduce(full)

    @cached_property
    def reduction(self) -> Reduction | None:
        """The rule applied to this game (its feedbacks and their numbers): None without a rule."""
        if self.rule is None:
            return None
        return Reduction(self.rule, self.full_feedbacks(), self.full_number)

    def full_feedbacks(self) -> list[Feedback]:
        """Every full score that can occur (``feedbacks`` where the game has no rule)."""
        return self.feedbacks()

    def full_number(self, full: Feedback) -> int:
        """A full score as the number ``player.lanes`` gives it, below 256 (a game with lanes says how)."""
        raise NotImplementedError

    def lane_number(self, feedback: Feedback) -> int:
        """A feedback as this game's lanes hold it: the full score's number, or under a rule its index."""
        return self.full_number(feedback) if self.reduction is None else self.reduction.index[tuple(feedback)]

    @property
    def lane_table(self) -> bytes | None:
        """What the lanes translate their full numbers by (``LanePlan``'s ``told``): None without a rule."""
        return None if self.reduction is None else self.reduction.table

    def params(self) -> dict:
        return {}

    def spec(self) -> dict:
        """Enough to rebuild the game with ``player.games.game_from_spec``."""
        return {"name": self.name, "params": self.params()}

    def portable(self, played: set[Code] | None = None) -> Game:
        """The game as an artifact records it: one that needs nothing beside the artifact (a game
        read from files carries their contents), knowing that the tree plays only ``played``."""
        return self

    def identity(self) -> dict:
        """What makes two games the same game (equality, and the trees that match a game)."""
        return self.spec()

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params().items())
        return f"{type(self).__name__}({args})"

    def __str__(self) -> str:
        return self.label()

    def __eq__(self, other) -> bool:
        return isinstance(other, Game) and self.identity() == other.identity()

    def __hash__(self) -> int:
        return hash(repr(self.identity()))

    # -- for people: names, titles, the rules of answering -------------------------------
    def title(self) -> str:
        """A short name for people, e.g. ``Mastermind, 6 colours, 4 holes``; by default (a plugin's)
        its class's name and parameters, ``Parity`` or ``Tiny, symbols 3``: never the repr."""
        params = ", ".join(f"{key.replace('_', ' ')} {value}" for key, value in self.params().items())
        return type(self).__name__ + (f", {params}" if params else "")

    def label(self) -> str:
        """The game as people write it in a sentence, e.g. ``Mastermind 6x4`` (``str(game)``; the
        ``repr`` is the call that rebuilds it)."""
        return self.title()

    def slug(self) -> str:
        """The game's part of a default file name: short, flat, different for different games."""
        words = [self.name] + [f"{key}{value}" for key, value in self.params().items()]
        return re.sub(r"[^A-Za-z0-9]+", "-", "-".join(map(str, words))).strip("-").lower()[:80]

    def instructions(self) -> str:
        """How a person answers a guess, for ``play`` and the web page."""
        examples = ", ".join(self.format_feedback(f) for f in self.feedbacks()[:3])
        return f"Think of a secret. For each guess, give the feedback your secret gets (e.g. {examples})."

    def describe_feedback(self, feedback: Feedback) -> str:
        """Feedback in words, e.g. ``2 black, 1 white``."""
        return self.format_feedback(feedback)

    # -- the sets of codes ----------------------------------------------------------------
    @cached_property
    def secrets(self) -> list[Code]:
        """Every possible secret, in canonical (lexicographic) order."""
        return self._secrets()

    @cached_property
    def guesses(self) -> list[Code]:
        """Every allowed guess, in canonical (lexicographic) order."""
        return self._guesses()

    def _secrets(self) -> list[Code]:
        raise NotImplementedError

    def _guesses(self) -> list[Code]:
        raise NotImplementedError

    def secret_count(self) -> int:
        """How many secrets there are (a built-in game counts them without listing them)."""
        return len(self.secrets)

    def guess_count(self) -> int:
        """How many allowed guesses there are (a built-in game counts them without listing them)."""
        return len(self.guesses)

    def is_guess(self, code: Code) -> bool:
        """Is ``code`` an allowed guess (a built-in game checks without listing them)?"""
        return code in self._guess_set

    @cached_property
    def _guess_set(self) -> frozenset:
        return frozenset(self.guesses)

    def is_secret(self, code: Code) -> bool:
        """Is ``code`` one of the secrets (a built-in game checks without listing them)? A win is
        possible only on such a code."""
        return code in self._secret_set

    @cached_property
    def _secret_set(self) -> frozenset:
        return frozenset(self.secrets)

    def feedbacks(self) -> list[Feedback]:
        """Every feedback that can occur, in canonical order (the winning one included)."""
        raise NotImplementedError

    def score(self, guess: Code, secret: Code) -> Feedback:
        raise NotImplementedError

    def partition_count(self, guess: Code, secrets) -> int:
        """How many distinct feedbacks ``guess`` gives over ``secrets`` (the parts it splits them into)."""
        score = self.score
        return len({score(guess, secret) for secret in secrets})

    def splitter(self, secrets) -> Callable[[Code], Sequence]:
        """``split(guess)``: the feedback of ``guess`` on each of ``secrets``, as a sequence whose
        equal items are equal feedbacks (so ``len(set(split(guess)))`` counts the parts). The
        built-in games give bytes, scoring a guess on every secret at once (``player.lanes``)."""
        score = self.score
        return lambda guess: [score(guess, secret) for secret in secrets]

    def consistent(self, guess: Code, feedback: Feedback, secrets: Sequence[Code]) -> list[Code]:
        """The secrets of ``secrets`` to which ``guess`` gives ``feedback``, in their order."""
        score = self.score
        return [secret for secret in secrets if score(guess, secret) == feedback]

    def partition_counts(self, guesses: Iterable[Code], secrets) -> Iterator[int]:
        """``partition_count`` of each of ``guesses`` over ``secrets``, one by one."""
        return (self.partition_count(guess, secrets) for guess in guesses)

    def guesses_after(self, history) -> list[Code]:
        """The guesses ``allows`` after ``history``, in canonical order."""
        if not self.restricts_guesses:
            return self.guesses
        return [guess for guess in self.guesses if self.allows(guess, history) is None]

    @cached_property
    def feedback_set(self) -> frozenset:
        return frozenset(self.feedbacks())

    # -- rules on what may be guessed --------------------------------------------------------
    @property
    def restricts_guesses(self) -> bool:
        """Can ``allows`` ever refuse a guess? (so: does a game that overrides it have a rule now)"""
        return type(self).allows is not Game.allows

    @property
    def hint_rule(self) -> bool:
        """Does ``allows`` follow the hint rule of hard mode, which the compiler follows in compiled
        code: feedbacks are per-position marks (2 exact, 1 present, 0 absent), and a guess must keep
        every exact symbol in place and hold each revealed symbol as often as one guess revealed it."""
        return False

    def host_key(self, feedback: Feedback) -> tuple:
        """How much ``feedback`` tells, for an adversarial host (``player/host.py``) choosing between
        answers that keep as many secrets: the least first. By default the game's own order of
        feedbacks (for pegs: the fewest exact, then the fewest present), the winning one last."""
        return (feedback == self.win, *feedback)

    ultra_hard = False
    """With ``hint_rule``: does ``allows`` also keep every guess one that could be the answer (the
    hint rule of ultra-hard mode: a present symbol moves from where it was marked, an absent one
    stays out, no symbol is played more often than it was shown to occur)?"""

    def allows(self, guess: Code, history) -> str | None:
        """Why ``guess`` may not follow ``history`` (a list of (guess, feedback)), or None.

        Most games allow every guess at any time; a hard mode narrows them as hints come in."""
        return None

    # -- text forms -------------------------------------------------------------------------
    def format_code(self, code: Code) -> str:
        if self.symbols <= 10:
            return "".join(str(s) for s in code)
        return ",".join(str(s) for s in code)

    def parse_code(self, text: str) -> Code:
        cleaned = text.strip()
        tokens = re.split(r"[\s,]+", cleaned) if re.search(r"[\s,]", cleaned) else list(cleaned)
        try:
            code = tuple(int(t) for t in tokens if t != "")
        except ValueError:
            raise ValueError(f"{text!r} is not a code: expected {self.length} numbers") from None
        return self.check_code(code, text)

    def check_code(self, code: Code, text: object = None) -> Code:
        """Return ``code`` as a tuple if it has the right length and known symbols."""
        shown = text if text is not None else code
        code = tuple(code)
        if len(code) != self.length:
            raise ValueError(f"{shown!r} has {len(code)} symbols; this game's codes have {self.length}")
        bad = [s for s in code if not isinstance(s, int) or not 0 <= s < self.symbols]
        if bad:
            raise ValueError(f"{shown!r} has an unknown symbol {bad[0]!r}")
        return code

    def format_feedback(self, feedback: Feedback) -> str:
        return " ".join(str(x) for x in feedback)

    def parse_feedback(self, text: str) -> Feedback:
        tokens = re.split(r"[\s,]+", text.strip())
        try:
            feedback = tuple(int(t) for t in tokens if t != "")
        except ValueError:
            raise ValueError(f"{text!r} is not feedback for {self.name}") from None
        return self.check_feedback(feedback, text)

    def check_feedback(self, feedback: Feedback, text: object = None) -> Feedback:
        feedback = tuple(feedback)
        if feedback not in self.feedback_set:
            shown = text if text is not None else feedback
            raise ValueError(f"{shown!r} is feedback that cannot occur in {self.name}")
        return feedback


def require_int(name: str, value: object, low: int, high: int) -> None:
    """A whole-number parameter in range, or a ValueError naming its option."""
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError(f"--{name.replace('_', '-')} must be a whole number from {low} to {high}, not {value!r}")


def integer_weights(weights: Sequence[Fraction]) -> tuple[list[int], int]:
    """``weights`` as whole numbers in the same proportions, and the scale: each weight times the
    least common multiple of their denominators (a weighted total in those units, divided by the
    scale, is the real one)."""
    scale = math.lcm(*(Fraction(w).denominator for w in weights)) if weights else 1
    return [int(Fraction(w) * scale) for w in weights], scale

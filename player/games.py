"""The rules of the games: secrets, guesses, the pure-Python scorer, and text forms.

Everything here is standard library only: the player and the verifier use this
scorer, independently of the compiler's vectorised one.
"""
from __future__ import annotations

import importlib
import itertools
import re
from collections import Counter
from functools import cached_property

Code = tuple[int, ...]  # one symbol index per position (colour, digit, coordinate)
Feedback = tuple[int, ...]  # the codemaker's answer, e.g. (black, white)

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


class Game:
    """A code-breaking game: secrets, allowed guesses, ``score`` and the winning feedback.

    Subclasses (and plugins) provide ``name``, ``params()``, ``length``, ``symbols``,
    ``win``, ``_secrets()``, ``_guesses()``, ``feedbacks()`` and ``score()``; the text forms
    below work for any game whose symbols are small ints.
    """

    name: str = "game"
    symmetric_score: bool = False  # score(a, b) == score(b, a) for all codes
    # ``allows`` is the hint rule (hard mode): feedbacks are per-position marks (2 exact, 1 present,
    # 0 absent), and a guess must keep every exact symbol in place and hold each revealed symbol as
    # often as one guess revealed it. The compiler follows this rule in compiled code.
    keeps_hints: bool = False
    length: int  # symbols per code
    symbols: int  # symbol values are 0 .. symbols-1
    win: Feedback

    def params(self) -> dict:
        return {}

    def spec(self) -> dict:
        """Enough to rebuild the game with :func:`make_game`."""
        return {"name": self.name, "params": self.params()}

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params().items())
        return f"{type(self).__name__}({args})"

    def __eq__(self, other) -> bool:
        return isinstance(other, Game) and self.spec() == other.spec()

    def __hash__(self) -> int:
        return hash(repr(self.spec()))

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

    def feedbacks(self) -> list[Feedback]:
        """Every feedback that can occur, in canonical order (the winning one included)."""
        raise NotImplementedError

    def score(self, guess: Code, secret: Code) -> Feedback:
        raise NotImplementedError

    @property
    def restricts_guesses(self) -> bool:
        """Can ``allows`` ever refuse a guess? (so: does a game that overrides it have a rule now)"""
        return type(self).allows is not Game.allows

    def allows(self, guess: Code, history) -> str | None:
        """Why ``guess`` may not follow ``history`` (a list of (guess, feedback)), or None.

        Most games allow every guess at any time; a hard mode narrows them as hints come in."""
        return None

    @cached_property
    def feedback_set(self) -> frozenset:
        return frozenset(self.feedbacks())

    # -- text forms -------------------------------------------------------
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


def _peg_feedback(text: str, length: int, letters: tuple[str, str], game: str) -> Feedback:
    """Parse ``2B1W`` / ``2B`` / ``1W`` / ``BBW`` / ``2 1`` style (count, count) feedback."""
    first, second = letters
    cleaned = text.strip().upper()
    numbers = re.fullmatch(r"(\d+)\s*[\s,/-]\s*(\d+)", cleaned) or re.fullmatch(r"(\d)(\d)", cleaned)
    if numbers:
        return int(numbers[1]), int(numbers[2])
    counted = re.fullmatch(rf"(?:(\d+)\s*{first})?\s*(?:(\d+)\s*{second})?", cleaned)
    if counted and cleaned:
        return int(counted[1] or 0), int(counted[2] or 0)
    if cleaned and re.fullmatch(rf"[{first}{second}]+", cleaned):
        return cleaned.count(first), cleaned.count(second)
    if cleaned in ("-", "0", "NONE"):
        return 0, 0
    raise ValueError(
        f"{text!r} is not feedback for {game}: write e.g. '2{first}1{second}' or '2 1'"
    )


def _check_pegs(feedback: Feedback, length: int, text: str, names: tuple[str, str]) -> Feedback:
    right, moved = feedback
    if right + moved > length:
        raise ValueError(f"{text!r} is impossible: {right} {names[0]} + {moved} {names[1]} exceed {length} positions")
    if right == length - 1 and moved == 1:
        raise ValueError(f"{text!r} is impossible: with {length - 1} {names[0]} the last symbol cannot be misplaced")
    return feedback


class Mastermind(Game):
    """Codes of ``holes`` colours out of ``colours``; feedback ``(black, white)``."""

    name = "mastermind"
    symmetric_score = True
    peg_letters = ("B", "W")
    peg_names = ("black", "white")

    def __init__(self, colours: int = 6, holes: int = 4, secret_repeats: bool = True, guess_repeats: bool = True):
        _require_int("colours", colours, 1, 26)
        _require_int("holes", holes, 1, 12)
        if not secret_repeats and colours < holes:
            raise ValueError(f"--no-secret-repeats needs at least as many colours as holes ({colours} < {holes})")
        if secret_repeats and not guess_repeats:
            raise ValueError("--no-guess-repeats needs --no-secret-repeats: a secret with a repeated colour could never be guessed")
        self.colours, self.holes = colours, holes
        self.secret_repeats, self.guess_repeats = bool(secret_repeats), bool(guess_repeats)
        self.length, self.symbols = holes, colours
        self.win = (holes, 0)

    def params(self) -> dict:
        return {"colours": self.colours, "holes": self.holes,
                "secret_repeats": self.secret_repeats, "guess_repeats": self.guess_repeats}

    def _codes(self, repeats: bool) -> list[Code]:
        if repeats:
            return list(itertools.product(range(self.colours), repeat=self.holes))
        return list(itertools.permutations(range(self.colours), self.holes))

    def _secrets(self) -> list[Code]:
        return self._codes(self.secret_repeats)

    def _guesses(self) -> list[Code]:
        return self._codes(self.guess_repeats)

    def feedbacks(self) -> list[Feedback]:
        h = self.holes
        return [(b, w) for b in range(h + 1) for w in range(h + 1 - b) if not (b == h - 1 and w == 1)]

    def score(self, guess: Code, secret: Code) -> Feedback:
        black = sum(g == s for g, s in zip(guess, secret))
        common = Counter(guess) & Counter(secret)
        return black, sum(common.values()) - black

    def format_code(self, code: Code) -> str:
        return "".join(LETTERS[s] for s in code)

    def parse_code(self, text: str) -> Code:
        cleaned = re.sub(r"[\s,]+", "", text.strip()).upper()
        if cleaned.isascii() and cleaned.isdigit() and self.colours <= 9:
            code = tuple(int(c) - 1 for c in cleaned)  # digits are 1-based colours
        elif cleaned and all(c in LETTERS for c in cleaned):
            code = tuple(LETTERS.index(c) for c in cleaned)
        else:
            raise ValueError(f"{text!r} is not a code: write {self.holes} letters A-{LETTERS[self.colours - 1]}"
                             + (f" or digits 1-{self.colours}" if self.colours <= 9 else ""))
        if len(code) != self.holes:
            raise ValueError(f"{text!r} has {len(code)} colours; this game has {self.holes} holes")
        bad = [c for c in code if not 0 <= c < self.colours]
        if bad:
            raise ValueError(f"{text!r} uses a colour outside A-{LETTERS[self.colours - 1]}")
        return code

    def format_feedback(self, feedback: Feedback) -> str:
        return f"{feedback[0]}{self.peg_letters[0]}{feedback[1]}{self.peg_letters[1]}"

    def parse_feedback(self, text: str) -> Feedback:
        feedback = _peg_feedback(text, self.holes, self.peg_letters, self.name)
        return _check_pegs(feedback, self.holes, text, self.peg_names)


class Digits(Mastermind):
    """All digit strings of ``length`` (repeats allowed); feedback ``(strikes, balls)``."""

    name = "digits"
    peg_letters = ("S", "B")
    peg_names = ("strikes", "balls")

    def __init__(self, length: int = 4):
        _require_int("length", length, 1, 10)
        super().__init__(colours=10, holes=length)

    def params(self) -> dict:
        return {"length": self.holes}

    def format_code(self, code: Code) -> str:
        return "".join(str(s) for s in code)

    def parse_code(self, text: str) -> Code:
        return _parse_digits(text, self)


class BullsCows(Game):
    """Digit strings without repeats; feedback ``(bulls, cows)`` written ``1A2B``."""

    name = "bulls-cows"
    symmetric_score = True

    def __init__(self, digits: int = 10, length: int = 4):
        _require_int("digits", digits, 1, 10)
        _require_int("length", length, 1, digits)
        self.digits, self.length, self.symbols = digits, length, digits
        self.win = (length, 0)

    def params(self) -> dict:
        return {"digits": self.digits, "length": self.length}

    def _secrets(self) -> list[Code]:
        return list(itertools.permutations(range(self.digits), self.length))

    def _guesses(self) -> list[Code]:
        return self._secrets()

    def feedbacks(self) -> list[Feedback]:
        n = self.length
        return [(b, c) for b in range(n + 1) for c in range(n + 1 - b) if not (b == n - 1 and c == 1)]

    def score(self, guess: Code, secret: Code) -> Feedback:
        bulls = sum(g == s for g, s in zip(guess, secret))
        return bulls, len(set(guess) & set(secret)) - bulls

    def format_code(self, code: Code) -> str:
        return "".join(str(s) for s in code)

    def parse_code(self, text: str) -> Code:
        code = _parse_digits(text, self)
        if len(set(code)) != len(code):
            raise ValueError(f"{text!r} repeats a digit; bulls-and-cows codes have distinct digits")
        return code

    def format_feedback(self, feedback: Feedback) -> str:
        return f"{feedback[0]}A{feedback[1]}B"

    def parse_feedback(self, text: str) -> Feedback:
        feedback = _peg_feedback(text, self.length, ("A", "B"), self.name)
        return _check_pegs(feedback, self.length, text, ("bulls", "cows"))


class TwoD(Game):
    """Find a point ``(x, y)`` of a square grid; feedback says whether the secret lies
    below-left of the guess, above-right of it, and whether it is the guess."""

    name = "twod"
    _words = {(1, 0, 0): "<=", (0, 1, 0): ">=", (0, 0, 0): "none", (1, 1, 1): "=="}
    _aliases = {"le": (1, 0, 0), "ge": (0, 1, 0), "no": (0, 0, 0), "neither": (0, 0, 0),
                "eq": (1, 1, 1), "=": (1, 1, 1), "win": (1, 1, 1)}

    def __init__(self, size: int = 5):
        _require_int("size", size, 1, 256)
        self.size, self.length, self.symbols = size, 2, size
        self.win = (1, 1, 1)

    def params(self) -> dict:
        return {"size": self.size}

    def _secrets(self) -> list[Code]:
        return list(itertools.product(range(self.size), repeat=2))

    def _guesses(self) -> list[Code]:
        return self._secrets()

    def feedbacks(self) -> list[Feedback]:
        return [(0, 0, 0), (0, 1, 0), (1, 0, 0), (1, 1, 1)]

    def score(self, guess: Code, secret: Code) -> Feedback:
        below = secret[0] <= guess[0] and secret[1] <= guess[1]
        above = secret[0] >= guess[0] and secret[1] >= guess[1]
        return int(below), int(above), int(guess == secret)

    def format_code(self, code: Code) -> str:
        return f"{code[0]},{code[1]}"

    def format_feedback(self, feedback: Feedback) -> str:
        return self._words[tuple(feedback)]

    def parse_feedback(self, text: str) -> Feedback:
        cleaned = text.strip().lower()
        for feedback, word in self._words.items():
            if cleaned == word:
                return feedback
        if cleaned in self._aliases:
            return self._aliases[cleaned]
        digits = re.sub(r"[\s,]+", "", cleaned)
        if re.fullmatch(r"[01]{3}", digits):
            return self.check_feedback(tuple(int(c) for c in digits), text)
        raise ValueError(f"{text!r} is not twod feedback: write <=, >=, none or == (or 100, 010, 000, 111)")


def _parse_digits(text: str, game: Game) -> Code:
    cleaned = re.sub(r"[\s,]+", "", text.strip())
    if not cleaned.isdigit() or not cleaned.isascii():
        raise ValueError(f"{text!r} is not a code: write {game.length} digits")
    code = tuple(int(c) for c in cleaned)
    return game.check_code(code, text)


def _require_int(name: str, value: object, low: int, high: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError(f"--{name} must be a whole number from {low} to {high}, not {value!r}")


from .words import Words  # noqa: E402  (words builds on Game, defined above)

GAMES: dict[str, type[Game]] = {
    "mastermind": Mastermind,
    "bulls-cows": BullsCows,
    "digits": Digits,
    "twod": TwoD,
    "words": Words,
}


def make_game(name: str, **params) -> Game:
    """Build a game by CLI name (``mastermind``) or plugin path (``package.module:factory``)."""
    if name in GAMES:
        try:
            return GAMES[name](**params)
        except TypeError as error:
            raise ValueError(f"bad parameters for {name}: {error}") from None
    if ":" in name:
        return _plugin(name, params)
    raise ValueError(f"unknown game: {name!r}; choose from {', '.join(GAMES)}, or module:factory")


def game_from_spec(spec: dict) -> Game:
    return make_game(spec["name"], **spec.get("params", {}))


def _plugin(path: str, params: dict) -> Game:
    module_name, _, factory_name = path.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise ValueError(f"cannot import game plugin module {module_name!r}: {error}") from None
    factory = getattr(module, factory_name, None)
    if not callable(factory):
        raise ValueError(f"game plugin {path!r}: {module_name} has no callable {factory_name!r}")
    try:
        game = factory(**params)
    except TypeError as error:
        raise ValueError(f"bad parameters for game plugin {path!r}: {error}") from None
    if not isinstance(game, Game):
        raise ValueError(f"game plugin {path!r} returned {type(game).__name__}, not a player.games.Game")
    game.name = path  # the spec must rebuild it through the same factory
    return game

"""Word games (Wordle and its kin): secrets from an answer list, guesses from an allowed list.

Feedback per position is 2 (exact, green), 1 (present elsewhere, yellow) or 0 (absent), with
the official rule for repeated letters: a letter is marked present at most as many times as it
occurs unmatched in the secret. Words are of any Unicode letters (``player.letters``): a game's
letters are those its lists use, a-z where they use no other. A tree carries its words (the
answers, and the other guesses it plays), so it works away from the lists it was compiled from
(``player.wordlists``); a tree written before it did so names its files, which are read when
needed and refused unless they match the recorded sha256.
"""
from __future__ import annotations

import hashlib
import re
from collections import Counter
from fractions import Fraction
from functools import cached_property

from .game import Code, Feedback, Game
from .lanes import LanePlan
from .letters import Alphabet
from .rules import FEEDBACK_HELP, rule_for, rule_param
from .weights import weights_param
from .word_lanes import letter_groups, letter_row
from .wording import counted
from .wordlists import MAX_LENGTH, DuplicateWords, list_sha256, read_words, word_lists

__all__ = ["Words", "MAX_LENGTH", "DuplicateWords", "list_sha256", "read_words"]

EMOJI = {"🟩": "2", "🟨": "1", "⬛": "0", "⬜": "0"}
# The marks a person may type, and no other: exact G 2; present Y 1; absent - . B X 0 (B: Wordle's black
# square). Not W: in Mastermind W is a white peg, a colour present elsewhere (player/js reads the same marks).
LETTERS = {"g": "2", "y": "1", "b": "0", "-": "0", ".": "0", "x": "0"}
MARKS_SAID = "G (exact), Y (present) or - (absent; also B, X or .)"
SYMBOLS = "-YG"  # feedback text: absent, present, exact


class Words(Game):
    """Guess a word from a list (5 letters by default); hard mode makes every guess keep the hints so far.

    The words come from files (``answers``, ``guesses``: what ``guesstree compile words`` reads) or
    are carried in the spec itself (``answer_words``, ``guess_words``: what an artifact records, so
    that a tree works away from its lists): ``lists``, a ``WordFiles`` or a ``CarriedWords``, chosen
    when the game is made. ``guess_words`` holds the guesses that are not answers (an older
    artifact only those its tree plays); the lists' sha256 stay as provenance.
    """

    name = "words"
    feedback_kind = "marks"
    parameters = {
        "answers": (str, "words: file of the possible secrets, one word per line"),
        "guesses": (str, "words: file of the allowed guesses (default: the answers)"),
        "hard": (bool, "words: hard mode, every guess keeps the hints so far"),
        "ultra_hard": (bool, "words: ultra-hard mode, every guess could be the answer (a misplaced letter moves, "
                             "an absent letter stays out)"),
        "length": (int, "words: word length (default: the answer list's, 1 to 10)"),
        "others_weight": (float, "words: every other allowed guess is a secret too, of this weight (e.g. 0.001); "
                                 "an answer list's line may give its word a weight: crane 3"),
        "feedback": (str, FEEDBACK_HELP),
    }
    count_letters, count_names = ("G", "Y"), ("in place", "elsewhere")  # counts-only feedback's text

    # What an artifact records beside the options: the lists' sha256, the words carried and their
    # weights (``player.weights``), the letters beyond a-z (``Alphabet``); each None where not recorded.
    recorded = ("answers_sha256", "guesses_sha256", "answer_words", "guess_words", "answer_weights", "alphabet",
                "capitals")

    def __init__(self, answers: str | None = None, guesses: str | None = None, hard: bool = False,
                 length: int | None = None, others_weight=None, feedback: str | None = None, ultra_hard: bool = False,
                 **recorded: str | None):
        stray = sorted(set(recorded) - set(self.recorded))
        if stray:
            raise TypeError(f"Words() got an unexpected keyword argument {stray[0]!r}")
        self.lists = word_lists(answers, guesses, length, recorded, others_weight)
        # ultra-hard mode holds hard mode's rule and more: a guess that could be the answer keeps every hint
        self.ultra_hard = bool(ultra_hard)
        self.hard, self.length = bool(hard) or self.ultra_hard, self.lists.length
        self.rule = rule_for(self.feedback_kind, feedback)
        if self.rule is not None and self.hard:
            raise ValueError(f"--{'ultra-' if self.ultra_hard else ''}hard keeps the hints of each letter's marks, "
                             f"which --feedback {self.rule.name} does not give")
        self.win = self.told((2,) * self.length)

    def params(self) -> dict:
        return self.lists.spec({"hard": self.hard, "length": self.length, "answers_sha256": self.answers_sha256,
                                "guesses_sha256": self.guesses_sha256, **self.alphabet.params(),
                                **rule_param(self.rule), **self._ultra_param})

    def identity(self) -> dict:  # the same lists make the same game, from files or carried along
        return {"name": self.name, "hard": self.hard, "length": self.length, "answers_sha256": self.answers_sha256,
                "guesses_sha256": self.guesses_sha256, **weights_param(self.weights), **rule_param(self.rule),
                **self._ultra_param}

    @property
    def _ultra_param(self) -> dict:  # recorded only where it holds (so that every other tree keeps its bytes)
        return {"ultra_hard": True} if self.ultra_hard else {}

    @cached_property
    def weights(self) -> tuple[Fraction, ...] | None:  # type: ignore[override]  # (Game's: a class attribute)
        """Each secret's weight, in the order of ``secrets`` (None: every one weighs 1)."""
        return self.lists.weights(self._answer_words)

    @cached_property
    def alphabet(self) -> Alphabet:
        """The game's letters: those its lists use (a-z where they use no other), or those its spec carries."""
        return self.lists.alphabet(self._answer_words, self._guess_words)

    @property
    def symbols(self) -> int:  # type: ignore[override]
        return len(self.alphabet.letters)

    def portable(self, played: set[Code] | None = None) -> Words:
        """The same game carrying its words: the answers, and the other guesses (only ``played``
        ones, if given)."""
        answers = set(self._answer_words)
        extra = [w for w in self._guess_words if w not in answers
                 and (played is None or self._code(w) in played)]
        return Words(hard=self.hard, length=self.length, answers_sha256=self.answers_sha256,
                     guesses_sha256=self.guesses_sha256, answer_words=" ".join(self._answer_words),
                     guess_words=" ".join(extra), **weights_param(self.weights), **self.alphabet.params(),
                     **rule_param(self.rule), **self._ultra_param)

    def __repr__(self) -> str:
        return self.lists.describe(self)

    def title(self) -> str:
        mode = ", ultra-hard mode" if self.ultra_hard else ", hard mode" if self.hard else ""
        hard = (", weighted" if self.weights is not None else "") + mode
        hard += "" if self.rule is None else f", {self.rule.said}"
        return f"Words of {counted(self.length, 'letter')} ({counted(len(self.secrets), 'answer')}{hard})"

    def slug(self) -> str:
        weights = "".join(f" {text}" for text in weights_param(self.weights).values())  # (none: as before weights)
        digest = hashlib.sha256(f"{self.answers_sha256} {self.guesses_sha256}{weights}".encode()).hexdigest()[:8]
        stem = self.lists.stem()
        parts = ["words", stem[:24], "" if self.length == 5 else f"l{self.length}", digest,
                 "ultra" if self.ultra_hard else "hard" if self.hard else "",
                 "" if self.rule is None else self.rule.name]
        return "-".join(part for part in parts if part)

    def instructions(self) -> str:
        n = self.length
        if self.rule is not None:
            return self.rule.instructions(f"word of {n} letters", self.count_letters, n)
        return (f"Think of a word of {n} letters. For each guess, type one mark per letter: G if the letter is "
                f"right and in the right place, Y if it is in the word elsewhere, - if it is not "
                f"(e.g. GY{'-' * (n - 2)}; also B, X or . for absent, 210{'0' * (n - 3)} or the coloured squares); "
                f"{'G' * n} when the guess is your word.")

    def describe_feedback(self, feedback: Feedback) -> str:
        if self.rule is not None:
            return self.rule.describe(feedback, self.count_names)
        names = {2: "exact", 1: "present", 0: "absent"}
        return ", ".join(f"{names[m]}" for m in feedback)

    @property
    def answers_sha256(self) -> str:
        return self.lists.answers_sha256 or list_sha256(self._answer_words)

    @property
    def guesses_sha256(self) -> str:
        return self.lists.guesses_sha256 or list_sha256(self._guess_words)

    @cached_property
    def _answer_words(self) -> list[str]:
        return self.lists.answer_words()

    @cached_property
    def _guess_words(self) -> list[str]:
        return self.lists.guess_words(self._answer_words)

    def _secrets(self) -> list[Code]:
        return [self._code(w) for w in self._answer_words]

    def _guesses(self) -> list[Code]:
        return [self._code(w) for w in self._guess_words]

    def _code(self, word: str) -> Code:
        return self.alphabet.code(word)

    def feedbacks(self) -> list[Feedback]:
        return self.full_feedbacks() if self.reduction is None else self.reduction.feedbacks

    def full_number(self, full: Feedback) -> int:
        return sum(mark * 3 ** p for p, mark in enumerate(full))

    def full_feedbacks(self) -> list[Feedback]:
        n = self.length
        every = [tuple(int(d) for d in _base3(i, n)) for i in range(3 ** n)]
        # all exact but one present is impossible: the present letter would have to be elsewhere
        return [f for f in every if not (f.count(2) == n - 1 and f.count(1) == 1)]

    def score(self, guess: Code, secret: Code) -> Feedback:
        # The secret's letters where the guess misses: each marks one guess letter present, left
        # to right. (A list, not a Counter: a player's suggestion scores tens of thousands of pairs.)
        unmatched = [s for g, s in zip(guess, secret) if g != s]
        if not unmatched:
            return self.win
        result = []
        for g, s in zip(guess, secret):
            if g == s:
                result.append(2)
            elif g in unmatched:
                result.append(1)
                unmatched.remove(g)
            else:
                result.append(0)
        return self.told(tuple(result))

    def partition_count(self, guess: Code, secrets) -> int:
        """``Game.partition_count``, with a secret that shares no letter with the guess (all absent)
        counted without scoring it."""
        letters, absent = set(guess), self.told((0,) * len(guess))
        score = self.score
        return len({absent if letters.isdisjoint(secret) else score(guess, secret) for secret in secrets})

    def splitter(self, secrets):
        """``Game.splitter``, each guess scored on every secret at once (``player.lanes``) for words
        of up to 5 letters, whose feedback numbers (the marks in base 3) fit a byte."""
        plan = self._lane_plan
        return super().splitter(secrets) if plan is None else plan.splitter(secrets)

    def consistent(self, guess, feedback, secrets):
        plan = self._lane_plan
        if plan is None:
            return super().consistent(guess, feedback, secrets)
        return plan.consistent(guess, self.lane_number(feedback), secrets)

    def partition_counts(self, guesses, secrets):
        plan = self._lane_plan
        return super().partition_counts(guesses, secrets) if plan is None else plan.partition_counts(guesses, secrets)

    @cached_property
    def _lane_plan(self) -> LanePlan | None:
        """A guess's groups are its letters, each with the positions it holds."""
        if 3 ** self.length > 256:
            return None
        return LanePlan(self.guesses, self.length, letter_groups, letter_row, self.lane_table)

    def guesses_after(self, history) -> list[Code]:
        """``Game.guesses_after``: hard mode's rule as one regular expression over the word list;
        ultra-hard mode's, the guesses each step's feedback keeps (as if they were secrets)."""
        if not self.hard or not history:
            return self.guesses
        if self.ultra_hard:
            kept = self.guesses
            for played, feedback in history:
                kept = self.consistent(played, feedback, kept)
            return kept
        fixed, revealed, letters = ["."] * self.length, Counter[int](), self.alphabet.letters
        for played, feedback in history:
            for position, (letter, mark) in enumerate(zip(played, feedback)):
                if mark == 2:
                    fixed[position] = re.escape(letters[letter])
            revealed |= Counter(letter for letter, mark in zip(played, feedback) if mark)
        ahead = "".join(f"(?=(?:[^{re.escape(letters[letter])}\\n]*{re.escape(letters[letter])}){{{times}}})"
                        for letter, times in sorted(revealed.items()))
        codes = self._code_of_word
        return [codes[word] for word in re.findall(f"^{ahead}{''.join(fixed)}$", self._guess_text, re.M)]

    @cached_property
    def _guess_text(self) -> str:
        return "\n".join(self._guess_words)

    @cached_property
    def _code_of_word(self) -> dict[str, Code]:
        return dict(zip(self._guess_words, self.guesses))

    @property
    def page_kind(self) -> str:  # type: ignore[override]  # (Game's: a class attribute)
        """Letters whose tiles a person colours, or (under a feedback rule, which has no marks) text."""
        return "letters" if self.rule is None else "text"

    @property
    def restricts_guesses(self) -> bool:
        return self.hard

    @property
    def hint_rule(self) -> bool:  # hard mode's rule is the hint rule the compiler follows
        return self.hard

    def allows(self, guess: Code, history) -> str | None:
        """Hard mode: greens stay in place, revealed letters are reused as often as revealed.
        Ultra-hard mode: the guess could be the answer, each step's guess giving it that step's
        feedback (so a misplaced letter moves and an absent one stays out; hard mode's rule follows)."""
        if not self.hard:
            return None
        for step, (played, feedback) in enumerate(history, 1):
            if self.ultra_hard:
                if (got := self.score(played, guess)) != tuple(feedback):
                    return (f"ultra-hard mode: {self.format_code(guess)} could not be the answer after guess {step} "
                            f"({self.format_code(played)} {self.format_feedback(feedback)}): it would get "
                            f"{self.format_feedback(got)}")
                continue
            for position, (letter, mark) in enumerate(zip(played, feedback)):
                if mark == 2 and guess[position] != letter:
                    return (f"hard mode: guess {step} fixed {self.alphabet.capitals[letter]} at position "
                            f"{position + 1}")
            revealed = Counter(letter for letter, mark in zip(played, feedback) if mark)
            have = Counter(guess)
            for letter, times in sorted(revealed.items()):
                if have[letter] < times:
                    return (f"hard mode: guess {step} revealed {self.alphabet.capitals[letter]}"
                            f"{f' {times} times' if times > 1 else ''}, which this guess does not reuse")
        return None

    def host_key(self, feedback: Feedback) -> tuple:
        """``Game.host_key``: the fewest exact marks, then the fewest present ones, then the lower
        marks read left to right (under a feedback rule, the rule's own order)."""
        return super().host_key(feedback) if self.rule else (feedback.count(2), feedback.count(1), *feedback)

    def format_code(self, code: Code) -> str:
        return self.alphabet.shown(code)

    def parse_code(self, text: str) -> Code:
        return self.check_code(self.alphabet.read(text), text)

    def format_feedback(self, feedback: Feedback) -> str:
        if self.rule is not None:
            return self.rule.format(feedback, self.count_letters)
        return "".join(SYMBOLS[m] for m in feedback)

    def parse_feedback(self, text: str) -> Feedback:
        if self.rule is not None:
            return self.check_feedback(self.rule.parse(text, self.count_letters, self.length), text)
        cleaned = re.sub(r"\s+", "", text.strip())
        digits = "".join(EMOJI.get(c, LETTERS.get(c.casefold(), c)) for c in cleaned)
        if "w" in cleaned.casefold():
            raise ValueError(f"{text!r}: W is no mark of word games (in Mastermind it means present); "
                             f"write Y for present, - for absent")
        if len(digits) != self.length or not set(digits) <= set("012"):
            raise ValueError(f"{text!r} is not feedback for {self.length}-letter words: write "
                             f"{self.length} marks, {MARKS_SAID}, e.g. "
                             f"'GY-{'-' * (self.length - 3)}', or 2/1/0, or the coloured squares")
        return self.check_feedback(tuple(int(d) for d in digits), text)


def _base3(value: int, width: int) -> str:
    digits = []
    for _ in range(width):
        value, digit = divmod(value, 3)
        digits.append(str(digit))
    return "".join(reversed(digits))


"""An interactive game against a tree: the tree guesses, a person answers.

Kept apart from the CLI so that it can be driven (and tested) without a terminal.
"""
from __future__ import annotations

from collections import Counter

from .games import Code
from .tree import History, InconsistentHistory, Tree


class Session:
    def __init__(self, tree: Tree):
        self.tree, self.game = tree, tree.game
        self.history: History = []

    def guess(self) -> Code:
        return self.tree.next_guess(self.history)

    def consistent(self, history: History) -> list[Code]:
        """The secrets that give every answer in ``history``."""
        score = self.game.score
        return [s for s in self.game.secrets if all(score(g, s) == f for g, f in history)]

    def answer(self, text: str) -> tuple[str, bool]:
        """Take the feedback for the current guess; return (what to tell the person, game over).

        Malformed or impossible feedback raises ``ValueError`` naming what is wrong.
        """
        feedback = self.game.parse_feedback(text)
        guess = self.guess()
        attempt = self.history + [(guess, feedback)]
        remaining = self.consistent(attempt)
        if not remaining:  # also a "win" for a guess that cannot be the secret
            return self.diagnose(attempt), False
        if feedback == self.game.win:
            self.history = attempt
            return (f"solved: your secret is {self.game.format_code(guess)}, found in {len(attempt)} "
                    f"guess{'' if len(attempt) == 1 else 'es'}"), True
        try:
            self.tree.next_guess(attempt)
        except InconsistentHistory as error:
            return f"the tree cannot follow that answer ({error})", False
        self.history = attempt
        if len(remaining) == 1:
            return f"1 secret is still possible: {self.game.format_code(remaining[0])}", False
        return f"{len(remaining)} secrets are still possible", False

    def diagnose(self, attempt: History) -> str:
        """Say that no secret fits, and which answer was most likely mistyped."""
        fmt_code, fmt_feedback = self.game.format_code, self.game.format_feedback
        best = None
        for step, (guess, given) in enumerate(attempt):
            others = attempt[:step] + attempt[step + 1:]
            fits = self.consistent(others)
            if fits and (best is None or len(fits) > len(best[1])):
                best = (step, fits, guess, given)
        message = "no secret gives all these answers"
        if best is not None:
            step, fits, guess, given = best
            likely = Counter(self.game.score(guess, s) for s in fits).most_common(1)[0][0]
            message += (f"; most likely answer {step + 1} is wrong: you gave {fmt_feedback(given)} "
                        f"to {fmt_code(guess)}, perhaps it was {fmt_feedback(likely)}")
        where = "this answer was not taken" + ("; type 'undo' to take earlier answers back" if self.history else "")
        return f"{message} ({where})"

    def undo(self) -> str:
        if not self.history:
            return "nothing to undo"
        guess, feedback = self.history.pop()
        return f"took back {self.game.format_feedback(feedback)} for {self.game.format_code(guess)}"



"""An interactive game against a tree: the tree guesses, a person answers.

Kept apart from the CLI so that it can be driven (and tested) without a terminal.
"""
from __future__ import annotations

from collections import Counter

from .games import Code, Feedback
from .host import Absurdle
from .tree import History, Tree
from .wording import counted


class Session:
    """A game in progress: the tree suggests each guess, and the person answers either with the
    feedback to it (``2B1W``) or with the guess they played and its feedback (``CRANE GY---``)."""

    def __init__(self, tree: Tree, any_guess: bool = False):
        self.tree, self.game, self.any_guess = tree, tree.game, any_guess
        self.history: History = []

    def guess(self) -> Code:
        """The guess to play next: the tree's own while the game follows it (``Tree.suggest``)."""
        guess = self.tree.suggest(self.history, self.any_guess)
        assert guess is not None, "a won game is over: play asks no guess after it"
        return guess

    def consistent(self, history: History) -> list[Code]:
        """The secrets that give every answer in ``history``."""
        return self.tree.candidates(history, self.any_guess)

    def read(self, text: str) -> tuple[Code, Feedback]:
        """The guess and feedback a line gives: ``GUESS FEEDBACK``, or the feedback alone for the
        suggested guess. Malformed or impossible feedback raises ``ValueError`` naming what is wrong."""
        own, mistake = text.strip().split(None, 1), None
        if len(own) == 2:
            try:
                guess = self.game.parse_code(own[0])
            except ValueError:
                guess = None  # not a guess of the person's own: the line is feedback, as '2 1' is
            if guess is not None:
                try:
                    feedback = self.game.parse_feedback(own[1])
                except ValueError as error:
                    mistake = error
                else:
                    unknown = None if self.any_guess else self.tree.unknown_guess(guess)
                    if unknown:
                        raise ValueError(f"{unknown}: a typo? (play --any-guess takes it anyway)")
                    refused = self.game.allows(guess, self.history)
                    if refused:
                        raise ValueError(f"{self.game.format_code(guess)} cannot be played here ({refused})")
                    return guess, feedback
        try:
            return self.guess(), self.game.parse_feedback(text)
        except ValueError:
            if mistake is None:
                raise
            raise ValueError(f"the feedback to {own[0]}: {mistake}") from None

    def answer(self, text: str) -> tuple[str, bool]:
        """Take one line (see ``read``); return (what to tell the person, game over)."""
        guess, feedback = self.read(text)
        attempt = self.history + [(guess, feedback)]
        remaining = self.consistent(attempt)
        if not remaining:  # also a "win" for a guess that cannot be the secret
            return self.diagnose(attempt), False
        self.history = attempt
        if feedback == self.game.win:
            return (f"solved: your secret is {self.game.format_code(guess)}, found in {len(attempt)} "
                    f"guess{'' if len(attempt) == 1 else 'es'}"), True
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




class Hidden:
    """"You guess" (``play --you-guess``): the computer holds a secret of the tree's game, a person
    guesses, and each guess gets the game's own score; or (``host``: ``player.host.Absurdle``) it holds
    none and answers as an adversarial host. ``hint`` is the tree's suggestion for the guesses so far
    (``Tree.suggest``). The page's "you guess" says the same (player/web/player.js)."""

    def __init__(self, tree: Tree, secret: Code | None = None, host: Absurdle | None = None):
        assert (secret is None) != (host is None), "a secret or a host"
        self.tree, self.game, self.secret, self.host = tree, tree.game, secret, host
        self.history: History = []
        self.over = False

    def _left(self) -> str:
        left = len(self.tree.candidates(self.history, True))
        return f"{counted(left, 'secret')} still fit{'s' if left == 1 else ''}"

    def guess(self, text: str) -> str:
        """Score one typed guess; a guess that is no allowed one, or played before, is refused
        (``ValueError`` naming why) and not counted."""
        game = self.game
        played = game.parse_code(text)
        unknown = self.tree.unknown_guess(played)
        if unknown:
            raise ValueError(f"{unknown}: a typo?")
        shown = game.format_code(played)
        before = next((k for k, (g, _) in enumerate(self.history) if g == played), None)
        if before is not None:
            raise ValueError(f"you already guessed {shown} (guess {before + 1}, "
                             f"{game.format_feedback(self.history[before][1])}): not counted")
        refused = game.allows(played, self.history)
        if refused:
            raise ValueError(refused)
        feedback = self.host.answer(played) if self.host is not None else game.score(played, self._secret)
        self.history.append((played, feedback))
        if feedback == game.win:
            self.over = True
            return (f"You found {shown} in {counted(len(self.history), 'guess', 'guesses')} "
                    f"(the tree finds it in {len(self.tree.path(played))}).")
        return f"{shown} gets {game.format_feedback(feedback)}: {self._left()}."

    def hint(self) -> str:
        suggested = self.tree.suggest(self.history, True)
        assert suggested is not None, "a found secret ends the game: play asks no hint after it"
        return f"Hint: the tree would guess {self.game.format_code(suggested)} ({self._left()})."

    def reveal(self) -> str:
        self.over = True
        if self.host is not None:
            left = self.host.left
            return (f"Absurdle holds no secret: {counted(len(left), 'secret')} still fit its answers "
                    f"({', '.join(self.game.format_code(s) for s in left[:5])}{', ...' if len(left) > 5 else ''}).")
        return f"The secret is {self.game.format_code(self._secret)}."

    @property
    def _secret(self) -> Code:
        assert self.secret is not None, "a game against a host has no secret"
        return self.secret

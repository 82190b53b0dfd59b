"""An adversarial host (``--host absurdle``): it holds no secret, only the secrets that still fit
its answers, and answers each guess as qntm's Absurdle does: with the feedback shared by the most of
them, so that as many as it can are kept; between feedbacks shared by as many, the one that tells
least (``Game.host_key``: for words the fewest exact marks, then the fewest present ones, then the
lower marks read left to right, as the solvers that reproduce Absurdle read its rule). It answers
the winning feedback only when one secret is left and the guess is it.

Any game can be hosted so; ``compiler.host_search`` proves the fewest guesses that beat it.
"""
from __future__ import annotations

from collections.abc import Sequence

from .game import Code, Feedback, Game

HOSTS = ("absurdle",)


def check_host(name: str | None) -> str | None:
    """``name`` if it is a host this version plays (None: the host holds a secret), else ValueError."""
    if name is not None and name not in HOSTS:
        raise ValueError(f"--host must be {', '.join(HOSTS)}, not {name!r}")
    return name


def answer(game: Game, guess: Code, secrets: Sequence[Code]) -> tuple[Feedback, list[Code]]:
    """The host's answer to ``guess`` while ``secrets`` fit its answers, and the secrets it keeps."""
    feedback, parts = answer_and_parts(game, guess, secrets)
    return feedback, parts[feedback]


def answer_and_parts(game: Game, guess: Code, secrets: Sequence[Code]) -> tuple[Feedback, dict[Feedback, list[Code]]]:
    """``answer``'s feedback, and every part of ``secrets`` by its feedback to ``guess`` (whose sizes say
    whether the host had equal largest parts to choose from)."""
    parts: dict[Feedback, list[Code]] = {}
    for secret in secrets:
        parts.setdefault(game.score(guess, secret), []).append(secret)
    return min(parts, key=lambda f: (-len(parts[f]), game.host_key(f))), parts


class Absurdle:
    """The host of a game in progress: ``left``, the secrets that fit its answers so far."""

    def __init__(self, game: Game, secrets: Sequence[Code] | None = None):
        self.game = game
        self.left = list(game.secrets if secrets is None else secrets)

    def answer(self, guess: Code) -> Feedback:
        feedback, self.left = answer(self.game, guess, self.left)
        return feedback

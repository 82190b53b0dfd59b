"""Help off the tree: the secrets still possible after any history, and a good next guess once a
person has played a guess of their own.

The rule ``suggest`` follows (the JavaScript player, ``player/js``, follows the same one, so both
give the same answer for every history):

- While the history follows the tree, the tree's own guess (``None`` once won).
- Otherwise, with ``C`` the candidates (the secrets, in canonical order, that give every answer):
  one or two left, the first of them. Else a pool of at most ``2k`` guesses,
  ``k = max(4, 6000 // len(C))`` so that scoring it costs about 12 000 feedbacks whatever ``C``:
  ``C`` itself, or ``k`` of its members evenly spaced when it has more; then the distinct guesses
  the tree plays after its own guess at the node where the history left it (the children's
  guesses, in edge order), those the game allows after the history, at most ``k``. The pool's guess
  with the most distinct feedbacks over all of ``C`` wins (Kooi's most-parts); ties go to a guess
  that may be the secret, then to the lowest code.
"""
from __future__ import annotations

from collections.abc import Sequence

from .games import Code, Feedback

BUDGET = 6_000  # feedbacks scored per half of the pool: about 15 ms for a Wordle history in CPython
POOL_FLOOR = 4


def candidates(tree, steps: Sequence[tuple[Code, Feedback]]) -> list[Code]:
    """The secrets of ``tree.game``, in canonical order, that give every (guess, feedback) of ``steps``."""
    score = tree.game.score
    remaining = tree.game.secrets
    for guess, feedback in steps:
        remaining = [secret for secret in remaining if score(guess, secret) == feedback]
    return remaining


def pool(tree, node: int, steps, remaining: list[Code]) -> list[Code]:
    """The guesses ``suggest`` scores: members of ``remaining``, then the tree's guesses below ``node``."""
    k = max(POOL_FLOOR, BUDGET // len(remaining))
    n = len(remaining)
    sample = remaining if n <= k else [remaining[i * n // k] for i in range(k)]
    seen, extra = set(sample), []
    allows = tree.game.allows
    for _, child in tree.edges(node):
        if len(extra) == k:
            break
        guess = tree.guess_of(child)
        if guess not in seen and allows(guess, steps) is None:
            seen.add(guess)
            extra.append(guess)
    return sample + extra


def best_guess(tree, node: int, steps, remaining: list[Code]) -> Code:
    """The most-parts guess of the pool over ``remaining`` (see the module's rule)."""
    if len(remaining) <= 2:
        return remaining[0]
    possible = set(remaining)
    parts = tree.game.partition_count
    return min(pool(tree, node, steps, remaining),
               key=lambda guess: (-parts(guess, remaining), guess not in possible, guess))

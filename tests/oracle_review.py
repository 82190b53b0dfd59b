"""An exhaustive review of a game, by plain recursion, for tests/test_review.py to judge
``guesstree review`` by: every figure of docs/tutorials/review.md computed from the game's own
rules (``game.secrets``, ``game.guesses``, ``game.score``, ``game.allows``) and nothing of
compiler/. Small games only (a few dozen secrets and guesses).

    >>> from guesstree.player.games import make_game
    >>> oracle = Oracle(make_game("mastermind", colours=3, holes=3))
    >>> oracle.best_total(oracle.root())
    73

A position is ``(candidates, budget, allowed)``: the secrets still possible (indices into
``game.secrets``, in order), the guesses left within the depth limit (``None``: no limit), and
the guesses the game allows there (indices into ``game.guesses``; ``None`` where the game allows
every guess). Hard mode's rule is a test of each earlier step on its own (``Game.allows`` checks
them one by one), so the guesses allowed after one more step are those allowed before that also
pass the new step: the allowed set is all a position needs to remember of its history.

A total is the sum over the candidates of the guesses a strategy takes to win each, the next
guess counting 1; ``None`` where no strategy wins them all within the budget. The optimal
strategy's choice is canonical: the least total, then a guess that may be the secret, then the
lowest guess (the order of ``game.guesses``), as the compiler's ``optimal-expected`` builds it.
"""
from __future__ import annotations

from fractions import Fraction

VERDICT_BANDS = ((Fraction(1, 20), "good"), (Fraction(1, 5), "inaccuracy"))  # loss below each bound; "best" at 0


class Position:
    """Secrets still possible, guesses still to spend (None: any number) and guesses allowed."""

    __slots__ = ("candidates", "budget", "allowed")

    def __init__(self, candidates: tuple[int, ...], budget: int | None, allowed: frozenset[int] | None):
        self.candidates, self.budget, self.allowed = candidates, budget, allowed

    def key(self):
        # More guesses than candidates never help: each useful guess leaves every part smaller,
        # so an optimal tree of n secrets is at most n deep. A budget of n is no limit.
        n = len(self.candidates)
        budget = n if self.budget is None else min(self.budget, n)
        return self.candidates, budget, self.allowed


class Oracle:
    """The exact figures of positions of ``game``, memoised across calls."""

    def __init__(self, game):
        self.game = game
        self.secrets, self.guesses = game.secrets, game.guesses
        self.index = {guess: i for i, guess in enumerate(self.guesses)}
        self.secret_guess = [self.index[secret] for secret in self.secrets]  # every secret may be guessed
        self._answers: dict[int, list] = {}
        self._step_allowed: dict[tuple, frozenset[int]] = {}
        self._least: dict = {}  # Position.key() -> least total (None: infeasible)
        self._choice: dict = {}  # Position.key() -> the canonical optimal guess

    # -- the game's rules ---------------------------------------------------------------------
    def answers(self, guess: int) -> list:
        """The feedback of ``guess`` on every secret."""
        if guess not in self._answers:
            code = self.guesses[guess]
            self._answers[guess] = [self.game.score(code, secret) for secret in self.secrets]
        return self._answers[guess]

    def parts(self, guess: int, candidates: tuple[int, ...]) -> dict:
        """The candidates by the feedback ``guess`` gets from each, in order."""
        answers, parts = self.answers(guess), {}
        for s in candidates:
            parts.setdefault(answers[s], []).append(s)
        return {feedback: tuple(part) for feedback, part in parts.items()}

    def allowed_after(self, allowed: frozenset[int] | None, guess: int, feedback) -> frozenset[int] | None:
        """The guesses allowed once ``guess`` got ``feedback``, where ``allowed`` were before."""
        if not self.game.restricts_guesses:
            return None
        step = (guess, feedback)
        if step not in self._step_allowed:
            history = [(self.guesses[guess], feedback)]
            self._step_allowed[step] = frozenset(i for i, code in enumerate(self.guesses)
                                                 if self.game.allows(code, history) is None)
        return self._step_allowed[step] if allowed is None else allowed & self._step_allowed[step]

    def allowed_guesses(self, position: Position) -> list[int]:
        if position.allowed is None:
            return list(range(len(self.guesses)))
        return sorted(position.allowed)

    # -- positions ------------------------------------------------------------------------------
    def root(self, max_depth: int | None = None) -> Position:
        return Position(tuple(range(len(self.secrets))), max_depth, None if not self.game.restricts_guesses
                        else frozenset(range(len(self.guesses))))

    def after(self, position: Position, guess: int, feedback) -> Position:
        """The position once ``guess`` got ``feedback`` (no candidates once won)."""
        left = () if feedback == self.game.win else self.parts(guess, position.candidates).get(feedback, ())
        budget = None if position.budget is None else position.budget - 1
        return Position(left, budget, self.allowed_after(position.allowed, guess, feedback))

    def following(self, history, max_depth: int | None = None) -> Position:
        """The position after ``history``, a list of (guess code, feedback)."""
        position = self.root(max_depth)
        for code, feedback in history:
            position = self.after(position, self.index[code], feedback)
        return position

    # -- totals ----------------------------------------------------------------------------------
    def total(self, position: Position, guess: int) -> int | None:
        """T(g): the least total of the candidates when ``guess`` is played now, optimal after."""
        n = len(position.candidates)
        if n == 0 or (position.budget is not None and position.budget < 1):
            return None
        total = n
        for feedback in self.parts(guess, position.candidates):
            if feedback == self.game.win:
                continue
            least = self.best_total(self.after(position, guess, feedback))
            if least is None:
                return None
            total += least
        return total

    def useful(self, position: Position, guess: int) -> bool:
        """Does ``guess`` tell something: split the candidates, or win one? (one that does neither
        only spends a guess: never optimal, and the recursion must not try it)"""
        parts = self.parts(guess, position.candidates)
        return len(parts) > 1 or self.game.win in parts

    def best_total(self, position: Position) -> int | None:
        """T*: the least T(g) over every useful guess allowed here (0 with no candidates)."""
        if not position.candidates:
            return 0
        key = position.key()
        if key[1] < 1:
            return None  # no guess left
        if key not in self._least:
            best, choice = None, None
            possible = {self.secret_guess[s] for s in position.candidates}
            for guess in self.allowed_guesses(position):
                if not self.useful(position, guess):
                    continue
                total = self.total(position, guess)
                if total is None:
                    continue
                rank = (total, guess not in possible, guess)
                if best is None or rank < best:
                    best, choice = rank, guess
            self._least[key] = None if best is None else best[0]
            self._choice[key] = choice
        return self._least[key]

    def choice(self, position: Position) -> int | None:
        """The canonical optimal guess: least total, then a possible secret, then the lowest (None
        where no guess wins every candidate within the budget)."""
        self.best_total(position)
        return self._choice.get(position.key())

    def best_guesses(self, position: Position) -> list[int]:
        """Every guess allowed here whose total is T* (in the order of ``game.guesses``)."""
        least = self.best_total(position)
        if least is None:
            return []
        return [g for g in self.allowed_guesses(position) if self.total(position, g) == least]

    def depth(self, position: Position) -> int:
        """The most guesses the canonical optimal tree of the position takes (0 with no candidates)."""
        if not position.candidates:
            return 0
        return self.worst(position, self.choice(position))

    def worst(self, position: Position, guess: int) -> int | None:
        """The most guesses optimal play after ``guess`` takes, ``guess`` included (None if infeasible)."""
        if self.total(position, guess) is None:
            return None
        return 1 + max((self.depth(self.after(position, guess, feedback))
                        for feedback in self.parts(guess, position.candidates) if feedback != self.game.win),
                       default=0)


def verdict(loss: Fraction | None) -> str:
    """The contract's verdict of an exact loss (None: the game cannot be won within the depth limit)."""
    if loss is None:
        return "mistake"
    if loss == 0:
        return "best"
    for bound, name in VERDICT_BANDS:
        if loss < bound:
            return name
    return "mistake"


def ratio(total: int | None, n: int) -> Fraction | None:
    return None if total is None or n == 0 else Fraction(total, n)


class Move:
    """Every figure of one move, exact (Fractions where the contract rounds to 4 decimals)."""

    def __init__(self, oracle: Oracle, step: int, position: Position, guess: int, feedback):
        game = oracle.game
        after = oracle.after(position, guess, feedback)
        self.step, self.guess, self.feedback = step, game.format_code(oracle.guesses[guess]), feedback
        self.won = feedback == game.win
        self.candidates, self.left = len(position.candidates), len(after.candidates)
        n = self.candidates
        self.total = oracle.total(position, guess)
        self.best_total = oracle.best_total(position)
        self.left_total = oracle.best_total(after)
        self.expected, self.best_expected = ratio(self.total, n), ratio(self.best_total, n)
        self.loss = None if self.total is None or self.best_total is None else Fraction(self.total - self.best_total, n)
        if self.total is None or self.left_total is None:
            self.luck = None
        else:
            self.luck = Fraction(self.total - n, n) - (0 if self.won else Fraction(self.left_total, self.left))
        best = oracle.best_guesses(position)
        self.best = [game.format_code(oracle.guesses[g]) for g in best]
        self.worst = oracle.worst(position, guess)
        first = oracle.choice(position)
        self.best_choice = None if first is None else game.format_code(oracle.guesses[first])
        self.best_worst = None if first is None else oracle.worst(position, first)
        self.verdict = verdict(self.loss)


def start(oracle: Oracle, max_depth: int | None = None) -> Fraction | None:
    """T* / n of the whole game (the summary's ``expected_start``)."""
    return ratio(oracle.best_total(oracle.root(max_depth)), len(oracle.secrets))


def review(game, history, max_depth: int | None = None, oracle: Oracle | None = None) -> list[Move]:
    """Every move of ``history`` (a list of (guess code, feedback)), reviewed exactly."""
    oracle = oracle or Oracle(game)
    position, moves = oracle.root(max_depth), []
    for step, (code, feedback) in enumerate(history, 1):
        guess = oracle.index[code]
        if feedback not in oracle.parts(guess, position.candidates):
            raise ValueError(f"step {step}: no secret left gives {game.format_feedback(feedback)} to "
                             f"{game.format_code(code)}")
        moves.append(Move(oracle, step, position, guess, feedback))
        position = oracle.after(position, guess, feedback)
    return moves


def summary(moves: list[Move], start: Fraction | None) -> dict:
    """The summary's exact figures: losses and luck added up over the game, the verdicts counted;
    ``start``: T* / n of the whole game (``expected_start``), None where it cannot be won within the limit."""
    counts: dict[str, int] = {}
    for move in moves:
        counts[move.verdict] = counts.get(move.verdict, 0) + 1
    losses, lucks = [m.loss for m in moves], [m.luck for m in moves]
    return {"guesses": len(moves), "won": bool(moves) and moves[-1].won,
            "loss": None if None in losses else sum(losses, Fraction(0)),
            "luck": None if None in lucks else sum(lucks, Fraction(0)),
            "expected_start": start, "verdicts": counts}

"""The exact search on weighted secrets (issue 68): the least weighted total ``sum(weight(s) *
guesses(s))``, checked against a brute force of its own (plain recursion over ``game.score`` in
exact fractions, sharing nothing with compiler/), on several weightings, with and without a depth
bound that binds; unit weights give the unweighted answers; the tree the exact strategies build has
the optimal weighted total; what the weighted search does not do yet is refused by name."""
from __future__ import annotations

import copy
from fractions import Fraction
from functools import cache

import numpy as np
import pytest

from guesstree import compiler, player
from guesstree.compiler import Options
from guesstree.compiler.exact import rank_of, rank_openers, solver_of
from guesstree.compiler.search.solver import Interrupted
from guesstree.compiler.search.total import Infeasible
from guesstree.compiler.search.weighted import WINF, Weights, part_bound, wexact, wguess, wpack, wvalue
from guesstree.compiler.search.weighted_search import decimal_text
from guesstree.compiler.workers.settings import SearchSettings
from guesstree.player.games import make_game
from guesstree.player.pegs import BullsCows, Mastermind
from guesstree.player.twod import TwoD
from guesstree.player.verify import verify

ONE_THREAD = SearchSettings(workers=1)


def weighted(base, weigh):
    """A copy of the game ``base`` whose secret i (of ``base.secrets``) weighs ``weigh(i, secret)``."""
    game = copy.copy(base)
    game.weights = tuple(Fraction(weigh(i, secret)) for i, secret in enumerate(game.secrets))
    return game


class WeightedOracle:
    """The least weighted total of a game's positions by plain recursion over ``game.score``: a
    position is the candidates (indices into ``game.secrets``, in order) and the guesses left
    (``None``: any number); a guess costs each candidate it does not end 1 more, weighted. The
    canonical optimal guess: the least weighted total, then a guess that may be the secret, then
    the lowest guess (as in tests/oracle_review.py). ``None``: no tree fits the budget."""

    def __init__(self, game, consistent: bool = False):
        self.game, self.consistent = game, consistent
        self.secrets, self.guesses = game.secrets, game.guesses
        self.weights = game.weights or tuple(Fraction(1) for _ in self.secrets)
        index = {guess: i for i, guess in enumerate(self.guesses)}
        self.secret_guess = [index[secret] for secret in self.secrets]
        self.answers = [[game.score(guess, secret) for secret in self.secrets] for guess in self.guesses]
        self._memo: dict = {}  # (candidates, budget) -> (least, guess)

    def parts(self, guess: int, candidates: tuple) -> dict:
        parts: dict = {}
        for s in candidates:
            parts.setdefault(self.answers[guess][s], []).append(s)
        return {feedback: tuple(part) for feedback, part in parts.items()}

    def least(self, candidates: tuple, budget: int | None) -> Fraction | None:
        # more guesses than candidates never help (each useful guess leaves smaller parts)
        return self._solved(candidates, len(candidates) if budget is None else min(budget, len(candidates)))[0]

    def choose(self, candidates: tuple, budget: int | None) -> int:
        return self._solved(candidates, len(candidates) if budget is None else min(budget, len(candidates)))[1]

    def _solved(self, candidates: tuple, budget: int) -> tuple[Fraction | None, int]:
        key = (candidates, budget)
        if key not in self._memo:
            self._memo[key] = self._search(candidates, budget)
        return self._memo[key]

    def _search(self, candidates: tuple, budget: int) -> tuple[Fraction | None, int]:
        if budget < 1:
            return None, -1
        guesses = [self.secret_guess[s] for s in candidates] if self.consistent else range(len(self.guesses))
        weight = sum(self.weights[s] for s in candidates)
        best, best_key = None, None
        for guess in guesses:
            parts = self.parts(guess, candidates)
            won = self.game.win in parts
            if len(parts) < 2 and not won:
                continue  # learns nothing
            total = weight
            for feedback, part in parts.items():
                if feedback == self.game.win:
                    continue
                below = self._solved(part, min(budget - 1, len(part)))[0]
                if below is None:
                    total = None
                    break
                total += below
            key = (total, not won, guess)
            if total is not None and (best_key is None or key < best_key):
                best, best_key = total, key
        return best, (-1 if best_key is None else best_key[2])

    def root(self) -> tuple:
        return tuple(range(len(self.secrets)))

    def tree_paths(self, budget: int | None) -> dict:
        """Each secret's guesses through the canonical optimal tree."""
        paths = {}
        for secret in range(len(self.secrets)):
            candidates, left, path = self.root(), budget, []
            while True:
                guess = self.choose(candidates, left)
                path.append(self.guesses[guess])
                feedback = self.answers[guess][secret]
                if feedback == self.game.win:
                    break
                candidates = self.parts(guess, candidates)[feedback]
                left = None if left is None else left - 1
            paths[self.secrets[secret]] = path
        return paths

    def worst(self) -> int:
        """The fewest guesses that win every secret (the least budget some tree fits)."""
        depth = 1
        while self.least(self.root(), depth) is None:
            depth += 1
        return depth


def tree_weighted_total(game, built) -> Fraction:
    """The weighted total of a built tree, replayed by the Python player: each secret's guesses
    times its weight."""
    tree = player.loads(compiler.to_bytes(built))
    return sum(weight * len(tree.path(secret)) for secret, weight in zip(game.secrets, game.weights))


def small_mastermind():
    return Mastermind(colours=3, holes=3)


# the weightings of the tests: by position, skewed, one secret far heavier, fractions with a
# denominator that does not divide the others'
WEIGHTINGS = {
    "rising": lambda i, s: i + 1,
    "skewed": lambda i, s: 1 + (7 * i) % 5 * 3,
    "one-heavy": lambda i, s: 1000 if i == 5 else 1,
    "fractions": lambda i, s: Fraction(1 + i % 3, 3 + i % 4),
}

GAMES = {
    "mastermind-c3-h3": small_mastermind,
    "bulls-cows-d4-l3": lambda: BullsCows(digits=4, length=3),
    "twod-5": lambda: TwoD(size=5),
}


@pytest.mark.parametrize("weighting", WEIGHTINGS)
@pytest.mark.parametrize("name", GAMES)
def test_the_least_weighted_total_is_the_brute_force_one(name, weighting):
    game = weighted(GAMES[name](), WEIGHTINGS[weighting])
    oracle = WeightedOracle(game)
    solver = solver_of(game, search=ONE_THREAD)
    fewest = oracle.worst()
    assert solver.minimum_worst().worst == fewest
    report = solver.solve("optimal-expected")
    assert Fraction(report.proof["minimum_weighted_total"]) == oracle.least(oracle.root(), None)
    for budget in (fewest, fewest + 1):  # the fewest guesses: a depth bound that binds
        assert Fraction(solver.solve("optimal-expected", budget).proof["minimum_weighted_total"]) \
            == oracle.least(oracle.root(), budget)
    with pytest.raises(Infeasible, match=f"within {fewest - 1} guesses"):
        solver.solve("optimal-expected", fewest - 1)


@pytest.mark.parametrize("weighting", ["skewed", "one-heavy", "fractions"])
@pytest.mark.parametrize("strategy, max_depth", [("optimal-expected", None), ("optimal-expected", 4),
                                                 ("optimal-worst", None)])
def test_the_built_tree_is_the_canonical_optimal_weighted_tree(weighting, strategy, max_depth):
    game = weighted(small_mastermind(), WEIGHTINGS[weighting])
    oracle = WeightedOracle(game)
    budget = oracle.worst() if strategy == "optimal-worst" else max_depth
    built = compiler.build(game, Options(strategy=strategy, max_depth=max_depth))
    tree = player.loads(compiler.to_bytes(built))
    least = oracle.least(oracle.root(), budget)
    assert tree_weighted_total(game, built) == least
    assert {s: [g for g, _ in tree.path(s)] for s in game.secrets} == oracle.tree_paths(budget)
    assert Fraction(built.proof["minimum_weighted_total"]) == least
    assert "minimum_total" not in built.proof  # (the tree's plain total is no minimum)
    assert f"has a weighted total below {decimal_text(least)} over the 27 secrets" in built.proof["proven"]


def test_a_depth_bound_that_binds_changes_the_weighted_tree():
    """One secret far heavier on a 5x5 grid: with no bound the tree guesses it first and leaves
    others 5 deep; within the fewest guesses (4) it cannot, and the least weighted total is higher."""
    game = weighted(TwoD(size=5), WEIGHTINGS["one-heavy"])
    oracle = WeightedOracle(game)
    free, bound = oracle.least(oracle.root(), None), oracle.least(oracle.root(), 4)
    assert (free, bound) == (1091, 3080)
    loose = compiler.build(game, Options(strategy="optimal-expected"))
    assert loose.node_guess[0] == game.guesses.index(game.secrets[5])
    assert loose.stats["worst"] == 5 and tree_weighted_total(game, loose) == free
    for options in (Options(strategy="optimal-expected", max_depth=4), Options(strategy="optimal-worst")):
        tight = compiler.build(game, options)
        assert tight.stats["worst"] == 4 and tree_weighted_total(game, tight) == bound
        assert Fraction(tight.proof["minimum_weighted_total"]) == bound


def test_the_only_candidates_may_be_guessed_too():
    game = weighted(small_mastermind(), WEIGHTINGS["skewed"])
    oracle = WeightedOracle(game, consistent=True)
    built = compiler.build(game, Options(strategy="optimal-expected", candidates="consistent"))
    assert tree_weighted_total(game, built) == oracle.least(oracle.root(), None)
    assert Fraction(built.proof["minimum_weighted_total"]) == oracle.least(oracle.root(), None)


@pytest.mark.parametrize("name", GAMES)
def test_unit_weights_give_the_unweighted_tree(name):
    plain = GAMES[name]()
    units = weighted(plain, lambda i, s: 1)
    for options in (Options(strategy="optimal-expected"), Options(strategy="optimal-worst")):
        unweighted, weighted_build = compiler.build(plain, options), compiler.build(units, options)
        assert weighted_build.stats["total"] == unweighted.stats["total"]
        assert Fraction(weighted_build.proof["minimum_weighted_total"]) == unweighted.proof["minimum_total"]
        # the same canonical tree: every secret's path
        one, other = player.loads(compiler.to_bytes(unweighted)), player.loads(compiler.to_bytes(weighted_build))
        assert all(one.path(s) == other.path(s) for s in plain.secrets)


def test_a_fixed_first_guess_is_optimal_after_it():
    game = weighted(small_mastermind(), WEIGHTINGS["rising"])
    oracle = WeightedOracle(game)
    first = game.guesses.index((0, 1, 2))
    expected = sum(game.weights) + sum(oracle.least(part, None) for feedback, part in
                                       oracle.parts(first, oracle.root()).items() if feedback != game.win)
    built = compiler.build(game, Options(strategy="optimal-expected", first="ABC"))
    assert built.node_guess[0] == first
    assert tree_weighted_total(game, built) == expected > oracle.least(oracle.root(), None)
    assert "opening with ABC" in built.proof["proven"]


def test_hard_mode_weighted_equals_unweighted_under_unit_weights_and_a_brute_force_on_words(tmp_path):
    """A tiny word list in hard mode: the hint rule's states are followed by the weighted search as
    by the unweighted one (unit weights: the same tree), and its least weighted total is what a
    brute force over the hint rule finds."""
    words = ["abc", "abd", "acd", "bcd", "bad", "cab", "dab", "cad"]
    (tmp_path / "w.txt").write_text("\n".join(words) + "\n", encoding="utf-8")
    plain = make_game("words", answers=str(tmp_path / "w.txt"), hard=True)
    units = weighted(plain, lambda i, s: 1)
    options = Options(strategy="optimal-expected")
    one, other = compiler.build(plain, options), compiler.build(units, options)
    assert list(one.node_guess) == list(other.node_guess)
    assert Fraction(other.proof["minimum_weighted_total"]) == one.proof["minimum_total"]
    heavy = weighted(plain, lambda i, s: 1 + 4 * (i % 3))
    built = compiler.build(heavy, options)
    assert tree_weighted_total(heavy, built) == Fraction(built.proof["minimum_weighted_total"])
    assert tree_weighted_total(heavy, built) == hard_brute_force(heavy)


def hard_brute_force(game) -> Fraction:
    """The least weighted total under the game's own hint rule (``game.allows`` on the history)."""
    secrets, guesses = game.secrets, game.guesses

    @cache
    def least(candidates: tuple, history: tuple) -> Fraction | None:
        if not candidates:
            return Fraction(0)
        best = None
        weight = sum(game.weights[s] for s in candidates)
        for guess in guesses:
            if game.allows(guess, list(history)) is not None:
                continue
            parts: dict = {}
            for s in candidates:
                parts.setdefault(game.score(guess, secrets[s]), []).append(s)
            if len(parts) < 2 and game.win not in parts:
                continue
            total = weight
            for feedback, part in parts.items():
                if feedback != game.win:
                    below = least(tuple(part), history + ((guess, feedback),))
                    total = None if below is None or total is None else total + below
            if total is not None and (best is None or total < best):
                best = total
        return best

    return least(tuple(range(len(secrets))), ())


def test_the_weighted_counting_bound_pairs_the_least_depths_with_the_heaviest_weights():
    # the best conceivable tree of 5 secrets with 2 answers a guess besides the win: depths 1, 2, 2, 3, 3
    steps = np.array([1, 2, 2, 3, 3], dtype=np.int64)
    reach = np.array([0, 1, 3, 7, 15, 31], dtype=np.int64)
    wt = Weights(np.array([4, 9, 1, 7, 2], dtype=np.int64), steps, reach, steps + 1)
    members = np.arange(5, dtype=np.int64)
    assert part_bound(wt, members, np.int64(3)) == 9 * 1 + 7 * 2 + 4 * 2 + 2 * 3 + 1 * 3
    assert part_bound(wt, members, np.int64(2)) == WINF  # 5 secrets are more than 2 guesses win
    assert part_bound(wt, members[:2], np.int64(2)) == 9 * 1 + 4 * 2  # exact for two: the heavier first


def test_a_weighted_entry_holds_totals_past_the_unweighted_24_bits():
    big = 10 ** 9 + 7
    data = np.uint64(wpack(np.int64(big), True, np.int64((1 << 20) - 1), np.int64(5000)))  # (numba returns an int)
    assert wvalue(data) == big and wexact(data) and wguess(data) == (1 << 20) - 1
    data = np.uint64(wpack(np.int64(WINF), False, np.int64(-1), np.int64(3)))
    assert wvalue(data) == WINF and not wexact(data) and wguess(data) == -1


def test_heavy_weights_reach_totals_the_unweighted_table_cannot_hold():
    game = weighted(small_mastermind(), lambda i, s: 100000 * (i + 1))
    oracle = WeightedOracle(game)
    least = oracle.least(oracle.root(), None)
    assert least > (1 << 24)
    built = compiler.build(game, Options(strategy="optimal-expected"))
    assert Fraction(built.proof["minimum_weighted_total"]) == least == tree_weighted_total(game, built)


@pytest.mark.parametrize("value, text", [(Fraction(1234), "1234"), (Fraction(225, 4), "56.25"),
                                         (Fraction(1, 3), "1/3"), (Fraction(7, 1000), "0.007")])
def test_a_weighted_total_is_written_exactly(value, text):
    assert decimal_text(value) == text and Fraction(text) == value


def test_what_the_weighted_search_does_not_do_yet_is_refused_by_name():
    game = weighted(small_mastermind(), WEIGHTINGS["rising"])
    refused = "the exact search does not take weights for {} yet"
    with pytest.raises(ValueError, match=refused.format("fewest-at-worst")):
        compiler.build(game, Options(strategy="fewest-at-worst"))
    with pytest.raises(ValueError, match=refused.format("--openers")):
        compiler.build(game, Options(strategy="optimal-expected", openers=3))
    with pytest.raises(ValueError, match=refused.format(r"ranking first guesses \(openers\)")):
        rank_openers(game, top=2)
    with pytest.raises(ValueError, match=refused.format(r"ranking first guesses \(openers\)")):
        rank_of(game, "AAB")


def test_weights_too_fine_for_the_table_are_refused():
    game = weighted(small_mastermind(), lambda i, s: Fraction(1, 1 << 40) if i == 0 else 1)
    with pytest.raises(ValueError, match="weights are too fine for the exact search"):
        solver_of(game, search=ONE_THREAD)


def test_a_checkpoint_of_other_weights_is_refused(tmp_path):
    path = tmp_path / "search.ckpt"
    game = weighted(small_mastermind(), WEIGHTINGS["rising"])
    solver = solver_of(game, search=SearchSettings(workers=1, checkpoint=str(path)))
    first = solver.solve("optimal-expected").proof["minimum_weighted_total"]
    solver.close()
    again = solver_of(game, search=SearchSettings(workers=1, checkpoint=str(path), resume=True))
    assert again.solve("optimal-expected").proof["minimum_weighted_total"] == first
    again.close()
    other = weighted(small_mastermind(), WEIGHTINGS["skewed"])
    with pytest.raises(ValueError, match="this checkpoint is of another search"):
        solver_of(other, search=SearchSettings(workers=1, checkpoint=str(path), resume=True))


def test_the_weighted_tree_does_not_depend_on_the_threads_nor_on_an_interruption(tmp_path):
    """The root's guesses run as jobs on threads and finish in any order: the tree is the same
    on one thread or two; Ctrl-C (raised in the progress display) stops the threads, saves the
    table, and the resumed search builds the same tree."""
    game = weighted(Mastermind(colours=4, holes=4), WEIGHTINGS["skewed"])
    options = Options(strategy="optimal-expected")
    one = compiler.to_bytes(compiler.build(game, options, search=SearchSettings(workers=1)))
    assert compiler.to_bytes(compiler.build(game, options, search=SearchSettings(workers=2))) == one
    path, calls = tmp_path / "weighted.checkpoint", []

    def impatient(status):
        calls.append(status)
        if len(calls) == 5:
            raise KeyboardInterrupt

    with pytest.raises(Interrupted) as caught:
        compiler.build(game, options, search=SearchSettings(workers=2, checkpoint=path, progress=impatient))
    assert caught.value.checkpoint == path and path.exists()
    assert any("openers" in status for status in calls)  # (the root's guesses, counted as the progress shows them)
    resumed = compiler.build(game, options, search=SearchSettings(workers=2, checkpoint=path, resume=True))
    assert compiler.to_bytes(resumed) == one


def test_a_review_of_a_weighted_game_is_refused_not_answered_unweighted():
    from guesstree.compiler.review import review

    game = weighted(small_mastermind(), WEIGHTINGS["rising"])
    with pytest.raises(ValueError, match="the exact search does not take weights for guesstree review yet"):
        review(game, [("AAB", game.format_feedback((1, 0)))])


WORDS = ["abc", "abd", "acd", "bcd", "bad", "cab", "dab", "cad", "dba", "cba"]


@pytest.mark.parametrize("lines, guesses, others_weight", [
    (["abc 3", "abd", "acd 0.5", "bcd", "bad 2", "cab", "dab 0.25", "cad"], None, None),
    (["abc", "bad", "cab", "dab"], WORDS, "0.1"),  # every allowed word a secret, the others light
])
def test_a_weighted_word_list_compiles_to_the_optimal_weighted_tree_and_verifies(tmp_path, lines, guesses,
                                                                                  others_weight):
    (tmp_path / "answers.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    params = {"answers": str(tmp_path / "answers.txt")}
    if guesses:
        (tmp_path / "guesses.txt").write_text("\n".join(guesses) + "\n", encoding="utf-8")
        params.update(guesses=str(tmp_path / "guesses.txt"), others_weight=others_weight)
    game = make_game("words", **params)
    assert game.weights is not None
    oracle = WeightedOracle(game)
    built = compiler.build(game, Options(strategy="optimal-expected"))
    least = oracle.least(oracle.root(), None)
    assert Fraction(built.proof["minimum_weighted_total"]) == least == tree_weighted_total(game, built)
    tree = player.loads(compiler.to_bytes(built))
    assert verify(tree).ok
    assert tree.stats["weighted_total"] == pytest.approx(float(least))

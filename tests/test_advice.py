"""Help off the tree: ``Tree.candidates`` and ``Tree.suggest`` after any history (player/advice.py)."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from guesstree import player
from guesstree.player.advice import ranked

TREES = Path(__file__).parent.parent / "trees"


def rule_alone(path: Path) -> player.Tree:
    """A tree whose suggest follows player/advice.py's rule alone, without the opening book
    (tests/test_book.py tests the book)."""
    tree = player.load(path)
    tree.use_book = False
    return tree


@pytest.fixture(scope="module")
def wordle():
    return rule_alone(TREES / "wordle-salet-optimal-expected.msgpack.zst")


def test_on_the_tree_suggest_is_the_tree_and_candidates_are_the_node_secrets(mm32_tree):
    game = mm32_tree.game
    reaching = Counter()  # (history so far) -> secrets whose path passes there
    for secret in game.secrets:
        path = mm32_tree.path(secret)
        for step in range(len(path)):
            prefix = tuple(path[:step])
            reaching[prefix] += 1
            assert mm32_tree.suggest(list(prefix)) == mm32_tree.next_guess(list(prefix)) == path[step][0]
            assert secret in mm32_tree.candidates(list(prefix))
        assert mm32_tree.suggest(path) is None
    for prefix, count in reaching.items():
        assert len(mm32_tree.candidates(list(prefix))) == count


def test_candidates_take_text_and_tuples_alike(mm32_tree):
    assert mm32_tree.candidates([("AB", "1B")]) == mm32_tree.candidates([((0, 1), (1, 0))]) == [
        (0, 0), (0, 2), (1, 1), (2, 1)]
    assert mm32_tree.candidates([]) == mm32_tree.game.secrets
    assert mm32_tree.candidates([("CC", "0B0W"), ("AA", "1B")]) == [(0, 1), (1, 0)]


def test_off_the_tree_two_candidates_or_fewer_play_the_first(mm32_tree):
    assert mm32_tree.candidates([("CC", "0B0W"), ("AA", "1B")]) == [(0, 1), (1, 0)]
    assert mm32_tree.suggest([("CC", "0B0W"), ("AA", "1B")]) == (0, 1)
    assert mm32_tree.suggest([("CC", "0B0W"), ("AA", "0B0W")]) == (1, 1)  # only BB is left
    assert mm32_tree.suggest([("CC", "2B")]) is None  # the person won with their own guess


def test_off_the_tree_histories_that_no_secret_fits_are_refused(mm32_tree):
    with pytest.raises(player.InconsistentHistory, match="no secret gives all these answers: CC 0B0W, AC 2B0W"):
        mm32_tree.suggest([("CC", "0B0W"), ("AC", "2B")])
    with pytest.raises(player.InconsistentHistory, match="step 2: the game was won at step 1, yet the history goes on"):
        mm32_tree.suggest([("CC", "2B"), ("AA", "1B")])
    with pytest.raises(ValueError, match="step 2: "):
        mm32_tree.suggest([("CC", "0B0W"), ("AAA", "1B")])


def test_every_secret_is_won_after_a_poor_first_guess(build_cached):
    """Mastermind 4x3 from the entropy tree, but opening AAA: suggest wins every secret, each
    guess after the first splits the candidates (a candidate in the pool always splits off
    itself), and no game needs more than 5 guesses (measured: 1, 2, 18, 41, 2 games of 1-5, total
    235 against the tree's own 208 from ABC)."""
    from guesstree import compiler

    tree = player.loads(compiler.to_bytes(build_cached("mastermind", "entropy", colours=4, holes=3)))
    game = tree.game
    lengths = Counter()
    for secret in game.secrets:
        history, guess = [], (0, 0, 0)
        while True:
            before = len(tree.candidates(history))
            feedback = game.score(guess, secret)
            history.append((guess, feedback))
            if feedback == game.win:
                break
            assert len(tree.candidates(history)) < before
            guess = tree.suggest(history)
        lengths[len(history)] += 1
    assert sum(lengths.values()) == 64 and max(lengths) <= 5
    assert dict(sorted(lengths.items())) == {1: 1, 2: 2, 3: 18, 4: 41, 5: 2}


def test_a_wordle_history_after_a_word_of_ones_own(wordle):
    game = wordle.game
    crane, cigar = game.parse_code("crane"), game.parse_code("cigar")
    history = [("crane", game.format_feedback(game.score(crane, cigar)))]
    assert history == [("crane", "GYY--")]
    left = wordle.candidates(history)
    assert cigar in left and len(left) == 8
    assert left == [s for s in game.secrets if game.score(crane, s) == (2, 1, 1, 0, 0)]
    best = wordle.suggest(history)
    # every allowed guess is weighed (the tree carries all 12 972), not only the candidates: BARRO,
    # no answer, tells all eight apart; the best candidate, CARGO, leaves two together
    assert len(game.guesses) == 12972 and best not in left
    assert game.format_code(best) == "BARRO" and game.partition_count(best, left) == 8
    assert game.format_code(ranked(game, game.guesses, left)[0]) == "BARRO"
    assert max(game.partition_count(c, left) for c in left) == game.partition_count(game.parse_code("cargo"), left) == 7


def test_hard_mode_suggestions_keep_the_hints():
    tree = rule_alone(TREES / "wordle-hard-salet-optimal-expected-depth6.msgpack.zst")
    game = tree.game
    history = [("crane", "GYY--")]
    best = tree.suggest(history)
    assert game.allows(best, tree._steps(history)) is None


def test_path_takes_the_secret_as_text(mm32_tree):
    assert mm32_tree.path("CB") == mm32_tree.path((2, 1))
    with pytest.raises(ValueError, match="CD. uses a colour outside A-C"):
        mm32_tree.path("CD")


def test_play_carries_on_after_a_word_of_ones_own(cli):
    """`guesstree play` on the Wordle tree: the person played CRANE (not the tree's SALET), typed
    it with its feedback, then follows the suggestions (CRANE's optimum, from the opening book) to CIGAR."""
    tree = player.load(TREES / "wordle-salet-optimal-expected.msgpack.zst")
    game, cigar = tree.game, tree.game.parse_code("cigar")
    lines, history = ["crane GYY--"], [("crane", "GYY--")]
    while (guess := tree.suggest(history)) is not None:
        feedback = game.format_feedback(game.score(guess, cigar))
        lines.append(feedback)
        history.append((guess, feedback))
    result = cli("play", TREES / "wordle-salet-optimal-expected.msgpack.zst", input="".join(f"{x}\n" for x in lines))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "guess 1: SALET  feedback? " in out and "8 secrets are still possible" in out
    crane = player.load(TREES / "book" / "wordle-crane-optimal-expected-depth6.msgpack.zst")  # the opening book's
    assert f"guess 2: {game.format_code(crane.next_guess(history[:1]))}  feedback? " in out
    assert out.rstrip().endswith(f"solved: your secret is CIGAR, found in {len(history)} guesses")


def test_the_words_partition_count_is_the_games_own(wordle):
    """Words.partition_count (base-3 numbers, disjoint letters at once) counts as the game's score does."""
    from guesstree.player.game import Game

    game = wordle.game
    secrets = game.secrets
    for guess in game.guesses[::97]:
        for start in range(0, len(secrets), 331):
            part = secrets[start:start + 160]
            assert game.partition_count(guess, part) == Game.partition_count(game, guess, part)


def follow(tree, opener) -> tuple[int, int, list]:
    """Every secret played from ``opener`` then by ``suggest``: (total, worst, each history's
    suggestions checked against the game's rule on guesses)."""
    game = tree.game
    opener = game.parse_code(opener)
    total = worst = 0
    refused = []

    def walk(history, secrets):
        nonlocal total, worst
        guess = tree.suggest(history) if history else opener
        if history and game.allows(guess, history) is not None:
            refused.append((history, guess))
        parts = {}
        for secret in secrets:
            parts.setdefault(game.score(guess, secret), []).append(secret)
        for feedback, part in parts.items():
            if feedback == game.win:
                total += len(history) + 1
                worst = max(worst, len(history) + 1)
            else:
                walk(history + [(guess, feedback)], part)

    walk([], game.secrets)
    return total, worst, refused


# The optimum for each first guess: `guesstree compile ... --first X --strategy optimal-expected`.
MASTERMIND_OPTIMA = {"AAAA": (6318, 6), "AAAB": (5791, 6), "AABB": (5702, 6), "AABC": (5625, 6), "ABCD": (5673, 6)}


@pytest.mark.parametrize("opener", [opener if opener == "AABC" else pytest.param(opener, marks=pytest.mark.slow)
                                    for opener in sorted(MASTERMIND_OPTIMA)])  # off the tree: seconds each
def test_mastermind_after_each_first_guess_class_suggest_is_near_the_optimum(opener):
    """Each class of first guess of Mastermind 6x4, then suggest (measured: 6362, 5823, 5729, 5625,
    5759): within 2% of that opener's optimal total, and no worse in the worst case."""
    tree = rule_alone(TREES / "mastermind-c6-h4-optimal-expected.msgpack.zst")
    total, worst, _ = follow(tree, opener)
    optimum, optimum_worst = MASTERMIND_OPTIMA[opener]
    assert total <= 1.02 * optimum and worst <= optimum_worst


@pytest.mark.slow
def test_bulls_and_cows_after_1234_suggest_is_near_the_optimum():
    """The optimum (any first guess: they are all alike) is 26 274 with worst 7; suggest after
    1234 gives 26 750 (1.8% more) with worst 7, where most-parts alone needs 8."""
    tree = rule_alone(TREES / "bulls-cows-d10-l4-optimal-expected.msgpack.zst")
    assert tree.stats.total == 26274 and tree.stats.worst == 7
    total, worst, _ = follow(tree, "1234")
    assert total <= 1.02 * 26274 and worst <= 7


@pytest.mark.slow
def test_wordle_after_crane_suggest_is_within_one_percent_of_the_optimum(wordle):
    """CRANE's optimal tree totals 7930 (worst 6); following suggest gives 7957, worst 6."""
    total, worst, _ = follow(wordle, "crane")
    assert total <= 1.01 * 7930 and worst <= 6


@pytest.mark.slow
@pytest.mark.parametrize("opener", ["crane", "adieu"])
def test_wordle_hard_mode_after_an_opener_wins_within_six_and_keeps_the_rule(opener):
    """Most-parts alone loses answers past 6 in hard mode (the _OUND, _AUNT and _ER traps; after
    CRANE worst 8); the look-ahead keeps every answer within 6 (measured: CRANE 8239, ADIEU 8655,
    whose optima within 6 are 8155 and 8592)."""
    tree = rule_alone(TREES / "wordle-hard-salet-optimal-expected-depth6.msgpack.zst")
    total, worst, refused = follow(tree, opener)
    assert worst <= 6 and refused == []


@pytest.mark.slow
def test_the_lanes_score_as_the_games_own_score():
    """player.lanes: each built-in game's splitter, partition_counts and consistent agree with its
    plain score, on guesses with repeated symbols and without, over sets small and large."""
    import random

    from guesstree.player.game import Game
    from guesstree.player.games import make_game

    rng = random.Random(5)
    wordle = player.load(TREES / "wordle-salet-optimal-expected.msgpack.zst").game
    games = [wordle, make_game("mastermind"), make_game("mastermind", colours=8, holes=5), make_game("bulls-cows"),
             make_game("digits"), make_game("mastermind", colours=6, holes=4, secret_repeats=False, guess_repeats=False)]
    for game in games:
        for size in (1, 3, 40, 300):
            secrets = rng.sample(game.secrets, min(size, len(game.secrets)))
            guesses = rng.sample(game.guesses, 40) + secrets[:3]
            split = game.splitter(secrets)
            for guess in guesses:
                feedbacks = [game.score(guess, secret) for secret in secrets]
                pairs = set(zip(split(guess), feedbacks))
                assert len(pairs) == len({f for _, f in pairs}) == len({v for v, _ in pairs})  # one value per feedback
                feedback = rng.choice(feedbacks)
                assert game.consistent(guess, feedback, secrets) == Game.consistent(game, guess, feedback, secrets)
            assert list(game.partition_counts(guesses, secrets)) == [Game.partition_count(game, g, secrets) for g in guesses]


def test_hard_mode_guesses_after_a_history_are_those_it_allows():
    tree = rule_alone(TREES / "wordle-hard-salet-optimal-expected-depth6.msgpack.zst")
    game = tree.game
    for history in ([("crane", "--YG-")], [("speed", "-YG-Y"), ("eerie", "GY---")], [("mamma", "Y-G--")]):
        steps = tree._steps(history)
        assert game.guesses_after(steps) == [g for g in game.guesses if game.allows(g, steps) is None]


def test_the_javascript_rule_has_the_pythons_constants():
    import re

    from guesstree.player import advice

    source = (TREES.parent / "player" / "js" / "src" / "advice.js").read_text()
    found = dict(re.findall(r"(\w+): ([\d_]+)", re.search(r"ADVICE = Object.freeze\(\{(.*?)\}\)", source, re.S).group(1)))
    assert {k: int(v) for k, v in found.items()} == {k: getattr(advice, k) for k in
                                                     ("SAMPLE", "FEEDBACKS", "SHORTLIST", "TRIES", "BUDGET", "OVERHEAD",
                                                      "HARD_BUDGET")}


def longest_game(tree, own, secrets) -> int:
    """Each secret played with the guesses ``own`` of one's own, then by suggest, asserting that
    every suggestion leaves fewer candidates (never a dead end): the most guesses any secret took."""
    game = tree.game
    longest = 0
    for secret in secrets:
        history = []
        for guess in map(game.parse_code, own):
            if not history or history[-1][1] != game.win:
                history.append((guess, game.score(guess, secret)))
        while history[-1][1] != game.win:
            before = len(tree.candidates(history))
            guess = tree.suggest(history)
            history.append((guess, game.score(guess, secret)))
            assert history[-1][1] == game.win or len(tree.candidates(history)) < before
        longest = max(longest, len(history))
    return longest


@pytest.mark.slow
@pytest.mark.parametrize("own", [("AAAA", "BBBB"), ("ABCD", "DCBA", "EEFF")])
def test_after_several_guesses_of_ones_own_suggest_still_wins_every_secret(own):
    """Mastermind 6x4: two or three guesses of one's own, then suggest: every secret is won, each
    suggestion leaves fewer candidates (never a dead end), and none needs more than 8 guesses. (With
    the opening book, as a person gets it: the book answers until the second guess leaves it.)"""
    tree = player.load(TREES / "mastermind-c6-h4-optimal-expected.msgpack.zst")
    assert longest_game(tree, own, tree.game.secrets) <= 8

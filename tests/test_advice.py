"""Help off the tree: ``Tree.candidates`` and ``Tree.suggest`` after any history (player/advice.py)."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from guesstree import player
from guesstree.player.advice import pool

TREES = Path(__file__).parent.parent / "trees"


@pytest.fixture(scope="module")
def wordle():
    return player.load(TREES / "wordle-salet-optimal-expected.msgpack.zst")


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
    with pytest.raises(player.InconsistentHistory, match="step 1: the game was already won"):
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
    scored = pool(wordle, 0, wordle._steps(history), left)
    assert best in scored and len(scored) > len(left)  # the candidates, then the tree's second guesses
    parts = game.partition_count(best, left)
    assert parts == max(game.partition_count(g, left) for g in scored)
    assert parts == 7  # seven parts of the eight candidates: no guess in the pool does better
    assert game.format_code(best) == "CARGO"


def test_hard_mode_suggestions_keep_the_hints():
    tree = player.load(TREES / "wordle-hard-salet-optimal-expected-depth6.msgpack.zst")
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
    it with its feedback, then follows the suggestions to CIGAR."""
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
    assert "guess 2: CARGO  feedback? " in out
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

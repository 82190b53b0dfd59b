"""An interactive game driven without a terminal: answers, refusals, diagnosis, undo.

The tree is the golden Mastermind 3x2 entropy tree: AB first; after 0B0W only CC is left;
after 1B0W it plays AC, which splits AA, AC, BB and CB into parts of one.
"""
from __future__ import annotations

import re

import pytest

from guesstree.player.session import Session


@pytest.fixture
def session(mm32_tree) -> Session:
    return Session(mm32_tree)


def test_a_whole_game(session):
    assert session.guess() == (0, 1)
    assert session.answer("1B") == ("4 secrets are still possible", False)
    assert session.guess() == (0, 2)
    assert session.answer("0 1") == ("1 secret is still possible: CB", False)
    assert session.guess() == (2, 1)
    assert session.answer("2B") == ("solved: your secret is CB, found in 3 guesses", True)
    assert session.history == [((0, 1), (1, 0)), ((0, 2), (0, 1)), ((2, 1), (2, 0))]


def test_winning_at_once_says_one_guess(session):
    assert session.answer("2B0W") == ("solved: your secret is AB, found in 1 guess", True)


@pytest.mark.parametrize("text, reason", [
    ("xyz", "'xyz' is not feedback for mastermind: write e.g. '2B1W' or '2 1'"),
    ("", "is not feedback"),
    ("3B", "'3B' is impossible: 3 black + 0 white exceed 2 positions"),
    ("1B1W", "'1B1W' is impossible: with 1 black the last symbol cannot be misplaced"),
])
def test_malformed_feedback_raises_with_a_reason(session, text, reason):
    with pytest.raises(ValueError) as caught:
        session.answer(text)
    assert reason in str(caught.value)
    assert session.history == []


def test_feedback_no_secret_gives_names_the_likely_mistake(session):
    assert session.answer("0B0W") == ("1 secret is still possible: CC", False)
    assert session.guess() == (2, 2)
    before = list(session.history)
    message, done = session.answer("1B0W")  # CC cannot be answered 1B0W if AB got 0B0W
    assert not done
    assert session.history == before
    # dropping answer 1 leaves AC, BC, CA, CB; dropping answer 2 leaves only CC
    assert message == ("no secret gives all these answers; most likely answer 1 is wrong: you gave 0B0W "
                       "to AB, perhaps it was 1B0W (this answer was not taken; type 'undo' to take "
                       "earlier answers back)")


def test_an_answer_the_current_guess_can_never_get(session):
    session.answer("0B0W")
    message, done = session.answer("0B1W")  # CC is one colour: it never earns a white peg
    assert not done and session.history == [((0, 1), (0, 0))]
    assert message.startswith("no secret gives all these answers; most likely answer 2 is wrong: "
                              "you gave 0B1W to CC, perhaps it was 2B0W")


def test_undo_takes_answers_back_one_at_a_time(session):
    assert session.undo() == "nothing to undo"
    session.answer("1B")
    session.answer("0B0W")
    assert session.guess() == (1, 1)
    assert session.undo() == "took back 0B0W for AC"
    assert session.history == [((0, 1), (1, 0))]
    assert session.guess() == (0, 2)
    assert session.undo() == "took back 1B0W for AB"
    assert session.history == [] and session.guess() == (0, 1)
    assert session.answer("0B2W") == ("1 secret is still possible: BA", False)
    assert session.guess() == (1, 0)


def test_after_a_mistake_undo_then_the_right_answer(session):
    session.answer("0B0W")
    session.answer("1B0W")  # refused: no secret
    session.undo()
    assert session.answer("1B0W") == ("4 secrets are still possible", False)
    assert session.answer("2B") == ("solved: your secret is AC, found in 2 guesses", True)


def test_consistent_lists_the_secrets_left(session):
    assert session.consistent([((0, 1), (1, 0))]) == [(0, 0), (0, 2), (1, 1), (2, 1)]
    assert session.consistent([]) == session.game.secrets


def test_diagnose_when_every_answer_alone_is_possible(session, mm32_tree):
    """Three answers that do not fit together: name the one whose removal leaves most secrets."""
    game = mm32_tree.game
    attempt = [((0, 1), game.parse_feedback("1B")), ((0, 2), game.parse_feedback("2B"))]
    assert session.consistent(attempt) == [(0, 2)]
    wrong = attempt + [((0, 2), (0, 0))]
    # without answer 2 only BB fits, without answer 3 only AC: the earlier one is named
    assert session.diagnose(wrong) == (
        "no secret gives all these answers; most likely answer 2 is wrong: you gave 2B0W to AC, "
        "perhaps it was 0B0W (this answer was not taken)")


def test_a_win_for_a_guess_that_cannot_be_the_secret_is_refused(build_cached):
    """With --no-secret-repeats, minimax plays codes with a repeated colour: never a secret."""
    from guesstree import compiler
    from guesstree import player

    tree = player.loads(compiler.to_bytes(
        build_cached("mastermind", "minimax", colours=5, holes=3, secret_repeats=False)))
    game = tree.game
    assert game.guesses[0] not in set(game.secrets)
    history = next(path[:step] for path in map(tree.path, game.secrets)
                   for step, (guess, _) in enumerate(path) if guess not in set(game.secrets))
    session = Session(tree)
    for _, feedback in history:
        session.answer(game.format_feedback(feedback))
    assert session.history == history
    message, done = session.answer("3B0W")
    assert not done and session.history == history
    assert message.startswith("no secret gives all these answers")



def test_a_guess_of_ones_own_then_the_tree_suggests(session, mm32_tree):
    """CC is not the tree's first guess: after 'CC 0B0W' the secrets without C are left, and the
    session carries on with the rule of Tree.suggest."""
    assert session.answer("CC 0B0W") == ("4 secrets are still possible", False)
    assert session.history == [((2, 2), (0, 0))]
    assert session.consistent(session.history) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    # no guess splits AA AB BA BB in 4; AA, AB, BA and BB split them in 3: the lowest candidate plays
    assert [mm32_tree.game.partition_count(g, session.consistent(session.history)) for g in [(0, 0), (0, 1)]] == [3, 3]
    assert session.guess() == mm32_tree.suggest(session.history) == (0, 0)
    assert session.answer("AB 2B") == ("solved: your secret is AB, found in 2 guesses", True)


def test_own_guess_with_bad_feedback_names_the_feedback(session):
    with pytest.raises(ValueError) as caught:
        session.answer("CC 3B")
    assert str(caught.value).startswith("the feedback to CC: '3B' is impossible")
    assert session.history == []


# -- "you guess": the computer hides a secret ------------------------------------------------------
def test_you_guess_follows_the_hints_to_the_hidden_secret(cli):
    """play --you-guess: the hints are Tree.suggest's, each guess gets the game's score of the hidden
    secret (the same for the same --seed), the hints find it, and a repeated or unknown guess is not counted."""
    import random

    from guesstree.player.shipped import load_shipped

    tree = load_shipped("wordle-salet-optimal-expected")
    game = tree.game
    secret = random.Random(5).choice(game.secrets)
    history, lines = [], ["salet", "salet", "xyzzy"]
    history.append((game.parse_code("salet"), game.score(game.parse_code("salet"), secret)))
    while history[-1][1] != game.win:
        guess = tree.suggest(history, True)
        lines += ["hint", game.format_code(guess).lower()]
        history.append((guess, game.score(guess, secret)))
    result = cli("play", "wordle-salet-optimal-expected", "--you-guess", "--seed", 5, input="".join(f"{line}\n" for line in lines))
    assert result.exit_code == 0, result.output
    said = re.findall(r"^guess \d+\? +(.*)$", result.stdout, re.M)  # what each line typed was told
    assert said[0] == f"SALET gets {game.format_feedback(history[0][1])}: {len(tree.candidates(history[:1]))} secrets still fit."
    assert said[1] == f"you already guessed SALET (guess 1, {game.format_feedback(history[0][1])}): not counted; try again"
    assert said[2] == "XYZZY is not one of the game's 12972 allowed guesses: a typo?; try again"
    for k, (guess, _) in enumerate(history[1:], 1):
        assert said[1 + 2 * k].startswith(f"Hint: the tree would guess {game.format_code(guess)} (")
    assert said[-1] == (f"You found {game.format_code(secret)} in {len(history)} guesses "
                        f"(the tree finds it in {len(tree.path(secret))}).")


def test_you_guess_reveals_the_secret_and_plays_a_rule(cli, tmp_path):
    out = tmp_path / "black.msgpack.zst"
    assert cli("compile", "mastermind", "--feedback", "black", "--strategy", "entropy", "-o", out, "-q").exit_code == 0
    result = cli("play", out, "--you-guess", "--seed", 2, input="AAAA\nABBA1\nreveal\n")
    assert result.exit_code == 0, result.output
    from guesstree import player

    game = player.load(out).game
    said = re.findall(r"^guess \d+\? +(.*)$", result.stdout, re.M)  # what each line typed was told
    secret = game.parse_code(said[-1].removeprefix("The secret is ").rstrip("."))
    assert said[0].startswith(f"AAAA gets {game.format_feedback(game.score((0, 0, 0, 0), secret))}: ")
    assert said[1].endswith("; try again") and said[-1].startswith("The secret is ")

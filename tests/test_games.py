"""The rules: ``score`` on asymmetric examples, secret counts, canonical order, text forms, errors."""
from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from guesstree.player.games import BullsCows, Digits, Mastermind, TwoD, make_game


def mastermind_by_hand(guess, secret):
    """Black and white pegs the way a person counts them: mark the blacks, then pair the rest."""
    black = sum(g == s for g, s in zip(guess, secret))
    unmatched = [s for g, s in zip(guess, secret) if g != s]
    white = 0
    for g, s in zip(guess, secret):
        if g != s and g in unmatched:
            unmatched.remove(g)
            white += 1
    return black, white


# -- score ---------------------------------------------------------------------

@pytest.mark.parametrize("guess, secret, feedback", [
    ("AABB", "ABCD", (1, 1)),  # duplicate colour in the guess, not in the secret
    ("ABCD", "AABB", (1, 1)),  # ... and the reverse
    ("AAAA", "ABCD", (1, 0)),  # four As against one A: one black, no white
    ("ABCD", "AAAA", (1, 0)),
    ("AABB", "BBAA", (0, 4)),
    ("AABC", "CAAD", (1, 2)),  # A in place; the other A and the C moved; B missing
    ("CAAD", "AABC", (1, 2)),
    ("ABBB", "BAAA", (0, 2)),
    ("BAAA", "ABBB", (0, 2)),
    ("AAAB", "BAAA", (2, 2)),
    ("FFFF", "ABCD", (0, 0)),
    ("ABCD", "ABCD", (4, 0)),
])
def test_mastermind_score(guess, secret, feedback):
    game = Mastermind()
    assert game.score(game.parse_code(guess), game.parse_code(secret)) == feedback


def test_mastermind_score_agrees_with_counting_by_hand_on_every_pair_of_4x3():
    game = Mastermind(colours=4, holes=3)
    for guess in game.guesses:
        for secret in game.secrets:
            assert game.score(guess, secret) == mastermind_by_hand(guess, secret), (guess, secret)


@given(st.lists(st.integers(0, 5), min_size=4, max_size=4), st.lists(st.integers(0, 5), min_size=4, max_size=4))
def test_mastermind_score_properties(guess, secret):
    game = Mastermind()
    guess, secret = tuple(guess), tuple(secret)
    feedback = game.score(guess, secret)
    assert feedback == mastermind_by_hand(guess, secret)
    assert feedback in game.feedback_set
    assert (feedback == game.win) == (guess == secret)
    assert game.score(secret, guess) == feedback  # mastermind's score is symmetric


@pytest.mark.parametrize("guess, secret, feedback", [
    ("1234", "4271", (1, 2)),  # the textbook example: 2 is a bull, 1 and 4 are cows
    ("4271", "1234", (1, 2)),
    ("0123", "4567", (0, 0)),
    ("0123", "3210", (0, 4)),
    ("0123", "0132", (2, 2)),
    ("9876", "9876", (4, 0)),
])
def test_bulls_cows_score(guess, secret, feedback):
    game = BullsCows()
    assert game.score(game.parse_code(guess), game.parse_code(secret)) == feedback


@pytest.mark.parametrize("guess, secret, feedback", [
    ("1122", "1234", (1, 1)),  # repeated digits in the guess only
    ("1234", "1122", (1, 1)),  # ... in the secret only
    ("0000", "0123", (1, 0)),
    ("0123", "0000", (1, 0)),
    ("1100", "0011", (0, 4)),
    ("9990", "0999", (2, 2)),
    ("5555", "5555", (4, 0)),
])
def test_digits_score(guess, secret, feedback):
    game = Digits()
    assert game.score(game.parse_code(guess), game.parse_code(secret)) == feedback


@pytest.mark.parametrize("guess, secret, feedback", [
    ((2, 2), (1, 1), (1, 0, 0)),  # secret below-left of the guess
    ((1, 1), (2, 2), (0, 1, 0)),  # the reverse: above-right
    ((2, 2), (2, 3), (0, 1, 0)),  # one coordinate equal counts as both <= and >=
    ((2, 3), (2, 2), (1, 0, 0)),
    ((2, 2), (1, 3), (0, 0, 0)),  # neither
    ((1, 3), (2, 2), (0, 0, 0)),
    ((4, 0), (0, 4), (0, 0, 0)),
    ((3, 3), (3, 3), (1, 1, 1)),
])
def test_twod_score(guess, secret, feedback):
    assert TwoD().score(guess, secret) == feedback


@pytest.mark.parametrize("game", [
    Mastermind(colours=4, holes=3), Mastermind(colours=5, holes=3, secret_repeats=False),
    BullsCows(digits=6, length=3), Digits(length=2), TwoD(size=5),
], ids=repr)
def test_feedbacks_are_exactly_what_score_gives(game):
    given = {game.score(g, s) for g in game.guesses for s in game.secrets}
    assert set(game.feedbacks()) == given
    assert game.feedbacks() == sorted(game.feedbacks())
    assert game.win in given


# -- secrets and guesses -------------------------------------------------------

@pytest.mark.parametrize("game, secrets, guesses", [
    (Mastermind(), 1296, 1296),
    (Mastermind(secret_repeats=False), 360, 1296),
    (Mastermind(secret_repeats=False, guess_repeats=False), 360, 360),
    (Mastermind(colours=8, holes=5), 32768, 32768),
    (BullsCows(), 5040, 5040),
    (Digits(), 10000, 10000),
    (TwoD(), 25, 25),
    (TwoD(size=3), 9, 9),
], ids=repr)
def test_counts(game, secrets, guesses):
    assert len(game.secrets) == secrets
    assert len(game.guesses) == guesses
    assert len(set(game.secrets)) == secrets


@pytest.mark.parametrize("game", [Mastermind(), Mastermind(secret_repeats=False), BullsCows(), Digits(), TwoD()], ids=repr)
def test_canonical_order_is_lexicographic(game):
    assert game.secrets == sorted(game.secrets)
    assert game.guesses == sorted(game.guesses)
    assert set(game.secrets) <= set(game.guesses)


def test_canonical_order_first_codes():
    assert Mastermind().secrets[:3] == [(0, 0, 0, 0), (0, 0, 0, 1), (0, 0, 0, 2)]
    assert Mastermind().secrets[-1] == (5, 5, 5, 5)
    assert Mastermind(secret_repeats=False).secrets[:2] == [(0, 1, 2, 3), (0, 1, 2, 4)]
    assert BullsCows().secrets[0] == (0, 1, 2, 3)
    assert BullsCows().secrets[-1] == (9, 8, 7, 6)
    assert TwoD().secrets[:6] == [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (1, 0)]


def test_no_secret_repeats_secrets_have_distinct_colours_but_guesses_may_repeat():
    game = Mastermind(secret_repeats=False)
    assert all(len(set(s)) == 4 for s in game.secrets)
    assert (0, 0, 1, 1) in game.guesses and (0, 0, 1, 1) not in game.secrets


# -- text forms ----------------------------------------------------------------

ROUND_TRIP_GAMES = [
    Mastermind(), Mastermind(secret_repeats=False), Mastermind(colours=12, holes=3),
    BullsCows(), Digits(), TwoD(), TwoD(size=12),
]


@pytest.mark.parametrize("game", ROUND_TRIP_GAMES, ids=repr)
def test_code_round_trip_on_every_code(game):
    for code in game.guesses:
        text = game.format_code(code)
        assert game.parse_code(text) == code, text


@pytest.mark.parametrize("game", ROUND_TRIP_GAMES, ids=repr)
def test_feedback_round_trip_on_every_feedback(game):
    for feedback in game.feedbacks():
        text = game.format_feedback(feedback)
        assert game.parse_feedback(text) == feedback, text


@pytest.mark.parametrize("game, code, text", [
    (Mastermind(), (0, 0, 1, 2), "AABC"),
    (Mastermind(colours=12, holes=3), (11, 0, 10), "LAK"),
    (BullsCows(), (0, 1, 2, 3), "0123"),
    (Digits(), (9, 0, 0, 9), "9009"),
    (TwoD(), (3, 1), "3,1"),
])
def test_format_code(game, code, text):
    assert game.format_code(code) == text


@pytest.mark.parametrize("game, feedback, text", [
    (Mastermind(), (2, 1), "2B1W"),
    (BullsCows(), (1, 2), "1A2B"),
    (Digits(), (0, 3), "0S3B"),
    (TwoD(), (1, 0, 0), "<="),
    (TwoD(), (0, 1, 0), ">="),
    (TwoD(), (0, 0, 0), "none"),
    (TwoD(), (1, 1, 1), "=="),
])
def test_format_feedback(game, feedback, text):
    assert game.format_feedback(feedback) == text


@pytest.mark.parametrize("text", ["AABC", "aabc", "1123", "A A B C", "a,a,b,c"])
def test_mastermind_parse_code_accepts_letters_and_one_based_digits(text):
    assert Mastermind().parse_code(text) == (0, 0, 1, 2)


@pytest.mark.parametrize("text, feedback", [
    ("2B1W", (2, 1)), ("2b1w", (2, 1)), ("2 1", (2, 1)), ("2,1", (2, 1)), ("BBW", (2, 1)),
    ("3B", (3, 0)), ("1W", (0, 1)), ("0 0", (0, 0)), ("4B0W", (4, 0)),
])
def test_mastermind_parse_feedback_forms(text, feedback):
    assert Mastermind().parse_feedback(text) == feedback


@pytest.mark.parametrize("text, feedback", [("1A2B", (1, 2)), ("1 2", (1, 2)), ("4A", (4, 0)), ("0A0B", (0, 0))])
def test_bulls_cows_parse_feedback_forms(text, feedback):
    assert BullsCows().parse_feedback(text) == feedback


@pytest.mark.parametrize("text, feedback", [("<=", (1, 0, 0)), ("GE", (0, 1, 0)), ("no", (0, 0, 0)),
                                            ("111", (1, 1, 1)), ("0 1 0", (0, 1, 0))])
def test_twod_parse_feedback_forms(text, feedback):
    assert TwoD().parse_feedback(text) == feedback


# -- errors --------------------------------------------------------------------

@pytest.mark.parametrize("game, text, words", [
    (Mastermind(), "ABC", "3 colours; this game has 4 holes"),
    (Mastermind(), "ABCDE", "5 colours"),
    (Mastermind(), "ABCG", "outside A-F"),
    (Mastermind(), "1237", "outside A-F"),
    (Mastermind(), "0123", "outside A-F"),  # digits are 1-based colours
    (Mastermind(), "AB1D", "not a code"),
    (Mastermind(), "", "not a code"),
    (Mastermind(), "ÄBCD", "not a code"),  # a non-ASCII letter: a clear message, not a str.index failure
    (Mastermind(), "１２３４", "not a code"),  # full-width digits are not colours
    (BullsCows(), "012", "has 3 symbols"),
    (BullsCows(), "0012", "repeats a digit"),
    (BullsCows(), "01a3", "not a code"),
    (BullsCows(digits=6, length=3), "016", "unknown symbol 6"),
    (Digits(), "12345", "has 5 symbols"),
    (Digits(), "12x4", "not a code"),
    (TwoD(), "1", "'1' is not a point x,y: two numbers, x and y from 0 to 4"),
    (TwoD(), "1,2,3", "'1,2,3' is not a point x,y: two numbers, x and y from 0 to 4"),
    (TwoD(), "5,0", "'5,0' is off the grid: x and y from 0 to 4"),  # issue 67: it said "an unknown symbol 5"
    (TwoD(size=3), "0,3", "'0,3' is off the grid: x and y from 0 to 2"),
    (TwoD(), "a,b", "not a code"),
])
def test_parse_code_errors(game, text, words):
    with pytest.raises(ValueError) as caught:
        game.parse_code(text)
    assert words in str(caught.value)


@pytest.mark.parametrize("game, text, words", [
    (Mastermind(), "5B", "impossible"),
    (Mastermind(), "3B1W", "impossible"),
    (Mastermind(), "3 1", "impossible"),
    (Mastermind(), "2B3W", "exceed 4"),
    (Mastermind(), "x", "not feedback"),
    (Mastermind(), "", "not feedback"),
    (Mastermind(), "2B1X", "not feedback"),
    (BullsCows(), "3A1B", "impossible"),
    (BullsCows(), "5A", "impossible"),
    (Digits(), "3S1B", "impossible"),
    (TwoD(), "110", "cannot occur"),
    (TwoD(), "maybe", "not twod feedback"),
])
def test_parse_feedback_errors(game, text, words):
    with pytest.raises(ValueError) as caught:
        game.parse_feedback(text)
    assert words in str(caught.value)
    assert repr(text) in str(caught.value)


def test_check_code_and_check_feedback():
    game = Mastermind()
    assert game.check_code([0, 1, 2, 3]) == (0, 1, 2, 3)
    with pytest.raises(ValueError, match="unknown symbol 6"):
        game.check_code((0, 1, 2, 6))
    with pytest.raises(ValueError, match="cannot occur"):
        game.check_feedback((3, 1))


@pytest.mark.parametrize("name, params, words", [
    ("mastermind", {"holes": 0}, "--holes must be a whole number from 1 to 12, not 0"),
    ("mastermind", {"colours": 0}, "--colours"),
    ("mastermind", {"colours": 27}, "--colours"),
    ("mastermind", {"holes": True}, "--holes"),
    ("mastermind", {"colours": 3, "holes": 4, "secret_repeats": False}, "at least as many colours as holes"),
    ("mastermind", {"guess_repeats": False}, "--no-guess-repeats needs --no-secret-repeats"),
    ("mastermind", {"size": 5}, "bad parameters for mastermind"),
    ("bulls-cows", {"digits": 4, "length": 5}, "--length"),
    ("digits", {"length": 0}, "--length"),
    ("twod", {"size": 0}, "--size"),
    ("twod", {"size": "5"}, "--size"),
])
def test_bad_parameters(name, params, words):
    with pytest.raises(ValueError) as caught:
        make_game(name, **params)
    assert words in str(caught.value)


def test_unknown_game_names_the_choices():
    with pytest.raises(ValueError) as caught:
        make_game("chess")
    assert str(caught.value) == "unknown game: 'chess'; choose from mastermind, bulls-cows, digits, twod, words, or module:factory"


def test_spec_rebuilds_the_game_and_repr_reads_like_the_call():
    from guesstree.player.games import game_from_spec

    game = make_game("mastermind", colours=5, holes=3, secret_repeats=False)
    assert game.spec() == {"name": "mastermind", "params": {
        "colours": 5, "holes": 3, "secret_repeats": False, "guess_repeats": True}}
    assert game_from_spec(game.spec()) == game
    assert repr(game) == "Mastermind(colours=5, holes=3, secret_repeats=False, guess_repeats=True)"
    assert repr(make_game("bulls-cows")) == "BullsCows(digits=10, length=4)"
    assert make_game("digits", length=3) != make_game("mastermind", colours=10, holes=3)


def test_random_pairs_win_only_on_equality():
    rng = random.Random(7)
    for game in (BullsCows(), Digits(), TwoD(size=9)):
        for guess, secret in zip(rng.choices(game.guesses, k=300), rng.choices(game.secrets, k=300)):
            feedback = game.score(guess, secret)
            assert feedback in game.feedback_set
            assert (feedback == game.win) == (guess == secret)


def test_every_feedback_on_4_holes():
    """Fourteen answers exist on 4 holes: (b, w) with b + w <= 4, less 3B1W."""
    feedbacks = Mastermind().feedbacks()
    assert len(feedbacks) == 14
    assert (3, 1) not in feedbacks
    assert set(feedbacks) == {(b, w) for b, w in itertools.product(range(5), repeat=2) if b + w <= 4} - {(3, 1)}


@pytest.mark.parametrize("game", [
    Mastermind(colours=4, holes=3), Mastermind(colours=5, holes=3, secret_repeats=False),
    BullsCows(digits=6, length=3), Digits(length=2), TwoD(size=5),
], ids=repr)
def test_symmetric_score_flag_is_true(game):
    """The compiler reads the matrix's columns for a symmetric score: the flag must not lie."""
    codes = game.guesses
    symmetric = all(game.score(a, b) == game.score(b, a) for a in codes for b in codes)
    assert game.symmetric_score == symmetric
    assert symmetric == (not isinstance(game, TwoD))

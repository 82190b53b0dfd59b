"""A review from what the player carries (``player.review``: the tree, the book, counting) and the
search's review where they meet: every figure the tree calls exact is the search's; bounds hold
the search's figure; the player's install says what it lacks. (``test_review.py`` holds the search's
review against an exhaustive computation of our own.)"""
from __future__ import annotations

import json
import random
import re

import pytest

from guesstree import player
from guesstree.compiler.review import review as searched_review
from guesstree.player.review import review, shipped_tree
from guesstree.player.worth import NEVER, Span, least_total

WORDLE = "wordle-salet-optimal-expected"
SHOUT = [("crane", "-----"), ("moist", "-Y-YG"), ("ghost", "-GGYG"), ("shout", "GGGGG")]


def played(tree, secret, guesses) -> list[tuple[str, str]]:
    """The history of ``guesses`` (the game's texts) against ``secret``, up to the win."""
    game, code = tree.game, tree.game.parse_code(secret)
    history = []
    for guess in guesses:
        feedback = game.score(game.parse_code(guess), code)
        history.append((guess, game.format_feedback(feedback)))
        if feedback == game.win:
            break
    return history


def test_the_counting_bound_fills_a_perfect_tree_level_by_level():
    assert [least_total(m, None, 2) for m in range(1, 8)] == [1, 3, 5, 8, 11, 14, 17]  # 1 + 2x2 + 4x3 ...
    assert least_total(3, 2, 2) == 5 and least_total(4, 2, 2) == NEVER  # 1 + 2 secrets within 2 guesses
    assert least_total(2, 1, 10) == NEVER and least_total(0, 0, 3) == 0


def test_the_tree_settles_the_first_moves_of_wordle_and_the_book_its_openers_within_six():
    tree = player.load_shipped(WORDLE)
    report = review(tree, SHOUT, max_depth=6).to_dict()
    first, second = report["moves"][:2]
    assert (first["best_total"], first["best"], first["best_complete"], first["best_worst"]) == ([7920, 7920], ["SALET"], False, 5)
    assert (first["total"], first["worst"], first["loss"], first["verdict"]) == ([7930, 7930], 6, [0.0043, 0.0043], "good")
    assert (first["left"], first["left_total"], first["luck"]) == (263, [735, 735], [-0.3692, -0.3692])  # the book's CRANE tree
    assert second["best_total"] == [735, 735] and second["total"][1] is None  # MOIST leaves every tree
    assert report["moves"][-1]["total"] == [3, 3] and report["moves"][-1]["verdict"] == "best"  # two secrets: exact
    assert report["source"] == "tree and book" and report["missing"] == (
        "the exhaustive search (guesstree review with the compiler's install) would give the exact figures of "
        "moves 2, 3 (bounds here) and every best guess tied at moves 1, 2, 3 (the tree's own here)")
    # with no depth limit the book's trees (built within six) bound CRANE's total but do not settle it
    unbounded = review(tree, SHOUT).to_dict()["moves"][0]
    assert (unbounded["total"], unbounded["verdict"]) == ([7920, 7930], "best to good")


def test_following_the_tree_is_best_and_its_luck_sums_to_nothing_on_average():
    tree = player.load_shipped("mastermind-c6-h4-optimal-expected")
    path = [(tree.game.format_code(g), tree.game.format_feedback(f)) for g, f in tree.path("ABCD")]
    report = review(tree, path)
    assert all(move.verdict == "best" and move.exact for move in report.moves)
    assert report.to_dict()["summary"]["expected_start"] == [4.3403, 4.3403]  # 5625 / 1296
    # over every answer to the first guess, the luck weighted by the secrets that give it is 0
    game, first = tree.game, tree.guess_of(0)
    answers = {game.score(first, secret) for secret in game.secrets}
    moves = [review(tree, [(game.format_code(first), game.format_feedback(answer))]).moves[0] for answer in answers]
    assert len(moves) == 14 and sum(move.left for move in moves) == 1295  # (the win: left 0, luck +3.3403)
    weighted = sum(max(move.left, 1) * move.luck[0] for move in moves)
    assert abs(weighted) < 0.5e-4 * 1296  # (each luck rounded to 4 places)


@pytest.mark.parametrize("name, max_depth", [("mastermind-c6-h4-optimal-expected", None), (WORDLE, 6),
                                             ("wordle-hard-salet-optimal-expected-depth6", None)])
def test_what_the_tree_calls_exact_is_the_search_s_and_its_bounds_hold_it(name, max_depth):
    tree = player.load_shipped(name)
    game, rng = tree.game, random.Random(71)
    for _ in range(4):
        secret = game.format_code(rng.choice(game.secrets))
        history, remaining = [], list(game.secrets)
        openers = [game.parse_code(first) for first in tree.book.openers(tree)] + [tree.guess_of(0)]
        while not history or history[-1][1] != game.format_feedback(game.win):
            # first the tree's guess or a book opener (another's exact total is a long search), then
            # the tree's or the book's guess, or a candidate: moves on and off the trees
            options = openers if not history else [tree.suggest(history)] if rng.random() < 0.5 else \
                remaining[:1] + [rng.choice(remaining)]
            guess = options[rng.randrange(len(options))]
            feedback = game.score(guess, game.parse_code(secret))
            history.append((game.format_code(guess), game.format_feedback(feedback)))
            remaining = game.consistent(guess, feedback, remaining)
        mine = review(tree, history, max_depth)
        exact = searched_review(tree, history, max_depth, seconds=60)
        assert exact.exact, (name, history, exact.notes)
        for facts, searched in zip(mine.moves, exact.moves):
            for figure in ("total", "best_total", "left_total"):
                known, truth = getattr(facts, figure), getattr(searched, figure)
                assert known.low <= truth.low and (known.high is None or truth.high <= known.high), (history, figure)
            if facts.total.exact and facts.worst is not None:
                assert facts.worst == searched.worst, history
            if facts.best_total.exact and facts.best_worst is not None:
                assert (facts.best_worst, facts.best[0]) == (searched.best_worst, searched.best[0]), history
            assert set(facts.best) <= set(searched.best)
            if searched.verdict != facts.verdict:
                words = facts.verdict.split(" ")  # "good to mistake", "good or worse": the search's lies within
                low, high = words[0], words[-1] if words[-1] != "worse" else "mistake"
                assert VERDICT_ORDER.index(low) <= VERDICT_ORDER.index(searched.verdict) <= VERDICT_ORDER.index(high), \
                    (history, facts.verdict, searched.verdict)


VERDICT_ORDER = ["best", "good", "inaccuracy", "mistake"]


def test_a_search_out_of_time_keeps_the_bounds_and_says_so():
    game = player.load_shipped(WORDLE).game
    done = searched_review(game, SHOUT[:1], seconds=1e-9)
    first = done.moves[0]
    assert not first.exact and first.total.low >= 2315 + 1 and first.total.high is None
    assert any("did not finish within" in note for note in done.notes)
    won = searched_review(game, [("shout", "GGGGG")], seconds=1e-9).moves[0]  # a win: nothing left, exactly
    assert (won.left_total, won.total.high, won.luck) == (Span(0, 0), None, (round(won.total.low / 2315 - 1, 4), None))


def test_a_game_that_cannot_be_won_within_the_limit_is_a_mistake_at_every_move():
    game = player.games.make_game("mastermind", colours=3, holes=3)
    done = searched_review(game, [("AAB", "0B2W"), ("ABC", "0B3W")], max_depth=2)
    assert [move.verdict for move in done.moves] == ["mistake", "mistake"]
    assert done.to_dict()["moves"][0]["total"] == [None, None]


def test_a_named_game_is_reviewed_with_the_shipped_tree_of_it(cli):
    game = player.load_shipped(WORDLE).game
    assert shipped_tree(game).name == "shipped:" + WORDLE
    hard = player.load_shipped("wordle-hard-salet-optimal-expected-depth6").game
    assert shipped_tree(hard, 6).name == "shipped:wordle-hard-salet-optimal-expected-depth6"
    assert shipped_tree(player.games.make_game("mastermind", colours=5, holes=3)) is None
    result = cli("review", "mastermind", "--colours", "6", "--holes", "4", "--json", "--", "AABB", "1B1W")
    assert result.exit_code == 0, result.output
    said = json.loads(result.stdout)
    assert (said["tree"], said["moves"][0]["total"], said["moves"][0]["best"][:2], len(said["moves"][0]["best"])) == (
        "mastermind-c6-h4-optimal-expected", [5702, 5702], ["AABC", "AABD"], 720)  # the book's AABB tree: 5702


def test_the_player_s_install_reviews_from_the_tree_and_says_what_the_compiler_adds(cli, monkeypatch):
    from guesstree.compiler.cli import review as command

    monkeypatch.setattr(command, "missing_dependency", lambda: "numpy")
    result = cli("review", WORDLE, "--max-depth", "6", "--", *[word for move in SHOUT for word in move])
    assert result.exit_code == 0, result.output
    assert "reviewed by tree and book, with wordle-salet-optimal-expected, within 6 guesses" in result.stdout
    assert result.stdout.rstrip().endswith("(the tree's own here): pip install 'guesstree[compiler]'")
    refused = cli("review", "mastermind", "--colours", "5", "--holes", "3", "--", "AAB", "1B1W")
    assert refused.exit_code == 2 and refused.stderr.startswith("error: no shipped tree settles Mastermind, 5 colours, 3 holes")


@pytest.mark.parametrize("words, message", [
    (["crane"], "error: give each guess with its feedback (e.g. "),
    (["crane", "-----", "chant", "GGGGG"], "error: step 2: no secret gives all these answers: CRANE -----, CHANT GGGGG"),
    (["crane", "GGGGG", "moist", "-----"], "error: step 2: the game was won at step 1, yet the history goes on"),
    (["xyzzy", "-----"], "error: step 1: XYZZY is not one of the game's 12972 allowed guesses (--any-guess reviews it anyway)"),
    (["crane", "GYZ--"], "error: step 1: 'GYZ--' is not feedback for 5-letter words"),
    (["--seconds", "0", "crane", "-----"], "error: --seconds must be above 0, not 0.0"),
    (["--max-depth", "0", "crane", "-----"], "error: --max-depth must be at least 1, not 0"),
    (["--colours", "3", "crane", "-----"], "error: --colours: game options go with a game"),
])
def test_review_refuses_a_mistake_in_one_line(cli, words, message):
    result = cli("review", WORDLE, "--", *words)
    assert result.exit_code == 2 and result.stderr.startswith(message) and result.stderr.count("\n") == 1, result.output


def test_hard_mode_refuses_a_guess_that_ignores_a_hint(cli):
    result = cli("review", "wordle-hard-salet-optimal-expected-depth6", "--", "salet", "G----", "crane", "-----")
    assert result.exit_code == 2 and result.stderr.startswith("error: step 2: "), result.output
    assert "S" in result.stderr


# -- the first guesses: the proven rankings (trees/book/RANKINGS.json) and the classes of a peg game -----

def test_the_first_move_knows_every_best_first_guess_without_a_search():
    tree = player.load_shipped(WORDLE)
    for max_depth in (None, 6):
        first = searched_review(tree, SHOUT[:1], max_depth).moves[0]
        assert (first.best, first.best_complete, first.total, first.worst) == (["SALET"], True, Span(7930, 7930), 6)
    slate = [searched_review(tree, [("slate", "-----")], depth, seconds=1e-9).moves[0] for depth in (None, 6)]
    assert [(move.total, move.worst) for move in slate] == [(Span(7928, 7928), 7), (Span(7928, 7928), 6)]  # the book's
    other = searched_review(tree, [("roate", "-----")], seconds=1e-9).moves[0]  # outside the ten best
    # the ranking's floor, the book's ROATE tree (within 6: no more than that without a limit) and a verdict
    # that both ends give: a loss of (7950 - 7920) / 2315 = 0.013 to 0.035
    assert (other.total, other.verdict, other.exact) == (Span(7950, 8000), "good", False)
    hard = player.load_shipped("wordle-hard-salet-optimal-expected-depth6")
    first = searched_review(hard, [("least", "-----")]).moves[0]
    assert (first.best, first.best_complete, first.total) == (["SALET"], True, Span(8127, 8127))


def test_a_peg_game_s_first_guesses_tie_by_class():
    tree = player.load_shipped("mastermind-c6-h4-optimal-expected")
    first = searched_review(tree, [("ABCD", "1B1W")]).moves[0]
    assert first.best_complete and len(first.best) == 720 and first.best[:3] == ["AABC", "AABD", "AABE"]
    cows = player.load_shipped("bulls-cows-d10-l4-optimal-expected")
    first = searched_review(cows, [("9876", "0A0B")]).moves[0]
    assert (first.verdict, len(first.best), first.total) == ("best", 5040, Span(26274, 26274))


@pytest.mark.parametrize("text, said", [('{"rankings": 3}', "not a ranking of first guesses ("),
                                         ("[1, 2]", "not a ranking of first guesses (not a JSON object)"),
                                         ("{" + " " * (1 << 20), "not a ranking of first guesses (larger than 1048576 bytes)"),
                                         ('{"rankings": [], "seconds": 3}', "not a table of second guesses (")])
def test_a_damaged_ranking_file_is_refused_by_name(tmp_path, monkeypatch, text, said):
    from guesstree.compiler import review as module
    from guesstree.player.format import FormatError

    (tmp_path / "book").mkdir()
    (tmp_path / "book" / "RANKINGS.json").write_text(text)
    monkeypatch.setattr("guesstree.player.data.trees_folder", lambda: tmp_path)
    with pytest.raises(FormatError, match=re.escape("book/RANKINGS.json: " + said)):
        module.proven_openers(player.load_shipped(WORDLE), None)
        module.proven_seconds(player.load_shipped("bulls-cows-d10-l4-optimal-expected"), None)


def test_a_game_of_no_moves_says_what_the_best_play_needs(cli):
    # not an optimum: the search finds the game's (5625; a few seconds, given time to spare on a busy machine)
    result = cli("review", "mastermind-c6-h4-entropy", "--seconds", "120")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[1:] == ["no moves given: the best play needs 4.3403 guesses on average"]


def test_where_nothing_wins_within_the_limit_no_guess_is_best():
    game = player.games.make_game("mastermind", colours=3, holes=3)
    move = searched_review(game, [("AAB", "0B2W")], max_depth=1).moves[0]
    assert (move.best, move.best_complete, move.verdict, move.total) == ([], True, "mistake", Span(NEVER, NEVER))


@pytest.mark.parametrize("history", [
    [("5678", "2A1B"), ("5679", "2A0B")],  # 5678 is 0123 with its digits renamed: 72 secrets, then 18
    [("9876", "1A2B"), ("1234", "0A1B"), ("6978", "3A0B")],  # 216 secrets; the table's, then the search's
])
def test_the_table_of_second_guesses_gives_the_search_s_figures(history, monkeypatch):
    from guesstree.compiler import review as module

    cows = player.load_shipped("bulls-cows-d10-l4-optimal-expected")
    tabled = searched_review(cows, history, seconds=60)
    monkeypatch.setattr(module, "proven_seconds", lambda tree, max_depth: None)
    searched = searched_review(cows, history, seconds=60)
    assert tabled.to_dict() == searched.to_dict() and tabled.exact
    assert len(tabled.moves[1].best) > 1 and tabled.moves[1].best_complete

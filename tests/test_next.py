"""The one-shot next guess (``guesstree next``), the list of shipped trees (``guesstree trees``),
and the player's words for people: games as they are written, integer feedback checked as text is."""
from __future__ import annotations

import json

import pytest

from guesstree import player

MM64 = "mastermind-c6-h4-entropy"


@pytest.fixture(scope="module")
def mm64():
    return player.load_shipped(MM64)


def test_next_prints_the_trees_guess_on_the_tree_and_the_suggestion_off_it(cli, mm64):
    assert cli("next", MM64).stdout == "ABCD\n"  # the entropy tree's first guess
    on = cli("next", MM64, "ABCD", "1B1W", "--json")
    assert on.exit_code == 0 and json.loads(on.stdout) == {
        "guess": mm64.game.format_code(mm64.next_guess([("ABCD", "1B1W")])), "won": False, "on_tree": True,
        "candidates": len(mm64.candidates([("ABCD", "1B1W")]))}
    assert json.loads(on.stdout)["guess"] == "ACEF" and json.loads(on.stdout)["candidates"] == 252
    off = json.loads(cli("next", MM64, "AABB", "1b1w", "--json").stdout)  # a first guess of one's own
    assert off == {"guess": mm64.game.format_code(mm64.suggest([("AABB", "1B1W")])), "won": False,
                   "on_tree": False, "candidates": 208}
    assert cli("next", MM64, "ABCD", "4B0W").stdout == "won\n"


@pytest.mark.parametrize("args, code, message", [
    (["ABCD"], 2, "error: give each guess with its feedback (e.g. ABCD 0B0W): 'ABCD' has none"),
    (["ABCD", "9B"], 2, "error: step 1: '9B' is impossible: 9 black + 0 white exceed 4 positions"),
    (["ABCD", "4B0W", "ABCD", "4B0W"], 2, "error: step 2: the game was won at step 1, yet the history goes on"),
    (["AAAA", "0B0W", "BBBB", "0B0W", "CCCC", "0B0W", "DDDD", "0B0W", "EEEE", "0B0W", "FFFF", "0B0W"], 2,
     "error: no secret gives all these answers: AAAA 0B0W, BBBB 0B0W, CCCC 0B0W, DDDD 0B0W, EEEE 0B0W, FFFF 0B0W"),
])
def test_next_refuses_a_history_in_one_line(cli, clean_error, args, code, message):
    assert clean_error(cli("next", MM64, *args), code) == message


def test_integer_feedback_is_checked_like_its_text(mm64):
    for feedback in ((0, 5), (-1, 2), (4, 1)):
        with pytest.raises(ValueError, match=rf"^step 1: \({feedback[0]}, {feedback[1]}\) is feedback that cannot occur"):
            mm64.next_guess([((0, 1, 2, 3), feedback)])
    # feedback the game can give, but no secret left gives there, is still told apart
    node = mm64.child(0, (0, 0))
    given = {feedback for feedback, _ in mm64.edges(node)}
    unfit = next(f for f in mm64.game.feedbacks() if f not in given and f != mm64.game.win)
    second = mm64.guess_of(node)
    with pytest.raises(player.InconsistentHistory, match=f"^step 2: no secret left gives {mm64.game.format_feedback(unfit)} "):
        mm64.next_guess([((0, 1, 2, 3), (0, 0)), (second, unfit)])


def test_trees_lists_every_shipped_tree_with_its_game_and_worst(cli):
    rows = json.loads(cli("trees", "--json").stdout)
    assert [row["name"] for row in rows] == player.shipped()
    entropy = next(row for row in rows if row["name"] == MM64)
    assert entropy["game"] == "Mastermind 6x4" and entropy["strategy"] == "entropy"
    assert (entropy["secrets"], entropy["worst"], entropy["average"]) == (1296, 6, 4.4151)  # 5722 / 1296
    text = cli("trees").stdout.splitlines()
    assert text[0].split() == ["name", "game", "strategy", "average", "worst"]
    assert any(line.split()[:5] == ["wordle-salet-optimal-expected", "Words", "of", "5", "letters"]
               and line.split()[-2:] == ["3.4212", "5"] for line in text)
    assert text[-1].startswith(f"{len(rows)} trees in ")


def test_games_print_as_people_write_them():
    from guesstree.player.games import make_game

    game = make_game("mastermind", colours=6, holes=4)
    assert str(game) == "Mastermind 6x4"
    assert repr(game) == "Mastermind(colours=6, holes=4, secret_repeats=True, guess_repeats=True)"  # rebuilds it
    assert str(make_game("mastermind", colours=8, holes=4, secret_repeats=False)) == \
        "Mastermind 8x4 (distinct colours, guesses may repeat)"
    assert str(make_game("digits", length=4)) == "Digits, 4 digits"


def test_info_names_a_missing_file_briefly_and_the_command_that_lists_trees(cli, clean_error):
    line = clean_error(cli("info", "nosuch.zst"), 2)
    assert line == "error: nosuch.zst: no such file; nor is it a shipped tree's name (guesstree trees lists them)"
    near = clean_error(cli("info", "mastermind-c6-h4-entropi"), 2)
    assert "did you mean mastermind-c6-h4-entropy?" in near and len(near) < 160


def test_info_wraps_a_proven_strategy(cli):
    lines = cli("info", "mastermind-c6-h4-fewest-at-worst").stdout.splitlines()
    assert max(map(len, lines)) <= 88
    assert lines[2] == "  strategy   fewest-at-worst, candidates=all, optimal=True, minimum_worst=5,"
    assert lines[4].startswith("  proven     exhaustive search: no tree wins every secret within 4 guesses")


def test_help_lists_the_commands_in_a_users_order(cli):
    listed = cli("--help").stdout.split("Commands:")[1].splitlines()
    names = [line.split()[0] for line in listed if line.startswith("  ") and not line.startswith("   ")]
    assert names == ["play", "solve", "next", "review", "info", "verify", "manifest", "export", "trees", "list",
                     "compile", "bound", "compare", "openers", "warm"]


WORDLE = "wordle-salet-optimal-expected"


def test_feedback_that_begins_with_a_dash_is_an_argument_as_solve_prints_it(cli, clean_error):
    """Issue 67: ``next TREE salet -Y---`` said "has no option -Y"; the words solve prints are what
    next takes, dashes and all, with its options anywhere and a mistyped one still refused."""
    tree = player.load_shipped(WORDLE)
    path = tree.path(tree.game.parse_code("cigar"))
    printed = cli("solve", WORDLE, "cigar").stdout.splitlines()
    assert printed[0] == f"1. SALET  {tree.game.format_feedback(path[0][1])}" == "1. SALET  -Y---"
    second = tree.game.format_code(path[1][0])
    for args in (["salet", "-Y---"], ["salet", "-Y---", "--json"], ["--json", "salet", "-Y---"],
                 ["--", "salet", "-Y---"], ["salet", "--", "-Y---", "--json"]):
        result = cli("next", WORDLE, *args)
        assert result.exit_code == 0, (args, result.output)
        shown = json.loads(result.stdout)["guess"] if "--json" in args else result.stdout.strip()
        assert shown == second, args
    steps = [word for guess, feedback in path[:3] for word in (tree.game.format_code(guess), tree.game.format_feedback(feedback))]
    assert cli("next", WORDLE, *steps).stdout.strip() == tree.game.format_code(path[3][0])
    all_absent = cli("next", WORDLE, "salet", "-----", "--any-guess")  # a long option's shape, but dashes only
    assert all_absent.exit_code == 0 and all_absent.stdout.strip() == tree.game.format_code(tree.next_guess([("salet", "-----")]))
    assert clean_error(cli("next", WORDLE, "salet", "-Y---", "--jsn"), 2) == \
        "error: guesstree next has no option --jsn (did you mean --json?)"
    assert clean_error(cli("next", WORDLE, "salet", "-Y---", "--plugin"), 2) == \
        "error: guesstree next: option '--plugin' requires an argument"
    assert clean_error(cli("solve", WORDLE, "-Y---"), 2).startswith("error: '-Y---' ")  # an argument, refused as one


# -- a win only on a code that can be the secret ------------------------------------------------------
def test_is_secret_is_membership_in_the_secrets_of_every_built_in_game():
    import itertools

    from guesstree.player.games import make_game

    for game in (make_game("mastermind", colours=3, holes=3), make_game("mastermind", colours=4, holes=3, secret_repeats=False),
                 make_game("mastermind", colours=4, holes=3, secret_repeats=False, guess_repeats=False),
                 make_game("bulls-cows", digits=5, length=3), make_game("digits", length=2), make_game("twod", size=4)):
        secrets = set(game.secrets)
        codes = list(itertools.product(range(game.symbols), repeat=game.length))
        assert [code for code in codes if game.is_secret(code)] == sorted(secrets), repr(game)
        assert 0 < len(secrets) and (len(secrets) < len(codes)) == (repr(game).count("False") > 0 or game.name == "bulls-cows")
        assert not game.is_secret((0,) * (game.length + 1)) and not game.is_secret((game.symbols,) * game.length)
    wordle = player.load_shipped(WORDLE).game
    assert wordle.is_secret(wordle.parse_code("cigar")) and not wordle.is_secret(wordle.parse_code("salet"))
    assert wordle.is_guess(wordle.parse_code("salet"))  # a guess, never the secret


def test_a_win_on_the_trees_first_guess_that_is_no_answer_is_refused_by_the_library_and_next(cli, clean_error):
    tree = player.load_shipped(WORDLE)  # SALET, its first guess, is not one of the 2315 answers
    for answer in (tree.next_guess, tree.suggest):
        with pytest.raises(player.InconsistentHistory, match="^no secret gives all these answers: SALET GGGGG$"):
            answer([("salet", "GGGGG")])
    assert tree.candidates([("salet", "GGGGG")]) == []
    assert clean_error(cli("next", WORDLE, "salet", "GGGGG"), 2) == "error: no secret gives all these answers: SALET GGGGG"
    cigar = tree.path("cigar")  # a real win, on the tree and off it
    assert tree.next_guess(cigar) is None and tree.suggest(cigar) is None
    assert tree.suggest([("cigar", "GGGGG")]) is None and cli("next", WORDLE, "cigar", "GGGGG").stdout == "won\n"


def test_a_win_on_a_code_with_a_repeat_is_refused_where_secrets_have_none(cli, clean_error):
    name = "mastermind-c6-h4-distinct-entropy"
    tree = player.load_shipped(name)
    assert tree.game.format_code(tree.guess_of(0)) == "AABC" and not tree.game.secret_repeats
    for answer in (tree.next_guess, tree.suggest):
        with pytest.raises(player.InconsistentHistory, match="^no secret gives all these answers: AABC 4B0W$"):
            answer([("AABC", "4B0W")])
    assert clean_error(cli("next", name, "AABC", "4B0W"), 2) == "error: no secret gives all these answers: AABC 4B0W"
    assert clean_error(cli("next", name, "AABC", "4B0W", "--json"), 2) == "error: no secret gives all these answers: AABC 4B0W"
    off = tree.path("ABCD")[:-1] + [((0, 0, 1, 1), (4, 0))]  # off the tree: AABB is no secret either
    with pytest.raises(player.InconsistentHistory, match="^no secret gives all these answers: .*AABB 4B0W$"):
        tree.suggest(off)
    assert json.loads(cli("next", name, "ABCD", "4B0W", "--json").stdout) == \
        {"guess": None, "won": True, "on_tree": False, "candidates": 1}


def test_a_win_that_an_earlier_answer_rules_out_is_refused(cli, clean_error, mm64):
    history = [("ABCD", "0B0W"), ("AEEF", "4B0W")]  # the tree's guesses; but 0B0W says the secret has no A
    assert mm64.game.format_code(mm64.guess_of(mm64.child(0, (0, 0)))) == "AEEF"
    for answer in (mm64.next_guess, mm64.suggest):
        with pytest.raises(player.InconsistentHistory, match="^no secret gives all these answers: ABCD 0B0W, AEEF 4B0W$"):
            answer(history)
    assert clean_error(cli("next", MM64, "ABCD", "0B0W", "AEEF", "4B0W"), 2) == \
        "error: no secret gives all these answers: ABCD 0B0W, AEEF 4B0W"
    with pytest.raises(player.InconsistentHistory, match="^no secret gives all these answers: ABCD 0B0W, EEEA 4B0W$"):
        mm64.suggest([("ABCD", "0B0W"), ("EEEA", "4B0W")])  # off the tree, ruled out alike
    assert mm64.suggest([("ABCD", "1B0W"), ("AAAA", "4B0W")]) is None  # AAAA gives ABCD 1B0W: a win


@pytest.mark.parametrize("name", [MM64, "mastermind-c6-h4-distinct-entropy", "bulls-cows-d10-l3-optimal-expected"])
def test_a_win_at_every_node_is_taken_exactly_when_a_secret_gives_the_history(name):
    """At each node, the winning feedback to the tree's guess there: taken (None) by next_guess and
    suggest exactly when some secret gives the whole history (the brute force: candidates)."""
    tree = player.load_shipped(name)
    game, taken, refused = tree.game, 0, 0
    below = [(0, [])]
    while below:
        node, steps = below.pop()
        guess = tree.guess_of(node)
        history = steps + [(guess, game.win)]
        if tree.candidates(history, any_guess=True):
            assert tree.next_guess(history) is None and tree.suggest(history) is None
            taken += 1
        else:
            for answer in (tree.next_guess, tree.suggest):
                with pytest.raises(player.InconsistentHistory, match="^no secret gives all these answers: "):
                    answer(history)
            refused += 1
        below.extend((child, steps + [(guess, feedback)]) for feedback, child in tree.edges(node))
    assert taken == tree.stats.secrets and refused == tree.nodes - taken > 0

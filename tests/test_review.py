"""``guesstree review`` judged against an exhaustive computation of our own (tests/oracle_review.py,
plain recursion over candidate sets with the game's own rules): every figure of every move of
random games of Mastermind 3x3 and 2x4, Bulls and Cows 3 of 4 and a small word game in normal
and hard mode, with and without a depth limit; the command line against the library; and the
oracle itself against published values and the compiler's own optimal trees."""
from __future__ import annotations

import json
import random
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest

from guesstree.player.advice import candidates
from guesstree.player.games import make_game
from oracle_review import Move, Oracle, review as oracle_review, start as oracle_start, summary, verdict

DATA = Path(__file__).parent / "data"
ANSWERS, GUESSES = DATA / "review-answers.txt", DATA / "review-guesses.txt"  # -ight, -ound, -atch: hard mode's traps

# name -> (the game's keywords, its options on the command line)
GAMES = {
    "mastermind-3x3": (("mastermind", {"colours": 3, "holes": 3}), ["mastermind", "--colours", "3", "--holes", "3"]),
    "mastermind-2x4": (("mastermind", {"colours": 2, "holes": 4}), ["mastermind", "--colours", "2", "--holes", "4"]),
    # secrets of distinct colours, guesses that repeat one: the best opener AAB is no possible secret
    "mastermind-4x3-distinct": (("mastermind", {"colours": 4, "holes": 3, "secret_repeats": False}),
                                ["mastermind", "--colours", "4", "--holes", "3", "--no-secret-repeats"]),
    "bulls-cows-3of4": (("bulls-cows", {"digits": 4, "length": 3}), ["bulls-cows", "--digits", "4", "--length", "3"]),
    "twod-5": (("twod", {"size": 5}), ["twod", "--size", "5"]),  # openers 1 and 3 guesses above the best: good, inaccuracy
    "words": (("words", {"answers": str(ANSWERS), "guesses": str(GUESSES)}),
              ["words", "--answers", str(ANSWERS), "--guesses", str(GUESSES)]),
    "words-hard": (("words", {"answers": str(ANSWERS), "guesses": str(GUESSES), "hard": True}),
                   ["words", "--answers", str(ANSWERS), "--guesses", str(GUESSES), "--hard"]),
}
# (game, max depth): each game without a limit, and with one that binds after a wasted guess (the
# optimal worst case of Mastermind 3x3, 2x4 and 4x3 and of Bulls and Cows 3 of 4 is 4), or at once (the optimal trees of
# twod 5 and the word game take 5 guesses, and others of the same total 4).
REVIEWED = [(name, None) for name in GAMES] + [("mastermind-3x3", 4), ("mastermind-2x4", 4),
                                                ("mastermind-4x3-distinct", 4), ("bulls-cows-3of4", 4), ("twod-5", 4),
                                                ("words", 4), ("words-hard", 5)]
GAMES_PER_CASE = 20
HALF_UNIT = 0.00005 + 1e-9  # a figure rounded to 4 decimals is this close to the exact one


@cache
def game_named(name: str):
    kind, params = GAMES[name][0]
    return make_game(kind, **params)


@cache
def oracle_of(name: str) -> Oracle:
    return Oracle(game_named(name))  # one memo per game, across histories and depth limits


def random_history(oracle: Oracle, rng: random.Random, max_depth: int | None) -> list:
    """A game against a random secret: each guess the canonical optimal one or a random guess the
    game allows, up to a random length (the game may be unfinished). With a depth limit, a guess
    after which the game cannot be won within it ends the history."""
    game = oracle.game
    secret = rng.choice(game.secrets)
    length = rng.randint(1, max_depth or 6)
    position, history = oracle.root(max_depth), []
    while len(history) < length:
        allowed = game.guesses_after(history)
        code = oracle.guesses[oracle.choice(position)] if rng.random() < 0.4 else rng.choice(allowed)
        feedback = game.score(code, secret)
        history.append((code, feedback))
        if feedback == game.win or oracle.total(position, oracle.index[code]) is None:
            break
        position = oracle.after(position, oracle.index[code], feedback)
    return history


def as_text(game, history) -> list[tuple[str, str]]:
    return [(game.format_code(code), game.format_feedback(feedback)) for code, feedback in history]


def said(game, history) -> str:
    return " ".join(f"{guess} {feedback}" for guess, feedback in as_text(game, history))


def implementation(game, history, max_depth, tree=None):
    from guesstree.compiler.review import review  # the implementation under test, imported where it is judged

    return review(game, as_text(game, history), max_depth=max_depth, tree=tree).to_dict()


# -- comparing the figures ----------------------------------------------------------------------
def exact_pair(value):
    """An exact total as an interval; a position no strategy wins within the limit has no ends."""
    return [None, None] if value is None else [value, value]


def close(got, exact: Fraction) -> bool:
    """``got``, an interval of rounded figures, is the exact value ``exact`` to 4 decimals."""
    return (isinstance(got, list) and len(got) == 2 and all(isinstance(end, (int, float)) for end in got)
            and all(abs(end - exact) <= HALF_UNIT for end in got))


def unbounded(got) -> bool:
    """A figure the game cannot have (the guess leaves a part that cannot be won within the limit):
    null, or an interval with no upper end."""
    return got is None or (isinstance(got, list) and len(got) == 2 and got[1] is None)


def disagreements(game, move: Move, got: dict, partial_best: bool = False) -> list[str]:
    """Each figure of one move where the implementation (``got``, its JSON) and the oracle differ.
    ``partial_best``: ``best`` may be incomplete (``best_complete`` false, as where a tree gave it),
    and then some of the best guesses."""
    complete = got.get("best_complete") if partial_best else True
    exact = {"step": move.step, "guess": move.guess, "feedback": game.format_feedback(move.feedback),
             "candidates": move.candidates, "left": move.left, "best_total": exact_pair(move.best_total),
             "left_total": exact_pair(move.left_total), "best_complete": complete, "best_worst": move.best_worst,
             "verdict": move.verdict, "exact": True}
    rounded = {"best_expected": move.best_expected}
    if move.total is None:  # the guess cannot win every secret within the limit
        unknown = ("total", "expected", "loss", "luck", "worst")
    else:
        unknown = ()
        exact.update(total=exact_pair(move.total), worst=move.worst)
        rounded.update(expected=move.expected, loss=move.loss, luck=move.luck)
    if move.best_total is None:  # nor can any guess
        del rounded["best_expected"]
        unknown += ("best_expected",)
    found = [f"{key}: oracle {value!r}, implementation {got.get(key, '(missing)')!r}"
             for key, value in exact.items() if got.get(key, "(missing)") != value]
    found += [f"{key}: oracle {float(value):.6f} ({value}), implementation {got.get(key, '(missing)')!r}"
              for key, value in rounded.items() if not close(got.get(key), value)]
    found += [f"{key}: oracle none (the guess cannot win within the limit), implementation {got.get(key)!r}"
              for key in unknown if not unbounded(got.get(key))]
    listed = set(got.get("best") or [])
    if listed != set(move.best) and not (complete is False and listed and listed < set(move.best)):
        found.append(f"best: oracle {sorted(move.best)}, implementation {got.get('best')!r}")
    return [f"step {move.step} ({move.guess}) {line}" for line in found]


def summary_disagreements(moves: list[Move], start: Fraction | None, got: dict) -> list[str]:
    exact = summary(moves, start)
    found = [f"summary {key}: oracle {exact[key]!r}, implementation {got.get(key)!r}"
             for key in ("guesses", "won") if got.get(key) != exact[key]]
    counts = {name: count for name, count in (got.get("verdicts") or {}).items() if count}
    if counts != exact["verdicts"]:
        found.append(f"summary verdicts: oracle {exact['verdicts']}, implementation {got.get('verdicts')!r}")
    for key, slack in (("loss", len(moves)), ("luck", len(moves)), ("expected_start", 1)):
        value = exact[key]
        ok = unbounded(got.get(key)) if value is None else close_within(got.get(key), value, slack)
        if not ok:
            found.append(f"summary {key}: oracle {value if value is None else float(value)}, implementation {got.get(key)!r}")
    return found


def close_within(got, exact: Fraction, moves: int) -> bool:
    """A sum of ``moves`` figures each rounded to 4 decimals (or the sum rounded once)."""
    return (isinstance(got, list) and len(got) == 2 and all(isinstance(end, (int, float)) for end in got)
            and all(abs(end - exact) <= HALF_UNIT * moves for end in got))


def review_disagreements(name: str, history, max_depth, tree=None, asked: int | None = None) -> list[str]:
    """Every disagreement of the review of ``history`` within ``max_depth`` with the oracle's; by
    ``tree`` too, if given (then ``best`` may be the tree's guess alone, said incomplete), the
    review asked for ``asked`` (None: the tree's own limit)."""
    game = game_named(name)
    moves = oracle_review(game, history, max_depth, oracle_of(name))
    got = implementation(game, history, max_depth if tree is None else asked, tree)
    top = {"game": game.title(), "max_depth": max_depth, "source": "exact search", "exact": True, "missing": None}
    found = [f"{key}: expected {value!r}, implementation {got.get(key)!r}" for key, value in top.items()
             if got.get(key) != value]
    if len(got.get("moves", [])) != len(moves):
        return found + [f"{len(got.get('moves', []))} moves reviewed, not {len(moves)}"]
    for move, reviewed in zip(moves, got["moves"]):
        found += disagreements(game, move, reviewed, partial_best=tree is not None)
    found += summary_disagreements(moves, oracle_start(oracle_of(name), max_depth), got.get("summary") or {})
    where = f"{name}, max depth {max_depth}, history {said(game, history)}"
    return [f"{where}: {line}" for line in found]


# -- guesstree review against the oracle ------------------------------------------------------------
@pytest.mark.parametrize("name, max_depth", REVIEWED, ids=lambda v: v if isinstance(v, str) else f"depth{v}")
def test_every_figure_of_random_games_is_the_exhaustive_one(name, max_depth):
    oracle = oracle_of(name)
    rng = random.Random(f"{name} {max_depth}")
    found = []
    for _ in range(GAMES_PER_CASE):
        found += review_disagreements(name, random_history(oracle, rng, max_depth), max_depth)
    assert not found, f"{len(found)} disagreements:\n" + "\n".join(found)


def moves_of(name: str, text: str) -> list:
    game = game_named(name)
    words = text.split()
    return [(game.parse_code(guess), game.parse_feedback(feedback)) for guess, feedback in zip(words[::2], words[1::2])]


# Histories chosen for what they hold: a win at once, a guess that tells nothing (no split, no
# candidate), a hard-mode trap, unfinished games, a guess after which the depth limit cannot be kept.
CHOSEN = [
    ("mastermind-3x3", "", None),  # no move yet: the summary's expected start alone
    ("mastermind-3x3", "AAB 1B0W", 3),  # no strategy wins every secret within 3
    ("mastermind-3x3", "AAB 3B0W", None),  # won at once: luck is all of the average
    ("mastermind-3x3", "AAB 0B0W CCC 3B0W", None),
    ("mastermind-3x3", "AAA 1B0W AAA 1B0W ABB 2B0W", None),  # AAA again splits nothing: a wasted guess
    ("mastermind-3x3", "AAA 1B0W AAA 1B0W", 4),  # ... after which 12 secrets cannot be won within 2 guesses
    ("mastermind-3x3", "BBB 0B0W AAA 1B0W", 4),
    ("mastermind-2x4", "ABAB 2B2W BAAB 2B2W", None),
    ("bulls-cows-3of4", "012 0A3B 120 0A3B", None),
    ("words", "crane -Y-G- mulch -Y--- round GGGGG", None),
    ("words", "swamp --YY-", None),  # 57 against 56 over 20 secrets: a loss of 0.05 exactly, an inaccuracy
    ("words-hard", "crane ----- fight -GGGG light -GGGG", None),  # IGHT kept: a guess at a time
    ("words-hard", "match -GGGG watch -GGGG batch -GGGG", None),
    ("words-hard", "match -GGGG", 5),  # 7 words of -ATCH, one at a time: not within 5
    ("words", "fresh ----Y stray -Y---", 4),
]


@pytest.mark.parametrize("name, moves, max_depth", CHOSEN)
def test_chosen_games_are_reviewed_exactly(name, moves, max_depth):
    history = moves_of(name, moves)
    found = review_disagreements(name, history, max_depth)
    assert not found, "\n".join(found)


# (game, strategy, its max depth, first guess, the review's max depth): optimal trees, which settle
# what they reach (their root's total is T* only without a first guess of their own; a tree built
# without a limit counts under one only where its subtree fits it), and a heuristic one, which does
# not. The review's depth: None, the tree's own (the default).
REVIEW_TREES = [("mastermind-3x3", "optimal-expected", None, None, None),
                ("mastermind-3x3", "optimal-expected", None, "BCA", None),
                ("mastermind-3x3", "optimal-expected", None, None, 4),
                ("words-hard", "optimal-expected", None, None, None), ("twod-5", "optimal-expected", 4, None, None),
                ("words", "optimal-expected", None, None, 4),  # the tree takes 5 at worst; another of its total, 4
                ("words", "optimal-expected", None, None, 5),
                ("bulls-cows-3of4", "entropy", None, None, None)]


@cache
def built_tree(name: str, strategy: str, max_depth: int | None, first: str | None):
    from guesstree import compiler, player

    options = compiler.Options(strategy, max_depth=max_depth, first=first)
    return player.loads(compiler.to_bytes(compiler.build(game_named(name), options)))


@pytest.mark.parametrize("name, strategy, built, first, max_depth", REVIEW_TREES)
def test_a_review_with_a_tree_keeps_every_figure_exact(name, strategy, built, first, max_depth):
    """Given a tree, the review takes what it settles and searches the rest: the figures are the
    oracle's, within the review's depth limit (by default the tree's own)."""
    tree, oracle = built_tree(name, strategy, built, first), oracle_of(name)
    depth = built if max_depth is None else max_depth
    rng = random.Random(f"{name} {strategy} {first} {max_depth}")
    found = []
    for _ in range(GAMES_PER_CASE // 2):
        found += review_disagreements(name, random_history(oracle, rng, depth), depth, tree, max_depth)
    assert not found, f"{len(found)} disagreements:\n" + "\n".join(found)


@pytest.mark.parametrize("name", ["words", "words-hard"])
def test_a_review_with_a_tree_proves_every_best_first_guess(name):
    """With the compiler's install the search proves which first guesses tie with the tree's
    (docs/tutorials/review.md: "the search alone proves which others tie"): on a game this small,
    all of them, said complete."""
    game, oracle = game_named(name), oracle_of(name)
    tree = built_tree(name, "optimal-expected", None, None)
    history = [(tree.guess_of(0), game.score(tree.guess_of(0), game.secrets[0]))]
    got = implementation(game, history, None, tree)["moves"][0]
    best = [game.format_code(oracle.guesses[g]) for g in oracle.best_guesses(oracle.root())]
    assert (got["best"], got["best_complete"]) == (best, True)


# -- bounds: the player's install, and a search out of time --------------------------------------------
VERDICT_ORDER = ("best", "good", "inaccuracy", "mistake")


def verdicts_said(text: str) -> tuple[int, int]:
    """The bands a verdict names, as indices of VERDICT_ORDER: "good", "good to mistake", "good or worse"."""
    if text.endswith(" or worse"):
        return VERDICT_ORDER.index(text.removesuffix(" or worse")), len(VERDICT_ORDER) - 1
    low, _, high = text.partition(" to ")
    return VERDICT_ORDER.index(low), VERDICT_ORDER.index(high or low)


def holds(got, exact) -> bool:
    """The interval ``got`` holds the exact value (None: the game cannot be won within the limit,
    a total beyond every bound, which only an interval without an upper end holds)."""
    if not (isinstance(got, list) and len(got) == 2):
        return False
    low, high = got
    if exact is None:
        return high is None
    return (low is None or low <= exact + HALF_UNIT) and (high is None or exact <= high + HALF_UNIT)


def bound_disagreements(game, move: Move, got: dict) -> list[str]:
    """Each figure of one move whose bounds (``got``) do not hold the oracle's exact value; an
    exact figure must be the oracle's, a worst case given the oracle's, best guesses some of the
    best (all where complete)."""
    found = [f"{key}: oracle {value!r}, implementation {got.get(key)!r}"
             for key, value in {"step": move.step, "guess": move.guess, "candidates": move.candidates,
                                "left": move.left}.items() if got.get(key) != value]
    figures = {"total": move.total, "best_total": move.best_total, "left_total": move.left_total,
               "expected": move.expected, "best_expected": move.best_expected, "loss": move.loss, "luck": move.luck}
    for key, value in figures.items():
        if move.total is None and key == "luck":
            continue  # nothing to hold: no average answer to the guess within the limit
        if not holds(got.get(key), value):
            found.append(f"{key}: oracle {value if value is None else float(value)}, implementation {got.get(key)!r}")
    low, high = verdicts_said(got["verdict"])
    if not low <= VERDICT_ORDER.index(move.verdict) <= high:
        found.append(f"verdict: oracle {move.verdict}, implementation {got['verdict']!r}")
    for key, value in (("worst", move.worst), ("best_worst", move.best_worst)):
        if got.get(key) is not None and got.get(key) != value:
            found.append(f"{key}: oracle {value}, implementation {got.get(key)!r}")
    listed = set(got.get("best") or [])
    if not listed <= set(move.best) or (got.get("best_complete") and listed != set(move.best)):
        found.append(f"best: oracle {sorted(move.best)}, implementation {got.get('best')!r} "
                     f"(complete: {got.get('best_complete')})")
    exact = got.get("exact") and all(got[key][0] == got[key][1] for key in ("total", "best_total", "left_total"))
    if got.get("exact") and not exact:
        found.append(f"exact: said, but the totals are {got['total']}, {got['best_total']}, {got['left_total']}")
    return [f"step {move.step} ({move.guess}) {line}" for line in found]


def bounds_hold(name: str, history, max_depth, got: dict) -> tuple[list[str], int]:
    """The disagreements of a review's bounds with the oracle, and how many of its moves it says exact."""
    game = game_named(name)
    moves = oracle_review(game, history, max_depth, oracle_of(name))
    if len(got["moves"]) != len(moves):
        return [f"{len(got['moves'])} moves reviewed, not {len(moves)}"], 0
    found = [line for move, reviewed in zip(moves, got["moves"]) for line in bound_disagreements(game, move, reviewed)]
    where = f"{name}, max depth {max_depth}, history {said(game, history)}"
    return [f"{where}: {line}" for line in found], sum(bool(reviewed["exact"]) for reviewed in got["moves"])


@pytest.mark.parametrize("name, strategy, built, first, max_depth", REVIEW_TREES)
def test_the_players_review_from_a_tree_holds_the_exact_figures(name, strategy, built, first, max_depth):
    """The player's install (``player.review``: the tree, the book, counting): every interval holds
    the exact figure, every figure it says exact is, and an optimal tree makes some moves exact."""
    from guesstree.player.review import review

    game, tree, oracle = game_named(name), built_tree(name, strategy, built, first), oracle_of(name)
    depth = built if max_depth is None else max_depth
    rng = random.Random(f"player {name} {strategy} {first} {max_depth}")
    found, exact = [], 0
    for _ in range(GAMES_PER_CASE):
        history = random_history(oracle, rng, depth)
        got = review(tree, as_text(game, history), max_depth).to_dict()
        assert got["max_depth"] == depth and got["source"] == "tree and book"
        wrong, said_exact = bounds_hold(name, history, depth, got)
        found, exact = found + wrong, exact + said_exact
    assert not found, f"{len(found)} disagreements:\n" + "\n".join(found)
    assert exact > 0 or strategy != "optimal-expected"  # the tree settled some moves


@pytest.mark.parametrize("name, max_depth", [("mastermind-3x3", None), ("words-hard", None), ("twod-5", 4)])
def test_a_search_out_of_time_keeps_bounds_that_hold(name, max_depth):
    """With no time to search, the review keeps the bounds of counting (and of a tree, if given):
    they hold the exact figures."""
    from guesstree.compiler.review import review

    game, oracle = game_named(name), oracle_of(name)
    rng = random.Random(f"late {name}")
    found, exact, moves = [], 0, 0
    for _ in range(GAMES_PER_CASE // 2):
        history = random_history(oracle, rng, max_depth)
        got = review(game, as_text(game, history), max_depth=max_depth, seconds=1e-9).to_dict()
        wrong, said_exact = bounds_hold(name, history, max_depth, got)
        found, exact, moves = found + wrong, exact + said_exact, moves + len(history)
    assert not found, f"{len(found)} disagreements:\n" + "\n".join(found)
    assert exact < moves  # bounds were given, not only figures that counting settles


# -- the command line ------------------------------------------------------------------------------
COMMANDS = [("mastermind-3x3", "AAA 1B0W AAA 1B0W ABB 2B0W", None), ("mastermind-3x3", "BBB 0B0W AAA 1B0W", 4),
            ("mastermind-4x3-distinct", "AAB 0B1W", None), ("twod-5", "2,2 <= 1,1 >=", 4),
            ("words-hard", "crane ----- fight -GGGG light -GGGG", None), ("words", "fresh ----Y stray -Y---", 4)]


def review_command(cli, name: str, moves: str, *options: str):
    return cli("review", *GAMES[name][1], *options, "--", *moves.split())


@pytest.mark.parametrize("name, moves, max_depth", COMMANDS)
def test_the_command_prints_the_librarys_figures(cli, name, moves, max_depth):
    depth = [] if max_depth is None else ["--max-depth", str(max_depth)]
    result = review_command(cli, name, moves, *depth, "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == implementation(game_named(name), moves_of(name, moves), max_depth)


@pytest.mark.parametrize("name, moves, max_depth", [("words-hard", "crane ----- fight -GGGG light -GGGG", None),
                                                     ("words", "fresh ----Y stray -Y---", 4)])
def test_the_command_reviews_with_a_tree_file(cli, tmp_path, name, moves, max_depth):
    """``guesstree review TREE``: the tree's game, its facts, and every figure the oracle's."""
    from guesstree import compiler

    game = game_named(name)
    path = compiler.save(compiler.build(game, compiler.Options("optimal-expected")), tmp_path / "tree.msgpack.zst")
    depth = [] if max_depth is None else ["--max-depth", str(max_depth)]
    result = cli("review", path, *depth, "--json", "--", *moves.split())
    assert result.exit_code == 0, result.output
    got = json.loads(result.stdout)
    assert got["tree"] and got["tree"] in str(path) and got["max_depth"] == max_depth  # the tree named
    oracle_moves = oracle_review(game, moves_of(name, moves), max_depth, oracle_of(name))
    found = [line for move, reviewed in zip(oracle_moves, got["moves"], strict=True)
             for line in disagreements(game, move, reviewed, partial_best=True)]
    assert not found, "\n".join(found)


def test_a_history_no_secret_fits_is_refused_at_its_first_impossible_step(cli, clean_error):
    line = clean_error(review_command(cli, "mastermind-3x3", "AAA 1B0W AAA 2B0W ABC 0B0W", "--json"), code=2)
    assert "step 2" in line


HARD_TRAP = "crane ----- fight -GGGG sound ----- light -GGGG"  # SOUND drops the IGHT that FIGHT revealed in place


def test_a_guess_hard_mode_forbids_is_refused_by_name(cli, clean_error):
    """As ``play`` refuses it: "SOUND cannot be played here (hard mode: ...)", at its step."""
    line = clean_error(review_command(cli, "words-hard", HARD_TRAP, "--json"), code=2)
    assert "sound" in line.casefold() and "hard mode" in line and "step 3" in line


def test_hard_mode_s_rule_holds_even_with_any_guess(cli, clean_error):
    """--any-guess takes a word outside the lists, never a guess hard mode forbids: the game itself
    does not let it be played (as ``play`` does not)."""
    line = clean_error(review_command(cli, "words-hard", HARD_TRAP, "--any-guess", "--json"), code=2)
    assert line.startswith("error: step 3: SOUND cannot be played here (hard mode: ")


# -- the oracle itself -------------------------------------------------------------------------------
@pytest.mark.parametrize("name, params, max_depth, total, first, worst", [
    ("mastermind", {"colours": 3, "holes": 3}, None, 73, "AAB", 4),  # trees/RECORDS.md, Goddard 2004
    ("mastermind", {"colours": 2, "holes": 4}, None, 44, "AAAB", 4),  # trees/RECORDS.md, Goddard 2004
    ("bulls-cows", {"digits": 4, "length": 2}, None, 30, "01", 3),  # trees/RECORDS.md, Chen and Lin 2004
    ("twod", {"size": 7}, None, 191, None, 6),  # tests/test_optimal.py: the depth limit costs 2 guesses
    ("twod", {"size": 7}, 5, 193, None, 5),
])
def test_the_oracle_finds_the_published_optimum(name, params, max_depth, total, first, worst):
    game = make_game(name, **params)
    oracle = Oracle(game)
    root = oracle.root(max_depth)
    assert oracle.best_total(root) == total
    assert oracle.depth(root) == worst
    if first is not None:
        assert game.format_code(oracle.guesses[oracle.choice(root)]) == first


def test_the_oracle_ranks_the_openers_of_mastermind_3x3_as_rank_openers_does():
    """compiler/exact.py: ``rank_openers(make_game("mastermind", colours=3, holes=3), top=2)`` gives AAB
    73 and ABC 80 (one opener per class of symmetry: 18 openers of total 73 in all)."""
    game = game_named("mastermind-3x3")
    oracle = oracle_of("mastermind-3x3")
    root = oracle.root()
    totals = {game.format_code(code): oracle.total(root, i) for i, code in enumerate(game.guesses)}
    assert (totals["AAB"], totals["ABC"], totals["AAA"]) == (73, 80, 86)
    assert sorted(set(totals.values())) == [73, 80, 86]
    assert oracle.best_guesses(root) == [i for i, code in enumerate(game.guesses) if len(set(code)) == 2]


def walk(tree, node: int = 0, history=()):
    """Each node of a tree with the history that reaches it."""
    yield node, list(history)
    guess = tree.guess_of(node)
    for feedback, child in tree.edges(node):
        yield from walk(tree, child, (*history, (guess, feedback)))


def subtree(tree, history) -> tuple[int, int]:
    """The total and the depth of the subtree that ``history`` reaches: over the secrets still
    possible there, the guesses the tree takes from there to win each."""
    lengths = [len(tree.path(secret)) - len(history) for secret in candidates(tree.game, history)]
    return sum(lengths), max(lengths)


# (game, max depth, first guess, ties): the compiler's optimal trees, and trees after a first
# guess of our own whose nodes hold positions where the lowest best guess is not the canonical
# one (a possible secret comes first) and has another depth (``ties``: that many such nodes).
TREES = [("mastermind-3x3", None, None, 0), ("mastermind-2x4", None, None, 0), ("bulls-cows-3of4", None, None, 0),
         ("words", None, None, 0), ("words", 4, None, 0), ("words-hard", None, None, 0),
         ("mastermind-3x3", None, "BCA", 2), ("mastermind-2x4", None, "AAAA", 1), ("bulls-cows-3of4", None, "021", 1),
         ("words", None, "found", 1), ("words-hard", None, "fight", 0), ("mastermind-4x3-distinct", None, None, 0),
         ("mastermind-4x3-distinct", None, "ABC", 3)]


@pytest.mark.parametrize("name, max_depth, first, ties", TREES)
def test_the_oracle_plays_the_compilers_optimal_tree(name, max_depth, first, ties):
    """At every node of the tree ``optimal-expected`` builds (below its first guess, where that is
    ours), the oracle's canonical guess is the tree's, its least total the subtree's and its depth
    the subtree's (hard mode too: the oracle's guesses allowed are the game's)."""
    from guesstree import compiler, player

    game, oracle = game_named(name), oracle_of(name)
    options = compiler.Options("optimal-expected", max_depth=max_depth, first=first)
    tree = player.loads(compiler.to_bytes(compiler.build(game, options)))
    nodes, differ = 0, 0
    for node, history in walk(tree):
        position = oracle.following(history, max_depth)
        if history or first is None:
            assert oracle.guesses[oracle.choice(position)] == tree.guess_of(node), said(game, history)
            assert (oracle.best_total(position), oracle.depth(position)) == subtree(tree, history), said(game, history)
            differ += oracle.choice(position) != oracle.best_guesses(position)[0]
        nodes += 1
    assert nodes == tree.nodes
    assert differ == ties


def test_the_oracle_allows_what_hard_mode_allows():
    game, oracle = game_named("words-hard"), oracle_of("words-hard")
    rng = random.Random(4)
    for _ in range(40):
        history = random_history(oracle, rng, None)
        for end in range(len(history) + 1):
            allowed = oracle.following(history[:end]).allowed
            assert allowed == {oracle.index[code] for code in game.guesses_after(history[:end])}, said(game, history)
    assert len(oracle.following(moves_of("words-hard", "crane ----- fight -GGGG")).allowed) == 7  # the -IGHT words


@pytest.mark.parametrize("name", ["mastermind-3x3", "words-hard"])
def test_luck_averages_to_nothing_and_the_best_guesses_lose_nothing(name):
    """Over the secrets a guess leaves, its luck averages to 0 (T(g) is n plus the parts' T*), and
    every guess of ``best`` has loss 0 and the verdict best, every other a loss above 0."""
    oracle = oracle_of(name)
    rng = random.Random(name)
    for _ in range(10):
        history = random_history(oracle, rng, None)
        position = oracle.following(history[:-1])
        best = set(oracle.best_guesses(position))
        for guess in oracle.allowed_guesses(position):
            moves = [Move(oracle, 1, position, guess, feedback) for feedback in oracle.parts(guess, position.candidates)]
            assert sum(move.luck * max(move.left, 1) for move in moves) == 0
            assert all((move.verdict == "best") == (guess in best) == (move.loss == 0) for move in moves)


def test_the_verdicts_bands():
    assert [verdict(Fraction(k, 100)) for k in (0, 1, 4, 5, 19, 20, 150)] == \
        ["best", "good", "good", "inaccuracy", "inaccuracy", "mistake", "mistake"]
    assert verdict(None) == "mistake"

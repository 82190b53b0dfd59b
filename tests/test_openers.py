"""Which first guess is best (``guesstree openers``, compiler/search/ranking.py): the ranking is
what ``compile --first X --strategy optimal-expected`` proves for every X, and every first guess
it counts out truly ranks below the K-th."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from guesstree import compiler
from guesstree.compiler.options import Options
from guesstree.compiler.exact import rank_of, rank_openers
from guesstree.compiler.search.standings import BOUND, SEARCH
from guesstree.compiler.workers.settings import SearchSettings
from guesstree.player.games import make_game

ONE_THREAD = SearchSettings(workers=1)  # a search on this thread alone

DATA = Path(__file__).parent / "data"
WORDLE = DATA / "wordle"
SMALL_WORDS = {"answers": str(DATA / "words-small.txt")}


def compiled(game, code: str, max_depth: int | None = None) -> tuple[int, int]:
    """(total, worst) of the tree ``compile --first code --strategy optimal-expected`` builds."""
    built = compiler.build(game, Options(strategy="optimal-expected", first=code, max_depth=max_depth))
    return built.stats["total"], built.stats["worst"]


def pattern(code: tuple) -> tuple:
    """A Mastermind code's symmetry class at the root: how often each of its colours repeats."""
    return tuple(sorted(Counter(code).values()))


def truly_below(total: int, guess: int, kth: tuple[int, int]) -> bool:
    """Does a first guess of this exact total rank after the K-th (its total, its guess index)?"""
    return (total, guess) > kth


@pytest.mark.parametrize("colours, holes, expected, max_depth", [
    (3, 3, [("AAB", 73, 4), ("ABC", 80, 4), ("AAA", 86, 4)], None),
    pytest.param(4, 3, [("AAB", 206, 4), ("ABC", 208, 4), ("AAA", 233, 5)], None, marks=pytest.mark.slow),
    pytest.param(4, 3, [("AAB", 206, 4), ("ABC", 208, 4)], 4, marks=pytest.mark.slow),  # no tree opening with AAA wins every secret within 4
])
def test_every_mastermind_first_guess_has_the_total_compile_proves(colours, holes, expected, max_depth):
    """One first guess per symmetry class, ranked; every code of the game, compiled with it as
    the first guess, proves the total and worst case of its class (or that no tree fits the depth)."""
    game = make_game("mastermind", colours=colours, holes=holes)
    ranking = rank_openers(game, top=3, max_depth=max_depth)
    assert [(o.code, o.total, o.worst) for o in ranking.best] == expected
    assert ranking.by_class and len(ranking.openers) == 3 and ranking.kth == expected[-1][1]
    by_class = {pattern(game.parse_code(code)): (total, worst) for code, total, worst in expected}
    for code in game.guesses:
        if pattern(code) in by_class:
            assert compiled(game, game.format_code(code), max_depth) == by_class[pattern(code)], code
        else:
            with pytest.raises(ValueError, match="no tree opening with"):
                compiled(game, game.format_code(code), max_depth)


@pytest.mark.parametrize("name, params, top", [
    ("words", SMALL_WORDS, 3),
    ("twod", {"size": 7}, 5),
    ("words", {"answers": str(DATA / "words-ight.txt"), "guesses": str(DATA / "words-ight-guesses.txt")}, 2),
    ("words", {**SMALL_WORDS, "hard": True}, 3),
    ("words", {"answers": str(DATA / "words-ight.txt"), "guesses": str(DATA / "words-ight-guesses.txt"),
               "hard": True}, 2),
])
def test_the_ranking_is_what_compile_proves_for_every_first_guess(name, params, top):
    """The K best have the totals and worst cases of their compiled trees, in order (ties by the
    canonical guess order), and every other first guess, compiled, ranks below the K-th. In hard
    mode too, where a first guess's parts are bounded by their lookahead over every guess (hard
    mode allows fewer, so the bound holds)."""
    game = make_game(name, **params)
    ranking = rank_openers(game, top=top)
    truth = {i: compiled(game, game.format_code(code)) for i, code in enumerate(game.guesses)}
    keys = sorted((total, i) for i, (total, _) in truth.items())
    assert [(o.guess, o.total, o.worst) for o in ranking.best] == [(i, t, truth[i][1]) for t, i in keys[:top]]
    assert len(ranking.openers) == len(game.guesses) and not ranking.by_class
    kth = keys[top - 1]
    ranked = {o.guess for o in ranking.best}
    for opener in ranking.openers:
        if opener.guess in ranked:
            continue
        assert truly_below(truth[opener.guess][0], opener.guess, kth), opener
        if opener.total is not None:
            assert opener.total == truth[opener.guess][0]  # exact (a search, or parts too small to need one)
        else:
            assert opener.at_least <= truth[opener.guess][0]  # a true lower bound
            assert (opener.at_least, opener.guess) > (kth[0] - 1, kth[1])  # that puts it below the K-th
    every = rank_openers(game, top=len(game.guesses))
    assert [(o.guess, o.total) for o in every.best] == [(i, t) for t, i in keys]


def test_hard_mode_lookahead_bounds_refute_soundly(tmp_path, monkeypatch):
    """Hard mode: a first guess's parts get lookahead bounds over every guess (hard mode allows
    fewer, so each bound holds), which refute more first guesses than counting alone; the K best
    are those the ranking without lookahead finds, and every bound is at most the true total."""
    import random

    from guesstree.compiler.search import ranking as openers

    hidden = (WORDLE / "wordlist_orig_hidden").read_text().split()[::23][:100]
    guesses = sorted(set((WORDLE / "wordlist_orig_all").read_text().split()[::43][:300]) | set(hidden))
    (tmp_path / "answers.txt").write_text("\n".join(hidden) + "\n")
    (tmp_path / "guesses.txt").write_text("\n".join(guesses) + "\n")
    game = make_game("words", answers=str(tmp_path / "answers.txt"), guesses=str(tmp_path / "guesses.txt"), hard=True)
    ranking = rank_openers(game, top=3)
    monkeypatch.setattr(openers, "LOOKAHEAD_MIN", 1 << 30)
    counting = rank_openers(game, top=3)
    assert [(o.guess, o.total, o.worst) for o in ranking.best] == [(o.guess, o.total, o.worst) for o in counting.best]
    assert ranking.refuted()[BOUND] > counting.refuted()[BOUND]
    bounded = [o for o in ranking.openers if o.total is None]
    for opener in random.Random(3).sample(bounded, 8):
        assert opener.at_least <= compiled(game, opener.code)[0], opener


@pytest.mark.slow
def test_the_full_proofs_header_says_how_its_first_guesses_were_refuted_the_same_in_every_run(tmp_path):
    """``compile`` with no ``--first`` on twod 7 (49 first guesses, the openers' ranking searches its
    root): the header counts the first guesses refuted by a bound alone (those whose counting and
    lookahead bound is at least the optimum, tie-break included) and by search, the same on one
    thread and on two, with a warm table or not; every bound is at most the first guess's total."""
    from guesstree.compiler.exact import solver_of
    from guesstree.compiler.builder.writer import to_bytes
    from guesstree.compiler.search.ranking import lookahead_total
    from guesstree.compiler.workers.settings import SearchSettings
    from guesstree.compiler.search.table import UNLIMITED

    game = make_game("twod", size=7)
    path = tmp_path / "proof.checkpoint"
    builds = [compiler.build(game, Options(strategy="optimal-expected"), search=SearchSettings(**settings))
              for settings in ({"workers": 1}, {"workers": 2, "checkpoint": path},
                               {"workers": 2, "checkpoint": path, "resume": True})]  # the last one's table warm
    assert len({to_bytes(built) for built in builds}) == 1
    proof = builds[0].proof
    truth = {i: compiled(game, game.format_code(code))[0] for i, code in enumerate(game.guesses)}
    best = min(truth, key=lambda i: (truth[i], game.guesses[i] not in game.secrets, i))
    assert builds[0].node_guess[0] == best
    space = solver_of(game, search=ONE_THREAD).space
    root = np.arange(space.n_secrets, dtype=np.int64)
    by_bound = 0
    for i in truth:
        if i == best:
            continue
        bound = lookahead_total(space, i, root, UNLIMITED)
        assert bound <= truth[i]
        key_before = (game.guesses[i] not in game.secrets, i) < (game.guesses[best] not in game.secrets, best)
        by_bound += bound >= truth[best] + key_before
    assert proof["minimum_total"] == truth[best] == 191
    assert (proof["first_guesses"], proof["first_guesses_by_class"]) == (49, False)
    assert (proof["refuted_by_bound"], proof["refuted_by_search"]) == (by_bound, 48 - by_bound)
    assert 0 < proof["refuted_by_search"] < 48
    assert f"of the 49 first guesses, {by_bound} are refuted by a bound alone" in proof["proven"]


def test_small_words_ranking_and_how_each_was_settled():
    ranking = rank_openers(make_game("words", **SMALL_WORDS), top=5)
    assert [(o.code, o.total, o.worst) for o in ranking.best] == [
        ("SLATE", 42, 3), ("TEARS", 42, 3), ("CRANE", 43, 3), ("CRATE", 43, 3), ("REACT", 43, 3)]
    assert ranking.refuted() == {BOUND: 15, SEARCH: 0}
    assert sum(ranking.refuted().values()) + len(ranking.best) == len(ranking.openers) == 20


def test_twod_seven_needs_searches_to_refute_some_first_guesses():
    ranking = rank_openers(make_game("twod", size=7), top=5, search=ONE_THREAD)
    assert [(o.code, o.total) for o in ranking.best] == [("2,4", 191), ("4,2", 191), ("1,4", 192), ("2,3", 192),
                                                          ("2,5", 192)]
    refuted = ranking.refuted()
    assert refuted[SEARCH] > 0 and refuted[BOUND] > 0 and sum(refuted.values()) == 44


def test_the_ranking_does_not_depend_on_the_number_of_workers():
    game = make_game("mastermind", colours=5, holes=3)
    one, two = (rank_openers(game, top=3, search=ONE_THREAD),
                rank_openers(game, top=3, search=SearchSettings(workers=2)))
    assert [(o.code, o.total, o.worst) for o in one.best] == [(o.code, o.total, o.worst) for o in two.best]


def test_one_first_guess_and_its_exact_rank():
    game = make_game("twod", size=7)
    found = rank_of(game, "3,3")
    assert (found.opener.code, found.opener.total, found.opener.worst) == ("3,3", 193, 6)
    assert compiled(game, "3,3") == (193, 6)
    truth = sorted((compiled(game, game.format_code(code))[0], i) for i, code in enumerate(game.guesses))
    rank = truth.index((193, game.guesses.index(game.parse_code("3,3")))) + 1
    assert (found.rank, found.first_guesses, found.by_class) == (rank, 49, False)
    assert [(o.total, o.guess) for o in found.better] == truth[:rank - 1]
    assert sum(found.refuted.values()) == 49 - rank
    best = rank_of(game, "2,4")
    assert (best.opener.total, best.rank, best.better) == (191, truth.index((191, best.opener.guess)) + 1, [])


@pytest.mark.parametrize("first, total, rank, stands_for", [
    ("AABC", 905, 1, None), ("ABAC", 905, 1, "AABC"), ("CBCA", 905, 1, "AABC"), ("ABBA", 912, 2, "AABB"),
    ("BABB", 932, 3, "AAAB"), ("DCBA", 954, 4, "ABCD"), ("DDDD", 1035, 5, "AAAA")])
def test_a_first_guess_ranks_with_its_symmetry_class(first, total, rank, stands_for):
    """Mastermind 4x4 has 5 classes of first guesses (``openers --top 5``: AABC 905, AABB 912, AAAB
    932, ABCD 954, AAAA 1035): any member of a class ranks as the class, and the count is of classes."""
    found = rank_of(make_game("mastermind", colours=4, holes=4), first)
    assert (found.opener.total, found.rank, found.first_guesses, found.by_class) == (total, rank, 5, True)
    assert found.stands_for == stands_for and len(found.better) == rank - 1


def test_a_ranking_resumes_from_its_checkpoint(tmp_path):
    game = make_game("mastermind", colours=4, holes=4)
    path = tmp_path / "openers.checkpoint"
    first = rank_openers(game, top=2, search=SearchSettings(workers=1, checkpoint=path))
    assert [(o.code, o.total) for o in first.best] == [("AABC", 905), ("AABB", 912)] and path.exists()
    assert compiled(game, "AABB")[0] == 912
    again = rank_openers(game, top=2, search=SearchSettings(workers=1, checkpoint=path, resume=True))
    assert [(o.code, o.total, o.worst) for o in again.best] == [(o.code, o.total, o.worst) for o in first.best]
    assert again.nodes < first.nodes / 5  # the solved sets came from the file


def test_an_interrupted_ranking_saves_its_work(tmp_path):
    from guesstree.compiler.search.solver import Interrupted

    game = make_game("mastermind", colours=5, holes=3)
    path = tmp_path / "openers.checkpoint"
    calls = []

    def impatient(status):
        calls.append(status)
        if len(calls) == 3:
            raise KeyboardInterrupt

    with pytest.raises(Interrupted) as caught:
        rank_openers(game, top=2, search=SearchSettings(workers=1, checkpoint=path, progress=impatient))
    assert caught.value.checkpoint == path and path.exists()
    resumed = rank_openers(game, top=2, search=SearchSettings(workers=1, checkpoint=path, resume=True))
    assert [(o.code, o.total) for o in resumed.best] == [(o.code, o.total) for o in rank_openers(game, top=2).best]


# -- the command ---------------------------------------------------------------------------------

def test_openers_command_prints_the_ranking(cli):
    result = cli("openers", "words", "--answers", SMALL_WORDS["answers"], "--top", "3")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Words of 5 letters (") and "the 3 best of 20 first guesses by the least total" in lines[0]
    assert lines[2].split() == ["1", "SLATE", "42", "2.100", "3"]
    assert lines[4].split() == ["3", "CRANE", "43", "2.150", "3"]
    assert lines[5].startswith("every other first guess (17) is proven to need more than 43 guesses, or 43 and "
                               "to come later in the canonical order: 17 by a bound alone, 0 by search")


def test_openers_json_and_report(cli, tmp_path):
    report = tmp_path / "report.jsonl"
    result = cli("openers", "twod", "--size", "7", "--top", "2", "--json", "--report", report)
    assert result.exit_code == 0, result.output
    printed = json.loads(result.stdout)
    assert printed["openers"] == [{"guess": "2,4", "total": 191, "average": 3.898, "worst": 6},
                                  {"guess": "4,2", "total": 191, "average": 3.898, "worst": 6}]
    assert printed["game"] == {"name": "twod", "params": {"size": 7}} and printed["first_guesses"] == 49
    assert sum(printed["refuted"].values()) == 47
    lines = [json.loads(line) for line in report.read_text().splitlines()]
    assert len(lines) == 49 and [line["guess"] for line in lines[:2]] == ["0,0", "0,1"]
    by_guess = {line["guess"]: line for line in lines}
    assert by_guess["2,4"]["total"] == 191 and by_guess["2,4"]["settled"] == "search"
    for line in lines:
        assert set(line) in ({"guess", "total", "settled", "cpu_seconds"}, {"guess", "at_least", "settled", "cpu_seconds"})
        assert line["settled"] in ("bound", "search") and line["cpu_seconds"] >= 0
        assert line.get("total", line.get("at_least")) >= 191


def test_openers_first(cli):
    result = cli("openers", "mastermind", "--colours", "4", "--holes", "3", "--first", "ABC")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[1].startswith(
        "ABC: total 208, average 3.250, worst 4; rank 2 of 3 first guesses (one per symmetry class): "
        "1 proven better (AAB 206), 1 proven worse (1 by a bound alone, 0 by search)")
    result = cli("openers", "mastermind", "--colours", "4", "--holes", "3", "--first", "ABA")
    assert result.stdout.splitlines()[1].startswith(
        "ABA: total 206, average 3.219, worst 4; rank 1 of 3 first guesses (one per symmetry class), ABA in AAB's: "
        "2 proven worse")
    printed = json.loads(cli("openers", "mastermind", "--colours", "4", "--holes", "3", "--first", "AAA",
                             "--json").stdout)
    assert printed["first"] == {"guess": "AAA", "total": 233, "average": 3.6406, "worst": 5}
    assert printed["rank"] == {"rank": 3, "of": 3, "by_class": True, "class_of": "AAA",
                               "better": [{"guess": "AAB", "total": 206}, {"guess": "ABC", "total": 208}],
                               "refuted": {"bound": 0, "search": 0}}


@pytest.mark.parametrize("args, message", [
    (["--top", "0"], "error: --top must be a whole number of at least 1, not 0"),
    (["--first", "ABZ"], "error: --first ABZ: "),
    (["--first", "ABC", "--report", "r.jsonl"], "error: --report lists every first guess of a ranking"),
    (["--max-depth", "0"], "error: --max-depth must be a whole number of at least 1, not 0"),
    (["--max-depth", "2"], "error: no tree wins every secret"),
    (["--workers", "0"], "error: --workers must be a whole number of at least 1, not 0"),
    (["--resume"], "error: --resume needs --checkpoint FILE"),
    (["--candidates", "some"], "error: --candidates must be 'all' or 'consistent'"),
])
def test_openers_bad_input_is_one_error_line(cli, clean_error, tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    line = clean_error(cli("openers", "mastermind", "--colours", "3", "--holes", "3", *args), code=2)
    assert line.startswith(message), line


def test_openers_report_destination_is_checked_before_any_work(cli, clean_error, tmp_path):
    line = clean_error(cli("openers", "twod", "--size", "3", "--report", tmp_path), code=2)
    assert line.startswith(f"error: cannot write {tmp_path}: it is a directory")


def test_the_parts_get_their_lookahead_nearest_the_size_two_guesses_win_first():
    """``ranking.lookahead_order``: every part of LOOKAHEAD_MIN secrets or more, once, the nearest
    to reach[2] (what two guesses can win) first, and those far bigger after the small ones (a
    Wordle part of 400 gains less a secret than one of 12); the smaller parts never (their counting
    bound stands)."""
    from types import SimpleNamespace

    from guesstree.compiler.search.ranking import LOOKAHEAD_MIN, lookahead_order

    space = SimpleNamespace(reach=np.array([0, 1, 150, 22351]))
    sizes = [900, 400, 151, 150, 120, 60, LOOKAHEAD_MIN, LOOKAHEAD_MIN - 1, 3, 1]
    parts = [np.arange(size) for size in sizes]
    assert [sizes[i] for i in lookahead_order(space, parts)] == [150, 151, 120, 60, LOOKAHEAD_MIN, 400, 900]

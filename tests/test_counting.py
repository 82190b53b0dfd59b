"""The exhaustive searches' counting bound, from the most answers a guess of the game can get.

When every secret of Mastermind plays each colour once (5 colours, 5 holes, no repeated
secrets), a guess's whites are fixed by its own colours: of the 20 feedback values any one guess
gets at most 6 answers, 5 besides the win. Counting with 19 children per node made the search
of its 3125 guesses (repeats allowed) visit 1.27 million nodes, 26 s; with 5, about 30000."""
from __future__ import annotations

import functools

import numpy as np
import pytest

from guesstree.compiler import Options, build
from guesstree.compiler.engine import kernels
from guesstree.compiler.search.counting import branching_tables, counting_tables
from guesstree.compiler.engine.scorer import Scorer
from guesstree.compiler.exact import solver_of
from guesstree.compiler.builder.writer import to_bytes
from guesstree.player.games import make_game
from guesstree.compiler.workers.settings import SearchSettings

ONE_THREAD = SearchSettings(workers=1)  # a search on this thread alone

PERMUTED = {"colours": 5, "holes": 5, "secret_repeats": False}  # 120 secrets, 3125 guesses


def _most_children(game) -> int:
    matrix = Scorer(game, 1 << 30, "numba").matrix
    feedbacks = game.feedbacks()
    return int(kernels.most_children(matrix, len(feedbacks), feedbacks.index(game.win)))


def _least_total(game) -> int:
    """The least total of any tree, by brute force over candidate sets (no bound, no table)."""
    answers = [[game.score(g, s) for s in game.secrets] for g in game.guesses]

    @functools.cache
    def total(candidates: frozenset) -> int:
        if len(candidates) == 1:
            return 1
        best = None
        for row in answers:
            parts: dict = {}
            for c in candidates:
                parts.setdefault(row[c], []).append(c)
            if len(parts) == 1 and game.win not in parts:
                continue
            cost = len(candidates) + sum(total(frozenset(p)) for f, p in parts.items() if f != game.win)
            best = cost if best is None else min(best, cost)
        return best
    return total(frozenset(range(len(game.secrets))))


@pytest.mark.parametrize("params, children", [
    (PERMUTED, 5),  # blacks 0 to 5 for a guess of repeated colours, 0 to 3 for a secret's own
    ({**PERMUTED, "guess_repeats": False}, 4),  # a permutation: 0, 1, 2 or 3 right (4 right is 5)
    ({"colours": 6, "holes": 4, "secret_repeats": False}, 10),
    ({}, 13),  # classic Mastermind: every one of the 13 other feedbacks occurs for ABCD
])
def test_most_children_is_the_most_answers_besides_the_win(params, children):
    assert _most_children(make_game("mastermind", **params)) == children


def test_counting_tables_with_fewer_children():
    least, blind, reach = counting_tables(120, 20, children=5)
    assert reach.tolist() == [0, 1, 6, 31, 121]  # 1, 5, 25 nodes a level, capped past the secrets
    assert least[1:8].tolist() == [1, 3, 5, 7, 9, 11, 14]  # the 7th secret needs a third level
    assert blind[1:7].tolist() == [2, 4, 6, 8, 10, 13]
    assert [t.tolist() for t in counting_tables(1296, 14, children=99)] == \
        [t.tolist() for t in counting_tables(1296, 14)]  # never more than the feedbacks allow


def test_branching_tables_hold_the_counting_tables_of_each_branching():
    least_by, blind_by, reach_by = branching_tables(720, 21, 9)
    assert least_by.shape == blind_by.shape == (10, 721)
    for b in range(1, 10):
        least, blind, reach = counting_tables(720, 21, children=b)
        assert least_by[b].tolist() == least.tolist() and blind_by[b].tolist() == blind.tolist()
        assert reach_by[b, :len(reach)].tolist() == reach.tolist()
        assert (reach_by[b, len(reach):] == reach[-1]).all()  # padded: no depth wins more
    assert least_by[0].tolist() == least_by[1].tolist()
    assert least_by[5, 45] == 142 and least_by[9, 45] == 124  # 45 secrets, 5 answers a node against 9


def test_most_children_by_class_is_the_most_children_of_each_class():
    game = make_game("mastermind", colours=5, holes=4, secret_repeats=False)  # 5 classes: the colour left out
    scorer = Scorer(game, 1 << 30, "numba")
    matrix, feedbacks = scorer.matrix, game.feedbacks()
    win = feedbacks.index(game.win)
    left_out = np.array([sum(set(range(5)) - set(secret)) for secret in game.secrets])
    most = kernels.most_children_by_class(np.ascontiguousarray(matrix.T), left_out, 5, len(feedbacks), win)
    assert most.tolist() == [int(kernels.most_children(np.ascontiguousarray(matrix[:, left_out == k]),
                                                       len(feedbacks), win)) for k in range(5)]
    assert most.tolist() == [4] * 5  # the colours known, only the blacks vary: 0 to 4 (4 wins or is no secret)
    assert _most_children(game) == 7  # the game's, where the colour left out is not known yet


@pytest.mark.parametrize("params, fewer", [({"colours": 3, "holes": 3, "secret_repeats": False}, False),
                                           pytest.param({"colours": 4, "holes": 4, "secret_repeats": False}, True,
                                                        marks=pytest.mark.slow)])  # 10 to 20 s
def test_the_bound_keeps_the_least_total_and_the_tree(monkeypatch, params, fewer):
    game = make_game("mastermind", **params)
    options = Options("optimal-expected")
    counted = to_bytes(build(game, options))
    assert build(game, options).stats["total"] == _least_total(game)
    nodes = solver_of(game, search=ONE_THREAD).solve("optimal-expected").nodes
    monkeypatch.setattr(kernels, "most_children", lambda matrix, n_feedbacks, win: n_feedbacks - 1)
    assert to_bytes(build(game, options)) == counted  # the same tree, byte for byte, as with the weaker bound
    weaker = solver_of(game, search=ONE_THREAD).solve("optimal-expected").nodes
    assert nodes < weaker if fewer else nodes == weaker  # 4x4: 29 nodes against 37


@pytest.mark.slow
def test_five_colours_five_holes_without_repeated_secrets_is_quick():
    game = make_game("mastermind", **PERMUTED)
    report = solver_of(game, search=ONE_THREAD).solve("optimal-expected")
    assert report.total == 512  # as the search with the feedbacks' count of children found it, in 26 s
    assert report.nodes < 60000  # that search visited 1271876 nodes


def test_bound_counts_or_searches_to_refute_a_depth_of_two(tmp_path):
    from pathlib import Path

    from guesstree.compiler.exact import bound

    data = Path(__file__).parent / "data"
    answers = str(data / "words-ight.txt")
    counted = bound(make_game("words", answers=answers, guesses=str(data / "words-ight-guesses.txt")))
    assert counted.proof["lower"]["by"].startswith("10 secrets are more than any tree of 2 guesses can win (9:")
    guesses = tmp_path / "guesses.txt"  # and FLMNR, which tells 9 of the 10 apart: counting cannot refute 2
    guesses.write_text((data / "words-ight-guesses.txt").read_text() + "flmnr\n")
    searched = bound(make_game("words", answers=answers, guesses=str(guesses)))
    assert searched.worst == 3
    assert searched.proof["lower"]["by"] == "exhaustive search: no first guess gives every secret a different answer"

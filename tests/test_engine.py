"""Speed may never change a tree: worker processes and on-demand feedback blocks give the
same bytes as one process with the whole feedback matrix."""
import sys

import pytest

from compiler import Options, build, to_bytes
from compiler.feedback import Scorer
from player.games import make_game

build_module = sys.modules["compiler.build"]

GAMES = [
    ("mastermind", {"colours": 5, "holes": 3}),
    ("bulls-cows", {"digits": 7, "length": 3}),
    ("twod", {"size": 6}),
]


@pytest.mark.parametrize("name, params", GAMES)
@pytest.mark.parametrize("strategy", ["entropy", "minimax", "sampled-entropy"])
def test_worker_processes_build_the_same_tree(monkeypatch, name, params, strategy):
    monkeypatch.setattr(build_module, "PARALLEL_MIN_SECRETS", 1)  # small games too, to check it
    game = make_game(name, **params)
    options = Options(strategy=strategy, guess_sample=20, secret_sample=15)
    one = to_bytes(build(game, options, workers=1))
    assert to_bytes(build(game, options, workers=2)) == one
    assert to_bytes(build(game, options, workers=3)) == one


@pytest.mark.parametrize("name, params, budget", [
    ("mastermind", {"colours": 5, "holes": 3}, 35_000),
    ("bulls-cows", {"digits": 7, "length": 3}, 60_000),
])
@pytest.mark.parametrize("strategy", ["entropy", "most-parts", "sampled-entropy", "first"])
def test_feedback_blocks_on_demand_build_the_same_tree(name, params, budget, strategy):
    game = make_game(name, **params)
    assert Scorer(game, budget).matrix is None  # the budget is too small for the whole matrix
    options = dict(strategy=strategy, guess_sample=20, secret_sample=15)
    whole = build(game, Options(**options))
    blocks = build(game, Options(max_memory=budget, **options))
    assert to_bytes(blocks) == to_bytes(whole)


def test_a_budget_too_small_for_the_codes_is_refused_clearly():
    with pytest.raises(ValueError, match="--max-memory budget"):
        build(make_game("mastermind"), Options(max_memory=1000))

"""Strategies: published results on classic Mastermind, determinism, and fast == reference engine."""
from __future__ import annotations

import pytest

from guesstree import compiler
from guesstree import player
from guesstree.compiler import STRATEGIES, Options
from guesstree.player.games import make_game

# Classic Mastermind (6 colours, 4 holes, 1296 secrets), guesses to win, canonical tie-break.
PUBLISHED = {
    # strategy: (candidates, total, worst, histogram or None)
    "first": ("consistent", 7471, 9, None),  # Shapiro
    "minimax": ("all", 5801, 5, {1: 1, 2: 6, 3: 62, 4: 533, 5: 694}),  # Knuth
    "entropy": ("all", 5722, 6, None),  # Neuwirth
    "expected-size": ("all", 5696, 6, None),  # Irving
    "most-parts": ("all", 5668, 6, None),  # Kooi
}


@pytest.mark.parametrize("strategy", list(PUBLISHED))
def test_published_results_on_classic_mastermind(build_cached, strategy):
    candidates, total, worst, histogram = PUBLISHED[strategy]
    stats = build_cached("mastermind", strategy, candidates=candidates).stats
    assert stats["secrets"] == 1296
    assert (stats["total"], stats["worst"]) == (total, worst)
    assert stats["average"] == pytest.approx(total / 1296)
    assert sum(stats["histogram"].values()) == 1296
    assert sum(k * v for k, v in stats["histogram"].items()) == total
    assert max(stats["histogram"]) == worst
    if histogram is not None:
        assert stats["histogram"] == histogram


def test_first_guesses_on_classic_mastermind(build_cached):
    """Knuth opens 1122; entropy 1234 (3.057 bits vs 3.044 for 1123); most-parts ties 1123
    and 1234 at 14 parts and takes the lower; expected-size 1123 (185.3 vs 188.2)."""
    game = make_game("mastermind")
    first = {s: game.guesses[build_cached("mastermind", s, candidates=c).node_guess[0]]
             for s, (c, *_) in PUBLISHED.items()}
    assert first == {"minimax": (0, 0, 1, 1), "first": (0, 0, 0, 0), "entropy": (0, 1, 2, 3),
                     "most-parts": (0, 0, 1, 2), "expected-size": (0, 0, 1, 2)}


def test_minimax_determined_statistics_are_consistent(build_cached):
    stats = build_cached("mastermind", "minimax").stats
    determined = stats["determined_histogram"]
    assert sum(determined.values()) == 1296
    assert sum(k * v for k, v in determined.items()) == stats["determined_total"]
    assert stats["determined_worst"] == max(determined) <= stats["worst"]
    assert stats["determined_total"] < stats["total"]


@pytest.mark.parametrize("strategy, options", [
    pytest.param("worst-entropy", {}, marks=pytest.mark.slow),
    ("random", {"seed": 3}),
    ("sampled-entropy", {"seed": 3, "guess_sample": 50, "secret_sample": 200}),
])
def test_other_strategies_build_valid_trees(build_cached, strategy, options):
    from guesstree.player.verify import verify

    built = build_cached("mastermind", strategy, **options)
    tree = player.loads(compiler.to_bytes(built))
    report = verify(tree)
    assert report.ok, report.errors
    assert report.secrets == 1296 and report.total == built.stats["total"]


def test_worst_entropy_is_worse_than_entropy(build_cached):
    assert build_cached("mastermind", "worst-entropy").stats["total"] > build_cached("mastermind", "entropy").stats["total"]


def tree_arrays(built):
    return built.node_guess, built.edge_counts, built.edge_feedback


# Mastermind 4x3 has 64 secrets: small samples make the sampled strategy really sample.
RANDOMISED = [
    ("random", {}),
    ("sampled-entropy", {"guess_sample": 8, "secret_sample": 16}),
]


@pytest.mark.parametrize("strategy, options", RANDOMISED)
def test_randomised_strategies_are_reproducible(strategy, options):
    game = make_game("mastermind", colours=4, holes=3)
    once = compiler.to_bytes(compiler.build(game, Options(strategy=strategy, seed=11, **options)))
    again = compiler.to_bytes(compiler.build(game, Options(strategy=strategy, seed=11, **options)))
    assert once == again


@pytest.mark.parametrize("strategy, options", RANDOMISED)
def test_randomised_strategies_depend_on_the_seed(strategy, options):
    game = make_game("mastermind", colours=4, holes=3)
    trees = {tuple(map(tuple, tree_arrays(compiler.build(game, Options(strategy=strategy, seed=seed, **options)))))
             for seed in (1, 2, 3)}
    assert len(trees) == 3  # different trees, not merely a different seed in the header


def test_sampled_entropy_with_samples_covering_everything_is_entropy():
    """When the samples are at least as large as what they sample, nothing is left to chance."""
    game = make_game("mastermind", colours=4, holes=3)
    entropy = compiler.build(game, Options(strategy="entropy"))
    sampled = compiler.build(game, Options(strategy="sampled-entropy", seed=5))
    assert tree_arrays(sampled) == tree_arrays(entropy)


def test_random_plays_a_different_first_guess_for_some_seed():
    game = make_game("mastermind", colours=4, holes=3)
    firsts = {compiler.build(game, Options(strategy="random", seed=seed)).node_guess[0] for seed in range(6)}
    assert len(firsts) > 1


def assert_plays_only_possible_secrets(tree):
    """Along every path, each guess is a secret that fits all the feedback given before it."""
    game = tree.game
    secrets = set(game.secrets)
    for secret in game.secrets:
        history = tree.path(secret)
        for step, (guess, _) in enumerate(history):
            assert guess in secrets, (secret, step, guess)
            assert all(game.score(g, guess) == f for g, f in history[:step]), (secret, step, guess)


@pytest.mark.parametrize("strategy", ["entropy", "minimax", "most-parts", "expected-size", "worst-entropy",
                                      "sampled-entropy", "first", "random"])
def test_consistent_candidates_play_only_possible_secrets(build_cached, strategy):
    # --no-secret-repeats: codes with a repeated colour are allowed guesses but never secrets
    built = build_cached("mastermind", strategy, candidates="consistent", colours=5, holes=3, secret_repeats=False)
    assert_plays_only_possible_secrets(player.loads(compiler.to_bytes(built)))


@pytest.mark.slow
def test_consistent_entropy_on_classic_mastermind_plays_only_possible_secrets(build_cached):
    built = build_cached("mastermind", "entropy", candidates="consistent")
    tree = player.loads(compiler.to_bytes(built))
    assert_plays_only_possible_secrets(tree)
    # playing only possible secrets costs guesses: 5786 against 5722 with every code allowed
    assert (built.stats["total"], build_cached("mastermind", "entropy").stats["total"]) == (5786, 5722)


def test_candidates_all_does_play_impossible_guesses(build_cached):
    """The control for the test above: with all guesses, minimax plays a code that cannot be the secret."""
    built = build_cached("mastermind", "minimax", colours=5, holes=3, secret_repeats=False)
    game = built.game
    assert any(len(set(game.guesses[g])) < 3 for g in built.node_guess)


def test_first_and_random_always_use_consistent_candidates():
    assert Options(strategy="first").candidates == "consistent"
    assert Options(strategy="random", candidates="all").candidates == "consistent"


def test_strategy_spec_records_only_what_changes_the_tree():
    assert Options(strategy="entropy").spec() == {"name": "entropy", "candidates": "all"}
    assert Options(strategy="neuwirth").spec() == {"name": "entropy", "candidates": "all"}  # by author (the README's)
    assert [Options(strategy=a).name for a in ("Knuth", "kooi", "irving", "shapiro", "koyama-lai")] == \
        ["minimax", "most-parts", "expected-size", "first", "optimal-expected"]
    assert Options(strategy="random", seed=9).spec() == {"name": "random", "candidates": "consistent", "seed": 9}
    assert Options(strategy="sampled-entropy", seed=1, guess_sample=7, secret_sample=8).spec() == {
        "name": "sampled-entropy", "candidates": "all", "seed": 1, "guess_sample": 7, "secret_sample": 8}


@pytest.mark.parametrize("options, words", [
    ({"strategy": "fastest"}, "unknown strategy: 'fastest'; choose from first, random, entropy"),
    ({"strategy": "entrpy"}, "unknown strategy: 'entrpy'; did you mean entropy or worst-entropy?"),
    ({"strategy": "entropy", "candidates": "some"}, "--candidates must be 'all' or 'consistent'"),
    ({"strategy": "entropy", "engine": "gpu"}, "unknown engine: 'gpu'"),
    ({"strategy": "sampled-entropy", "guess_sample": 0}, "--guess-sample must be a whole number of at least 1, not 0"),
    ({"strategy": "random", "seed": -1}, "--seed must be a whole number from 0 to 2**63-1, not -1"),
    # a setting the strategy does not take is refused by name, not ignored
    ({"strategy": "entropy", "seed": 9}, "--seed applies to --strategy random, sampled-entropy only"),
    ({"strategy": "minimax", "guess_sample": 7}, "--guess-sample applies to --strategy sampled-entropy only"),
])
def test_bad_options(options, words):
    with pytest.raises(ValueError) as caught:
        Options(**options)
    assert words in str(caught.value)


@pytest.mark.parametrize("name", ["optimal-worst", "optimal-expected"])
def test_exhaustive_strategies_exist(name):
    strategy = compiler.get_strategy(name)
    assert strategy.name == name and strategy.is_exact and strategy.candidates("all") == "all"
    assert Options(strategy=name).spec() == {"name": name, "candidates": "all"}
    assert Options(strategy=strategy).strategy is strategy  # a strategy is given by name or as itself


def test_each_strategy_answers_what_its_choices_read():
    """The builder lays out its work by these answers (plan.py, runner.py, options.py)."""
    answers = {name: (s.is_exact, s.scores_every_guess, s.samples) for name, s in STRATEGIES.items()}
    scoring, simple, exact = (False, True, False), (False, False, False), (True, False, False)
    assert answers == {"first": simple, "random": simple, "entropy": scoring, "worst-entropy": scoring,
                       "sampled-entropy": (False, False, True), "minimax": scoring, "most-parts": scoring,
                       "expected-size": scoring, "optimal-worst": exact, "optimal-expected": exact,
                       "fewest-at-worst": exact}


@pytest.mark.parametrize("fails", [False, True])
def test_an_exhaustive_builds_solver_is_closed_once_where_it_was_made(monkeypatch, fails):
    """``Exhaustive.prepared`` makes the solver and closes it when the build ends, however it ends."""
    from guesstree.compiler.search.solver import Solver

    closed, close, solve = [], Solver.close, Solver.solve

    def closing(solver):
        closed.append(solver)
        close(solver)

    def solving(solver, *arguments):
        if fails:
            raise RuntimeError("the search failed")
        return solve(solver, *arguments)

    monkeypatch.setattr(Solver, "close", closing)
    monkeypatch.setattr(Solver, "__del__", lambda solver: None)  # (its safety net would count twice)
    monkeypatch.setattr(Solver, "solve", solving)
    game = make_game("mastermind", colours=3, holes=2)
    if fails:
        with pytest.raises(RuntimeError, match="the search failed"):
            compiler.build(game, Options("optimal-worst"))
    else:
        assert compiler.build(game, Options("optimal-worst")).stats["worst"] == 3
    assert len(closed) == 1


def test_strategies_take_the_settings_the_catalogue_gives_them():
    from guesstree.compiler.catalogue import STRATEGIES, settings_of

    assert list(compiler.STRATEGIES) == list(STRATEGIES)
    assert settings_of("random") == ("seed", "first")
    assert settings_of("sampled-entropy") == ("seed", "guess_sample", "secret_sample", "first")
    assert settings_of("optimal-expected") == ("first", "max_depth", "openers")
    # the order an artifact records them in, whatever order they are given in
    spec = Options(strategy="optimal-expected", max_depth=5, first="ABCD").spec()
    assert list(spec) == ["name", "candidates", "first", "max_depth"]


# -- the fast engines give the reference engine's tree, byte for byte -----------

ENGINE_GAMES = [
    ("mastermind", {}),
    ("mastermind", {"colours": 4, "holes": 3}),
    ("mastermind", {"colours": 5, "holes": 3, "secret_repeats": False}),
    ("bulls-cows", {"digits": 6, "length": 3}),
    ("twod", {"size": 5}),
    ("digits", {"length": 2}),
]


def engine_cases() -> list:
    """Every engine, game and strategy but the exact ones (they score nothing). Classic Mastermind's
    reference builds take seconds each (fewest-at-worst 20 s): one by default, the rest slow."""
    cases = []
    for engine in ("numba", "numpy"):
        for name, params in ENGINE_GAMES:
            for strategy in (s for s in STRATEGIES if not s.startswith("optimal-")):
                shown = "-".join(f"{k}{w}" for k, w in params.items()) or "default"
                slow = not params and (engine, strategy) != ("numba", "entropy")
                cases.append(pytest.param(name, params, strategy, engine, id=f"{engine}-{name}-{shown}-{strategy}",
                                          marks=pytest.mark.slow if slow else ()))
    return cases


@pytest.mark.parametrize("name, params, strategy, engine", engine_cases())
def test_fast_engines_equal_the_reference_engine(build_cached, name, params, strategy, engine):
    options = {"seed": 4} if strategy in ("random", "sampled-entropy") else {}
    if strategy == "sampled-entropy" and name != "mastermind":
        options.update(guess_sample=10, secret_sample=20)  # make the small games sample too
    fast = build_cached(name, strategy, engine=engine, **options, **params)
    reference = build_cached(name, strategy, engine="reference", **options, **params)
    assert compiler.to_bytes(fast) == compiler.to_bytes(reference)
    assert fast.stats == reference.stats

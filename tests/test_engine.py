"""Speed may never change a tree: worker processes, on-demand feedback blocks and either
kernel backend give the same bytes as one process with the whole feedback matrix."""
import sys
from pathlib import Path

import numpy as np
import pytest

from guesstree.compiler import Options, build, to_bytes
from guesstree.compiler.engine import kernels, least_sums, packed, vectorised
from guesstree.compiler.engine.kinds import backend_for, block_function
from guesstree.compiler.engine.scorer import Scorer
from guesstree.compiler.engine.statistic import CLOG_MARGIN, CLOG_SUM, MAX_PART, PARTS, SUM_SQUARES
from guesstree.player.games import make_game

WORDLE = Path(__file__).parent / "data" / "wordle"  # the original lists

build_module = sys.modules["guesstree.compiler.builder.plan"]

GAMES = [
    ("mastermind", {"colours": 5, "holes": 3}),
    ("bulls-cows", {"digits": 7, "length": 3}),
    ("twod", {"size": 6}),
]


# Each case spawns workers (2 to 10 s): one runs by default, every other with the slow tests.
WORKER_CASES = [pytest.param(name, params, strategy, engine, id=f"{strategy}-{name}-{engine}",
                             marks=() if (strategy, name, engine) == ("entropy", "mastermind", "numpy") else pytest.mark.slow)
                for strategy in ("entropy", "minimax", "sampled-entropy") for name, params in GAMES
                for engine in ("numba", "numpy")]


@pytest.mark.parametrize("name, params, strategy, engine", WORKER_CASES)
def test_worker_processes_build_the_same_tree(monkeypatch, name, params, strategy, engine):
    monkeypatch.setattr(build_module, "PARALLEL_MIN_SECRETS", 1)  # small games too, to check it
    game = make_game(name, **params)
    options = Options.shared(strategy, guess_sample=20, secret_sample=15, engine=engine)
    one = to_bytes(build(game, options, workers=1))
    assert to_bytes(build(game, options, workers=2)) == one
    assert to_bytes(build(game, options, workers=3)) == one


@pytest.mark.parametrize("workers", [1, pytest.param(2, marks=pytest.mark.slow)])  # 2: worker processes, seconds each
@pytest.mark.parametrize("name, params", GAMES + [("mastermind", {"colours": 5, "holes": 3, "secret_repeats": False})])
@pytest.mark.parametrize("strategy", ["entropy", "most-parts", "expected-size", "sampled-entropy", "first"])
def test_subtrees_over_their_parts_matrices_build_the_same_tree(monkeypatch, name, params, strategy, workers):
    """Big games build each subtree of the root over a matrix of its own part (read by columns
    where the score is symmetric): the same bytes as the reference engine."""
    game = make_game(name, **params)
    options = dict(strategy=strategy, guess_sample=20, secret_sample=15)
    reference = to_bytes(build(game, Options.shared(engine="reference", **options), workers=1))
    monkeypatch.setattr(build_module, "PART_MIN_CELLS", 0)  # small games too, to check it
    monkeypatch.setattr(build_module, "PARALLEL_MIN_SECRETS", 1)
    for engine in ("numba", "numpy"):
        assert to_bytes(build(game, Options.shared(engine=engine, **options), workers=workers)) == reference, engine


def test_a_sampled_strategy_makes_no_part_matrices(monkeypatch):
    """A sampled strategy scores a sample of guesses on a sample of secrets: blocks on demand, not
    a matrix of every guess for each of the root's parts (which took 2.6 GiB and three times as long
    on 5-digit Digits)."""
    from guesstree.compiler.builder.context import BuildContext

    game = make_game("mastermind", colours=5, holes=3)
    made = []
    for_part = BuildContext.for_part
    monkeypatch.setattr(BuildContext, "for_part", lambda self, part: made.append(len(part)) or for_part(self, part))
    monkeypatch.setattr(build_module, "PART_MIN_CELLS", 0)  # as if the game were big
    options = dict(guess_sample=20, secret_sample=15, max_memory=38_000)  # no whole matrix either
    reference = to_bytes(build(game, Options.shared("sampled-entropy", engine="reference", **options), workers=1))
    assert to_bytes(build(game, Options.shared("sampled-entropy", **options), workers=1)) == reference
    assert made == []
    build(game, Options.shared("entropy", **options), workers=1)
    assert made  # a heuristic that scores every guess does build over its parts


@pytest.mark.parametrize("name, params", [("mastermind", {"colours": 5, "holes": 3}),
                                          ("mastermind", {"colours": 2, "holes": 8}),  # 8 holes: packed wide
                                          ("mastermind", {"colours": 4, "holes": 5}),  # minimax drops guesses
                                          ("mastermind", {"colours": 6, "holes": 3, "secret_repeats": False}),
                                          ("bulls-cows", {"digits": 7, "length": 3})])
@pytest.mark.parametrize("strategy", ["entropy", "minimax", "most-parts", "expected-size", "sampled-entropy"])
def test_a_big_peg_game_is_built_with_no_matrix(monkeypatch, name, params, strategy):
    """A big peg game on the compiled engine scores partitions straight from its packed codes:
    no whole matrix, no matrix of a part, only single guesses' answers; the reference's bytes."""
    from guesstree.compiler.engine.kinds import PackedPegs

    game = make_game(name, **params)
    options = dict(strategy=strategy, guess_sample=20, secret_sample=15)
    reference = to_bytes(build(game, Options.shared(engine="reference", **options), workers=1))
    monkeypatch.setattr(build_module, "PART_MIN_CELLS", 0)  # as if the game were big
    blocks = []
    called = PackedPegs.__call__
    monkeypatch.setattr(PackedPegs, "__call__", lambda self, g, s: blocks.append(len(g)) or called(self, g, s))
    assert to_bytes(build(game, Options.shared(engine="numba", **options), workers=1)) == reference
    assert blocks and set(blocks) == {1}


def test_a_part_too_big_for_the_budget_is_scored_in_blocks():
    from guesstree.compiler.engine.arrays import GameArrays
    from guesstree.compiler.builder.context import BuildContext

    game = make_game("mastermind", colours=5, holes=3)
    context = BuildContext(GameArrays.of(game, Scorer(game, 38_000, whole=False)), Options("entropy"))
    assert context.arrays.matrix is None and context.arrays.columns is None
    assert context.for_part(np.arange(125)) is context  # 125 x 125 cells are over the budget: blocks
    narrow = context.for_part(np.arange(10, 20))
    assert narrow.arrays.matrix is None and narrow.arrays.columns.shape == (10, 125)  # the part's rows, read by columns
    assert np.array_equal(narrow.arrays.columns, Scorer(game, 1 << 30).matrix[10:20])


@pytest.mark.parametrize("name, params, budget", [
    ("mastermind", {"colours": 5, "holes": 3}, 35_000),
    ("bulls-cows", {"digits": 7, "length": 3}, 60_000),
])
@pytest.mark.parametrize("strategy", ["entropy", "most-parts", "sampled-entropy", "first"])
@pytest.mark.parametrize("engine", ["numba", "numpy"])
def test_feedback_blocks_on_demand_build_the_same_tree(name, params, budget, strategy, engine):
    game = make_game(name, **params)
    assert Scorer(game, budget).matrix is None  # the budget is too small for the whole matrix
    options = dict(strategy=strategy, guess_sample=20, secret_sample=15, engine=engine)
    whole = build(game, Options.shared(**options))
    blocks = build(game, Options.shared(max_memory=budget, **options))
    assert to_bytes(blocks) == to_bytes(whole)


def test_a_budget_too_small_for_the_codes_is_refused_clearly():
    with pytest.raises(ValueError, match=r"^Mastermind 6x4 is too big: listing its 1296 secrets and as many guesses "
                                         r"takes about 324.0 KiB, over --max-memory 1000 bytes; --max-memory 1 builds it$"):
        build(make_game("mastermind"), Options(max_memory=1000))


# -- the numpy kernels give exactly the compiled kernels' numbers ----------------------------

KERNEL_GAMES = [
    ("mastermind", {}),
    ("mastermind", {"colours": 5, "holes": 3, "secret_repeats": False}),
    ("mastermind", {"colours": 3, "holes": 6}),
    ("mastermind", {"colours": 20, "holes": 2}),  # beyond the packed kernel's 16 colours
    ("bulls-cows", {"digits": 7, "length": 3}),
    ("digits", {"length": 3}),
    ("mastermind", {"colours": 3, "holes": 8}),  # packed in unary words: a count of 8, keys past 64
]


def eight_holes_slow(cases: list) -> list:
    """``cases`` with 3 colours x 8 holes (5 to 10 s a test) among the slow tests."""
    return [pytest.param(*case, marks=pytest.mark.slow) if case[1].get("holes") == 8 else case for case in cases]


@pytest.mark.parametrize("name, params", eight_holes_slow(KERNEL_GAMES))
def test_numpy_and_numba_feedback_matrices_are_equal(name, params):
    game = make_game(name, **params)
    compiled = Scorer(game, 1 << 30, "numba").matrix
    assert np.array_equal(Scorer(game, 1 << 30, "numpy").matrix, compiled)
    budget = 2 * (compiled.size + 64 * sum(compiled.shape))  # room for the matrix, filled in blocks
    chunked = Scorer(game, budget, "numpy")
    assert chunked.codes.block_cells < compiled.size or compiled.size < 1 << 14
    assert np.array_equal(chunked.matrix, compiled)
    assert compiled[0, 0] == game.feedbacks().index(game.score(game.guesses[0], game.secrets[0]))


def test_numpy_and_numba_word_matrices_are_equal():
    """Every guess of the original list against a sample of answers (repeated letters abound)."""
    game = make_game("words", answers=str(WORDLE / "wordlist_orig_hidden"), guesses=str(WORDLE / "wordlist_orig_all"))
    secret_ids = np.random.default_rng(0).choice(len(game.secrets), 40, replace=False)
    scorer = Scorer(game, 1 << 24, "numba")  # no whole matrix: blocks
    numpy_block = block_function(game, scorer.guess_codes, scorer.secret_codes, "numpy")
    block = scorer.block(None, secret_ids)
    assert np.array_equal(numpy_block(None, secret_ids), block)
    rng = np.random.default_rng(1)  # perfect splits with more feedback values than bits in a word
    guess_ids = np.arange(len(game.guesses))
    for size in (2, 4, 6, 12, 24):
        candidates = np.sort(rng.choice(len(secret_ids), size, replace=False))
        found = kernels.first_perfect(block, guess_ids, candidates, len(game.feedbacks()))
        assert vectorised.first_perfect(block, guess_ids, candidates, len(game.feedbacks())) == found


@pytest.mark.parametrize("name, params", eight_holes_slow(KERNEL_GAMES[:3] + KERNEL_GAMES[4:]))
def test_numpy_and_numba_symmetry_classes_and_perfect_splits_are_equal(name, params):
    game = make_game(name, **params)
    scorer = Scorer(game, 1 << 30, "numba")
    codes, matrix = scorer.guess_codes, scorer.matrix
    n_feedbacks = len(game.feedbacks())
    rng = np.random.default_rng(7)
    holes, colours = codes.shape[1], game.symbols
    for _ in range(40):
        perms = np.array([rng.permutation(holes) for _ in range(4)])
        maps = np.array([rng.permutation(colours) for _ in range(4)])
        used = rng.random(colours) < 0.5
        classes = kernels.canonical_under(codes, perms, maps, used)
        assert np.array_equal(vectorised.canonical_under(codes, perms, maps, used), classes)
        candidates = np.sort(rng.choice(len(game.secrets), rng.integers(2, 12), replace=False))
        guess_ids = rng.choice(len(game.guesses), min(300, len(game.guesses)), replace=False)
        found = kernels.first_perfect(matrix, guess_ids, candidates, n_feedbacks)
        assert vectorised.first_perfect(matrix, guess_ids, candidates, n_feedbacks) == found
        if matrix.shape[0] == matrix.shape[1]:  # read by columns: the transposed matrix
            transposed = np.ascontiguousarray(matrix.T)
            assert kernels.first_perfect(transposed, guess_ids, candidates, n_feedbacks, True) == found
            assert vectorised.first_perfect(transposed, guess_ids, candidates, n_feedbacks, True) == found
    assert vectorised.canonical_under(codes, perms[:0], maps[:0], used).all()  # no symmetry: every code alone


def test_the_fast_engine_picks_numpy_for_small_games_and_numba_for_big_ones():
    assert backend_for(make_game("mastermind"), "fast") == "numpy"
    assert backend_for(make_game("bulls-cows"), "fast") == "numba"
    assert backend_for(make_game("bulls-cows"), "reference") == "numpy"
    assert backend_for(make_game("mastermind"), "numba") == "numba"


@pytest.mark.parametrize("n_feedbacks", [3, 21, 64, 65, 238])
@pytest.mark.parametrize("by_column", [False, True])
def test_partition_statistics_of_the_compiled_kernels_are_the_references(n_feedbacks, by_column):
    """Every statistic, by rows and by columns, with the bit-set count of parts (up to 64
    feedback values) and the counting one beyond."""
    from guesstree.compiler.engine import reference
    from guesstree.compiler.engine.statistic import clog_table

    rng = np.random.default_rng(n_feedbacks)
    matrix = rng.integers(0, n_feedbacks, size=(300, 300), dtype=np.uint8)
    clog = clog_table(300)
    for size in (2, 9, 60, 300):
        candidates = np.sort(rng.choice(300, size, replace=False))
        guess_ids = rng.choice(300, 120, replace=False)
        for statistic in (CLOG_SUM, MAX_PART, SUM_SQUARES, PARTS):
            expected = reference.partition_stats(matrix, guess_ids, candidates, n_feedbacks, statistic, clog)
            stored = matrix.T.copy() if by_column else matrix
            for threads in (False, True):
                found = kernels.partition_stats(stored, guess_ids, candidates, n_feedbacks, statistic, clog,
                                                by_column=by_column, threads=threads)
                assert all(np.array_equal(a, b) for a, b in zip(found, expected)), (statistic, size)


@pytest.mark.parametrize("name, params", eight_holes_slow([p for p in KERNEL_GAMES if p[1].get("colours", 10) <= 16]
                         + [("mastermind", {"colours": 2, "holes": 7}), ("mastermind", {"colours": 16, "holes": 2})]))
def test_partitions_scored_from_packed_codes_are_the_references(name, params):
    """A peg game's statistics and perfect splits computed from its packed codes, with no matrix,
    against the reference's over the numpy engine's matrix: every statistic, on one thread and on
    several, up to 7 holes and 16 colours (the most the packing holds)."""
    from guesstree.compiler.engine import reference
    from guesstree.compiler.engine.kinds import PackedPegs
    from guesstree.compiler.engine.statistic import clog_table

    game = make_game(name, **params)
    scorers = [Scorer(game, 1 << 30, "numba", whole=False, threads=threads) for threads in (False, True)]
    scorer = scorers[1]
    assert isinstance(scorer.codes.block, PackedPegs) and scorer.on_the_fly and scorer.matrix is None
    matrix = Scorer(game, 1 << 30, "numpy").matrix
    n_feedbacks, clog = len(game.feedbacks()), clog_table(len(game.secrets))
    rng = np.random.default_rng(len(game.secrets))
    for size in (1, 2, 5, 14, 60, len(game.secrets)):
        candidates = np.sort(rng.choice(len(game.secrets), min(size, len(game.secrets)), replace=False))
        guess_ids = rng.permutation(len(game.guesses))[:400]
        for statistic in (CLOG_SUM, MAX_PART, SUM_SQUARES, PARTS):
            expected = reference.partition_stats(matrix, guess_ids, candidates, n_feedbacks, statistic, clog)
            for each in scorers:
                found = each.partition_stats(guess_ids, candidates, statistic)
                assert all(np.array_equal(a, b) for a, b in zip(found, expected)), (statistic, size, each.tally)
        perfect = vectorised.first_perfect(matrix, guess_ids, candidates, n_feedbacks)
        assert scorer.first_perfect(guess_ids, candidates) == perfect
        assert np.array_equal(scorer.block(guess_ids[:50], candidates), matrix[np.ix_(guess_ids[:50], candidates)])


def test_the_kernel_benchmark_sums_what_the_reference_sums(load_script):
    """``scripts/bench_kernels.py`` runs against the scorer as it is, and the sums it prints for two
    versions to compare are the reference engine's over the numpy engine's matrix."""
    from guesstree.compiler.engine import reference
    from guesstree.compiler.engine.statistic import clog_table

    found = load_script("bench_kernels").cell_costs(5, 4, runs=1, size=300)
    game = make_game("mastermind", colours=5, holes=4)
    n = len(game.secrets)
    candidates = np.sort(np.random.default_rng(1).choice(n, 300, replace=False))  # the script's
    guesses, matrix = np.arange(n), Scorer(game, 1 << 30, "numpy").matrix
    assert found["candidates"] == 300 and found["packed"]
    for name, statistic in (("parts", PARTS), ("clog", CLOG_SUM), ("max", MAX_PART)):
        stats, _ = reference.partition_stats(matrix, guesses, candidates, len(game.feedbacks()), statistic,
                                             clog_table(n))
        assert found[f"{name}_sum"] == int(stats.sum()), name
        assert found[f"{name}_ns"] > 0
    assert found["matrix_sum"] == int(matrix[:300][:, candidates].astype(np.int64).sum())


def test_entropy_scores_exactly_only_the_guesses_that_could_be_its_pick():
    """``pick_only`` with ``CLOG_SUM`` (entropy): the sums of every guess within a tie's reach of
    the least are exact; any other guess's statistic is a lower bound of its sum beyond that reach,
    so it is neither the pick nor tied: the least its parts allow, or at nodes of ``LEVELS_MIN``
    candidates or more a closer one, from its answers counted by their common colours. From
    ``PRUNE_MIN`` candidates, a guess whose multiset of colours allows no sum within reach is
    dropped uncounted (no parts, its multiset's bound); every other guess's parts are exact. Some
    guesses are left unscored and some dropped, on one thread and on several, with the codes in
    unary words (6 colours) and in nibbles (13)."""
    from guesstree.compiler.engine.statistic import clog_table

    rng = np.random.default_rng(7)
    assert 150 < least_sums.LEVELS_MIN <= 700 and least_sums.PRUNE_MIN <= 700
    for colours in (6, 13):
        game = make_game("mastermind", colours=colours, holes=5)
        scorer = Scorer(game, 1 << 30, "numba", whole=False)
        block, clog = scorer.codes.block, clog_table(len(game.secrets))
        assert (block.layout == packed.UNARY) == (colours == 6)
        unscored = closer = dropped = 0
        for size in (3, 12, 40, 150, 700):
            candidates = np.sort(rng.choice(len(game.secrets), size, replace=False))
            guess_ids = rng.permutation(len(game.guesses))[:3000]
            exact, parts = scorer.partition_stats(guess_ids, candidates, CLOG_SUM)
            for threads in (False, True):
                found, found_parts, first = block.partition_stats(guess_ids, candidates, CLOG_SUM, clog, threads,
                                                                  pick_only=True)
                counted = found_parts > 0
                assert first == -1 and np.array_equal(found_parts[counted], parts[counted])
                assert size >= least_sums.PRUNE_MIN or counted.all()
                reach = exact <= exact.min() + CLOG_MARGIN * size
                assert np.array_equal(found[reach], exact[reach]) and (found <= exact).all()
                assert (found[~reach] > exact.min() + CLOG_MARGIN * size).all()
                least = least_sums.least_clogs(clog, size, int(parts.max()))[parts]
                assert (found[counted] >= least[counted]).all()
                unscored += int((found != exact).sum())
                closer += int(((found != exact) & (found > least)).sum())
                dropped += int((~counted).sum())
        assert unscored > 1000 and closer > 100 and dropped > 1000, colours



@pytest.mark.slow
def test_the_scan_that_stops_at_a_perfect_split_finds_the_first_in_any_block(monkeypatch):
    """``Scorer.perfect_or_stats`` on packed codes scans block by block and stops at the first
    guess that splits the candidates apart: that guess wherever it lies (the first block, a later
    one, the last guess), on one thread and on several (however few the cells), and the full
    statistics when there is none."""
    from guesstree.compiler.engine import reference
    from guesstree.compiler.engine.kernels import BLOCK
    from guesstree.compiler.engine.statistic import clog_table

    monkeypatch.setattr(kernels, "PARALLEL_CELLS", 0)  # threads whenever asked for
    game = make_game("mastermind", colours=6, holes=5)
    scorers = [Scorer(game, 1 << 30, "numba", whole=False, threads=threads) for threads in (False, True)]
    matrix = Scorer(game, 1 << 30, "numpy").matrix
    n_feedbacks, clog = len(game.feedbacks()), clog_table(len(game.secrets))
    rng = np.random.default_rng(5)
    candidates = np.sort(rng.choice(len(game.secrets), 6, replace=False))
    every = np.arange(len(game.guesses))
    answers = np.sort(matrix[:, candidates], axis=1)
    perfect = (np.diff(answers, axis=1) != 0).all(axis=1)
    split, other = rng.permutation(every[perfect]), rng.permutation(every[~perfect])
    assert len(split) > 3 and len(other) > 3 * BLOCK
    for before in (0, 5, BLOCK, 2 * BLOCK + 17, len(other)):
        guess_ids = np.concatenate([other[:before], split, other[before:]])
        for scorer in scorers:
            for statistic in (PARTS, CLOG_SUM):
                assert scorer.perfect_or_stats(guess_ids, candidates, statistic) == \
                    (before, None, None), (before, statistic, scorer.tally)
    for scorer in scorers:
        for statistic in (PARTS, CLOG_SUM):
            first, *found = scorer.perfect_or_stats(other, candidates, statistic)
            expected = reference.partition_stats(matrix, other, candidates, n_feedbacks, statistic, clog)
            assert first == -1 and all(np.array_equal(a, b) for a, b in zip(found, expected))


@pytest.mark.parametrize("workers", [1, 2])
def test_a_part_too_big_for_its_own_matrix_keeps_its_secrets_numbers(monkeypatch, workers):
    """The root's largest part (125 secrets after AAA) has no room for a matrix of its own, the
    others have: the part without one is expanded over the whole game's blocks, its secrets as
    they are (it once took them as numbered within the part, and played AAA again after 0B0W)."""
    game = make_game("mastermind", colours=6, holes=3)
    monkeypatch.setattr(build_module, "PART_MIN_CELLS", 0)
    monkeypatch.setattr(build_module, "PARALLEL_MIN_SECRETS", 1)
    reference = to_bytes(build(game, Options("first", engine="reference"), workers=1))
    assert to_bytes(build(game, Options("first", engine="numpy", max_memory=60_000), workers=workers)) == reference

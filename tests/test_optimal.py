"""The exhaustive strategies and ``bound``: checked against a brute force over all trees on tiny
games, against published results on the classic games, and for the same tree whatever the
number of workers, the table size, or an interruption."""
from __future__ import annotations

import re

import itertools
import json
from collections import Counter
from pathlib import Path
from functools import cache

import numpy as np
import pytest

from guesstree import compiler
from guesstree import player
from guesstree.compiler import Options
from guesstree.compiler.search import counting, partitions, problem, ranking, recursion, table
from guesstree.compiler.search.alike import absent_symbols, lowest_alike, lowest_renamed, unplayed_symbols
from guesstree.compiler.search.counting import counting_tables
from guesstree.compiler.search.solver import Interrupted, Solver
from guesstree.compiler.exact import bound, searched_game, solver_of
from guesstree.compiler.workers.settings import SearchSettings
from guesstree.compiler.search.total import Infeasible
from guesstree.compiler.search.weighing import BIG_PART
from guesstree.player.games import make_game
from guesstree.player.verify import verify

ONE_THREAD = SearchSettings(workers=1)  # a search on this thread alone

INF = float("inf")


def brute_force(game, consistent: bool = False):
    """``(total, worst, choose)`` by plain recursion over candidate sets with the game's own
    scorer: ``total(candidates, budget)`` the least total of any tree within ``budget`` guesses,
    ``worst(candidates)`` the fewest guesses that win them all, ``choose`` the canonical guess
    (least total, then a possible secret, then the lowest guess). Shares no code with compiler/."""
    secrets, guesses = game.secrets, game.guesses
    index = {g: i for i, g in enumerate(guesses)}
    secret_guess = [index[s] for s in secrets]
    answers = [[game.score(g, s) for s in secrets] for g in guesses]

    def parts_of(guess, candidates):
        parts: dict = {}
        for s in candidates:
            parts.setdefault(answers[guess][s], []).append(s)
        return parts

    def options(candidates):
        for guess in ([secret_guess[s] for s in candidates] if consistent else range(len(guesses))):
            parts = parts_of(guess, candidates)
            if len(parts) > 1 or game.win in parts:
                yield guess, [tuple(p) for f, p in parts.items() if f != game.win]

    @cache
    def total(candidates, budget):
        if len(candidates) == 1:
            return 1 if budget >= 1 else INF
        if budget < 2:
            return INF
        return min(len(candidates) + sum(total(p, min(budget - 1, len(p))) for p in parts)
                   for _, parts in options(candidates))

    @cache
    def worst(candidates):
        if len(candidates) == 1:
            return 1
        return min(1 + max((worst(p) for p in parts), default=0) for _, parts in options(candidates))

    def choose(candidates, budget):
        budget = min(budget, len(candidates))
        best = total(candidates, budget)
        return min((guess not in [secret_guess[s] for s in candidates], guess)
                   for guess, parts in options(candidates)
                   if len(candidates) + sum(total(p, min(budget - 1, len(p))) for p in parts) == best)[1]

    return total, worst, choose


def brute_paths(game, choose, budget):
    """Each secret's path (guess codes) through the canonical brute-force tree."""
    paths = {}
    for secret in range(len(game.secrets)):
        candidates, left, path = tuple(range(len(game.secrets))), budget, []
        while True:
            guess = choose(candidates, left)
            path.append(game.guesses[guess])
            feedback = game.score(game.guesses[guess], game.secrets[secret])
            if feedback == game.win:
                break
            candidates = tuple(s for s in candidates if game.score(game.guesses[guess], game.secrets[s]) == feedback)
            left -= 1
        paths[game.secrets[secret]] = path
    return paths


def as_tree(built):
    return player.loads(compiler.to_bytes(built))


TINY = [
    ("mastermind", {"colours": 3, "holes": 3}, "all"),
    ("mastermind", {"colours": 3, "holes": 3}, "consistent"),
    pytest.param("mastermind", {"colours": 4, "holes": 3, "secret_repeats": False}, "all",  # guesses that are never secrets
                 marks=pytest.mark.slow),
    ("mastermind", {"colours": 4, "holes": 3, "secret_repeats": False}, "consistent"),
    ("mastermind", {"colours": 2, "holes": 5}, "all"),
    ("bulls-cows", {"digits": 4, "length": 3}, "all"),
    ("twod", {"size": 5}, "all"),
    pytest.param("twod", {"size": 7}, "all", marks=pytest.mark.slow),  # the only one here where the least total needs more than the fewest guesses
    pytest.param("bulls-cows", {"digits": 5, "length": 3}, "all", marks=pytest.mark.slow),
    pytest.param("mastermind", {"colours": 4, "holes": 3}, "all", marks=pytest.mark.slow),
]


@pytest.mark.parametrize("name, params, candidates", TINY, ids=lambda v: v if isinstance(v, str) else
                         "-".join(f"{k}{w}" for k, w in v.items()))
def test_minimum_total_and_worst_case_match_a_brute_force(name, params, candidates):
    game = make_game(name, **params)
    total, worst, _ = brute_force(game, candidates == "consistent")
    root = tuple(range(len(game.secrets)))
    solver = solver_of(game, candidates, search=ONE_THREAD)
    fewest = worst(root)
    assert solver.minimum_worst().worst == fewest
    assert solver.minimum_total() == total(root, len(root))
    assert solver.minimum_total(fewest) == total(root, fewest)
    assert solver.minimum_total(fewest + 1) == total(root, fewest + 1)
    assert solver.minimum_total(fewest - 1) == table.INF  # no tree: the search says so too


@pytest.mark.parametrize("name, params, strategy, max_depth", [
    ("mastermind", {"colours": 3, "holes": 3}, "optimal-expected", None),
    ("mastermind", {"colours": 4, "holes": 3, "secret_repeats": False}, "optimal-worst", None),
    ("twod", {"size": 5}, "optimal-worst", None),
    pytest.param("twod", {"size": 7}, "optimal-expected", None, marks=pytest.mark.slow),
    pytest.param("twod", {"size": 7}, "optimal-expected", 5, marks=pytest.mark.slow),
])
def test_optimal_trees_are_the_canonical_brute_force_trees(name, params, strategy, max_depth):
    game = make_game(name, **params)
    total, worst, choose = brute_force(game)
    root = tuple(range(len(game.secrets)))
    budget = worst(root) if strategy == "optimal-worst" else (max_depth or len(root))
    built = compiler.build(game, Options(strategy=strategy, max_depth=max_depth))
    tree = as_tree(built)
    expected = brute_paths(game, choose, budget)
    assert {s: [g for g, _ in tree.path(s)] for s in game.secrets} == expected
    assert built.stats["total"] == total(root, budget)


def test_optimal_worst_beats_greedy_entropy_on_twod():
    game = make_game("twod", size=5)
    entropy = compiler.build(game, Options(strategy="entropy")).stats
    optimal = compiler.build(game, Options(strategy="optimal-worst"))
    assert (entropy["worst"], entropy["total"]) == (5, 83)
    assert (optimal.stats["worst"], optimal.stats["total"]) == (4, 83)  # one guess less, no cost in total
    report = verify(as_tree(optimal), max_depth=4)
    assert report.ok, report.errors


def test_a_depth_bound_costs_guesses_on_twod_7():
    game = make_game("twod", size=7)
    free = compiler.build(game, Options(strategy="optimal-expected"))
    bounded = compiler.build(game, Options(strategy="optimal-expected", max_depth=5))
    worst = compiler.build(game, Options(strategy="optimal-worst"))
    assert (free.stats["total"], free.stats["worst"]) == (191, 6)
    assert (bounded.stats["total"], bounded.stats["worst"]) == (193, 5)
    assert (worst.stats["total"], worst.stats["worst"]) == (193, 5)
    arrays = (worst.node_guess, worst.edge_counts, worst.edge_feedback)
    assert arrays == (bounded.node_guess, bounded.edge_counts, bounded.edge_feedback)  # the same search


def test_the_header_records_what_was_proven():
    game = make_game("twod", size=7)
    tree = as_tree(compiler.build(game, Options(strategy="optimal-expected", max_depth=5)))
    assert tree.strategy == {
        "name": "optimal-expected", "candidates": "all", "max_depth": 5, "optimal": True, "minimum_total": 193,
        "first_guesses": 49, "first_guesses_by_class": False, "refuted_by_bound": 35, "refuted_by_search": 13,
        "proven": "exhaustive search: no tree takes fewer than 193 guesses in all over the 49 secrets "
                  "among trees that win every secret within 5 guesses; of the 49 first guesses, 35 are refuted "
                  "by a bound alone and 13 by search"}
    assert verify(tree, max_depth=5).ok
    worst = as_tree(compiler.build(game, Options(strategy="optimal-worst"))).strategy
    assert (worst["optimal"], worst["minimum_worst"], worst["minimum_total"]) == (True, 5, 193)
    assert "no tree wins every secret within 4 guesses" in worst["proven"]
    heuristic = as_tree(compiler.build(game, Options(strategy="entropy"))).strategy
    assert "optimal" not in heuristic


def test_a_fixed_first_guess_is_optimal_after_it():
    game = make_game("mastermind", colours=3, holes=3)
    total, _, _ = brute_force(game)
    built = compiler.build(game, Options(strategy="optimal-expected", first="ABC"))
    first = game.guesses.index((0, 1, 2))
    parts: dict = {}
    for s, secret in enumerate(game.secrets):
        parts.setdefault(game.score((0, 1, 2), secret), []).append(s)
    expected = len(game.secrets) + sum(total(tuple(p), len(p)) for f, p in parts.items() if f != game.win)
    assert built.node_guess[0] == first
    assert built.stats["total"] == expected > 73  # ABC is a worse opening than AAB
    assert "opening with ABC" in built.proof["proven"]


def test_an_impossible_depth_bound_is_a_clear_error():
    with pytest.raises(Infeasible, match="no tree wins every secret of Twod, 7x7 grid within 4 guesses"):
        compiler.build(make_game("twod", size=7), Options(strategy="optimal-expected", max_depth=4))


@pytest.mark.parametrize("options, words", [
    ({"strategy": "entropy", "max_depth": 5}, "--max-depth applies to --strategy optimal-expected only"),
    ({"strategy": "optimal-worst", "max_depth": 5}, "--max-depth applies to --strategy optimal-expected only"),
    ({"strategy": "optimal-expected", "max_depth": 0}, "--max-depth must be a whole number of at least 1"),
])
def test_bad_depth_options(options, words):
    with pytest.raises(ValueError, match=words):
        Options(**options)


def test_the_spec_and_default_path_name_the_depth_bound():
    from guesstree.compiler.builder.writer import default_path

    options = Options(strategy="optimal-expected", max_depth=5)
    assert options.spec() == {"name": "optimal-expected", "candidates": "all", "max_depth": 5}
    assert Options(strategy="optimal-worst").spec() == {"name": "optimal-worst", "candidates": "all"}
    assert str(default_path(make_game("mastermind"), options)) == "mastermind-c6-h4-optimal-expected-depth5.msgpack.zst"


# -- the same tree, however it is computed --------------------------------------------------------

def build_with(game, options, **settings):
    return compiler.build(game, options, search=SearchSettings(**settings))


def test_the_tree_does_not_depend_on_the_number_of_workers():
    game = make_game("mastermind", colours=5, holes=4)  # 625 secrets: big enough for the workers
    options = Options(strategy="optimal-expected")
    one, two = build_with(game, options, workers=1), build_with(game, options, workers=2)
    assert compiler.to_bytes(one) == compiler.to_bytes(two)
    assert one.stats["total"] == 2463


def test_a_search_on_threads_says_which_part_of_a_first_guess_it_hands_out():
    """The status of a long search names the current first guess's part (a job) handed out last,
    with its size: the parts of at least BIG_PART secrets one job each, the smaller ones (of 3 or
    more) one; none of an earlier first guess's."""
    game = make_game("mastermind", colours=5, holes=4)
    seen: list[dict] = []
    build_with(game, Options("optimal-expected"), workers=2, progress=seen.append)

    def jobs(first: str) -> set:
        sizes = sorted(Counter(game.score(game.parse_code(first), s) for s in game.secrets).values(), reverse=True)
        groups = [size for size in sizes if size >= BIG_PART] + [sum(size for size in sizes if 2 < size < BIG_PART)]
        return {(f"{index + 1}/{len(groups)}", size) for index, size in enumerate(groups)}

    noted = [(status["root"], status["part"], status["part_size"]) for status in seen if status.get("part")]
    assert {root for root, _, _ in noted} >= {"AABC"}
    for root, part, size in noted:
        assert (part, size) in jobs(root), (root, part, size)
    largest = max(Counter(game.score(game.parse_code("AABC"), s) for s in game.secrets).values())
    assert ("AABC", "1/" + str(len(jobs("AABC"))), largest) in set(noted)  # its largest part was handed out


def test_a_tiny_table_loses_entries_but_not_the_tree():
    game = make_game("mastermind", colours=4, holes=3)
    options = Options(strategy="optimal-expected")
    roomy = build_with(game, options, workers=1)
    tiny = build_with(game, options, workers=1, slots=16)
    assert compiler.to_bytes(tiny) == compiler.to_bytes(roomy)
    assert roomy.stats["total"] == 206


def test_a_checkpoint_resumes_the_search(tmp_path):
    game = make_game("mastermind", colours=4, holes=4)
    path = tmp_path / "mm.checkpoint"
    first = solver_of(game, search=SearchSettings(workers=1, checkpoint=path))
    assert first.minimum_total() == 905
    assert path.exists() and first.nodes > 50
    again = solver_of(game, search=SearchSettings(workers=1, checkpoint=path, resume=True))
    assert again.minimum_total() == 905
    assert again.nodes < first.nodes / 10  # the solved sets came from the file
    other = searched_game(make_game("mastermind", colours=3, holes=4))
    with pytest.raises(ValueError, match="this checkpoint is of another search"):
        Solver(other, SearchSettings(workers=1, checkpoint=path, resume=True))


@pytest.mark.slow
def test_a_checkpoint_of_one_objective_never_answers_for_another(tmp_path):
    # fewest-at-worst weighs the totals that optimal-worst keeps: resumed from optimal-worst's
    # checkpoint (which it may be), it must still find its own tree, as a fresh search does
    game = make_game("mastermind", colours=4, holes=3)
    path = tmp_path / "mm.checkpoint"
    compiler.build(game, Options("optimal-worst"), search=SearchSettings(checkpoint=path, workers=1))
    resumed = compiler.build(game, Options("fewest-at-worst"), search=SearchSettings(checkpoint=path, resume=True,
                                                                                     workers=1))
    fresh = compiler.build(game, Options("fewest-at-worst"))
    assert compiler.to_bytes(resumed) == compiler.to_bytes(fresh)
    assert (resumed.stats["histogram"][4], resumed.stats["total"]) == (21, 206)  # optimal-worst's has 23


def test_a_damaged_or_foreign_checkpoint_is_refused_by_name(tmp_path):
    """The checkpoint is read back: it gets an artifact's care (trees/CHECKPOINT.md)."""
    import msgpack
    import zstandard

    from guesstree.compiler.search import checkpoint

    identity = {"game": make_game("twod", size=3).identity(), "candidates": "all"}
    table = np.zeros((8, 3), dtype=np.uint64)
    table[2] = (5, 6, 7)
    good = checkpoint.save(tmp_path / "good", table, identity).read_bytes()
    assert checkpoint.load(tmp_path / "good", identity).tolist() == [[5, 6, 7]]

    def document(**changes) -> bytes:
        fields = {"format": checkpoint.FORMAT, "version": [2, 0], "identity": identity, "entries": bytes(24), **changes}
        return zstandard.ZstdCompressor(write_checksum=True).compress(msgpack.packb(fields))

    cases = {
        b"": "the file is empty",
        b"not zstd": "not a zstd-compressed checkpoint (bad frame header)",
        good[:-5]: "damaged",
        good[:20] + bytes([good[20] ^ 1]) + good[21:]: "damaged",
        good + b"x": "damaged",
        zstandard.ZstdCompressor(write_content_size=False).compress(b"x" * 100): "does not declare its content size",
        zstandard.ZstdCompressor().compress(b"x" * 100): "has no checksum",
        document(format="guesstree"): "not a guesstree checkpoint",
        document(version=[1, 0]): "checkpoint version 1.0 is not readable here",
        document(version="2.0"): "bad checkpoint version",
        document(identity={"game": "other"}): "this checkpoint is of another search",
        document(entries=bytes(25)): "entries are malformed",
        document(entries="text"): "entries are malformed",
        zstandard.ZstdCompressor(write_checksum=True).compress(msgpack.packb([1, 2])): "not a guesstree checkpoint",
    }
    for number, (data, reason) in enumerate(cases.items()):
        path = tmp_path / f"bad{number}"
        path.write_bytes(data)
        with pytest.raises(ValueError, match=re.escape(reason)) as caught:
            checkpoint.load(path, identity)
        assert str(caught.value).startswith(f"{path}: ")
    assert checkpoint.load(tmp_path / "good", identity).shape == (1, 3)  # and a good one still loads


def test_the_largest_checkpoint_a_search_writes_is_one_the_reader_accepts(tmp_path):
    """A long search's table is at most ``table.SLOTS_MAX`` entries, and its hashes do not
    compress: the file of a full table, its bytes scaled from a smaller random one, stays under
    the reader's cap, so ``--resume`` always reads what a search saved."""
    from guesstree.compiler.search import checkpoint
    from guesstree.compiler.search import table

    assert checkpoint.MAX_ENTRIES >= table.SLOTS_MAX
    entries = np.random.default_rng(23).integers(1, 1 << 63, size=(1 << 16, 3), dtype=np.uint64)
    wordle = Path(__file__).parent / "data" / "wordle"
    identity = {"game": make_game("words", answers=str(wordle / "wordlist_orig_hidden"),
                                  guesses=str(wordle / "wordlist_orig_all"), hard=True).identity(), "candidates": "all"}
    path = checkpoint.save(tmp_path / "random.checkpoint", entries, identity)
    assert checkpoint.load(path, identity).shape == entries.shape
    per_entry = path.stat().st_size / len(entries)
    assert per_entry < checkpoint.ENTRY_BYTES * 1.001  # incompressible, and hardly more
    full = table.SLOTS_MAX * per_entry + 64 * 1024  # the file of a full table, with room for its header
    assert full <= checkpoint.MAX_BYTES and table.SLOTS_MAX * checkpoint.ENTRY_BYTES + 64 * 1024 <= checkpoint.MAX_BYTES


def test_an_interrupted_search_saves_its_work_and_resumes(tmp_path):
    game = make_game("mastermind", colours=4, holes=4)
    path = tmp_path / "mm.checkpoint"
    options = Options(strategy="optimal-expected")
    calls = []

    def impatient(status):
        calls.append(status)
        if len(calls) == 20:
            raise KeyboardInterrupt

    with pytest.raises(Interrupted) as caught:
        build_with(game, options, workers=1, checkpoint=path, progress=impatient)
    assert caught.value.checkpoint == path and path.exists()
    resumed = build_with(game, options, workers=1, checkpoint=path, resume=True)
    assert compiler.to_bytes(resumed) == compiler.to_bytes(build_with(game, options, workers=1))


# -- symmetry --------------------------------------------------------------------------------------

def test_history_symmetry_classes_are_exact():
    """Against a plain enumeration of the position and colour permutations that fix the history:
    the mask keeps exactly the lowest guess of each class."""
    from guesstree.compiler.engine.symmetry import Symmetry

    game = make_game("mastermind", colours=4, holes=3)
    codes = np.array(game.guesses)
    symmetry = Symmetry(game, codes, rename_played=True)
    for history in [(), ((0, 0, 1),), ((0, 1, 2),), ((0, 1, 2), (1, 0, 3)), ((0, 0, 0), (1, 1, 2))]:
        group = []
        for perm in itertools.permutations(range(3)):
            for colours in itertools.permutations(range(4)):
                if all(tuple(colours[h[perm[i]]] for i in range(3)) == h for h in history):
                    group.append((perm, colours))
        lowest = {g: min(tuple(colours[g[perm[i]]] for i in range(3)) for perm, colours in group) == g
                  for g in game.guesses}
        mask = symmetry.canonical(tuple(game.guesses.index(h) for h in history))
        kept = set(game.guesses) if mask is None else {g for g, keep in zip(game.guesses, mask) if keep}
        assert kept == {g for g, keep in lowest.items() if keep}, history


@pytest.mark.slow
@pytest.mark.parametrize("name, params", [("mastermind", {"colours": 5, "holes": 3}), ("bulls-cows", {"length": 3, "digits": 7}),
                                          ("mastermind", {"colours": 5, "holes": 3, "secret_repeats": False,
                                                          "guess_repeats": False})])
def test_guesses_alike_by_absent_symbols_are_exact(name, params):
    """Against a plain enumeration: at nodes whose candidates lack two or more symbols, the guesses
    kept (by numpy, and by the compiled search) are exactly the lowest of each set of guesses that
    differ only in which absent symbols they play; each set answers alike on every candidate."""
    from guesstree.compiler.engine.symmetry import AbsentSymbols

    game = make_game(name, **params)
    solver = solver_of(game, search=ONE_THREAD)
    codes, every = np.array(game.guesses), np.arange(solver.space.n_guesses, dtype=np.int64)
    alike = AbsentSymbols(game, codes)
    assert alike.usable and alike.repeats == (name == "mastermind" and params.get("guess_repeats", True))
    rng = np.random.default_rng(3)
    dropped = 0
    for lacking in [(), (4,), (0, 3), (1, 2, 4)]:
        candidates = np.array([i for i, s in enumerate(game.secrets) if not set(s) & set(lacking)], dtype=np.int64)
        for size in (len(candidates), 9, 3):
            subset = np.sort(rng.choice(candidates, size, replace=False)) if size < len(candidates) else candidates
            absent = set(range(game.symbols)) - {x for i in subset for x in game.secrets[i]}
            classes: dict = {}
            for g, code in enumerate(game.guesses):
                shape = tuple("*" if x in absent else x for x in code) if len(absent) >= 2 else code
                classes.setdefault(shape, []).append(g)
            expected = sorted(min(members) for members in classes.values())
            for members in classes.values():
                answers = {tuple(solver.space.matrix[g, subset]) for g in members}
                assert len(answers) == 1
            assert alike.lowest(every, solver.space.secret_guess[subset]).tolist() == expected
            bits = absent_symbols(solver.space.problem, subset)
            assert [g for g in every if not bits or lowest_alike(solver.space.problem, g, bits)] == expected
            dropped += solver.space.n_guesses - len(expected)
    assert dropped > 0


def test_the_guesses_kept_by_absent_symbols_are_kept_for_the_sets_used_last(monkeypatch):
    """``AbsentSymbols`` keeps the guesses kept for each set of absent symbols within ``KEPT_BYTES``;
    when full it drops the set used longest ago, and one made again is what it was."""
    from guesstree.compiler.engine import symmetry

    game = make_game("mastermind", colours=6, holes=3)
    monkeypatch.setattr(symmetry, "KEPT_BYTES", 2 * len(game.guesses) * 9)  # room for two sets
    alike, fresh = (symmetry.AbsentSymbols(game, np.array(game.guesses)) for _ in range(2))
    a, b, c = 0b000011, 0b001100, 0b110000
    first = alike._kept(a)
    alike._kept(b)
    assert alike._kept(a) is first and list(alike._kept_by_absent) == [b, a]
    alike._kept(c)  # b was used longest ago
    assert alike._kept(a) is first and list(alike._kept_by_absent) == [c, a]
    for absent in (b, c, a):
        assert all(np.array_equal(x, y) for x, y in zip(alike._kept(absent), fresh._kept(absent)))
    assert list(alike._kept_by_absent) == [c, a] and len(fresh._kept_by_absent) == 2


@pytest.mark.parametrize("name, params", [("mastermind", {"colours": 5, "holes": 3}), ("bulls-cows", {"length": 3, "digits": 7})])
def test_guesses_alike_by_a_renaming_of_unplayed_symbols_are_exact(name, params):
    """Against a plain enumeration: after some guesses, the compiled search keeps exactly the lowest
    of each set of guesses that a renaming of the symbols no played guess has maps to each other;
    each set splits every node below those guesses into parts of the same sizes."""
    game = make_game(name, **params)
    solver = solver_of(game, search=ONE_THREAD)
    codes = [tuple(c) for c in game.guesses]
    kept_in_all = 0
    for history in [(), ((0, 1, 2),), ((0, 1, 2), (1, 3, 0)), ((0, 0, 1),), ((3, 4, 0), (0, 1, 2))]:
        history = [h for h in history if h in codes]
        played = {x for h in history for x in h}
        free = [x for x in range(game.symbols) if x not in played]
        bits = unplayed_symbols(solver.space.problem, np.uint64(sum(1 << x for x in played)))
        assert bits == (sum(1 << x for x in free) if len(free) >= 2 else 0)
        renamings = [dict(zip(free, p)) for p in itertools.permutations(free)]
        expected = [g for g, code in enumerate(codes)
                    if all(tuple(r.get(x, x) for x in code) >= code for r in renamings)]
        kept = [g for g in range(len(codes)) if not bits or lowest_renamed(solver.space.problem, g, bits)]
        assert kept == expected, history
        kept_in_all += len(kept)
        feedback = solver.space.matrix[[codes.index(h) for h in history], :] if history else np.zeros((0, len(codes)))
        for secret in (0, 7, 20):  # the node of the candidates that answer the history as this secret does
            node = np.flatnonzero((feedback == feedback[:, [secret]]).all(axis=0))
            for g, code in enumerate(codes):
                image = codes.index(tuple(renamings[-1].get(x, x) for x in code))
                sizes = sorted(np.unique(solver.space.matrix[g, node], return_counts=True)[1])
                assert sizes == sorted(np.unique(solver.space.matrix[image, node], return_counts=True)[1])
    assert kept_in_all < 5 * len(codes)


@pytest.mark.slow
@pytest.mark.parametrize("name, params", [("mastermind", {"colours": 4, "holes": 3}), ("bulls-cows", {"length": 3, "digits": 6})])
def test_a_lookahead_bound_is_the_best_guess_by_counting_and_never_above_the_least_total(name, params):
    """``recursion.lookahead_bound``: the least, over every guess, of the candidates plus the counting
    bounds of its parts (computed here by hand), at most the least total that the search proves."""
    game = make_game(name, **params)
    solver = solver_of(game, search=ONE_THREAD)
    problem, matrix = solver.space.problem, solver.space.matrix
    played = np.uint64((1 << game.symbols) - 1)  # a random set is no node's: no symbol may be renamed
    rng = np.random.default_rng(5)
    for trial in range(30):
        candidates = np.sort(rng.choice(solver.space.n_secrets, rng.integers(3, 40), replace=False))
        penalty = 0 if trial % 2 else 97  # fewest-at-worst's weight on the budget's last guess, or none
        solver.space.penalize(penalty)
        problem = solver.space.problem
        for budget in (3, 4, table.UNLIMITED):
            by_hand = table.INF
            for g in range(solver.space.n_guesses):
                sizes = dict(zip(*np.unique(matrix[g, candidates], return_counts=True)))
                if len(sizes) > 1 or solver.space.win in sizes:
                    after = sum(int(counting.least_total(solver.space.least, solver.space.reach, x, budget - 1, penalty))
                                for f, x in sizes.items() if f != solver.space.win)
                    by_hand = min(by_hand, min(len(candidates) + after, table.INF))
            children = np.int64(solver.space.children)
            solver.space.table[:] = 0
            found = recursion.lookahead_bound(problem, candidates, np.int64(budget), played, solver.space._no_state,
                                              True, children)
            assert found == max(by_hand, counting.least_total(solver.space.least, solver.space.reach, len(candidates),
                                                              budget, penalty))
            solver.space.table[:] = 0  # by the candidates' own classes and answers: at least as much
            narrowed = recursion.lookahead_bound(problem, candidates, np.int64(budget), played, solver.space._no_state,
                                                 False, children)
            least = recursion.min_total(problem, candidates, np.int64(budget), np.int64(table.INF + 1), solver.space._empty,
                                    solver.space._no_state, played, children)
            assert found <= narrowed <= least
            assert recursion.lookahead_bound(problem, candidates, np.int64(budget), played,
                                             solver.space._no_state, False, children) == least
            # (the table's exact value, once solved); pure, the lookahead's own value whatever was solved
            assert recursion.lookahead_bound(problem, candidates, np.int64(budget), played,
                                             solver.space._no_state, True, children) == found


@pytest.mark.slow
@pytest.mark.parametrize("name, params", [("mastermind", {"colours": 4, "holes": 3, "secret_repeats": False}),
                                          ("mastermind", {"colours": 5, "holes": 3, "secret_repeats": False}),
                                          ("bulls-cows", {"digits": 5, "length": 3})])
def test_bounds_by_classes_and_by_the_answers_a_node_gets_never_exceed_a_brute_force(name, params):
    """Secrets that play the same colours (a class) answer a guess in fewer ways than the game's most
    (their colours known, only the blacks vary): ``recursion.class_bound`` (the classes' counting
    bounds, each by its own most answers), the lookahead narrowed to the answers the node's guesses
    get, and the search that uses both, against a brute force over every tree, on sets of secrets
    within one class and across classes."""
    game = make_game(name, **params)
    total, _, _ = brute_force(game)
    space = solver_of(game, search=ONE_THREAD).space
    problem, children = space.problem, np.int64(space.children)
    assert len(space.class_branching) > 1 and space.class_branching.max() < space.children
    played = np.uint64((1 << game.symbols) - 1)  # a random set is no node's: no symbol may be renamed
    rng = np.random.default_rng(3)
    narrowed_classes = raised = 0
    for trial in range(60):
        if trial % 3:  # across classes
            candidates = np.sort(rng.choice(space.n_secrets, rng.integers(3, 13), replace=False))
        else:  # within one
            members = np.flatnonzero(space.secret_class == rng.integers(len(space.class_branching)))
            candidates = np.sort(rng.choice(members, rng.integers(3, len(members) + 1), replace=False))
        least = total(tuple(candidates.tolist()), len(candidates))
        counted = int(counting.least_total(space.least, space.reach, len(candidates), table.UNLIMITED, 0))
        bound, branching = recursion.class_bound(problem, candidates, np.int64(table.UNLIMITED), children)
        assert counted <= bound <= least
        narrowed_classes += branching < children
        raised += bound > counted
        space.table[:] = 0
        ahead = recursion.lookahead_bound(problem, candidates, np.int64(table.UNLIMITED), played, space._no_state,
                                          False, children)
        assert ahead <= least
        space.table[:] = 0
        assert recursion.min_total(problem, candidates, np.int64(table.UNLIMITED), np.int64(table.INF + 1), space._empty,
                                   space._no_state, played, children) == least
    assert narrowed_classes >= 20 and raised >= 5


@pytest.mark.slow
def test_a_lookahead_bound_under_a_hint_rule_is_over_the_guesses_it_allows():
    """Hard mode: ``recursion.lookahead_bound`` with a part's hint state is the least, over the
    guesses hard mode allows after the first guess (by the game's own rule), of the part plus the
    counting bounds of its parts, and at most the part's least total there."""
    game = make_game("words", answers=str(Path(__file__).parent / "data" / "words-small.txt"), hard=True)
    solver = solver_of(game, search=ONE_THREAD)
    space = solver.space
    played = np.uint64(0)
    checked = 0
    for first in range(space.n_guesses):
        for part in space.split(first, np.arange(space.n_secrets)):
            if len(part) < 3:
                continue
            history = [(game.guesses[first], game.feedbacks()[space.matrix[first, part[0]]])]
            by_hand = table.INF
            for g in range(space.n_guesses):
                if game.allows(game.guesses[g], history) is not None:
                    continue
                sizes = dict(zip(*np.unique(space.matrix[g, part], return_counts=True)))
                if len(sizes) > 1 or space.win in sizes:
                    after = sum(int(space.counted(x, table.UNLIMITED)) for f, x in sizes.items() if f != space.win)
                    by_hand = min(by_hand, len(part) + after)
            state = space.state(part, (first,))
            space.table[:] = 0
            found = recursion.lookahead_bound(space.problem, part, np.int64(table.UNLIMITED), played, state, False,
                                              np.int64(space.children))
            assert found == max(by_hand, space.counted(len(part), table.UNLIMITED)), (first, part)
            assert found <= space.total_below(part, (first,), table.UNLIMITED, table.INF + 1)
            checked += 1
    assert checked > 10


def test_symbols_put_in_order_keep_the_lowest_of_each_class_when_the_symmetries_are_cut_short(monkeypatch):
    """With fewer symmetries enumerated than the group has (``MAX_SYMMETRIES``), the mask still
    keeps the lowest guess of every class (against the plain enumeration), and putting the symbols
    in order within the positions the history treats alike drops more of the others."""
    from guesstree.compiler.engine import symmetry as module

    game = make_game("mastermind", colours=4, holes=3)
    codes = np.array(game.guesses)
    histories = [(), ((0, 0, 1),), ((0, 1, 2),), ((0, 0, 0), (1, 1, 2))]
    exact = {history: module.Symmetry(game, codes, rename_played=True).canonical(
        tuple(game.guesses.index(h) for h in history)) for history in histories}
    monkeypatch.setattr(module, "MAX_SYMMETRIES", 1)  # the identity alone
    for history in histories:
        played = tuple(game.guesses.index(h) for h in history)
        short = module.Symmetry(game, codes, rename_played=True)
        mask = short.canonical(played)
        assert (mask | ~exact[history]).all(), history  # every class's lowest kept
        short.ordered = False  # the enumerated symmetries alone
        alone = short._compute(played, 1, True)
        assert (alone | ~mask).all() and mask.sum() <= alone.sum(), history
        if history == ():
            assert mask.sum() < alone.sum()


def test_many_holes_first_guess_classes():
    """Mastermind 2x10's group at the root has 7 257 600 symmetries; the mask keeps one first guess
    per class all the same: the number of A's, 10 down to 5 (the colours swapped are the others)."""
    from guesstree.compiler.engine.symmetry import Symmetry

    game = make_game("mastermind", colours=2, holes=10)
    classes = Symmetry(game, np.array(game.guesses), rename_played=True).canonical(())
    assert [game.format_code(g) for g, keep in zip(game.guesses, classes) if keep] == [
        "A" * (10 - b) + "B" * b for b in range(6)]


def test_classic_first_guess_classes():
    from guesstree.compiler.engine.symmetry import Symmetry

    mastermind, bulls = make_game("mastermind"), make_game("bulls-cows")
    classes = Symmetry(mastermind, np.array(mastermind.guesses), rename_played=True).canonical(())
    assert [mastermind.format_code(g) for g, keep in zip(mastermind.guesses, classes) if keep] == [
        "AAAA", "AAAB", "AABB", "AABC", "ABCD"]
    assert Symmetry(bulls, np.array(bulls.guesses), rename_played=True).canonical(()).sum() == 1


def test_counting_bounds():
    least, blind, reach = counting_tables(1296, 14)
    assert reach.tolist() == [0, 1, 14, 183, 1297]  # capped past the secrets
    assert least[1:5].tolist() == [1, 3, 5, 7]  # one guess wins one; the rest need two each
    assert blind[1:5].tolist() == [2, 4, 6, 8]
    assert least[15] == 1 + 2 * 13 + 3


# -- published results and the command line ---------------------------------------------------

def test_bound_of_classic_mastermind_is_five():
    report = bound(make_game("mastermind"))
    assert report.worst == 5
    assert report.proof["lower"]["impossible"] == 4
    assert report.proof["upper"]["first_guess"] == "AABB"
    assert report.proof["lower"]["by"] == ("exhaustive search: none of the 5 first guesses (one per symmetry "
                                           "class) leaves parts that can all be won within 3 more guesses")


def test_bound_says_how_a_depth_of_two_is_refuted():
    words = Path(__file__).parent / "data"
    game = make_game("words", answers=str(words / "words-ight.txt"), guesses=str(words / "words-ight-guesses.txt"))
    report = bound(game)
    assert (report.worst, report.proof["upper"]["first_guess"]) == (3, "FMNRS")
    assert report.proof["lower"]["by"] == ("10 secrets are more than any tree of 2 guesses can win (9: no guess "
                                           "gets more than 8 answers besides the win)")  # (tests/test_counting.py: a search)


@pytest.mark.slow
def test_bound_of_bulls_and_cows_is_seven():
    report = bound(make_game("bulls-cows"))
    assert report.worst == 7
    assert report.proof["lower"]["impossible"] == 6


@pytest.mark.slow
@pytest.mark.parametrize("max_depth, total, worst", [(None, 5625, 6), (5, 5626, 5)])
def test_classic_mastermind_optimal_expected(max_depth, total, worst):
    built = compiler.build(make_game("mastermind"), Options(strategy="optimal-expected", max_depth=max_depth))
    assert (built.stats["total"], built.stats["worst"]) == (total, worst)
    report = verify(as_tree(built), max_depth=worst)
    assert report.ok and report.total == total


@pytest.mark.slow
def test_classic_mastermind_fewest_at_worst_is_slovesnovs_539():
    # Slovesnov reports that any strategy of 5 guesses at most leaves at least 539 secrets to the fifth
    built = compiler.build(make_game("mastermind"), Options(strategy="fewest-at-worst"))
    assert list(built.stats["histogram"].values()) == [1, 8, 77, 671, 539]
    assert (built.proof["minimum_worst"], built.proof["fewest_at_worst"], built.proof["minimum_total"]) == (5, 539, 5627)
    assert "needs 5 for at least 539 secrets, and none with 539 takes fewer than 5627" in built.proof["proven"]
    tree = as_tree(built)
    assert verify(tree).ok
    tree.strategy["fewest_at_worst"] = 538  # a header that claims one secret fewer than its tree has
    assert "the header claims fewest_at_worst = 538, but the tree gives 539" in verify(tree).errors[0]


def test_bound_command(cli):
    result = cli("bound", "mastermind", "--colours", "3", "--holes", "3", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["worst"], data["proof"]["lower"]["impossible"], data["proof"]["upper"]["depth"]) == (4, 3, 4)
    assert data["nodes"] >= 1 and data["seconds"] >= 0
    assert data["game"] == {"name": "mastermind", "params": {"colours": 3, "holes": 3, "secret_repeats": True,
                                                             "guess_repeats": True}}
    text = cli("bound", "twod", "--size", "5")
    assert text.exit_code == 0
    assert text.stdout.startswith("Twod, 5x5 grid: the optimal worst case is 4 guesses\n")


def test_compile_optimal_with_a_depth_bound(cli, tmp_path):
    path = tmp_path / "t.msgpack.zst"
    result = cli("compile", "twod", "--size", "7", "--strategy", "optimal-expected", "--max-depth", "5", "-o", path)
    assert result.exit_code == 0, result.output
    assert "optimal: exhaustive search: no tree takes fewer than 193 guesses" in result.stdout
    assert cli("verify", path, "--max-depth", "5").exit_code == 0


@pytest.mark.parametrize("args, words", [
    (["--strategy", "entropy", "--max-depth", "3"], "--max-depth applies to --strategy optimal-expected only"),
    (["--strategy", "optimal-expected", "--max-depth", "4"], "no tree wins every secret of Twod, 7x7 grid within 4"),
])
def test_compile_refuses_bad_optimal_options(cli, clean_error, tmp_path, args, words):
    result = cli("compile", "twod", "--size", "7", *args, "-o", tmp_path / "t.msgpack.zst")
    assert words in clean_error(result, 2)


def test_an_interrupted_compile_says_how_to_resume(cli, tmp_path, monkeypatch):
    def interrupted(self, *args):
        raise Interrupted(tmp_path / "cp")
    monkeypatch.setattr(Solver, "solve", interrupted)
    result = cli("compile", "twod", "--size", "5", "--strategy", "optimal-worst", "--checkpoint", tmp_path / "cp",
                 "-o", tmp_path / "t.msgpack.zst")
    assert result.exit_code == 130
    assert f"saved in {tmp_path / 'cp'}; run the same compile command with --resume" in result.stderr
    assert not (tmp_path / "t.msgpack.zst").exists()


@pytest.mark.parametrize("key, value, words", [
    ("minimum_total", 192, "the header claims minimum_total = 192, but the tree gives 193"),
    ("minimum_worst", 4, "the header claims minimum_worst = 4, but the tree gives 5"),
    ("max_depth", 4, "the header's max_depth is 4, but a secret takes 5 guesses"),
])
def test_verify_notices_a_false_optimality_claim(key, value, words):
    from guesstree.player.artifact import decode, encode

    built = compiler.build(make_game("twod", size=7), Options(strategy="optimal-worst"))
    header, body = decode(compiler.to_bytes(built))
    assert verify(player.loads(encode(header, body))).ok
    header = {k: v for k, v in header.items() if k not in ("format", "version", "body_sha256", "body")}
    header["strategy"] = {**header["strategy"], key: value}
    report = verify(player.loads(encode(header, body)))
    assert not report.ok and words in report.errors


@pytest.mark.slow
def test_openers_k_is_optimal_among_k_and_its_checkpoint_serves_a_full_search(cli, tmp_path):
    """twod 7: the best first guess by entropy leads to 193 guesses at best, the best opener to 191.
    The restricted root's value is never kept as the root's, so a full search resumed from the
    checkpoint of a restricted one proves 191."""
    from guesstree import player

    checkpoint = tmp_path / "search.checkpoint"
    few, full = tmp_path / "few.msgpack.zst", tmp_path / "full.msgpack.zst"
    result = cli("compile", "twod", "--size", "7", "--strategy", "optimal-expected", "--openers", "1",
                 "--checkpoint", checkpoint, "-o", few)
    assert result.exit_code == 0, result.output
    strategy = player.load(few).strategy
    assert (strategy["optimal"], strategy["optimal_among"], strategy["openers_of"]) == (False, "1 opener", 49)
    assert strategy["minimum_total"] == player.load(few).stats["total"] == 193
    assert strategy["proven"].startswith("optimal among 1 opener (of 49), not proven optimal; exhaustive search: "
                                         "no tree opening with one of the 1 best first guesses by entropy")
    result = cli("compile", "twod", "--size", "7", "--strategy", "optimal-expected", "--checkpoint", checkpoint,
                 "--resume", "-o", full)
    assert result.exit_code == 0, result.output
    assert player.load(full).strategy["optimal"] is True and player.load(full).stats["total"] == 191


def test_openers_k_searched_as_the_ranking_gives_the_tree_of_one_job_per_opener(cli, tmp_path, monkeypatch):
    """``--openers K`` with many openers is searched as the ranking searches first guesses (bounds
    of rising effort, the best first): the same tree, byte for byte, as one exact job per opener."""
    from guesstree.compiler.search import dispatch

    ranked, jobs = tmp_path / "ranked.msgpack.zst", tmp_path / "jobs.msgpack.zst"
    args = ("compile", "twod", "--size", "7", "--strategy", "optimal-expected", "--openers", "20")
    assert cli(*args, "-o", ranked).exit_code == 0
    monkeypatch.setattr(dispatch, "RANKED_ROOT_MIN", 1 << 30)
    assert cli(*args, "-o", jobs).exit_code == 0
    assert ranked.read_bytes() == jobs.read_bytes()
    from guesstree import player

    strategy = player.load(ranked).strategy
    assert (strategy["optimal_among"], strategy["openers_of"]) == ("20 openers", 49)
    assert strategy["minimum_total"] == 191


@pytest.mark.parametrize("args, words", [
    (["--strategy", "entropy", "--openers", "3"], "--openers applies to --strategy optimal-expected only"),
    (["--strategy", "optimal-expected", "--openers", "3", "--first", "11"], "--openers and --first exclude each other"),
    (["--strategy", "optimal-expected", "--openers", "0"], "--openers must be a whole number of at least 1, not 0"),
])
def test_bad_openers_are_refused(cli, clean_error, tmp_path, args, words):
    result = cli("compile", "twod", "--size", "7", *args, "-o", tmp_path / "t.msgpack.zst")
    assert words in clean_error(result, 2)


# -- the compiled scoring of guesses at a node --------------------------------------------------

def _words_game(tmp_path):
    from guesstree.compiler.warm import _word_lists

    answers, guesses = _word_lists(tmp_path)
    return make_game("words", answers=answers, guesses=guesses)


@pytest.mark.parametrize("name", ["mastermind", pytest.param("words", marks=pytest.mark.slow)])
def test_guess_bounds_agree_with_counting_by_hand_on_every_path(name, tmp_path):
    """Bits of the answers that occur (few candidates), counts in blocks (few feedbacks), one guess
    at a time (many feedbacks with the largest part asked for); a run of consecutive guesses read
    without an index, and the same guesses in another order (which must not be read as a run)."""
    game = make_game("mastermind", colours=4, holes=3) if name == "mastermind" else _words_game(tmp_path)
    solver = solver_of(game, search=ONE_THREAD)
    matrix, win = solver.space.matrix, solver.space.win
    rng = np.random.default_rng(7)
    every = np.arange(solver.space.n_guesses, dtype=np.int64)
    for size, penalty in itertools.product((3, 5, 9, 17, min(40, solver.space.n_secrets)), (0, 97)):
        candidates = np.sort(rng.choice(solver.space.n_secrets, size, replace=False)).astype(np.int64)
        solver.space.penalize(penalty)  # fewest-at-worst's weight on the budget's last guess, or none
        for budget in (2, 3, table.UNLIMITED):
            shuffled = every[3:9][[0, 2, 1, 3, 4, 5]]  # the first and last of a run, the rest out of order
            for guesses in (every, every[5:], shuffled, np.sort(rng.choice(every, 7, replace=False))):
                for largest_needed in (False, True):
                    bounds, parts, candidate, largest = partitions.guess_bounds(
                        solver.space.problem, candidates, guesses, np.int64(budget), largest_needed,
                        np.int64(solver.space.children))
                    for j, g in enumerate(guesses):
                        counts = np.bincount(matrix[g, candidates], minlength=solver.space.n_feedbacks)
                        after = sum(int(counting.least_total(solver.space.least, solver.space.reach, x, budget - 1,
                                                             penalty))
                                    for f, x in enumerate(counts) if x and f != win)
                        assert bounds[j] == min(size + after, table.INF)
                        assert parts[j] == np.count_nonzero(counts)
                        assert candidate[j] == (counts[win] > 0)
                        other = [x for f, x in enumerate(counts) if f != win]
                        assert largest[j] == (max(other) if largest_needed else -1)


WORDLE = Path(__file__).parent / "data" / "wordle"  # the original lists


@pytest.mark.parametrize("name", ["mastermind", "words"])
def test_parts_by_comparing_answers_and_by_their_bits_agree_with_counting_by_hand(name):
    """The two ways of finding each guess's parts and whether it is a candidate, which
    ``_perfect_bounds`` chooses between by the candidates' number (``PAIRWISE_MAX``): comparing
    the candidates' answers two by two, and setting a bit for each answer that occurs, in four
    words (Mastermind's 14 feedbacks, Wordle's 243, in every word). Sizes around both kernels'
    groups of four candidates and the bound; guesses read as a run, from a run's middle, gathered,
    reversed, every other one, across tiles and blocks of guesses; and ``_perfect_bounds``, which
    reads guesses gathered close together as their whole span (``SPAN_READ``)."""
    if name == "words":
        game = make_game("words", answers=str(WORDLE / "wordlist_orig_hidden"), guesses=str(WORDLE / "wordlist_orig_all"))
    else:
        game = make_game("mastermind", colours=6, holes=4)
    space = solver_of(game, search=ONE_THREAD).space
    rng = np.random.default_rng(3)
    every = np.arange(space.n_guesses, dtype=np.int64)
    gathered = np.sort(rng.choice(every, min(space.n_guesses - 9, partitions.TILE + 300), replace=False))
    for n in (1, 2, 3, 4, 5, 8, 31, partitions.PAIRWISE_MAX, partitions.PAIRWISE_MAX + 1, 98, 99, 100, 101, 300):
        candidates = np.sort(rng.choice(space.n_secrets, n, replace=False)).astype(np.int64)
        for guesses in (every, every[7:], gathered, gathered[::-1].copy(), every[3::2].copy()):
            answers = np.sort(space.matrix[guesses][:, candidates], axis=1)
            expected_parts = 1 + np.count_nonzero(np.diff(answers.astype(np.int16), axis=1), axis=1)
            expected_candidate = (answers == space.win).any(axis=1)
            first, contiguous = partitions._contiguous(guesses)
            assert contiguous == bool((np.diff(guesses) == 1).all())
            for kernel in (partitions._pairwise_parts, partitions._bit_parts):
                parts, candidate = np.full(len(guesses), -1, np.int64), np.zeros(len(guesses), np.bool_)
                kernel(space.problem, candidates, guesses, first, contiguous, parts, candidate)
                assert (parts == expected_parts).all() and (candidate == expected_candidate).all(), (kernel, n)
            bounds = np.empty(len(guesses), np.int64)
            partitions._perfect_bounds(space.problem, candidates, guesses, first, contiguous, bounds, parts, candidate)
            assert (parts == expected_parts).all() and (candidate == expected_candidate).all(), n
            assert (bounds == 3 * n - expected_parts - expected_candidate).all(), n


def test_the_lookaheads_least_bound_is_the_least_of_every_guess_bound():
    """A lookahead's least bound (``least_bound``: each guess bounded by its parts, then the few
    below the least counted) is the least of ``guess_bounds``' over the guesses that split the
    candidates: Wordle's sets that a first guess leaves and random ones, of sizes on both sides of
    ``PAIRWISE_MAX`` and of the size where a part of every guess costs more than 2k - 1; every
    guess and a gathered half of them."""
    game = make_game("words", answers=str(WORDLE / "wordlist_orig_hidden"), guesses=str(WORDLE / "wordlist_orig_all"))
    space = solver_of(game, search=ONE_THREAD).space
    root = np.arange(space.n_secrets, dtype=np.int64)
    rng = np.random.default_rng(5)
    every = np.arange(space.n_guesses, dtype=np.int64)
    openers = [space.searched.arrays.opening(word) for word in ("salet", "crane", "fuzzy", "jazzy")]
    sets = [part for opener in openers for part in space.split(opener, root)
            if len(part) >= ranking.LOOKAHEAD_MIN]
    sizes = (12, partitions.PAIRWISE_MAX, partitions.PAIRWISE_MAX + 1, 64, 77, 150, 400)
    drawn = [np.sort(rng.choice(space.n_secrets, size, replace=False)) for size in sizes]
    for candidates in sets[::4] + drawn:
        for guesses in (every, np.sort(rng.choice(every, space.n_guesses // 2, replace=False))):
            totals, parts, candidate, _ = partitions.guess_bounds(
                space.problem, candidates, guesses, np.int64(table.UNLIMITED), False, np.int64(space.children))
            expected = int(totals[(parts > 1) | candidate].min())
            assert partitions.least_bound(space.problem, candidates, guesses, np.int64(table.UNLIMITED),
                                          np.int64(space.children), False) == expected, len(candidates)


def test_a_search_told_to_stop_gives_up_at_its_next_node():
    game = make_game("mastermind", colours=4, holes=3)
    solver = solver_of(game, search=ONE_THREAD)
    root = np.arange(solver.space.n_secrets, dtype=np.int64)
    solver.space.stop[0] = 1
    with pytest.raises(problem.Stopped):
        recursion.min_total(solver.space.problem, root, np.int64(table.UNLIMITED), np.int64(table.INF + 1), solver.space._empty,
                        solver.space._no_state, np.uint64(0), np.int64(solver.space.children))
    assert not solver.space.table.any()  # nothing half-solved was stored
    solver.space.stop[0] = 0
    assert solver.minimum_total() == 206


@pytest.mark.parametrize("name, params", [pytest.param("mastermind", {}, marks=pytest.mark.slow),
                                          ("bulls-cows", {"length": 3, "digits": 7})])
def test_the_least_bound_is_the_least_of_every_guess_bound(name, params):
    """``partitions.least_bound``, which counts the parts only of the guesses whose lower bound by
    their number of parts is below the least found, gives the least of ``guess_bounds``' over the
    guesses that split the candidates: on sets too big for every part to be perfect, within budgets
    that cap the parts' sizes and not, and with fewest-at-worst's penalty (counted as before)."""
    game = make_game(name, **params)
    space = solver_of(game, search=ONE_THREAD).space
    rng = np.random.default_rng(11)
    guesses = np.arange(space.n_guesses, dtype=np.int64)
    checked_big = 0
    for trial in range(40):
        space.penalize(0 if trial % 4 else 31)
        problem = space.problem
        candidates = np.sort(rng.choice(space.n_secrets, rng.integers(3, min(space.n_secrets, 700)), replace=False))
        scan = guesses if trial % 3 else np.sort(rng.choice(guesses, space.n_guesses // 2, replace=False))
        for budget in (3, 4, 6, table.UNLIMITED):
            children = np.int64(space.children)
            totals, parts, candidate, _ = partitions.guess_bounds(problem, candidates, scan, np.int64(budget), False,
                                                                  children)
            split = (parts > 1) | candidate
            expected = int(totals[split].min()) if split.any() else table.INF
            assert partitions.least_bound(problem, candidates, scan, np.int64(budget), children, False) == expected
            # narrowed to the most answers the guesses get here: each guess's parts counted by those tables
            most = int(max(1, (parts - candidate).max()))
            totals, _, _, _ = partitions.guess_bounds(problem, candidates, scan, np.int64(budget), False,
                                                      np.int64(min(children, most)))
            narrowed = int(totals[split].min()) if split.any() else table.INF
            assert partitions.least_bound(problem, candidates, scan, np.int64(budget), children, True) == narrowed
            checked_big += space.least[len(candidates)] > 2 * len(candidates) - 1 and expected < table.INF
    assert checked_big >= 20


@pytest.mark.parametrize("name, params", [("mastermind", {"colours": 5, "holes": 3}),
                                          ("bulls-cows", {"digits": 7, "length": 3}),
                                          ("words", {"hard": True})])
def test_a_guess_below_the_root_in_one_compiled_call_is_the_python_steps(name, params, tmp_path):
    """``recursion.guess_total`` (what ``root_total`` runs below the root with no board) against the
    Python steps it replaces (forced by a fence that never tightens): the same kernel calls in the
    same order, so the same total for every guess of a second-level node, under no limit, the exact
    total as the limit (refuted), and more; in hard mode too (each part's hint-rule state derived in
    the kernel, where the Python steps build it from the history)."""
    if name == "words":  # 400 of Wordle's answers, in hard mode
        words = (Path(__file__).parent / "data" / "wordle" / "wordlist_orig_hidden").read_text().split()[:400]
        (tmp_path / "answers.txt").write_text("\n".join(words) + "\n")
        params = {**params, "answers": str(tmp_path / "answers.txt")}
    game = make_game(name, **params)
    compiled, stepped = (solver_of(game, search=ONE_THREAD)
                         for _ in range(2))
    space, budget = compiled.space, table.UNLIMITED
    first = int(space.guesses(np.arange(space.n_secrets, dtype=np.int64), ())[0])
    node = np.ascontiguousarray(next(part for part in space.split(first, np.arange(space.n_secrets, dtype=np.int64))
                                     if len(part) <= 40))
    played, refuted = (first,), 0
    guesses = space.guesses(node, played)[:40].tolist()
    assert len(guesses) >= 4
    for guess in guesses:
        exact = None
        for limit in ("none", "exact", "above"):
            limit = table.INF + 1 if limit == "none" else exact + (limit == "above")
            one = compiled.total.root_total(node, guess, budget, limit, None, played)
            steps = stepped.total.root_total(node, guess, budget, limit, (0, True, 0, 0), played)
            assert one == steps, (guess, limit)
            exact = one[0] if exact is None else exact
            refuted += one[0] >= limit
        assert compiled.space.nodes == stepped.space.nodes
    assert refuted == len(guesses)  # every guess refuted at its own exact total, none below it

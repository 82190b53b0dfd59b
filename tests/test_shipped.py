"""The shipped trees: present, intact, verified, reproducible, and true to the published results."""
from __future__ import annotations

import dataclasses

import hashlib
import json
import re
from pathlib import Path

import pytest

from guesstree import player
from guesstree.player.verify import verify

ROOT = Path(__file__).resolve().parent.parent
TREES = ROOT / "trees"
MANIFEST = json.loads((TREES / "MANIFEST.json").read_text())
ENTRIES = {entry["file"]: entry for entry in MANIFEST["trees"]}
CLASSIC = {"name": "mastermind", "params": {"colours": 6, "holes": 4, "secret_repeats": True, "guess_repeats": True}}

# Public results on classic Mastermind, guesses to win (the README's table):
# strategy -> (total, average to 3 places, worst, distribution 1..worst or None).
PUBLISHED = {
    "first": (7471, 5.765, 9, None),
    "minimax": (5801, 4.476, 5, [1, 6, 62, 533, 694]),
    "entropy": (5722, 4.415, 6, None),
    "expected-size": (5696, 4.395, 6, None),
    "most-parts": (5668, 4.373, 6, None),
}


def is_small(entry: dict) -> bool:
    """Rebuilt by the test suite: every 6-colour 4-hole mastermind tree, and twod."""
    game = entry["game"]
    classic = game["name"] == "mastermind" and game["params"]["colours"] == 6 and game["params"]["holes"] == 4
    return classic or game["name"] == "twod"


def with_int_keys(stats: dict) -> dict:
    """The manifest's stats as the artifact holds them (JSON turned histogram keys into strings)."""
    return {key: ({int(k): v for k, v in value.items()} if isinstance(value, dict) else value)
            for key, value in stats.items()}


@pytest.fixture(scope="module")
def trees() -> dict[str, player.Tree]:
    return {}


def loaded(trees: dict, file: str) -> player.Tree:
    if file not in trees:
        trees[file] = player.load(TREES / file)
    return trees[file]


def test_manifest_lists_every_shipped_file():
    shipped = sorted(path.name for path in TREES.glob("*.msgpack.zst"))
    assert shipped == sorted(ENTRIES)
    assert len(ENTRIES) == len(MANIFEST["trees"])  # no file listed twice


def test_manifest_is_the_build_scripts_set(load_script):
    build_trees = load_script("build_trees")
    assert [tree.file for tree in build_trees.SHIPPED] == [entry["file"] for entry in MANIFEST["trees"]]


@pytest.mark.parametrize("file", sorted(ENTRIES))
def test_file_matches_manifest(file):
    data = (TREES / file).read_bytes()
    assert len(data) == ENTRIES[file]["bytes"]
    assert hashlib.sha256(data).hexdigest() == ENTRIES[file]["sha256"]


@pytest.mark.parametrize("file", [file if ENTRIES[file]["stats"]["secrets"] <= 5000 else  # 8x5's 32 768 secrets: 10 s and more
                                  pytest.param(file, marks=pytest.mark.slow) for file in sorted(ENTRIES)])
def test_tree_loads_and_verifies(file, trees):
    entry = ENTRIES[file]
    tree = loaded(trees, file)
    assert tree.header["game"] == entry["game"]
    assert tree.strategy == entry["strategy"]
    assert tree.nodes == entry["nodes"]
    assert tree.stats == with_int_keys(entry["stats"])
    report = verify(tree)
    assert report.ok, report.errors
    stats = with_int_keys(entry["stats"])
    assert (report.secrets, report.total, report.worst) == (stats["secrets"], stats["total"], stats["worst"])
    assert report.histogram == stats["histogram"]
    assert report.determined_histogram == stats["determined_histogram"]


@pytest.mark.parametrize("file", [file if any(kind in file for kind in ("-entropy.", "-minimax.", "-first.")) else
                                  pytest.param(file, marks=pytest.mark.slow)  # 2 to 14 s each
                                  for file in sorted(file for file, entry in ENTRIES.items() if is_small(entry))])
def test_small_tree_rebuilds_byte_for_byte(file, tmp_path):
    """The header's game and strategy specs are enough to rebuild the exact file."""
    from guesstree.compiler import Options, build, save

    entry = ENTRIES[file]
    game = player.make_game(entry["game"]["name"], **entry["game"]["params"])
    spec = dict(entry["strategy"])  # an exhaustive tree's header adds what it proved: not an option
    fields = {field.name for field in dataclasses.fields(Options)}
    options = Options(strategy=spec.pop("name"), **{key: value for key, value in spec.items() if key in fields})
    rebuilt = save(build(game, options), tmp_path / file)
    assert rebuilt.read_bytes() == (TREES / file).read_bytes()


@pytest.mark.parametrize("strategy", sorted(PUBLISHED))
def test_classic_mastermind_published_results(strategy, trees):
    total, average, worst, distribution = PUBLISHED[strategy]
    [file] = [file for file, entry in ENTRIES.items()
              if entry["game"] == CLASSIC and entry["strategy"]["name"] == strategy]
    stats = loaded(trees, file).stats
    assert stats["secrets"] == 1296
    assert stats["total"] == total
    assert round(stats["average"], 3) == average
    assert stats["worst"] == worst
    if distribution is not None:
        assert [stats["histogram"].get(k, 0) for k in range(1, worst + 1)] == distribution


def test_classic_first_plays_consistent_candidates_only():
    [entry] = [e for e in ENTRIES.values() if e["game"] == CLASSIC and e["strategy"]["name"] == "first"]
    assert entry["strategy"] == {"name": "first", "candidates": "consistent"}


def test_format_md_worked_example_is_what_the_compiler_writes():
    """trees/FORMAT.md walks through this tiny tree byte by byte; keep the two in step."""
    from guesstree.compiler import Options, build, to_bytes
    from guesstree.compiler.builder.writer import body

    built = build(player.make_game("mastermind", colours=3, holes=2), Options("entropy"))
    arrays = body(built)
    document = (TREES / "FORMAT.md").read_text()
    for key in ("guess", "edge_count", "edge_feedback"):
        data = arrays[key]
        shown = " | ".join(data[i:i + 2].hex(" ") for i in range(0, len(data), 2)) if key == "guess" else data.hex(" ")
        assert f"{key:<15}{shown}" in document, key
    tree = player.loads(to_bytes(built))
    assert tree.next_guess([((0, 1), (1, 0)), ((0, 2), (0, 1))]) == (2, 1)
    assert tree.next_guess([((0, 1), (1, 0)), ((0, 2), (0, 1)), ((2, 1), (2, 0))]) is None


def test_a_book_words_tree_carries_the_guesses_it_plays(load_script, tmp_path):
    """build_trees.carry_played rewrites the header through header.build: the game carries only
    the guesses the tree plays, ``allowed_guesses`` says how many it was compiled with, and the
    rest of the header and the body are the compiled tree's own."""
    from guesstree import compiler
    from guesstree.player.artifact import decode
    from guesstree.player.games import make_game
    from guesstree.player.header import Header

    build_trees = load_script("build_trees")
    data = ROOT / "tests" / "data"
    game = make_game("words", answers=str(data / "words-ight.txt"), guesses=str(data / "words-ight-guesses.txt"))
    path = compiler.save(compiler.build(game, compiler.Options("entropy")), tmp_path / "ight.msgpack.zst", "a notice")
    compiled, compiled_body = decode(path.read_bytes())
    build_trees.carry_played(path)
    header, body = decode(path.read_bytes())
    tree = player.load(path)
    played = {tree.guess_of(node) for node in range(tree.nodes)}
    assert body == compiled_body and set(tree.game.guesses) == played and len(played) < len(game.guesses)
    assert header["allowed_guesses"] == len(game.guesses) and tree.allowed_guesses == len(game.guesses)
    assert list(header) == ["format", "version", "producer", "game", "strategy", "stats", "notice", "allowed_guesses",
                            "body_sha256"]
    assert {key: header[key] for key in ("producer", "strategy", "stats", "notice")} == \
        {key: compiled[key] for key in ("producer", "strategy", "stats", "notice")}
    assert Header.read(header, "ight").game == game.portable(played) and verify(tree).ok


def test_the_rankings_of_first_guesses_are_the_records_and_the_trees(load_script):
    """trees/book/RANKINGS.json (which guesstree review reads) holds trees/RECORDS.md's proven
    rankings of Wordle's first guesses, each best one's total the shipped optimal tree's."""
    rankings = json.loads((TREES / "book" / "RANKINGS.json").read_text())["rankings"]
    records = (TREES / "RECORDS.md").read_text()
    normal, hard = rankings
    assert [(o["guess"], o["total"], o["worst"]) for o in normal["openers"]] == [
        (guess, int(total), int(worst)) for _, guess, total, _, worst in
        re.findall(r"^\| (\d+) \| ([A-Z]{5}) \| (\d+) \| ([\d.]+) \| (\d) \|$", records, re.M)]
    row = re.search(r"^\| first guess \| (.*) \|$\n^\| total \| (.*) \|$", records, re.M)
    assert [(o["guess"], o["total"]) for o in hard["openers"]] == list(zip(row.group(1).split(" | "),
                                                                        map(int, row.group(2).split(" | "))))
    assert (normal["max_depth"], hard["max_depth"]) == (None, 6)
    for ranking, tree in ((normal, "wordle-salet-optimal-expected"), (hard, "wordle-hard-salet-optimal-expected-depth6")):
        assert ranking["openers"][0]["total"] == player.load_shipped(tree).stats.total


def test_the_second_guesses_of_bulls_and_cows_are_the_tree_s_at_their_best():
    """RANKINGS.json's table of second guesses after 0123: for every answer, the least total of its
    classes is the shipped optimal tree's there (with 0123, 26274 in all: Tanaka's optimum), and
    every class of second guesses is there."""
    from guesstree.player.worth import TreeFacts

    (table,) = json.loads((TREES / "book" / "RANKINGS.json").read_text())["seconds"]
    tree = player.load_shipped("bulls-cows-d10-l4-optimal-expected")
    game, first = tree.game, tree.game.parse_code(table["first"])
    assert tree.guess_of(0) == first and table["max_depth"] is None
    facts, best = TreeFacts(game, tree), {}
    for answer in table["answers"]:
        feedback = game.parse_feedback(answer["feedback"])
        left = game.consistent(first, feedback, game.secrets)
        best[answer["feedback"]] = min(entry["total"] for entry in answer["classes"])
        assert facts.best([(first, feedback)], left).total == (best[answer["feedback"]],) * 2, answer["feedback"]
        assert len(answer["classes"]) == 20  # the classes of second guesses after 0123, with its digits renamed
    assert len(game.secrets) + sum(best.values()) == tree.stats.total == 26274


@pytest.mark.slow
def test_the_rankings_of_first_guesses_are_proven_again(load_script):
    """RANKINGS.json's rankings, rebuilt (scripts/build_trees.py --rankings: about 5 minutes on 2 cores)."""
    assert load_script("build_trees").proven_rankings() == json.loads((TREES / "book" / "RANKINGS.json").read_text())["rankings"]


@pytest.mark.slow
def test_the_second_guesses_are_proven_again_where_the_first_answer_leaves_a_few_hundred():
    """RANKINGS.json's table of second guesses, computed again by the search for the answers to
    0123 that leave at most 300 secrets (the others take minutes; their best is checked above)."""
    from guesstree.compiler.review import second_guesses

    (table,) = json.loads((TREES / "book" / "RANKINGS.json").read_text())["seconds"]
    again = second_guesses(player.load_shipped("bulls-cows-d10-l4-optimal-expected").game, "0123", most=300)
    assert len(again) == 8 and again == [answer for answer in table["answers"]
                                         if answer["feedback"] in {rebuilt["feedback"] for rebuilt in again}]

"""Exports: nested JSON read back, dot, one text line per secret, the self-contained web page."""
from __future__ import annotations

import base64
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from guesstree import player
from guesstree.player.export import CORE_MODULES, core_script, export, page_data, page_title, reach, to_document

REPO = Path(__file__).parent.parent
SHIPPED_DIGITS = REPO / "trees" / "digits-l4-entropy.msgpack.zst"


@pytest.fixture
def tree_of(build_cached):
    """``tree_of(game, strategy, **params)``: a loaded ``player.Tree`` of a fresh build."""
    from guesstree import compiler

    def make(name: str, strategy: str, **params) -> player.Tree:
        return player.loads(compiler.to_bytes(build_cached(name, strategy, **params)), f"{name}-{strategy}",
                            plugins=["tiny_game"])
    return make


@pytest.fixture
def small_trees(tree_of, golden_path, plugin_path):
    return [
        tree_of("mastermind", "entropy", colours=4, holes=3),
        tree_of("mastermind", "first", colours=4, holes=3, secret_repeats=False, guess_repeats=True),
        tree_of("twod", "minimax", size=4),
        player.load(golden_path("bulls-cows-d4-l2-first.msgpack.zst")),
        tree_of("tiny_game:make", "entropy"),
    ]


def play_json(document: dict, secret) -> list[tuple]:
    """What a program in any language does with the JSON: rebuild the rules, follow the text."""
    game = player.make_game(document["game"]["name"], **document["game"]["params"])
    node, played = document["tree"], []
    while True:
        guess = game.parse_code(node["guess"])
        feedback = game.score(guess, secret)
        played.append((guess, feedback))
        assert game.format_feedback(feedback) in document["feedbacks"]
        if game.format_feedback(feedback) == document["win"]:
            return played
        node = node["feedback"][game.format_feedback(feedback)]


# -- json ----------------------------------------------------------------------

def test_json_read_back_answers_like_the_artifact_for_every_secret(small_trees):
    for tree in small_trees:
        document = json.loads(export(tree, "json"))
        assert document["format"] == "guesstree-json" and document["version"] == [1, 0]
        assert document["game"] == tree.game.spec()
        assert document["strategy"] == tree.strategy
        assert document["stats"]["total"] == tree.stats["total"]
        assert {int(k): v for k, v in document["stats"]["histogram"].items()} == tree.stats["histogram"]
        assert document["nodes"] == tree.nodes
        assert {text: tuple(value) for text, value in document["feedbacks"].items()} == {
            tree.game.format_feedback(f): f for f in tree.game.feedbacks()}
        for secret in tree.game.secrets:
            assert play_json(document, secret) == tree.path(secret), (tree.name, secret)


def test_json_golden_twod_tree_is_the_nested_tree(golden_path):
    document = json.loads(export(player.load(golden_path("twod-s3-minimax.msgpack.zst")), "json"))
    assert document["win"] == "=="
    assert document["tree"] == {
        "guess": "1,1",
        "feedback": {
            "none": {"guess": "0,2", "feedback": {"none": {"guess": "2,0"}}},
            ">=": {"guess": "1,2", "feedback": {"none": {"guess": "2,1"}, ">=": {"guess": "2,2"}}},
            "<=": {"guess": "0,1", "feedback": {"none": {"guess": "1,0"}, "<=": {"guess": "0,0"}}},
        },
    }


def test_json_is_readable_leaves_and_number_lists_on_one_line(mm32_tree):
    text = export(mm32_tree, "json")
    assert '"version": [1, 0],' in text
    assert '"2B0W": [2, 0]' in text
    assert re.search(r'^ +"0B0W": \{"guess": "CC"\}', text, re.M)
    assert json.loads(text) == to_document(mm32_tree)  # the reformatting changed no value


# -- text ----------------------------------------------------------------------

def test_text_golden_mastermind_3x2(mm32_tree):
    lines = export(mm32_tree, "text").splitlines()
    assert [line for line in lines if not line.startswith("#")] == [
        "AA\t3\tAB 1B0W, AC 1B0W, AA 2B0W",
        "AB\t1\tAB 2B0W",
        "AC\t2\tAB 1B0W, AC 2B0W",
        "BA\t2\tAB 0B2W, BA 2B0W",
        "BB\t3\tAB 1B0W, AC 0B0W, BB 2B0W",
        "BC\t2\tAB 0B1W, BC 2B0W",
        "CA\t3\tAB 0B1W, BC 0B1W, CA 2B0W",
        "CB\t3\tAB 1B0W, AC 0B1W, CB 2B0W",
        "CC\t2\tAB 0B0W, CC 2B0W",
    ]


def test_text_has_one_line_per_secret_with_its_path(small_trees):
    for tree in small_trees:
        game = tree.game
        lines = [line for line in export(tree, "text").splitlines() if not line.startswith("#")]
        assert len(lines) == len(game.secrets)
        for line, secret in zip(lines, game.secrets):
            path = tree.path(secret)
            steps = ", ".join(f"{game.format_code(g)} {game.format_feedback(f)}" for g, f in path)
            assert line == f"{game.format_code(secret)}\t{len(path)}\t{steps}"


def test_text_of_a_broken_tree_marks_the_secrets_it_drops(mm32_path):
    from guesstree.player.artifact import decode, encode

    header, body = decode(mm32_path.read_bytes())
    body["guess"] = b"\x00\x02" + body["guess"][2:]  # the root plays AC, but keeps AB's edges
    tree = player.loads(encode(header, body), "broken")
    lines = [line for line in export(tree, "text").splitlines() if not line.startswith("#")]
    assert lines[0] == "AA\t3\tAC 1B0W, AC 1B0W, AA 2B0W"
    assert "BB\t-\tAC 0B0W, CC 0B0W, (the tree has no answer)" in lines
    assert sum(reach(tree)[1]) == sum(not line.split("\t")[1] == "-" for line in lines)


# -- dot -----------------------------------------------------------------------

def dot_parts(text: str):
    nodes = re.findall(r"^  (n\d+) \[label=\"([^\"]*)\"", text, re.M)
    edges = re.findall(r"^  (n\d+) -> (n\d+) \[label=\"([^\"]*)\"\];", text, re.M)
    return dict(nodes), edges


def test_dot_draws_every_node_and_edge(tree_of):
    tree = tree_of("mastermind", "entropy", colours=4, holes=3)
    text = export(tree, "dot")
    assert text.startswith("digraph guesstree {") and text.rstrip().endswith("}")
    nodes, edges = dot_parts(text)
    assert len(nodes) == tree.nodes and len(edges) == tree.nodes - 1
    first = tree.game.format_code(tree.guess_of(0))
    assert nodes["n0"] == f"{first}\\n64 secrets"
    assert sorted((int(c[1:]), f) for p, c, f in edges if p == "n0") == sorted(
        (child, tree.game.format_feedback(f)) for f, child in tree.edges(0))


def test_dot_max_depth_cuts_with_a_summary(golden_path):
    tree = player.load(golden_path("twod-s3-minimax.msgpack.zst"))
    text = export(tree, "dot", max_depth=2)
    nodes, edges = dot_parts(text)
    assert nodes == {"n0": "1,1\\n9 secrets", "n1": "0,2\\n2 secrets", "n2": "1,2\\n3 secrets", "n3": "0,1\\n3 secrets"}
    assert edges == [("n0", "n1", "none"), ("n0", "n2", ">="), ("n0", "n3", "<=")]
    assert '  n1_more [label="1 more node", shape=plaintext];' in text
    assert '  n2_more [label="2 more nodes", shape=plaintext];' in text
    assert len(dot_parts(export(tree, "dot", max_depth=1))[0]) == 1
    with pytest.raises(ValueError, match="at least 1"):
        export(tree, "dot", max_depth=0)


# -- html ----------------------------------------------------------------------

def embedded(page: str) -> dict:
    found = re.search(r'<script type="application/json" id="tree-data">(.*?)</script>', page, re.S)
    return json.loads(found[1])


def test_html_is_self_contained(small_trees):
    for tree in small_trees:
        page = export(tree, "html")
        assert page.startswith("<!doctype html>")
        assert "default-src 'none'" in page  # the page may fetch nothing, even if it tried
        assert not re.search(r"<link|<img|<iframe|@import|url\(|\ssrc=|\shref=", page, re.I)
        assert not re.search(r"https?://", page.replace("http://www.w3.org/2000/svg", ""))
        assert "/*DATA*/" not in page and "/*SCRIPT*/" not in page and "<!--TITLE-->" not in page
        assert embedded(page) == page_data(tree)


def tree_from_page(data: dict, name: str) -> player.Tree:
    """The tree the page builds: the embedded header and body, read back by the Python player."""
    from guesstree.player.tree import Tree

    body = {key: base64.b64decode(value) if key in ("guess", "edge_count", "edge_feedback") else value
            for key, value in data["body"].items()}
    return Tree(data["header"], body, name, plugins=["tiny_game"])


def test_html_embedded_tree_is_the_tree(small_trees):
    """The page's data is the artifact as the JavaScript player reads it: read back, every secret's
    path is the original tree's, and a plugin game comes with its scores, the game's own."""
    for tree in small_trees:
        data = page_data(tree)
        again = tree_from_page(data, tree.name)
        assert again.game == tree.game and again.stats == tree.stats and again.strategy == tree.strategy
        assert again.nodes == tree.nodes and again.feedbacks == tree.feedbacks
        for secret in tree.game.secrets:
            assert again.path(secret) == tree.path(secret)
        assert data["describe"] == [tree.game.describe_feedback(f) for f in tree.game.feedbacks()]
        table = data.get("table")
        assert (table is not None) == (tree.game.name == "tiny_game:make")
        if table:
            codes = [tuple(c) for c in table["codes"]]
            secrets = codes[:table["secrets"]]
            assert secrets == list(tree.game.secrets)
            assert {tree.guess_of(n) for n in range(tree.nodes)} <= set(codes)
            feedbacks = [tuple(f) for f in table["feedbacks"]]
            assert [feedbacks[i] for i in table["scores"]] == [tree.game.score(g, s) for g in codes for s in secrets]
            assert table["code_texts"] == [tree.game.format_code(c) for c in codes]


def test_html_embeds_the_header_its_writer_would_build(mm32_path):
    """The page's header is ``header.build``'s of the tree's fields (its game the spec the page
    names), so a key the file carries reaches the page: ``allowed_guesses`` among them."""
    from guesstree.player.artifact import decode, encode
    from guesstree.player.header import build

    header, body = decode(mm32_path.read_bytes())
    tree = player.loads(encode({**{k: header[k] for k in ("producer", "game", "strategy", "stats")},
                                "allowed_guesses": 12}, body), "allowed")
    embedded_header = page_data(tree)["header"]
    assert embedded_header == {"format": "guesstree", "version": [1, 2],
                               **build(tree.game, tree.strategy, tree.stats, allowed_guesses=12,
                                       producer=header["producer"]), "game": header["game"]}
    assert tree_from_page(page_data(tree), "allowed").allowed_guesses == 12


def test_html_runs_the_javascript_package_core(mm32_tree):
    """One JavaScript player: the page inlines the package's core modules, their imports dropped."""
    page = export(mm32_tree, "html")
    script = core_script()
    assert script in page
    source = REPO / "player" / "js" / "src"
    for module in CORE_MODULES:
        for line in (source / module).read_text().splitlines():
            if not line.startswith(("import ", "export {")):
                assert line.removeprefix("export ") in script
    assert not re.search(r"^\s*(import|export)\b", script, re.M)
    assert "class Tree" in script and "class Words extends Game" in script and "suggest(history, {" in script
    assert "function bestGuess(game, worst, steps, remaining)" in script  # the rule of player/advice.py



def test_html_script_declares_each_name_once():
    """The page runs the core modules and player.js in one scope: a top-level name declared in two
    of them (games.js's table of word marks and the page's, say) stops the page before it starts."""
    files = [REPO / "player" / "js" / "src" / module for module in CORE_MODULES] + [REPO / "player" / "web" / "player.js"]
    declared = r"^(?:export )?(?:const|let|var|function|class|async function) ([A-Za-z_$][\w$]*)"
    names = [name for path in files for name in re.findall(declared, path.read_text(), re.M)]
    assert sorted({name for name in names if names.count(name) > 1}) == []

def test_html_titles(golden_path, tree_of):
    wordle = player.load(REPO / "trees" / "wordle-salet-optimal-expected.msgpack.zst")
    hard = player.load(REPO / "trees" / "wordle-hard-salet-optimal-expected-depth6.msgpack.zst")
    assert page_title(wordle) == "Wordle (original answers): optimal-expected, opening SALET"
    assert page_title(hard) == "Wordle (original answers), hard mode: optimal-expected, at most 6 guesses, opening SALET"
    small = tree_of("words", "entropy", answers=str(REPO / "tests" / "data" / "words-small.txt"))
    assert re.fullmatch(rf"Words of 5 letters \({len(small.game.secrets)} answers\): entropy, opening [A-Z]{{5}}", page_title(small))
    assert page_title(player.load(golden_path("twod-s3-minimax.msgpack.zst"))) == "Twod, 3x3 grid: minimax"
    assert "<title>guesstree: Wordle (original answers): optimal-expected, opening SALET</title>" in export(wordle, "html")


def test_html_kinds_of_display(small_trees):
    assert [page_data(tree)["kind"] for tree in small_trees] == ["pegs", "pegs", "pair", "digits", "text"]


@pytest.mark.skipif(not SHIPPED_DIGITS.exists(), reason="the shipped digits tree is not built")
def test_html_stays_small_for_a_10000_secret_tree():
    tree = player.load(SHIPPED_DIGITS)
    assert tree.stats["secrets"] == 10000
    page = export(tree, "html")
    assert len(page.encode()) < 245_000  # about 15 bytes a secret, and the page's code (its review, 26 KB, and the feedback rules included)
    assert embedded(page)["body"]["nodes"] == tree.nodes


def test_export_is_not_loaded_by_import_player():
    code = ("import sys; from guesstree import player; assert 'guesstree.player.export' not in sys.modules; "
            "import guesstree.player.export; "
            "print(sorted(m for m in ('numpy', 'typer', 'guesstree.compiler') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_export_refuses_unknown_format_and_stray_depth(mm32_tree):
    with pytest.raises(ValueError, match="unknown format: 'yaml'; choose from json, dot, text, html"):
        export(mm32_tree, "yaml")
    with pytest.raises(ValueError, match="--max-depth applies to --format dot only"):
        export(mm32_tree, "json", max_depth=2)


# -- the command ---------------------------------------------------------------

def test_cli_export_to_stdout_and_file(cli, mm32_path, mm32_tree, tmp_path):
    result = cli("export", mm32_path, "--format", "text")
    assert result.exit_code == 0, result.output
    assert result.stdout == export(mm32_tree, "text")
    out = tmp_path / "web" / "mm.html"
    result = cli("export", mm32_path, "--format", "html", "-o", out)
    assert result.exit_code == 0, result.output
    assert result.stdout == "" and out.read_text(encoding="utf-8") == export(mm32_tree, "html")
    assert [p.name for p in out.parent.iterdir()] == ["mm.html"]  # no temporary file left behind


@pytest.mark.parametrize("suffix, fmt", [(".json", "json"), (".dot", "dot"), (".txt", "text"), (".html", "html")])
def test_cli_export_format_from_suffix(cli, mm32_path, mm32_tree, tmp_path, suffix, fmt):
    out = tmp_path / f"mm{suffix}"
    assert cli("export", mm32_path, "-o", out).exit_code == 0
    assert out.read_text(encoding="utf-8") == export(mm32_tree, fmt)


def test_cli_export_dot_max_depth(cli, golden_path):
    result = cli("export", golden_path("twod-s3-minimax.msgpack.zst"), "--format", "dot", "--max-depth", "1")
    assert result.exit_code == 0
    assert len(dot_parts(result.stdout)[0]) == 1 and "n0_more" in result.stdout


@pytest.mark.parametrize("args, message", [
    (["--format", "yaml"], "error: unknown format: 'yaml'; choose from json, dot, text, html"),
    ([], "error: say which --format to write: json, dot, text, html"),
    (["-o", "out.pdf"], "error: say which --format to write: json, dot, text, html"),
    (["--format", "text", "--max-depth", "2"], "error: --max-depth applies to --format dot only"),
    (["--format", "dot", "--max-depth", "0"], "error: --max-depth must be at least 1"),
])
def test_cli_export_bad_options(cli, clean_error, mm32_path, tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    assert clean_error(cli("export", mm32_path, *args), 2) == message
    assert list(tmp_path.iterdir()) == []


def test_cli_export_missing_tree(cli, clean_error, tmp_path):
    line = clean_error(cli("export", tmp_path / "nope.msgpack.zst", "--format", "json"), 2)
    assert line == f"error: {tmp_path / 'nope.msgpack.zst'}: no such file"

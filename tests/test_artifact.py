"""The artifact: golden trees, round trips, reproducibility, the zstd frame, and the loaded tree."""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from itertools import accumulate
from pathlib import Path

import msgpack
import pytest
import zstandard

from guesstree import compiler
from guesstree import player
from guesstree.player.artifact import CHUNKED, FORMAT_NAME, VERSION, FormatError, decode, encode, write_atomic
from guesstree.player.games import make_game

GOLDEN = Path(__file__).parent / "golden"
REPO = Path(__file__).parent.parent

# Golden trees: file -> (game, parameters, strategy). After a deliberate change of the format
# or of a strategy, rewrite them with:  GUESSTREE_REGEN_GOLDEN=1 pytest tests/test_artifact.py
GOLDEN_TREES = {
    "mastermind-c3-h2-entropy.msgpack.zst": ("mastermind", {"colours": 3, "holes": 2}, "entropy"),
    "twod-s3-minimax.msgpack.zst": ("twod", {"size": 3}, "minimax"),
    "bulls-cows-d4-l2-first.msgpack.zst": ("bulls-cows", {"digits": 4, "length": 2}, "first"),
}


def fresh(name: str, params: dict, strategy: str, **options) -> bytes:
    return compiler.to_bytes(compiler.build(make_game(name, **params), compiler.Options(strategy=strategy, **options)))


@pytest.mark.parametrize("filename", list(GOLDEN_TREES))
def test_fresh_build_is_byte_identical_to_golden(filename):
    data = fresh(*GOLDEN_TREES[filename])
    if os.environ.get("GUESSTREE_REGEN_GOLDEN") == "1":
        write_atomic(GOLDEN / filename, data)
    golden = (GOLDEN / filename).read_bytes()
    # the decoded documents first: a clearer failure than two differing byte strings
    assert decode(data) == decode(golden), f"{filename}: the tree or header changed"
    assert data == golden, f"{filename}: same document, different bytes (zstd settings changed?)"


def guesses_in_node_order(tree) -> list[str]:
    return [tree.game.format_code(tree.guess_of(node)) for node in range(tree.nodes)]


def test_golden_mastermind_3x2_entropy_facts(mm32_tree):
    """Checked by hand: AB splits the 9 secrets 1 (win) / 1 (CC) / 2 (BC, CA) / 1 (BA) / 4;
    AC splits the four {AA, AC, BB, CB} into singletons, the best entropy possible."""
    tree = mm32_tree
    assert tree.game == make_game("mastermind", colours=3, holes=2)
    assert tree.strategy == {"name": "entropy", "candidates": "all"}
    assert tree.next_guess([]) == (0, 1)
    # breadth first, children in feedback order (0,0) (0,1) (0,2) (1,0)
    assert guesses_in_node_order(tree) == ["AB", "CC", "BC", "BA", "AC", "CA", "BB", "CB", "AA"]
    assert tree.edges(0) == [((0, 0), 1), ((0, 1), 2), ((0, 2), 3), ((1, 0), 4)]
    assert tree.edges(4) == [((0, 0), 6), ((0, 1), 7), ((1, 0), 8)]
    assert tree.stats == {
        "secrets": 9, "total": 21, "average": 21 / 9, "worst": 3, "histogram": {1: 1, 2: 4, 3: 4},
        "determined_total": 15, "determined_average": 15 / 9, "determined_worst": 2,
        "determined_histogram": {1: 3, 2: 6},
    }


def test_golden_twod_3_minimax_facts(golden_path):
    """The centre (1,1) leaves at most 3 of the 9 points; corners leave 8, edges 5, (0,2) 4."""
    tree = player.load(golden_path("twod-s3-minimax.msgpack.zst"))
    assert tree.next_guess([]) == (1, 1)
    assert guesses_in_node_order(tree) == ["1,1", "0,2", "1,2", "0,1", "2,0", "2,1", "2,2", "1,0", "0,0"]
    assert tree.stats["histogram"] == {1: 1, 2: 3, 3: 5}
    assert (tree.stats["total"], tree.stats["worst"]) == (22, 3)
    assert tree.stats["determined_histogram"] == {1: 1, 2: 8}


def test_golden_bulls_cows_first_facts(golden_path):
    """01 splits the 12 codes of 2 distinct digits out of 4: 23 32 | 12 13 20 30 | 10 | 02 03 21 31."""
    tree = player.load(golden_path("bulls-cows-d4-l2-first.msgpack.zst"))
    assert tree.strategy == {"name": "first", "candidates": "consistent"}
    assert guesses_in_node_order(tree)[:5] == ["01", "23", "12", "10", "02"]
    assert [len(tree.edges(n)) for n in range(5)] == [4, 1, 3, 0, 3]
    assert tree.stats["histogram"] == {1: 1, 2: 4, 3: 7}
    assert tree.stats["total"] == 30


# -- round trips and reproducibility ---------------------------------------------

@pytest.mark.parametrize("filename", list(GOLDEN_TREES))
def test_write_read_write_is_byte_identical(filename):
    data = (GOLDEN / filename).read_bytes()
    header, body = decode(data)
    assert encode(header, body) == data


def test_write_read_write_on_classic_mastermind(build_cached, tmp_path):
    path = compiler.save(build_cached("mastermind", "entropy"), tmp_path / "mm.msgpack.zst")
    data = path.read_bytes()
    assert data == compiler.to_bytes(build_cached("mastermind", "entropy"))
    assert encode(*decode(data)) == data


def test_same_build_twice_gives_the_same_bytes():
    once = fresh("mastermind", {"colours": 5, "holes": 3, "secret_repeats": False}, "expected-size")
    again = fresh("mastermind", {"colours": 5, "holes": 3, "secret_repeats": False}, "expected-size")
    assert once == again


def test_engine_does_not_appear_in_the_artifact():
    game = ("mastermind", {"colours": 4, "holes": 3}, "entropy")
    assert fresh(*game, engine="fast") == fresh(*game, engine="reference")


# -- the file format -----------------------------------------------------------

def test_zstd_frame_declares_content_size_and_checksum(mm32_path):
    data = mm32_path.read_bytes()
    frame = zstandard.get_frame_parameters(data)
    raw = zstandard.ZstdDecompressor().decompress(data)
    assert frame.content_size == len(raw)
    assert frame.has_checksum
    document = unpack_document(data)
    assert document["format"] == FORMAT_NAME == "guesstree"
    assert document["version"] == [1, 1]  # a tree with no key of 1.2 is a 1.1 file (trees/FORMAT.md §6)
    assert document["body_sha256"] == hashlib.sha256(document["body"]).hexdigest()


def test_a_msgpack_reader_with_default_settings_opens_the_artifact(mm32_path):
    raw = zstandard.ZstdDecompressor().decompress(mm32_path.read_bytes())
    assert msgpack.unpackb(raw)["format"] == "guesstree"


@pytest.mark.skipif(shutil.which("zstd") is None, reason="the zstd command is not installed")
def test_standard_zstd_tool_opens_the_artifact(mm32_path, tmp_path):
    out = tmp_path / "tree.msgpack"
    subprocess.run(["zstd", "-q", "-d", str(mm32_path), "-o", str(out)], check=True)
    assert out.read_bytes() == zstandard.ZstdDecompressor().decompress(mm32_path.read_bytes())
    assert msgpack.unpackb(out.read_bytes(), strict_map_key=False)["game"]["name"] == "mastermind"


def test_header_and_body_fields(mm32_path):
    header, body = decode(mm32_path.read_bytes())
    assert set(header) == {"format", "version", "producer", "game", "strategy", "stats", "body_sha256"}
    assert header["producer"] == f"guesstree {player.__version__}"
    assert header["game"] == {"name": "mastermind", "params": {
        "colours": 3, "holes": 2, "secret_repeats": True, "guess_repeats": True}}
    # the tree as parallel arrays indexed by node id, not nested objects
    assert body["nodes"] == 9 and body["code_length"] == 2
    assert body["feedbacks"] == [[0, 0], [0, 1], [0, 2], [1, 0], [2, 0]]
    assert body["feedback_width"] == 1
    assert body["guess"] == bytes([0, 1, 2, 2, 1, 2, 1, 0, 0, 2, 2, 0, 1, 1, 2, 1, 0, 0])
    assert body["edge_count"] == bytes([4, 0, 1, 0, 3, 0, 0, 0, 0])
    assert body["edge_feedback"] == bytes([0, 1, 2, 3, 1, 0, 1, 3])


def test_no_timestamp_or_machine_data(mm32_path):
    raw = zstandard.ZstdDecompressor().decompress(mm32_path.read_bytes())
    for needle in (os.uname().nodename.encode(), str(REPO).encode(), b"/tmp", b"time"):
        assert len(needle) < 4 or needle not in raw, needle


def test_format_md_documents_every_field(mm32_path):
    format_md = REPO / "trees" / "FORMAT.md"
    if not format_md.exists():
        pytest.fail("trees/FORMAT.md is missing: the format must be documented field by field")
    text = format_md.read_text()
    header, body = decode(mm32_path.read_bytes())
    keys = set(header) | set(body) | set(header["stats"]) | {"body"}
    missing = sorted(key for key in keys if f"`{key}`" not in text)
    assert not missing, f"trees/FORMAT.md does not document {missing}"


DATA = Path(__file__).parent / "data"
IGHT = {"answers": str(DATA / "words-ight.txt"), "guesses": str(DATA / "words-ight-guesses.txt")}
KINDS = [  # (game, its parameters, the options): one tree of each kind the writer makes
    ("mastermind", {"colours": 3, "holes": 2}, {"strategy": "entropy"}),
    ("mastermind", {"colours": 4, "holes": 3}, {"strategy": "sampled-entropy", "guess_sample": 9, "secret_sample": 20}),
    ("mastermind", {"colours": 3, "holes": 3}, {"strategy": "optimal-worst"}),
    ("mastermind", {"colours": 3, "holes": 3}, {"strategy": "fewest-at-worst"}),
    ("mastermind", {"colours": 4, "holes": 3}, {"strategy": "optimal-expected", "openers": 1, "max_depth": 5}),
    ("mastermind", {"colours": 3, "holes": 3}, {"strategy": "random", "first": "AAB"}),
    ("words", IGHT, {"strategy": "optimal-expected"}),
    ("words", {**IGHT, "hard": True}, {"strategy": "minimax"}),
    ("tiny_game:make", {}, {"strategy": "entropy"}),
]


def documented_keys(header: dict, body: dict) -> set[str]:
    """Every key of the tree's maps; a plugin's parameters are its own, not the format's."""
    game = header["game"]
    params = set() if ":" in game["name"] else set(game["params"])
    return set(header) | set(body) | set(header["stats"]) | set(header["strategy"]) | set(game) | params | {"body"}


@pytest.mark.parametrize("name, params, options", KINDS, ids=[f"{k[0]}-{k[2]['strategy']}" for k in KINDS])
def test_format_md_documents_every_key_a_tree_of_each_kind_holds(plugin_path, name, params, options):
    text = (REPO / "trees" / "FORMAT.md").read_text()
    built = compiler.build(make_game(name, **params), compiler.Options(**options))
    header, body = decode(compiler.to_bytes(built))
    if options.get("openers"):  # the control: this tree does carry the keys of a proof among openers
        assert {"openers", "optimal_among", "openers_ranked_by", "openers_of"} <= set(header["strategy"])
        assert header["strategy"]["optimal"] is False
    missing = sorted(key for key in documented_keys(header, body) if f"`{key}`" not in text)
    assert not missing, f"trees/FORMAT.md does not document {missing}"


def test_artifact_hands_on_every_name_of_the_files_jobs():
    """``guesstree.player.artifact`` stays the one import of the file's names: each public name that
    a module of the file's jobs defines is there, the very same object."""
    import ast
    import importlib

    from guesstree.player import artifact

    jobs = ("format", "sources", "frames", "unpacking", "uints", "encoding", "atomic")
    defined = {}
    for job in jobs:
        module = importlib.import_module(f"guesstree.player.{job}")
        tree = ast.parse(Path(module.__file__).read_text())
        for node in tree.body:
            targets = [node] if isinstance(node, (ast.FunctionDef, ast.ClassDef)) else getattr(node, "targets", [])
            for target in targets:
                name = getattr(target, "name", getattr(target, "id", "_"))
                if not name.startswith("_"):
                    defined[name] = getattr(module, name)
    assert {"FormatError", "inflate", "encode", "write_atomic", "pack_uints", "source_of", "MAX_BODY_BYTES"} <= set(defined)
    assert set(defined) <= set(artifact.__all__)
    assert all(getattr(artifact, name) is value for name, value in defined.items())


def test_format_md_states_the_readers_caps():
    """§9's table: each cap the document states is the constant the reader uses."""
    from guesstree.player import body
    from guesstree.player import format as format_module

    text = (REPO / "trees" / "FORMAT.md").read_text()
    section = text[text.index("## 9. Limits of the readers"):text.index("## 10.")]
    units = {"MiB": 1 << 20}
    rows = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if len(cells) == 3 and cells[2].startswith("`") and "." in cells[2]:
            value = cells[1]
            if "^" in value:
                base, power = value.split("^")
                less = power.split(" - ")
                number = int(base) ** int(less[0]) - (int(less[1]) if len(less) > 1 else 0)
            else:
                amount, unit = value.split()
                number = int(amount) * units[unit]
            rows[cells[2].strip("`")] = number
    readers = {"format": format_module, "body": body}
    assert set(rows) == {"format.MAX_FILE_BYTES", "format.MAX_BODY_BYTES", "format.MAX_STRUCTURE_BYTES",
                         "body.MAX_NODES", "body.MAX_CHUNKED_NODES", "body.MAX_CHUNK_NODES", "body.MAX_CHUNKS", "body.MAX_CHUNK_BYTES",
                         "body.CACHE_BYTES"}
    for constant, stated in rows.items():
        module, name = constant.split(".")
        assert getattr(readers[module], name) == stated, constant


# -- the compiled tree answers what the in-memory build answers -------------------

def replay_built(built, secret):
    """Walk ``Built``'s own arrays (independently of player.tree) and return the path."""
    game, feedbacks = built.game, built.game.feedbacks()
    first = [0, *accumulate(built.edge_counts)]
    node, played = 0, []
    while True:
        guess = game.guesses[built.node_guess[node]]
        feedback = game.score(guess, secret)
        played.append((guess, feedback))
        if feedback == game.win:
            return played
        index = feedbacks.index(feedback)
        edges = [e for e in range(first[node], first[node + 1]) if built.edge_feedback[e] == index]
        assert len(edges) == 1, (secret, played)
        node = edges[0] + 1


@pytest.mark.parametrize("name, params, strategy", [
    ("mastermind", {}, "entropy"),
    ("mastermind", {}, "minimax"),
    ("mastermind", {"colours": 5, "holes": 3, "secret_repeats": False}, "most-parts"),
    ("bulls-cows", {"digits": 6, "length": 3}, "expected-size"),
    ("twod", {"size": 5}, "entropy"),
])
def test_artifact_answers_what_the_build_answers(build_cached, name, params, strategy):
    built = build_cached(name, strategy, **params)
    tree = player.loads(compiler.to_bytes(built))
    wins = []
    for secret in built.game.secrets:
        path = tree.path(secret)
        assert path == replay_built(built, secret)
        assert [tree.next_guess(path[:k]) for k in range(len(path))] == [g for g, _ in path]
        assert tree.next_guess(path) is None
        wins.append(len(path))
    assert sum(wins) == built.stats["total"] and max(wins) == built.stats["worst"]


# -- the loaded tree -----------------------------------------------------------

def test_next_guess_follows_the_history(mm32_tree):
    tree = mm32_tree
    assert tree.next_guess([]) == (0, 1)
    assert tree.next_guess([((0, 1), (1, 0))]) == (0, 2)
    assert tree.next_guess([((0, 1), (1, 0)), ((0, 2), (0, 0))]) == (1, 1)
    assert tree.next_guess([[[0, 1], [1, 0]]]) == (0, 2)  # lists are as good as tuples
    assert tree.next_guess([((0, 1), (2, 0))]) is None


@pytest.mark.parametrize("history, words", [
    ([((0, 2), (1, 0))], "step 1: the tree plays AB here, not AC"),
    ([((0, 1), (1, 0)), ((0, 0), (1, 0))], "step 2: the tree plays AC here, not AA"),
    ([((0, 1), (0, 0)), ((2, 2), (1, 0))], "step 2: no secret left gives 1B0W to CC"),
    ([((0, 1), (2, 0)), ((0, 1), (2, 0))], "step 2: the game was won at step 1, yet the history goes on"),
])
def test_inconsistent_history_names_the_step(mm32_tree, history, words):
    with pytest.raises(player.InconsistentHistory) as caught:
        mm32_tree.next_guess(history)
    assert words in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_path_rejects_a_code_of_the_wrong_length(mm32_tree):
    with pytest.raises(ValueError, match="3 symbols"):
        mm32_tree.path((0, 1, 2))


def test_the_package_docstring_example_is_true(monkeypatch):
    import doctest

    if not (REPO / "trees" / "mastermind-c6-h4-entropy.msgpack.zst").exists():
        pytest.skip("the shipped classic entropy tree is not built")
    monkeypatch.chdir(REPO)
    assert doctest.testmod(player, report=False).failed == 0


# -- reading refuses what it cannot trust, and ignores what it does not know --------

def reencoded(path: Path, change_header=None, change_body=None) -> bytes:
    header, body = decode(path.read_bytes())
    if change_header:
        change_header(header)
    if change_body:
        change_body(body)
    return encode(header, body)


def unpack_document(data: bytes) -> dict:
    """The whole msgpack map, body still packed (the stats' histograms have int keys)."""
    return msgpack.unpackb(zstandard.ZstdDecompressor().decompress(data), raw=False, strict_map_key=False)


def compress(raw: bytes) -> bytes:
    return zstandard.ZstdCompressor(write_content_size=True, write_checksum=True).compress(raw)


def pack_document(document: dict) -> bytes:
    return compress(msgpack.packb(document, use_bin_type=True))


def test_unknown_keys_are_ignored(mm32_path):
    def add_header(header):
        header["future_field"] = {"anything": [1, 2]}

    def add_body(body):
        body["future_array"] = b"\x00\x01"

    tree = player.loads(reencoded(mm32_path, add_header, add_body))
    assert tree.next_guess([]) == (0, 1)
    assert tree.stats["total"] == 21


def test_another_major_version_is_refused_with_a_clear_message(mm32_path):
    raw = unpack_document(mm32_path.read_bytes())
    raw["version"] = [CHUNKED[0] + 1, 0]
    data = pack_document(raw)
    with pytest.raises(FormatError) as caught:
        player.loads(data, "future.msgpack.zst")
    message = str(caught.value)
    assert message.startswith("future.msgpack.zst: ")
    assert f"format version {CHUNKED[0] + 1}.0 is not readable" in message


def test_a_newer_minor_version_is_read(mm32_path):
    raw = unpack_document(mm32_path.read_bytes())
    raw["version"] = [VERSION[0], VERSION[1] + 1]
    data = pack_document(raw)
    assert player.loads(data).next_guess([]) == (0, 1)


def test_an_altered_body_is_refused(mm32_path):
    raw = unpack_document(mm32_path.read_bytes())
    body = msgpack.unpackb(raw["body"], raw=False)
    body["guess"] = bytes([2]) + body["guess"][1:]
    raw["body"] = msgpack.packb(body, use_bin_type=True)  # body_sha256 left as it was
    data = pack_document(raw)
    with pytest.raises(FormatError, match="sha256"):
        player.loads(data)


@pytest.mark.parametrize("damage, words", [
    (lambda data: b"", "empty"),
    (lambda data: b"hello, world" * 10, "not a zstd"),
    (lambda data: data[: len(data) // 2], "damaged"),
    (lambda data: data[:-1] + bytes([data[-1] ^ 0xFF]), "damaged"),  # the frame checksum
    (lambda data: compress(b"\x93\x01\x02\x03"), "map"),
    (lambda data: compress(msgpack.packb({"format": "other"})), "not a guesstree"),
    (lambda data: zstandard.ZstdCompressor(write_content_size=False, write_checksum=True).compress(
        zstandard.ZstdDecompressor().decompress(data)), "content size"),
    (lambda data: zstandard.ZstdCompressor(write_checksum=False).compress(
        zstandard.ZstdDecompressor().decompress(data)), "checksum"),
])
def test_damaged_files_raise_format_error_naming_the_file(mm32_path, tmp_path, damage, words):
    path = tmp_path / "bad.msgpack.zst"
    path.write_bytes(damage(mm32_path.read_bytes()))
    with pytest.raises(FormatError) as caught:
        player.load(path)
    assert str(caught.value).startswith(f"{path}: ")
    assert words in str(caught.value)


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(FormatError, match="no such file"):
        player.load(tmp_path / "absent.msgpack.zst")
    with pytest.raises(FormatError, match="is a directory"):
        player.load(tmp_path)


# -- atomic writes ---------------------------------------------------------------

def test_write_atomic_replaces_the_whole_file(tmp_path):
    path = tmp_path / "deep" / "dir" / "tree.msgpack.zst"
    write_atomic(path, b"first version")
    write_atomic(path, b"second")
    assert path.read_bytes() == b"second"
    assert sorted(p.name for p in path.parent.iterdir()) == ["tree.msgpack.zst"]
    assert oct(path.stat().st_mode & 0o777) == "0o644"


def test_interrupted_write_leaves_the_destination_alone(tmp_path, monkeypatch):
    path = tmp_path / "tree.msgpack.zst"
    path.write_bytes(b"the old tree")

    def crash(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(path, b"the new tree")
    assert path.read_bytes() == b"the old tree"
    assert [p.name for p in tmp_path.iterdir()] == ["tree.msgpack.zst"]  # no temporary file left

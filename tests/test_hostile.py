"""Hostile artifacts (issue #5): the loader refuses every file that is not a valid artifact with
``FormatError``, the verifier refuses every loadable tree that is wrong without crashing, and a
compile killed at any moment leaves its destination as it was.
"""
from __future__ import annotations

import hashlib
import json
import os
import select
import signal
import struct
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import msgpack
import pytest
import zstandard
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from guesstree import player
from guesstree.player import FormatError
from guesstree.player.artifact import MAX_BODY_BYTES, MAX_STRUCTURE_BYTES, pack_uints, write_atomic
from guesstree.player.cli import app
from guesstree.player.games import make_game
from guesstree.player.tree import MAX_NODES
from guesstree.player.verify import verify

NAME = "hostile.msgpack.zst"
HANG = 60  # seconds a subprocess gets before it counts as hung: generous, not a benchmark
MEMORY = 2 << 30  # bytes of address space it may use: far above any artifact, far below an inflated bomb
FUZZ = settings(max_examples=150, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# -- building and re-encoding artifacts ----------------------------------------
@pytest.fixture(scope="module")
def artifact() -> bytes:
    from guesstree.compiler import Options, build, to_bytes

    return to_bytes(build(make_game("mastermind", colours=4, holes=3), Options(strategy="entropy")))


def unpack(data: bytes) -> tuple[dict, dict]:
    """The document (header and all) and the body of a valid artifact, as plain msgpack."""
    document = msgpack.unpackb(zstandard.ZstdDecompressor().decompress(data), raw=False, strict_map_key=False)
    return document, msgpack.unpackb(document["body"], raw=False, strict_map_key=False)


def pack(document: dict, body: dict | None = None, sha: bool = True, **frame) -> bytes:
    """Re-encode, with the body's sha256 made right again so that the structural checks run."""
    document = dict(document)
    if body is not None:
        document["body"] = msgpack.packb(body, use_bin_type=True)
    if sha and isinstance(document.get("body"), bytes):
        document["body_sha256"] = hashlib.sha256(document["body"]).hexdigest()
    options = {"level": 1, "write_content_size": True, "write_checksum": True, **frame}
    return zstandard.ZstdCompressor(**options).compress(msgpack.packb(document, use_bin_type=True))


def refused(data: bytes, *words: str) -> str:
    """Assert that ``data`` is refused with a FormatError naming the file (and ``words``)."""
    with pytest.raises(FormatError) as caught:
        player.loads(data, NAME)
    message = str(caught.value)
    assert message.startswith(f"{NAME}: "), message
    for word in words:
        assert word in message, message
    return message


def same_play(a: player.Tree, b: player.Tree) -> bool:
    return (a.game == b.game and a.nodes == b.nodes and a.feedbacks == b.feedbacks
            and all(a.guess_of(n) == b.guess_of(n) and a.edges(n) == b.edges(n) for n in range(a.nodes)))


def same_tree(a: player.Tree, b: player.Tree) -> bool:
    return a.header == b.header and same_play(a, b)


# -- hostile input in a subprocess: a hang or a blow-up fails by timeout, never by a stopwatch --
LOADER = r"""
import json, sys, traceback
from pathlib import Path
try:
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
except (ImportError, ValueError, OSError):
    pass
from guesstree import player
from guesstree.player.verify import verify

for line in sys.stdin:
    operation, path, name = json.loads(line)
    try:
        tree = player.load(path) if operation == "load" else player.loads(Path(path).read_bytes(), name)
        report = verify(tree) if operation == "verify" else None
        reply = {"ok": report.ok, "errors": report.errors} if report else {"loaded": tree.nodes}
    except player.FormatError as error:
        reply = {"refused": str(error)}
    except BaseException:
        reply = {"crashed": traceback.format_exc()}
    print(json.dumps(reply), flush=True)
""".replace("MEMORY", str(MEMORY))


class Loader:
    """A Python subprocess that loads (and verifies) artifacts on request, one at a time.

    Each request must be answered within ``HANG`` seconds, and within ``MEMORY`` bytes of
    address space: a load that loops forever or inflates a bomb fails the test by timeout (or by
    a MemoryError), and the worker is replaced. Crafted bytes go through a file.
    """

    def __init__(self, directory: Path):
        self.file = directory / "input.msgpack.zst"
        self.process: subprocess.Popen | None = None

    def ask(self, operation: str, data: bytes | None = None, path: str | None = None) -> dict:
        if data is not None:
            self.file.write_bytes(data)
            path = str(self.file)
        if self.process is None or self.process.poll() is not None:
            self.process = subprocess.Popen([sys.executable, "-c", LOADER], stdin=subprocess.PIPE,
                                            stdout=subprocess.PIPE, text=True)
        self.process.stdin.write(json.dumps([operation, path, NAME]) + "\n")
        self.process.stdin.flush()
        answered, _, _ = select.select([self.process.stdout], [], [], HANG)
        line = self.process.stdout.readline() if answered else ""
        if not line:
            self.close()
            pytest.fail(f"{operation} of {path} gave no answer within {HANG} s: it hangs or died", pytrace=False)
        reply = json.loads(line)
        assert "crashed" not in reply, reply["crashed"]
        return reply

    def refused(self, data: bytes, *words: str) -> str:
        """Like ``refused``: the bytes are refused with a FormatError naming the file (and ``words``)."""
        reply = self.ask("loads", data)
        assert "refused" in reply, f"loaded, with {reply['loaded']} nodes"
        message = reply["refused"]
        assert message.startswith(f"{NAME}: "), message
        for word in words:
            assert word in message, message
        return message

    def close(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.communicate()
            self.process = None


@pytest.fixture(scope="module")
def loader(tmp_path_factory):
    worker = Loader(tmp_path_factory.mktemp("loader"))
    yield worker
    worker.close()


def test_the_helpers_round_trip(artifact):
    document, body = unpack(artifact)
    assert same_tree(player.loads(pack(document, body)), player.loads(artifact))
    assert verify(player.loads(pack(document, body))).ok


# -- 1. the loader: bytes that are not an artifact -------------------------------
def test_every_truncation_is_refused(artifact):
    for size in range(len(artifact)):
        refused(artifact[:size])


def test_every_bit_flip_is_refused_or_changes_nothing(artifact):
    # zstd ignores a few bits (the frame header's unused bit, slack in entropy tables); its
    # checksum proves the content unchanged then. No flip may give a different tree.
    original = player.loads(artifact)
    survivors = 0
    for index in range(len(artifact)):
        for bit in range(8):
            flipped = bytearray(artifact)
            flipped[index] ^= 1 << bit
            try:
                tree = player.loads(bytes(flipped), NAME)
            except FormatError as error:
                assert str(error).startswith(NAME)
            else:
                survivors += 1
                assert same_tree(tree, original), (index, bit)
    assert survivors < len(artifact) // 10


def test_an_empty_file_is_refused(tmp_path):
    path = tmp_path / "empty.msgpack.zst"
    path.write_bytes(b"")
    with pytest.raises(FormatError, match=f"{path}: the file is empty"):
        player.load(path)


@pytest.mark.parametrize("make", [
    lambda tmp: tmp / "missing.msgpack.zst",
    lambda tmp: tmp,
    lambda tmp: Path(str(tmp / "nul") + "\0x"),
], ids=["missing", "directory", "nul-in-name"])
def test_unreadable_paths_are_refused(tmp_path, make):
    with pytest.raises(FormatError):
        player.load(make(tmp_path))


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_an_endless_file_is_read_only_up_to_the_cap(loader):
    reply = loader.ask("load", path="/dev/zero")
    assert "refused" in reply, reply
    assert reply["refused"].startswith("/dev/zero: ") and "larger than any artifact" in reply["refused"], reply


def test_valid_zstd_holding_something_else_is_refused():
    compress = zstandard.ZstdCompressor(write_content_size=True, write_checksum=True).compress
    refused(compress(b"hello, world"), "msgpack")
    refused(compress(b"\xc1"), "msgpack")  # a byte msgpack never uses
    refused(compress(msgpack.packb([1, 2, 3])), "not a msgpack map")
    refused(compress(msgpack.packb({"format": "guesstree"}) + b"\x00"), "after its msgpack map")
    refused(compress(msgpack.packb({"format": "something-else", "version": [1, 0]})), "not a guesstree artifact")
    refused(compress(msgpack.packb({"format": "guesstree", "version": [1, 0], "x": msgpack.ExtType(5, b"ab")})),
            "msgpack")
    # an extension type of no bytes: within max_ext_len=0, yet still an extension type (FORMAT.md §2)
    refused(compress(msgpack.packb({"format": "guesstree", "version": [1, 0], "x": msgpack.ExtType(5, b"")})),
            "an extension type, which an artifact never holds")


def test_a_map_key_proto_is_refused_anywhere(artifact):
    """FORMAT.md §2: no map has the key ``__proto__``, which a JavaScript reader cannot hold; the
    Python player refuses it as the JavaScript one does, in the header, nested, or in the body,
    though other unknown keys are read."""
    document, body = unpack(artifact)
    message = "a map key __proto__, which an artifact never holds"
    refused(pack({**document, "__proto__": 1}), message)
    refused(pack({**document, "game": {**document["game"], "params": {**document["game"]["params"],
                                                                      "__proto__": {}}}}), message)
    refused(pack(document, {**body, "__proto__": b"x"}), message)


@pytest.mark.parametrize("version", [[3, 0], [0, 9], [-1, 0], [2**64 - 1, 0]])
def test_another_major_version_is_refused(artifact, version):
    document, _ = unpack(artifact)
    refused(pack({**document, "version": version}), "not readable by this player")


def test_a_newer_minor_version_and_unknown_keys_are_read(artifact):
    document, body = unpack(artifact)
    tree = player.loads(pack({**document, "version": [1, 99], "future": {"x": [1]}}, {**body, "future": b"x"}))
    assert tree.header["version"] == [1, 99]
    assert same_play(tree, player.loads(artifact))


def test_a_body_that_does_not_match_its_sha256_is_refused(artifact):
    document, body = unpack(artifact)
    body["guess"] = bytes(reversed(body["guess"]))
    refused(pack(document, body, sha=False), "sha256")
    refused(pack({**document, "body_sha256": None}, sha=False), "sha256")
    refused(pack({**document, "body_sha256": document["body_sha256"].encode()}, sha=False), "sha256")
    refused(pack({**document, "body_sha256": document["body_sha256"].upper()}, sha=False), "sha256")


# Wrong types for every field: each replaces one field and re-encodes with a correct sha256.
WRONG = [None, "x", b"x", [], {}, [[[]]], {"a": {"b": [None]}}, 1.5, True, float("nan"),
         msgpack.ExtType(3, b"\x01")]


def category(value) -> str:
    return "int" if type(value) is int else type(value).__name__


def field_paths(document: dict, body: dict) -> list[tuple]:
    paths = [("doc", key) for key in document if key not in ("body", "body_sha256")]  # pack() rewrites them
    paths += [("doc", "version", 0), ("doc", "version", 1), ("doc", "game", "name"), ("doc", "game", "params")]
    paths += [("doc", "game", "params", key) for key in document["game"]["params"]]
    paths += [("doc", "strategy", key) for key in document["strategy"]]
    paths += [("doc", "stats", key) for key in document["stats"]]
    paths += [("doc", "stats", "histogram", 0), ("doc", "stats", "histogram", 0, 0)]
    paths += [("body", key) for key in body] + [("body", "feedbacks", 0), ("body", "feedbacks", 0, 0)]
    return paths


def replaced(artifact: bytes, path: tuple, value) -> bytes:
    document, body = unpack(artifact)
    target = {"doc": document, "body": body}
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return pack(document, body)


def test_every_field_with_a_wrong_type_is_refused(artifact):
    document, body = unpack(artifact)
    checked = 0
    for path in field_paths(document, body):
        target = {"doc": document, "body": body}
        for step in path:
            target = target[step]
        for value in WRONG:
            if category(value) == category(target):
                continue  # a value of the right type: the cases below and the verifier
            try:
                refused(replaced(artifact, path, value))
            except pytest.fail.Exception:
                raise AssertionError(f"{path} = {value!r} was accepted") from None
            checked += 1
    assert checked > 300


STRUCTURAL_INTS = [("body", "nodes"), ("body", "code_length"), ("body", "feedback_width"),
                   ("body", "feedbacks", 0, 0), ("doc", "game", "params", "colours"),
                   ("doc", "game", "params", "holes"), ("doc", "version", 0)]
STAT_INTS = [("doc", "stats", "total"), ("doc", "stats", "worst"), ("doc", "stats", "determined_total")]


@pytest.mark.parametrize("path, value", [(path, value) for path in STRUCTURAL_INTS for value in
                                         (-1, -(2**63), 2**64 - 1, 2**31)]
                         + [(path, value) for path in STAT_INTS for value in (-1, -(2**63))])
def test_out_of_range_ints_are_refused(artifact, path, value):
    refused(replaced(artifact, path, value))  # (a huge statistic loads: it is the verifier's to refuse)


def test_a_zero_or_huge_node_count_is_refused(artifact):
    refused(replaced(artifact, ("body", "nodes"), 0), "node count")
    refused(replaced(artifact, ("body", "nodes"), MAX_NODES + 1), "node count")


def test_feedback_entries_of_the_wrong_shape_are_refused(artifact):
    document, body = unpack(artifact)
    for table in (["30", [0, 0]], [[[1], [2]]], [[3, 0], [3, 0]], [[True, 0]], [[0, 0, 0]], [], "abc",
                  [{"a": 1}], [[0, 2**64 - 1]]):
        refused(pack(document, {**body, "feedbacks": table}), "feedback table")


def test_a_game_spec_with_unknown_or_mistyped_params_is_refused(artifact):
    document, _ = unpack(artifact)
    game = document["game"]
    for params in ({**game["params"], "bogus": 1}, {**game["params"], "secret_repeats": "no"},
                   {"colours": 4, "holes": 99}, {1: 2}, {"colours": [4]}):
        refused(pack({**document, "game": {**game, "params": params}}), "game")
    for name in ("chess", "", "mastermind ", None, 7, ["mastermind"]):
        refused(pack({**document, "game": {**game, "name": name}}), "game")


@pytest.mark.parametrize("name", [
    "shutil:rmtree", "os:getcwd", "os:remove", "subprocess:run", "antigravity:x", "this:x",
    "no_such_module_anywhere:make", ":make", ".relative:make", "guesstree.player.games:make_game",
    "guesstree.player.games:GAMES", "guesstree.player.games:Game:x", "a" * 300 + ":x",
])
def test_a_plugin_game_spec_runs_nothing_untrusted(artifact, tmp_path, name):
    victim = tmp_path / "victim"
    victim.mkdir()
    document, _ = unpack(artifact)
    imported = set(sys.modules)
    refused(pack({**document, "game": {"name": name, "params": {"path": str(victim)}}}), "game")
    assert victim.is_dir()
    assert set(sys.modules) == imported  # nothing was imported either


def test_a_trusted_plugin_that_fails_gives_a_format_error(artifact, tmp_path, monkeypatch):
    (tmp_path / "hostile_plugin.py").write_text(
        "def explode(**params):\n    raise RuntimeError('boom')\n"
        "def wrong(**params):\n    return 42\n"
        "import guesstree.player.games\n"
        "class Small(guesstree.player.games.Mastermind):\n    pass\n")
    (tmp_path / "hostile_import.py").write_text("raise RuntimeError('import-time boom')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    document, _ = unpack(artifact)
    params = document["game"]["params"]
    for name in ("hostile_plugin:explode", "hostile_plugin:wrong", "hostile_plugin:missing", "hostile_import:x"):
        data = pack({**document, "game": {"name": name, "params": params}})
        module = name.partition(":")[0]
        with pytest.raises(FormatError, match="cannot rebuild the game"):
            player.loads(data, NAME, plugins=[module])
        sys.modules.pop(module, None)
    # Trusted by name, or already imported and a Game subclass: the plugin's game is rebuilt.
    data = pack({**document, "game": {"name": "hostile_plugin:Small", "params": params}})
    with pytest.raises(FormatError, match="does not run unasked"):
        player.loads(data, NAME, plugins=[])
    with pytest.raises(FormatError, match="does not run unasked"):
        player.loads(data, NAME, plugins="hostile")  # a string is a comma-separated list, not letters
    monkeypatch.setenv("GUESSTREE_PLUGINS", "elsewhere, hostile_plugin")
    assert verify(player.loads(data)).ok
    monkeypatch.delenv("GUESSTREE_PLUGINS")
    assert verify(player.loads(data)).ok  # now imported
    sys.modules.pop("hostile_plugin", None)


def test_stats_of_the_wrong_types_are_refused(artifact):
    document, _ = unpack(artifact)
    stats = document["stats"]
    for key, value in [("average", "3.1"), ("average", float("inf")), ("average", -1.0), ("secrets", 64.0),
                       ("histogram", {3: 5}), ("histogram", [[3, "5"]]), ("histogram", [[3, -5]]),
                       ("histogram", [[3, 5, 1]]), ("histogram", [[4, 1], [3, 5]]), ("histogram", [[3, 1], [3, 1]]),
                       ("determined_histogram", [[None, 1]]), ("worst", None)]:
        refused(pack({**document, "stats": {**stats, key: value}}), key)
    incomplete = dict(stats)
    del incomplete["determined_worst"]
    refused(pack({**document, "stats": incomplete}), "statistics")


def test_header_strings_that_come_as_bytes_are_refused(artifact):
    document, _ = unpack(artifact)
    refused(pack({**document, "format": b"guesstree"}), "not a guesstree artifact")
    refused(pack({**document, "producer": b"guesstree"}), "producer")
    refused(pack({**document, "strategy": {**document["strategy"], "name": b"entropy"}}), "strategy")
    refused(pack({**document, "game": {**document["game"], "name": b"mastermind"}}), "game")


def test_the_optional_keys_of_1_2_are_refused_in_any_other_shape(artifact):
    document, _ = unpack(artifact)
    for notice in (3, "  ", "x" * (64 * 1024 + 1), b"MIT"):
        refused(pack({**document, "notice": notice}), "the header's notice is not a text of at most 65536 bytes")
    for allowed in (0, "9", 2.0, True, 1 << 32):
        refused(pack({**document, "allowed_guesses": allowed}), "allowed_guesses")
    carried = player.loads(pack({**document, "notice": "MIT License", "allowed_guesses": 99}), "t")
    assert (carried.notice, carried.allowed_guesses) == ("MIT License", 99)
    assert (player.loads(artifact, "t").notice, player.loads(artifact, "t").allowed_guesses) == (None, None)


# -- 1. the loader: edge counts and cycles -------------------------------------
def edge_arrays(body: dict) -> tuple[list[int], list[int]]:
    width = body["feedback_width"]
    return list(player.artifact.unpack_uints(body["edge_count"], width)), \
        list(player.artifact.unpack_uints(body["edge_feedback"], width))


def test_edge_counts_that_do_not_add_up_are_refused(artifact):
    document, body = unpack(artifact)
    counts, _ = edge_arrays(body)
    for change in (+1, -1):
        tampered = counts[:]
        tampered[0] += change
        refused(pack(document, {**body, "edge_count": pack_uints(tampered, body["feedback_width"])}), "add up")
    refused(pack(document, {**body, "edge_count": body["edge_count"][:-1]}), "edge counts")
    refused(pack(document, {**body, "edge_feedback": body["edge_feedback"] + b"\x00"}), "edges")
    refused(pack(document, {**body, "edge_count": pack_uints([255] * len(counts), 1)}), "add up")


def test_edge_counts_that_would_put_a_child_before_its_parent_are_refused(artifact):
    document, body = unpack(artifact)
    counts, _ = edge_arrays(body)
    width = body["feedback_width"]
    # The root hands its edges to the last node: that node's children would be nodes 1, 2, ...
    cycle = [0] + counts[1:-1] + [counts[0]]
    refused(pack(document, {**body, "edge_count": pack_uints(cycle, width)}), "cycle")
    # Node 1 holds every edge: its first one leads to node 1 itself.
    refused(pack(document, {**body, "edge_count": pack_uints([0, sum(counts)] + [0] * (len(counts) - 2), width)}),
            "node 1: its child 1 would come before it or be itself (a cycle)")


def test_edges_that_follow_the_winning_feedback_or_leave_the_table_are_refused(artifact):
    document, body = unpack(artifact)
    counts, answers = edge_arrays(body)
    width = body["feedback_width"]
    win = body["feedbacks"].index([3, 0])
    refused(pack(document, {**body, "edge_feedback": pack_uints([win] + answers[1:], width)}), "node 0", "winning")
    beyond = len(body["feedbacks"])
    refused(pack(document, {**body, "edge_feedback": pack_uints([beyond] + answers[1:], width)}), "beyond")


def test_two_sibling_edges_with_one_feedback_load_but_fail_verification(artifact):
    # Safe to walk (lookups take the first edge), so the verifier, not the loader, refuses it.
    document, body = unpack(artifact)
    _, answers = edge_arrays(body)
    tree = player.loads(pack(document, {**body, "edge_feedback": pack_uints([answers[1]] + answers[1:], 1)}))
    assert tree.child(0, tree.feedbacks[answers[1]]) == 1
    errors = verify(tree).errors
    assert f"node 0: two edges have the feedback {tree._feedback(tree.feedbacks[answers[1]])} " \
           f"(to nodes 1 and 2); the second is never taken" in errors


def test_guess_symbols_and_lengths_are_checked(artifact):
    document, body = unpack(artifact)
    refused(pack(document, {**body, "guess": b"\x04" + body["guess"][1:]}), "symbol 4")
    refused(pack(document, {**body, "guess": body["guess"][:-1]}), "guess symbols")
    refused(pack(document, {**body, "code_length": 4}), "code length")
    refused(pack(document, {**body, "feedback_width": 3}), "feedback width")
    refused(pack(document, {**body, "feedback_width": 2}), "malformed")  # 1-byte arrays read as 2


# -- 1. the loader: bombs ----------------------------------------------------
def declared_bomb(size: int) -> bytes:
    """A zstd frame declaring ``size`` bytes of content, holding one RLE block of zeros."""
    descriptor = 0b11_1_0_0_1_00  # 8-byte content size, single segment, checksum
    block = struct.pack("<I", (min(size, 1 << 17) << 3) | (1 << 1) | 1)[:3] + b"\x00"  # last, RLE
    return struct.pack("<IB", 0xFD2FB528, descriptor) + struct.pack("<Q", size) + block + b"\0\0\0\0"


def streamed_bomb(size: int) -> bytes:
    """A frame that declares no size and inflates to ``size`` zeros."""
    writer = zstandard.ZstdCompressor(write_content_size=False, write_checksum=True).compressobj()
    chunk = b"\0" * (1 << 20)
    return b"".join(writer.compress(chunk) for _ in range(size >> 20)) + writer.flush()


def test_a_frame_declaring_8_gib_is_refused_before_inflating(loader):
    bomb = declared_bomb(8 << 30)
    assert zstandard.get_frame_parameters(bomb).content_size == 8 << 30 and len(bomb) < 32
    loader.refused(bomb, "claims 8589934592 bytes")
    loader.refused(declared_bomb(MAX_BODY_BYTES + 1), "claims")


def test_a_frame_declaring_nothing_that_inflates_hugely_is_refused(loader):
    bomb = streamed_bomb(256 << 20)
    assert len(bomb) < 64 << 10
    loader.refused(bomb, "does not declare its content size")


def test_a_frame_that_lies_about_its_size_is_refused(loader):
    honest = zstandard.ZstdCompressor(write_checksum=True).compress(b"\0" * (8 << 20))
    descriptor = honest[4]
    assert descriptor >> 6 == 2 and descriptor & 3 == 0  # a 4-byte content size, no dictionary
    at = 5 + (0 if descriptor & 0x20 else 1)  # after the window byte unless single-segment
    liar = honest[:at] + struct.pack("<I", 1000) + honest[at + 4:]
    assert zstandard.get_frame_parameters(liar).content_size == 1000
    loader.refused(liar, "damaged")


def test_trailing_data_extra_frames_and_frames_without_checksum_are_refused(artifact, loader):
    loader.refused(artifact + b"\0", "damaged")
    loader.refused(artifact + artifact, "damaged")
    skippable = struct.pack("<II", 0x184D2A50, 4) + b"abcd"
    loader.refused(skippable + artifact)
    loader.refused(artifact + skippable, "damaged")
    document, body = unpack(artifact)
    loader.refused(pack(document, body, write_checksum=False), "checksum")
    loader.refused(pack(document, body, write_content_size=False), "content size")


def test_msgpack_structure_bombs_are_refused(artifact, loader):
    document, body = unpack(artifact)
    # Nine bytes per million empty lists would become ~64 MB of Python objects.
    loader.refused(pack({**document, "junk": [[]] * (2 * MAX_STRUCTURE_BYTES)}), "structure")
    loader.refused(pack(document, {**body, "junk": [{}] * (2 * MAX_STRUCTURE_BYTES)}), "structure")
    compress = zstandard.ZstdCompressor(write_content_size=True, write_checksum=True).compress
    nested_claims = b"\x81\xa1x" + (b"\xdd" + (1 << 20).to_bytes(4, "big")) * 2000
    loader.refused(compress(nested_claims), "msgpack")
    loader.refused(compress(b"\xdf\xff\xff\xff\xff" + b"\xc0" * 100), "msgpack")  # a map claiming 4 billion pairs
    loader.refused(compress(b"\x81\xa1x\xdb\xff\xff\xff\xff"), "msgpack")  # a string claiming 4 GiB


def test_a_large_payload_under_the_caps_still_loads_fast(artifact):
    document, body = unpack(artifact)
    data = pack({**document, "padding": b"\0" * (32 << 20)}, body)
    assert same_play(player.loads(data), player.loads(artifact))


# -- 1. the loader: property-based fuzzing ---------------------------------------
def msgpack_values() -> st.SearchStrategy:
    scalars = (st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.floats()
               | st.text(max_size=8) | st.binary(max_size=8)
               | st.builds(msgpack.ExtType, st.integers(0, 127), st.binary(max_size=4)))
    return st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                        | st.dictionaries(st.text(max_size=6) | st.integers(-3, 3), inner, max_size=4),
                        max_leaves=12)


def mutated_fields(artifact: bytes, data) -> bytes:
    """Replace, delete or add one msgpack field anywhere, and re-encode with the right sha256."""
    document, body = unpack(artifact)
    containers = [document, body]
    for parent in containers:  # grows as it goes: every map and array, however deep
        containers += [value for value in (parent.values() if isinstance(parent, dict) else parent)
                       if isinstance(value, (dict, list))]
    for _ in range(data.draw(st.integers(1, 3))):
        target = data.draw(st.sampled_from(containers))
        keys = list(target) if isinstance(target, dict) else list(range(len(target)))
        action = data.draw(st.sampled_from(["replace", "delete", "add"] if keys else ["add"]))
        if action == "delete":
            del target[data.draw(st.sampled_from(keys))]
        elif action == "add" and isinstance(target, dict):
            target[data.draw(st.text(max_size=6))] = data.draw(msgpack_values())
        elif action == "add":
            target.append(data.draw(msgpack_values()))
        else:
            target[data.draw(st.sampled_from(keys))] = data.draw(msgpack_values())
    return pack(document, body)


def mutated_bytes(artifact: bytes, data) -> bytes:
    kind = data.draw(st.sampled_from(["truncate", "flip", "splice", "random", "overwrite"]))
    if kind == "truncate":
        return artifact[:data.draw(st.integers(0, len(artifact) - 1))]
    if kind == "flip":
        flipped = bytearray(artifact)
        for index in data.draw(st.lists(st.integers(0, len(artifact) * 8 - 1), min_size=1, max_size=8)):
            flipped[index // 8] ^= 1 << index % 8
        return bytes(flipped)
    if kind == "splice":
        at, to = sorted(data.draw(st.lists(st.integers(0, len(artifact)), min_size=2, max_size=2)))
        return artifact[:at] + data.draw(st.binary(max_size=64)) + artifact[to:]
    if kind == "random":
        return data.draw(st.binary(max_size=2048))
    at = data.draw(st.integers(0, len(artifact) - 1))
    patch = data.draw(st.binary(min_size=1, max_size=16))
    return artifact[:at] + patch + artifact[at + len(patch):]


def loads_or_refuses(loader: Loader, data: bytes) -> player.Tree | None:
    """The property: FormatError naming the file, or a tree the verifier judges without crashing."""
    reply = loader.ask("loads", data)  # first in the subprocess: a load that never ends fails there
    if "refused" in reply:
        assert reply["refused"].startswith(f"{NAME}: "), reply["refused"]
        with pytest.raises(FormatError):
            player.loads(data, NAME)
        return None
    tree = player.loads(data, NAME)
    report = verify(tree)
    assert report.ok or report.errors
    return tree


@FUZZ
@given(data=st.data())
def test_fuzz_mutated_bytes(artifact, loader, data):
    tree = loads_or_refuses(loader, mutated_bytes(artifact, data))
    if tree is not None:
        assert same_tree(tree, player.loads(artifact))


@pytest.mark.slow
@settings(FUZZ, max_examples=100)
@given(data=st.data())
def test_fuzz_mutated_fields_with_a_correct_sha256(artifact, loader, data):
    loads_or_refuses(loader, mutated_fields(artifact, data))


@FUZZ
@given(nodes=st.integers(1, 60), data=st.data())
def test_fuzz_edge_counts(artifact, loader, nodes, data):
    """Edge counts that add up (placed anywhere, so mostly cycles) or not, random edges and guesses."""
    document, body = unpack(artifact)
    edges = nodes - 1 + data.draw(st.sampled_from([0, 0, 0, 1, -1]))
    owners = data.draw(st.lists(st.integers(0, nodes - 1), min_size=max(edges, 0), max_size=max(edges, 0)))
    counts = [owners.count(node) for node in range(nodes)]
    table = len(body["feedbacks"])
    answers = data.draw(st.lists(st.integers(0, table), min_size=nodes - 1, max_size=nodes - 1))
    guess = bytes(data.draw(st.lists(st.integers(0, 3), min_size=nodes * 3, max_size=nodes * 3)))
    tree = loads_or_refuses(loader, pack(document, {**body, "nodes": nodes, "guess": guess, "edge_count":
                                                    pack_uints(counts, 1), "edge_feedback": bytes(answers)}))
    if tree is not None:  # then it is a tree: every node's children come after it
        for node in range(tree.nodes):
            assert all(child > node for _, child in tree.edges(node))


# -- 2. the verifier -------------------------------------------------------------
def tampered(artifact: bytes, change) -> player.Tree:
    document, body = unpack(artifact)
    change(document, body)
    return player.loads(pack(document, body), NAME)


def first_error(tree: player.Tree) -> str:
    report = verify(tree)
    assert not report.ok
    assert "secret " in report.errors[0] or "node " in report.errors[0], report.errors
    return report.errors[0]


def test_a_changed_guess_is_caught(artifact):
    tree = player.loads(artifact)
    for node in (0, 1, tree.nodes // 2, tree.nodes - 1):
        guess = bytearray(unpack(artifact)[1]["guess"])
        guess[node * 3] = (guess[node * 3] + 1) % 4

        def change(document, body, guess=guess):
            body["guess"] = bytes(guess)
        first_error(tampered(artifact, change))


def test_a_changed_edge_feedback_is_caught(artifact):
    document, body = unpack(artifact)
    counts, answers = edge_arrays(body)
    for edge in range(len(answers)):
        parent = next(n for n in range(len(counts)) if sum(counts[:n + 1]) > edge)
        start = sum(counts[:parent])
        siblings = set(answers[start:start + counts[parent]])
        spare = [f for f in range(len(body["feedbacks"])) if f not in siblings and body["feedbacks"][f] != [3, 0]]
        if not spare:
            continue
        changed = answers[:]
        changed[edge] = spare[0]
        first_error(player.loads(pack(document, {**body, "edge_feedback": pack_uints(changed, 1)}), NAME))


@pytest.mark.parametrize("key", ["secrets", "total", "worst", "average", "histogram",
                                 "determined_total", "determined_worst", "determined_histogram"])
def test_a_changed_statistic_is_caught(artifact, key):
    def change(document, body):
        stats = document["stats"]
        stats[key] = stats[key] + [[99, 1]] if isinstance(stats[key], list) else stats[key] + 1
    tree = tampered(artifact, change)
    errors = verify(tree).errors
    assert len(errors) == 1 and errors[0].startswith(f"the header says {key} = {tree.stats[key]!r}, but the tree gives")


def test_swapped_sibling_subtrees_are_caught(artifact):
    document, body = unpack(artifact)
    counts, answers = edge_arrays(body)
    for node in range(len(counts)):
        start = sum(counts[:node])
        for i in range(counts[node]):
            for j in range(i + 1, counts[node]):
                swapped = answers[:]
                swapped[start + i], swapped[start + j] = swapped[start + j], swapped[start + i]
                tree = player.loads(pack(document, {**body, "edge_feedback": pack_uints(swapped, 1)}), NAME)
                first_error(tree)


def test_a_guess_that_is_not_allowed_is_named(artifact):
    from guesstree.compiler import Options, build, to_bytes

    data = to_bytes(build(make_game("bulls-cows", digits=5, length=3), Options(strategy="entropy")))

    def change(document, body):
        body["guess"] = bytes([0, 0, 1]) + body["guess"][3:]  # a repeated digit
    errors = verify(tampered(data, change)).errors
    assert errors[0] == f"node 0: 001 is not an allowed guess of {make_game('bulls-cows', digits=5, length=3)}"


def test_a_reordered_feedback_table_is_the_same_tree(artifact):
    document, body = unpack(artifact)
    counts, answers = edge_arrays(body)
    order = list(reversed(range(len(body["feedbacks"]))))  # new index -> old index
    new_index = {old: new for new, old in enumerate(order)}
    reordered = {**body, "feedbacks": [body["feedbacks"][old] for old in order],
                 "edge_feedback": pack_uints([new_index[a] for a in answers], 1)}
    assert verify(player.loads(pack(document, reordered))).ok
    try:  # the table alone reordered: the edges now name other feedbacks
        assert not verify(player.loads(pack(document, {**body, "feedbacks": reordered["feedbacks"]}))).ok
    except FormatError as error:
        assert "winning feedback" in str(error)


def chain(document: dict, body: dict, nodes: int, guess: bytes) -> bytes:
    """Every node plays ``guess`` and has one edge, for no black and no white, to the next."""
    none = body["feedbacks"].index([0, 0])
    return pack(document, {**body, "nodes": nodes, "guess": guess * nodes,
                           "edge_count": pack_uints([1] * (nodes - 1) + [0], 1),
                           "edge_feedback": bytes([none] * (nodes - 1))})


def test_a_tree_that_makes_no_progress_is_stopped_at_once(artifact, loader):
    document, body = unpack(artifact)
    # Walking the chain would score 27 secrets at each of a million nodes: the verifier must stop.
    report = loader.ask("verify", chain(document, body, 1_000_000, bytes([0, 0, 0])))
    assert not report["ok"]
    assert "secret BBB: guess 2 (AAA at node 1) is useless: all 27 secrets left answer 0B0W" in report["errors"]
    assert "63 secrets are never won, e.g. AAB" in report["errors"]


def test_a_secret_that_is_never_won_is_named(artifact):
    tree = player.loads(artifact)
    leaf = tree.nodes - 1  # the last node has no children: it guesses the one secret left
    secret = tree.game.format_code(tree.guess_of(leaf))
    other = bytes((s + 1) % 4 for s in tree.guess_of(leaf))

    def change(document, body):
        body["guess"] = body["guess"][:leaf * 3] + other

    errors = verify(tampered(artifact, change)).errors
    assert errors[0].startswith(f"secret {secret}: after guess") and errors[0].endswith("for which the tree has no edge")
    assert f"1 secret is never won, e.g. {secret}" in errors


def test_a_game_far_bigger_than_the_tree_is_not_listed(artifact):
    document, _ = unpack(artifact)
    for params in ({"colours": 26, "holes": 12}, {"colours": 12, "holes": 12, "secret_repeats": False}):
        tree = player.loads(pack({**document, "game": {"name": "mastermind", "params": params}},
                                 {**unpack(artifact)[1], "code_length": params["holes"],
                                  "guess": bytes(params["holes"] * unpack(artifact)[1]["nodes"]),
                                  "feedbacks": [list(f) for f in make_game("mastermind", **params).feedbacks()]}))
        report = verify(tree)  # listing 26**12 secrets would never end
        assert report.errors == [f"{tree.game} has {tree.game.secret_count()} secrets, but the tree only "
                                 f"{tree.nodes} nodes: each secret needs its own winning node"]


@pytest.mark.parametrize("name, params", [
    ("mastermind", {"colours": 4, "holes": 3}), ("mastermind", {"colours": 5, "holes": 3, "secret_repeats": False}),
    ("mastermind", {"colours": 5, "holes": 3, "secret_repeats": False, "guess_repeats": False}),
    ("bulls-cows", {"digits": 6, "length": 3}), ("digits", {"length": 3}), ("twod", {"size": 7}),
])
def test_counting_and_guess_rules_match_the_games_own_lists(name, params):
    import itertools

    game = make_game(name, **params)
    assert game.secret_count() == len(game.secrets) and game.guess_count() == len(game.guesses)
    allowed, listed = game.is_guess, set(game.guesses)
    for code in itertools.product(range(game.symbols + 1), repeat=game.length):
        assert allowed(code) == (code in listed), code


def test_the_cli_exit_status_tells_valid_invalid_and_unusable(artifact, tmp_path):
    document, body = unpack(artifact)
    valid, invalid, unusable = tmp_path / "valid.zst", tmp_path / "invalid.zst", tmp_path / "unusable.zst"
    valid.write_bytes(artifact)
    invalid.write_bytes(pack({**document, "stats": {**document["stats"], "total": 1}}))
    unusable.write_bytes(artifact[:-1])
    runner = CliRunner()
    assert runner.invoke(app, ["verify", str(valid)]).exit_code == 0
    assert runner.invoke(app, ["verify", str(invalid)]).exit_code == 1
    assert runner.invoke(app, ["verify", str(unusable)]).exit_code == 2
    assert runner.invoke(app, ["verify", str(valid), str(invalid), str(unusable)]).exit_code == 2


# -- 3. writes -------------------------------------------------------------------
def test_a_failed_write_leaves_the_destination_and_no_temporary(tmp_path, monkeypatch):
    destination = tmp_path / "tree.msgpack.zst"
    destination.write_bytes(b"before")

    def broken(*args):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(OSError):
        write_atomic(destination, b"after")
    assert destination.read_bytes() == b"before"
    assert os.listdir(tmp_path) == ["tree.msgpack.zst"]


def guesstree(*args: str) -> list[str]:
    script = Path(sys.executable).parent / "guesstree"
    return [str(script), *args] if script.exists() else [sys.executable, "-m", "guesstree", *args]


def check_destination(directory: Path, destination: Path, before: bytes | None):
    """The destination is as before or a complete artifact; nothing else has its name."""
    if destination.exists():
        data = destination.read_bytes()
        assert data == before or player.loads(data, str(destination)).nodes > 0
    else:
        assert before is None
    for entry in os.listdir(directory):
        assert entry == destination.name or entry.startswith(f".{destination.name}.") and entry.endswith(".tmp"), entry


SLOW_RENAME = """
# The kill test's compiles load this as their sitecustomize: a rename onto a file named
# $GUESSTREE_TEST_SLOW_RENAME waits $GUESSTREE_TEST_RENAME_PAUSE seconds before and after it,
# so that each moment of the atomic write lasts long enough for a kill to land in it.
import os, time

def _slowed(rename):
    def slowed(source, target, *args, **kwargs):
        if os.path.basename(os.fsdecode(target)) != os.environ.get("GUESSTREE_TEST_SLOW_RENAME"):
            return rename(source, target, *args, **kwargs)
        pause = float(os.environ["GUESSTREE_TEST_RENAME_PAUSE"])
        time.sleep(pause)
        rename(source, target, *args, **kwargs)
        time.sleep(pause)
    return slowed

os.replace, os.rename = _slowed(os.replace), _slowed(os.rename)
"""
PAUSE = 1.0  # seconds: the width of each moment of the write that the kill test aims at


@dataclass
class KilledCompile:
    kill: str | float | None  # "at once", seconds after the temporary file appears, or never
    process: subprocess.Popen
    directory: Path
    destination: Path
    before: bytes | None
    writing: float | None = None  # when the temporary file was first seen


@pytest.mark.slow
def test_a_compile_killed_at_any_moment_leaves_the_destination_as_it_was(artifact, tmp_path):
    # Compiles whose rename onto the destination is held PAUSE s on each side are killed: at
    # once (before they write); as soon as their temporary file appears (while they write); PAUSE/2
    # later (the temporary is written, not yet renamed); 3 PAUSE/2 later (renamed, not yet exited);
    # or never. What each kill hit is read from what it left, and every moment must be hit.
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    (hooks / "sitecustomize.py").write_text(SLOW_RENAME)
    environment = {**os.environ, "GUESSTREE_TEST_SLOW_RENAME": "tree.msgpack.zst",
                   "GUESSTREE_TEST_RENAME_PAUSE": str(PAUSE),
                   "PYTHONPATH": os.pathsep.join(filter(None, [str(hooks), os.environ.get("PYTHONPATH")]))}
    runs = []
    for index, kill in enumerate(["at once", 0.0, PAUSE / 2, PAUSE * 3 / 2, None]):
        for prefilled in (True, False):
            directory = tmp_path / f"{index}-{prefilled}"
            directory.mkdir()
            destination = directory / "tree.msgpack.zst"
            if prefilled:
                destination.write_bytes(artifact)
            process = subprocess.Popen(guesstree("compile", "mastermind", "--strategy", "entropy",
                                                 "-o", str(destination), "-q"),
                                       env=environment, stderr=subprocess.DEVNULL)
            runs.append(KilledCompile(kill, process, directory, destination, artifact if prefilled else None))
    deadline = time.monotonic() + HANG
    try:
        while any(run.process.poll() is None for run in runs):
            assert time.monotonic() < deadline, "the compiles did not finish"
            for run in runs:
                if run.process.poll() is None and run.kill is not None:
                    if run.kill != "at once" and run.writing is None:
                        if any(entry.endswith(".tmp") for entry in os.listdir(run.directory)):
                            run.writing = time.monotonic()
                    elif run.kill == "at once" or time.monotonic() >= run.writing + run.kill:
                        run.process.send_signal(signal.SIGKILL)
            time.sleep(0.001)
    finally:
        for run in runs:
            run.process.kill()  # (only if still running)
            run.process.wait()
    hit = set()
    for run in runs:
        check_destination(run.directory, run.destination, run.before)
        temporaries = [entry for entry in os.listdir(run.directory) if entry != run.destination.name]
        renamed = run.destination.exists() and run.destination.read_bytes() != run.before
        if renamed:
            assert verify(player.load(run.destination)).ok
        if run.process.returncode == 0:  # finished: the new artifact and nothing else
            assert renamed and not temporaries, os.listdir(run.directory)
        else:
            assert run.process.returncode == -signal.SIGKILL, run.process.returncode
            hit.add("after the rename, before exiting" if renamed else
                    "while writing, before the rename" if temporaries else "before writing")
        if run.kill is None:
            assert run.process.returncode == 0
    assert hit == {"before writing", "while writing, before the rename", "after the rename, before exiting"}, \
        "the kills did not land in every moment of the write"


@pytest.mark.slow
def test_a_compile_killed_while_it_writes_leaves_the_destination_as_it_was(artifact, tmp_path):
    # Watch for the temporary file and kill the compile the moment it appears: before the
    # rename (the destination must be the old one) or just after (it must be the new one).
    destination = tmp_path / "tree.msgpack.zst"
    destination.write_bytes(b"not an artifact, but the previous contents")
    process = subprocess.Popen(guesstree("compile", "mastermind", "--colours", "4", "--holes", "3",
                                         "--strategy", "minimax", "-o", str(destination), "-q"))
    deadline = time.monotonic() + 60
    while process.poll() is None and time.monotonic() < deadline:
        if any(entry.endswith(".tmp") for entry in os.listdir(tmp_path)):
            process.send_signal(signal.SIGKILL)
            break
    process.wait()
    check_destination(tmp_path, destination, b"not an artifact, but the previous contents")


@pytest.mark.slow
def test_two_compiles_to_one_path_leave_one_complete_artifact(tmp_path):
    destination = tmp_path / "tree.msgpack.zst"
    processes = [subprocess.Popen(guesstree("compile", "mastermind", "--colours", "4", "--holes", "3",
                                            "--strategy", name, "-o", str(destination), "-q"))
                 for name in ("entropy", "minimax")]
    assert [process.wait(timeout=120) for process in processes] == [0, 0]
    tree = player.load(destination)
    assert tree.strategy["name"] in ("entropy", "minimax") and verify(tree).ok  # one of them, whole
    assert os.listdir(tmp_path) == [destination.name]

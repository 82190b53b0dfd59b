"""The chunked artifact (trees/FORMAT.md §10): the same tree as the whole layout, node for node; read
chunk by chunk as lookups need them; and refused, naming the file and the chunk, where the index or
a chunk is wrong. (The fuzzer's ``chunked`` kind, in test_hostile and the Node tests, covers more.)"""
from __future__ import annotations

import msgpack
import pytest
import zstandard
from typer.testing import CliRunner

from guesstree import player
from guesstree.compiler import Options, build
from guesstree.compiler.builder.writer import body, header, to_bytes
from guesstree.player import FormatError
from guesstree.player.artifact import InMemory, encode_chunked, frame_length, pack_uints, unpack_uints
from guesstree.player.body import MAX_CHUNK_BYTES, MAX_NODES
from guesstree.player.cli import app as player_app
from guesstree.player.games import make_game
from guesstree.player.verify import verify

GAMES = [("mastermind", {"colours": 4, "holes": 3}, "entropy"),
         ("mastermind", {"colours": 6, "holes": 4}, "minimax"),
         ("bulls-cows", {"digits": 6, "length": 3}, "entropy"),
         ("twod", {"size": 5}, "entropy")]


@pytest.fixture(scope="module", params=GAMES, ids=lambda g: f"{g[0]}-{g[2]}")
def built(request):
    name, params, strategy = request.param
    return build(make_game(name, **params), Options(strategy=strategy))


@pytest.fixture(scope="module")
def small():
    return build(make_game("mastermind", colours=4, holes=3), Options(strategy="entropy"))


def same_tree(a: player.Tree, b: player.Tree) -> bool:
    return a.nodes == b.nodes and all(a.guess_of(n) == b.guess_of(n) and a.edges(n) == b.edges(n)
                                      for n in range(a.nodes))


@pytest.mark.parametrize("chunk_nodes", [1, 5, 64, 1 << 14])
def test_a_chunked_tree_is_the_whole_tree_node_for_node(built, chunk_nodes):
    whole = player.loads(to_bytes(built), "whole")
    chunked = player.loads(encode_chunked(header(built), body(built), chunk_nodes), "chunked")
    assert chunked.header["version"] == [2, 0] and "body_sha256" not in chunked.header
    assert same_tree(whole, chunked)
    report = verify(chunked)
    assert report.ok, report.errors
    assert report.total == built.stats["total"] == chunked.stats.total


def test_the_same_command_gives_the_same_bytes(small):
    assert encode_chunked(header(small), body(small), 7) == encode_chunked(header(small), body(small), 7)


def test_to_bytes_chunks_only_when_asked_or_when_the_tree_is_too_big_to_be_whole(small):
    assert player.loads(to_bytes(small)).header["version"][0] == 1
    assert player.loads(to_bytes(small, chunked=True)).header["version"] == [2, 0]
    small_nodes = small.nodes
    try:
        small.node_guess.extend([0] * (MAX_NODES + 1 - small_nodes))  # only its count matters here
        with pytest.raises(ValueError, match="more than a whole artifact holds"):
            to_bytes(small, chunked=False)
    finally:
        del small.node_guess[small_nodes:]


def test_save_chunked_then_verify_and_play(small, tmp_path):
    from guesstree.compiler import save

    path = save(small, tmp_path / "mm.msgpack.zst", chunked=True)
    tree = player.load(path)
    assert tree.header["version"] == [2, 0] and tree.stats.total == 208
    checked = CliRunner().invoke(player_app, ["verify", str(path)])
    assert checked.exit_code == 0 and checked.output.startswith("ok "), checked.output
    assert tree.next_guess([(tree.guess_of(0), (0, 0))]) == tree.guess_of(tree.child(0, (0, 0)))


# -- reading chunk by chunk -------------------------------------------------------------------------
def split(data: bytes) -> tuple[dict, list[bytes]]:
    end = frame_length(InMemory(data))
    document = msgpack.unpackb(zstandard.ZstdDecompressor().decompress(data[:end]), strict_map_key=False)
    document["index"] = msgpack.unpackb(document["index"], strict_map_key=False)
    frames, at = [], end
    for size in unpack_uints(document["index"]["chunk_size"], 4):
        frames.append(data[at:at + size])
        at += size
    return document, frames


def joined(document: dict, frames: list[bytes], honest: bool = True) -> bytes:
    index = document["index"]
    if honest:
        index = {**index, "chunk_size": pack_uints([len(f) for f in frames], 4),
                 "chunk_checksum": b"".join(f[-4:] for f in frames)}
    compressor = zstandard.ZstdCompressor(write_content_size=True, write_checksum=True)
    packed = {**document, "index": msgpack.packb(index, use_bin_type=True)}
    return compressor.compress(msgpack.packb(packed, use_bin_type=True)) + b"".join(frames)


def test_a_damaged_chunk_is_refused_when_a_lookup_first_reads_it(small, tmp_path):
    document, frames = split(encode_chunked(header(small), body(small), 4))
    frames[-1] = frames[-1][:-5] + bytes([frames[-1][-5] ^ 1]) + frames[-1][-4:]
    path = tmp_path / "late.msgpack.zst"
    path.write_bytes(joined(document, frames, honest=False))
    tree = player.load(path)  # the document and the root's chunk: nothing else is read yet
    assert tree.next_guess([]) == tree.guess_of(0)
    with pytest.raises(FormatError, match=rf"^{path}: chunk {len(frames) - 1}: the zstd data is damaged"):
        tree.guess_of(tree.nodes - 1)
    checked = CliRunner().invoke(player_app, ["verify", str(path)])
    assert checked.exit_code != 0 and f"chunk {len(frames) - 1}" in checked.output, checked.output


def test_a_file_changed_under_an_open_tree_is_refused_not_misread(tmp_path):
    mm = build(make_game("mastermind"), Options(strategy="entropy"))
    path = tmp_path / "t.msgpack.zst"
    path.write_bytes(encode_chunked(header(mm), body(mm), 256))  # frames of more than the 64 bytes read from a window
    tree = player.load(path)
    path.write_bytes(path.read_bytes() + b"\0")
    with pytest.raises(FormatError, match="the file changed while the tree was open"):
        tree.guess_of(300)


def mutated(small, change) -> bytes:
    document, frames = split(encode_chunked(header(small), body(small), 4))
    return joined(document, frames, honest=change(document["index"], frames) is not False)


@pytest.mark.parametrize("change, message", [
    (lambda index, frames: index.update(chunk_nodes=0), "bad chunk size 0"),
    (lambda index, frames: index.update(nodes=2**32), "bad node count 4294967296"),
    (lambda index, frames: index.update(nodes=2**21, chunk_nodes=1), "2097152 chunks of 1 nodes, more than the 1048576"),
    (lambda index, frames: index.update(nodes=2**20, chunk_nodes=1, chunk_size=bytes(2**22), chunk_first_edge=bytes(2**22),
                                        chunk_checksum=bytes(2**22)) or False, "the index's chunks take 0 bytes"),
    (lambda index, frames: index.update(chunk_first_edge=index["chunk_first_edge"][:-4]),
     "the index's chunk_first_edge is not"),
    (lambda index, frames: frames.pop(), "the index's chunk_size is not"),
    (lambda index, frames: frames.append(frames[-1]), "the index's chunk_size is not"),
    (lambda index, frames: index.update(chunk_first_edge=pack_uints([0, 0, *unpack_uints(index["chunk_first_edge"], 4)[2:]], 4)),
     "the index's chunk 1 starts at edge 0, which its nodes 4 to 7 cannot have"),
    (lambda index, frames: frames.__setitem__(0, frames[0][:-1] + bytes([frames[0][-1] ^ 1])) or False,
     "chunk 0: its checksum is not the index's"),
    (lambda index, frames: frames.__setitem__(0, zstandard.ZstdCompressor(write_checksum=False).compress(
        zstandard.ZstdDecompressor().decompress(frames[0])) + b"\0\0\0\0"), "chunk 0: the zstd frame has no checksum"),
    (lambda index, frames: frames.__setitem__(0, zstandard.ZstdCompressor(write_checksum=True).compress(
        bytes(MAX_CHUNK_BYTES))), "chunk 0: the zstd frame claims 16777216 bytes, more than the"),
    (lambda index, frames: frames.__setitem__(0, zstandard.ZstdCompressor(write_checksum=True).compress(
        zstandard.ZstdDecompressor().decompress(frames[0])[:-1])), "chunk 0: it holds"),
    (lambda index, frames: frames.__setitem__(0, zstandard.ZstdCompressor(write_checksum=True).compress(
        bytes([0, 0, 9]) + zstandard.ZstdDecompressor().decompress(frames[0])[3:])), "chunk 0: a guess uses symbol 9"),
])
def test_a_broken_index_or_chunk_is_refused_naming_it(small, change, message):
    with pytest.raises(FormatError, match=f"^t: .*{message}"):
        player.loads(mutated(small, change), "t")


def test_bytes_after_the_last_chunk_are_refused(small):
    data = encode_chunked(header(small), body(small), 4)
    with pytest.raises(FormatError, match="the index's chunks take .* bytes, but .* follow the document"):
        player.loads(data + b"\0", "t")

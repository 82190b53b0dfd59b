"""An artifact's bytes, written as every reader of trees/FORMAT.md reads them: the whole layout
(``encode``, §1-§6) and the chunked one (``encode_chunked`` of a whole body, ``encode_chunks`` of
chunks made elsewhere, §10); the same input gives the same bytes."""
from __future__ import annotations

import hashlib
import os

import msgpack

from .format import FORMAT_NAME, version_of
from .frames import compress
from .uints import pack_uints, unpack_uints


def encode(header: dict, body: dict) -> bytes:
    """The artifact's bytes: ``header`` gains ``body_sha256``; ``body`` is packed inside. The version
    written is the least that has every key of ``header`` (trees/FORMAT.md §6): a tree that needs
    nothing of 1.2 stays a 1.1 file, byte for byte."""
    body_bytes = msgpack.packb(body, use_bin_type=True)
    document = {
        "format": FORMAT_NAME,
        "version": version_of(header),
        **header,
        "body_sha256": hashlib.sha256(body_bytes).hexdigest(),
        "body": body_bytes,
    }
    return compress(msgpack.packb(document, use_bin_type=True))


def encode_chunked(header: dict, body: dict, chunk_nodes: int) -> bytes:
    """The chunked artifact (trees/FORMAT.md §10) of the tree in ``body`` (the arrays of §3)."""
    nodes, length, width = body["nodes"], body["code_length"], body["feedback_width"]
    counts = unpack_uints(body["edge_count"], width)
    edge = 0
    contents = []
    for start in range(0, nodes, chunk_nodes):
        end = min(nodes, start + chunk_nodes)
        edges = sum(counts[start:end])
        contents.append(body["guess"][start * length:end * length] + body["edge_count"][start * width:end * width]
                        + body["edge_feedback"][edge * width:(edge + edges) * width])
        edge += edges
    index = {key: body[key] for key in ("nodes", "code_length", "feedbacks", "feedback_width")}
    return encode_chunks(header, index, contents, chunk_nodes)


def encode_chunks(header: dict, index: dict, contents, chunk_nodes: int) -> bytes:
    """The chunked artifact (trees/FORMAT.md §10): the document frame, its ``index`` (``index``'s
    fields, and each chunk's size and checksum), then one frame per chunk of ``contents`` (each
    the arrays of §3 for ``chunk_nodes`` nodes, the last perhaps fewer), compressed a few at a
    time on every core (each frame on its own: the same bytes; the contents need not all be held)."""
    from concurrent.futures import ThreadPoolExecutor
    from itertools import islice

    width, length = index["feedback_width"], index["code_length"]
    frames: list[bytes] = []
    first: list[int] = []
    edges = 0
    contents = iter(contents)
    cores = os.cpu_count() or 1
    with ThreadPoolExecutor(max_workers=cores) as pool:  # zstd lets go of the GIL
        while batch := list(islice(contents, 2 * cores)):
            for content in batch:
                nodes = min(chunk_nodes, index["nodes"] - chunk_nodes * len(first))
                first.append(edges)
                edges += (len(content) - nodes * (length + width)) // width
            frames += pool.map(compress, batch)
    index = {**index, "chunk_nodes": chunk_nodes, "chunk_size": pack_uints([len(f) for f in frames], 4),
             "chunk_first_edge": pack_uints(first, 4), "chunk_checksum": b"".join(f[-4:] for f in frames)}
    # packed on its own, as a whole body is: its columns are then bins of a map of their own
    document = {"format": FORMAT_NAME, "version": version_of(header, chunked=True), **header, "index": msgpack.packb(index, use_bin_type=True)}
    return compress(msgpack.packb(document, use_bin_type=True)) + b"".join(frames)

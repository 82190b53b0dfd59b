"""Turn a built tree into the artifact of trees/FORMAT.md."""
from __future__ import annotations

import os
from pathlib import Path
from collections.abc import Iterator

import numpy as np

from guesstree.player.artifact import encode, encode_chunks, write_atomic
from guesstree.player.body import MAX_NODES
from guesstree.player.header import build as build_header

from .runner import Built


def header(built: Built, notice: str | None = None) -> dict:
    """The header of trees/FORMAT.md §2 (``player.header.build``, beside its reader); ``notice``:
    the licence of the data the game embeds (its word lists), carried verbatim. The game as it
    needs nothing beside the artifact: a words tree carries every allowed guess, so that the player
    can help after a guess of a person's own and refuse one the game would not take."""
    return build_header(built.game.portable(), {**built.options.spec(), **built.proof}, built.stats, notice)


def index(built: Built) -> dict:
    """The body's fields that describe the tree's arrays (trees/FORMAT.md §3, §10)."""
    feedbacks = built.game.feedbacks()
    return {"nodes": built.nodes, "code_length": built.game.length, "feedbacks": [list(f) for f in feedbacks],
            "feedback_width": 1 if len(feedbacks) <= 256 else 2}  # bytes per feedback index and per edge count


def pieces(built: Built, chunk_nodes: int) -> Iterator[bytes]:
    """The tree's arrays of trees/FORMAT.md §3 for each ``chunk_nodes`` nodes in turn (the last
    perhaps fewer), read piece by piece from the built tree: ``guess | edge_count | edge_feedback``."""
    width = index(built)["feedback_width"]
    codes = np.asarray(built.game.guesses, dtype=np.uint8).reshape(built.game.guess_count(), built.game.length)
    kinds = ("<u1", "<u2")[width - 1]
    held, have = [], 0
    for piece in built.tree.levels():
        held.append(piece)
        have += len(piece[0])
        while have >= chunk_nodes:
            held, have, chunk = _cut(held, chunk_nodes)
            yield _packed(chunk, codes, kinds)
    if have:
        yield _packed(_cut(held, have)[2], codes, kinds)


def _cut(held: list, count: int) -> tuple[list, int, tuple]:
    """The first ``count`` nodes of the pieces ``held`` (with their edges), and what is left."""
    guesses, counts, feedbacks = held[0] if len(held) == 1 else (np.concatenate([p[k] for p in held]) for k in range(3))
    edges = int(counts[:count].sum())
    rest = (guesses[count:], counts[count:], feedbacks[edges:])
    return [rest], len(rest[0]), (guesses[:count], counts[:count], feedbacks[:edges])


def _packed(chunk: tuple, codes: np.ndarray, kinds: str) -> bytes:
    guesses, counts, feedbacks = chunk
    return codes[guesses].tobytes() + counts.astype(kinds).tobytes() + feedbacks.astype(kinds).tobytes()


def body(built: Built) -> dict:
    """The whole body of trees/FORMAT.md §3."""
    fields = index(built)
    length, width, nodes = fields["code_length"], fields["feedback_width"], fields["nodes"]
    whole = b"".join(pieces(built, max(1, nodes)))
    return {**fields, "guess": whole[:nodes * length], "edge_count": whole[nodes * length:nodes * (length + width)],
            "edge_feedback": whole[nodes * (length + width):]}


CHUNK_NODES = 1 << 14  # nodes per chunk of a chunked artifact: a chunk inflates to a few hundred KB


def to_bytes(built: Built, notice: str | None = None, chunked: bool | None = None) -> bytes:
    """The artifact: the whole layout (1.x), or the chunked one (2.0, trees/FORMAT.md §10), which a
    player opens without reading the whole tree; by default chunked where a whole body cannot hold
    the tree (more than 2^20 nodes). A chunked tree is read and compressed piece by piece."""
    if chunked is None:
        chunked = built.nodes > MAX_NODES
    if not chunked and built.nodes > MAX_NODES:
        raise ValueError(f"a tree of {built.nodes} nodes is more than a whole artifact holds ({MAX_NODES}): write it chunked")
    if chunked:
        return encode_chunks(header(built, notice), index(built), pieces(built, CHUNK_NODES), CHUNK_NODES)
    return encode(header(built, notice), body(built))


def save(built: Built, path: str | os.PathLike, notice: str | None = None, chunked: bool | None = None) -> Path:
    return write_atomic(path, to_bytes(built, notice, chunked))


def default_path(game, options) -> Path:
    """``<game>-<strategy>.msgpack.zst`` in the current folder, e.g.
    ``mastermind-c6-h4-entropy.msgpack.zst``: flat, short, and different for trees that differ
    (never inside the package's own ``trees/``, whose trees are the shipped ones)."""
    return Path(f"{game.slug()}-{options.slug()}.msgpack.zst")


def check_destination(path: str | os.PathLike, artifact: bool = True, name: str | None = None) -> Path:
    """Where a file will be written, checked before any work (an exhaustive search without a
    checkpoint would lose everything to a bad name): a ValueError says why it cannot be. With
    ``artifact``, the name must say what the bytes are (zstd: ``*.zst``, as ``*.msgpack.zst``).
    ``name``: the file's name in ``path`` if that is a folder (else a folder is refused). A folder
    that does not exist is refused, never made."""
    import tempfile

    path = Path(path)
    if path.is_dir():
        if name is not None:
            path = path / name
        else:
            raise ValueError(f"cannot write {path}: it is a directory; name a file in it, "
                             f"e.g. {path / ('tree.msgpack.zst' if artifact else 'plot.svg')}")
    if artifact and not path.name.endswith(".zst"):
        raise ValueError(f"cannot write {path}: an artifact is zstd-compressed msgpack; "
                         f"name it {path.stem}.msgpack.zst")
    folder = path.parent
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise ValueError(f"cannot write {path}: {existing} is not a directory")
    if existing != folder:
        raise ValueError(f"cannot write {path}: folder {folder} does not exist; create it first")
    try:  # what writing will do: a temporary file beside the destination
        descriptor, probe = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
        os.close(descriptor)
        os.unlink(probe)
    except OSError as error:
        raise ValueError(f"cannot write {path}: {error.strerror or error}") from None
    return path

"""Turn a built tree into the artifact of trees/FORMAT.md."""
from __future__ import annotations

import os
from pathlib import Path

from guesstree import player
from guesstree.player.artifact import encode, encode_chunked, pack_uints, write_atomic
from guesstree.player.body import MAX_NODES
from guesstree.player.tree import notice_problem

from .builder import Built


def header(built: Built, notice: str | None = None) -> dict:
    """The header of trees/FORMAT.md §2; ``notice``: the licence of the data the game embeds (its
    word lists), carried verbatim."""
    # a game that needs nothing beside the artifact: a words tree carries every allowed guess, so
    # that the player can help after a guess of a person's own and refuse one the game would not take
    portable = built.game.portable()
    fields = {
        "producer": f"guesstree {player.__version__}",
        "game": portable.spec(),
        "strategy": {**built.options.spec(), **built.proof},
        "stats": built.stats.to_header(),
    }
    if notice is not None:
        fields["notice"] = check_notice(notice)
    return fields


def check_notice(notice: str) -> str:
    """A notice as a tree may carry it, or a ValueError that says why not."""
    problem = notice_problem(notice)
    if problem is not None:
        raise ValueError(problem)
    return notice


def body(built: Built) -> dict:
    game = built.game
    feedbacks = game.feedbacks()
    guesses = game.guesses
    width = 1 if len(feedbacks) <= 256 else 2  # trees/FORMAT.md: bytes per feedback index and per edge count
    return {
        "nodes": built.nodes,
        "code_length": game.length,
        "feedbacks": [list(f) for f in feedbacks],
        "feedback_width": width,
        "guess": bytes(symbol for g in built.node_guess for symbol in guesses[g]),
        "edge_count": pack_uints(built.edge_counts, width),
        "edge_feedback": pack_uints(built.edge_feedback, width),
    }


CHUNK_NODES = 1 << 14  # nodes per chunk of a chunked artifact: a chunk inflates to a few hundred KB


def to_bytes(built: Built, notice: str | None = None, chunked: bool | None = None) -> bytes:
    """The artifact: the whole layout (1.x), or the chunked one (2.0, trees/FORMAT.md §10), which a
    player opens without reading the whole tree; by default chunked where a whole body cannot hold
    the tree (more than 2^20 nodes)."""
    if chunked is None:
        chunked = built.nodes > MAX_NODES
    if not chunked and built.nodes > MAX_NODES:
        raise ValueError(f"a tree of {built.nodes} nodes is more than a whole artifact holds ({MAX_NODES}): write it chunked")
    if chunked:
        return encode_chunked(header(built, notice), body(built), CHUNK_NODES)
    return encode(header(built, notice), body(built))


def save(built: Built, path: str | os.PathLike, notice: str | None = None, chunked: bool | None = None) -> Path:
    return write_atomic(path, to_bytes(built, notice, chunked))


def default_path(game, options) -> Path:
    """``trees/<game>-<strategy>.msgpack.zst``, e.g. ``trees/mastermind-c6-h4-entropy.msgpack.zst``:
    flat, short, and different for trees that differ."""
    return Path("trees") / f"{game.slug()}-{options.slug()}.msgpack.zst"


def check_destination(path: str | os.PathLike, artifact: bool = True) -> Path:
    """Where a file will be written, checked before any work (an exhaustive search without a
    checkpoint would lose everything to a bad name): a ValueError says why it cannot be. With
    ``artifact``, the name must say what the bytes are (zstd: ``*.zst``, as ``*.msgpack.zst``)."""
    import tempfile

    path = Path(path)
    if path.is_dir():
        raise ValueError(f"cannot write {path}: it is a directory; name a file in it, "
                         f"e.g. {path / ('tree.msgpack.zst' if artifact else 'plot.svg')}")
    if artifact and not path.name.endswith(".zst"):
        raise ValueError(f"cannot write {path}: an artifact is zstd-compressed msgpack; "
                         f"name it {path.stem}.msgpack.zst")
    folder = path.parent
    existing = folder
    while not existing.exists() and existing != existing.parent:  # write_atomic makes the folders missing
        existing = existing.parent
    if not existing.is_dir():
        raise ValueError(f"cannot write {path}: {existing} is not a directory")
    try:  # what writing will do: a temporary file beside the destination
        if existing == folder:
            descriptor, probe = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
            os.close(descriptor)
            os.unlink(probe)
        elif not os.access(existing, os.W_OK | os.X_OK):
            raise PermissionError(13, "Permission denied")
    except OSError as error:
        raise ValueError(f"cannot write {path}: {error.strerror or error}") from None
    return path

"""Turn a built tree into the artifact of trees/FORMAT.md."""
from __future__ import annotations

import os
from pathlib import Path

import player
from player.artifact import encode, pack_uints, write_atomic

from .builder import Built


def header(built: Built) -> dict:
    guesses = built.game.guesses
    played = {guesses[g] for g in set(built.node_guess)}
    return {
        "producer": f"guesstree {player.__version__}",
        "game": built.game.portable(played).spec(),  # a game that needs nothing beside the artifact
        "strategy": {**built.options.spec(), **built.proof},
        "stats": built.stats.to_header(),
    }


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


def to_bytes(built: Built) -> bytes:
    return encode(header(built), body(built))


def save(built: Built, path: str | os.PathLike) -> Path:
    return write_atomic(path, to_bytes(built))


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

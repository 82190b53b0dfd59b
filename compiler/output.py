"""Turn a built tree into the artifact of trees/FORMAT.md."""
from __future__ import annotations

import os
from pathlib import Path

import player
from player.artifact import encode, pack_uints, write_atomic

from .build import Built
from .strategies import get_strategy


def header(built: Built) -> dict:
    return {
        "producer": f"guesstree {player.__version__}",
        "game": built.game.spec(),
        "strategy": {**built.options.spec(), **built.proof},
        "stats": {key: [[k, v] for k, v in value.items()] if key.endswith("histogram") else value
                  for key, value in built.stats.items()},  # histograms as pairs: string-keyed readers open it
    }


def body(built: Built) -> dict:
    game = built.game
    feedbacks = game.feedbacks()
    guesses = game.guesses
    width = 1  # the compiler's feedback indices are uint8 (at most 255 feedback values)
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
    """``trees/<game>-<strategy>.msgpack.zst``, e.g. ``trees/mastermind-c6-h4-entropy.msgpack.zst``."""
    params = game.params()
    if game.name == "mastermind":
        slug = f"mastermind-c{params['colours']}-h{params['holes']}"
        slug += "" if params["secret_repeats"] else "-distinct"
        slug += "" if params["guess_repeats"] else "-distinct-guesses"
    elif game.name in ("bulls-cows", "digits", "twod"):
        letters = {"digits": "d", "length": "l", "size": "s"}
        slug = "-".join([game.name] + [f"{letters[k]}{v}" for k, v in params.items()])
    else:
        slug = "".join(c if c.isalnum() else "-" for c in game.name).strip("-")
        slug = "-".join([slug] + [f"{k}{v}" for k, v in params.items()])
    spec = options.spec()
    name = spec["name"]
    if spec.get("candidates") == "consistent" and hasattr(get_strategy(name), "statistic"):
        name += "-consistent"
    if "seed" in spec:
        name += f"-seed{spec['seed']}"
    if "max_depth" in spec:
        name += f"-depth{spec['max_depth']}"
    return Path("trees") / f"{slug}-{name}.msgpack.zst"

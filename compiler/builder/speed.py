"""This machine's speed at the heuristics' kernels, beside the machine the estimate was fitted on.

The estimate's cell costs (``estimate.CELL_SECONDS``) were measured on one machine; another can be
several times slower at the same kernels (a 2-core AMD EPYC without AVX-512 took 16 s for 7x6
entropy, estimated at 6 s). So before it estimates a build of some seconds, the estimate times a
probe here: the kernel family the build scores with (partitions from packed peg codes, or from a
matrix), counting per answer or only marking answers, on one thread, by the CPU seconds it takes;
the ratio to the same probe on the fitting machine (``REFERENCE``) scales the estimate's scoring.

A probe takes a few tenths of a second (its kernel compiled once, as the build compiles it); the
ratios are kept beside numba's cache (``engine/cache.py``, by ``warm.py``'s stamp), keyed by the
machine and the kernels' sources, and measured again when either changes. The file is read with
care: anything but the ratios of this machine and these kernels is ignored and measured again.
"""
from __future__ import annotations

import json
import time

import numpy as np

from guesstree.player.atomic import write_atomic

from ..engine.cache import kernels_digest, machine, stamp_path

PROBES = ("packed", "matrix")  # partitions from packed peg codes; from a matrix (any other game)
# The probes' CPU seconds on the fitting machine (2 cores of an Intel Xeon, family 6 model 167,
# with AVX-512; 2026-12-07, the least of 5), counting per answer (entropy's c log c) and marking
# answers only (most-parts): what the estimate's CELL_SECONDS were measured beside.
REFERENCE = {("packed", True): 0.0475, ("packed", False): 0.0137,
             ("matrix", True): 0.0249, ("matrix", False): 0.0249}
RUNS = 5  # the least of so many runs (the first after a run that loads the kernel)
LIMITS = (0.2, 20.0)  # a ratio outside is a measurement gone wrong: held to these
FILE = "guesstree-speed.json"


def probe_seconds(kind: str, counting: bool) -> float:
    """The least CPU seconds of ``RUNS`` runs of a probe: every guess of Mastermind 7x5 against
    4000 of its secrets from packed codes, or 4000 guesses against 8000 secrets of a matrix of 150
    feedback values."""
    from ..engine.statistic import CLOG_SUM, PARTS, clog_table

    statistic = CLOG_SUM if counting else PARTS
    if kind == "packed":
        from guesstree.player.games import make_game

        from ..engine.scorer import Scorer

        scorer = Scorer(make_game("mastermind", colours=7, holes=5), 1 << 30, "numba", whole=False, threads=False)
        guesses, secrets = np.arange(16807), np.arange(0, 16807, 4)[:4000]

        def run():
            scorer.partition_stats(guesses, secrets, statistic)
    else:
        from ..engine import kernels

        matrix = np.random.default_rng(0).integers(0, 150, size=(4000, 8000), dtype=np.uint8)
        guesses, secrets, clog = np.arange(4000), np.arange(8000), clog_table(8000)

        def run():
            kernels.partition_stats(matrix, guesses, secrets, 150, statistic, clog, threads=False)
    run()  # compiled, or loaded from numba's cache
    best = float("inf")
    for _ in range(RUNS):
        started = time.process_time()
        run()
        best = min(best, time.process_time() - started)
    return best


def ratio(kind: str, counting: bool, measure=probe_seconds) -> float:
    """This machine's seconds for the probe ``(kind, counting)`` over the fitting machine's: kept
    (``FILE``) once measured for this machine and these kernels."""
    key = f"{kind}-{'counting' if counting else 'parts'}"
    path, identity = _path(), _identity()
    kept = _read(path, identity)
    if key not in kept:
        seconds = measure(kind, counting)
        kept[key] = min(max(seconds / REFERENCE[kind, counting], LIMITS[0]), LIMITS[1])
        _write(path, {**identity, "ratios": kept})
    return kept[key]


def _path():
    return stamp_path().with_name(FILE)


def _identity() -> dict:
    return {"machine": machine(), "kernels": kernels_digest()}


def _read(path, identity: dict) -> dict[str, float]:
    """The ratios kept for ``identity`` (this machine, these kernels); none from a file that is
    missing, unreadable, of another machine, or holds anything but ratios within ``LIMITS``."""
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(kept, dict) or any(kept.get(k) != v for k, v in identity.items()):
        return {}
    ratios = kept.get("ratios")
    if not isinstance(ratios, dict):
        return {}
    return {k: float(v) for k, v in ratios.items() if isinstance(k, str) and type(v) in (int, float)
            and LIMITS[0] <= v <= LIMITS[1]}


def _write(path, kept: dict) -> None:
    """Keep the ratios (whole or not at all); where the folder cannot be written, measured again next time."""
    try:
        write_atomic(path, json.dumps(kept).encode())
    except OSError:
        pass

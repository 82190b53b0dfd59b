"""The cost of one (guess, secret) cell in a big peg game's heuristic build, scored straight from
the packed codes (``engine/packed.py``) on one thread; prints JSON.

    python scripts/bench_kernels.py [--games 7x6,4x8,3x9] [--candidates 20000] [--runs 5]

Per game: nanoseconds per cell for each statistic (``parts``: most-parts' bit per answer;
``clog``, ``max``: entropy's and minimax's count per answer; ``clog_pick``: entropy's build, exact
only where a guess could be its pick) over 3000 guesses and ``--candidates`` random candidates
(20 000; a build's deeper nodes have tens to hundreds), the best of ``--runs``, and for the matrix
of 300 guesses; with each statistic's sum,
so that two versions can be checked to give the same numbers. A game whose codes do not pack
(``packed.packs``) is scored in blocks instead, as its build is.
"""
from __future__ import annotations

import argparse
import json
import time

import numpy as np

from guesstree.compiler.engine.scorer import Scorer
from guesstree.compiler.engine.statistic import CLOG_SUM, MAX_PART, PARTS
from guesstree.player.games import make_game


def cell_costs(colours: int, holes: int, runs: int, size: int = 20000) -> dict:
    game = make_game("mastermind", colours=colours, holes=holes)
    scorer = Scorer(game, 1 << 30, "numba", whole=False, threads=False)
    n = game.secret_count()
    candidates = np.sort(np.random.default_rng(1).choice(n, min(n, size), replace=False))
    guesses = np.arange(min(n, 3000))
    found = {"game": f"{colours}x{holes}", "candidates": len(candidates), "packed": scorer.on_the_fly}
    for name, statistic, pick_only in (("parts", PARTS, False), ("clog", CLOG_SUM, False), ("max", MAX_PART, False),
                                       ("clog_pick", CLOG_SUM, True)):
        scorer.partition_stats(guesses[:10], candidates, statistic, pick_only)  # compiled or loaded
        best = float("inf")
        for _ in range(runs):
            started = time.perf_counter()
            stats, _ = scorer.partition_stats(guesses, candidates, statistic, pick_only)
            best = min(best, time.perf_counter() - started)
        found[f"{name}_ns"] = round(best / (len(guesses) * len(candidates)) * 1e9, 3)
        found[f"{name}_sum"] = int(np.asarray(stats).sum())
    scorer.block(guesses[:10], candidates)
    started = time.perf_counter()
    block = scorer.block(guesses[:300], candidates)
    found["matrix_ns"] = round((time.perf_counter() - started) / block.size * 1e9, 3)
    found["matrix_sum"] = int(block.astype(np.int64).sum())
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="7x6,4x8,3x9", help="colours x holes, comma-separated")
    parser.add_argument("--candidates", default="20000", help="how many candidates, comma-separated")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    games = [tuple(int(v) for v in game.split("x")) for game in args.games.split(",")]
    sizes = [int(size) for size in args.candidates.split(",")]
    print(json.dumps([cell_costs(colours, holes, args.runs, size) for colours, holes in games for size in sizes],
                     indent=2))


if __name__ == "__main__":
    main()

"""How long the player's help off the tree takes: ``Tree.suggest`` (and ``Tree.candidates``) on the
Wordle tree after one first guess of a person's own, pure Python. Prints JSON.

    python scripts/bench_suggest.py [--secrets 40] [--repeat 3]

Each (first word, secret) history is timed ``--repeat`` times and its best kept; the summary
gives the median and the slowest over all histories, with the candidates left.
"""
from __future__ import annotations

import argparse
import json
import statistics
import time

from guesstree import player

OPENERS = ["crane", "adieu", "audio", "raise", "arise", "stare", "slate", "trace", "roate", "soare",
           "later", "irate", "house", "mouse", "pious", "fuzzy", "jazzy", "mamma", "queue", "xylyl"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--secrets", type=int, default=40, help="secrets per opener, evenly spaced")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    tree = player.load_shipped("wordle-salet-optimal-expected")
    game = tree.game
    secrets = game.secrets[::max(1, len(game.secrets) // args.secrets)][:args.secrets]
    rows = []
    for opener in OPENERS:
        guess = game.parse_code(opener)
        for secret in secrets:
            history = [(guess, game.score(guess, secret))]
            best = float("inf")
            for _ in range(args.repeat):
                started = time.perf_counter()
                tree.suggest(history)
                best = min(best, time.perf_counter() - started)
            rows.append((best * 1000, len(tree.candidates(history)), opener))
    times = sorted(r[0] for r in rows)
    slowest = max(rows)
    on_tree = [(tree.next_guess([]), (0, 1, 0, 0, 0))]
    started = time.perf_counter()
    for _ in range(1000):
        tree.next_guess(on_tree)
    print(json.dumps({
        "job": "Tree.suggest after one off-tree first guess, Wordle SALET tree",
        "histories": len(rows), "openers": len(OPENERS),
        "median_ms": round(statistics.median(times), 2),
        "p90_ms": round(times[int(0.9 * (len(times) - 1))], 2),
        "max_ms": round(slowest[0], 2), "max_at": {"opener": slowest[2], "candidates": slowest[1]},
        "next_guess_on_tree_us": round((time.perf_counter() - started) * 1000, 2),
    }, indent=2))


if __name__ == "__main__":
    main()

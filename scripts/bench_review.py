"""How long ``guesstree review`` takes on games people play, and how much of it is exact. Prints JSON.

    python scripts/bench_review.py [--games 20] [--seed 71] [--seconds 5] [--no-process]

Each row is one kind of game, reviewed with its shipped optimal tree (and the book, and the
exhaustive search: needs guesstree[compiler]). A game is played against a random secret the way a
person might: a first guess among the book's openers (the popular ones) or the tree's, then at each
step the tree's guess, a possible secret, or a guess of the book's tree, at random, until won.
``review_s``: the time of ``compiler.review.review`` per game in this process (after one game that
loads the search), median, p90 and max; ``exact``: the share of moves all of whose figures are
exact; ``process_s``: one whole ``guesstree review`` process on the first game (its start, numba's
load and the search), median of 3.
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from guesstree import player
from guesstree.compiler.review import review

ROOT = Path(__file__).resolve().parent.parent
KINDS = {  # name: (shipped tree, the review's --max-depth)
    "wordle within 6": ("wordle-salet-optimal-expected", 6),
    "wordle": ("wordle-salet-optimal-expected", None),
    "wordle hard": ("wordle-hard-salet-optimal-expected-depth6", None),
    "mastermind 6x4": ("mastermind-c6-h4-optimal-expected", None),
    "bulls and cows": ("bulls-cows-d10-l4-optimal-expected", None),
}


def a_game(tree, rng: random.Random) -> list[tuple[str, str]]:
    """A game against a random secret, played as the module's docstring says."""
    game = tree.game
    secret = rng.choice(game.secrets)
    openers = [game.parse_code(first) for first in tree.book.openers(tree)] + [tree.guess_of(0)]
    history: list[tuple[str, str]] = []
    remaining = list(game.secrets)
    guess = rng.choice(openers)
    while True:
        feedback = game.score(guess, secret)
        history.append((game.format_code(guess), game.format_feedback(feedback)))
        if feedback == game.win:
            return history
        remaining = game.consistent(guess, feedback, remaining)
        guess = tree.suggest(history) if rng.random() < 0.4 else rng.choice(remaining)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=71)
    parser.add_argument("--seconds", type=float, default=5.0, help="review's --seconds")
    parser.add_argument("--no-process", action="store_true", help="skip the whole-process timing")
    parser.add_argument("--kinds", default=",".join(KINDS), help="which rows, comma-separated")
    arguments = parser.parse_args()
    rows = []
    for kind in arguments.kinds.split(","):
        name, max_depth = KINDS[kind]
        tree = player.load_shipped(name)
        rng = random.Random(arguments.seed)
        games = [a_game(tree, rng) for _ in range(arguments.games + 1)]
        review(tree, games[0], max_depth, arguments.seconds)  # loads the search's kernels and arrays
        times, exact, moves = [], 0, 0
        for history in games[1:]:
            started = time.perf_counter()
            done = review(tree, history, max_depth, arguments.seconds)
            times.append(time.perf_counter() - started)
            exact += sum(move.exact for move in done.moves)
            moves += len(done.moves)
        row = {"kind": kind, "tree": name, "max_depth": max_depth, "games": len(times),
               "guesses_mean": round(moves / len(times), 2),
               "review_s": {"median": round(statistics.median(times), 3),
                            "p90": round(statistics.quantiles(times, n=10)[-1], 3) if len(times) > 1 else None,
                            "max": round(max(times), 3)},
               "exact": round(exact / moves, 3)}
        if not arguments.no_process:
            command = [sys.executable, "-m", "guesstree", "review", name, "--json",
                       *(["--max-depth", str(max_depth)] if max_depth else []), "--",
                       *[word for move in games[1] for word in move]]
            runs = []
            for _ in range(3):
                started = time.perf_counter()
                subprocess.run(command, check=True, capture_output=True, cwd=ROOT)
                runs.append(time.perf_counter() - started)
            row["process_s"] = round(statistics.median(runs), 3)
        rows.append(row)
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()

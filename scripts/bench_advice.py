"""How good and how fast the help off the tree is: a first guess of a person's own, then
``Tree.suggest`` followed for every secret, next to the optimum for that first guess, with the
time of ``suggest`` in Python and in JavaScript (Node) on the same histories. Prints JSON.

    python scripts/bench_advice.py [--wordle crane,slate,...] [--hard crane,...] [--mastermind AAAA,...]
                                   [--bulls-cows 1234,...] [--no-optimum] [--no-js] [--no-book]

Each row: the opener; the total and worst of following ``suggest``; the optimum for that opener
(``guesstree compile ... --first X --strategy optimal-expected``, needs guesstree[compiler]; for
Bulls and Cows, whose first guesses are all alike, the shipped tree's) and the ratio; and the
p50/p90 of ``suggest`` in ms, over the distinct histories met (each timed once) and over the
games' steps (each history weighted by the games that meet it). ``js_agrees``: Node's answers
equal Python's for every history. ``book``: whether the opening book (player/book.py) holds the
opener (or, in a peg game, its class); ``--no-book`` measures the rule of player/advice.py alone.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from guesstree import player
from guesstree.player.book import openings

ROOT = Path(__file__).resolve().parent.parent
WORDLE_LISTS = ROOT / "tests" / "data" / "wordle"
TREES = {"wordle": "wordle-salet-optimal-expected", "hard": "wordle-hard-salet-optimal-expected-depth6",
         "mastermind": "mastermind-c6-h4-optimal-expected", "bulls-cows": "bulls-cows-d10-l4-optimal-expected"}
COMPILE = {"wordle": ["words", "--answers", str(WORDLE_LISTS / "wordlist_orig_hidden"),
                      "--guesses", str(WORDLE_LISTS / "wordlist_orig_all")],
           "hard": ["words", "--answers", str(WORDLE_LISTS / "wordlist_orig_hidden"),
                    "--guesses", str(WORDLE_LISTS / "wordlist_orig_all"), "--hard", "--max-depth", "6"],
           "mastermind": ["mastermind"]}
DEFAULTS = {"wordle": "crane,slate,trace,adieu,audio,roate,stare", "hard": "crane,slate,adieu",
            "mastermind": "AAAA,AAAB,AABB,AABC,ABCD", "bulls-cows": "1234,5678"}


def follow(tree: player.Tree, opener: str) -> tuple[list[int], list[tuple[list, int, float, object]]]:
    """Every secret from ``opener`` then by suggest: each secret's guesses, and each history met
    with the games that meet it, the time of its suggest and the guess."""
    game = tree.game
    first = game.parse_code(opener)
    lengths, met = [], []

    def walk(history, secrets):
        if history:
            started = time.perf_counter()
            guess = tree.suggest(history, any_guess=True)
            met.append((history, len(secrets), (time.perf_counter() - started) * 1000, guess))
        else:
            guess = first
        parts = {}
        for secret in secrets:
            parts.setdefault(game.score(guess, secret), []).append(secret)
        for feedback, part in parts.items():
            if feedback == game.win:
                lengths.append(len(history) + 1)
            else:
                walk(history + [(guess, feedback)], part)

    walk([], game.secrets)
    return lengths, met


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)


def timings(ms: list[float], weights: list[int]) -> dict:
    weighted = [t for t, w in zip(ms, weights) for _ in range(w)]
    return {"p50_ms": percentile(ms, 0.5), "p90_ms": percentile(ms, 0.9), "max_ms": round(max(ms), 1),
            "game_steps_p50_ms": percentile(weighted, 0.5), "game_steps_p90_ms": percentile(weighted, 0.9)}


def optimum(kind: str, opener: str, tree: player.Tree) -> tuple[int, int] | None:
    if kind == "bulls-cows":
        return tree.stats.total, tree.stats.worst
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "optimum.msgpack.zst"
        run = subprocess.run([sys.executable, "-m", "guesstree", "compile", *COMPILE[kind], "--first", opener,
                              "--strategy", "optimal-expected", "-o", str(out), "-q"], capture_output=True, text=True)
        if run.returncode != 0:
            print(f"optimum for {opener}: {run.stderr.strip()}", file=sys.stderr)
            return None
        stats = player.load(out).stats
        return stats.total, stats.worst


def in_node(tree_path: Path, met, book: bool) -> dict | None:
    histories = [[[list(g), list(f)] for g, f in history] for history, *_ in met]
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as job:
        json.dump({"tree": str(tree_path), "histories": histories, "book": book}, job)
    try:
        run = subprocess.run(["node", str(ROOT / "scripts" / "bench_advice.mjs"), job.name],
                             capture_output=True, text=True)
    except FileNotFoundError:
        return None
    finally:
        os.unlink(job.name)
    if run.returncode != 0:
        print(run.stderr, file=sys.stderr)
        return None
    found = json.loads(run.stdout)
    agrees = all(tuple(a) == g for a, (*_, g) in zip(found["answers"], met))
    return {"js_agrees": agrees, **{f"js_{k}": v for k, v in timings(found["ms"], [w for _, w, _, _ in met]).items()}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for kind in DEFAULTS:
        parser.add_argument(f"--{kind}", default=DEFAULTS[kind], help=f"openers, comma-separated (default {DEFAULTS[kind]})")
    parser.add_argument("--no-optimum", action="store_true", help="skip compiling each opener's optimum")
    parser.add_argument("--no-js", action="store_true", help="skip the JavaScript player")
    parser.add_argument("--no-book", action="store_true", help="the rule alone, without the opening book")
    args = parser.parse_args()
    rows = []
    for kind, name in TREES.items():
        openers = [o for o in getattr(args, kind.replace("-", "_")).split(",") if o]
        path = ROOT / "trees" / f"{name}.msgpack.zst"
        for opener in openers:
            tree = player.load(path)  # a fresh tree: the first suggest pays the game's one-time set-up
            tree.use_book = not args.no_book
            booked = bool(openings(tree, tree.game.parse_code(opener), tree.book)) and not args.no_book
            lengths, met = follow(tree, opener)
            row = {"game": kind, "tree": name, "opener": opener.upper(), "book": booked, "total": sum(lengths),
                   "worst": max(lengths)}
            if tree.game.restricts_guesses:
                row["keeps_the_rule"] = all(tree.game.allows(g, h) is None for h, _, _, g in met)
            best = None if args.no_optimum else optimum(kind, opener, tree)
            if best is not None:
                row.update(optimum_total=best[0], optimum_worst=best[1], ratio=round(sum(lengths) / best[0], 4))
            row.update({f"python_{k}": v for k, v in timings([t for _, _, t, _ in met], [w for _, w, _, _ in met]).items()})
            row["histories"] = len(met)
            if not args.no_js:
                row.update(in_node(path, met, not args.no_book) or {})
            rows.append(row)
            print(json.dumps(row), file=sys.stderr, flush=True)
    print(json.dumps({"job": "help off the tree: an opener of one's own, then suggest for every secret", "rows": rows},
                     indent=1))


if __name__ == "__main__":
    main()

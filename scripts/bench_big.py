"""A big tree in both players: how long opening takes, how long ``next_guess`` takes, and how much
memory the open tree costs, each in a fresh process; prints JSON.

    python scripts/bench_big.py FILE [--runs 5] [--histories 2000]

FILE is any artifact; the figures that matter are those of a chunked one (trees/FORMAT.md §10),
e.g. ``guesstree compile mastermind --colours 6 --holes 8 --strategy first -o big.msgpack.zst``
(1 679 616 secrets). Each run: a fresh interpreter imports the player (its memory then is the
baseline, once it has read the histories), opens FILE, then answers ``next_guess`` for histories
along the paths of random secrets (made beforehand, in this process): once each cold (chunks
inflated as the paths first reach them), then warm. Medians over the runs.
Node runs the same through ``player/js`` when it and its packages are there.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

PYTHON_RUN = r"""
import gc, json, random, sys, time

def rss():
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:")) / 1024

from guesstree import player
histories = [[(tuple(g), tuple(f)) for g, f in history] for history in json.load(open(sys.argv[2]))]
gc.collect()
base = rss()
started = time.perf_counter()
tree = player.load(sys.argv[1])
opened = time.perf_counter() - started
started = time.perf_counter()
for history in histories:
    tree.next_guess(history)
cold = time.perf_counter() - started
started = time.perf_counter()
for _ in range(5):
    for history in histories:
        tree.next_guess(history)
warm = (time.perf_counter() - started) / 5
steps = sum(map(len, histories)) / len(histories)
print(json.dumps({"open_ms": opened * 1e3, "cold_next_guess_us": cold / len(histories) * 1e6,
                  "warm_next_guess_us": warm / len(histories) * 1e6, "steps": steps, "rss_mib": rss() - base}))
"""

NODE_RUN = r"""
import { readFileSync } from "node:fs";
const { loadFile } = await import(process.argv[2]);
const rss = () => process.memoryUsage().rss / 2 ** 20;
const histories = JSON.parse(readFileSync(process.argv[3], "utf8"));
globalThis.gc?.();
const base = rss();
let started = performance.now();
const tree = await loadFile(process.argv[1]);
const opened = performance.now() - started;
started = performance.now();
for (const history of histories) tree.nextGuess(history);
const cold = performance.now() - started;
started = performance.now();
for (let round = 0; round < 5; round++) for (const history of histories) tree.nextGuess(history);
const warm = (performance.now() - started) / 5;
const steps = histories.reduce((sum, h) => sum + h.length, 0) / histories.length;
console.log(JSON.stringify({ open_ms: opened, cold_next_guess_us: cold / histories.length * 1e3,
  warm_next_guess_us: warm / histories.length * 1e3, steps, rss_mib: rss() - base }));
"""


def medians(runs: list[dict]) -> dict:
    return {key: round(statistics.median(run[key] for run in runs), 3) for key in runs[0]}


def main() -> int:
    parser = argparse.ArgumentParser(description="open a big tree and answer next_guess in both players")
    parser.add_argument("file", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--histories", type=int, default=2000)
    args = parser.parse_args()
    from guesstree import player

    tree = player.load(args.file)
    result = {"file": str(args.file), "bytes": args.file.stat().st_size, "nodes": tree.nodes,
              "secrets": tree.stats.secrets, "version": tree.header["version"], "runs": args.runs}
    rng, game = random.Random(1), tree.game
    histories = []
    for _ in range(args.histories):
        path = tree.path(rng.choice(game.secrets) if tree.stats.secrets < 1 << 16 else
                         tuple(rng.randrange(game.symbols) for _ in range(game.length)))
        histories.append(path[:rng.randrange(len(path))])
    held = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
    with held:
        json.dump(histories, held)
    python = [json.loads(subprocess.run([sys.executable, "-c", PYTHON_RUN, str(args.file), held.name],
                                        check=True, capture_output=True, text=True).stdout) for _ in range(args.runs)]
    result["python"] = medians(python)
    node, entry = shutil.which("node"), REPO / "player" / "js" / "src" / "node.js"
    if node and (REPO / "player" / "js" / "node_modules" / "fzstd").is_dir():
        runs = [json.loads(subprocess.run([node, "--expose-gc", "--input-type=module", "-e", NODE_RUN, str(args.file), entry.as_uri(),
                                           held.name], check=True, capture_output=True, text=True).stdout)
                for _ in range(args.runs)]
        result["node"] = medians(runs)
    os.unlink(held.name)
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

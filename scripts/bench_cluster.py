"""Benchmarks of the exhaustive searches on a Dask cluster; prints one JSON object with a list of rows.

    python scripts/bench_cluster.py --row small-words --workers 1,2       # a full opener search, 1 and 2 workers
    python scripts/bench_cluster.py --row wordle-openers100 --workers 2    # Wordle, the 100 best openers by entropy
    python scripts/bench_cluster.py --row wordle-opener-sample --sample 20 # one opener's cost, for projections
    python scripts/bench_cluster.py --row bulls-cows --workers 2 --limit 2700 --checkpoint bc.checkpoint
    python scripts/bench_cluster.py --row mastermind-8x4-expected --workers 2 --limit 1800 --checkpoint m84.checkpoint
    python scripts/bench_cluster.py --row small-words --cluster tcp://HOST:8786   # on a cluster of yours

Each row runs ``guesstree compile ... --cluster local:N`` as the user would, in a fresh process, with
a progress log, and reports: wall seconds of the whole command and of the search alone, the
cluster's start, the workers' busy seconds (the time they spent inside jobs, summed), their busy
fraction (busy / (search seconds x workers)) and the rest (scheduling, transfers, the client's own
work between jobs, workers idle while the last jobs of a node finish), what the search proved, and
per opener the mean seconds of work. A row past ``--limit`` seconds is stopped as Ctrl-C would, and
reports how far it got (its checkpoint keeps the work: the same command with ``--resume`` goes on);
every row also has CPU seconds and peak RSS (of the largest process).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
from bench_optimal import run  # noqa: E402 (a command in its own process group: time, CPU, peak RSS, Ctrl-C)
WORDLE = ROOT / "tests" / "data" / "wordle"  # the original lists (12972 guesses, 2315 answers)

# In a subprocess: the search (as compile runs it) with a progress log; stopped by SIGINT.
SEARCH_SCRIPT = """
import json, signal, sys, time
signal.signal(signal.SIGINT, signal.default_int_handler)  # Ctrl-C, even if started in the background (ignored there)
from guesstree.compiler import Options
from guesstree.compiler.cli.parameters import game_from_options
from dataclasses import replace
from guesstree.compiler.search.solver import Interrupted, Solver
from guesstree.compiler.exact import searched_game
from guesstree.compiler.workers.settings import SearchSettings
game_args, options, cluster, log, checkpoint = (json.loads(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3],
                                                sys.argv[4], sys.argv[5] or None)
started = time.monotonic()
last = [0.0]
def progress(status):
    if time.monotonic() - last[0] > 10:
        last[0] = time.monotonic()
        with open(log, "a") as f:
            f.write(json.dumps({k: v for k, v in status.items() if k != "dashboard"}) + "\\n")
game = game_from_options(**game_args)
options = Options(**options)
searched = replace(searched_game(game, options.candidates, options.max_memory), openers=options.openers)
solver = Solver(searched, SearchSettings(checkpoint=checkpoint, resume=bool(checkpoint), progress=progress,
                                         cluster=cluster))
ready = time.monotonic()
row = {"cluster_start_seconds": round(ready - started, 2), "workers": solver.dispatch.slots}
try:
    report = solver.solve(options.strategy.objective, options.max_depth)
    row.update(finished=True, total=report.total, worst=report.worst, proof=report.proof.get("proven"))
except Interrupted:
    row.update(finished=False, progress={k: v for k, v in solver.status.items() if k != "dashboard"})
row.update(search_seconds=round(time.monotonic() - ready, 2), busy_seconds=round(solver.job_seconds, 2),
           nodes=solver.nodes, openers=solver.status.get("openers"))
solver.close()
print(json.dumps(row))
"""


# In a subprocess: the search below each of a random sample of Wordle's first guesses, with the
# cutoff that the best opener's total (7920, SALET) sets, one after the other in one process:
# what one opener job costs a worker, for projecting the full opener search.
SAMPLE_SCRIPT = """
import json, sys, time
import numpy as np
from guesstree.compiler.cli.parameters import game_from_options
from guesstree.compiler.exact import solver_of
from guesstree.compiler.workers.settings import SearchSettings
game_args, count = json.loads(sys.argv[1]), int(sys.argv[2])
game = game_from_options(**game_args)
solver = solver_of(game, search=SearchSettings(workers=1))
root = np.arange(len(game.secrets), dtype=np.int64)
openers = np.random.default_rng(2026).choice(len(game.guesses), count, replace=False)
seconds = []
for guess in openers.tolist():
    started = time.perf_counter()
    total, limit = solver.total.root_total(root, guess, 1 << 20, 7921)
    seconds.append(time.perf_counter() - started)
print(json.dumps({"openers": count, "mean_seconds": round(float(np.mean(seconds)), 3),
                  "median_seconds": round(float(np.median(seconds)), 3), "max_seconds": round(max(seconds), 3),
                  "sum_seconds": round(sum(seconds), 2)}))
"""


def small_words(folder: Path) -> dict:
    """Our smaller Wordle: every third answer (772) and those with every sixth allowed word (2934 guesses)."""
    answers = (WORDLE / "wordlist_orig_hidden").read_text().split()[::3]
    others = (WORDLE / "wordlist_orig_all").read_text().split()[5::6]
    (folder / "answers.txt").write_text("\n".join(answers) + "\n")
    (folder / "guesses.txt").write_text("\n".join(sorted(set(answers + others))) + "\n")
    return {"name": "words", "answers": str(folder / "answers.txt"), "guesses": str(folder / "guesses.txt")}


def rows(folder: Path) -> dict:
    wordle = {"name": "words", "answers": str(WORDLE / "wordlist_orig_hidden"),
              "guesses": str(WORDLE / "wordlist_orig_all")}
    return {
        "small-words": (small_words(folder), {"strategy": "optimal-expected"}),
        "wordle-openers100": (wordle, {"strategy": "optimal-expected", "openers": 100}),
        "wordle-openers10": (wordle, {"strategy": "optimal-expected", "openers": 10}),
        "wordle-salet": (wordle, {"strategy": "optimal-expected", "first": "salet"}),
        "wordle-opener-sample": (wordle, {}),  # --sample random first guesses, one process, cutoff 7921
        "bulls-cows": ({"name": "bulls-cows"}, {"strategy": "optimal-expected"}),
        "mastermind-7x4-expected": ({"name": "mastermind", "colours": 7}, {"strategy": "optimal-expected"}),
        "mastermind-8x4-expected": ({"name": "mastermind", "colours": 8}, {"strategy": "optimal-expected"}),
        "mastermind-8x4-worst": ({"name": "mastermind", "colours": 8}, {"strategy": "optimal-worst"}),
    }


def run_row(game: dict, options: dict, cluster: str, limit: float, checkpoint: str, folder: Path) -> dict:
    log = folder / f"progress-{time.monotonic_ns()}.log"
    command = [sys.executable, "-c", SEARCH_SCRIPT, json.dumps(game), json.dumps(options), cluster, str(log),
               checkpoint or ""]
    result = run(command, limit, interrupt=True)  # past the limit, a Ctrl-C: the checkpoint is saved
    lines = result["stdout"].strip().splitlines()
    if result["status"] == "failed" or not lines:
        return {"error": result["stderr"].strip().splitlines()[-1:] or ["no output"], "seconds": result["seconds"]}
    row = json.loads(lines[-1])
    row.update({key: result[key] for key in ("seconds", "cpu_seconds", "peak_rss_mib", "status")})
    workers, search = row["workers"], row["search_seconds"]
    if search > 0:
        row["busy_fraction"] = round(row["busy_seconds"] / (search * workers), 3)
    if row.get("openers"):
        row["busy_seconds_per_opener"] = round(row["busy_seconds"] / row["openers"], 3)
    if log.exists():
        row["last_progress"] = json.loads(log.read_text().strip().splitlines()[-1])
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--row", action="append", required=True, help="one of the rows (repeatable)")
    parser.add_argument("--workers", default="2", help="comma-separated worker counts for local:N (default 2)")
    parser.add_argument("--cluster", help="a scheduler's address instead of local:N")
    parser.add_argument("--limit", type=float, default=3600, help="seconds before a row is stopped (default 3600)")
    parser.add_argument("--checkpoint", help="checkpoint file (with --resume when it exists)")
    parser.add_argument("--sample", type=int, default=20, help="wordle-opener-sample: first guesses to time")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        known = rows(folder)
        results = []
        for name in args.row:
            if name not in known:
                parser.error(f"unknown row {name!r}; choose from {', '.join(known)}")
            game, options = known[name]
            if name == "wordle-opener-sample":
                done = subprocess.run([sys.executable, "-c", SAMPLE_SCRIPT, json.dumps(game), str(args.sample)],
                                      capture_output=True, text=True, cwd=ROOT)
                results.append({"row": name, **json.loads(done.stdout.strip().splitlines()[-1])})
                print(json.dumps(results[-1]), file=sys.stderr, flush=True)
                continue
            clusters = [args.cluster] if args.cluster else [f"local:{n}" for n in args.workers.split(",")]
            for cluster in clusters:
                row = {"row": name, "game": game, "options": options, "cluster": cluster}
                row.update(run_row(game, options, cluster, args.limit, args.checkpoint, folder))
                results.append(row)
                print(json.dumps(row), file=sys.stderr, flush=True)
    print(json.dumps({"machine": {"cpus": os.cpu_count(), "python": platform.python_version()}, "rows": results},
                     indent=2))


if __name__ == "__main__":
    main()

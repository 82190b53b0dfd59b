"""Benchmarks of the exhaustive searches; prints one JSON object with a list of rows.

    python scripts/bench_optimal.py                 # bound and optimal-expected rows (about a minute)
    python scripts/bench_optimal.py --bulls-cows    # also a 30-minute-capped optimal-expected bulls-cows
    python scripts/bench_optimal.py --workers 1     # on one core

Every row runs in a fresh process (interpreter start, imports and the numba cache load count).
Each row: job, command, seconds (wall), cpu_seconds (the process and its workers), peak_rss_mib
(of the largest process; the row's own only if it is the largest so far),
status, and what the search proved (worst, total) with its effort (nodes). The capped bulls-cows
row is stopped with SIGINT (as Ctrl-C would) and reports how far the search got: the last
progress status and the checkpoint's size.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GUESSTREE = str(Path(sys.executable).parent / "guesstree")
MIB = 1 << 20

# In a subprocess: the optimal-expected search with a progress log, stopped by SIGINT.
CAPPED_SCRIPT = """
import json, sys, time
from compiler import Options
from compiler.search.solver import Interrupted, solver_for
from compiler.bound import prepared_context
from player.games import make_game
name, params, log, checkpoint, workers = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
last = [0.0]
def progress(status):
    if time.monotonic() - last[0] > 5:
        last[0] = time.monotonic()
        with open(log, "a") as f:
            f.write(json.dumps(status) + "\\n")
options = Options(strategy="optimal-expected")
context = prepared_context(make_game(name, **params), options, workers=int(workers) if workers != "0" else None,
                         checkpoint=checkpoint, progress=progress)
solver = solver_for(context)
try:
    report = solver.solve("optimal-expected")
    print(json.dumps({"finished": True, "total": report.total, "nodes": report.nodes}))
except Interrupted:
    print(json.dumps({"finished": False, "nodes": solver.nodes, "progress": solver.status}))
"""


def run(command: list[str], timeout: float, interrupt: bool = False) -> dict:
    """Run ``command`` in its own process group: wall time, CPU time of the process and the workers
    it waited for, the largest process's peak RSS, and how it ended. Past ``timeout``: SIGINT if
    ``interrupt`` (a Ctrl-C: the search saves its work and stops), else SIGKILL."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        process = subprocess.Popen(command, stdout=out, stderr=err, stdin=subprocess.DEVNULL, cwd=ROOT,
                                   start_new_session=True)
        try:
            process.wait(timeout)
            state = "ok" if process.returncode == 0 else "failed"
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGINT if interrupt else signal.SIGKILL)
            process.wait()
            state = "capped" if interrupt else "timeout"
        seconds = time.perf_counter() - started
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode(errors="replace"), err.read().decode(errors="replace")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return {"seconds": round(seconds, 2), "cpu_seconds": round(cpu, 2),
            "peak_rss_mib": round(after.ru_maxrss / 1024, 1), "status": state, "stdout": stdout, "stderr": stderr}


def row(job: str, command: list[str], timeout: float, parse, interrupt: bool = False) -> dict:
    result = run(command, timeout, interrupt)
    entry = {"job": job, "command": " ".join(command)}
    entry.update({key: result[key] for key in ("seconds", "cpu_seconds", "peak_rss_mib", "status")})
    try:
        entry.update(parse(result["stdout"]))
    except Exception as error:  # keep the row, say why it has no numbers
        entry["error"] = f"{type(error).__name__}: {error}; stderr: {result['stderr'][-400:]}"
    return entry


def bound_row(game: list[str], workers: list[str], timeout: float) -> dict:
    def parse(stdout: str) -> dict:
        data = json.loads(stdout)
        return {"worst": data["worst"], "nodes": data["nodes"], "search_seconds": data["seconds"], "proof": data["proof"]}
    return row(f"bound {game[0]}", [GUESSTREE, "bound", *game, "--json", *workers], timeout, parse)


def optimal_row(game: list[str], extra: list[str], timeout: float, directory: str) -> dict:
    path = Path(directory) / f"{game[0]}-{len(extra)}.msgpack.zst"

    def parse(stdout: str) -> dict:
        sys.path.insert(0, str(ROOT))
        import player

        tree = player.load(path)
        return {"total": tree.stats["total"], "worst": tree.stats["worst"], "proven": tree.strategy.get("proven")}
    command = [GUESSTREE, "compile", *game, "--strategy", "optimal-expected", *extra, "-o", str(path), "-q"]
    return row(f"optimal-expected {game[0]} {' '.join(extra)}".strip(), command, timeout, parse)


def capped_row(name: str, params: dict, cap: float, workers: int, directory: str) -> dict:
    log = Path(directory) / "progress.jsonl"
    checkpoint = Path(directory) / f"{name}.checkpoint.npz"

    def parse(stdout: str) -> dict:
        data = json.loads(stdout.strip().splitlines()[-1])
        if checkpoint.exists():
            data["checkpoint_mib"] = round(checkpoint.stat().st_size / MIB, 1)
        if log.exists():
            lines = log.read_text().splitlines()
            data["progress_samples"] = len(lines)
        return data
    command = [sys.executable, "-c", CAPPED_SCRIPT, name, json.dumps(params), str(log), str(checkpoint), str(workers)]
    entry = row(f"optimal-expected {name} (capped at {cap:.0f} s)", command, cap, parse, interrupt=True)
    entry["command"] = f"compiler.search.solver: Solver.solve('optimal-expected') on {name}, SIGINT after {cap:.0f} s"
    return entry


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bulls-cows", action="store_true", help="add the capped optimal-expected bulls-cows attempt")
    parser.add_argument("--cap", type=float, default=1800.0, help="seconds for the capped attempt (default 1800)")
    parser.add_argument("--workers", type=int, default=0, help="worker processes (default: one per core)")
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds before a row is killed")
    args = parser.parse_args()
    workers = ["--workers", str(args.workers)] if args.workers else []
    rows = []
    with tempfile.TemporaryDirectory() as directory:
        rows.append(bound_row(["mastermind"], workers, args.timeout))
        rows.append(bound_row(["bulls-cows"], workers, args.timeout))
        rows.append(optimal_row(["mastermind"], [], args.timeout, directory))
        rows.append(optimal_row(["mastermind"], ["--max-depth", "5"], args.timeout, directory))
        if args.bulls_cows:
            rows.append(capped_row("bulls-cows", {}, args.cap, args.workers, directory))
    print(json.dumps({"machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                                  "platform": platform.platform()}, "rows": rows}, indent=2))


if __name__ == "__main__":
    main()

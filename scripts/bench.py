"""Benchmarks of the compiler and the player; prints one JSON object with a list of rows.

    python scripts/bench.py                      # the everyday rows (about a minute)
    python scripts/bench.py --only player        # rows whose job contains "player"
    python scripts/bench.py --heavy --timeout 900
    python scripts/bench.py --proofs --only wordle --timeout 3600   # the proofs over every first guess
    python scripts/bench.py --heavy --only "8x5 most" --repeat 5 --cpp ~/cpp   # beside the C++ solver, in turn

Every row runs in a fresh subprocess, so interpreter start, imports and the numba cache load
are counted, and the peak RSS is that process's own (``os.wait4``'s rusage, ``ru_maxrss``).
A row that runs past ``--timeout`` is killed and reported with status "timeout".
Each row: job, command, seconds, peak_rss_mib, total (guesses to win), worst, status, and
where it applies bytes / bytes_per_secret, or a value with its unit.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
GUESSTREE = str(Path(sys.executable).parent / "guesstree")
ENTROPY_TREE = ROOT / "trees" / "mastermind-c6-h4-entropy.msgpack.zst"
WORDLE = ROOT / "tests" / "data" / "wordle"  # the original lists (12972 guesses, 2315 answers)
MIB = 1 << 20

# In-process build: imports and one small build first, so only the build itself is timed
# (the median of five builds, with the fastest and slowest).
BUILD_SCRIPT = """
import json, statistics, sys, time
from guesstree.compiler import Options, build
from guesstree.compiler.engine.kinds import backend_for
from guesstree.player.games import make_game
name, params, strategy, small = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3], json.loads(sys.argv[4])
options = Options(strategy=strategy)
game = make_game(name, **params)
game.secrets, game.guesses
backend = backend_for(game, options.engine)  # warm-up: every kernel this game uses is loaded (or compiled)
build(make_game(name, **small), Options(strategy=strategy, engine=backend))
times = []
for _ in range(5):
    started = time.perf_counter()
    built = build(game, options)
    times.append(time.perf_counter() - started)
print(json.dumps({"seconds": statistics.median(times), "seconds_min": round(min(times), 4), "seconds_max": round(max(times), 4),
                  "total": built.stats["total"], "worst": built.stats["worst"]}))
"""

LOAD_SCRIPT = """
import json, statistics, sys, time
from guesstree import player
path, loads = sys.argv[1], int(sys.argv[2])
times = []
for _ in range(loads):
    started = time.perf_counter()
    tree = player.load(path)
    times.append(time.perf_counter() - started)
print(json.dumps({"seconds": statistics.median(times), "total": tree.stats["total"], "worst": tree.stats["worst"]}))
"""

# A realistic call: the history of the first three guesses towards each secret that needs more.
NEXT_GUESS_SCRIPT = """
import json, statistics, sys, time
from guesstree import player
tree = player.load(sys.argv[1])
repeats = int(sys.argv[2])
histories = [path[:3] for path in map(tree.path, tree.game.secrets) if len(path) > 3]
times = []
for _ in range(repeats):
    started = time.perf_counter()
    for history in histories:
        tree.next_guess(history)
    times.append((time.perf_counter() - started) / len(histories))
print(json.dumps({"seconds": statistics.median(times), "histories": len(histories),
                  "total": tree.stats["total"], "worst": tree.stats["worst"]}))
"""


@dataclass
class Run:
    seconds: float
    peak_rss_mib: float | None
    status: str  # "ok", "timeout" or "failed"
    cpu_seconds: float | None
    stdout: str
    stderr: str


def run(command: list[str], timeout: float, env: dict | None = None, cwd: Path = ROOT) -> Run:
    """Run ``command`` in a fresh process group (in ``cwd``); its own wall time, peak RSS and exit.
    ``env``: variables to set for it (``{"NUMBA_CACHE_DIR": None}``: a fresh empty folder)."""
    fresh = []
    if env is not None:
        fresh = [tempfile.mkdtemp(prefix="guesstree-cache-") for value in env.values() if value is None]
        made = iter(fresh)
        env = {**os.environ, **{key: value or next(made) for key, value in env.items()}}
    try:
        return _run(command, timeout, env, cwd)
    finally:
        for folder in fresh:
            shutil.rmtree(folder, ignore_errors=True)


def _run(command: list[str], timeout: float, env: dict | None, cwd: Path) -> Run:
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        process = subprocess.Popen(command, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                                   cwd=cwd, start_new_session=True, env=env)
        timed_out = threading.Event()

        def kill() -> None:
            timed_out.set()
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

        timer = threading.Timer(timeout, kill)
        timer.start()
        try:
            _, status, usage = os.wait4(process.pid, 0)
        finally:
            timer.cancel()
        seconds = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode(errors="replace"), err.read().decode(errors="replace")
    rss = usage.ru_maxrss * (1 if sys.platform == "darwin" else 1024) / MIB  # bytes on macOS, KiB on Linux
    state = "timeout" if timed_out.is_set() else "ok" if process.returncode == 0 else "failed"
    return Run(seconds, round(rss, 1), state, round(usage.ru_utime + usage.ru_stime, 2), stdout, stderr)


@dataclass
class Job:
    job: str
    command: list[str]
    measure: str  # "compile", "fresh" (a compile in a new install), "bound", "openers", "script", "import" or "size"
    heavy: bool = False
    proof: bool = False  # one of the proofs over every first guess (minutes each): only with --proofs
    shown: str = ""  # the command as reported, when the real one is unreadable
    extra: dict = field(default_factory=dict)
    env: dict | None = None  # environment variables for the command (see run)
    cpp: float | None = None  # the best C++ solver's seconds on this machine kind, built right, if known
    cpp_command: tuple[str, ...] = ()  # that solver's command: a program in --cpp DIR, run there, and its arguments


def significant(seconds: float | None) -> float | None:
    return None if seconds is None else float(f"{seconds:.4g}")


def row(job: Job, **values) -> dict:
    base = {"job": job.job, "command": job.shown or display(job.command), "seconds": None,
            "peak_rss_mib": None, "total": None, "worst": None, "status": "ok"}
    base.update(values)
    base["seconds"] = significant(base["seconds"])
    if job.cpp is not None and "cpp_seconds" not in base:  # an anchor, not timed in this run
        base.update(cpp_seconds=job.cpp, cpp_timed="anchor")
        base["ratio_to_cpp"] = None if base["seconds"] is None else round(base["seconds"] / job.cpp, 2)
    return base


def display(command: list[str]) -> str:
    return shlex.join(command).replace(GUESSTREE, "guesstree").replace(PYTHON, "python")


def artifact_stats(path: Path) -> dict:
    from guesstree.player.artifact import decode, read_file

    data = read_file(path)
    header, _ = decode(data, str(path))
    stats = header["stats"]
    return {"total": stats["total"], "worst": stats["worst"], "bytes": len(data),
            "bytes_per_secret": round(len(data) / stats["secrets"], 3)}


def failure(result: Run) -> dict:
    """The most telling line of a failed row: the CLI's ``error:`` line, or the exception."""
    if result.status != "failed":
        return {}
    lines = [line.strip(" │|") for line in (result.stderr + result.stdout).splitlines() if line.strip(" │|")]
    telling = [line for line in lines if line.startswith("error:") or re.match(r"\w*(Error|Exception)\b", line)]
    return {"error": (telling or lines or ["no output"])[-1]}


def timing(runs: list[Run]) -> dict:
    """A row's figures from its runs: the median wall and CPU seconds, the largest peak RSS, and the
    last run's status (with its telling line when it failed)."""
    last = runs[-1]
    return {"seconds": round(statistics.median(r.seconds for r in runs), 3),
            "cpu_seconds": statistics.median(r.cpu_seconds for r in runs),
            "peak_rss_mib": max(r.peak_rss_mib for r in runs), "status": last.status, **failure(last)}


def measure_compile(job: Job, output: Path, timeout: float, repeat: int, cpp: Path | None = None) -> dict:
    """``repeat`` runs of the compile; with ``cpp`` (a folder of the C++ solvers, as
    scripts/BENCHMARKS.md builds them) and a row that has one, the C++ run in turn with each
    (ours, C++, ours, C++, ...): its median, and the median of the pairs' ratios."""
    runs, theirs = [], []
    program = None if cpp is None or not job.cpp_command else cpp / job.cpp_command[0]
    for _ in range(repeat):
        output.unlink(missing_ok=True)
        result = run(job.command, timeout, job.env)
        runs.append(result)
        if result.status != "ok":
            break
        if program is not None and program.exists():
            theirs.append(run([str(program), *job.cpp_command[1:]], timeout, cwd=cpp))
    last = runs[-1]
    values = timing(runs)
    if theirs and all(r.status == "ok" for r in theirs):
        values.update(cpp_seconds=round(statistics.median(r.seconds for r in theirs), 3),
                      cpp_cpu_seconds=statistics.median(r.cpu_seconds for r in theirs), cpp_timed="in turn, this run",
                      ratio_to_cpp=round(statistics.median(a.seconds / b.seconds for a, b in zip(runs, theirs)), 2))
    elif program is not None:
        values.update(cpp_timed=f"not timed: {program} " + ("failed" if theirs else "not found"))
    if len(runs) > 1:
        values.update(seconds_min=round(min(r.seconds for r in runs), 3), seconds_max=round(max(r.seconds for r in runs), 3))
    if last.status == "ok":
        values.update(artifact_stats(output))
    return row(job, **values)


def measure_fresh_install(job: Job, output: Path, scratch: Path, timeout: float) -> dict:
    """The first run of ``job`` in a new virtual environment with this checkout installed as a
    user would (``pip install '.[compiler]'``, which compiles the kernels ahead): its time, and
    the install's beside it."""
    venv = scratch / "fresh-venv"
    started = time.perf_counter()
    for step in ([PYTHON, "-m", "venv", str(venv)], [str(venv / "bin" / "pip"), "install", "-q", f"{ROOT}[compiler]"]):
        done = run(step, timeout)
        if done.status != "ok":
            return row(job, status=done.status, error=(done.stderr.strip().splitlines() or ["no output"])[-1])
    installed = time.perf_counter() - started
    fresh = Job(job.job, [str(venv / "bin" / "guesstree"), *job.command[1:]], "compile", job.heavy, shown=job.shown)
    return {**measure_compile(fresh, output, timeout, 1), "install_seconds": round(installed, 1)}


def measure_bound(job: Job, timeout: float, repeat: int) -> dict:
    """``guesstree bound ... --json``: the median time of ``repeat`` runs, and what it proved."""
    runs = []
    for _ in range(repeat):
        runs.append(run(job.command, timeout))
        if runs[-1].status != "ok":
            break
    last = runs[-1]
    values = timing(runs)
    if last.status == "ok":
        report = json.loads(last.stdout)
        values.update(worst=report["worst"], nodes=report["nodes"])
    return row(job, **values)


def measure_openers(job: Job, timeout: float) -> dict:
    """``guesstree openers ... --json``: its time, and the best and the K-th best exact totals."""
    result = run(job.command, timeout)
    values = timing([result])
    if result.status == "ok":
        ranking = json.loads(result.stdout)
        best = ranking["openers"]
        values.update(total=best[0]["total"], worst=best[0]["worst"], first_guess=best[0]["guess"],
                      kth_total=best[-1]["total"], refuted=ranking["refuted"])
    return row(job, **values)


def measure_script(job: Job, timeout: float, scale: float = 1.0, unit: str | None = None) -> dict:
    result = run(job.command, timeout)
    values = timing([result])
    if result.status == "ok":
        reported = json.loads(result.stdout.strip().splitlines()[-1])
        del values["cpu_seconds"]  # the process's, not that of the calls the script times
        values.update(seconds=reported.pop("seconds"), **reported)
        if unit:
            values.update(value=round(values["seconds"] * scale, 3), unit=unit)
    return row(job, **values)


def measure_import(job: Job, timeout: float, runs: int) -> dict:
    """``python -c "import guesstree.player"`` minus ``python -c pass``, medians of fresh processes."""
    empty = [run([PYTHON, "-c", "pass"], timeout) for _ in range(runs)]
    full = [run(job.command, timeout) for _ in range(runs)]
    if any(r.status != "ok" for r in empty + full):
        bad = next(r for r in empty + full if r.status != "ok")
        return row(job, status=bad.status, **failure(bad))
    seconds = statistics.median(r.seconds for r in full) - statistics.median(r.seconds for r in empty)
    timing = run([PYTHON, "-X", "importtime", "-c", "import guesstree.player"], timeout)
    cumulative = [int(line.split("|")[1]) for line in timing.stderr.splitlines()
                  if line.startswith("import time:") and line.split("|")[-1].strip() == "guesstree.player"]
    modules = run([PYTHON, "-c", "import sys, guesstree.player; print(' '.join(sorted(m for m in sys.modules "
                                 "if m.split('.')[0] in ('numpy', 'typer', 'numba') or m.startswith('guesstree.compiler'))))"], timeout)
    return row(job, seconds=round(seconds, 4), peak_rss_mib=max(r.peak_rss_mib for r in full),
               value=round(seconds * 1e3, 1), unit="ms",
               importtime_cumulative_ms=round(cumulative[0] / 1e3, 1) if cumulative else None,
               heavy_modules_imported=modules.stdout.split())


def compile_job(label: str, game_args: list[str], strategy: str, scratch: Path, heavy: bool = False,
                proof: bool = False,
                extra_args: tuple[str, ...] = (), cpp: float | None = None, env: dict | None = None,
                note: str = "", cpp_command: tuple[str, ...] = ()) -> tuple[Job, Path]:
    output = scratch / f"{label.replace(' ', '-')}-{strategy}{note.replace(' ', '-')}.msgpack.zst"
    command = [GUESSTREE, "compile", *game_args, "--strategy", strategy, *extra_args, "-o", str(output), "--quiet"]
    shown = display(command).replace(str(scratch), "$TMP")
    if env:
        shown = " ".join(f"{key}=<empty folder>" for key in env) + " " + shown
    return Job(f"compile {label} {strategy}{note}", command, "compile", heavy, proof, shown, env=env, cpp=cpp,
               cpp_command=cpp_command), output


def bound_job(game_args: list[str], label: str, heavy: bool = False) -> tuple[Job, None]:
    command = [GUESSTREE, "bound", *game_args, "--json", "--quiet"]
    return Job(f"bound {label}", command, "bound", heavy), None


def jobs(scratch: Path) -> list[tuple[Job, Path | None]]:
    listed: list[tuple[Job, Path | None]] = []
    for strategy in ("entropy", "minimax", "most-parts", "expected-size"):
        listed.append(compile_job("mastermind 6x4", ["mastermind"], strategy, scratch))
    listed.append(compile_job("bulls-cows", ["bulls-cows"], "entropy", scratch))
    build_command = [PYTHON, "-c", BUILD_SCRIPT, "bulls-cows", "{}", "entropy", json.dumps({"digits": 6, "length": 3})]
    listed.append((Job("build in-process bulls-cows entropy", build_command, "script",
                       shown="python -c 'build(make_game(\"bulls-cows\"), Options(\"entropy\"))' (median of 5, after imports and a bulls-cows 6x3 warm-up build)"), None))
    listed.append(compile_job("digits 4", ["digits", "--length", "4"], "entropy", scratch))
    listed.append((Job("player import", [PYTHON, "-c", "import guesstree.player"], "import",
                       shown="python -c 'import guesstree.player' minus python -c pass"), None))
    tree = str(ENTROPY_TREE)
    listed.append((Job("player load mastermind 6x4 entropy", [PYTHON, "-c", LOAD_SCRIPT, tree, "200"], "load",
                       shown="guesstree.player.load('trees/mastermind-c6-h4-entropy.msgpack.zst'), median of 200"), None))
    listed.append((Job("player next_guess mastermind 6x4 entropy (3-step history)",
                       [PYTHON, "-c", NEXT_GUESS_SCRIPT, tree, "50"], "next_guess",
                       shown="tree.next_guess(first 3 steps towards each secret), median per call of 50 rounds"), None))
    listed.append((Job("artifact bytes per secret mastermind 6x4 entropy", [], "size",
                       shown="size of trees/mastermind-c6-h4-entropy.msgpack.zst / secrets"), None))
    if WORDLE.is_dir():
        lists = ["words", "--answers", str(WORDLE / "wordlist_orig_hidden"), "--guesses", str(WORDLE / "wordlist_orig_all")]
        job, wordle_tree = compile_job("wordle", lists, "entropy", scratch)
        listed.append((job, wordle_tree))
        listed.append((Job("player next_guess wordle entropy (3-step history)",
                           [PYTHON, "-c", NEXT_GUESS_SCRIPT, str(wordle_tree), "20"], "next_guess",
                           shown="tree.next_guess(first 3 steps towards each answer) on the tree built above, "
                                 "median per call of 20 rounds"), None))
        wordle = ("wordle", "-a", str(WORDLE / "wordlist_orig_all"), "-h", str(WORDLE / "wordlist_orig_hidden"))
        listed.append(compile_job("wordle salet", lists, "optimal-expected", scratch, heavy=True,
                                  extra_args=("--first", "salet"), cpp=1.47, cpp_command=(*wordle, "-w", "salet")))
        listed.append(compile_job("wordle hard salet depth 6", [*lists, "--hard"], "optimal-expected", scratch,
                                  heavy=True, extra_args=("--first", "salet", "--max-depth", "6"), cpp=2.54,
                                  cpp_command=(*wordle, "-H", "-w", "salet")))
        listed.append(compile_job("wordle salet", lists, "optimal-expected", scratch, heavy=True,
                                  extra_args=("--first", "salet"), env={"NUMBA_CACHE_DIR": None},
                                  note=" (empty compiled-code cache)"))
        job, output = compile_job("wordle salet", lists, "optimal-expected", scratch, heavy=True,
                                  extra_args=("--first", "salet"), note=" (first run after a fresh install)")
        job.measure = "fresh"
        job.shown = ("python -m venv v && v/bin/pip install '.[compiler]' && "
                     + job.shown.replace("guesstree ", "v/bin/guesstree ", 1))
        listed.append((job, output))
        # the proofs over every first guess; the C++ solver (alex1770/wordle) has -N100 beside the first
        listed.append(compile_job("wordle openers 100", lists, "optimal-expected", scratch, heavy=True,
                                  extra_args=("--openers", "100"), cpp=173.0, cpp_command=(*wordle, "-N100")))
        listed.append(compile_job("wordle full proof", lists, "optimal-expected", scratch, proof=True))
        listed.append(compile_job("wordle hard full proof depth 6", [*lists, "--hard"], "optimal-expected", scratch,
                                  proof=True, extra_args=("--max-depth", "6")))
        command = [GUESSTREE, "openers", *lists, "--top", "10", "--json", "--quiet"]
        listed.append((Job("openers wordle top 10", command, "openers", proof=True), None))
    listed.append(compile_job("mastermind 6x4", ["mastermind"], "optimal-expected", scratch))
    listed.append(compile_job("mastermind 6x4", ["mastermind"], "fewest-at-worst", scratch))
    listed.append(bound_job(["mastermind"], "mastermind"))
    listed.append(bound_job(["bulls-cows"], "bulls-cows"))
    # the C++ anchors built with -O3 -march=native -DNDEBUG on a quiet machine of this kind (an
    # earlier session's), for when --cpp does not time them in this run
    cpp = {"entropy": 5.23, "minimax": 3.57, "most-parts": 1.54, "expected-size": None}
    for strategy in ("entropy", "minimax", "most-parts", "expected-size"):
        listed.append(compile_job("mastermind 8x5", ["mastermind", "--colours", "8", "--holes", "5"],
                                  strategy, scratch, heavy=True, cpp=cpp[strategy],
                                  cpp_command=(f"mastermind-8x5-{strategy}",) if cpp[strategy] else ()))
    for strategy in ("entropy", "most-parts"):  # entropy's time against most-parts' at a big size
        listed.append(compile_job("mastermind 8x6", ["mastermind", "--colours", "8", "--holes", "6"], strategy,
                                  scratch, heavy=True))
    listed.append(compile_job("mastermind 9x5", ["mastermind", "--colours", "9", "--holes", "5"], "entropy", scratch,
                              heavy=True))
    listed.append(compile_job("digits 5", ["digits", "--length", "5"], "sampled-entropy", scratch, heavy=True))
    listed.append(compile_job("mastermind 7x4", ["mastermind", "--colours", "7", "--holes", "4"], "optimal-expected",
                              scratch, heavy=True))
    listed.append(compile_job("bulls-cows", ["bulls-cows"], "optimal-expected", scratch, heavy=True))
    listed.append(compile_job("bulls-cows", ["bulls-cows"], "fewest-at-worst", scratch, heavy=True))
    return listed


WARM_UP = (["mastermind", "--holes", "4", "--colours", "4"], ["bulls-cows", "--digits", "6", "--length", "3"],
           ["digits", "--length", "3"])


def warm_up(scratch: Path, timeout: float) -> None:
    """Small compiles of each game family, so that numba's on-disk cache is valid before
    anything is timed (after an edit of compiler/engine/kernels.py, the first run recompiles)."""
    for game in WARM_UP:
        result = run([GUESSTREE, "compile", *game, "--strategy", "entropy", "--engine", "numba",
                      "-o", str(scratch / "warm-up.msgpack.zst"), "--quiet"], timeout)
        if result.status != "ok":
            print(f"warm-up compile {game[0]} {result.status}: {result.stderr.strip()[-500:]}", file=sys.stderr)


def versions() -> dict:
    found = {}
    for package in ("guesstree", "numpy", "numba", "msgpack", "zstandard"):
        try:
            found[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            found[package] = None
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--heavy", action="store_true", help="also run the big games and the long exact searches "
                        "(mastermind 8x5, 9x5, 7x4 optimal, digits 5, exact Wordle, bulls-cows optimal: --timeout 900)")
    parser.add_argument("--proofs", action="store_true", help="also run the proofs over every Wordle first guess "
                        "(the full proofs, hard mode's within 6, and openers --top 10: half a minute to a minute and a "
                        "half each here)")
    parser.add_argument("--only", metavar="SUBSTRING", help="run only the rows whose job contains this")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per row before it is killed (default 600)")
    parser.add_argument("--repeat", type=int, default=1, help="runs per compile row; the median is reported")
    parser.add_argument("--import-runs", type=int, default=15, help="fresh interpreters timed for the import row")
    parser.add_argument("--cpp", metavar="DIR", type=Path,
                        help="a folder of the C++ solvers (wordle, mastermind-8x5-STRATEGY, built as "
                             "scripts/BENCHMARKS.md says): each row that has one times it in turn with ours")
    args = parser.parse_args(argv)
    if not Path(GUESSTREE).exists():
        parser.error(f"{GUESSTREE} not found: run this with the virtualenv's python")
    if args.cpp is not None and not args.cpp.is_dir():
        parser.error(f"--cpp {args.cpp}: not a folder")
    cpp = None if args.cpp is None else args.cpp.resolve()

    rows = []
    load_before = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    with tempfile.TemporaryDirectory(prefix="guesstree-bench-") as temporary:
        scratch = Path(temporary)
        selected = [(job, output) for job, output in jobs(scratch)
                    if (args.heavy or not job.heavy) and (args.proofs or not job.proof)
                    and (args.only is None or args.only in job.job)]
        if any(job.measure in ("compile", "script") for job, _ in selected):
            warm_up(scratch, args.timeout)
        for job, output in selected:
            if job.measure == "compile":
                result = measure_compile(job, output, args.timeout, max(1, args.repeat), cpp)
            elif job.measure == "fresh":
                result = measure_fresh_install(job, output, scratch, args.timeout)
            elif job.measure == "bound":
                result = measure_bound(job, args.timeout, max(1, args.repeat))
            elif job.measure == "openers":
                result = measure_openers(job, args.timeout)
            elif job.measure == "script":
                result = measure_script(job, args.timeout)
            elif job.measure == "load":
                result = measure_script(job, args.timeout, 1e3, "ms")
            elif job.measure == "next_guess":
                result = measure_script(job, args.timeout, 1e6, "us/call")
            elif job.measure == "import":
                result = measure_import(job, args.timeout, args.import_runs)
            else:
                result = row(job, **artifact_stats(ENTROPY_TREE))
                result.update(value=result["bytes_per_secret"], unit="bytes/secret")
            rows.append(result)
            print(f"{result['job']}: {result['status']}, {result['seconds']} s, {result['peak_rss_mib']} MiB",
                  file=sys.stderr)
    report = {
        "benchmark": "guesstree",
        "python": platform.python_version(),
        "machine": f"{platform.system()} {platform.machine()}",
        "cpus": os.cpu_count(),
        "versions": versions(),
        "timeout": args.timeout,
        "load_average_1min": [load_before, os.getloadavg()[0] if load_before is not None else None],  # [start, end]: other work skews times
        "rows": rows,
    }
    print(json.dumps(report, indent=2))
    return 0 if all(r["status"] == "ok" for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())

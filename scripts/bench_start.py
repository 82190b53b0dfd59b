"""A command's start: the first compile on a new machine (numba's cache empty, no ``warm``) and a
small compile once warm, each a whole process; prints JSON.

    python scripts/bench_start.py [--repeat 5] [--rows small,"cold small"] [--against OTHER/.venv/bin/guesstree]

Rows: ``small``: ``compile mastermind --strategy entropy`` with the cache as it is (run ``guesstree
warm`` first), and whether that process loaded numba; ``cold small``: the same in a fresh, empty
``NUMBA_CACHE_DIR``; ``cold compiled``: a game on the compiled engine (bulls-cows, entropy) from an
empty cache, what its kernels cost to compile at first use. Each row: the median seconds, and with
``--against`` the other install's seconds run in turn with ours (A B A B ...) and the median of
the pairs' ratios (ours / theirs), as scripts/BENCHMARKS.md says to compare.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

from bench import run

GUESSTREE = str(Path(sys.executable).parent / "guesstree")
NUMBA_LOADED = ("import runpy, sys\nsys.argv = ['guesstree', *sys.argv[1:]]\ntry:\n"
                "    runpy.run_module('guesstree', run_name='__main__')\nexcept SystemExit:\n    pass\n"
                "print('numba loaded' if 'numba' in sys.modules else 'numba not loaded', file=sys.stderr)\n")
ROWS = {  # name: (arguments after the program, an empty numba cache for each run)
    "small": (["compile", "mastermind", "--strategy", "entropy"], False),
    "cold small": (["compile", "mastermind", "--strategy", "entropy"], True),
    "cold compiled": (["compile", "bulls-cows", "--strategy", "entropy"], True),
}


def once(program: str, arguments: list[str], cold: bool, folder: str) -> float:
    command = [program, *arguments, "-q", "-o", str(Path(folder) / "tree.msgpack.zst")]
    done = run(command, timeout=900, env={"NUMBA_CACHE_DIR": None} if cold else None)
    if done.status != "ok":
        raise SystemExit(f"{' '.join(command)}: {done.status}\n{done.stderr}")
    return done.seconds


def numba_loaded(program: str, arguments: list[str], folder: str) -> bool:
    python = str(Path(program).parent / "python")
    done = run([python, "-c", NUMBA_LOADED, *arguments, "-q", "-o", str(Path(folder) / "tree.msgpack.zst")], 300)
    return "numba loaded" in done.stderr


def measure(name: str, repeat: int, against: str | None) -> dict:
    arguments, cold = ROWS[name]
    ours, theirs = [], []
    with tempfile.TemporaryDirectory() as folder:
        for program in (GUESSTREE, against) if against else (GUESSTREE,):  # each module's bytecode written first
            once(program, arguments, False, folder)
        for _ in range(repeat):
            ours.append(once(GUESSTREE, arguments, cold, folder))
            if against:
                theirs.append(once(against, arguments, cold, folder))
        found = {"row": name, "command": "guesstree " + " ".join(arguments), "empty_cache": cold,
                 "seconds": round(statistics.median(ours), 3), "runs": len(ours)}
        if not cold:
            found["numba_loaded"] = numba_loaded(GUESSTREE, arguments, folder)
    if against:
        found["against_seconds"] = round(statistics.median(theirs), 3)
        found["ratio"] = round(statistics.median(a / b for a, b in zip(ours, theirs)), 3)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--rows", default=",".join(ROWS), help="the rows, comma-separated: " + ", ".join(ROWS))
    parser.add_argument("--against", help="another install's guesstree program, run in turn with this one")
    args = parser.parse_args()
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)  # as an installed package, whose modules are compiled
    rows = [measure(name, args.repeat, args.against) for name in args.rows.split(",")]
    print(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()

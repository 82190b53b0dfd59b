"""``compile --estimate`` beside the build it estimates, on this machine: prints JSON.

    python scripts/bench_estimate.py [--runs 1]

Each row: the estimate (its seconds, and the ratio of this machine's time at the kernels to the model's
machine's, ``compiler/builder/speed.py``), then the build's whole process, timed (the median of
``--runs``). The estimate should be within a factor of 2 of the build on any machine.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BUILDS = [
    ["mastermind", "--colours", "7", "--holes", "6", "--strategy", "entropy"],
    ["mastermind", "--colours", "8", "--holes", "5", "--strategy", "most-parts"],
    ["mastermind", "--colours", "8", "--holes", "5", "--strategy", "minimax"],
    ["bulls-cows", "--digits", "9", "--length", "5", "--strategy", "minimax"],
]


def guesstree(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "guesstree", *args], capture_output=True, text=True, check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for build in BUILDS:
            said = json.loads(guesstree("compile", *build, "--estimate", "--json").stdout)
            walls = []
            for _ in range(args.runs):
                started = time.perf_counter()
                guesstree("compile", *build, "--quiet", "-o", str(Path(folder) / "tree.msgpack.zst"))
                walls.append(time.perf_counter() - started)
            wall = statistics.median(walls)
            rows.append({"build": " ".join(build), "estimate_seconds": said["seconds"], "speed": said["speed"],
                         "load": said["load"], "measured_seconds": round(wall, 2),
                         "estimate_over_measured": round(said["seconds"] / wall, 2)})
    print(json.dumps({"rows": rows}, indent=1))


if __name__ == "__main__":
    main()

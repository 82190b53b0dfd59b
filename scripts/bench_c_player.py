"""The C player (player/c): its code size, its next_guess time and the opening time and memory of a big
chunked tree; prints JSON.

    python scripts/bench_c_player.py [BIG] [--histories 5000] [--slots 4]

BIG is a chunked artifact, e.g. the 1 679 616 secrets of ``guesstree compile mastermind --colours 6
--holes 8 --strategy first -o big.msgpack.zst`` (about a minute); without it only the shipped trees are
timed. Each tree is opened by ``bench-lookup`` (player/c/tests/bench_lookup.c) in a fresh process,
which answers ``next_guess`` for histories along the paths of random secrets (made here by the
Python player): once cold (a chunked tree's chunks inflated as the paths first reach them), then 20
times warm (the best of them: the least disturbed by other work); the big tree with --slots chunks kept decoded, then with 128 (all of a 6x8 tree's 103).
Code size: the ``.text`` of the static library's objects, and the stripped shared library.
"""
from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
C = REPO / "player" / "c"
BUILD = C / "build"
WHOLE = ["mastermind-c6-h4-optimal-expected", "bulls-cows-d10-l4-optimal-expected", "wordle-salet-optimal-expected"]

sys.path.insert(0, str(REPO.parent))
from guesstree import player  # noqa: E402


def code_size() -> dict:
    """Bytes of .text in the static library's objects, and of the stripped shared library."""
    sections = subprocess.run(["size", "-A", str(BUILD / "libguesstree.a")], capture_output=True, text=True, check=True).stdout
    text = sum(int(line.split()[1]) for line in sections.splitlines() if line.startswith(".text"))
    with tempfile.TemporaryDirectory() as folder:
        stripped = Path(folder) / "libguesstree.so"
        shutil.copy(BUILD / "libguesstree.so", stripped)
        subprocess.run(["strip", str(stripped)], check=True)
        shared = stripped.stat().st_size
    return {"static_lib_text_bytes": text, "shared_lib_stripped_bytes": shared}


def random_secret(tree: player.Tree, rng: random.Random):
    game = tree.game
    if game.name == "mastermind" and game.secret_repeats:  # 6^8 secrets: drawn, not listed
        return tuple(rng.randrange(game.colours) for _ in range(game.holes))
    return rng.choice(game.secrets)


def histories(tree: player.Tree, count: int, rng: random.Random) -> str:
    """A line per history, a prefix of a random secret's path: its steps, guesses' and feedbacks' ints."""
    lines = []
    while len(lines) < count:
        played = tree.path(random_secret(tree, rng))
        for history in (played[:k] for k in range(len(played))):
            lines.append(" ".join(map(str, [len(history), *(s for g, _ in history for s in g), *(x for _, f in history for x in f)])))
    return "\n".join(lines[:count]) + "\n"


def bench(path: Path, count: int, slots: int) -> dict:
    tree = player.load(path)
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as file:
        file.write(histories(tree, count, random.Random(56)))
        file.flush()
        done = subprocess.run([str(BUILD / "bench-lookup"), str(path), file.name, str(slots)], capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"bench-lookup failed on {path}: {done.stderr}")
    return {"tree": path.name, "slots": slots, **json.loads(done.stdout), "file_bytes": path.stat().st_size}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("big", nargs="?", type=Path, help="a big chunked artifact (see above)")
    parser.add_argument("--histories", type=int, default=5000, help="histories per tree")
    parser.add_argument("--slots", type=int, default=4, help="chunks a chunked tree keeps decoded")
    args = parser.parse_args()
    subprocess.run(["make", "-s", "-C", str(C), "all", "build/bench-lookup"], check=True)
    report = {"code_size": code_size(),
              "trees": [bench(REPO / "trees" / f"{name}.msgpack.zst", args.histories, args.slots) for name in WHOLE]}
    if args.big:  # few slots: memory bounded by a few chunks; many: every chunk kept once read, as Python's cache
        report["big_chunked"] = [bench(args.big, args.histories, slots) for slots in (args.slots, 128)]
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())

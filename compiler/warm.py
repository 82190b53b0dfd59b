"""numba's cache of the compiler's kernels: kept fresh before a command runs them, and filled
ahead by ``guesstree warm`` (or ``python -m guesstree.compiler.warm``), which runs every compiled
kernel once on small games, for CI jobs and images that should never stop to compile.

A command compiles only what it runs: numba compiles a kernel (``cache=True``) at its first call
with new argument types and caches it on disk, so the first command on a new machine pays a few
seconds for the kernels it calls, and a game small enough for the numpy engine none at all.

Numba keys a cached kernel by its own source file alone, not by the kernels it calls from other
files: after an upgrade or an edit that changed ``partitions.py`` but not ``recursion.py``,
recursion's cached kernels would still run the old partitions code (slower, or wrong). So a stamp
beside the cache holds a digest of every source that defines kernels, and before a command runs
any (``ensure_fresh``), where the stamp does not match, every cached kernel of this package is
removed (``clear_stale``) and the cache stamped with these sources. The check reads the sources
only: numba is not loaded unless there is a cache to clear. Numba itself keys each cached kernel by
its interpreter, numba version and processor.

The install cannot compile ahead: a player install must build with no numpy or numba at any
stage, and a package's build is the same whatever extras are asked for.
"""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from guesstree.player.atomic import write_atomic

from .engine.cache import ROOT, kernel_sources, kernels_digest
from .engine.cache import machine as _machine
from .engine.cache import stamp_path as _stamp_path


LETTERS = "etaoinshrdlucmfwypvbgk"


def _word_lists(folder: Path) -> tuple[str, str]:
    """Two files of made-up five-letter words: 40 answers, and those with 40 more guesses."""
    words, x = [], 12345
    while len(words) < 80:
        word = ""
        for _ in range(5):
            x = (x * 1103515245 + 12345) % (1 << 31)
            word += LETTERS[(x >> 16) % len(LETTERS)]
        if word not in words:
            words.append(word)
    answers, guesses = folder / "answers.txt", folder / "guesses.txt"
    answers.write_text("\n".join(words[:40]) + "\n")
    guesses.write_text("\n".join(words) + "\n")
    return str(answers), str(guesses)


PARTS = ("searches", "heuristics")  # two halves of the kernels that share few: each compiles its own


def warm_up(part: str | None = None) -> int:
    """Build small trees with every compiled path; returns how many. ``part`` (one of ``PARTS``):
    the exhaustive searches (in one thread and on several, hard mode, a fixed opener, a depth
    limit, the worst case as ``bound`` finds it) or the heuristics (each on the compiled engine, and
    scoring from packed codes); None: both."""
    from guesstree.player.games import make_game

    from . import Options, build
    from .workers.settings import SearchSettings

    jobs = 0
    with tempfile.TemporaryDirectory() as folder:
        answers, guesses = _word_lists(Path(folder))
        words = make_game("words", answers=answers, guesses=guesses)
        hard = make_game("words", answers=answers, guesses=guesses, hard=True)
        small = make_game("mastermind", colours=4, holes=3)
        weighted = make_game("words", answers=answers, guesses=guesses, others_weight=0.5)  # the weighted search
        opener = words.format_code(words.secrets[0])
        searches = [(small, {}), (small, {"max_depth": 4}), (words, {}), (words, {"first": opener}),
                    (hard, {"max_depth": 6}), (make_game("bulls-cows", digits=5, length=3), {}),
                    (weighted, {}), (weighted, {"first": opener})]
        if part in (None, "heuristics"):
            heuristic_games = [make_game("mastermind"), small, make_game("bulls-cows", digits=6, length=3),
                               make_game("digits", length=3), make_game("twod", size=7), words, hard]
            for game in heuristic_games:
                for strategy in ("entropy", "most-parts"):
                    build(game, Options(strategy=strategy, engine="numba"))
                    jobs += 1
            build(make_game("digits", length=4), Options(strategy="entropy"))  # big enough for threads at the root
            jobs += 1
            weighted = make_game("words", answers=answers, guesses=guesses, others_weight=0.5)
            build(weighted, Options(strategy="entropy", engine="numba"))  # the partitions by weight
            jobs += 1
            _score_by_weight()
            _score_from_packed_codes(make_game("mastermind"))
        for game, settings in searches if part in (None, "searches") else []:
            for strategy in ("optimal-expected", "optimal-worst"):
                if strategy == "optimal-worst" and settings:
                    continue
                options = Options(strategy=strategy, **settings)
                for workers in (1, 2):
                    build(game, options, search=SearchSettings(workers=workers))
                    jobs += 1
        return jobs


def _score_by_weight() -> None:
    """A weighted game's partitions on several threads (``kernels.weighted_partition_stats``: a
    small build scores on one), of one and of two bytes a feedback (words of 6 letters or more)."""
    import numpy as np

    from .engine import kernels
    from .engine.statistic import CLOG_SUM

    every = np.arange(1024)
    for dtype in (np.uint8, np.uint16):
        matrix = (np.arange(1024 * 1024) % 200).astype(dtype).reshape(1024, 1024)
        kernels.weighted_partition_stats(matrix, every, every, np.ones(1024, np.int64), 200, CLOG_SUM)


def _score_from_packed_codes(game) -> None:
    """What a big peg game's heuristic build runs with no matrix (``engine.kinds.PackedPegs``): one
    guess's answers, perfect splits, and partitions on one thread and on several (entropy's pick's
    too, by multisets of colours, by parts, and by levels of common colours)."""
    import numpy as np

    from .engine.scorer import Scorer
    from .engine.statistic import CLOG_SUM

    every = np.arange(len(game.secrets))
    for threads in (False, True):  # (every guess against every secret is enough cells for threads)
        scorer = Scorer(game, 1 << 30, "numba", whole=False, threads=threads)
        scorer.answers(0, every)
        scorer.first_perfect(every, every[:5])
        scorer.partition_stats(every, every, CLOG_SUM)
        for candidates in (every[:40], every[:300]):  # entropy's pick: by parts, and by levels
            scorer.partition_stats(every, candidates, CLOG_SUM, pick_only=True)


def _stamp() -> dict:
    try:
        stamp = json.loads(_stamp_path().read_text())
    except (OSError, ValueError):
        return {}
    return stamp if isinstance(stamp, dict) else {}


def _leave_stamp(stamp: dict, say=None) -> None:
    path = _stamp_path()
    try:
        write_atomic(path, json.dumps(stamp).encode())
    except OSError as error:  # the kernels are cached all the same; only the next check repeats
        if say:
            say(f"guesstree: cannot leave the stamp {path} ({error}); the next command checks again")


def fresh() -> bool:
    """Was numba's cache of this package's kernels compiled from these kernel sources (or is it
    empty, and stamped so)? Reads the sources' digest, never numba (a small build does not load it)."""
    return _stamp().get("kernels") == kernels_digest()


def warmed() -> bool:
    """Has ``warm`` compiled every kernel ahead, from these sources, for this interpreter, numba and processor?"""
    stamp = _stamp()
    return stamp.get("kernels") == kernels_digest() and stamp.get("warmed") == _machine()


def clear_stale(say=None) -> int:
    """Unless the stamp says the cache was compiled from these kernel sources, remove every cached
    kernel of this package (numba's index and data files), before any of them runs in this process,
    and stamp the cache with these sources; how many files. Where numba keeps each module's is what
    its kernels report (``stats.cache_path``): numba is loaded for that, on a new machine or after
    an edit or upgrade only."""
    if fresh():
        return 0
    from numba.core.dispatcher import Dispatcher

    removed = 0
    for path in kernel_sources():
        name = ".".join((__package__, *path.relative_to(ROOT).with_suffix("").parts))
        kernels = [v for v in vars(importlib.import_module(name)).values() if isinstance(v, Dispatcher)]
        for folder in {Path(k.stats.cache_path) for k in kernels if k.stats.cache_path}:
            for cached in folder.glob(f"{path.stem}.*.nb[ic]"):
                cached.unlink(missing_ok=True)
                removed += 1
    _leave_stamp({"kernels": kernels_digest()}, say)
    return removed


def warm(say=None) -> float:
    """Compile every kernel ahead and leave the stamp; the seconds it took. ``say`` gets progress
    text. With two cores or more, the searches' half compiles in a second process meanwhile."""
    started = time.perf_counter()
    clear_stale(say)
    if say:
        say("guesstree: compiling the compiler's kernels for this machine, once (about a minute on 2 cores; "
            "they are cached for every later run)")
    from .builder.estimate import available_cpus

    if available_cpus() < 2:
        jobs = warm_up()
    else:
        jobs = _warm_halves(started, say)
    seconds = time.perf_counter() - started
    _leave_stamp({"kernels": kernels_digest(), "warmed": _machine()}, say)
    if say:
        say(f"guesstree: compiled ahead ({jobs} small builds, {seconds:.1f} s): the compiler's kernels for this machine")
    return seconds


def _warm_halves(started: float, say=None) -> int:
    """The heuristics' half here while a second process compiles the searches'; how many builds.
    The second process's output goes to files, which no pipe left unread can stop."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        other = subprocess.Popen([sys.executable, "-m", "guesstree.compiler.warm", "--part", "searches"],
                                 stdout=out, stderr=err, text=True)
        try:
            jobs = warm_up("heuristics")
            if say and other.poll() is None:
                say(f"guesstree: the heuristics' kernels compiled ({time.perf_counter() - started:.0f} s), "
                    "the searches' still compiling")
            other.wait()
        finally:
            if other.poll() is None:
                other.kill()
                other.wait()
        out.seek(0)
        err.seek(0)
        counted = out.read().split()
        if other.returncode != 0 or not counted or not counted[-1].isdigit():
            raise RuntimeError(f"compiling the searches' kernels failed (exit {other.returncode}): "
                               f"{err.read().strip()[-2000:]}")
    return jobs + int(counted[-1])


# What a first build compiles, by what it runs (an exhaustive search; a heuristic scoring from packed
# peg codes, or from a matrix): the module whose kernels tell whether they are cached, and about how
# long they take to compile (measured on 2 cores of a Xeon, 2026-12-07: the search's 50 s for
# Wordle, a heuristic's 10 to 20 s; a slower machine takes longer).
FIRST_COMPILES = {"search": ("search.recursion", "the exhaustive search's kernels", "about a minute"),
                  "packed": ("engine.packed", "the heuristics' kernels for packed codes", "10 to 20 s"),
                  "matrix": ("engine.kernels", "the heuristics' kernels", "10 to 20 s")}


def announce(runs: str, quiet: bool = False) -> None:
    """Before a command runs compiled kernels (``runs``: a key of ``FIRST_COMPILES``): where this
    machine has not compiled them yet, say on stderr what is compiled and about how long it takes,
    so that no first run waits in silence (nothing with ``quiet``)."""
    if quiet:
        return
    module, what, takes = FIRST_COMPILES[runs]
    from .engine.cache import cold

    if cold(module):
        print(f"guesstree: compiling {what} for this machine, once ({takes} on 2 cores; cached for every later "
              f"run, and `guesstree warm` compiles them all ahead)", file=sys.stderr, flush=True)


def ensure_fresh() -> None:
    """Before a command that may run kernels: clear a cache compiled from other kernel sources
    (``clear_stale``). Nothing is compiled here: numba compiles each kernel at its first call and
    caches it, so a command compiles only what it runs (``guesstree warm`` compiles them all ahead)."""
    if os.environ.get("GUESSTREE_WARM") == "0" or fresh():
        return
    removed = clear_stale(say=lambda text: print(text, file=sys.stderr))
    if removed:
        print(f"guesstree: the kernels' sources changed: removed {removed} cached files, compiled again as "
              "they are used (`guesstree warm` compiles them all ahead)", file=sys.stderr, flush=True)


def main() -> None:
    if importlib.util.find_spec("numba") is None:
        print("guesstree: numba is not installed here, nothing to compile ahead", file=sys.stderr)
        return
    if len(sys.argv) == 3 and sys.argv[1] == "--part" and sys.argv[2] in PARTS:  # warm's second process
        print(warm_up(sys.argv[2]))
        return
    warm(say=lambda text: print(text, file=sys.stderr, flush=True))


if __name__ == "__main__":
    main()

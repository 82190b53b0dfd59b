"""Compile ahead: run every compiled kernel once, on small games, so that numba's cache on disk
holds what a first real job needs. ``guesstree warm`` (or ``python -m guesstree.compiler.warm``) runs it;
otherwise the first ``compile``, ``bound`` or ``compare`` on a machine runs it, saying so in one
line, so that no later command stops for seconds to compile a kernel.

Numba keys a cached kernel by its own source file alone, not by the kernels it calls from other
files: after an upgrade or an edit that changed ``partitions.py`` but not ``recursion.py``,
recursion's cached kernels would still run the old partitions code (slower, or wrong). So the stamp
also holds a digest of every source that defines kernels, and where it does not match, every
cached kernel of this package is removed before the warm-up compiles them again (``clear_stale``).

The install cannot do it: a player install must build with no numpy or numba at any stage, and
a package's build is the same whatever extras are asked for. A stamp beside numba's cache says
this install was warmed for this interpreter, numba and processor; numba itself keys each cached
kernel by its source file's content as well, so an edited kernel compiles again at first use.
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import platform
import re
import sys
import tempfile
import time
from pathlib import Path

from guesstree import player

STAMP = "guesstree-warm.json"
ROOT = Path(__file__).resolve().parent
KERNEL = re.compile(r"^@njit", re.M)  # a module that defines compiled kernels, which numba caches

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


def warm_up() -> int:
    """Build small trees with every compiled path (heuristics on the compiled engine, exhaustive
    searches in one thread and on several, hard mode, a fixed opener, depth limits, the worst
    case as ``bound`` finds it); returns how many."""
    from guesstree.player.games import make_game

    from . import Options, build
    from .workers.settings import SearchSettings

    jobs = 0
    with tempfile.TemporaryDirectory() as folder:
        answers, guesses = _word_lists(Path(folder))
        words = make_game("words", answers=answers, guesses=guesses)
        hard = make_game("words", answers=answers, guesses=guesses, hard=True)
        heuristic_games = [make_game("mastermind"), make_game("mastermind", colours=4, holes=3),
                           make_game("bulls-cows", digits=6, length=3), make_game("digits", length=3),
                           make_game("twod", size=7), words, hard]
        for game in heuristic_games:
            for strategy in ("entropy", "most-parts"):
                build(game, Options(strategy=strategy, engine="numba"))
                jobs += 1
        build(make_game("digits", length=4), Options(strategy="entropy"))  # big enough for threads at the root
        jobs += 1
        _score_from_packed_codes(make_game("mastermind"))
        small = make_game("mastermind", colours=4, holes=3)
        opener = words.format_code(words.secrets[0])
        searches = [(small, {}), (small, {"max_depth": 4}), (words, {}), (words, {"first": opener}),
                    (hard, {"max_depth": 6}), (make_game("bulls-cows", digits=5, length=3), {})]
        for game, settings in searches:
            for strategy in ("optimal-expected", "optimal-worst"):
                if strategy == "optimal-worst" and settings:
                    continue
                options = Options(strategy=strategy, **settings)
                for workers in (1, 2):
                    build(game, options, search=SearchSettings(workers=workers))
                    jobs += 1
        return jobs


def _score_from_packed_codes(game) -> None:
    """What a big peg game's heuristic build runs with no matrix (``engine.kinds.PackedPegs``): one
    guess's answers, perfect splits, and partitions on one thread and on several."""
    import numpy as np

    from .engine.scorer import Scorer
    from .engine.statistic import CLOG_SUM

    every = np.arange(len(game.secrets))
    for threads in (False, True):  # (every guess against every secret is enough cells for threads)
        scorer = Scorer(game, 1 << 30, "numba", whole=False, threads=threads)
        scorer.answers(0, every)
        scorer.first_perfect(every, every[:5])
        scorer.partition_stats(every, every, CLOG_SUM)


def _stamp_path() -> Path:
    """Where numba caches this package's kernels: ``NUMBA_CACHE_DIR``, else ``__pycache__`` beside
    the sources when it can be written, else the user's cache folder (as numba decides)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"]) / STAMP
    beside = Path(__file__).resolve().parent / "__pycache__"
    if os.access(beside if beside.exists() else beside.parent, os.W_OK):
        return beside / STAMP
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "guesstree" / STAMP


def kernel_sources(root: Path = ROOT) -> list[Path]:
    """The package's modules that define compiled kernels, in order."""
    return sorted(path for path in root.rglob("*.py") if KERNEL.search(path.read_text(encoding="utf-8")))


def kernels_digest(root: Path = ROOT) -> str:
    """The sha256 of every kernel source, with its path in the package."""
    digest = hashlib.sha256()
    for path in kernel_sources(root):
        source = path.read_bytes()
        digest.update(f"{path.relative_to(root).as_posix()}\0{len(source)}\0".encode() + source)
    return digest.hexdigest()


def _machine() -> dict:
    import llvmlite.binding
    import numba

    return {"guesstree": player.__version__, "python": platform.python_version(), "numba": numba.__version__,
            "cpu": llvmlite.binding.get_host_cpu_name(), "machine": platform.machine(), "kernels": kernels_digest()}


def warmed() -> bool:
    """Has ``warm`` run for this install, interpreter, numba and processor, and these kernel sources?"""
    try:
        return json.loads(_stamp_path().read_text()) == _machine()
    except (OSError, ValueError):
        return False


def clear_stale() -> int:
    """Unless the stamp says the cache was compiled from these kernel sources, remove every cached
    kernel of this package (numba's index and data files), before any of them runs in this process;
    how many files. Where numba keeps each module's is what its kernels report (``stats.cache_path``)."""
    if warmed():
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
    return removed


def warm(say=None) -> float:
    """Compile every kernel ahead and leave the stamp; the seconds it took. ``say`` gets progress text."""
    started = time.perf_counter()
    clear_stale()
    jobs = warm_up()
    seconds = time.perf_counter() - started
    stamp = _stamp_path()
    try:
        stamp.parent.mkdir(parents=True, exist_ok=True)
        partial = stamp.with_name(f"{stamp.name}.{os.getpid()}.tmp")
        partial.write_text(json.dumps(_machine()))
        os.replace(partial, stamp)
    except OSError as error:  # the kernels are cached all the same; only the next check repeats
        if say:
            say(f"guesstree: cannot leave the stamp {stamp} ({error}); the next command checks again")
    if say:
        say(f"guesstree: compiled ahead ({jobs} small builds, {seconds:.1f} s): the compiler's kernels for this machine")
    return seconds


def ensure_warm() -> None:
    """Before a command that runs kernels: on the first one on this machine, compile them all,
    saying so in one line on stderr (how long, and that ``guesstree warm`` does it ahead)."""
    if os.environ.get("GUESSTREE_WARM") == "0" or warmed():
        return
    print("guesstree: first run here: compiling the kernels for this machine, once "
          "(`guesstree warm` does it ahead)...", end="", file=sys.stderr, flush=True)
    seconds = warm()
    print(f" done in {seconds:.1f} s", file=sys.stderr, flush=True)


def main() -> None:
    if importlib.util.find_spec("numba") is None:
        print("guesstree: numba is not installed here, nothing to compile ahead", file=sys.stderr)
        return
    warm(say=lambda text: print(text, file=sys.stderr))


if __name__ == "__main__":
    main()

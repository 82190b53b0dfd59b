"""Compile ahead: run every compiled kernel once, on small games, so that numba's cache on disk
holds what a first real job needs. ``pip install`` runs this (``setup.py``), so the first
``compile`` after an install loads its kernels instead of compiling them for seconds;
``python -m compiler.warm`` runs it by hand.

numba keys a cached kernel by its source file's content, numba's version and the processor, so
a cache made on another machine or for another numba is simply not used: the kernel is
compiled at first use, as without this step.
"""
from __future__ import annotations

import importlib.util
import sys
import tempfile
import time
from pathlib import Path

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
    from player.games import make_game

    from . import Options, build
    from .bound import prepared_context

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
                    context = prepared_context(game, options, workers=workers)
                    try:
                        build(game, options, context=context)
                    finally:
                        context.close()
                    jobs += 1
        return jobs


def _score_from_packed_codes(game) -> None:
    """What a big peg game's heuristic build runs with no matrix (``feedback.PackedPegs``): one
    guess's answers, perfect splits, and partitions on one thread and on several."""
    import numpy as np

    from .feedback import Scorer
    from .strategies import clog_table

    scorer = Scorer(game, 1 << 30, "numba", whole=False)
    every, n_feedbacks = np.arange(len(game.secrets)), len(game.feedbacks())
    scorer.answers(0, every)
    scorer.first_perfect(every, every[:5], n_feedbacks)
    for threads in (False, True):  # (every guess against every secret is enough cells for threads)
        scorer.partition_stats(every, every, n_feedbacks, 0, clog_table(len(every)), threads)


def main() -> None:
    started = time.perf_counter()
    if importlib.util.find_spec("numba") is None:
        print("guesstree: numba is not installed here, nothing to compile ahead", file=sys.stderr)
        return
    jobs = warm_up()
    print(f"guesstree: compiled ahead ({jobs} small builds, {time.perf_counter() - started:.1f} s)", file=sys.stderr)


if __name__ == "__main__":
    main()

"""How long a heuristic build takes and how much memory it needs, told before it starts.

The model. A strategy that scores guesses scores about ``pool x secrets`` (guess, secret) cells
on each level below the first two (the two cost little: the root's guesses are few by symmetry,
and the first guess splits the secrets among its parts), where ``pool`` is the guesses scored at
a node (every guess; a node's candidates with ``--candidates consistent``; a sample's for
``sampled-entropy``; none for ``first`` and ``random``). The tree's depth grows as the log of the
secrets in the base of the answers a guess can get: ``DEPTH_PER_LOG * ln(secrets) / ln(answers)``
levels in all. A cell costs ``CELL_SECONDS`` by how the game is scored (packed peg codes as a bit
per colour and hole, or as nibbles; a matrix; codes that do not pack, in blocks) and by whether
the statistic counts per answer (entropy, minimax, expected-size) or only marks answers
(most-parts); the builder adds ``NODE_SECONDS`` per node, the process ``START_SECONDS``. The
cores are the build's worker processes, or every core for the kernels' threads in one process.
Memory: ``BASE_BYTES`` per process plus ``SECRET_BYTES`` per secret in each (a split build's
workers list the codes too), and the whole matrix where one is kept (at most 0.8 of
``--max-memory``).

Fitted to builds measured on a 2-core machine (whole processes, ``/usr/bin/time``; 2026-12-04):

    build                       estimate              measured
    7x7 most-parts              24 min                30 min 17 s (3539 CPU-s)
    6x7 most-parts              2.5 min (295 CPU-s)   250 s (284 CPU-s)
    7x6 most-parts              28 s (56 CPU-s)       37.8 s (50 CPU-s)
    7x6 minimax / entropy       53 s (107 CPU-s)      103 s (102 CPU-s) / 115 s (104 CPU-s)
    9x5 most-parts              9 s                   14.3 s
    4x8 most-parts, packed      8 s                   13.0 s

The CPU seconds agree within 25%; the wall time is longer where the biggest part of the first
guess keeps its job's core alone to the end. A build is refused when the figures say it cannot
finish: longer than ``--max-time``, or more memory than this machine has (``--force`` builds it
anyway).
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass

from guesstree.player.games import Game
from guesstree.player.wording import duration, size

DEPTH_PER_LOG = 1.6  # average guesses to win ~ 1.6 log(secrets) / log(answers) (measured, 6x4 to 7x7)
# CPU seconds per (guess, secret) scored, by how a peg game is scored (``Layout.peg_words``; None:
# from a matrix, or another game): for most-parts (a bit per answer), and for the heuristics that
# count per answer (entropy, minimax, expected-size). Codes that do not pack are made into answers
# in blocks, then counted (4x8 cost 9.2 ns a cell so, before it packed).
CELL_SECONDS = {"unary": (0.2e-9, 0.6e-9), "nibbles": (1.0e-9, 2.0e-9), None: (1.0e-9, 2.0e-9),
                "blocks": (8.0e-9, 16.0e-9)}
NODE_SECONDS = 25e-6  # the builder's own work per node (Python)
START_SECONDS = 1.0  # the interpreter and the compiled kernels' cache
BASE_BYTES = 160 << 20  # a process: the interpreter with numpy and numba loaded
SECRET_BYTES = 600  # per secret in each process: its code listed and packed, its node and depths


@dataclass(frozen=True)
class Estimate:
    """What a build will take: ``seconds`` of wall time on ``cores``, ``memory`` in bytes (all its
    processes together)."""

    seconds: float
    memory: int
    cores: int

    def text(self) -> str:
        return f"about {duration(self.seconds)} on {self.cores} core{'s' * (self.cores != 1)} and {size(self.memory)} of memory"

    def check(self, what: str, max_time: float | None, force: bool, physical: int | None = None) -> None:
        """A ValueError with the figures, unless ``what`` (the build, named) can finish: within
        ``max_time`` seconds (None: no limit) and in this machine's memory (``physical`` bytes, by
        default what the system says). ``force``: never refuse."""
        physical = physical_memory() if physical is None else physical
        if force:
            return
        if max_time is not None and self.seconds > max_time:
            raise ValueError(f"{what} would take {self.text()} (an estimate), over --max-time {duration(max_time)}; "
                             f"give a larger --max-time, or --force, to build it anyway")
        if physical and self.memory > physical:
            raise ValueError(f"{what} would take {self.text()} (an estimate), more memory than this machine's "
                             f"{size(physical)}; --force builds it anyway")


def estimate(game: Game, options, layout) -> Estimate | None:
    """The estimate of building ``options.strategy``'s tree of ``game`` as ``layout`` (a
    ``plan.Layout``) lays it out; None for an exhaustive strategy (its search is not modelled)."""
    reads = options.strategy.reads
    if reads == "solution":
        return None
    n, guesses = game.secret_count(), game.guess_count()
    answers = max(2, min(len(game.feedbacks()), n))
    below = max(DEPTH_PER_LOG * math.log(max(n, 2)) / math.log(answers) - 2, 1.0)  # levels that score
    if reads == "answers":
        pool = 0
    elif options.candidates == "consistent":
        pool = n / answers  # the candidates of a node below the first guess, on average
    else:
        pool = guesses
    if reads == "sample":
        pool = min(pool, options.guess_sample) * min(1.0, options.secret_sample / max(n / answers, 1))
    cell = CELL_SECONDS[layout.peg_words(game)][options.name != "most-parts"]
    cpu = pool * n * below * cell + 1.1 * n * NODE_SECONDS
    workers = layout.workers  # processes; one uses the kernels' threads
    cores = workers if workers > 1 else (os.cpu_count() or 1) if pool else 1
    processes = 1 + workers if workers > 1 else 1  # this one, and its workers (each lists the codes)
    memory = (BASE_BYTES + SECRET_BYTES * n) * processes
    if layout.matrix != "none" and reads == "every":  # the whole matrix, if it fits the budget
        memory += min(guesses * n * (1 if len(game.feedbacks()) < 256 else 2), 0.8 * options.max_memory)
    return Estimate(START_SECONDS + cpu / cores, int(memory), cores)


def summary(game: Game, options, figures: Estimate | None) -> dict:
    """What ``compile --estimate`` says: the game's size, and the estimate's figures (``seconds``
    None for an exhaustive strategy, whose search is not modelled: its memory is, the matrix and
    the table at most), with ``text``, the line a person reads."""
    from ..search.table import ENTRY_BYTES, slots_for

    n, guesses = game.secret_count(), game.guess_count()
    said = {"game": game.title(), "strategy": options.name, "secrets": n, "guesses": guesses}
    if figures is not None:
        return {**said, "seconds": round(figures.seconds, 1), "memory": figures.memory, "cores": figures.cores,
                "text": f"{options.name} on {game.title()}: {figures.text()}"}
    width = 1 if len(game.feedbacks()) < 256 else 2
    memory = BASE_BYTES + SECRET_BYTES * n + width * guesses * n + ENTRY_BYTES * slots_for(options.max_memory)
    return {**said, "seconds": None, "memory": int(memory), "cores": os.cpu_count() or 1,
            "text": f"{options.name} on {game.title()}: an exhaustive search of {n} secrets and {guesses} guesses; its "
                    f"time is not modelled (seconds to days, by how soon bounds settle the first guesses); "
                    f"at most {size(memory)} of memory (the matrix and the search's table)"}


def physical_memory() -> int | None:
    """This machine's memory in bytes, where the system says (else None: no check)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return None

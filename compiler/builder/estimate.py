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
(most-parts), and, on the packed codes, by the statistic (``STATISTIC_FACTOR``: entropy counts
only the guesses whose multiset of colours may hold its pick, minimax gives up on a guess that
cannot beat the best, expected-size reduces every part of every guess); a matrix, where
one is kept, costs ``MATRIX_SECONDS`` a cell to make (words score slowly); the builder adds
``NODE_SECONDS`` per node, each process ``START_SECONDS`` of CPU. The cores are the build's worker
processes, or every core for the kernels' threads in one process, shared with the machine's load
(``share``: the last minute's load average of other runnable processes, what ``uptime`` says,
takes its part of the cores this process may use, as on a machine shared with other work). Memory: ``BASE_BYTES`` per process plus
``SECRET_BYTES`` per secret in each (a split build's workers list the codes too), and the whole
matrix where one is kept (at most 0.8 of ``--max-memory``); the text gives the sum and the largest
process (what ``/usr/bin/time`` reports as the maximum resident set).

Fitted to builds measured on a 2-core machine (whole processes: wall seconds, the CPU seconds of
the process and its workers, the largest process's resident memory): ``tests/test_estimate.py``
lists them and holds each within a factor of 2; the fit's table, estimate beside measure, is in
``scripts/BENCHMARKS-ARCHIVE.md`` (2026-12-06, issue 55: the counting loops vectorised). Another
machine is measured, not assumed: where the kernels' part of a build is ``PROBE_ABOVE`` CPU seconds
or more, their cost is scaled by this machine's time at a probe of the same kernels over the
fitting machine's (``speed.py``, measured once per machine and kept).

A build is refused when the figures say it cannot finish: longer than ``--max-time``, or more
memory than this machine has (``--force`` builds it anyway); ``compile --estimate`` prints them.
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass

from guesstree.player.games import Game
from guesstree.player.wording import duration, size

from .speed import ratio

DEPTH_PER_LOG = 1.6  # average guesses to win ~ 1.6 log(secrets) / log(answers) (measured, 6x4 to 7x7)
# CPU seconds per (guess, secret) scored, by how a peg game is scored (``Layout.peg_words``; None:
# from a matrix, or another game), for most-parts (a bit per answer) and for the heuristics that
# count per answer. Codes that do not pack are made into answers in blocks, then counted (4x8 cost
# 9.2 ns a cell so, before it packed).
CELL_SECONDS = {"unary": (0.2e-9, 0.6e-9), "nibbles": (1.0e-9, 2.0e-9), None: (1.0e-9, 2.0e-9),
                "blocks": (8.0e-9, 16.0e-9)}
# ... times this for a statistic, where no matrix is kept (measured on the packed codes, 2026-12-06,
# with the counting loops vectorised; entropy's 2026-12-07): minimax stops scanning a guess that
# cannot beat the best and entropy counts the guesses of the multisets of colours that may hold its
# pick only, and sums fewer (``least_sums.py``); expected-size and the other entropies reduce every part
STATISTIC_FACTOR = {"entropy": 0.2, "minimax": 1.4, "most-parts": 1.0}
COUNTING_FACTOR = 2.7  # worst-entropy, sampled-entropy, expected-size
MATRIX_SECONDS = {"marks": 25e-9, None: 2e-9}  # making the matrix, per cell: words (marks) or another game
CONTENDED = 0.85  # what a core shared with other work does, of a core (``share``)
NODE_SECONDS = 25e-6  # the builder's own work per node (Python)
START_SECONDS = 0.7  # CPU seconds of each process's start: the interpreter and the compiled kernels' cache
BASE_BYTES = 160 << 20  # a process: the interpreter with numpy and numba loaded
SECRET_BYTES = 600  # per secret in each process: its code listed and packed, its node and depths
# The most secrets an exhaustive search has finished here: Mastermind 9x4's 6561, in 70 minutes
# (trees/RECORDS.md); 12x3's 1728 took a minute, 3x7's 2187 under one.
SEARCHED_SECRETS = 6561
PROBE_ABOVE = 3.0  # CPU seconds of kernels above which this machine's speed at them is measured (``speed.py``)


def load_average() -> float:
    """The work on this machine now: the last minute's average of runnable processes
    (``os.getloadavg``, what ``uptime`` says; this process's own share of it is small, a command
    that estimates having only just started), 0 where the system does not say. A snapshot of the
    processes runnable this instant would say less than is there (on a busy machine most are
    between two time slices at any instant: it read 1.0 where uptime said 3.15)."""
    try:
        return max(0.0, os.getloadavg()[0])
    except (OSError, AttributeError):
        return 0.0


def available_cpus() -> int:
    """The CPUs this process may run on (``os.sched_getaffinity``: a container's or a job's share
    of the machine), else the machine's."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (OSError, AttributeError):
        return os.cpu_count() or 1


def share(cores: int, load: float, cpus: int | None = None) -> float:
    """The cores that ``cores`` busy threads get beside ``load`` other runnable ones on ``cpus``
    (default those this process may use): all of them while enough are idle, else their fair
    share, of which a core shared does ``CONTENDED`` (switches, caches; measured: 0.25 to 0.37
    of a core where the fair share was 0.35 to 0.47)."""
    cpus = cpus or available_cpus()
    fair = cpus * cores / (load + cores)
    return cores if fair >= cores else fair * CONTENDED


@dataclass(frozen=True)
class Estimate:
    """What a build will take: ``seconds`` of wall time on ``cores`` (at the machine's ``load`` when
    estimated), ``memory`` in bytes (all its ``processes`` together; ``largest``: the biggest one,
    what ``/usr/bin/time`` reports)."""

    seconds: float
    memory: int
    cores: int
    load: float = 0.0
    processes: int = 1
    largest: int = 0
    speed: float = 1.0  # this machine's time at the kernels over the fitting machine's (``speed.py``)

    def text(self) -> str:
        cores = f"{self.cores} core{'s' * (self.cores != 1)}"
        busy = f" shared with a load of {self.load:.1f}" if share(self.cores, self.load) < self.cores else ""
        each = f" ({self.processes} processes, the largest {size(self.largest)})" if self.processes > 1 else ""
        pace = "" if 0.8 <= self.speed <= 1.25 else f", its kernels measured at {self.speed:.1f}x the time of the model's machine"
        return f"about {duration(self.seconds)} on {cores}{busy}{pace} and {size(self.memory)} of memory{each}"

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


def estimate(game: Game, options, layout, load: float | None = None, speed: float | None = None) -> Estimate | None:
    """The estimate of building ``options.strategy``'s tree of ``game`` as ``layout`` (a
    ``plan.Layout``) lays it out, beside ``load`` (default: this machine's now); None for an
    exhaustive strategy (its search is not modelled). ``speed``: this machine's time at the
    kernels over the fitting machine's (default: measured here, ``speed.ratio``, where the kernels'
    part of the build is ``PROBE_ABOVE`` seconds or more; 1 below)."""
    strategy = options.strategy
    if strategy.is_exact:
        return None
    n, guesses = game.secret_count(), game.guess_count()
    answers = max(2, min(len(game.feedbacks()), n))
    below = max(DEPTH_PER_LOG * math.log(max(n, 2)) / math.log(answers) - 2, 1.0)  # levels that score
    if not (strategy.scores_every_guess or strategy.samples):  # each node's own guess's answers alone
        pool = 0
    elif options.candidates == "consistent":
        pool = n / answers  # the candidates of a node below the first guess, on average
    else:
        pool = guesses
    if strategy.samples:
        pool = min(pool, options.guess_sample) * min(1.0, options.secret_sample / max(n / answers, 1))
    words = layout.peg_words(game)
    cell = CELL_SECONDS[words][options.name != "most-parts"]
    if words is not None:  # (measured so: see STATISTIC_FACTOR)
        cell *= STATISTIC_FACTOR.get(options.name, COUNTING_FACTOR)
    kernels = pool * n * below * cell
    workers = layout.workers  # processes; one uses the kernels' threads
    cores = workers if workers > 1 else available_cpus() if pool else 1
    processes = 1 + workers if workers > 1 else 1  # this one, and its workers (each lists the codes)
    each = BASE_BYTES + SECRET_BYTES * n
    memory = each * processes
    if layout.matrix != "none" and strategy.scores_every_guess:  # the whole matrix, if it fits the budget
        matrix = min(guesses * n * feedback_bytes(game), 0.8 * options.max_memory)
        memory, each = memory + matrix, each + matrix
    if layout.matrix != "none":
        kernels += guesses * n * MATRIX_SECONDS.get(getattr(game, "feedback_kind", None), MATRIX_SECONDS[None])
    if speed is None:
        speed = 1.0 if kernels < PROBE_ABOVE else ratio("packed" if words in ("unary", "nibbles") else "matrix",
                                                        options.name != "most-parts")
    cpu = kernels * speed + 1.1 * n * NODE_SECONDS
    load = load_average() if load is None else load
    seconds = START_SECONDS * processes / share(processes, load) + cpu / share(cores, load)
    return Estimate(seconds, int(memory), cores, load, processes, int(each), speed)


def summary(game: Game, options, figures: Estimate | None) -> dict:
    """What ``compile --estimate`` says: the game's size, and the estimate's figures (``seconds``
    None for an exhaustive strategy, whose search is not modelled: its memory is, the matrix and
    the table at most), with ``text``, the line a person reads."""
    n, guesses = game.secret_count(), game.guess_count()
    said = {"game": game.title(), "strategy": options.name, "secrets": n, "guesses": guesses}
    if figures is not None:
        return {**said, "seconds": round(figures.seconds, 1), "memory": figures.memory, "cores": figures.cores,
                "load": round(figures.load, 2), "speed": round(figures.speed, 2), "processes": figures.processes, "largest_process": figures.largest,
                "text": f"{options.name} on {game.title()}: {figures.text()}"}
    memory = search_memory(game, options)
    return {**said, "seconds": None, "memory": int(memory), "cores": available_cpus(),
            "text": f"{options.name} on {game.title()}: an exhaustive search of {n} secrets and {guesses} guesses; its "
                    f"time is not modelled (seconds to days, by how soon bounds settle the first guesses); "
                    f"at most {size(memory)} of memory (the matrix and the search's table)"}


def feedback_bytes(game: Game) -> int:
    """A matrix cell's bytes for ``game``: one up to 255 feedback values, else two (``kinds.feedback_dtype``)."""
    return 1 if len(game.feedbacks()) < 256 else 2


def search_memory(game: Game, options) -> int:
    """The most memory an exhaustive strategy's search of ``game`` takes: the process, the matrix
    and the search's table."""
    from ..search.table import ENTRY_BYTES, slots_for

    n, guesses = game.secret_count(), game.guess_count()
    width = feedback_bytes(game)
    return int(BASE_BYTES + SECRET_BYTES * n + width * guesses * n + ENTRY_BYTES * slots_for(options.max_memory))


def searchable(game: Game, options, physical: int | None = None) -> bool:
    """Does an exhaustive strategy's search of ``game`` run here: its whole matrix within
    --max-memory (the search refuses a game without one), all it takes within this machine's
    memory (``physical`` bytes, by default what the system says), and no more secrets than a
    search here has finished (``SEARCHED_SECRETS``: its time is not modelled, and grows by
    orders of magnitude from there)."""
    from ..engine.codes import matrix_fits

    n, guesses = game.secret_count(), game.guess_count()
    physical = physical_memory() if physical is None else physical
    return (n <= SEARCHED_SECRETS and guesses < 1 << 20 and matrix_fits(guesses, n, n, feedback_bytes(game), options.max_memory)
            and not (physical and search_memory(game, options) > physical))


def physical_memory() -> int | None:
    """This machine's memory in bytes, where the system says (else None: no check)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return None

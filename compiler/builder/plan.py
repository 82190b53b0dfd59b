"""How a build lays out its work (``Layout``: the matrix it keeps, the processes that expand the
first guess's subtrees) and what it will take (``plan``, with ``estimate.py``'s figures): decided
once, before any work, so that a build that cannot finish is refused at once."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from guesstree.player.games import Game

from ..engine.codes import check_listing
from ..engine.kinds import backend_for, peg_words
from ..engine.scorer import Scorer
from ..options import Options
from ..workers.settings import SearchSettings
from .estimate import Estimate, available_cpus, estimate

PARALLEL_MIN_SECRETS = 20000  # smaller games build faster in one process (its kernels use every core)
# From this many guesses x secrets, a heuristic's tree is built without the whole matrix. A game
# that scores partitions straight from its codes (``Scorer.on_the_fly``: peg games on the compiled
# engine) needs none at all; otherwise the root is scored in blocks, and each of its subtrees over
# a matrix of its own part's secrets (the largest part of 8x5 Mastermind would take 231 MB instead
# of the whole matrix's 1 GiB). A sampled heuristic scores blocks on demand instead: it reads a
# sample of guesses on a sample of secrets.
PART_MIN_CELLS = 1 << 28
SHORTER = ("holes", "length")  # the parameter that a smaller game of a family has fewer of


@dataclass(frozen=True)
class Layout:
    """How a build lays out its work: the matrix it keeps, and who expands the first guess's subtrees."""

    backend: str  # the kernels' (engine.kinds.BACKENDS)
    matrix: str  # "whole" (if it fits the memory budget), "shared" (so, in shared memory), "none" (blocks, parts)
    workers: int  # processes expanding the first guess's subtrees (1: this one)
    parts: bool  # each of those subtrees over a matrix of its own part's secrets

    @classmethod
    def of(cls, game: Game, options: Options, workers: int) -> Layout:
        """A strategy that looks its choices up in a solved game does them in one process, over
        its search's matrix (and the compiled kernels its search runs on, unless ``--engine`` says
        otherwise). A scoring one splits the work among processes in a game big enough to pay for
        them, and needs no whole matrix in a large game (one that reads every guess scores each
        first guess's subtree over its own part's matrix; a sampled one reads blocks, and one that
        reads only its guess's answers, the row of that guess)."""
        n, strategy = game.secret_count(), options.strategy
        if strategy.is_exact:
            return cls("numba" if options.engine == "fast" else backend_for(game, options.engine), "whole", 1, False)
        backend = backend_for(game, options.engine)
        split = workers if workers > 1 and n >= PARALLEL_MIN_SECRETS else 1
        if game.guess_count() * n >= PART_MIN_CELLS:
            return cls(backend, "none", split, strategy.scores_every_guess)
        return cls(backend, "shared" if split > 1 else "whole", split, False)

    def peg_words(self, game: Game) -> str | None:
        """How a peg game with no matrix is scored: from its packed codes, "unary" or "nibbles"
        (``engine.kinds.peg_words``), or "blocks" where they do not pack; None with a matrix, or for
        another game."""
        if self.matrix != "none" or getattr(game, "feedback_kind", None) != "pegs":
            return None
        return peg_words(game, self.backend) or "blocks"

    def scorer(self, game: Game, options: Options) -> Scorer:
        return Scorer(game, options.max_memory, self.backend, shared=self.matrix == "shared",
                      whole=False if self.matrix == "none" else None)

    def splits(self, scorer: Scorer) -> bool:
        """Are the first guess's subtrees expanded as jobs? With no whole matrix, or over a shared one."""
        return self.matrix == "none" or (self.matrix == "shared" and scorer.shared is not None)


def plan(game: Game, options: Options, search: SearchSettings | None = None,
         workers: int | None = None, check: bool = True) -> tuple[Layout, Estimate | None]:
    """How ``build`` lays out the work (``workers`` processes, default ``search.workers`` for a
    heuristic, else one per core) and what it will take (``estimate.py``; None for an exhaustive
    strategy); a ValueError with the figures for a build that cannot finish (``Estimate.check``),
    if ``check`` (``compile --estimate`` prints them instead)."""
    if workers is None:
        given = search.workers if search is not None and not options.strategy.is_exact else None
        workers = given if given is not None else available_cpus()
    try:
        check_listing(game, options.max_memory)  # the one limit that no option lifts but --max-memory, first
    except ValueError as error:
        raise ValueError(f"{error}{what_fits(game, options, workers)}") from None
    layout = Layout.of(game, options, workers)
    figures = estimate(game, options, layout)
    if figures is not None and check:
        figures.check(f"{options.name} on {game.title()}", options.max_time, options.force)
    return layout, figures


def what_fits(game: Game, options: Options, workers: int) -> str:
    """What can be done where listing ``game``'s codes does not fit ``--max-memory`` (every
    strategy lists every secret and guess; a sampled one samples those it scores, from the list):
    the --max-memory that would list them, if this machine has it, and the largest game of its
    family (fewer holes, or a shorter length) that ``options`` builds here (its listing, the
    estimate's memory and time all within bounds; an exhaustive strategy's search too,
    ``estimate.searchable``): the rest of the refusal's line."""
    from guesstree.player.wording import size

    from ..engine.codes import LISTED_BYTES
    from .estimate import physical_memory

    said = f" ({options.name} too lists every code)" if options.strategy.samples else ""
    need = -(-LISTED_BYTES * (game.secret_count() + game.guess_count()) // (1 << 30))  # GiB, rounded up
    physical = physical_memory()
    if physical is not None and need << 30 > 0.8 * physical:
        said += f" and what this machine's {size(physical)} can spare"
    else:
        try:
            plan(game, dataclasses.replace(options, max_memory=need << 30), workers=workers)
            said += f"; --max-memory {need} builds it"
        except ValueError:
            said += f"; --max-memory {need} lists them, but the build is refused then (compile --estimate says why)"
    smaller = _largest_that_builds(game, options, workers)
    if smaller is not None:
        said += f"; {options.name} builds at most {smaller.label()} here"
    return said


def _largest_that_builds(game: Game, options: Options, workers: int) -> Game | None:
    """The largest game of ``game``'s family, by its ``SHORTER`` parameter, that ``options`` builds here."""
    from guesstree.player.games import make_game

    from .estimate import searchable

    params = game.params()
    for key in (k for k in SHORTER if k in params):
        for value in range(params[key] - 1, 0, -1):
            try:
                smaller = make_game(game.name, **{**params, key: value})
                plan(smaller, options, workers=workers)
            except (ValueError, TypeError):
                continue
            if not options.strategy.is_exact or searchable(smaller, options):
                return smaller
    return None

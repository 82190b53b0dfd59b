"""The kernels that score a game, by its family of scores (``Game.feedback_kind``): the registry
(``register``, which a plugin game may add to), the backends (``numba``: compiled, cached on disk;
``numpy``: vectorised; the same numbers, numpy the faster for small games, whose whole build takes
less time than loading numba), and the feedback indices' type (uint8 for at most 255 feedback
values: the peg games, words of up to 5 letters; else uint16: 723 values for 6 letters, 6555 for 8).
"""
from __future__ import annotations

from functools import cached_property
from collections.abc import Callable

import numpy as np

from guesstree.player.game import Game

from .statistic import CLOG_SUM, NO_CLOG, PARTS

BACKENDS = ("numba", "numpy")
NUMPY_MAX_CELLS = 1 << 22  # guesses x secrets up to which the numpy backend is the faster one


def backend_for(game: Game, engine: str) -> str:
    """The kernels' backend for an engine: ``fast`` picks by the game's size."""
    if engine in BACKENDS:
        return engine
    if engine == "reference" or game.guess_count() * game.secret_count() <= NUMPY_MAX_CELLS:
        return "numpy"
    return "numba"


def backend_kernels(backend: str):
    """The module holding ``backend``'s kernels (importing numba only when asked for)."""
    if backend == "numba":
        from . import kernels as compiled
        return compiled
    from . import vectorised
    return vectorised


MAX_FEEDBACKS = (1 << 16) - 1  # uint16 indices, the largest value kept for "no such feedback"


def feedback_dtype(n_feedbacks: int) -> np.dtype:
    """The narrowest type for a game's feedback indices: one byte each up to 255 values (a byte
    per matrix cell is what makes the peg games and 5-letter words fast), else two."""
    if n_feedbacks > MAX_FEEDBACKS:
        raise ValueError(f"{n_feedbacks} feedback values; at most {MAX_FEEDBACKS} are supported")
    return np.dtype(np.uint8 if n_feedbacks < 256 else np.uint16)


def index_table(shape, n_feedbacks: int) -> np.ndarray:
    """A lookup table of feedback indices, every cell "no such feedback" (the type's largest value) at first."""
    dtype = feedback_dtype(n_feedbacks)
    return np.full(shape, np.iinfo(dtype).max, dtype=dtype)


# -- kernels by family of scores --------------------------------------------------------------
#
# ``KERNELS[kind](game, guess_codes, secret_codes, backend)`` returns ``block(guess_ids, secret_ids)``
# (``None``: all of them), the feedback indices (``feedback_dtype``), for the games whose
# ``Game.feedback_kind`` is ``kind``. A game of no registered kind is scored through its own
# pure-Python ``score``. A plugin game may add a kernel for its own kind: ``@register("mine")``
# over the factory, and ``feedback_kind = "mine"`` on the game (or ``@register(MyGame)``, for the
# game type and its subclasses).

BlockFunction = Callable[[np.ndarray | None, np.ndarray | None], np.ndarray]
KERNELS: dict[str | type, Callable[..., BlockFunction]] = {}


def register(kind: str | type):
    """Decorator: the kernel factory for the games of feedback ``kind`` (or of a game type and its subclasses)."""
    def add(factory):
        KERNELS[kind] = factory
        return factory
    return add


def block_function(game: Game, guess_codes: np.ndarray, secret_codes: np.ndarray, backend: str) -> BlockFunction:
    for key in (*type(game).__mro__, game.feedback_kind):
        if key in KERNELS:
            return KERNELS[key](game, guess_codes, secret_codes, backend)
    return _generic(game)


def _pick(codes, ids):
    return codes if ids is None else codes[ids]


def full_indices(game: Game) -> list[tuple[tuple[int, ...], int]]:
    """Each full score of ``game`` (``Game.full_feedbacks``) with the index of what the host tells of it:
    the kernels compute full scores, and a feedback rule (``player.rules``) is their table's entries."""
    index = {feedback: i for i, feedback in enumerate(game.feedbacks())}
    return [(full, index[game.told(full)]) for full in game.full_feedbacks()]


def peg_words(game, backend: str) -> str | None:
    """How this peg game's packed codes are written, where it scores partitions straight from them
    (``PackedPegs``: on the compiled engine, where its codes pack, ``packed.packs``): "unary" (a
    bit per colour and hole) or "nibbles"; None where they are not packed."""
    if backend != "numba" or game.rule is not None:  # (packed partitions count full scores)
        return None
    from .packed import packs, unary  # (numba: imported only by the engine that runs it)

    if not packs(game.length, game.symbols):
        return None
    return "unary" if unary(game.length, game.symbols) else "nibbles"


@register("pegs")
def _pegs(game, guess_codes, secret_codes, backend) -> BlockFunction:
    """(black, white) feedback: compiled on packed codes up to 16 colours and 7 holes, or 8 colours
    and 8 holes (``packed.packs``)."""
    feedbacks = game.feedbacks()
    if peg_words(game, backend):
        return PackedPegs(game, guess_codes, secret_codes)
    table = index_table((game.length + 1, game.length + 1), len(feedbacks))
    for (right, moved), i in full_indices(game):
        table[right, moved] = i
    peg_matrix = backend_kernels(backend).peg_matrix

    def pegs(guess_ids, secret_ids):
        return peg_matrix(_pick(guess_codes, guess_ids), _pick(secret_codes, secret_ids), game.symbols, table)
    return pegs


class PackedPegs:
    """(black, white) feedback from codes packed in two words each (``packed.pack_codes``):
    a block of the matrix when called, and partitions scored straight from the words, so that a
    big game needs no matrix at all (a ``Scorer`` uses ``partition_stats`` and ``first_perfect``
    when it has no matrix)."""

    def __init__(self, game, guess_codes: np.ndarray, secret_codes: np.ndarray):
        from . import packed as compiled

        self.compiled, self.holes = compiled, game.length
        self.guess_words, self.layout = compiled.pack_codes(guess_codes, game.symbols)
        self.secret_words, _ = compiled.pack_codes(secret_codes, game.symbols)
        self.table = np.full(compiled.key_count(self.holes), 255, dtype=np.uint8)  # [key of (black, common)]
        for i, (right, moved) in enumerate(game.feedbacks()):
            self.table[compiled.peg_key(right, right + moved, self.holes)] = i

    def __call__(self, guess_ids, secret_ids) -> np.ndarray:
        return self.compiled.peg_matrix_packed(*(_pick(w, guess_ids) for w in self.guess_words),
                                               *(_pick(w, secret_ids) for w in self.secret_words), self.layout,
                                               self.table)

    def partition_stats(self, guess_ids, secret_ids, statistic, clog, threads, stop=0, pick_only=False):
        if pick_only and statistic == CLOG_SUM:  # entropy's pick
            from .least_sums import pick_sums

            return pick_sums(self, guess_ids, secret_ids, clog, threads, stop)
        return self.compiled.packed_partition_stats(self.guess_words, self.secret_words, self.layout, guess_ids,
                                                    secret_ids, statistic, clog, threads, stop, pick_only)

    @cached_property
    def multisets(self) -> tuple[np.ndarray, np.ndarray]:
        """Each guess's multiset of colours, and a guess of each (``least_sums.multisets_of``)."""
        from .least_sums import multisets_of

        return multisets_of(self.guess_words)

    def first_perfect(self, guess_ids, secret_ids) -> int:
        return self.partition_stats(guess_ids, secret_ids, PARTS, NO_CLOG, False, stop=len(secret_ids))[2]


@register("marks")
def _words(game, guess_codes, secret_codes, backend) -> BlockFunction:
    """Per-letter marks, as a base-3 number looked up in a table."""
    word_matrix = backend_kernels(backend).word_matrix
    table = index_table(3 ** game.length, len(game.feedbacks()))
    for feedback, i in full_indices(game):
        table[int("".join(map(str, feedback)), 3)] = i

    def words(guess_ids, secret_ids):
        return word_matrix(_pick(guess_codes, guess_ids), _pick(secret_codes, secret_ids), table)
    return words


@register("pair")
def _twod(game, guess_codes, secret_codes, backend) -> BlockFunction:
    """(below, above, equal), vectorised."""
    table = np.zeros((2, 2, 2), dtype=np.uint8)
    for i, (below, above, equal) in enumerate(game.feedbacks()):
        table[below, above, equal] = i

    def twod(guess_ids, secret_ids):
        g = _pick(guess_codes, guess_ids)[:, None, :]
        s = _pick(secret_codes, secret_ids)[None, :, :]
        return table[np.all(s <= g, axis=2).astype(np.intp), np.all(s >= g, axis=2).astype(np.intp),
                     np.all(s == g, axis=2).astype(np.intp)]
    return twod


def _generic(game: Game) -> BlockFunction:
    """Any game, through its own pure-Python ``score``: slow, but needs nothing more."""
    index = {f: i for i, f in enumerate(game.feedbacks())}
    dtype = feedback_dtype(len(index))

    def generic(guess_ids, secret_ids):
        guesses = game.guesses if guess_ids is None else [game.guesses[i] for i in guess_ids]
        secrets = game.secrets if secret_ids is None else [game.secrets[i] for i in secret_ids]
        out = np.empty((len(guesses), len(secrets)), dtype=dtype)
        for g, guess in enumerate(guesses):
            try:
                out[g] = [index[game.score(guess, secret)] for secret in secrets]
            except KeyError as error:
                raise ValueError(f"{game.title()}: score({game.format_code(guess)}, ...) gave {error.args[0]!r}, "
                                 "which is not in the game's feedbacks()") from None
        return out
    return generic

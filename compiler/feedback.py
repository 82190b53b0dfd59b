"""Feedback in bulk: ``block(guess_ids, secret_ids)[i, j]`` is the index of
``score(guesses[i], secrets[j])`` in ``game.feedbacks()``, computed in compiled or vectorised
code: uint8 for a game of at most 255 feedback values (the peg games, words of up to 5
letters), else uint16 (longer words: 723 values for 6 letters, 6555 for 8).

A ``Scorer`` keeps the whole guesses x secrets matrix when it fits the memory budget
(lookups are then one byte each) and otherwise computes blocks on demand, so that games
too big for a matrix still run in bounded memory.

Kernels come from one of two backends: ``numba`` (compiled, cached on disk) or ``numpy``
(vectorised). They give the same numbers; numpy wins for small games, whose whole build
takes less time than loading numba into the process.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from guesstree.player.game import Game

from .estimate import size
from .statistic import PARTS

BLOCK_CELLS = 1 << 24  # cells per on-demand block
BACKENDS = ("numba", "numpy")
NUMPY_MAX_CELLS = 1 << 22  # guesses x secrets up to which the numpy backend is the faster one
NO_CLOG = np.zeros(1, np.int64)  # the c log c table that counting parts never reads


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


def codes_array(codes) -> np.ndarray:
    return np.array(codes, dtype=np.uint8).reshape(len(codes), -1)


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


LISTED_BYTES = 128  # memory per code while the game lists it (a Python tuple of small ints, and its row)


def check_listing(game: Game, max_memory: int) -> None:
    """A ValueError unless listing the game's codes fits ``max_memory``: checked before listing
    them, since a game may have more codes than memory."""
    n_guesses, n_secrets = game.guess_count(), game.secret_count()
    listing = LISTED_BYTES * (n_guesses + n_secrets)
    if listing > max_memory:
        raise ValueError(f"{game!r} has {n_secrets} secrets and {n_guesses} guesses: listing them takes "
                         f"about {size(listing)}, over the --max-memory budget of {size(max_memory)}")


COLUMN_MAX_CANDIDATES = 1024  # below this, a game with a symmetric score reads its matrix by columns


@dataclass(frozen=True)
class Codes:
    """A game's codes in arrays and the kernel that scores them (``block``): what a scorer and the
    scorers of its parts share. ``square``: the score is symmetric over guesses that are the
    secrets (score(a, b) == score(b, a)), so a matrix is its own transpose."""

    game: Game
    backend: str
    guess_codes: np.ndarray
    secret_codes: np.ndarray
    dtype: np.dtype
    block: BlockFunction
    block_cells: int  # cells per block computed at once
    max_memory: int
    square: bool

    @classmethod
    def of(cls, game: Game, max_memory: int, backend: str) -> "Codes":
        check_listing(game, max_memory)
        try:
            dtype = feedback_dtype(len(game.feedbacks()))
        except ValueError as error:
            raise ValueError(f"{game!r} has {error}") from None
        guess_codes, secret_codes = codes_array(game.guesses), codes_array(game.secrets)
        per_cell = 16 if backend == "numba" else 64  # numpy's temporaries take tens of bytes per cell
        return cls(game, backend, guess_codes, secret_codes, dtype,
                   _block_function(game, guess_codes, secret_codes, backend),
                   max(1 << 12, min(BLOCK_CELLS, max_memory // per_cell)), max_memory,
                   game.symmetric_score and game.guesses == game.secrets)

    def fits(self, n_secrets: int) -> bool:
        """Does a matrix of every guess against ``n_secrets`` secrets leave room for the rest?"""
        n_guesses = len(self.guess_codes)
        cells = n_guesses * n_secrets * self.dtype.itemsize
        return cells + 64 * (n_guesses + len(self.secret_codes)) <= self.max_memory * 0.8

    def rows(self, guess_ids: np.ndarray | None = None, secret_ids: np.ndarray | None = None,
             out: np.ndarray | None = None) -> np.ndarray:
        """The matrix of ``guess_ids`` against ``secret_ids`` (None: all of them), into ``out`` if
        given; numpy's kernels a block of guesses at a time (their temporaries take tens of bytes
        per cell), compiled ones at once."""
        n_rows = len(self.guess_codes) if guess_ids is None else len(guess_ids)
        n_columns = len(self.secret_codes) if secret_ids is None else len(secret_ids)
        step = max(1, self.block_cells // max(1, n_columns))
        if out is None:
            if self.backend == "numba" or step >= n_rows:
                return self.block(guess_ids, secret_ids)
            out = np.empty((n_rows, n_columns), dtype=self.dtype)
        every = np.arange(n_rows) if guess_ids is None else guess_ids
        for start in range(0, n_rows, step):
            out[start:start + step] = self.block(every[start:start + step], secret_ids)
        return out

    def whole(self, shared: bool):
        """The whole matrix, and the shared memory that holds it (``pool.SharedArray``) if
        ``shared``, else None."""
        if not shared:
            return self.rows(), None
        from .pool import SharedArray

        memory = SharedArray((len(self.guess_codes), len(self.secret_codes)), self.dtype)
        return self.rows(out=memory.array), memory

    def chunks(self, guess_ids: np.ndarray, n_secrets: int):
        """``guess_ids`` in blocks of at most ``block_cells`` cells against ``n_secrets`` secrets."""
        step = max(1, self.block_cells // max(1, n_secrets))
        return (guess_ids[start:start + step] for start in range(0, len(guess_ids), step))


# -- where a scorer reads its answers ---------------------------------------------------------
#
# One of three sources, chosen when the scorer is made: ``Held`` (a matrix in memory), ``Computed``
# (blocks computed from the codes on demand) or ``FromCodes`` (partitions scored straight from the
# codes, ``PackedPegs``). Each gives ``block``, ``answers``, ``partition_stats``, ``first_perfect``
# and ``perfect_or_stats`` as ``Scorer`` documents them, with ``threads`` passed in.

class Source:
    """Where a scorer reads its answers; ``perfect_or_stats``: ``first_perfect``, then if none
    ``partition_stats``."""

    matrix: np.ndarray | None = None  # [guess, secret], if held
    columns: np.ndarray | None = None  # [secret, guess], if held

    def perfect_or_stats(self, guess_ids, secret_ids, n_feedbacks, statistic, clog, threads, pick_only):
        first = self.first_perfect(guess_ids, secret_ids, n_feedbacks)
        if first >= 0:
            return first, None, None
        return -1, *self.partition_stats(guess_ids, secret_ids, n_feedbacks, statistic, clog, threads, pick_only)


class Held(Source):
    """Answers read from a matrix in memory: ``matrix[guess, secret]``, and ``columns[secret,
    guess]`` where the score is symmetric (the same array, for a whole square matrix; alone, for
    a part of one), read where few secrets make columns the cheaper way."""

    def __init__(self, matrix: np.ndarray | None, columns: np.ndarray | None, kernels):
        self.matrix, self.columns, self.kernels = matrix, columns, kernels

    def block(self, guess_ids, secret_ids):
        if self.matrix is None:  # a part's columns alone
            return _cells(self.columns, secret_ids, guess_ids).T
        return _cells(self.matrix, guess_ids, secret_ids)

    def answers(self, guess, secret_ids):
        return self.columns[secret_ids, guess] if self.matrix is None else self.matrix[guess, secret_ids]

    def partition_stats(self, guess_ids, secret_ids, n_feedbacks, statistic, clog, threads, pick_only):
        count = self.kernels.partition_stats
        if self.columns is not None and (len(secret_ids) < COLUMN_MAX_CANDIDATES or self.matrix is None):
            return count(self.columns, guess_ids, secret_ids, n_feedbacks, statistic, clog, by_column=True,
                         threads=threads)
        return count(self.matrix, guess_ids, secret_ids, n_feedbacks, statistic, clog, threads=threads)

    def first_perfect(self, guess_ids, secret_ids, n_feedbacks):
        if self.columns is not None:
            return self.kernels.first_perfect(self.columns, guess_ids, secret_ids, n_feedbacks, True)
        return self.kernels.first_perfect(self.matrix, guess_ids, secret_ids, n_feedbacks)


def _cells(matrix: np.ndarray, row_ids, column_ids) -> np.ndarray:
    """``matrix``'s cells at ``row_ids`` x ``column_ids`` (None: all of them)."""
    if row_ids is None and column_ids is None:
        return matrix
    rows = np.arange(matrix.shape[0]) if row_ids is None else row_ids
    return matrix[np.ix_(rows, np.arange(matrix.shape[1]) if column_ids is None else column_ids)]


class Computed(Source):
    """Answers computed from the codes on demand, a block of guesses at a time, in bounded memory."""

    def __init__(self, codes: Codes, kernels):
        self.codes, self.kernels = codes, kernels

    def block(self, guess_ids, secret_ids):
        return self.codes.rows(guess_ids, secret_ids)

    def answers(self, guess, secret_ids):
        return self.codes.block(np.array([guess]), secret_ids)[0]

    def partition_stats(self, guess_ids, secret_ids, n_feedbacks, statistic, clog, threads, pick_only):
        every = np.arange(len(secret_ids))
        stats, parts = [], []
        for chunk in self.codes.chunks(guess_ids, len(secret_ids)):
            chunk_stats, chunk_parts = self.kernels.partition_stats(
                self.codes.block(chunk, secret_ids), np.arange(len(chunk)), every, n_feedbacks, statistic, clog,
                threads=threads)
            stats.append(chunk_stats)
            parts.append(chunk_parts)
        return np.concatenate(stats), np.concatenate(parts)

    def first_perfect(self, guess_ids, secret_ids, n_feedbacks):
        every, start = np.arange(len(secret_ids)), 0
        for chunk in self.codes.chunks(guess_ids, len(secret_ids)):
            index = self.kernels.first_perfect(self.codes.block(chunk, secret_ids), np.arange(len(chunk)), every,
                                               n_feedbacks)
            if index >= 0:
                return start + index
            start += len(chunk)
        return -1


class FromCodes(Computed):
    """Blocks computed from the codes, and partitions scored straight from them (``PackedPegs``),
    so that a big game needs no matrix at all."""

    def partition_stats(self, guess_ids, secret_ids, n_feedbacks, statistic, clog, threads, pick_only):
        return self.codes.block.partition_stats(guess_ids, secret_ids, statistic, clog, threads,
                                                pick_only=pick_only)[:2]

    def first_perfect(self, guess_ids, secret_ids, n_feedbacks):
        return self.codes.block.first_perfect(guess_ids, secret_ids)

    def perfect_or_stats(self, guess_ids, secret_ids, n_feedbacks, statistic, clog, threads, pick_only):
        """In one scan, that stops at the first perfect guess."""
        stats, parts, first = self.codes.block.partition_stats(guess_ids, secret_ids, statistic, clog, threads,
                                                               stop=len(secret_ids), pick_only=pick_only)
        return (first, None, None) if first >= 0 else (-1, stats, parts)


def computed(codes: Codes) -> Computed:
    """The source that computes answers from ``codes``: straight from them where their kernel can."""
    kind = FromCodes if hasattr(codes.block, "partition_stats") else Computed
    return kind(codes, backend_kernels(codes.backend))


class Scorer:
    """Feedback indices of (guess, secret) pairs, the one source of them while a tree is built:
    from the whole matrix when it fits ``max_memory`` (read by columns where the score is
    symmetric: ``columns``), from blocks on demand otherwise, or straight from the codes where the
    game's kernel can (``on_the_fly``); which of them is decided once, when it is made (its
    ``source``). ``shared``: keep the matrix in shared memory, for worker processes (``pool.py``);
    ``matrix``: one made before (a worker's view of the shared one); ``whole``: False for no whole
    matrix (parts of it are made with ``part``); ``threads``: may kernels start threads (not in a
    worker process: there is one per core already)."""

    def __init__(self, game: Game, max_memory: int, backend: str = "numba", shared: bool = False,
                 matrix: np.ndarray | None = None, whole: bool | None = None):
        codes = Codes.of(game, max_memory, backend)
        memory = None  # the matrix's shared memory, if any
        # the whole matrix only when it leaves room for the rest of the build (and the codes' arrays)
        if matrix is None and whole is not False and codes.fits(len(codes.secret_codes)):
            matrix, memory = codes.whole(shared)
        source = computed(codes) if matrix is None else \
            Held(matrix, matrix if codes.square else None, backend_kernels(backend))
        self.codes, self.source, self.shared, self.threads = codes, source, memory, True

    @classmethod
    def reading(cls, codes: Codes, source: Source, threads: bool) -> "Scorer":
        """A scorer of ``codes`` that reads its answers from ``source``."""
        scorer = cls.__new__(cls)
        scorer.codes, scorer.source, scorer.shared, scorer.threads = codes, source, None, threads
        return scorer

    game = property(lambda self: self.codes.game)
    backend = property(lambda self: self.codes.backend)
    guess_codes = property(lambda self: self.codes.guess_codes)
    secret_codes = property(lambda self: self.codes.secret_codes)
    matrix = property(lambda self: self.source.matrix, doc="The matrix [guess, secret] it reads, if any.")
    columns = property(lambda self: self.source.columns, doc="The matrix by columns [secret, guess], if any.")

    def part(self, secret_ids: np.ndarray, as_guesses: np.ndarray) -> "Scorer | None":
        """A scorer of every guess against the secrets ``secret_ids`` alone (numbered 0 ..
        len(secret_ids)-1 there; ``as_guesses``: their guess indices), over a matrix of its own,
        if one fits the memory budget (else None). It answers from that matrix only."""
        if not self.codes.fits(len(secret_ids)):
            return None
        kernels = backend_kernels(self.backend)
        if self.codes.square:  # one matrix read by columns: [secret, guess], the part's guess rows
            held = Held(None, self.block(as_guesses, None), kernels)
        else:
            held = Held(self.block(None, secret_ids), None, kernels)
        return Scorer.reading(self.codes, held, self.threads)

    def block(self, guess_ids: np.ndarray | None, secret_ids: np.ndarray | None) -> np.ndarray:
        """Feedback indices for every (guess, secret) pair; ``None`` means all of them."""
        return self.source.block(guess_ids, secret_ids)

    def answers(self, guess: int, secret_ids: np.ndarray) -> np.ndarray:
        """Feedback indices of one guess against some secrets."""
        return self.source.answers(guess, secret_ids)

    @property
    def on_the_fly(self) -> bool:
        """Does the game score partitions straight from its codes, as cheaply as through a matrix?"""
        return hasattr(self.codes.block, "partition_stats")

    def partition_stats(self, guess_ids: np.ndarray, secret_ids: np.ndarray, n_feedbacks: int, statistic: int,
                        clog: np.ndarray, pick_only: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """Per guess, a statistic of its partition of ``secret_ids`` and its part count (see
        ``kernels.partition_stats``): from the matrix (by columns for few secrets, where it can),
        else straight from the codes if the game can, else from blocks of guesses computed on demand.
        ``pick_only``: the statistics need be exact only for the best guesses (minimax's: see
        ``kernels.packed_partition_stats``)."""
        return self.source.partition_stats(guess_ids, secret_ids, n_feedbacks, statistic, clog, self.threads,
                                           pick_only)

    def perfect_or_stats(self, guess_ids: np.ndarray, secret_ids: np.ndarray, n_feedbacks: int, statistic: int,
                         clog: np.ndarray, pick_only: bool = False) -> tuple[int, np.ndarray | None, np.ndarray | None]:
        """``(first_perfect, None, None)`` if one of ``guess_ids`` puts every one of ``secret_ids`` in
        a part of its own, else ``(-1, *partition_stats)``: in one scan that stops at the first
        perfect guess where the game scores partitions from its codes."""
        return self.source.perfect_or_stats(guess_ids, secret_ids, n_feedbacks, statistic, clog, self.threads,
                                            pick_only)

    def first_with_parts(self, guess_ids: np.ndarray, secret_ids: np.ndarray, stop: int) -> tuple[int, np.ndarray]:
        """Where the game scores partitions from its codes (``on_the_fly``): the index of the first
        of ``guess_ids`` whose answers to ``secret_ids`` make ``stop`` parts (or -1), and the parts
        of each guess up to it (of every guess, when none does)."""
        _, parts, first = self.codes.block.partition_stats(guess_ids, secret_ids, PARTS, NO_CLOG, self.threads,
                                                           stop=stop)
        return first, parts

    def first_perfect(self, guess_ids: np.ndarray, secret_ids: np.ndarray, n_feedbacks: int) -> int:
        """The index of the first of ``guess_ids`` that puts every one of ``secret_ids`` in a part
        of its own, or -1."""
        return self.source.first_perfect(guess_ids, secret_ids, n_feedbacks)

    def release(self) -> None:
        """Free the shared matrix (a matrix in this process's own memory goes with the scorer)."""
        if self.shared is not None:
            self.source = computed(self.codes)
            self.shared.release()
            self.shared = None


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


def _block_function(game: Game, guess_codes: np.ndarray, secret_codes: np.ndarray, backend: str) -> BlockFunction:
    for key in (*type(game).__mro__, game.feedback_kind):
        if key in KERNELS:
            return KERNELS[key](game, guess_codes, secret_codes, backend)
    return _generic(game)


def _pick(codes, ids):
    return codes if ids is None else codes[ids]


def peg_words(game, backend: str) -> str | None:
    """How this peg game's packed codes are written, where it scores partitions straight from them
    (``PackedPegs``: on the compiled engine, where its codes pack, ``kernels.packs``): "unary" (a
    bit per colour and hole) or "nibbles"; None where they are not packed."""
    if backend != "numba":
        return None
    from .kernels import packs, unary  # (numba: imported only by the engine that runs it)

    if not packs(game.length, game.symbols):
        return None
    return "unary" if unary(game.length, game.symbols) else "nibbles"


@register("pegs")
def _pegs(game, guess_codes, secret_codes, backend) -> BlockFunction:
    """(black, white) feedback: compiled on packed codes up to 16 colours and 7 holes, or 8 colours
    and 8 holes (``kernels.packs``)."""
    feedbacks = game.feedbacks()
    if peg_words(game, backend):
        return PackedPegs(game, guess_codes, secret_codes)
    table = index_table((game.length + 1, game.length + 1), len(feedbacks))
    for i, (right, moved) in enumerate(feedbacks):
        table[right, moved] = i
    peg_matrix = backend_kernels(backend).peg_matrix

    def pegs(guess_ids, secret_ids):
        return peg_matrix(_pick(guess_codes, guess_ids), _pick(secret_codes, secret_ids), game.symbols, table)
    return pegs


class PackedPegs:
    """(black, white) feedback from codes packed in two words each (``kernels.pack_codes``):
    a block of the matrix when called, and partitions scored straight from the words, so that a
    big game needs no matrix at all (a ``Scorer`` uses ``partition_stats`` and ``first_perfect``
    when it has no matrix)."""

    def __init__(self, game, guess_codes: np.ndarray, secret_codes: np.ndarray):
        from . import kernels as compiled

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
        return self.compiled.packed_partition_stats(self.guess_words, self.secret_words, self.layout, guess_ids,
                                                    secret_ids, statistic, clog, threads, stop, pick_only)

    def first_perfect(self, guess_ids, secret_ids) -> int:
        return self.partition_stats(guess_ids, secret_ids, PARTS, NO_CLOG, False, stop=len(secret_ids))[2]


@register("marks")
def _words(game, guess_codes, secret_codes, backend) -> BlockFunction:
    """Per-letter marks, as a base-3 number looked up in a table."""
    word_matrix = backend_kernels(backend).word_matrix
    table = index_table(3 ** game.length, len(game.feedbacks()))
    for i, feedback in enumerate(game.feedbacks()):
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
                raise ValueError(f"{game!r}: score({guess}, ...) gave {error.args[0]!r}, "
                                 "which is not in the game's feedbacks()") from None
        return out
    return generic

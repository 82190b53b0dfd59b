"""Feedback in bulk: ``block(guess_ids, secret_ids)[i, j]`` is the index of
``score(guesses[i], secrets[j])`` in ``game.feedbacks()``, computed by the game's kernel
(``kinds.py``) over its codes (``codes.py``).

A ``Scorer`` keeps the whole guesses x secrets matrix when it fits the memory budget
(lookups are then one byte each) and otherwise computes blocks on demand, so that games
too big for a matrix still run in bounded memory.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from guesstree.player.game import Game

from .codes import Codes
from .kinds import backend_kernels
from .statistic import CLOG_SUM, NO_CLOG, PARTS, clog_table

COLUMN_MAX_CANDIDATES = 1024  # below this, a game with a symmetric score reads its matrix by columns


@dataclass(frozen=True)
class Tally:
    """What every count over a partition takes besides the guesses, the secrets and the statistic,
    fixed when a scorer is made: the game's number of feedbacks, its secrets (the c log c table's
    size), and whether kernels may start threads (not in a worker process: there is one per core)."""

    n_feedbacks: int
    n_secrets: int
    threads: bool = True

    def clog(self, statistic: int) -> np.ndarray:
        """The c log c table that ``statistic`` reads (made once per size), or none."""
        return _clog_table(self.n_secrets) if statistic == CLOG_SUM else NO_CLOG


_clog_table = functools.lru_cache(maxsize=4)(clog_table)


# -- where a scorer reads its answers ---------------------------------------------------------
#
# One of three sources, chosen when the scorer is made: ``Held`` (a matrix in memory), ``Computed``
# (blocks computed from the codes on demand) or ``FromCodes`` (partitions scored straight from the
# codes, ``PackedPegs``). Each gives ``block``, ``answers``, ``partition_stats``, ``first_perfect``
# and ``perfect_or_stats`` as ``Scorer`` documents them, counting as its ``tally`` says.


class Source:
    """Where a scorer reads its answers; ``perfect_or_stats``: ``first_perfect``, then if none
    ``partition_stats``."""

    matrix: np.ndarray | None = None  # [guess, secret], if held
    columns: np.ndarray | None = None  # [secret, guess], if held
    tally: Tally

    def perfect_or_stats(self, guess_ids, secret_ids, statistic, pick_only):
        first = self.first_perfect(guess_ids, secret_ids)
        if first >= 0:
            return first, None, None
        return -1, *self.partition_stats(guess_ids, secret_ids, statistic, pick_only)


class Held(Source):
    """Answers read from a matrix in memory: ``matrix[guess, secret]``, and ``columns[secret,
    guess]`` where the score is symmetric (the same array, for a whole square matrix; alone, for
    a part of one), read where few secrets make columns the cheaper way."""

    def __init__(self, matrix: np.ndarray | None, columns: np.ndarray | None, kernels, tally: Tally):
        self.matrix, self.columns, self.kernels, self.tally = matrix, columns, kernels, tally

    def block(self, guess_ids, secret_ids):
        if self.matrix is None:  # a part's columns alone
            return _cells(self.columns, secret_ids, guess_ids).T
        return _cells(self.matrix, guess_ids, secret_ids)

    def answers(self, guess, secret_ids):
        return self.columns[secret_ids, guess] if self.matrix is None else self.matrix[guess, secret_ids]

    def partition_stats(self, guess_ids, secret_ids, statistic, pick_only):
        tally, count = self.tally, self.kernels.partition_stats
        by_column = self.columns is not None and (len(secret_ids) < COLUMN_MAX_CANDIDATES or self.matrix is None)
        return count(self.columns if by_column else self.matrix, guess_ids, secret_ids, tally.n_feedbacks,
                     statistic, tally.clog(statistic), by_column=by_column, threads=tally.threads)

    def weighted_stats(self, guess_ids, secret_ids, statistic, weights):
        tally = self.tally
        by_column = self.columns is not None and (len(secret_ids) < COLUMN_MAX_CANDIDATES or self.matrix is None)
        return self.kernels.weighted_partition_stats(self.columns if by_column else self.matrix, guess_ids, secret_ids,
                                                     weights, tally.n_feedbacks, statistic, by_column=by_column,
                                                     threads=tally.threads)

    def first_perfect(self, guess_ids, secret_ids):
        by_column = self.columns is not None
        return self.kernels.first_perfect(self.columns if by_column else self.matrix, guess_ids, secret_ids,
                                          self.tally.n_feedbacks, by_column)


def _cells(matrix: np.ndarray, row_ids, column_ids) -> np.ndarray:
    """``matrix``'s cells at ``row_ids`` x ``column_ids`` (None: all of them)."""
    if row_ids is None and column_ids is None:
        return matrix
    rows = np.arange(matrix.shape[0]) if row_ids is None else row_ids
    return matrix[np.ix_(rows, np.arange(matrix.shape[1]) if column_ids is None else column_ids)]


class Computed(Source):
    """Answers computed from the codes on demand, a block of guesses at a time, in bounded memory."""

    def __init__(self, codes: Codes, kernels, tally: Tally):
        self.codes, self.kernels, self.tally = codes, kernels, tally

    def block(self, guess_ids, secret_ids):
        return self.codes.rows(guess_ids, secret_ids)

    def answers(self, guess, secret_ids):
        return self.codes.block(np.array([guess]), secret_ids)[0]

    def partition_stats(self, guess_ids, secret_ids, statistic, pick_only):
        every, tally = np.arange(len(secret_ids)), self.tally
        stats, parts = [], []
        for chunk in self.codes.chunks(guess_ids, len(secret_ids)):
            chunk_stats, chunk_parts = self.kernels.partition_stats(
                self.codes.block(chunk, secret_ids), np.arange(len(chunk)), every, tally.n_feedbacks, statistic,
                tally.clog(statistic), threads=tally.threads)
            stats.append(chunk_stats)
            parts.append(chunk_parts)
        return np.concatenate(stats), np.concatenate(parts)

    def weighted_stats(self, guess_ids, secret_ids, statistic, weights):
        every, tally = np.arange(len(secret_ids)), self.tally
        stats, parts = [], []
        for chunk in self.codes.chunks(guess_ids, len(secret_ids)):
            chunk_stats, chunk_parts = self.kernels.weighted_partition_stats(
                self.codes.block(chunk, secret_ids), np.arange(len(chunk)), every, weights, tally.n_feedbacks,
                statistic, threads=tally.threads)
            stats.append(chunk_stats)
            parts.append(chunk_parts)
        return np.concatenate(stats), np.concatenate(parts)

    def first_perfect(self, guess_ids, secret_ids):
        every, start = np.arange(len(secret_ids)), 0
        for chunk in self.codes.chunks(guess_ids, len(secret_ids)):
            index = self.kernels.first_perfect(self.codes.block(chunk, secret_ids), np.arange(len(chunk)), every,
                                               self.tally.n_feedbacks)
            if index >= 0:
                return start + index
            start += len(chunk)
        return -1


class FromCodes(Computed):
    """Blocks computed from the codes, and partitions scored straight from them (``PackedPegs``),
    so that a big game needs no matrix at all."""

    def partition_stats(self, guess_ids, secret_ids, statistic, pick_only):
        return self.first_with_parts(guess_ids, secret_ids, statistic, pick_only=pick_only)[:2]

    def first_perfect(self, guess_ids, secret_ids):
        return self.codes.block.first_perfect(guess_ids, secret_ids)

    def perfect_or_stats(self, guess_ids, secret_ids, statistic, pick_only):
        """In one scan, that stops at the first perfect guess."""
        stats, parts, first = self.first_with_parts(guess_ids, secret_ids, statistic, len(secret_ids), pick_only)
        return (first, None, None) if first >= 0 else (-1, stats, parts)

    def first_with_parts(self, guess_ids, secret_ids, statistic: int = PARTS, stop: int = 0, pick_only: bool = False):
        return packed_scan(self.codes, self.tally, guess_ids, secret_ids, statistic, stop, pick_only)


def packed_scan(codes: Codes, tally: Tally, guess_ids, secret_ids, statistic: int = PARTS, stop: int = 0,
                pick_only: bool = False):
    """``(stats, parts, first)`` straight from packed codes (``PackedPegs``), the scan stopping at
    the first guess of ``stop`` parts (0: none)."""
    return codes.block.partition_stats(guess_ids, secret_ids, statistic, tally.clog(statistic), tally.threads,
                                       stop=stop, pick_only=pick_only)


def computed(codes: Codes, tally: Tally) -> Computed:
    """The source that computes answers from ``codes``: straight from them where their kernel can."""
    kind = FromCodes if hasattr(codes.block, "partition_stats") else Computed
    return kind(codes, backend_kernels(codes.backend), tally)


class Scorer:
    """Feedback indices of (guess, secret) pairs, the one source of them while a tree is built:
    from the whole matrix when it fits ``max_memory`` (read by columns where the score is
    symmetric: ``columns``), from blocks on demand otherwise, or straight from the codes where the
    game's kernel can (``on_the_fly``); which of them is decided once, when it is made (its
    ``source``). ``shared``: keep the matrix in shared memory, for worker processes (``workers/pool.py``);
    ``matrix``: one made before (a worker's view of the shared one); ``whole``: False for no whole
    matrix (parts of it are made with ``part``); ``threads``: may kernels start threads (not in a
    worker process: there is one per core already)."""

    def __init__(self, game: Game, max_memory: int, backend: str = "numba", shared: bool = False,
                 matrix: np.ndarray | None = None, whole: bool | None = None, threads: bool = True):
        codes = Codes.of(game, max_memory, backend)
        memory = None  # the matrix's shared memory, if any
        # the whole matrix only when it leaves room for the rest of the build (and the codes' arrays)
        if matrix is None and whole is not False and codes.fits(len(codes.secret_codes)):
            matrix, memory = codes.whole(shared)
        tally = Tally(len(game.feedbacks()), len(codes.secret_codes), threads)
        source = computed(codes, tally) if matrix is None else \
            Held(matrix, matrix if codes.square else None, backend_kernels(backend), tally)
        self.codes, self.source, self.shared = codes, source, memory

    @classmethod
    def reading(cls, codes: Codes, source: Source) -> Scorer:
        """A scorer of ``codes`` that reads its answers from ``source``."""
        scorer = cls.__new__(cls)
        scorer.codes, scorer.source, scorer.shared = codes, source, None
        return scorer

    game = property(lambda self: self.codes.game)
    backend = property(lambda self: self.codes.backend)
    guess_codes = property(lambda self: self.codes.guess_codes)
    secret_codes = property(lambda self: self.codes.secret_codes)
    matrix = property(lambda self: self.source.matrix, doc="The matrix [guess, secret] it reads, if any.")
    columns = property(lambda self: self.source.columns, doc="The matrix by columns [secret, guess], if any.")
    tally = property(lambda self: self.source.tally, doc="What its counts take besides the guesses and secrets.")

    def part(self, secret_ids: np.ndarray, as_guesses: np.ndarray) -> Scorer | None:
        """A scorer of every guess against the secrets ``secret_ids`` alone (numbered 0 ..
        len(secret_ids)-1 there; ``as_guesses``: their guess indices), over a matrix of its own,
        if one fits the memory budget (else None). It answers from that matrix only."""
        if not self.codes.fits(len(secret_ids)):
            return None
        kernels = backend_kernels(self.backend)
        if self.codes.square:  # one matrix read by columns: [secret, guess], the part's guess rows
            held = Held(None, self.block(as_guesses, None), kernels, self.tally)
        else:
            held = Held(self.block(None, secret_ids), None, kernels, self.tally)
        return Scorer.reading(self.codes, held)

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

    def partition_stats(self, guess_ids: np.ndarray, secret_ids: np.ndarray, statistic: int,
                        pick_only: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """Per guess, a statistic of its partition of ``secret_ids`` and its part count (see
        ``kernels.partition_stats``): from the matrix (by columns for few secrets, where it can),
        else straight from the codes if the game can, else from blocks of guesses computed on demand.
        ``pick_only``: the statistics need be exact only for the best guesses (minimax's: see
        ``packed.packed_partition_stats``)."""
        return self.source.partition_stats(guess_ids, secret_ids, statistic, pick_only)

    def weighted_stats(self, guess_ids: np.ndarray, secret_ids: np.ndarray, statistic: int,
                       weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``partition_stats`` of a weighted game: each of ``secret_ids`` counts its weight (``weights``,
        whole numbers in their order) in its part; the statistic as float64 (``statistic.weighted_value``)."""
        return self.source.weighted_stats(guess_ids, secret_ids, statistic, weights)

    def perfect_or_stats(self, guess_ids: np.ndarray, secret_ids: np.ndarray, statistic: int,
                         pick_only: bool = False) -> tuple[int, np.ndarray | None, np.ndarray | None]:
        """``(first_perfect, None, None)`` if one of ``guess_ids`` puts every one of ``secret_ids`` in
        a part of its own, else ``(-1, *partition_stats)``: in one scan that stops at the first
        perfect guess where the game scores partitions from its codes."""
        return self.source.perfect_or_stats(guess_ids, secret_ids, statistic, pick_only)

    def first_with_parts(self, guess_ids: np.ndarray, secret_ids: np.ndarray, stop: int) -> tuple[int, np.ndarray]:
        """Where the game scores partitions from its codes (``on_the_fly``): the index of the first
        of ``guess_ids`` whose answers to ``secret_ids`` make ``stop`` parts (or -1), and the parts
        of each guess up to it (of every guess, when none does)."""
        _, parts, first = packed_scan(self.codes, self.tally, guess_ids, secret_ids, PARTS, stop)
        return first, parts

    def first_perfect(self, guess_ids: np.ndarray, secret_ids: np.ndarray) -> int:
        """The index of the first of ``guess_ids`` that puts every one of ``secret_ids`` in a part
        of its own, or -1."""
        return self.source.first_perfect(guess_ids, secret_ids)

    def release(self) -> None:
        """Free the shared matrix (a matrix in this process's own memory goes with the scorer)."""
        if self.shared is not None:
            self.source = computed(self.codes, self.tally)
            self.shared.release()
            self.shared = None

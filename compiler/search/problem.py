"""What every node of one exhaustive search reads and writes (``Problem``), and how a search
is told to stop.
"""
from __future__ import annotations

import weakref
from typing import NamedTuple

import numpy as np

# counters (one row per thread): what the searches did, for progress and reports
NODES, HITS, STORES = 0, 1, 2


class Stopped(Exception):
    """A search was told to stop (``Problem.stop``); what it had solved is in the table. Raised in
    the main thread (by Ctrl-C, see ``stop_all``), it is taken as the KeyboardInterrupt that Python
    could not raise there (numba raises no KeyboardInterrupt): ``STOPS`` catches both."""


STOPS = (KeyboardInterrupt, Stopped)  # what a stopped search raises

_flags: weakref.WeakValueDictionary = weakref.WeakValueDictionary()  # every live search's stop flag, by id


def stop_flag() -> np.ndarray:
    """A search's stop flag (one cell, polled by the compiled searches at every node and every
    guess they weigh), which ``stop_all`` reaches."""
    flag = np.zeros(1, dtype=np.int64)
    _flags[id(flag)] = flag
    return flag


def stop_all() -> None:
    """Tell every search of this process to stop: each compiled search raises ``Stopped`` within
    a guess's weighing. Safe from any thread (``cli/stops.py`` calls it on Ctrl-C and SIGTERM, also
    while the main thread runs a compiled search and cannot run Python's signal handlers)."""
    for flag in list(_flags.values()):
        flag[0] = 1


class Problem(NamedTuple):
    """What every node of one exhaustive search reads: the game's matrix and index maps, the
    counting tables, the hint rule's arrays (empty: no rule), the classes of guesses alike, and
    the table and this thread's counters that it writes. Made by keyword, in one place
    (``space.Space``)."""


    matrix: np.ndarray  # matrix[guess, secret]: feedback index
    by_secret: np.ndarray  # the same, read as by_secret[secret, guess] (the matrix itself if the score is symmetric)
    secret_guess: np.ndarray  # secret index -> its guess index
    guess_secret: np.ndarray  # guess index -> its secret index, or -1
    consistent: bool  # only candidates may be guessed
    n_feedbacks: int
    win: int  # the winning feedback's index
    least: np.ndarray  # see counting.py: the game's tables (least_by[children])
    least_blind: np.ndarray
    reach: np.ndarray
    children: int  # the most answers besides the win that any guess gets
    least_by: np.ndarray  # the tables by the most answers a node's guesses get (``counting.branching_tables``)
    least_blind_by: np.ndarray
    reach_by: np.ndarray
    hint_codes: np.ndarray  # see hint_kernels.py: per position, each guess's symbol there
    letter_counts: np.ndarray
    marks: np.ndarray
    table: np.ndarray  # the transposition table
    counters: np.ndarray  # this thread's row: NODES, HITS, STORES
    stop: np.ndarray  # one cell: set, the search raises Stopped at its next node
    # fewest-at-worst: what a secret won by the budget's last guess costs beyond its guesses (0:
    # nothing), more than the totals of two trees can differ, so that a total counts those secrets first
    penalty: int
    guess_symbols: np.ndarray  # each guess's symbols as bits (empty: no classes of guesses alike, see alike.py)
    secret_symbols: np.ndarray  # each secret's symbols as bits
    guess_codes: np.ndarray  # [guess, position]: its symbol
    repeats: bool  # guesses may repeat a symbol
    every_symbol: np.uint64  # the game's symbols as bits
    renames: bool  # symbols that no played guess has may be renamed (see ``lowest_renamed``)
    secret_class: np.ndarray  # each secret's class: secrets of the same symbols (empty: no classes)
    class_branching: np.ndarray  # per class, the most answers but the win that a guess gets on it

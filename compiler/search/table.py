"""The exhaustive searches' transposition table: what they solved, keyed by the node.

A flat array of entries keyed by a 128-bit hash of (candidate set, tag, salt): the tag is the
depth budget (``UNLIMITED`` when it cannot bind) of a minimum-total entry, or ``FEASIBLE_TAG``
for the worst-case search's; the salt stands for whatever else decides the node's value (a hard
mode's state, ``hint_kernels.hint_salt``). The searches of a process's threads share one table, so they
pool what they solve; an entry is three words ``(key1 ^ data, key2 ^ data, data)``, so a torn
write from two threads at once reads as a miss, never as a wrong answer. Losing an entry costs
time, not correctness. A checkpoint (``compiler/search/checkpoint.py``) holds a table's entries.
"""
from __future__ import annotations

import mmap

import numpy as np
from numba import njit

INF = (1 << 24) - 1  # "no tree within the budget", and the largest total an entry can hold
BUCKET = 4  # slots probed per key
UNLIMITED = 1 << 20  # depth budget that never binds
FEASIBLE_TAG = (1 << 20) + 1  # key namespace of the worst-case search
PENALTY_TAG = 1 << 21  # a minimum-total tag adds its search's penalty times this (see ``total_tag``)
SLOTS_MAX = 1 << 24  # 384 MiB of table at most
SLOTS_MIN = 1 << 12
ENTRY_BYTES = 24

M1 = np.uint64(0xBF58476D1CE4E5B9)
M2 = np.uint64(0x94D049BB133111EB)
GOLD = np.uint64(0x9E3779B97F4A7C15)
SEED2 = np.uint64(0xD6E8FEB86659FD93)
PURE_SALT = np.uint64(0x2545F4914F6CDD1D)  # a lookahead's own entries (``recursion.lookahead_bound``, pure)
S30, S27, S31 = np.uint64(30), np.uint64(27), np.uint64(31)


def slots_for(max_memory: int) -> int:
    """The table's size: a power of two, at most a 16th of the memory budget."""
    slots = SLOTS_MAX
    while slots > SLOTS_MIN and slots * ENTRY_BYTES > max_memory // 16:
        slots //= 2
    return slots


def empty_table(slots: int) -> np.ndarray:
    """An empty table of its own: anonymous mapped pages (numpy's zeros would ask for huge pages,
    and a table touched at random places would then hold 2 MiB for every entry)."""
    return np.frombuffer(mmap.mmap(-1, slots * ENTRY_BYTES), dtype=np.uint64).reshape(slots, 3)


@njit(cache=True, nogil=True)
def mix(x):
    x = (x ^ (x >> S30)) * M1
    x = (x ^ (x >> S27)) * M2
    return x ^ (x >> S31)


@njit(cache=True, nogil=True)
def set_key(candidates, tag, salt):
    """Two independent 64-bit hashes of (candidate set, tag, salt); ``salt`` stands for what
    else decides the node's value (a hard-mode state), 0 for nothing."""
    h1 = mix(np.uint64(tag) + GOLD) ^ salt
    h2 = mix(np.uint64(tag) ^ SEED2) ^ salt
    for c in candidates:
        v = np.uint64(c)
        h1 = mix(h1 ^ (v + GOLD))
        h2 = mix(h2 + (v ^ SEED2)) ^ (h2 >> S31)
    return h1, h2


@njit(cache=True, nogil=True)
def total_tag(n, budget, penalty):
    """A minimum-total entry's tag: the budget, or ``UNLIMITED`` where it cannot bind (a tree that
    learns at every guess wins n secrets within n; with a penalty on the budget's last guess a
    budget of n still binds), in the namespace of the search's penalty (0: none), so that an
    entry of one objective never answers for another (a checkpoint may hold both)."""
    binding = budget < n or (penalty > 0 and budget == n)
    return (budget if binding else UNLIMITED) + penalty * PENALTY_TAG


# data word: value (24 bits) | exact (1) | guess + 1 (21) | size (16, capped)
@njit(cache=True, nogil=True)
def pack(value, exact, guess, size):
    data = np.uint64(value) | (np.uint64(1 if exact else 0) << np.uint64(24))
    data |= np.uint64(guess + 1) << np.uint64(25)
    return data | (np.uint64(min(size, 65535)) << np.uint64(46))


@njit(cache=True, nogil=True)
def data_value(data):
    return np.int64(data & np.uint64(0xFFFFFF))


@njit(cache=True, nogil=True)
def data_exact(data):
    return (data >> np.uint64(24)) & np.uint64(1) == np.uint64(1)


@njit(cache=True, nogil=True)
def data_guess(data):
    return np.int64((data >> np.uint64(25)) & np.uint64(0x1FFFFF)) - 1


@njit(cache=True, nogil=True)
def data_size(data):
    return np.int64(data >> np.uint64(46))


@njit(cache=True, nogil=True)
def probe(table, h1, h2):
    """The entry's data word, or 0."""
    base = np.int64(h1 & np.uint64(table.shape[0] - 1)) & ~(BUCKET - 1)
    for i in range(base, base + BUCKET):
        data = table[i, 2]
        if data != 0 and (table[i, 0] ^ data) == h1 and (table[i, 1] ^ data) == h2:
            return data
    return np.uint64(0)


@njit(cache=True, nogil=True)
def store(table, h1, h2, data):
    """Write an entry over the same key (never an exact one over a bound), else into an empty
    slot, else over the entry of the smallest set: the cheapest to find again."""
    base = np.int64(h1 & np.uint64(table.shape[0] - 1)) & ~(BUCKET - 1)
    victim, smallest = base, 1 << 62
    for i in range(base, base + BUCKET):
        old = table[i, 2]
        if old == 0:
            if smallest >= 0:
                victim, smallest = i, -1
            continue
        if (table[i, 0] ^ old) == h1 and (table[i, 1] ^ old) == h2:
            if data_exact(old) and not data_exact(data):
                return
            victim = i
            break
        size = data_size(old)
        if size < smallest:
            victim, smallest = i, size
    table[victim, 2] = np.uint64(0)  # readers see a miss while the entry changes
    table[victim, 0] = h1 ^ data
    table[victim, 1] = h2 ^ data
    table[victim, 2] = data


@njit(cache=True, nogil=True)
def restore(table, entries):
    """Store saved entries (rows of a table) into ``table``, whatever its size."""
    for i in range(entries.shape[0]):
        data = entries[i, 2]
        if data != 0:
            store(table, entries[i, 0] ^ data, entries[i, 1] ^ data, data)


# A worst-case entry knows low <= (fewest guesses that win every candidate) <= high (0: unknown)
# and the guess that achieved ``high``: value = low | high << 12.
@njit(cache=True, nogil=True)
def depths(data):
    value = data_value(data)
    return value & 0xFFF, value >> 12


@njit(cache=True, nogil=True)
def remember_depths(table, h1, h2, low, high, guess, n):
    old = probe(table, h1, h2)
    if old != 0:
        old_low, old_high = depths(old)
        low = max(low, old_low)
        if high == 0 or (old_high and old_high < high):
            high, guess = old_high, data_guess(old)
    store(table, h1, h2, pack(min(low, 0xFFF) | (min(high, 0xFFF) << 12), False, guess, n))

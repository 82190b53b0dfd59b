"""A tree's statistics: guesses to win and guesses to determine, over every secret.

One type from end to end: the builder makes it from the depths it reached, the artifact's header
stores it (``to_header``: histograms as ``[guesses, secrets]`` pairs, which readers with string
keys can open), the reader checks and restores it (``from_header``), the verifier measures it
again, and ``info``, ``verify --json`` and ``compare --json`` print it (``to_json``). It is the
dict it replaced: ``stats["total"]``, ``stats["histogram"][5]``. A game whose secrets have weights
adds the three ``WEIGHTED`` figures (the objective is then the weighted total).
"""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from fractions import Fraction

from .format import FormatError

KEYS = ("secrets", "total", "average", "worst", "histogram",
        "determined_total", "determined_average", "determined_worst", "determined_histogram")
COUNTS = ("secrets", "total", "worst", "determined_total", "determined_worst")
AVERAGES = ("average", "determined_average")
HISTOGRAMS = ("histogram", "determined_histogram")
# a weighted game's: sum(weight * guesses to win), that over the total weight, and the total weight
WEIGHTED = ("weighted_total", "weighted_mean", "total_weight")


class Statistics(dict):
    """Guesses to win and to determine (the guess after which one secret is left), per secret: the
    dict of the nine ``KEYS`` (histograms keyed by int), so that ``json.dumps`` and every dict
    reader take it as before; its values also read as attributes (``stats.total``)."""

    def __init__(self, **values):
        """The nine ``KEYS``, by name: the secrets' count, then total, average, worst and histogram
        of the guesses to win, and the same four of the guesses to determine (``determined_total``, ...);
        a weighted game's, the three ``WEIGHTED`` too."""
        keys = KEYS + WEIGHTED if any(key in values for key in WEIGHTED) else KEYS
        if set(values) != set(keys):
            wrong = sorted(set(values) ^ set(keys))
            raise TypeError(f"Statistics takes exactly {', '.join(KEYS)} (and {', '.join(WEIGHTED)} or none of "
                            f"them); wrong or missing: {', '.join(wrong)}")
        super().__init__((key, values[key]) for key in keys)

    def __getattr__(self, key: str):
        if key in KEYS:
            return self[key]
        if key in WEIGHTED:  # None: an unweighted game's
            return self.get(key)
        raise AttributeError(f"'Statistics' object has no attribute {key!r}")

    @property
    def weighted(self) -> bool:
        """Are these a weighted game's (with the ``WEIGHTED`` figures)?"""
        return WEIGHTED[0] in self

    @classmethod
    def from_depths(cls, wins: Iterable[int], determined: Iterable[int], weights=None) -> Statistics:
        """From each secret's guesses to win and guesses to determine (0 for a game of one secret);
        ``weights``: each secret's (``Game.weights``; None: every one weighs 1, no weighted figures)."""
        wins, determined = [int(d) for d in wins], [int(d) for d in determined]
        n = len(wins)
        if n == 0 or len(determined) != n:
            raise ValueError(f"statistics need one depth of each kind per secret, not {n} and {len(determined)}")
        weighted = {} if weights is None else weighted_figures(wins, weights)
        return cls(secrets=n, total=sum(wins), average=sum(wins) / n, worst=max(wins), histogram=_histogram(wins),
                   determined_total=sum(determined), determined_average=sum(determined) / n,
                   determined_worst=max(determined), determined_histogram=_histogram(determined), **weighted)

    @classmethod
    def from_header(cls, stats, name: str = "<tree>") -> Statistics:
        """The header's statistics, checked: ``FormatError`` names the file and the bad entry."""
        if not isinstance(stats, dict) or any(key not in stats for key in KEYS):
            raise FormatError(f"{name}: the header's statistics are missing or incomplete")
        for key in COUNTS:
            if type(stats[key]) is not int or stats[key] < 0:
                raise FormatError(f"{name}: the statistic {key!r} is {stats[key]!r}, not a whole number")
        for key in AVERAGES:
            value = stats[key]
            if type(value) not in (int, float) or not (math.isfinite(value) and value >= 0):
                raise FormatError(f"{name}: the statistic {key!r} is {value!r}, not a number")
        histograms = {}
        for key in HISTOGRAMS:  # stored as [[guesses, secrets], ...]
            pairs = stats[key]
            if not isinstance(pairs, list) or not all(
                    isinstance(p, list) and len(p) == 2 and all(type(x) is int and x >= 0 for x in p) for p in pairs):
                raise FormatError(f"{name}: the statistic {key!r} is not a list of [guesses, secrets] pairs")
            if any(a[0] >= b[0] for a, b in zip(pairs, pairs[1:])):
                raise FormatError(f"{name}: the statistic {key!r} is not in increasing order of guesses")
            histograms[key] = {guesses: secrets for guesses, secrets in pairs}
        return cls(**{key: histograms.get(key, stats[key]) for key in KEYS}, **_weighted_from_header(stats, name))

    def to_header(self) -> dict:
        """As the artifact's header holds them (trees/FORMAT.md §2.3): histograms as pairs."""
        return {key: [[k, v] for k, v in self[key].items()] if key in HISTOGRAMS else self[key] for key in self}

    def to_json(self) -> dict:
        """As JSON holds them: histograms keyed by the number of guesses, as strings."""
        return {key: {str(k): v for k, v in sorted(self[key].items())} if key in HISTOGRAMS else self[key]
                for key in self}

    def __repr__(self) -> str:
        return f"Statistics({', '.join(f'{key}={self[key]!r}' for key in self)})"


def weighted_figures(wins: list[int], weights) -> dict[str, float]:
    """The ``WEIGHTED`` figures of secrets won in ``wins`` guesses, each of its weight: summed
    exactly (weights are fractions), then as float64."""
    weights = [Fraction(w) for w in weights]
    if len(weights) != len(wins):
        raise ValueError(f"weighted statistics need one weight per secret, not {len(weights)} for {len(wins)}")
    total, weight = sum(w * d for w, d in zip(weights, wins)), sum(weights)
    return {"weighted_total": float(total), "weighted_mean": float(total / weight), "total_weight": float(weight)}


def _weighted_from_header(stats: dict, name: str) -> dict[str, float]:
    """A weighted game's three figures in the header (all or none), each a finite positive number."""
    present = [key for key in WEIGHTED if key in stats]
    if not present:
        return {}
    if len(present) != len(WEIGHTED):
        missing = next(key for key in WEIGHTED if key not in stats)
        raise FormatError(f"{name}: the header's statistics have {present[0]!r} but not {missing!r}")
    for key in WEIGHTED:
        value = stats[key]
        if type(value) not in (int, float) or not (math.isfinite(value) and value > 0):
            raise FormatError(f"{name}: the statistic {key!r} is {value!r}, not a positive number")
    return {key: float(stats[key]) for key in WEIGHTED}


def _histogram(depths: list[int]) -> dict[int, int]:
    counts = Counter(depths)
    return {k: counts[k] for k in sorted(counts)}

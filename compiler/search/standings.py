"""What the ranking of the first guesses found, and how it is said: one first guess (``Opener``),
the best of them with how every other was refuted (``Ranking``, what ``guesstree openers`` prints),
and one first guess's exact rank (``FirstRank``, ``openers --first``). The search is ``ranking.py``."""
from __future__ import annotations

from dataclasses import dataclass

from guesstree.player.wording import counted

BOUND, SEARCH = "bound", "search"  # how a first guess was settled: by a bound alone, or by a search


@dataclass
class Opener:
    """What is known of one first guess (``guess``: its index, ``code``: as the game writes it):
    its exact ``total`` (None if only ``at_least`` is proven), its ``bound`` before any search, how
    it was settled (``BOUND``: by a bound alone; ``SEARCH``: a search of its parts), and the CPU
    seconds its job took; for one of the best, the ``worst`` case of its canonical optimal tree."""

    guess: int
    code: str
    total: int | None = None
    at_least: int | None = None
    bound: int | None = None
    settled: str = BOUND
    cpu_seconds: float = 0.0
    worst: int | None = None

    @property
    def value(self) -> int:
        return self.total if self.total is not None else self.at_least

    def average(self, secrets: int) -> float:
        return self.total / secrets

    def line(self) -> dict:
        """One line of ``--report``: the guess, its total (or the bound proven), how it was settled."""
        known = {"total": self.total} if self.total is not None else {"at_least": self.at_least}
        return {"guess": self.code, **known, "settled": self.settled, "cpu_seconds": round(self.cpu_seconds, 4)}


@dataclass
class Ranking:
    """What ``rank_openers`` proved: the ``top`` best first guesses (``best``, exact, in order) and
    what is known of every first guess (``openers``, in canonical order), with the effort."""

    secrets: int
    top: int
    by_class: bool  # one first guess per symmetry class
    best: list[Opener]
    openers: list[Opener]
    max_depth: int | None = None
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    nodes: int = 0
    useless: int = 0  # first guesses that learn nothing (never ranked; each needs more than any other)

    @property
    def kth(self) -> int | None:
        return self.best[-1].total if self.best else None

    def refuted(self) -> dict[str, int]:
        """How the first guesses outside the best were settled: by a bound alone, by search."""
        ranked = {o.guess for o in self.best}
        counts = {BOUND: 0, SEARCH: 0}
        for opener in self.openers:
            if opener.guess not in ranked:
                counts[opener.settled] += 1
        return counts

    def text(self, game) -> str:
        """What ``openers`` prints: the game, the best in a table, how the others were refuted."""
        classes = " (one per symmetry class)" if self.by_class else ""
        lines = [f"{_heading(game, self.secrets, self.max_depth)}: the {len(self.best)} best of "
                 f"{counted(len(self.openers), 'first guess', 'first guesses')}{classes} by the least total "
                 f"(optimal-expected)", f"{'rank':>4}  {'guess':<12} {'total':>7} {'average':>8} {'worst':>5}"]
        lines += [f"{rank:>4}  {o.code:<12} {o.total:>7} {o.average(self.secrets):>8.3f} {o.worst:>5}"
                  for rank, o in enumerate(self.best, 1)]
        others, refuted = len(self.openers) - len(self.best), self.refuted()
        if self.best and others:
            lines.append(f"every other first guess ({others}) is proven to need more than {self.kth} guesses, or "
                         f"{self.kth} and to come later in the canonical order: {refuted[BOUND]} by a bound alone, "
                         f"{refuted[SEARCH]} by search {_timing(self)}")
        if self.useless:
            lines.append(f"({counted(self.useless, 'first guess', 'first guesses')} that every secret answers alike "
                         "left out)")
        return "\n".join(lines)

    def to_dict(self) -> dict:
        return {"secrets": self.secrets, "top": self.top, "max_depth": self.max_depth,
                "first_guesses": len(self.openers), "by_class": self.by_class,
                "openers": [{"guess": o.code, "total": o.total, "average": round(o.average(self.secrets), 4),
                             "worst": o.worst} for o in self.best],
                "refuted": self.refuted(), "seconds": round(self.seconds, 3),
                "cpu_seconds": round(self.cpu_seconds, 3), "nodes": self.nodes}


@dataclass
class FirstRank:
    """What ``rank_of`` proved of one first guess: its exact total and worst case (``opener``), and
    its exact ``rank`` among the ``first_guesses`` (one per symmetry class in a game with symmetries
    (``by_class``), ranked by total, then by the canonical guess order of the guess that stands for
    each class: ``stands_for`` for the opener's own, when that is another guess). Each of the others
    is proven ``better`` (its exact total below, by a search), or worse: by a bound alone, or by a
    search (``refuted``), the same in every run."""

    secrets: int
    opener: Opener
    first_guesses: int
    rank: int
    better: list[Opener]
    refuted: dict[str, int]
    by_class: bool = False
    stands_for: str | None = None
    max_depth: int | None = None
    seconds: float = 0.0
    cpu_seconds: float = 0.0

    def to_dict(self) -> dict:
        opener = self.opener
        return {"secrets": self.secrets, "max_depth": self.max_depth,
                "first": {"guess": opener.code, "total": opener.total,
                          "average": round(opener.average(self.secrets), 4), "worst": opener.worst},
                "rank": {"rank": self.rank, "of": self.first_guesses, "by_class": self.by_class,
                         "class_of": self.stands_for or opener.code,
                         "better": [{"guess": o.code, "total": o.total} for o in self.better],
                         "refuted": self.refuted},
                "seconds": round(self.seconds, 3), "cpu_seconds": round(self.cpu_seconds, 3)}

    def text(self, game) -> str:
        """What ``openers --first`` prints: the game, then the first guess's total and rank."""
        opener, classes = self.opener, " (one per symmetry class)" if self.by_class else ""
        stands = f", {opener.code} in {self.stands_for}'s" if self.stands_for else ""
        shown = ", ".join(f"{o.code} {o.total}" for o in self.better[:5]) + (", ..." if len(self.better) > 5 else "")
        better = f"{len(self.better)} proven better ({shown}), " if self.better else ""
        worse = self.first_guesses - self.rank
        return (f"{_heading(game, self.secrets, self.max_depth)}\n"
                f"{opener.code}: total {opener.total}, average {opener.average(self.secrets):.3f}, worst {opener.worst}; "
                f"rank {self.rank} of {self.first_guesses} first guesses{classes}{stands}: {better}{worse} proven "
                f"worse ({self.refuted[BOUND]} by a bound alone, {self.refuted[SEARCH]} by search) {_timing(self)}")


def _heading(game, secrets: int, max_depth: int | None) -> str:
    within = "" if max_depth is None else f", every secret within {max_depth} guesses"
    return f"{game.title()}, {counted(secrets, 'secret')}{within}"


def _timing(found) -> str:
    return f"({found.seconds:.1f} s, {found.cpu_seconds:.1f} CPU-s in the jobs)"

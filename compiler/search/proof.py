"""What an exhaustive search proved, as data, and the sentences the artifact and ``bound`` print;
and what it minimises (``Objective``: an exhaustive strategy carries one into the search).

``WorstCase``: the fewest guesses that win every secret (a tree that does it, and why one fewer
cannot). ``LeastTotal``: the least total (within a depth), optimal or only among some openers.
Their ``to_dict`` is what the artifact's strategy records (trees/FORMAT.md §2.2) and what
``bound --json`` prints.
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Objective:
    """What an exhaustive strategy (``name``) minimises: the least total, within ``--max-depth`` if
    given; with ``worst_first``, within the fewest guesses in the worst case instead; with
    ``late_first`` as well, the fewest secrets that need that many first, then the least total
    (each such secret weighed by a penalty)."""

    name: str
    worst_first: bool = False
    late_first: bool = False

    def penalty(self, secrets: int, depth: int, least: int) -> int:
        """The weight of a secret won by the ``depth``-th guess (0: none): more than the totals of
        any two trees within ``depth`` can differ (from ``least``, the least total by counting, to
        ``depth`` per secret), so that the least weighted total has the fewest such secrets first."""
        return secrets * depth - least + 1 if self.late_first else 0

    def claim(self, proof: LeastTotal, opening: str) -> str:
        """What ``proof`` says was proven for this objective (``opening``: which trees it is about)."""
        if proof.weighted_total is not None:
            weighted = (f"has a weighted total below {proof.weighted_total} over the {proof.secrets} secrets "
                        f"(of total weight {proof.total_weight})")
            if self.worst_first:
                return (f"exhaustive search: no tree{opening} wins every secret within {proof.depth - 1} "
                        f"guesses, and none within {proof.depth} {weighted}")
            within = "" if proof.depth is None else f" among trees that win every secret within {proof.depth} guesses"
            return f"exhaustive search: no tree{opening} {weighted}{within}"
        if self.late_first:
            late = proof.late
            return (f"exhaustive search: no tree{opening} wins every secret within {proof.depth - 1} guesses, "
                    f"every tree within {proof.depth} needs {proof.depth} for at least {late} "
                    f"secret{'s' * (late != 1)}, and none with {late} takes fewer than {proof.total} guesses in all")
        if self.worst_first:
            return (f"exhaustive search: no tree{opening} wins every secret within {proof.depth - 1} "
                    f"guesses, and none within {proof.depth} takes fewer than {proof.total} guesses in all")
        within = "" if proof.depth is None else f" among trees that win every secret within {proof.depth} guesses"
        return (f"exhaustive search: no tree{opening} takes fewer than {proof.total} guesses in all "
                f"over the {proof.secrets} secrets{within}")


OPTIMAL_WORST = Objective("optimal-worst", worst_first=True)
OPTIMAL_EXPECTED = Objective("optimal-expected")
FEWEST_AT_WORST = Objective("fewest-at-worst", worst_first=True, late_first=True)
OBJECTIVES = {o.name: o for o in (OPTIMAL_WORST, OPTIMAL_EXPECTED, FEWEST_AT_WORST)}


@dataclass(frozen=True)
class WorstCase:
    """The fewest guesses that win every secret, and its proof both ways."""

    depth: int  # the optimal worst case
    first_guess: str  # the opener of a tree that achieves it, as the game writes it
    tree_total: int  # that tree's total and nodes
    tree_nodes: int
    counted: int  # the least depth that counting alone allows
    secrets: int
    reachable: int  # the most secrets any tree of depth - 1 guesses can win
    children: int  # the most answers besides the win that any guess gets
    root_guesses: int  # first guesses the search refuted at depth - 1
    by_class: bool  # one first guess per symmetry class

    def lower(self) -> str:
        """Why no tree wins every secret within one guess fewer."""
        if self.depth == self.counted:
            return (f"{self.secrets} secrets are more than any tree of {self.depth - 1} guesses can win "
                    f"({self.reachable}: no guess gets more than {self.children} answers besides the win)")
        if self.depth - 1 == 2:  # refuted by the compiled search at once: no first guess splits all apart
            return "exhaustive search: no first guess gives every secret a different answer"
        classes = " (one per symmetry class)" if self.by_class else ""
        return (f"exhaustive search: none of the {self.root_guesses} first guesses{classes} "
                f"leaves parts that can all be won within {self.depth - 2} more guesses")

    def to_dict(self) -> dict:
        return {
            "upper": {"depth": self.depth, "first_guess": self.first_guess,
                      "tree_total": self.tree_total, "tree_nodes": self.tree_nodes},
            "lower": {"impossible": self.depth - 1, "by": self.lower()},
        }


@dataclass(frozen=True)
class LeastTotal:
    """The least total of any tree (among those of ``depth`` guesses at most, if given), proven
    by exhaustive search: optimal, or (with ``--openers``) optimal among the openers searched."""

    objective: Objective  # with worst_first, ``depth`` is the fewest guesses in the worst case
    total: int
    depth: int | None
    secrets: int
    first: str | None = None  # the fixed opener (--first), as the game writes it
    scope: dict = field(default_factory=dict)  # with --openers: openers, of, ranked_by
    late: int | None = None  # fewest-at-worst: the fewest secrets that need ``depth`` guesses
    # the full proof over many first guesses (``ranking.ranked_root``): first_guesses, by_class,
    # refuted_by_bound, refuted_by_search
    first_guesses: dict = field(default_factory=dict)
    # a weighted game's (``Game.weights``): the least weighted total, and the weights' sum, as exact
    # decimal text (``weighted_search.decimal_text``); ``total`` is then its tree's plain total
    weighted_total: str | None = None
    total_weight: str | None = None

    @property
    def optimal(self) -> bool:
        return not self.scope or self.scope["openers"] >= self.scope["of"]

    def sentence(self) -> str:
        opening = "" if self.first is None else f" opening with {self.first}"
        if not self.optimal:
            opening = (f" opening with one of the {self.scope['openers']} best first guesses by "
                       f"{self.scope['ranked_by']}")
        said = self.objective.claim(self, opening)
        if self.first_guesses:
            found = self.first_guesses
            classes = " (one per symmetry class)" if found["by_class"] else ""
            said += (f"; of the {found['first_guesses']} first guesses{classes}, {found['refuted_by_bound']} are "
                     f"refuted by a bound alone and {found['refuted_by_search']} by search")
        if not self.optimal:
            openers = self.scope["openers"]
            return f"optimal among {openers} opener{'s' * (openers > 1)} (of {self.scope['of']}), not proven optimal; " \
                + said
        return said

    def to_dict(self) -> dict:
        proof: dict = {"optimal": True}
        if not self.optimal:
            openers = self.scope["openers"]
            proof = {"optimal": False, "optimal_among": f"{openers} opener{'s' * (openers > 1)}",
                     "openers_ranked_by": self.scope["ranked_by"], "openers_of": self.scope["of"]}
        if self.objective.worst_first:
            proof["minimum_worst"] = self.depth
        if self.late is not None:
            proof["fewest_at_worst"] = self.late
        if self.weighted_total is not None:  # (the plain total of a tree of the least weighted total is no minimum)
            proof["minimum_weighted_total"] = self.weighted_total
        else:
            proof["minimum_total"] = self.total
        if self.first_guesses:  # flat: the strategy map holds no maps (trees/FORMAT.md §2.2)
            found = self.first_guesses
            proof.update(first_guesses=found["first_guesses"], first_guesses_by_class=found["by_class"],
                         refuted_by_bound=found["refuted_by_bound"], refuted_by_search=found["refuted_by_search"])
        proof["proven"] = self.sentence()
        return proof

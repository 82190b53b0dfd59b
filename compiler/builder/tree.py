"""A built tree, ready to be written (trees/FORMAT.md's arrays): its nodes in memory (``Nodes``),
or its first guess's subtrees in the build's spool on disk (``Spooled``), breadth first either way."""
from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Iterator

import numpy as np

from guesstree.player.games import Game
from guesstree.player.stats import Statistics

from ..options import Options


class Built:
    """A complete tree, ready to be written (see trees/FORMAT.md for the arrays): its nodes in
    memory (``Nodes``), or in the build's spool on disk (``Spooled``)."""

    def __init__(self, game: Game, options: Options, tree: Nodes | Spooled | None = None,
                 stats: Statistics | None = None):
        self.game, self.options = game, options
        self.tree = tree if tree is not None else Nodes([], [], [])
        self.stats = stats  # set once the tree is complete
        self.proof: dict = {}  # what an exhaustive strategy proved (joins the strategy spec)
        # how its search settled the first guesses, {"bound": n, "search": m}: effort, not in the artifact
        self.first_guesses: dict = {}

    @property
    def nodes(self) -> int:
        return self.tree.count

    # the whole tree's arrays, as lists (a spooled tree's read into memory: for small trees and tests)
    @property
    def node_guess(self) -> list[int]:  # guess index per node
        return self.tree.column(0)

    @property
    def edge_counts(self) -> list[int]:  # children per node
        return self.tree.column(1)

    @property
    def edge_feedback(self) -> list[int]:  # feedback index per edge; edge e leads to node e + 1
        return self.tree.column(2)


@dataclass
class Nodes:
    """A tree's arrays in memory, breadth first."""

    node_guess: list[int]
    edge_counts: list[int]
    edge_feedback: list[int]

    @property
    def count(self) -> int:
        return len(self.node_guess)

    def column(self, k: int) -> list[int]:
        return (self.node_guess, self.edge_counts, self.edge_feedback)[k]

    def levels(self) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """The arrays in pieces of consecutive nodes, each with its nodes' edges (here one piece)."""
        yield tuple(np.asarray(column, dtype=np.int64) for column in (self.node_guess, self.edge_counts, self.edge_feedback))


class Spooled:
    """A tree whose first guess's subtrees are records of a spool (``spool.py``): read level by
    level, in feedback order, when the tree is written."""

    def __init__(self, root: tuple[int, int, list[int]], spool, jobs: int):
        self.root, self.spool, self.jobs = root, spool, jobs
        self.count = 1 + sum(spool.nodes.values())

    def levels(self) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        guess, count, feedbacks = self.root
        yield np.array([guess]), np.array([count]), np.array(feedbacks, dtype=np.int64)
        for depth in range(max(self.spool.depths.values(), default=0)):  # a job's record is read per level it has
            for job in range(self.jobs):
                if depth < self.spool.depths[job]:
                    yield self.spool.record(job).levels[depth]

    def column(self, k: int) -> list[int]:
        return [int(v) for piece in self.levels() for v in piece[k]]

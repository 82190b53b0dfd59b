"""Expanding a strategy below a node, breadth first: nodes numbered in the order they are expanded,
children in feedback order, so a node's children are consecutive and every child comes after its
parent (``expand``); and the jobs that expand pieces of a tree elsewhere (``expand_job``, and for a
cluster ``top_job`` with ``spliced``), which give the same subtree as ``expand`` here."""
from __future__ import annotations

import math
import time
from collections import deque
from dataclasses import dataclass, field
from collections.abc import Callable

import numpy as np

from .context import BuildContext, Node


@dataclass
class Subtree:
    """The nodes below one node, breadth first, level by level, and what they settle."""

    levels: list[tuple[list[int], list[int], list[int]]] = field(default_factory=list)  # (guesses, edge counts, edge feedbacks)
    wins: list[tuple[int, int]] = field(default_factory=list)  # (secret, guesses to win)
    determined: list[tuple[int, int]] = field(default_factory=list)  # (secret, guesses to determine)
    work: int = 0  # the candidates of the nodes split (``Work``)

    def level(self, index: int):
        while len(self.levels) <= index:
            self.levels.append(([], [], []))
        return self.levels[index]


class Work:
    """How much of a build is done, in the unit that its time goes in: a node split costs its
    candidates (a scan of the guesses over each), except on the first two levels, whose guesses
    are few by symmetry. What is still ahead below an open node of ``s`` candidates is guessed as
    the estimate's model has it (``estimate.DEPTH_PER_LOG``): ``s`` on each of its levels still to
    split, ``DEPTH_PER_LOG ln s / ln answers`` of them. The guess is made again as each node opens,
    so it is exact when the build ends."""

    FREE_LEVELS = 2  # the root's and its children's guesses, few by symmetry: cheap

    def __init__(self, answers: int):
        from .estimate import DEPTH_PER_LOG

        self._per_log = DEPTH_PER_LOG / math.log(max(answers, 2))

    @classmethod
    def of(cls, node_size: int, depth: int) -> int:
        """What splitting a node of ``node_size`` candidates at ``depth`` (the root's: 1) costs
        (two or fewer candidates: nothing, no scan)."""
        return node_size if node_size > 2 and depth > cls.FREE_LEVELS else 0

    def ahead(self, node_size: int, depth: int) -> float:
        """The work guessed at and below an open node of ``node_size`` candidates at ``depth``."""
        if node_size <= 2:
            return 0.0
        levels = max(1.0, self._per_log * math.log(node_size)) - max(0, self.FREE_LEVELS + 1 - depth)
        return node_size * max(levels, 0.0)


def expand(context: BuildContext, start: Node, progress: Callable[[int, int, int, float], None] | None = None,
           strategy=None) -> Subtree:
    """Expand ``strategy`` (default the options') below ``start``, breadth first; children in
    feedback order. ``progress(solved, nodes, work, ahead)``: the secrets won and the nodes placed
    so far, the work done (``subtree.work``) and the work guessed still ahead (``Work``)."""
    strategy = strategy or context.options.strategy
    subtree, measure = Subtree(), Work(context.n_feedbacks)
    queue = deque([start])
    top, placed, ahead = len(start.path), 0, measure.ahead(len(start.candidates), len(start.path) + 1)
    while queue:
        node = queue.popleft()
        placed += 1
        candidates = node.candidates
        depth = len(node.path) + 1
        guesses, counts, feedbacks = subtree.level(depth - 1 - top)
        if len(candidates) == 1:  # a leaf: play the secret
            guesses.append(int(context.secret_guess[candidates[0]]))
            counts.append(0)
            subtree.wins.append((int(candidates[0]), depth))
            if progress is not None:
                progress(len(subtree.wins), placed, subtree.work, ahead)
            continue
        guess, parts = split(context, strategy, node, subtree)
        guesses.append(guess)
        counts.append(len(parts))
        subtree.work += measure.of(len(candidates), depth)
        ahead -= measure.ahead(len(candidates), depth)
        for answer, child in parts:
            feedbacks.append(answer)
            queue.append(child)
            ahead += measure.ahead(len(child.candidates), depth + 1)
        if progress is not None:
            progress(len(subtree.wins), placed, subtree.work, max(ahead, 0.0))
    return subtree


def split(context: BuildContext, strategy, node: Node, subtree: Subtree) -> tuple[int, list[tuple[int, Node]]]:
    """Choose the node's guess and partition its candidates: ``(guess, [(feedback, child)])``,
    recording in ``subtree`` the secrets that the guess wins or determines."""
    guess = context.first if context.first is not None and not node.path else int(strategy.choose(context, node))
    answers = context.answers(guess, node.candidates)
    order = np.argsort(answers, kind="stable")
    answers, candidates = answers[order], node.candidates[order]
    cuts = (np.flatnonzero(answers[1:] != answers[:-1]) + 1).tolist()
    if not cuts and answers[0] != context.win_index:
        if not node.path and context.first is not None:
            raise ValueError(f"--first {context.options.first} tells nothing about the secret: every secret "
                             "gives it the same answer")
        raise RuntimeError(f"strategy {strategy.name} made no progress at path {node.path}")
    depth = len(node.path) + 1
    played = node.played + (guess,)
    children = []
    starts = [0, *cuts]
    for answer, start, end in zip(answers[starts].tolist(), starts, [*cuts, len(candidates)]):
        part = candidates[start:end]
        if end - start == 1:
            subtree.determined.append((int(part[0]), depth))
        if answer == context.win_index:
            subtree.wins.append((int(part[0]), depth))
        else:
            children.append((answer, Node(part, node.path + (answer,), played)))
    return guess, children


def top_job(context: BuildContext, node: Node, split_min: int):
    """The subtree below ``node``, or for a node of ``split_min`` secrets or more its top: the
    node's guess alone (a ``Subtree`` of one level) and the nodes below it."""
    if len(node.candidates) < split_min:
        return expand(context, node)
    top = Subtree(work=Work.of(len(node.candidates), len(node.path) + 1))
    guess, children = split(context, context.options.strategy, node, top)
    guesses, counts, feedbacks = top.level(0)
    guesses.append(guess)
    counts.append(len(children))
    feedbacks.extend(answer for answer, _ in children)
    return top, [child for _, child in children]


def spliced(top: Subtree, pieces: list[Subtree]) -> Subtree:
    """``top`` (one node) with the subtrees below its children, in feedback order, level by level."""
    for depth in range(max((len(piece.levels) for piece in pieces), default=0)):
        level = top.level(depth + 1)
        for piece in pieces:
            if depth < len(piece.levels):
                for column, values in zip(level, piece.levels[depth]):
                    column.extend(values)
    for piece in pieces:
        top.wins.extend(piece.wins)
        top.determined.extend(piece.determined)
        top.work += piece.work
    return top


REPORT_SECONDS = 0.5  # a job tells its progress at most this often


def expand_job(context: BuildContext, node: Node, by_parts: bool, report: Callable | None = None,
                every: float = REPORT_SECONDS) -> Subtree:
    """The subtree below ``node``; ``by_parts``: over a matrix of the node's secrets, made here
    and dropped after (secrets numbered within the part, then numbered back); ``report((secrets
    won, nodes placed, work done, work ahead))`` at most every ``every`` seconds while it runs."""
    progress = None
    if report is not None:
        last = [time.monotonic()]

        def progress(*so_far) -> None:
            if time.monotonic() - last[0] >= every:
                last[0] = time.monotonic()
                report(so_far)
    if not by_parts:
        return expand(context, node, progress)
    part = node.candidates
    narrow = context.for_part(part)
    if narrow is context:  # no matrix of the part fits the budget: the secrets keep their numbers
        return expand(context, node, progress)
    subtree = expand(narrow, Node(np.arange(len(part), dtype=np.int64), node.path, node.played), progress)
    subtree.wins = [(int(part[secret]), depth) for secret, depth in subtree.wins]
    subtree.determined = [(int(part[secret]), depth) for secret, depth in subtree.determined]
    return subtree

"""The verifier: replays every secret through a tree with the game's own pure-Python scorer.

It trusts nothing the compiler wrote: the guesses are checked against the game's allowed
guesses, every edge's feedback against ``game.score``, and the header's statistics
against what the replay measures.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field

from .format import FormatError
from .games import Game
from .stats import KEYS, WEIGHTED, Statistics
from .tree import Tree, load
from .wording import counted

MAX_ERRORS = 20


@dataclass
class Report:
    ok: bool
    secrets: int
    worst: int
    total: int
    average: float
    histogram: dict[int, int]
    determined_histogram: dict[int, int]
    errors: list[str] = field(default_factory=list)
    # a weighted game's (``stats.WEIGHTED``): the weighted total and mean, the total weight; else None
    weighted_total: float | None = None
    weighted_mean: float | None = None
    total_weight: float | None = None

    def to_json(self) -> dict:
        data = asdict(self)
        for key in ("histogram", "determined_histogram"):
            data[key] = {str(k): v for k, v in sorted(data[key].items())}  # as Statistics.to_json has them
        for key in WEIGHTED:  # only a weighted game's report has them
            if data[key] is None:
                del data[key]
        return data


def said_code(game: Game, code) -> str:
    """A code as the game writes it, or as Python does if the game cannot (a tree's bad guess)."""
    try:
        return game.format_code(code)
    except (ValueError, IndexError, TypeError):
        return repr(code)


def said_feedback(game: Game, feedback) -> str:
    """Feedback as the game writes it, or as Python does if the game cannot."""
    try:
        return game.format_feedback(feedback)
    except (ValueError, IndexError, KeyError, TypeError):
        return repr(feedback)


def verify(tree: Tree, max_depth: int | None = None) -> Report:
    """Replay every secret; ``ok`` only if each is won (within ``max_depth``) and all checks hold."""
    game = tree.game
    errors: list[str] = []

    def error(message: str) -> None:
        if len(errors) < MAX_ERRORS:
            errors.append(message)
        elif len(errors) == MAX_ERRORS:
            errors.append("... more errors not shown")

    # Each secret is won at its own node (the one guessing it), so a game with more secrets than
    # the tree has nodes cannot be solved: say so before listing a possibly astronomic game (a
    # hostile header may name 26**12 codes; the built-in games count and check without listing).
    count = game.secret_count()
    if count > tree.nodes:
        error(f"{game} has {counted(count, 'secret')}, but the tree only {counted(tree.nodes, 'node')}: "
              "each secret needs its own winning node")
        return Report(ok=False, secrets=count, worst=0, total=0, average=0.0,
                      histogram={}, determined_histogram={}, errors=errors)
    secrets = game.secrets
    if not secrets:
        error(f"{game} has no secrets")
        return Report(ok=False, secrets=0, worst=0, total=0, average=0.0,
                      histogram={}, determined_histogram={}, errors=errors)
    wins, determined, reached = _replay(tree, secrets, error)

    if (unreached := reached.find(0)) >= 0:
        error(f"node {unreached} is unreachable")
    lost = [s for s in range(len(secrets)) if s not in wins]
    if lost:
        error(f"{counted(len(lost), 'secret')} {'is' if len(lost) == 1 else 'are'} never won, "
              f"e.g. {game.format_code(secrets[lost[0]])}")
    if lost:  # what the secrets that are won measure, for the report
        win_counts = list(wins.values())
        histogram = dict(sorted(Counter(win_counts).items()))
        determined_histogram = dict(sorted(Counter(d for d in determined if d >= 0).items()))
        total, worst = sum(win_counts), max(win_counts, default=0)
    else:
        measured = Statistics.from_depths([wins[s] for s in range(len(secrets))], determined, game.weights)
        histogram, determined_histogram = measured.histogram, measured.determined_histogram
        total, worst = measured.total, measured.worst
    if max_depth is not None and worst > max_depth:
        deep = min((s for s, d in wins.items() if d == worst))
        over = sum(count for depth, count in histogram.items() if depth > max_depth)
        error(f"{counted(over, 'secret')} {'takes' if over == 1 else 'take'} more than {counted(max_depth, 'guess', 'guesses')}, "
              f"the bound, e.g. {game.format_code(secrets[deep])} takes {worst}")
    if tree.allowed_guesses is not None and tree.allowed_guesses <= len(game.guesses):
        error(f"the header says the tree was compiled with {counted(tree.allowed_guesses, 'allowed guess', 'allowed guesses')}, "
              f"but its game carries {len(game.guesses)} (a tree says so only where it carries fewer)")
    if not lost:
        _check_stats(tree.stats, measured, error)
        _check_claims(tree.strategy, total, worst, histogram.get(worst, 0), error)
    weighted = {key: measured[key] for key in WEIGHTED} if not lost and measured.weighted else {}
    return Report(
        ok=not errors, secrets=len(secrets), worst=worst, total=total,
        average=round(total / len(secrets), 6),
        histogram=histogram, determined_histogram=determined_histogram, errors=errors, **weighted,
    )


def _replay(tree: Tree, secrets: list, error) -> tuple[dict[int, int], list[int], bytearray]:
    """Every secret through the tree, level by level, each edge checked against the game's own
    scorer (and its rules of play): ``(guesses to win by secret, guesses to determine per secret,
    which nodes were reached)``; each fault goes to ``error``."""
    game = tree.game
    wins: dict[int, int] = {}
    determined = [0 if len(secrets) == 1 else -1] * len(secrets)
    reached = bytearray(tree.nodes)  # a byte a node: a tree of millions of nodes is read chunk by chunk
    level = {0: list(range(len(secrets)))}  # node -> indices of the secrets that reach it
    ruled = game.restricts_guesses  # e.g. hard mode: guesses depend on the hints so far
    history_of: dict[int, list] = {0: []}
    depth = 0
    while level:
        depth += 1
        following: dict[int, list[int]] = {}
        for node, members in sorted(level.items()):
            reached[node] = 1
            guess = tree.guess_of(node)
            if not game.is_guess(guess):
                error(f"node {node}: {said_code(game, guess)} is not an allowed guess of {game}")
            elif ruled and (reason := game.allows(guess, history_of[node])):
                error(f"node {node}: {said_code(game, guess)} may not follow "
                      f"{', '.join(f'{said_code(game, g)} {said_feedback(game, f)}' for g, f in history_of[node])}: {reason}")
            parts: dict[tuple, list[int]] = {}
            for s in members:
                parts.setdefault(game.score(guess, secrets[s]), []).append(s)
            children: dict[tuple, int] = {}
            for feedback, child in tree.edges(node):
                if children.setdefault(feedback, child) != child:  # lookups take the first edge
                    error(f"node {node}: two edges have the feedback {said_feedback(game, feedback)} "
                          f"(to nodes {children[feedback]} and {child}); the second is never taken")
            if len(parts) == 1 and len(members) > 1 and game.win not in parts:
                # A useless guess (no split, not a candidate): no strategy plays one, and a chain
                # of them would make every secret walk the whole tree. Stop these secrets here.
                (feedback, part), = parts.items()
                error(f"secret {game.format_code(secrets[part[0]])}: guess {depth} "
                      f"({said_code(game, guess)} at node {node}) is useless: all {len(part)} secrets "
                      f"left answer {game.format_feedback(feedback)}")
                parts = {}
            for feedback, part in parts.items():
                if len(part) == 1 and determined[part[0]] < 0:
                    determined[part[0]] = depth
                if feedback == game.win:
                    wins[part[0]] = depth
                    continue
                to = children.pop(feedback, None)
                if to is None:
                    error(f"secret {game.format_code(secrets[part[0]])}: after guess {depth} "
                          f"({said_code(game, guess)} at node {node}) the game answers "
                          f"{game.format_feedback(feedback)}, for which the tree has no edge")
                else:
                    following[to] = part
                    if ruled:
                        history_of[to] = history_of[node] + [(guess, feedback)]
            for feedback, child in children.items():
                if parts:
                    error(f"node {node}: the edge for {said_feedback(game, feedback)} to node {child} "
                          f"is never taken (no secret gives that feedback to {said_code(game, guess)} there)")
        level = following
    return wins, determined, reached


def _check_claims(strategy: dict, total: int, worst: int, at_worst: int, error) -> None:
    """An optimal tree's header states its optimum: the tree must have it (the proof that nothing
    does better is the search's, reported when it ran)."""
    for key, value in (("minimum_total", total), ("minimum_worst", worst), ("fewest_at_worst", at_worst)):
        if key in strategy and strategy[key] != value:
            error(f"the header claims {key} = {strategy[key]!r}, but the tree gives {value!r}")
    bound = strategy.get("max_depth")
    if isinstance(bound, int) and worst > bound:
        error(f"the header's max_depth is {bound}, but a secret takes {counted(worst, 'guess', 'guesses')}")


def _check_stats(claimed: Statistics, measured: Statistics, error) -> None:
    if claimed.weighted != measured.weighted:
        error("the header states weighted figures, but the game's secrets have no weights" if claimed.weighted
              else "the game's secrets have weights, but the header states no weighted figures")
    for key in KEYS + (WEIGHTED if claimed.weighted and measured.weighted else ()):
        stated, value = claimed[key], measured[key]
        same = abs(stated - value) <= 1e-9 * max(1.0, abs(value)) if isinstance(value, float) and isinstance(stated, (int, float)) else stated == value
        if not same:
            error(f"the header says {key} = {stated!r}, but the tree gives {value!r}")


def verify_file(path, max_depth: int | None = None, plugins=None, tree: Tree | None = None) -> dict:
    """``verify`` of the tree in a file, as the JSON report ``guesstree verify --json`` prints:
    the file as ``tree``, ``unusable`` when it cannot be read as a tree (``tree``: loaded before)."""
    try:
        if tree is None:
            tree = load(path, plugins=plugins)
        report = verify(tree, max_depth).to_json()
    except (FormatError, ValueError) as error:  # ValueError: an older words tree without its lists
        return unusable_report(path, str(error))
    return {"tree": str(path), **report, "unusable": False}


def unusable_report(path, message: str) -> dict:
    """The report of a file that could not be read as a tree."""
    return {"tree": str(path), "ok": False, "secrets": None, "worst": None, "total": None, "average": None,
            "histogram": {}, "determined_histogram": {}, "errors": [message], "unusable": True}

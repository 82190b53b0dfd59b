"""The verifier: replays every secret through a tree with the game's own pure-Python scorer.

It trusts nothing the compiler wrote: the guesses are checked against the game's allowed
guesses, every edge's feedback against ``game.score``, and the header's statistics
against what the replay measures.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field

from .artifact import FormatError
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

    def to_json(self) -> dict:
        data = asdict(self)
        for key in ("histogram", "determined_histogram"):
            data[key] = {str(k): v for k, v in sorted(data[key].items())}
        return data


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
        error(f"{game!r} has {counted(count, 'secret')}, but the tree only {counted(tree.nodes, 'node')}: "
              "each secret needs its own winning node")
        return Report(ok=False, secrets=count, worst=0, total=0, average=0.0,
                      histogram={}, determined_histogram={}, errors=errors)
    secrets = game.secrets
    if not secrets:
        error(f"{game!r} has no secrets")
        return Report(ok=False, secrets=0, worst=0, total=0, average=0.0,
                      histogram={}, determined_histogram={}, errors=errors)
    wins: dict[int, int] = {}
    determined = [0 if len(secrets) == 1 else -1] * len(secrets)
    reached = [False] * tree.nodes
    level = {0: list(range(len(secrets)))}  # node -> indices of the secrets that reach it
    ruled = game.restricts_guesses  # e.g. hard mode: guesses depend on the hints so far
    history_of: dict[int, list] = {0: []}
    depth = 0
    while level:
        depth += 1
        following: dict[int, list[int]] = {}
        for node, members in sorted(level.items()):
            reached[node] = True
            guess = tree.guess_of(node)
            if not game.is_guess(guess):
                error(f"node {node}: {tree._code(guess)} is not an allowed guess of {game!r}")
            elif ruled and (reason := game.allows(guess, history_of[node])):
                error(f"node {node}: {tree._code(guess)} may not follow "
                      f"{', '.join(f'{tree._code(g)} {tree._feedback(f)}' for g, f in history_of[node])}: {reason}")
            parts: dict[tuple, list[int]] = {}
            for s in members:
                parts.setdefault(game.score(guess, secrets[s]), []).append(s)
            children: dict[tuple, int] = {}
            for feedback, child in tree.edges(node):
                if children.setdefault(feedback, child) != child:  # lookups take the first edge
                    error(f"node {node}: two edges have the feedback {tree._feedback(feedback)} "
                          f"(to nodes {children[feedback]} and {child}); the second is never taken")
            if len(parts) == 1 and len(members) > 1 and game.win not in parts:
                # A useless guess (no split, not a candidate): no strategy plays one, and a chain
                # of them would make every secret walk the whole tree. Stop these secrets here.
                (feedback, part), = parts.items()
                error(f"secret {game.format_code(secrets[part[0]])}: guess {depth} "
                      f"({tree._code(guess)} at node {node}) is useless: all {len(part)} secrets "
                      f"left answer {game.format_feedback(feedback)}")
                parts = {}
            for feedback, part in parts.items():
                if len(part) == 1 and determined[part[0]] < 0:
                    determined[part[0]] = depth
                if feedback == game.win:
                    wins[part[0]] = depth
                    continue
                child = children.pop(feedback, None)
                if child is None:
                    error(f"secret {game.format_code(secrets[part[0]])}: after guess {depth} "
                          f"({tree._code(guess)} at node {node}) the game answers "
                          f"{game.format_feedback(feedback)}, for which the tree has no edge")
                else:
                    following[child] = part
                    if ruled:
                        history_of[child] = history_of[node] + [(guess, feedback)]
            for feedback, child in children.items():
                if parts:
                    error(f"node {node}: the edge for {tree._feedback(feedback)} to node {child} "
                          f"is never taken (no secret gives that feedback to {tree._code(guess)} there)")
        level = following

    for node, seen in enumerate(reached):
        if not seen:
            error(f"node {node} is unreachable")
            break
    lost = [s for s in range(len(secrets)) if s not in wins]
    if lost:
        error(f"{counted(len(lost), 'secret')} {'is' if len(lost) == 1 else 'are'} never won, "
              f"e.g. {game.format_code(secrets[lost[0]])}")
    win_counts = list(wins.values())
    histogram = dict(sorted(Counter(win_counts).items()))
    determined_histogram = dict(sorted(Counter(d for d in determined if d >= 0).items()))
    total = sum(win_counts)
    worst = max(win_counts, default=0)
    if max_depth is not None and worst > max_depth:
        deep = min((s for s, d in wins.items() if d == worst))
        error(f"secret {game.format_code(secrets[deep])} takes {counted(worst, 'guess', 'guesses')}, over the bound of {max_depth}")
    if not lost:
        _check_stats(tree.stats, {
            "secrets": len(secrets), "total": total, "average": total / len(secrets), "worst": worst,
            "histogram": histogram, "determined_total": sum(determined),
            "determined_average": sum(determined) / len(secrets), "determined_worst": max(determined),
            "determined_histogram": determined_histogram,
        }, error)
        _check_claims(tree.strategy, total, worst, error)
    return Report(
        ok=not errors, secrets=len(secrets), worst=worst, total=total,
        average=round(total / len(secrets), 6),
        histogram=histogram, determined_histogram=determined_histogram, errors=errors,
    )


def _check_claims(strategy: dict, total: int, worst: int, error) -> None:
    """An optimal tree's header states its optimum: the tree must have it (the proof that nothing
    does better is the search's, reported when it ran)."""
    for key, value in (("minimum_total", total), ("minimum_worst", worst)):
        if key in strategy and strategy[key] != value:
            error(f"the header claims {key} = {strategy[key]!r}, but the tree gives {value!r}")
    bound = strategy.get("max_depth")
    if isinstance(bound, int) and worst > bound:
        error(f"the header's max_depth is {bound}, but a secret takes {counted(worst, 'guess', 'guesses')}")


def _check_stats(claimed: dict, measured: dict, error) -> None:
    for key, value in measured.items():
        stated = claimed.get(key)
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

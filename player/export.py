"""A tree in other forms: nested JSON, Graphviz dot, one text line per secret, a web page to play.

Standard library only, and not imported by ``import player``: the CLI's ``export`` command
and Python users import it when they need it.

    from player.export import export
    page = export(player.load("trees/mastermind-c6-h4-entropy.msgpack.zst"), "html")
"""
from __future__ import annotations

import html
import json
import os
import re
from importlib import resources

from . import __version__
from .tree import Tree

FORMATS = ("json", "dot", "text", "html")
JSON_FORMAT = "guesstree-json"
JSON_VERSION = (1, 0)  # (major, minor) of the nested JSON document below
PEG_GAMES = {"mastermind": "pegs", "digits": "digits", "bulls-cows": "digits", "twod": "pair", "words": "letters"}


def export(tree: Tree, fmt: str, max_depth: int | None = None) -> str:
    """``tree`` as text in format ``fmt`` (one of ``FORMATS``); ``max_depth`` is for dot only."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format: {fmt!r}; choose from {', '.join(FORMATS)}")
    if max_depth is not None and fmt != "dot":
        raise ValueError("--max-depth applies to --format dot only")
    if fmt == "json":
        return to_json(tree)
    if fmt == "dot":
        return to_dot(tree, max_depth)
    if fmt == "text":
        return to_text(tree)
    return to_html(tree)


# -- walking the tree -------------------------------------------------------

def children(tree: Tree) -> list[list[tuple[int, int]]]:
    """``(feedback index in game.feedbacks(), child)`` per node, in edge order."""
    index = {f: i for i, f in enumerate(tree.game.feedbacks())}
    return [[(index[f], child) for f, child in tree.edges(node)] for node in range(tree.nodes)]


def walk(tree: Tree):
    """``(secret, nodes, feedbacks, won)`` for every secret in canonical order: the nodes it
    passes through and the feedback it gives at each; ``won`` is False if the tree drops it."""
    game = tree.game
    score, win = game.score, game.win
    for secret in game.secrets:
        node, nodes, feedbacks = 0, [], []
        while node is not None:
            feedback = score(tree.guess_of(node), secret)
            nodes.append(node)
            feedbacks.append(feedback)
            if feedback == win:
                break
            node = tree.child(node, feedback)
        yield secret, nodes, feedbacks, node is not None


def reach(tree: Tree) -> tuple[list[int], list[bool]]:
    """Per node: how many secrets pass through it, and whether its guess can be the secret there."""
    passing, wins = [0] * tree.nodes, [False] * tree.nodes
    for _, nodes, _, won in walk(tree):
        for node in nodes:
            passing[node] += 1
        if won:
            wins[nodes[-1]] = True
    return passing, wins


# -- json ------------------------------------------------------------------

def to_document(tree: Tree) -> dict:
    """The nested JSON document: ``{"guess": "ABCD", "feedback": {"2B1W": {...}}}`` from the
    root down, with the game, strategy and statistics; a node without ``feedback`` is a leaf,
    whose guess is the only secret left. Any answer not listed (the win aside) fits no secret."""
    game = tree.game
    fmt_code, texts = game.format_code, [game.format_feedback(f) for f in game.feedbacks()]
    below = children(tree)
    built: list[dict | None] = [None] * tree.nodes
    for node in range(tree.nodes - 1, -1, -1):  # a child's id is always above its parent's
        item = {"guess": fmt_code(tree.guess_of(node))}
        if below[node]:
            item["feedback"] = {texts[f]: built[child] for f, child in below[node]}
            for _, child in below[node]:
                built[child] = None
        built[node] = item
    return {
        "format": JSON_FORMAT,
        "version": list(JSON_VERSION),
        "producer": f"guesstree {__version__}",
        "game": game.spec(),
        "strategy": tree.strategy,
        "stats": _jsonable(tree.stats),
        "nodes": tree.nodes,
        "win": game.format_feedback(game.win),
        "feedbacks": {text: list(value) for text, value in zip(texts, game.feedbacks())},
        "tree": built[0],
    }


def to_json(tree: Tree) -> str:
    document = to_document(tree)
    try:
        text = json.dumps(document, indent=2, ensure_ascii=False)
    except RecursionError:
        raise ValueError(f"{tree.name}: the tree is too deep to write as nested JSON") from None
    # Keep it readable: arrays of numbers and leaves ({"guess": ...} alone) on one line. The
    # patterns span line breaks, which json.dumps never writes inside a string, so no text changes.
    text = _NUMBERS.sub(lambda m: "[" + ", ".join(re.split(r",\n\s*", m[1])) + "]", text)
    return _LEAF.sub(r'{"guess": \1}', text) + "\n"


_NUMBERS = re.compile(r"\[\n\s*(-?\d+(?:,\n\s*-?\d+)*)\n\s*\]")
_LEAF = re.compile(r'\{\n\s*"guess": ("(?:[^"\\\n]|\\.)*")\n\s*\}')


def _jsonable(value):
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value


# -- dot -------------------------------------------------------------------

def to_dot(tree: Tree, max_depth: int | None = None) -> str:
    """Graphviz source; below ``max_depth`` guesses each cut subtree becomes one summary node."""
    if max_depth is not None and max_depth < 1:
        raise ValueError("--max-depth must be at least 1")
    game = tree.game
    texts = [game.format_feedback(f) for f in game.feedbacks()]
    below = children(tree)
    passing, wins = reach(tree)
    depth, size = [1] * tree.nodes, [1] * tree.nodes
    for node in range(tree.nodes):
        for _, child in below[node]:
            depth[child] = depth[node] + 1
    for node in range(tree.nodes - 1, -1, -1):
        for _, child in below[node]:
            size[node] += size[child]
    title = f"{game!r}, {tree.strategy['name']}: {tree.stats['secrets']} secrets, worst {tree.stats['worst']}"
    lines = [
        "digraph guesstree {",
        f"  label={_dot_string(title)}; labelloc=t; fontname=\"Helvetica\";",
        "  node [shape=box, style=\"rounded\", fontname=\"Helvetica\"];",
        "  edge [fontname=\"Helvetica\", fontsize=10];",
    ]
    for node in range(tree.nodes):
        if max_depth is not None and depth[node] > max_depth:
            continue
        secrets = passing[node]
        label = f"{game.format_code(tree.guess_of(node))}\n{secrets} secret{'' if secrets == 1 else 's'}"
        style = ", style=\"rounded,filled\", fillcolor=\"#dff0d8\"" if not below[node] else ""
        lines.append(f"  n{node} [label={_dot_string(label)}{style}];")
        if not below[node]:
            continue
        if max_depth is not None and depth[node] == max_depth:
            hidden = size[node] - 1
            label = f"{hidden} more node{'' if hidden == 1 else 's'}"
            lines.append(f"  n{node}_more [label={_dot_string(label)}, shape=plaintext];")
            lines.append(f"  n{node} -> n{node}_more [style=dashed];")
            continue
        for f, child in below[node]:
            lines.append(f"  n{node} -> n{child} [label={_dot_string(texts[f])}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _dot_string(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


# -- text ------------------------------------------------------------------

def to_text(tree: Tree) -> str:
    """One line per secret, in canonical order: ``secret<TAB>guesses<TAB>guess feedback, ...``."""
    game = tree.game
    fmt_code, fmt_feedback = game.format_code, game.format_feedback
    lines = [
        f"# guesstree {tree.strategy['name']} tree for {game!r}: {tree.stats['secrets']} secrets",
        "# secret, guesses to win ('-' if the tree cannot play it), then each guess and its feedback",
    ]
    for secret, nodes, feedbacks, won in walk(tree):
        steps = ", ".join(f"{fmt_code(tree.guess_of(n))} {fmt_feedback(f)}" for n, f in zip(nodes, feedbacks))
        if not won:
            steps += ", (the tree has no answer)"
        lines.append(f"{fmt_code(secret)}\t{len(nodes) if won else '-'}\t{steps}")
    return "\n".join(lines) + "\n"


# -- html ------------------------------------------------------------------

def page_data(tree: Tree) -> dict:
    """What the web player embeds: the tree as parallel arrays (texts, edge counts, edge
    feedbacks) and one flag per node saying whether its guess can win there. A typed secret is
    found as the guess of its winning node, and its path by climbing to the root, so no game
    logic runs in the page and the data stays a few bytes per node."""
    game = tree.game
    feedbacks = game.feedbacks()
    below = children(tree)
    _, wins = reach(tree)
    return {
        "title": f"{game_title(game)}: {tree.strategy['name']}",
        "game": game.spec(),
        "kind": PEG_GAMES.get(game.name, "text"),
        "symbols": game.symbols,
        "help": _help(game),
        "strategy": tree.strategy,
        "stats": {"secrets": tree.stats["secrets"], "average": tree.stats["average"],
                  "worst": tree.stats["worst"]},
        "feedbacks": [game.format_feedback(f) for f in feedbacks],
        "values": [list(f) for f in feedbacks],
        "describe": [_describe(game, f) for f in feedbacks],
        "win": feedbacks.index(game.win),
        "guesses": [game.format_code(tree.guess_of(node)) for node in range(tree.nodes)],
        "counts": [len(edges) for edges in below],
        "edges": [f for edges in below for f, _ in edges],
        "wins": "".join("1" if w else "0" for w in wins),
    }


def to_html(tree: Tree) -> str:
    """One self-contained page (no network, no other file) in which a person plays the tree."""
    web = resources.files("player") / "web"
    page = (web / "player.html").read_text(encoding="utf-8")
    data = json.dumps(page_data(tree), separators=(",", ":"), ensure_ascii=False)
    data = data.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    parts = {
        "/*STYLE*/": (web / "player.css").read_text(encoding="utf-8"),
        "/*SCRIPT*/": (web / "player.js").read_text(encoding="utf-8"),
        "/*DATA*/": data,
        "<!--TITLE-->": html.escape(f"guesstree: {game_title(tree.game)}, {tree.strategy['name']}"),
    }
    # One pass over the template: text put in is never searched for markers itself.
    return re.sub("|".join(map(re.escape, parts)), lambda match: parts[match[0]], page)


def game_title(game) -> str:
    """A short name for people: ``Mastermind, 6 colours, 4 holes``."""
    p = game.params()
    if game.name == "mastermind":
        rules = [] if p["secret_repeats"] else ["distinct colours"]
        if p["secret_repeats"] != p["guess_repeats"] or not p["guess_repeats"]:
            rules.append("guesses " + ("may repeat" if p["guess_repeats"] else "distinct"))
        extra = f" ({', '.join(rules)})" if rules else ""
        return f"Mastermind, {p['colours']} colours, {p['holes']} holes{extra}"
    if game.name == "bulls-cows":
        return f"Bulls and cows, {p['length']} of {p['digits']} digits"
    if game.name == "digits":
        return f"Digits, {p['length']} digits"
    if game.name == "twod":
        return f"Twod, {p['size']}x{p['size']} grid"
    if game.name == "words":
        lists = os.path.basename(p["answers"]) + (f" / {os.path.basename(p['guesses'])}" if p["guesses"] else "")
        return f"Words of {p['length']} letters ({lists}{', hard mode' if p['hard'] else ''})"
    return repr(game)


HELP = {
    "mastermind": "Think of a code. For each guess, give the black pegs (right colour in the right hole) "
                  "and the white pegs (right colour in the wrong hole).",
    "digits": "Think of a number. For each guess, give the strikes (right digit in the right place) "
              "and the balls (right digit in the wrong place).",
    "bulls-cows": "Think of a number with different digits. For each guess, give the bulls (A: right digit "
                  "in the right place) and the cows (B: right digit in the wrong place).",
    "words": "Think of a word. For each guess, type one mark per letter: G if the letter is right and in the "
             "right place, Y if it is in the word elsewhere, - if it is not (e.g. GY---; also GYBBB, 21000).",
    "twod": "Think of a point (x, y). For each guess, say <= if your point is at most the guess in both "
            "coordinates, >= if at least, none if neither, == if it is the guess.",
}


def _help(game) -> str:
    return HELP.get(game.name, "Think of a secret. For each guess, give the feedback your secret gets.")


def _describe(game, feedback) -> str:
    names = getattr(game, "peg_names", ("bulls", "cows") if game.name == "bulls-cows" else None)
    if names and len(feedback) == 2:
        return ", ".join(f"{n} {name[:-1] if n == 1 and name.endswith('s') else name}"
                         for n, name in zip(feedback, names))
    if game.name == "twod":
        return {(1, 0, 0): "at most the guess in both coordinates", (0, 1, 0): "at least the guess in both coordinates",
                (0, 0, 0): "neither", (1, 1, 1): "it is the guess"}[tuple(feedback)]
    return " ".join(str(x) for x in feedback)


__all__ = ["FORMATS", "export", "game_title", "to_json", "to_document", "to_dot", "to_text", "to_html", "page_data", "walk", "reach"]

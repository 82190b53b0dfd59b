"""A tree in other forms: nested JSON, Graphviz dot, one text line per secret, a web page to play.

Standard library only, and not imported by ``from guesstree import player``: the CLI's ``export`` command
and Python users import it when they need it.

    from guesstree import player
    from guesstree.player.export import export
    page = export(player.load("trees/mastermind-c6-h4-entropy.msgpack.zst"), "html")
"""
from __future__ import annotations

import base64
import html
import json
import re
from importlib import resources

from .book import game_key
from .format import FORMAT_NAME
from .games import GAMES
from .header import PRODUCER, build as build_header, jsonable
from .tree import Tree
from .uints import pack_uints
from .wording import counted

FORMATS = ("json", "dot", "text", "html")
JSON_FORMAT = "guesstree-json"
JSON_VERSION = (1, 0)  # (major, minor) of the nested JSON document below


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
        at: int | None = 0
        nodes, feedbacks = [], []
        while at is not None:
            feedback = score(tree.guess_of(at), secret)
            nodes.append(at)
            feedbacks.append(feedback)
            if feedback == win:
                break
            at = tree.child(at, feedback)
        yield secret, nodes, feedbacks, at is not None


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
        item: dict = {"guess": fmt_code(tree.guess_of(node))}
        if below[node]:
            item["feedback"] = {texts[f]: built[child] for f, child in below[node]}
            for _, child in below[node]:
                built[child] = None
        built[node] = item
    return {
        "format": JSON_FORMAT,
        "version": list(JSON_VERSION),
        "producer": PRODUCER,
        "game": game.spec(),
        "strategy": tree.strategy,
        "stats": jsonable(tree.stats),
        "nodes": tree.nodes,
        "win": game.format_feedback(game.win),
        "feedbacks": {text: list(value) for text, value in zip(texts, game.feedbacks())},
        **({"notice": tree.notice} if tree.notice is not None else {}),  # the licence of the words it embeds
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
    title = f"{game}, {tree.strategy['name']}: {counted(tree.stats['secrets'], 'secret')}, worst {tree.stats['worst']}"
    lines = [
        "digraph guesstree {",
        "  // Graphviz source: dot -Tsvg FILE -o tree.svg draws it (Graphviz's dot)",
        f"  label={_dot_string(title)}; labelloc=t; fontname=\"Helvetica\";",
        "  node [shape=box, style=\"rounded\", fontname=\"Helvetica\"];",
        "  edge [fontname=\"Helvetica\", fontsize=10];",
        *_comment_lines(tree.notice, "  // "),
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

def _comment_lines(notice: str | None, prefix: str) -> list[str]:
    """The licence of the data a tree embeds, as comment lines of an export that embeds it too."""
    if notice is None:
        return []
    return [f"{prefix}notice of the data this tree embeds:"] + [f"{prefix}  {line}".rstrip() for line in notice.strip().splitlines()]


def to_text(tree: Tree) -> str:
    """One line per secret, in canonical order: ``secret<TAB>guesses<TAB>guess feedback, ...``."""
    game = tree.game
    fmt_code, fmt_feedback = game.format_code, game.format_feedback
    lines = [
        f"# guesstree {tree.strategy['name']} tree for {game}: {counted(tree.stats['secrets'], 'secret')}",
        "# secret, guesses to win ('-' if the tree cannot play it), then each guess and its feedback",
        *_comment_lines(tree.notice, "# "),
    ]
    for secret, nodes, feedbacks, won in walk(tree):
        steps = ", ".join(f"{fmt_code(tree.guess_of(n))} {fmt_feedback(f)}" for n, f in zip(nodes, feedbacks))
        if not won:
            steps += ", (the tree has no answer)"
        lines.append(f"{fmt_code(secret)}\t{len(nodes) if won else '-'}\t{steps}")
    return "\n".join(lines) + "\n"


# -- html ------------------------------------------------------------------

# The built-in games' rules run in the page as the JavaScript package's core (player/js/src): these
# modules, in this order, have no imports but each other's, so the page inlines them in one scope
# (review.js, the page's review of a game, names its own top-level names review... to keep apart).
CORE_MODULES = ("games.js", "advice.js", "core.js", "review.js")
MAX_TABLE = 4_000_000  # a plugin game's page embeds its score table: guesses x secrets at most this


def page_data(tree: Tree) -> dict:
    """What the web player embeds: the artifact's header and body as the JavaScript player reads
    them (the body's arrays in base64), and the words for people that only Python has (the title,
    the instructions, each feedback described). A plugin game, which the JavaScript player cannot
    rebuild, comes with its secrets, the texts of its codes and its score table instead."""
    game = tree.game
    data = {
        "title": page_title(tree),
        "kind": game.page_kind,
        "help": game.instructions(),
        "describe": [game.describe_feedback(f) for f in game.feedbacks()],
        **embedded(tree, jsonable(tree.header["game"])),
        # the opening book's trees of this game (player/book.py), their game named without its lists
        "book": [embedded(opening, game_key(opening.header["game"])) for opening in (tree.book.trees_for(tree) if tree.book is not None else [])],
    }
    if game.name not in GAMES:
        data["table"] = score_table(tree)
    return data


def embedded(tree: Tree, game) -> dict:
    """A tree's header and body as the page's JavaScript player reads them (the arrays in base64);
    the header as its writer builds one (``header.build``), its game the spec ``game``."""
    feedbacks = tree.feedbacks
    width = 1 if len(feedbacks) <= 256 else 2
    index = {f: i for i, f in enumerate(feedbacks)}
    nodes = range(tree.nodes)
    edges = [tree.edges(node) for node in nodes]
    fields = build_header(tree.game, tree.strategy, tree.stats, tree.notice, tree.allowed_guesses, tree.producer)
    return {
        "header": {"format": FORMAT_NAME, "version": list(tree.header.get("version", [1, 1])), **fields, "game": game},
        "body": {
            "nodes": tree.nodes, "code_length": tree.game.length, "feedbacks": [list(f) for f in feedbacks],
            "feedback_width": width,
            "guess": _base64(bytes(symbol for node in nodes for symbol in tree.guess_of(node))),
            "edge_count": _base64(pack_uints([len(e) for e in edges], width)),
            "edge_feedback": _base64(pack_uints([index[f] for e in edges for f, _ in e], width)),
        },
    }


def page_title(tree: Tree) -> str:
    """The page's heading: the game and the strategy; for word games, the lists by name where they
    are known, the mode, a depth limit, and the opening guess (``Wordle (original answers), hard
    mode: optimal-expected, at most 6 guesses, opening SALET``)."""
    game, strategy = tree.game, tree.strategy["name"]
    if game.name != "words":
        return f"{game.title()}: {strategy}"
    params = game.params()
    lists = KNOWN_ANSWER_LISTS.get(params.get("answers_sha256", ""),
                                   f"Words of {game.length} letters ({len(game.secrets)} answers)")
    mode = ", hard mode" if params.get("hard") else ""
    depth = f", at most {tree.strategy['max_depth']} guesses" if "max_depth" in tree.strategy else ""
    return f"{lists}{mode}: {strategy}{depth}, opening {game.format_code(tree.guess_of(0))}"


# The answer lists people know by name, by the sha256 of the canonical list (trees/FORMAT.md §2.1).
KNOWN_ANSWER_LISTS = {
    "f40e47975cf360ff9febe7d49c8e285054d8fa3fb9644cea575922060951d6ee": "Wordle (original answers)",
}


def score_table(tree: Tree) -> dict:
    """A plugin game in the page: its secrets, the tree's other guesses, their texts, and the
    feedback index of every (guess, secret), since the page cannot run the plugin's rules."""
    game = tree.game
    secrets = list(game.secrets)
    known = set(secrets)
    guesses = secrets + sorted({tree.guess_of(n) for n in range(tree.nodes)} - known)
    if len(guesses) * len(secrets) > MAX_TABLE:
        raise ValueError(f"{tree.name}: the game {game.name!r} is a plugin, whose page would embed "
                         f"{len(guesses) * len(secrets)} scores (at most {MAX_TABLE})")
    index = {f: i for i, f in enumerate(game.feedbacks())}
    return {
        "name": game.name, "length": game.length, "symbols": game.symbols, "win": list(game.win),
        "title": game.title(), "secrets": len(secrets), "codes": [list(c) for c in guesses],
        "code_texts": [game.format_code(c) for c in guesses],
        "feedbacks": [list(f) for f in game.feedbacks()],
        "feedback_texts": [game.format_feedback(f) for f in game.feedbacks()],
        "scores": [index[game.score(g, s)] for g in guesses for s in secrets],
    }


def _base64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def core_script() -> str:
    """The JavaScript package's core modules as one script: their imports and exports dropped."""
    source = resources.files(__package__) / "js" / "src"
    parts = []
    for module in CORE_MODULES:
        text = (source / module).read_text(encoding="utf-8")
        text = re.sub(r"^(?:import|export) \{[^}]*\} from [^;]+;\n|^import [^;]+;\n", "", text, flags=re.M)
        parts.append(re.sub(r"^export ", "", text, flags=re.M))
    return "\n".join(parts)


def to_html(tree: Tree) -> str:
    """One self-contained page (no network, no other file) in which a person plays the tree."""
    web = resources.files(__package__) / "web"
    page = (web / "player.html").read_text(encoding="utf-8")
    data = json.dumps(page_data(tree), separators=(",", ":"), ensure_ascii=False)
    data = data.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    script = "(function () {\n" + core_script() + "\n" + (web / "player.js").read_text(encoding="utf-8") + "\n})();"
    parts = {
        "/*STYLE*/": (web / "player.css").read_text(encoding="utf-8"),
        "/*SCRIPT*/": script.replace("</script", "<\\/script"),
        "/*DATA*/": data,
        "<!--TITLE-->": html.escape(f"guesstree: {page_title(tree)}"),
    }
    # One pass over the template: text put in is never searched for markers itself.
    return re.sub("|".join(map(re.escape, parts)), lambda match: parts[match[0]], page)


__all__ = ["FORMATS", "export", "to_json", "to_document", "to_dot", "to_text", "to_html", "page_data", "page_title", "walk", "reach"]

"""Compare strategies on one game: one tree per strategy, their statistics side by side.

    from guesstree.compiler.compare import compare, table, plot_svg
    from guesstree.player.games import make_game
    rows = compare(make_game("mastermind"), ["entropy", "minimax"])
    print(table(rows))
"""
from __future__ import annotations

import functools
import math
import time
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

from guesstree import player
from guesstree.player.games import Game, make_game
from guesstree.player.stats import Statistics

from .builder.runner import build, plan
from .options import Options
from .engine.kinds import backend_for
from .builder.writer import default_path, save
from .strategies import get_strategy

DEFAULT_STRATEGIES = ("first", "minimax", "entropy", "expected-size", "most-parts")  # the published results' table (README)
MAX_COLUMNS = 12  # wider distributions are written as one list instead of a column per guess count
COLOURS = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
           "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac")  # Tableau 10: tells ten series apart


@dataclass
class Row:
    """One strategy's tree on the game: its statistics and where it came from."""

    strategy: str
    spec: dict  # the strategy as the artifact records it (Options.spec())
    stats: Statistics  # the artifact header's statistics
    nodes: int
    seconds: float | None  # compile time; None for a tree loaded from the trees directory
    path: str | None = None  # the artifact it was loaded from or saved to, if any

    def distribution(self) -> list[int]:
        """Secrets won in 1, 2, ... worst guesses."""
        histogram = self.stats["histogram"]
        return [histogram.get(k, 0) for k in range(1, self.stats["worst"] + 1)]

    def to_json(self) -> dict:
        return {
            "strategy": self.strategy,
            "spec": self.spec,
            **self.stats.to_json(),
            "nodes": self.nodes,
            "seconds": self.seconds,
            "source": "compiled" if self.seconds is not None else "loaded",
            "path": self.path,
        }


def parse_strategies(text: str) -> list[str]:
    """``"entropy, minimax"`` -> ``["entropy", "minimax"]``; an unknown or repeated name is a ValueError."""
    names = [name.strip() for name in text.split(",")]
    if not all(names):
        raise ValueError(f"--strategies {text!r} has an empty name; write e.g. entropy,minimax")
    names = [get_strategy(name).name for name in names]  # (an author's name is the strategy's)
    repeated = [name for i, name in enumerate(names) if name in names[:i]]
    if repeated:
        raise ValueError(f"--strategies names {repeated[0]!r} twice")
    return names


def compare(game: Game, strategies, settings: dict | None = None, trees: str | Path | None = None,
            progress=None) -> list[Row]:
    """Build (or load) one tree per strategy, in the order given.

    ``settings`` are the other ``Options`` (candidates, seed, samples, engine, max_memory, max_time, force), the
    same for every strategy. With ``trees``, a tree already in that directory under the name
    ``compile`` would give it is loaded instead of compiled, and each compiled tree is saved
    there. ``progress(strategy)`` is called before each one.
    """
    every = [Options.shared(name, **(settings or {})) for name in strategies]  # bad settings fail before any build
    paths = [None if trees is None else Path(trees) / default_path(game, options).name for options in every]
    # a build that cannot finish is refused before any (estimate.py); each build then follows its plan
    layouts = [plan(game, options)[0] if path is None or not path.exists() else None
               for options, path in zip(every, paths)]
    rows = []
    for options, path, layout in zip(every, paths, layouts):
        if progress is not None:
            progress(options.name)
        if layout is None:
            rows.append(_loaded(game, options, path))
            continue
        _warm_up(backend_for(game, options.engine))
        started = time.perf_counter()
        built = build(game, options, layout=layout)
        seconds = time.perf_counter() - started
        if path is not None:
            save(built, path)
        rows.append(Row(options.name, options.spec(), built.stats, built.nodes, seconds,
                        None if path is None else str(path)))
    return rows


@functools.cache
def _warm_up(backend: str) -> None:
    """The first build in a process loads the backend's kernels (numba: about half a second):
    pay for it on a tiny game, so that the first row's compile time is the strategy's own."""
    build(make_game("mastermind", colours=2, holes=2), Options(strategy="entropy", engine=backend))


def _loaded(game: Game, settings: Options, path: Path) -> Row:
    module, colon, _ = game.name.partition(":")
    tree = player.load(path, plugins=[module] if colon else None)  # FormatError is a ValueError
    wanted = settings.spec()  # what decides the tree; an exhaustive tree's header adds its proof
    if tree.game != game or {key: tree.strategy.get(key) for key in wanted} != wanted:
        raise ValueError(f"{path} holds another tree ({tree.game.title()}, {_said(tree.strategy)}), not "
                         f"{game.title()} with {_said(wanted)}; move it away or choose another directory")
    return Row(settings.name, tree.strategy, tree.stats, tree.nodes, None, str(path))


def _said(spec: dict) -> str:
    return ", ".join(f"{key} {value}" for key, value in spec.items() if key not in ("proven",))


# -- the table -----------------------------------------------------------------

def table(rows: list[Row]) -> str:
    """A fixed-width table: one line per strategy, the distribution a column per guess count."""
    worst = max(row.stats["worst"] for row in rows)
    columns = worst <= MAX_COLUMNS
    name_width = max(8, *(len(row.strategy) for row in rows))
    count_width = max(3, *(len(str(v)) for row in rows for v in row.stats["histogram"].values()))
    weighted = any("weighted_total" in row.stats for row in rows)  # the objective first: the weighted total and mean
    head = f"{'strategy':<{name_width}}" + (f"  {'weighted':>10}  {'w. mean':>7}" if weighted else "") + \
        f"  {'total':>7}  {'average':>7}  {'worst':>5}"
    if columns:
        spread = "".join(f"  {k:>{count_width}}" for k in range(1, worst + 1))
        label = "secrets won in N guesses"
        over = " " * len(head) + f"  {label:<{max(len(spread) - 2, len(label))}}"
        head += spread
    else:
        over = ""
        head += "  guesses to win 1..worst"
    head += f"  {'to know':>7}  {'compile':>8}"
    lines = [over.rstrip(), head] if over else [head]
    for row in rows:
        s = row.stats
        line = f"{row.strategy:<{name_width}}"
        if weighted:
            line += f"  {s['weighted_total']:>10.6g}  {s['weighted_mean']:>7.3f}" if "weighted_total" in s else f"  {'-':>10}  {'-':>7}"
        line += f"  {s['total']:>7}  {s['average']:>7.3f}  {s['worst']:>5}"
        if columns:
            counts = row.distribution()
            line += "".join(f"  {v:>{count_width}}" for v in counts)
            line += "".join(f"  {'-':>{count_width}}" for _ in range(worst - len(counts)))
        else:
            line += "  " + ", ".join(map(str, row.distribution()))
        seconds = "loaded" if row.seconds is None else f"{row.seconds:.2f} s"
        line += f"  {s['determined_average']:>7.3f}  {seconds:>8}"
        lines.append(line)
    return "\n".join(lines)


# -- the picture ---------------------------------------------------------------

# Advance widths of Helvetica Bold in thousandths of an em (its AFM metrics), by character, which
# bound the regular weight's; an accented letter is as wide as its letter, any other character
# not listed counts as 1 em.
_WIDTHS = dict(zip(
    " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~",
    (278, 333, 474, 556, 556, 889, 722, 278, 333, 333, 389, 584, 278, 333, 278, 278, *(556,) * 10, 333, 333,
     584, 584, 584, 611, 975, 722, 722, 722, 722, 667, 611, 778, 722, 278, 556, 722, 611, 833, 722, 778, 667,
     778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 333, 278, 333, 584, 556, 333, 556, 611, 556, 611, 556,
     333, 611, 611, 278, 278, 556, 278, 889, 611, 611, 611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500,
     389, 280, 389, 584)))
FIT_WIDTH = 1000  # the picture's width at most, unless its legend or a word of its title needs more
MIN_PLOT_WIDTH = 360.0  # the bars' area at least, however long the legend
TEXT_SLACK = 1.25  # the fonts a browser may pick are wider: DejaVu Sans Bold (Linux's usual) by a fifth


def text_width(text: str, size: float) -> float:
    """About how wide ``text`` is drawn at ``size`` pixels, erring wide."""
    def em(c: str) -> int:
        return _WIDTHS.get(c) or _WIDTHS.get(unicodedata.normalize("NFD", c)[0], 1000)
    return TEXT_SLACK * size * sum(em(c) for c in text) / 1000


def _wrapped(text: str, size: float, width: float) -> list[str]:
    """``text`` in lines of at most ``width`` pixels, broken at spaces (a longer word on a line of its own)."""
    lines: list[str] = []
    for word in text.split(" "):
        if lines and text_width(f"{lines[-1]} {word}", size) <= width:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return lines or [""]


def plot_svg(rows: list[Row], title: str) -> str:
    """Grouped bars: for each number of guesses, how many secrets each strategy wins in it. The
    picture is at most FIT_WIDTH pixels wide (its bars narrower) unless its texts need more: a title
    too wide for it is broken into lines (and a word wider than the picture widens it), the
    legend's column is as wide as its longest entry. Wider than its window, it is drawn smaller."""
    worst = max(row.stats["worst"] for row in rows)
    top = max(max(row.distribution()) for row in rows)
    step = _tick_step(top)
    y_max = step * math.ceil(top / step)
    legends = [f"{row.strategy} ({row.stats['average']:.3f})" for row in rows]
    pad, title_size, title_line = 16, 17, 22
    left, top_margin, bottom = 78, 58, 64
    right = max(210.0, 24 + max(text_width("strategy (average)", 13), 20 + max(text_width(t, 13) for t in legends)) + pad)
    plot_w = min(760.0, max(480.0, worst * (len(rows) * 22.0 + 14.0)))
    plot_w = max(MIN_PLOT_WIDTH, min(plot_w, FIT_WIDTH - left - right))  # narrower bars rather than a wider picture
    plot_h = 320.0
    width = left + plot_w + right
    lines = _wrapped(title, title_size, width - 2 * pad)
    width = max(width, 2 * pad + max(text_width(line, title_size) for line in lines))
    top_margin += title_line * (len(lines) - 1)
    height = top_margin + plot_h + bottom
    group = plot_w / worst
    bar = min(26.0, group * 0.82 / len(rows))

    def y(value: float) -> float:
        return top_margin + plot_h - plot_h * value / y_max

    out = [  # drawn at its size, or narrower to fit a narrower window or column (max-width), never cut
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" style="max-width: 100%; height: auto" font-family="system-ui, -apple-system, Segoe UI, Helvetica, Arial, sans-serif" '
        f'role="img" aria-label="{escape(title, {chr(34): "&quot;"})}">',
        f'<rect width="{width:.0f}" height="{height:.0f}" fill="#ffffff"/>',
    ]
    for i, line in enumerate(lines):  # centred over the plot, unless that would push it out of the picture
        half = text_width(line, title_size) / 2
        x = min(max(left + plot_w / 2, pad + half), width - pad - half)
        out.append(f'<text class="title" x="{x:.1f}" y="{30 + i * title_line}" text-anchor="middle" '
                   f'font-size="{title_size}" font-weight="600" fill="#1d2330">{escape(line)}</text>')
    for k in range(0, int(y_max / step) + 1):  # horizontal grid and y ticks
        value = k * step
        out.append(f'<line x1="{left}" x2="{left + plot_w:.1f}" y1="{y(value):.1f}" y2="{y(value):.1f}" '
                   f'stroke="{"#9aa3ad" if value == 0 else "#e3e7ec"}" stroke-width="1"/>')
        out.append(f'<text x="{left - 8}" y="{y(value) + 4:.1f}" text-anchor="end" font-size="12" fill="#4a5563">{value:g}</text>')
    for k in range(1, worst + 1):
        x0 = left + (k - 1) * group + (group - bar * len(rows)) / 2
        for i, row in enumerate(rows):
            count = row.stats["histogram"].get(k, 0)
            if not count:
                continue
            colour = COLOURS[i % len(COLOURS)]
            out.append(
                f'<rect class="bar" data-strategy="{escape(row.strategy)}" data-guesses="{k}" data-secrets="{count}" '
                f'x="{x0 + i * bar:.1f}" y="{min(y(count), y(0) - 1.0):.1f}" width="{max(bar - 1, 0.5):.1f}" height="{max(plot_h * count / y_max, 1.0):.1f}" '
                f'fill="{colour}"><title>{escape(row.strategy)}: {count} secret{"" if count == 1 else "s"} '
                f'in {k} guess{"" if k == 1 else "es"}</title></rect>')
        out.append(f'<text x="{left + (k - 0.5) * group:.1f}" y="{top_margin + plot_h + 20:.1f}" text-anchor="middle" '
                   f'font-size="13" fill="#1d2330">{k}</text>')
    out.append(f'<text x="{left + plot_w / 2:.1f}" y="{height - 18:.1f}" text-anchor="middle" font-size="14" '
               f'fill="#1d2330">guesses to win</text>')
    out.append(f'<text transform="translate(22 {top_margin + plot_h / 2:.1f}) rotate(-90)" text-anchor="middle" '
               f'font-size="14" fill="#1d2330">secrets</text>')
    legend_x = left + plot_w + 24
    out.append(f'<text x="{legend_x}" y="{top_margin + 4}" font-size="13" font-weight="600" fill="#1d2330">strategy (average)</text>')
    for i in range(len(rows)):
        ly = top_margin + 24 + i * 22
        out.append(f'<g class="legend"><rect x="{legend_x}" y="{ly - 11}" width="14" height="14" rx="2" '
                   f'fill="{COLOURS[i % len(COLOURS)]}"/><text x="{legend_x + 20}" y="{ly}" font-size="13" '
                   f'fill="#1d2330">{escape(legends[i])}</text></g>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _tick_step(top: int) -> float:
    """A round step (1, 2 or 5 times a power of ten) giving about five ticks up to ``top``."""
    raw = max(top, 1) / 5
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if raw <= factor * power:
            return max(1, factor * power)
    return 10 * power


__all__ = ["DEFAULT_STRATEGIES", "Row", "compare", "parse_strategies", "table", "plot_svg"]

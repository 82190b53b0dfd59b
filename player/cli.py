"""The ``guesstree`` command line: a thin shell over the library.

The player's commands (play, solve, info, verify) never import the compiler; ``compile``
imports it when it runs.
"""
from __future__ import annotations

import json
import math
import sys
import time
from pathlib import Path
from typing import List, Optional

import typer

from . import FormatError, InconsistentHistory, load
from .games import GAMES, Game, make_game
from .verify import verify as verify_tree

app = typer.Typer(
    add_completion=False, no_args_is_help=True, rich_markup_mode=None,
    help="Precomputed decision trees for Mastermind-style games: compile, play, verify.",
)

EXIT_INVALID, EXIT_UNUSABLE = 1, 2


def fail(message: str, code: int = EXIT_UNUSABLE) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(code)


PLUGIN = typer.Option(None, "--plugin", metavar="MODULE",
                      help="trust this plugin game module (repeatable; default: $GUESSTREE_PLUGINS)")


def load_or_fail(path: Path, plugins: Optional[List[str]] = None):
    try:
        return load(path, plugins=plugins or None)
    except FormatError as error:
        raise fail(str(error)) from None


# -- game options, shared by every command that builds a game ---------------
GAME_HELP = f"{', '.join(GAMES)}, or a plugin module:factory"
COLOURS = typer.Option(None, "--colours", help="mastermind: number of colours (default 6)")
HOLES = typer.Option(None, "--holes", help="mastermind: number of holes (default 4)")
SECRET_REPEATS = typer.Option(None, "--secret-repeats/--no-secret-repeats", help="mastermind: may a secret repeat a colour (default yes)")
GUESS_REPEATS = typer.Option(None, "--guess-repeats/--no-guess-repeats", help="mastermind: may a guess repeat a colour (default yes)")
DIGITS = typer.Option(None, "--digits", help="bulls-cows: number of digits (default 10)")
LENGTH = typer.Option(None, "--length", help="bulls-cows, digits: code length (default 4); words: word length (default 5)")
SIZE = typer.Option(None, "--size", help="twod: side of the grid (default 5)")
ANSWERS = typer.Option(None, "--answers", help="words: file of the possible secrets, one word per line")
GUESSES = typer.Option(None, "--guesses", help="words: file of the allowed guesses (default: the answers)")
HARD = typer.Option(None, "--hard/--no-hard", help="words: hard mode, every guess keeps the hints so far")
# -- strategy options, shared by compile and compare ------------------------
CANDIDATES = typer.Option("all", "--candidates", help="guesses a heuristic may play: all, or consistent (possible secrets only)")
SEED = typer.Option(0, "--seed", help="seed of the randomised strategies")
GUESS_SAMPLE = typer.Option(500, "--guess-sample", help="sampled-entropy: guesses scored per node")
SECRET_SAMPLE = typer.Option(1000, "--secret-sample", help="sampled-entropy: secrets each guess is scored on")
MAX_MEMORY = typer.Option(8.0, "--max-memory", help="GiB the feedback matrix may use; a bigger game is scored in blocks on demand")
GAME_OPTIONS = {
    "mastermind": {"colours", "holes", "secret_repeats", "guess_repeats"},
    "bulls-cows": {"digits", "length"},
    "digits": {"length"},
    "twod": {"size"},
    "words": {"answers", "guesses", "hard", "length"},
}


def game_from_options(name: str, **options) -> Game:
    given = {key: value for key, value in options.items() if value is not None}
    accepted = GAME_OPTIONS.get(name, set())
    stray = sorted(set(given) - accepted)
    if stray and name in GAMES:
        flags = ", ".join("--" + key.replace("_", "-") for key in stray)
        raise ValueError(f"{flags} does not apply to {name}")
    return make_game(name, **given)


def memory_budget(gib: float) -> int:
    """``--max-memory`` in bytes, or a clear error."""
    if not (math.isfinite(gib) and gib > 0):
        raise fail(f"--max-memory must be a positive number of GiB, not {gib}")
    return int(gib * (1 << 30))


@app.command("compile")
def compile_command(
    game: str = typer.Argument(..., help=GAME_HELP),
    strategy: str = typer.Option(..., "--strategy", "-s", help="first, random, entropy, worst-entropy, sampled-entropy, minimax, most-parts, expected-size, optimal-worst, optimal-expected"),
    candidates: str = CANDIDATES,
    seed: int = SEED,
    guess_sample: int = GUESS_SAMPLE,
    secret_sample: int = SECRET_SAMPLE,
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="artifact path (default: trees/<game>-<strategy>.msgpack.zst)"),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="print nothing on success"),
    max_memory: float = MAX_MEMORY,
    engine: str = typer.Option("fast", "--engine", help="fast (numpy kernels for small games, compiled numba kernels for big ones), "
                                "numba, numpy, or reference (plain numpy, every guess at every node); same tree"),
    first: Optional[str] = typer.Option(None, "--first", help="fix the opening guess (e.g. ABCD, 0123, salet); the strategy plays the rest"),
    max_depth: Optional[int] = typer.Option(None, "--max-depth", help="optimal-expected: the most guesses any secret may take"),
    checkpoint: Optional[Path] = typer.Option(None, "--checkpoint", help="optimal strategies: keep the search's work in this file (Ctrl-C saves it)"),
    resume: bool = typer.Option(False, "--resume", help="optimal strategies: continue from the --checkpoint file"),
    colours: Optional[int] = COLOURS, holes: Optional[int] = HOLES,
    secret_repeats: Optional[bool] = SECRET_REPEATS, guess_repeats: Optional[bool] = GUESS_REPEATS,
    digits: Optional[int] = DIGITS, length: Optional[int] = LENGTH, size: Optional[int] = SIZE,
    answers: Optional[str] = ANSWERS, guesses: Optional[str] = GUESSES, hard: Optional[bool] = HARD,
) -> None:
    """Expand a strategy's whole tree and write it as an artifact.

    Example: guesstree compile mastermind --strategy entropy -o trees/mm.msgpack.zst
    """
    from compiler import Options, build, save
    from compiler.output import default_path

    budget = memory_budget(max_memory)
    try:
        rules = game_from_options(game, colours=colours, holes=holes, secret_repeats=secret_repeats,
                                  guess_repeats=guess_repeats, digits=digits, length=length, size=size,
                                  answers=answers, guesses=guesses, hard=hard)
        options = Options(strategy=strategy, candidates=candidates, seed=seed, guess_sample=guess_sample,
                          secret_sample=secret_sample, engine=engine, max_memory=budget,
                          first=first, max_depth=max_depth)
        if (checkpoint or resume) and not strategy.startswith("optimal-"):
            raise ValueError("--checkpoint and --resume apply to the optimal strategies only")
        if rules.name == "words":
            rules.secrets  # read the word lists now: a bad line is the user's mistake, named by file and line
    except ValueError as error:
        raise fail(str(error)) from None
    path = output or default_path(rules, options)
    started = time.perf_counter()
    try:
        search = None
        if options.strategy.startswith("optimal-"):  # the exhaustive search first, with its own progress
            search = _optimal_search(rules, options, checkpoint, resume, quiet)
        with _progress(quiet) as progress:
            built = build(rules, options, progress=progress, search=search)
        save(built, path)
    except ValueError as error:
        raise fail(str(error)) from None
    except OSError as error:
        raise fail(f"cannot write {path}: {error.strerror or error}") from None
    if not quiet:
        s = built.stats
        typer.echo(f"wrote {path}: {rules!r}, {options.strategy}, {built.nodes} nodes; "
                   f"{s['secrets']} secrets, total {s['total']}, average {s['average']:.3f}, "
                   f"worst {s['worst']} ({time.perf_counter() - started:.2f} s)")
        if built.proof:
            typer.echo(f"optimal: {built.proof['proven']}")


class _progress:
    """A progress bar on stderr when it is a terminal (and not --quiet); otherwise nothing."""

    def __init__(self, quiet: bool):
        self.enabled = not quiet and sys.stderr.isatty()
        self.bar = None

    def __enter__(self):
        if not self.enabled:
            return None
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

        self.bar = Progress(TextColumn("compiling"), BarColumn(), TextColumn("{task.completed}/{task.total} secrets"),
                            TimeElapsedColumn(), console=Console(stderr=True), transient=True)
        self.bar.__enter__()
        task = self.bar.add_task("compile", total=None)
        last = [0.0]

        def update(solved: int, total: int) -> None:
            now = time.monotonic()
            if now - last[0] > 0.1 or solved == total:
                last[0] = now
                self.bar.update(task, completed=solved, total=total)

        return update

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.__exit__(*exc)
        return False


@app.command()
def solve(
    tree_path: Path = typer.Argument(..., metavar="TREE", help="artifact (.msgpack.zst)"),
    secret: str = typer.Argument(..., help="the secret, as the game writes it (e.g. ABCD or 0123)"),
    plugin: Optional[List[str]] = PLUGIN,
) -> None:
    """Show the tree's path for one secret.

    Example: guesstree solve trees/mastermind-c6-h4-entropy.msgpack.zst ABCD
    """
    tree = load_or_fail(tree_path, plugin)
    try:
        code = tree.game.parse_code(secret)
        if code not in set(tree.game.secrets):
            raise ValueError(f"{secret!r} is not a possible secret of {tree.game!r}")
        path = tree.path(code)
    except (ValueError, InconsistentHistory) as error:
        raise fail(str(error)) from None
    game = tree.game
    for step, (guess, feedback) in enumerate(path, 1):
        typer.echo(f"{step}. {game.format_code(guess)}  {game.format_feedback(feedback)}")
    typer.echo(f"solved {game.format_code(code)} in {len(path)} guess{'' if len(path) == 1 else 'es'}")


@app.command()
def info(
    tree_path: Path = typer.Argument(..., metavar="TREE", help="artifact (.msgpack.zst)"),
    as_json: bool = typer.Option(False, "--json", help="print the header as JSON"),
    plugin: Optional[List[str]] = PLUGIN,
) -> None:
    """Show a tree's header and statistics, with its distribution as bars.

    Example: guesstree info trees/mastermind-c6-h4-entropy.msgpack.zst --json
    """
    tree = load_or_fail(tree_path, plugin)
    header = {**tree.header, "stats": tree.stats, "nodes": tree.nodes}
    if as_json:
        typer.echo(json.dumps(_jsonable(header), indent=2))
        return
    s = tree.stats
    typer.echo(f"{tree_path}")
    typer.echo(f"  game       {tree.game!r}")
    typer.echo(f"  strategy   {', '.join(f'{k}={v}' for k, v in tree.strategy.items())}")
    typer.echo(f"  producer   {header.get('producer')}, format {'.'.join(map(str, header.get('version', [])))}")
    typer.echo(f"  nodes      {tree.nodes}")
    typer.echo(f"  first      {tree.game.format_code(tree.next_guess([]))}")
    typer.echo(f"  secrets    {s['secrets']}")
    typer.echo(f"  to win     total {s['total']}, average {s['average']:.4f}, worst {s['worst']}")
    typer.echo(f"  to know    total {s['determined_total']}, average {s['determined_average']:.4f}, worst {s['determined_worst']}")
    typer.echo("guesses to win:")
    for line in bars(s["histogram"]):
        typer.echo(line)
    typer.echo("guesses to determine:")
    for line in bars(s["determined_histogram"]):
        typer.echo(line)


def bars(histogram: dict, width: int = 40) -> list[str]:
    if not histogram:
        return []
    most = max(histogram.values())
    return [f"  {k:>3} {'█' * max(1, round(width * v / most)) if v else '':<{width}} {v}"
            for k, v in sorted(histogram.items())]


def _jsonable(value):
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, bytes):  # an unknown key of a newer minor version: say what it is, not all of it
        return f"<{len(value)} bytes>"
    return value


@app.command()
def verify(
    trees: List[Path] = typer.Argument(..., metavar="TREE...", help="artifacts to check"),
    max_depth: Optional[int] = typer.Option(None, "--max-depth", help="fail if any secret needs more guesses"),
    as_json: bool = typer.Option(False, "--json", help="print one JSON report per tree"),
    plugin: Optional[List[str]] = PLUGIN,
) -> None:
    """Replay every secret through each tree and check it; exit 0 valid, 1 invalid, 2 unusable.

    Example: guesstree verify trees/*.msgpack.zst --max-depth 6 --json
    """
    if max_depth is not None and max_depth < 1:
        raise fail("--max-depth must be at least 1")
    status = 0
    reports = []
    for path in trees:
        try:
            report = verify_tree(load(path, plugins=plugin or None), max_depth).to_json()
        except FormatError as error:
            report = {"ok": False, "unusable": True, "errors": [str(error)]}
            status = max(status, EXIT_UNUSABLE)
        else:
            status = max(status, 0 if report["ok"] else EXIT_INVALID)
        report = {"tree": str(path), **report}
        reports.append(report)
        if not as_json:
            if report.get("unusable"):
                typer.echo(f"UNUSABLE {path}: {report['errors'][0]}", err=True)
            elif report["ok"]:
                typer.echo(f"ok {path}: {report['secrets']} secrets, total {report['total']}, "
                           f"average {report['average']:.4f}, worst {report['worst']}")
            else:
                typer.echo(f"INVALID {path}:", err=True)
                for line in report["errors"]:
                    typer.echo(f"  {line}", err=True)
    if as_json:
        typer.echo(json.dumps(reports[0] if len(reports) == 1 else reports, indent=2))
    raise typer.Exit(status)


@app.command()
def play(
    tree_path: Path = typer.Argument(..., metavar="TREE", help="artifact (.msgpack.zst)"),
    plugin: Optional[List[str]] = PLUGIN,
) -> None:
    """Play against a tree: it guesses, you answer with the feedback for your secret.

    Type the feedback as the game writes it (2B1W or '2 1' for mastermind, 1A2B for
    bulls-cows), 'undo' to take the last answer back, 'quit' to stop.

    Example: guesstree play trees/mastermind-c6-h4-entropy.msgpack.zst
    """
    from .session import Session

    session = Session(load_or_fail(tree_path, plugin))
    game = session.game
    typer.echo(f"Think of a secret for {game!r}. Answer each guess with its feedback "
               f"(e.g. {game.format_feedback(game.feedbacks()[0])}); 'undo' takes an answer back.")
    try:
        while True:
            guess = session.guess()
            line = input(f"guess {len(session.history) + 1}: {game.format_code(guess)}  feedback? ").strip()
            if line.lower() in ("quit", "exit", "q"):
                return
            if line.lower() == "undo":
                typer.echo(session.undo())
                continue
            try:
                message, done = session.answer(line)
            except ValueError as error:
                typer.echo(f"  {error}; try again")
                continue
            typer.echo(f"  {message}")
            if done:
                return
    except EOFError:
        typer.echo("\nend of input: stopped")
    except KeyboardInterrupt:
        typer.echo("\ninterrupted: stopped")
        raise typer.Exit(130)


@app.command("compare")
def compare_command(
    game: str = typer.Argument(..., help=GAME_HELP),
    strategies: Optional[str] = typer.Option(None, "--strategies", help="comma-separated strategies (default: first,minimax,entropy,expected-size,most-parts)"),
    candidates: str = CANDIDATES,
    seed: int = SEED,
    guess_sample: int = GUESS_SAMPLE,
    secret_sample: int = SECRET_SAMPLE,
    trees: Optional[Path] = typer.Option(None, "--trees", help="directory of trees to reuse (named as compile names them); compiled ones are saved there"),
    plot: Optional[Path] = typer.Option(None, "--plot", help="write the distributions side by side as an SVG picture"),
    as_json: bool = typer.Option(False, "--json", help="print the comparison as JSON"),
    max_memory: float = MAX_MEMORY,
    colours: Optional[int] = COLOURS, holes: Optional[int] = HOLES,
    secret_repeats: Optional[bool] = SECRET_REPEATS, guess_repeats: Optional[bool] = GUESS_REPEATS,
    digits: Optional[int] = DIGITS, length: Optional[int] = LENGTH, size: Optional[int] = SIZE,
    answers: Optional[str] = ANSWERS, guesses: Optional[str] = GUESSES, hard: Optional[bool] = HARD,
) -> None:
    """Compile (or load) one tree per strategy and compare them in one table.

    Columns: total and average guesses to win, worst case, the number of secrets won in
    1, 2, ... guesses, the average number of guesses to know the secret, the compile time.

    Example: guesstree compare mastermind --strategies entropy,minimax --plot mastermind.svg
    """
    from compiler import Options
    from compiler.compare import DEFAULT_STRATEGIES, compare, parse_strategies, plot_svg, table

    from .artifact import write_atomic
    from .export import game_title

    budget = memory_budget(max_memory)
    try:
        rules = game_from_options(game, colours=colours, holes=holes, secret_repeats=secret_repeats,
                                  guess_repeats=guess_repeats, digits=digits, length=length, size=size,
                                  answers=answers, guesses=guesses, hard=hard)
        names = parse_strategies(strategies) if strategies is not None else list(DEFAULT_STRATEGIES)
        settings = {"candidates": candidates, "seed": seed, "guess_sample": guess_sample,
                    "secret_sample": secret_sample, "max_memory": budget}
        for name in names:
            Options(strategy=name, **settings)
    except ValueError as error:
        raise fail(str(error)) from None
    if trees is not None and trees.exists() and not trees.is_dir():
        raise fail(f"--trees {trees} is not a directory")

    def progress(name: str) -> None:
        if sys.stderr.isatty():
            typer.echo(f"compiling {name} ...", err=True)

    try:
        rows = compare(rules, names, settings, trees, progress)
        if plot is not None:
            title = f"Guesses to win: {game_title(rules)} ({len(rules.secrets)} secrets)"
            write_atomic(plot, plot_svg(rows, title).encode())
    except ValueError as error:
        raise fail(str(error)) from None
    except OSError as error:
        raise fail(f"cannot write {error.filename or plot}: {error.strerror or error}") from None
    if as_json:
        typer.echo(json.dumps({"game": rules.spec(), "secrets": len(rules.secrets),
                               "rows": [row.to_json() for row in rows],
                               "plot": None if plot is None else str(plot)}, indent=2))
        return
    typer.echo(f"{rules!r}, {len(rules.secrets)} secrets")
    typer.echo(table(rows))
    typer.echo("total, average, worst: guesses to win; to know: average guesses until one secret is left")
    if plot is not None:
        typer.echo(f"wrote {plot}")


@app.command("export")
def export_command(
    tree_path: Path = typer.Argument(..., metavar="TREE", help="artifact (.msgpack.zst)"),
    fmt: Optional[str] = typer.Option(None, "--format", "-f", help="json, dot, text or html (default: from the -o suffix)"),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="file to write atomically (default: standard output)"),
    max_depth: Optional[int] = typer.Option(None, "--max-depth", help="dot: draw the first N guesses of each path, then a summary"),
    plugin: Optional[List[str]] = PLUGIN,
) -> None:
    """Write a tree as nested JSON, Graphviz dot, one text line per secret, or a web page to play in.

    The html page is self-contained: open it in any browser, offline.

    Example: guesstree export trees/mastermind-c6-h4-entropy.msgpack.zst --format html -o mastermind.html
    """
    from .artifact import write_atomic
    from .export import FORMATS, export

    suffixes = {".json": "json", ".dot": "dot", ".gv": "dot", ".txt": "text", ".html": "html", ".htm": "html"}
    if fmt is None:
        fmt = suffixes.get(output.suffix.lower()) if output is not None else None
        if fmt is None:
            raise fail(f"say which --format to write: {', '.join(FORMATS)}")
    if fmt not in FORMATS:
        raise fail(f"unknown format: {fmt!r}; choose from {', '.join(FORMATS)}")
    if max_depth is not None and max_depth < 1:
        raise fail("--max-depth must be at least 1")
    tree = load_or_fail(tree_path, plugin)
    try:
        text = export(tree, fmt, max_depth)
    except ValueError as error:
        raise fail(str(error)) from None
    if output is None:
        typer.echo(text, nl=False)
        return
    try:
        write_atomic(output, text.encode("utf-8"))
    except OSError as error:
        raise fail(f"cannot write {output}: {error.strerror or error}") from None


# -- the optimal worst case, and the exhaustive searches' progress -----------------------------

@app.command("bound")
def bound_command(
    game: str = typer.Argument(..., help=GAME_HELP),
    candidates: str = typer.Option("all", "--candidates", help="guesses allowed: all, or consistent (possible secrets only)"),
    as_json: bool = typer.Option(False, "--json", help="print the result and its proof as JSON"),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="no progress display"),
    workers: Optional[int] = typer.Option(None, "--workers", help="processes to search with (default: one per core)"),
    checkpoint: Optional[Path] = typer.Option(None, "--checkpoint", help="keep the search's work in this file (Ctrl-C saves it)"),
    resume: bool = typer.Option(False, "--resume", help="continue from the --checkpoint file"),
    max_memory: float = MAX_MEMORY,
    colours: Optional[int] = COLOURS, holes: Optional[int] = HOLES,
    secret_repeats: Optional[bool] = SECRET_REPEATS, guess_repeats: Optional[bool] = GUESS_REPEATS,
    digits: Optional[int] = DIGITS, length: Optional[int] = LENGTH, size: Optional[int] = SIZE,
    answers: Optional[str] = ANSWERS, guesses: Optional[str] = GUESSES, hard: Optional[bool] = HARD,
) -> None:
    """The optimal worst case: the fewest guesses within which some strategy wins every
    secret, proven both ways (a tree that does it; an exhaustive search refuting one fewer).

    Example: guesstree bound bulls-cows --json
    """
    from compiler.optimal import Interrupted, bound

    budget = memory_budget(max_memory)
    if workers is not None and workers < 1:
        raise fail("--workers must be at least 1")
    if candidates not in ("all", "consistent"):
        raise fail(f"--candidates must be 'all' or 'consistent', not {candidates!r}")
    try:
        rules = game_from_options(game, colours=colours, holes=holes, secret_repeats=secret_repeats,
                                  guess_repeats=guess_repeats, digits=digits, length=length, size=size,
                                  answers=answers, guesses=guesses, hard=hard)
        status = _search_status(quiet)
        report = bound(rules, candidates=candidates, max_memory=budget, workers=workers, checkpoint=checkpoint,
                       resume=resume, progress=status)
        _end_status(status)
    except Interrupted as interrupted:
        raise _stopped(interrupted, "bound") from None
    except KeyboardInterrupt:
        raise _stopped(None, "bound") from None
    except ValueError as error:
        raise fail(str(error)) from None
    except OSError as error:
        raise fail(f"cannot write {checkpoint}: {error.strerror or error}") from None
    if as_json:
        typer.echo(json.dumps({"game": rules.spec(), "worst": report.worst, "nodes": report.nodes,
                               "seconds": round(report.seconds, 3), "proof": report.proof}, indent=2))
        return
    upper, lower = report.proof["upper"], report.proof["lower"]
    typer.echo(f"{rules!r}: the optimal worst case is {report.worst} guesses")
    typer.echo(f"  achieved: a tree opening with {upper['first_guess']} wins every secret within {upper['depth']} "
               f"(total {upper['tree_total']}, {upper['tree_nodes']} nodes)")
    typer.echo(f"  no tree within {lower['impossible']}: {lower['by']}")
    typer.echo(f"  ({report.nodes} nodes searched, {report.seconds:.2f} s)")


def _optimal_search(rules, options, checkpoint, resume, quiet):
    """A builder search whose exhaustive solve has run, with progress, checkpoint and Ctrl-C."""
    from compiler.optimal import Interrupted, prepared_search, solver_for

    status = _search_status(quiet)
    search = prepared_search(rules, options, checkpoint=checkpoint, resume=resume, progress=status)
    try:
        solver_for(search).solve(options.strategy, options.max_depth)
    except Interrupted as interrupted:
        raise _stopped(interrupted, "compile") from None
    except KeyboardInterrupt:
        raise _stopped(None, "compile") from None
    _end_status(status)
    return search


def _stopped(interrupted, command: str) -> typer.Exit:
    if interrupted is None or interrupted.checkpoint is None:
        typer.echo("\ninterrupted: the search's work is lost (give --checkpoint FILE to keep it)", err=True)
    else:
        typer.echo(f"\ninterrupted: the search's work is saved in {interrupted.checkpoint}; run the same "
                   f"{command} command with --resume to continue", err=True)
    return typer.Exit(130)


def _search_status(quiet: bool):
    """A one-line status of a long exhaustive search on stderr (a terminal, not --quiet), or None."""
    if quiet or not sys.stderr.isatty():
        return None
    last = [0.0]

    def show(status: dict) -> None:
        now = time.monotonic()
        if now - last[0] < 0.25:
            return
        last[0] = now
        where = [status.get("task", "searching")]
        if "root" in status:
            where.append(f"first guess {status['root']}")
        if "part" in status:
            where.append(f"part {status['part']} ({status.get('part_size', '?')} secrets)")
        if "guess_index" in status:
            where.append(f"second guess {status['guess_index']}/{status.get('guesses', '?')}")
        where.append(f"{status['nodes']:,} nodes, {status['seconds']:.0f} s")
        sys.stderr.write("\r\033[K" + ", ".join(where)[:160])
        sys.stderr.flush()

    return show


def _end_status(status) -> None:
    if status is not None:
        sys.stderr.write("\r\033[K")
        sys.stderr.flush()


def main() -> None:
    app(prog_name="guesstree")

"""The compiler's commands (compile, bound, compare), added to the one ``guesstree`` program
through the ``guesstree.commands`` entry points (see ``player/cli.py``).

Importing this module imports neither numpy nor numba: a base install (the player alone) lists
these commands in its help, and running one says which extra to install.
"""
from __future__ import annotations

import contextlib
import errno
import functools
import importlib.util
import inspect
import json
import math
import signal
import sys
import time
from concurrent.futures import BrokenExecutor
from pathlib import Path
from typing import Optional

import typer

from player.cli import Command, fail
from player.games import GAMES, Game, make_game

app = typer.Typer(rich_markup_mode=None)
EXTRA = "guesstree[compiler]"


def commands() -> dict:
    """This module's commands as click commands, by name (what the entry points load)."""
    return dict(typer.main.get_command(app).commands)


def _engine():
    """Check that the compiler's dependencies are installed (without importing them: numba takes
    a while, and small games never load it), or say in one line which extra brings them."""
    for name in ("numpy", "numba"):
        try:
            found = importlib.util.find_spec(name) is not None
        except ValueError:  # in sys.modules as None: blocked, as on a base install
            found = False
        if not found:
            raise fail(f"this command needs the compiler's dependencies ({name} is missing): pip install '{EXTRA}'")


# -- the game argument and every game's options, declared once ----------------------------------

def _game_parameters() -> list[inspect.Parameter]:
    """The GAME argument, then one option per keyword any built-in game takes (from ``Game.options``)."""
    helps: dict[str, list[str]] = {}
    types: dict[str, type] = {}
    for game in GAMES.values():
        for key, (kind, text) in game.options.items():
            types[key] = kind
            if text not in helps.setdefault(key, []):
                helps[key].append(text)
    parameters = [inspect.Parameter(
        "game", inspect.Parameter.KEYWORD_ONLY, annotation=str,
        default=typer.Argument(..., metavar="GAME", help=f"{', '.join(GAMES)}, or a plugin module:factory"))]
    for key, kind in types.items():
        flag = "--" + key.replace("_", "-")
        declaration = f"{flag}/--no-{flag[2:]}" if kind is bool else flag
        metavar = None if kind is bool else ("N" if kind is int else "FILE")
        parameters.append(inspect.Parameter(
            key, inspect.Parameter.KEYWORD_ONLY, annotation=Optional[kind],
            default=typer.Option(None, declaration, metavar=metavar, help="; ".join(helps[key]))))
    return parameters


GAME_PARAMETERS = _game_parameters()


def game_from_options(name: str, **options) -> Game:
    """The game a command line names; an option another game takes is refused by name."""
    given = {key: value for key, value in options.items() if value is not None}
    if name in GAMES:
        stray = sorted(set(given) - set(GAMES[name].options))
        if stray:
            raise ValueError(f"{', '.join('--' + key.replace('_', '-') for key in stray)} does not apply to {name}")
    game = make_game(name, **given)
    game.secret_count(), game.guess_count()  # counted now: a bad word list is the user's mistake, named by file and line
    return game


def game_command(name: str):
    """A command taking GAME and the game options; the function receives the built ``game``."""
    def decorate(function):
        signature = inspect.signature(function)
        own = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in signature.parameters.values()
               if p.name != "game"]
        names = [p.name for p in GAME_PARAMETERS]

        @functools.wraps(function)
        def run(**arguments):
            chosen = {key: arguments.pop(key) for key in names}
            try:
                game = game_from_options(chosen.pop("game"), **chosen)
            except ValueError as error:
                raise fail(str(error)) from None
            return function(game=game, **arguments)

        run.__signature__ = signature.replace(parameters=[GAME_PARAMETERS[0], *own, *GAME_PARAMETERS[1:]])
        run.__annotations__ = {p.name: p.annotation for p in run.__signature__.parameters.values()}
        return app.command(name, cls=Command)(run)
    return decorate


# -- options shared by compile, compare and bound --------------------------------------------------

STRATEGY_NAMES = ("first, random, entropy, worst-entropy, sampled-entropy, minimax, most-parts, expected-size, "
                  "optimal-worst, optimal-expected")
CANDIDATES = typer.Option("all", "--candidates", metavar="all|consistent",
                          help="guesses a strategy may play: all, or consistent (possible secrets only)")
SEED = typer.Option(0, "--seed", metavar="N", help="seed of the randomised strategies")
GUESS_SAMPLE = typer.Option(500, "--guess-sample", metavar="N", help="sampled-entropy: guesses scored per node")
SECRET_SAMPLE = typer.Option(1000, "--secret-sample", metavar="N", help="sampled-entropy: secrets each guess is scored on")
MAX_MEMORY = typer.Option(8.0, "--max-memory", metavar="GIB",
                          help="GiB the feedback matrix may use; a bigger game is scored in blocks on demand")
QUIET = typer.Option(False, "--quiet", "-q", help="print nothing but errors")
CHECKPOINT = typer.Option(None, "--checkpoint", metavar="FILE",
                          help="exhaustive searches: keep the search's work in this file (Ctrl-C saves it)")
RESUME = typer.Option(False, "--resume", help="exhaustive searches: continue from the --checkpoint file")
CLUSTER = typer.Option(None, "--cluster", metavar="ADDRESS",
                       help="exhaustive searches: run the jobs on a Dask cluster, tcp://HOST:PORT of its scheduler "
                            "(default: $DASK_SCHEDULER_ADDRESS), or local:N for N worker processes here; "
                            "needs guesstree[distributed]")


def memory_budget(gib: float) -> int:
    """``--max-memory`` in bytes, or a clear error."""
    if not (math.isfinite(gib) and gib > 0):
        raise fail(f"--max-memory must be a positive number of GiB, not {gib}")
    return int(gib * (1 << 30))


@game_command("compile")
def compile_command(
    game: Game,
    strategy: str = typer.Option(..., "--strategy", "-s", metavar="NAME", help=STRATEGY_NAMES),
    candidates: str = CANDIDATES,
    seed: int = SEED,
    guess_sample: int = GUESS_SAMPLE,
    secret_sample: int = SECRET_SAMPLE,
    output: Optional[Path] = typer.Option(None, "--output", "-o", metavar="FILE",
                                          help="artifact path (default: trees/<game>-<strategy>.msgpack.zst)"),
    quiet: bool = QUIET,
    max_memory: float = MAX_MEMORY,
    engine: str = typer.Option("fast", "--engine", metavar="NAME",
                               help="fast (numpy kernels for small games, compiled numba kernels for big ones), "
                                    "numba, numpy, or reference (plain numpy, every guess at every node); same tree"),
    first: Optional[str] = typer.Option(None, "--first", metavar="GUESS",
                                        help="fix the opening guess (e.g. ABCD, 0123, salet); the strategy plays the rest"),
    max_depth: Optional[int] = typer.Option(None, "--max-depth", metavar="N",
                                            help="optimal-expected: the most guesses any secret may take"),
    openers: Optional[int] = typer.Option(None, "--openers", metavar="K",
                                          help="optimal-expected: search only the K first guesses that the game's "
                                               "heuristic ranks best (optimal among them, recorded so)"),
    checkpoint: Optional[Path] = CHECKPOINT,
    resume: bool = RESUME,
    cluster: Optional[str] = CLUSTER,
) -> None:
    """Expand a strategy's whole tree and write it as an artifact.

    Example: guesstree compile mastermind --strategy entropy -o trees/mm.msgpack.zst
    """
    _engine()
    from .builder import build
    from .options import Options
    from .output import default_path, save

    budget = memory_budget(max_memory)
    try:
        options = Options(strategy=strategy, candidates=candidates, seed=seed, guess_sample=guess_sample,
                          secret_sample=secret_sample, engine=engine, max_memory=budget,
                          first=first, max_depth=max_depth, openers=openers)
        if (checkpoint or resume or cluster) and not options.exhaustive:
            raise ValueError("--checkpoint, --resume and --cluster apply to the optimal strategies only")
    except ValueError as error:
        raise fail(str(error)) from None
    from .cluster import ClusterError, address

    where = address(cluster) if options.exhaustive else None
    path = output or default_path(game, options)
    started = time.perf_counter()
    try:
        with _out_of_resources(game, "building", f"a smaller --max-memory (now {max_memory:g} GiB) scores "
                                                 "the game in blocks on demand"):
            context = None
            if options.exhaustive:  # the exhaustive search first, with its own progress
                context = _searched(game, options, checkpoint, resume, quiet, "compile", where)
            try:
                with Progress(quiet, game.secret_count()) as progress:
                    built = build(game, options, progress=progress, context=context)
            finally:
                if context is not None:
                    context.close()
    except ValueError as error:
        raise fail(str(error)) from None
    except ClusterError as error:  # the tree's build asked the cluster for a node again, and it failed
        raise _cluster_failed(error, "compile") from None
    except OSError as error:
        raise fail(f"cannot build {game!r}: {error.strerror or error}") from None
    try:
        save(built, path)
    except OSError as error:
        raise fail(f"cannot write {path}: {error.strerror or error}") from None
    if not quiet:
        s = built.stats
        typer.echo(f"wrote {path}: {game!r}, {options.strategy}, {built.nodes} nodes; "
                   f"{s['secrets']} secrets, total {s['total']}, average {s['average']:.3f}, "
                   f"worst {s['worst']} ({time.perf_counter() - started:.2f} s)")
        if built.proof:
            typer.echo(f"optimal: {built.proof['proven']}")


class Progress:
    """A progress bar of secrets solved, on stderr when it is a terminal (and not --quiet)."""

    def __init__(self, quiet: bool, total: int):
        self.enabled = not quiet and sys.stderr.isatty()
        self.total, self.bar = total, None

    def __enter__(self):
        if not self.enabled:
            return None
        from rich.console import Console
        from rich.progress import BarColumn, Progress as Bar, TextColumn, TimeElapsedColumn

        self.bar = Bar(TextColumn("compiling"), BarColumn(), TextColumn("{task.completed}/{task.total} secrets"),
                       TimeElapsedColumn(), console=Console(stderr=True), transient=True)
        self.bar.__enter__()
        task = self.bar.add_task("compile", total=self.total)
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


@game_command("compare")
def compare_command(
    game: Game,
    strategies: Optional[str] = typer.Option(None, "--strategies", metavar="A,B,...",
                                             help="comma-separated strategies (default: first,minimax,entropy,"
                                                  "expected-size,most-parts)"),
    candidates: str = CANDIDATES,
    seed: int = SEED,
    guess_sample: int = GUESS_SAMPLE,
    secret_sample: int = SECRET_SAMPLE,
    trees: Optional[Path] = typer.Option(None, "--trees", metavar="DIR",
                                         help="directory of trees to reuse (named as compile names them); "
                                              "compiled ones are saved there"),
    plot: Optional[Path] = typer.Option(None, "--plot", metavar="FILE",
                                        help="write the distributions side by side as an SVG picture"),
    as_json: bool = typer.Option(False, "--json", help="print the comparison as JSON"),
    max_memory: float = MAX_MEMORY,
) -> None:
    """Compile (or load) one tree per strategy and compare them in one table.

    Columns: total and average guesses to win, worst case, the number of secrets won in
    1, 2, ... guesses, the average number of guesses to know the secret, the compile time.

    Example: guesstree compare mastermind --strategies entropy,minimax --plot mastermind.svg
    """
    _engine()
    from player.artifact import write_atomic

    from .compare import DEFAULT_STRATEGIES, compare, parse_strategies, plot_svg, table
    from .options import Options

    budget = memory_budget(max_memory)
    try:
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
        rows = compare(game, names, settings, trees, progress)
        if plot is not None:
            title = f"Guesses to win: {game.title()} ({len(game.secrets)} secrets)"
            write_atomic(plot, plot_svg(rows, title).encode())
    except ValueError as error:
        raise fail(str(error)) from None
    except OSError as error:
        raise fail(f"cannot write {error.filename or plot}: {error.strerror or error}") from None
    if as_json:
        typer.echo(json.dumps({"game": game.spec(), "secrets": len(game.secrets),
                               "rows": [row.to_json() for row in rows],
                               "plot": None if plot is None else str(plot)}, indent=2))
        return
    typer.echo(f"{game!r}, {len(game.secrets)} secrets")
    typer.echo(table(rows))
    typer.echo("total, average, worst: guesses to win; to know: average guesses until one secret is left")
    if plot is not None:
        typer.echo(f"wrote {plot}")


@app.command("list", cls=Command)
def list_command() -> None:
    """List the games and the strategies, one line each.

    Example: guesstree list
    """
    _engine()
    from .strategies import STRATEGIES

    typer.echo("games (guesstree compile GAME [options]; a plugin is module:factory):")
    for name, game in GAMES.items():
        summary = (game.__doc__ or "").strip().splitlines()[0].replace("``", "")
        flags = " ".join(f"--{key.replace('_', '-')}" for key in game.options)
        typer.echo(f"  {name:<12} {summary} [{flags}]")
    typer.echo("strategies (--strategy NAME):")
    for name, strategy in STRATEGIES.items():
        typer.echo(f"  {name:<17} {strategy.doc}")


# -- the optimal worst case, and the exhaustive searches' progress -----------------------------

@game_command("bound")
def bound_command(
    game: Game,
    candidates: str = CANDIDATES,
    as_json: bool = typer.Option(False, "--json", help="print the result and its proof as JSON"),
    quiet: bool = QUIET,
    workers: Optional[int] = typer.Option(None, "--workers", metavar="N",
                                          help="threads to search with (default: one per core)"),
    checkpoint: Optional[Path] = CHECKPOINT,
    resume: bool = RESUME,
    max_memory: float = MAX_MEMORY,
    cluster: Optional[str] = CLUSTER,
) -> None:
    """The optimal worst case: the fewest guesses within which some strategy wins every
    secret, proven both ways (a tree that does it; an exhaustive search refuting one fewer).

    Example: guesstree bound bulls-cows --json
    """
    _engine()
    from .cluster import ClusterError, address
    from .search.solver import Interrupted
    from .search.start import bound

    budget = memory_budget(max_memory)
    if workers is not None and workers < 1:
        raise fail("--workers must be at least 1")
    try:
        with _search_status(quiet) as status, _terminate_as_interrupt(), \
                _out_of_resources(game, "searching", "give a smaller --max-memory"):
            report = bound(game, candidates=candidates, max_memory=budget, workers=workers, checkpoint=checkpoint,
                           resume=resume, progress=status, cluster=address(cluster))
    except Interrupted as interrupted:
        raise _stopped(interrupted, "bound") from None
    except KeyboardInterrupt:
        raise _stopped(None, "bound") from None
    except ClusterError as error:
        raise _cluster_failed(error, "bound") from None
    except ValueError as error:
        raise fail(str(error)) from None
    except OSError as error:
        raise fail(f"cannot write {checkpoint}: {error.strerror or error}") from None
    if as_json:
        typer.echo(json.dumps({"game": game.spec(), "worst": report.worst, "nodes": report.nodes,
                               "seconds": round(report.seconds, 3), "proof": report.proof}, indent=2))
        return
    upper, lower = report.proof["upper"], report.proof["lower"]
    typer.echo(f"{game!r}: the optimal worst case is {report.worst} guesses")
    typer.echo(f"  achieved: a tree opening with {upper['first_guess']} wins every secret within {upper['depth']} "
               f"(total {upper['tree_total']}, {upper['tree_nodes']} nodes)")
    typer.echo(f"  no tree within {lower['impossible']}: {lower['by']}")
    typer.echo(f"  ({report.nodes} nodes searched, {report.seconds:.2f} s)")


def _searched(game, options, checkpoint, resume, quiet, command: str, cluster: str | None):
    """A build context whose exhaustive search has run, with progress, checkpoint and Ctrl-C,
    on this machine or on a Dask ``cluster``."""
    from .cluster import ClusterError
    from .search.solver import Interrupted, solver_for
    from .search.start import prepared_context

    context = None
    try:
        with _search_status(quiet) as status, _terminate_as_interrupt():
            context = prepared_context(game, options, checkpoint=checkpoint, resume=resume, progress=status,
                                       cluster=cluster)
            solver_for(context).solve(options.strategy, options.max_depth)
    except BaseException as error:
        if context is not None:
            context.close()
        if isinstance(error, Interrupted):
            raise _stopped(error, command) from None
        if isinstance(error, KeyboardInterrupt):
            raise _stopped(None, command) from None
        if isinstance(error, ClusterError):
            raise _cluster_failed(error, command) from None
        raise
    return context


def _cluster_failed(error, command: str) -> typer.Exit:
    """A cluster that could not run the search: one line, and where its work is, exit 2."""
    saved = "" if error.checkpoint is None else \
        f"; the search's work is saved in {error.checkpoint} (run the same {command} command with --resume)"
    return fail(f"{error}{saved}")


def _stopped(interrupted, command: str) -> typer.Exit:
    if interrupted is None or interrupted.checkpoint is None:
        typer.echo("\ninterrupted: the search's work is lost (give --checkpoint FILE to keep it)", err=True)
    else:
        typer.echo(f"\ninterrupted: the search's work is saved in {interrupted.checkpoint}; run the same "
                   f"{command} command with --resume to continue", err=True)
    return typer.Exit(130)


@contextlib.contextmanager
def _search_status(quiet: bool):
    """A long exhaustive search's progress on stderr (a terminal, not --quiet), else None: a bar
    of first guesses searched when they are jobs (else of jobs done), the jobs in flight, the
    best total so far and where the search is; the Dask dashboard's address, once."""
    if quiet or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, Progress as Bar, TextColumn, TimeElapsedColumn

    console = Console(stderr=True)
    bar = Bar(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.fields[jobs]}"),
              TimeElapsedColumn(), console=console, transient=True)
    task = bar.add_task("searching", total=None, jobs="")
    last, said = [0.0], set()

    def show(status: dict) -> None:
        dashboard = status.get("dashboard")
        if dashboard and dashboard not in said:
            said.add(dashboard)
            console.print(f"Dask dashboard: {dashboard} ({status.get('workers', '?')} workers)")
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
        jobs = [f"{status.get('jobs_done', 0)} jobs done, {status.get('in_flight', 0)} in flight"]
        if "best" in status:
            jobs.append(f"best {status['best']}")
        jobs.append(f"{status['nodes']:,} nodes")
        total = status.get("openers")
        bar.update(task, description=", ".join(where)[:80], jobs=", ".join(jobs), total=total,
                   completed=status.get("openers_done", 0) if total else 0)

    with bar:
        yield show


@contextlib.contextmanager
def _out_of_resources(game: Game, doing: str, advice: str):
    """A worker process that dies, or memory that runs out, while ``doing`` ``game``: one error line."""
    try:
        yield
    except BrokenExecutor:
        raise fail(f"a worker process died while {doing} {game!r} (out of memory, or killed)") from None
    except (MemoryError, OSError) as error:  # OSError: a mapping or a process the system refused
        if isinstance(error, OSError) and error.errno not in (errno.ENOMEM, errno.EAGAIN):
            raise
        raise fail(f"out of memory {doing} {game!r}: {advice}") from None


@contextlib.contextmanager
def _terminate_as_interrupt():
    """SIGTERM (a job's time limit, a service stopping) stops a search as Ctrl-C does: its jobs
    stopped, its checkpoint saved, its shared memory freed."""
    def interrupt(signum, frame):
        raise KeyboardInterrupt
    try:
        previous = signal.signal(signal.SIGTERM, interrupt)
    except ValueError:  # not the main thread (an embedding program): leave its handlers alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def main() -> None:
    """``python -m compiler``: the whole program, as ``guesstree``."""
    from player.cli import main as program

    program()

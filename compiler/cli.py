"""The compiler's commands (compile, compare, list, bound, openers, warm), added to the one
``guesstree`` program through the ``guesstree.commands`` entry points (see ``player/cli.py``).
Options several commands share are declared once: ``game_command`` hands a command its game and
strategy settings, ``search_command`` also how its work runs (a ``SearchSettings``).

Importing this module imports neither numpy nor numba: a base install (the player alone) lists
these commands in its help, and running one says which extra to install.
"""
from __future__ import annotations

import contextlib
import dataclasses
import errno
import functools
import importlib.util
import inspect
import json
import math
import os
import signal
import sys
import threading
import time
from concurrent.futures import BrokenExecutor
from pathlib import Path
from typing import Optional

import typer

from guesstree.player.cli import Command, fail
from guesstree.player.games import GAMES, Game, make_game
from guesstree.player.wording import counted

from . import catalogue
from .search.settings import SearchSettings  # the standard library alone

app = typer.Typer(rich_markup_mode=None)
EXTRA = "guesstree[compiler]"


NEEDS_NOTHING = ("list",)  # the commands that run on a player-only install too


def commands() -> dict:
    """This module's commands as click commands, by name (what the entry points load); where the
    compiler's dependencies are missing, the help of those that need them says so first."""
    found = dict(typer.main.get_command(app).commands)
    if _missing_dependency() is not None:
        for name, command in found.items():
            if name not in NEEDS_NOTHING:
                command.short_help = f"(needs {EXTRA}) {command.get_short_help_str()}"
    return found


def _missing_dependency() -> str | None:
    """The first of the compiler's dependencies that is not installed, found without importing
    it (numba takes a while, and small games never load it)."""
    for name in ("numpy", "numba"):
        try:
            found = importlib.util.find_spec(name) is not None
        except ValueError:  # in sys.modules as None: blocked, as on a base install
            found = False
        if not found:
            return name
    return None


def _engine(warm: bool = True):
    """Check that the compiler's dependencies are installed, or say in one line which extra brings
    them; then, on the first command on this machine that runs kernels, compile them all
    (``compiler.warm``)."""
    missing = _missing_dependency()
    if missing is not None:
        raise fail(f"this command needs the compiler's dependencies ({missing} is missing): pip install '{EXTRA}'")
    if warm:
        from .warm import ensure_warm

        ensure_warm()


@app.command("warm", cls=Command)
def warm_command() -> None:
    """Compile the compiler's kernels for this machine now (about a minute, once), so that no
    later compile, bound or compare stops to compile them.

    Example: guesstree warm
    """
    _engine(warm=False)
    from .warm import warm

    warm(say=lambda text: typer.echo(text, err=True))


# -- the options several commands share, declared once: the game's, a build's, a search's ------

def _option(name: str, annotation, default) -> inspect.Parameter:
    """A command's keyword parameter ``name``: typer reads its option (or argument) from ``default``."""
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation, default=default)


def _game_parameters() -> list[inspect.Parameter]:
    """The GAME argument, then one option per keyword any built-in game takes (from ``Game.parameters``)."""
    helps: dict[str, list[str]] = {}
    types: dict[str, type] = {}
    for game in GAMES.values():
        for key, (kind, text) in game.parameters.items():
            types[key] = kind
            if text not in helps.setdefault(key, []):
                helps[key].append(text)
    parameters = [_option("game", str, typer.Argument(..., metavar="GAME",
                                                      help=f"{', '.join(GAMES)}, or a plugin module:factory"))]
    for key, kind in types.items():
        flag = "--" + key.replace("_", "-")
        declaration = f"{flag}/--no-{flag[2:]}" if kind is bool else flag
        metavar = None if kind is bool else ("N" if kind is int else "FILE")
        parameters.append(_option(key, Optional[kind],
                                  typer.Option(None, declaration, metavar=metavar, help="; ".join(helps[key]))))
    return parameters


GAME_PARAMETERS = _game_parameters()


def game_from_options(name: str, **options) -> Game:
    """The game a command line names; an option another game takes is refused by name."""
    given = {key: value for key, value in options.items() if value is not None}
    if name in GAMES:
        stray = sorted(set(given) - set(GAMES[name].parameters))
        if stray:
            raise ValueError(f"{', '.join('--' + key.replace('_', '-') for key in stray)} does not apply to {name}")
    game = make_game(name, **given)
    game.secret_count(), game.guess_count()  # counted now: a bad word list is the user's mistake, named by file and line
    return game


def _setting_parameters(names: tuple[str, ...]) -> list[inspect.Parameter]:
    """One option per strategy setting named (``catalogue.SETTINGS``: its default, flag and help)."""
    parameters = []
    for key in names:
        setting = catalogue.SETTINGS[key]
        kind = str if setting.least is None else int
        parameters.append(_option(key, Optional[kind] if setting.default is None else kind, typer.Option(
            setting.default, catalogue.flag(key), metavar=setting.metavar, help=setting.help)))
    return parameters


BUILD_PARAMETERS = [
    _option("candidates", str, typer.Option(
        "all", "--candidates", metavar="all|consistent",
        help="guesses a strategy may play: all, or consistent (possible secrets only)")),
    _option("max_memory", float, typer.Option(
        8.0, "--max-memory", metavar="GIB",
        help="GiB the feedback matrix may use; a bigger game is scored in blocks on demand"))]


def memory_budget(gib: float) -> int:
    """``--max-memory`` in bytes, or a clear error."""
    if not (math.isfinite(gib) and gib > 0):
        raise fail(f"--max-memory must be a positive number of GiB, not {gib}")
    return int(gib * (1 << 30))


ESTIMATE_PARAMETERS = [
    _option("max_time", str, typer.Option(
        "6h", "--max-time", metavar="TIME", help="refuse a heuristic build estimated to take longer (90s, 20m, "
                                                 "6h, 2d, or none); the estimate is printed with the refusal")),
    _option("force", bool, typer.Option(
        False, "--force", help="build even where the estimate says it cannot finish (over --max-time, or over "
                               "this machine's memory)"))]


SEARCH_PARAMETERS = [  # how a command's work runs: the fields of search.settings.SearchSettings a user sets
    _option("workers", Optional[int], typer.Option(
        None, "--workers", metavar="N",
        help="threads to search with, or processes of a big heuristic build (default: one per core)")),
    _option("checkpoint", Optional[Path], typer.Option(
        None, "--checkpoint", metavar="FILE",
        help="keep the work in this file: an exhaustive search's (Ctrl-C saves it), a heuristic build's finished "
             "subtrees")),
    _option("resume", bool, typer.Option(False, "--resume", help="continue from the --checkpoint file")),
    _option("cluster", Optional[str], typer.Option(
        None, "--cluster", metavar="ADDRESS",
        help="run the jobs (an exhaustive search's; a heuristic build's subtrees) on a Dask cluster, "
             "tcp://HOST:PORT of its scheduler (default: $DASK_SCHEDULER_ADDRESS), or local:N for N worker "
             "processes here; needs guesstree[distributed]"))]


def game_command(name: str, settings: tuple[str, ...] = (), build: bool = False, estimate: bool = False):
    """A command taking GAME and the game options, and an option per strategy setting in
    ``settings``; the function receives the built ``game`` and ``settings``, the settings' values
    by name (an Options' keyword arguments). With ``build``, ``settings`` holds ``candidates`` and
    ``max_memory`` too (checked, in bytes); with ``estimate``, ``max_time`` (seconds, or None)
    and ``force``."""
    def decorate(function):
        names = [p.name for p in GAME_PARAMETERS]
        building = (BUILD_PARAMETERS if build else []) + (ESTIMATE_PARAMETERS if estimate else [])

        @functools.wraps(function)
        def run(**arguments):
            from .estimate import parse_duration

            chosen = {key: arguments.pop(key) for key in names}
            given = {key: arguments.pop(key) for key in (*settings, *(p.name for p in building))}
            if build:
                given["max_memory"] = memory_budget(given["max_memory"])
            try:
                if estimate:
                    given["max_time"] = parse_duration(given["max_time"])
                game = game_from_options(chosen.pop("game"), **chosen)
            except ValueError as error:
                raise fail(str(error)) from None
            return function(game=game, **({"settings": given} if settings or build else {}), **arguments)

        own = _own_parameters(function, ("game", "settings"))
        searching = [p for p in own if p in SEARCH_PARAMETERS]  # a search_command's: after the build's, in help
        parameters = [GAME_PARAMETERS[0], *(p for p in own if p not in searching), *building, *searching,
                      *_setting_parameters(settings), *GAME_PARAMETERS[1:]]
        return app.command(name, cls=Command)(_declared(run, parameters))
    return decorate


def search_command(name: str, settings: tuple[str, ...] = (), estimate: bool = False):
    """A game command (``game_command`` with ``build``) that takes how its work runs too
    (``SEARCH_PARAMETERS``); the function receives it as ``search``, a ``SearchSettings`` (which
    checks it)."""
    def decorate(function):
        @functools.wraps(function)
        def run(**arguments):
            how = {p.name: arguments.pop(p.name) for p in SEARCH_PARAMETERS}
            try:
                search = SearchSettings(**how)
            except ValueError as error:
                raise fail(str(error)) from None
            return function(search=search, **arguments)

        parameters = [*_own_parameters(function, ("search",)), *SEARCH_PARAMETERS]
        return game_command(name, settings, build=True, estimate=estimate)(_declared(run, parameters))
    return decorate


def _own_parameters(function, given: tuple[str, ...]) -> list[inspect.Parameter]:
    """``function``'s parameters as keyword-only options, but those named in ``given`` (which a
    declaration hands it)."""
    return [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in inspect.signature(function).parameters.values()
            if p.name not in given]


def _declared(run, parameters: list[inspect.Parameter]):
    """``run`` with ``parameters`` as the signature typer reads its options from."""
    run.__signature__ = inspect.signature(run).replace(parameters=parameters)
    run.__annotations__ = {p.name: p.annotation for p in parameters}
    return run


# -- the other options that several commands share ------------------------------------------------

QUIET = typer.Option(False, "--quiet", "-q", help="print nothing but errors")


def _notice(path: Optional[Path]) -> Optional[str]:
    """The text of a ``--notice FILE``, or a clear error."""
    if path is None:
        return None
    from .writer import check_notice

    try:
        return check_notice(path.read_text(encoding="utf-8-sig"))
    except FileNotFoundError:
        raise fail(f"--notice {path}: no such file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise fail(f"--notice {path}: cannot be read as text ({error})") from None
    except ValueError as error:
        raise fail(f"--notice {path}: {error}") from None


@search_command("compile", settings=tuple(catalogue.SETTINGS), estimate=True)
def compile_command(
    game: Game,
    settings: dict,
    search: SearchSettings,
    strategy: str = typer.Option(..., "--strategy", "-s", metavar="NAME", help=", ".join(catalogue.STRATEGIES)),
    output: Optional[Path] = typer.Option(None, "--output", "-o", metavar="FILE",
                                          help="artifact path (default: trees/<game>-<strategy>.msgpack.zst)"),
    quiet: bool = QUIET,
    engine: str = typer.Option("fast", "--engine", metavar="NAME",
                               help="fast (numpy kernels for small games, compiled numba kernels for big ones), "
                                    "numba, numpy, or reference (plain numpy, every guess at every node); same tree"),
    notice: Optional[Path] = typer.Option(None, "--notice", metavar="FILE",
                                          help="a licence or copyright notice (text) for the tree to carry, e.g. "
                                               "that of the word lists a words tree embeds"),
) -> None:
    """Expand a strategy's whole tree and write it as an artifact.

    Example: guesstree compile mastermind --strategy entropy -o trees/mm.msgpack.zst
    """
    _engine()
    from .options import Options
    from .writer import check_destination, default_path, save

    notice_text = _notice(notice)  # before any work

    started = time.perf_counter()
    with _failures("compile", game, "building", f"a smaller --max-memory (now {settings['max_memory'] / (1 << 30):g} "
                                                "GiB) scores the game in blocks on demand"):
        options = Options(strategy=strategy, engine=engine, **settings)
        path = check_destination(output or default_path(game, options))  # before any work
        try:
            with _terminate_as_interrupt():
                built = _compiled(game, options, quiet, search)
        except KeyboardInterrupt:  # Ctrl-C or SIGTERM outside a search: the workers are stopped
            typer.echo(f"\ninterrupted: {path} not written", err=True)
            raise typer.Exit(130) from None
    try:
        save(built, path, notice_text)
    except OSError as error:
        raise fail(f"cannot write {path}: {error.strerror or error}") from None
    if not quiet:
        s = built.stats
        typer.echo(f"wrote {path}: {game!r}, {options.name}, {counted(built.nodes, 'node')}; "
                   f"{counted(s['secrets'], 'secret')}, total {s['total']}, average {s['average']:.3f}, "
                   f"worst {s['worst']} ({time.perf_counter() - started:.2f} s)")
        if built.proof:
            typer.echo(f"optimal: {built.proof['proven']}")


def _compiled(game: Game, options, quiet: bool, search: SearchSettings):
    """The built tree, with its progress shown: an exhaustive strategy's search, then the tree."""
    from .builder import build, plan
    from .progress import compile_display

    figures = plan(game, options, search)[1]  # (refused there, if it cannot finish)
    if figures is not None and figures.seconds >= 60 and not quiet:
        typer.echo(f"estimated: {figures.text()}", err=True)
    with compile_display(quiet) as (searching, building):
        built = build(game, options, progress=building, search=dataclasses.replace(search, progress=searching))
    _say_first_guesses(built.first_guesses, quiet)
    return built


def _say_first_guesses(settled: dict, quiet: bool) -> None:
    """How the full proof settled its first guesses (effort, so on stderr: not in the artifact)."""
    if not quiet and sum(settled.values()) > 1:
        typer.echo(f"first guesses searched: {sum(settled.values())}; {settled['bound']} settled by a bound "
                   f"alone, {settled['search']} by a search", err=True)


@game_command("compare", settings=("seed", "guess_sample", "secret_sample"), build=True, estimate=True)
def compare_command(
    game: Game,
    settings: dict,
    strategies: Optional[str] = typer.Option(None, "--strategies", metavar="A,B,...",
                                             help="comma-separated strategies (default: first,minimax,entropy,"
                                                  "expected-size,most-parts)"),
    trees: Optional[Path] = typer.Option(None, "--trees", metavar="DIR",
                                         help="directory of trees to reuse (named as compile names them); "
                                              "compiled ones are saved there"),
    plot: Optional[Path] = typer.Option(None, "--plot", metavar="FILE",
                                        help="write the distributions side by side as an SVG picture"),
    as_json: bool = typer.Option(False, "--json", help="print the comparison as JSON"),
) -> None:
    """Compile (or load) one tree per strategy and compare them in one table.

    Columns: total and average guesses to win, worst case, the number of secrets won in
    1, 2, ... guesses, the average number of guesses to know the secret, the compile time.

    Example: guesstree compare mastermind --strategies entropy,minimax --plot mastermind.svg
    """
    _engine()
    from guesstree.player.artifact import write_atomic

    from .compare import DEFAULT_STRATEGIES, compare, parse_strategies, plot_svg, table
    from .writer import check_destination

    if trees is not None and trees.exists() and not trees.is_dir():
        raise fail(f"--trees {trees} is not a directory")

    def progress(name: str) -> None:
        if sys.stderr.isatty():
            typer.echo(f"compiling {name} ...", err=True)

    with _failures("compare", game, "comparing strategies on", "give a smaller --max-memory",
                   lambda error: f"cannot write {error.filename or plot}: {error.strerror or error}"):
        names = parse_strategies(strategies) if strategies is not None else list(DEFAULT_STRATEGIES)
        if plot is not None:
            check_destination(plot, artifact=False)  # before any work
        try:
            with _terminate_as_interrupt():
                rows = compare(game, names, settings, trees, progress)  # bad settings fail before any build
        except KeyboardInterrupt:  # Ctrl-C or SIGTERM: the workers are stopped (trees already saved stay)
            typer.echo("\ninterrupted: no comparison made", err=True)
            raise typer.Exit(130) from None
        if plot is not None:
            title = f"Guesses to win: {game.title()} ({counted(len(game.secrets), 'secret')})"
            write_atomic(plot, plot_svg(rows, title).encode())
    if as_json:
        typer.echo(json.dumps({"game": game.spec(), "secrets": len(game.secrets),
                               "rows": [row.to_json() for row in rows],
                               "plot": None if plot is None else str(plot)}, indent=2))
        return
    typer.echo(f"{game!r}, {counted(len(game.secrets), 'secret')}")
    typer.echo(table(rows))
    typer.echo("total, average, worst: guesses to win; to know: average guesses until one secret is left")
    if plot is not None:
        typer.echo(f"wrote {plot}")


@app.command("list", cls=Command)
def list_command() -> None:
    """List the games and the strategies, one line each.

    Example: guesstree list
    """
    typer.echo("games (guesstree compile GAME [options]; a plugin is module:factory):")
    for name, game in GAMES.items():
        summary = (game.__doc__ or "").strip().splitlines()[0].replace("``", "")
        flags = " ".join(f"--{key.replace('_', '-')}" for key in game.parameters)
        typer.echo(f"  {name:<12} {summary} [{flags}]")
    typer.echo("strategies (--strategy NAME):")
    for name, (doc, _) in catalogue.STRATEGIES.items():
        typer.echo(f"  {name:<17} {doc}")


# -- the exhaustive searches: the optimal worst case, the best first guesses -------------------

@search_command("bound")
def bound_command(
    game: Game,
    settings: dict,
    search: SearchSettings,
    as_json: bool = typer.Option(False, "--json", help="print the result and its proof as JSON"),
    quiet: bool = QUIET,
) -> None:
    """The optimal worst case: the fewest guesses within which some strategy wins every
    secret, proven both ways (a tree that does it; an exhaustive search refuting one fewer).

    Example: guesstree bound bulls-cows --json
    """
    _engine()
    from .progress import search_status
    from .bound import bound

    with _failures("bound", game, "searching", "give a smaller --max-memory",
                   lambda error: f"cannot write {search.checkpoint}: {error.strerror or error}"), \
            search_status(quiet) as status, _terminate_as_interrupt():
        found = bound(game, search=dataclasses.replace(search, progress=status), **settings)
    _say(game, found, as_json)


@search_command("openers", settings=("max_depth",))
def openers_command(
    game: Game,
    settings: dict,
    search: SearchSettings,
    top: int = typer.Option(10, "--top", metavar="K", help="how many of the best first guesses to rank exactly"),
    first: Optional[str] = typer.Option(None, "--first", metavar="GUESS",
                                        help="one first guess instead: its exact total and its exact rank"),
    as_json: bool = typer.Option(False, "--json", help="print the ranking as JSON"),
    report: Optional[Path] = typer.Option(None, "--report", metavar="FILE",
                                          help="write one JSON line per first guess: its total or the bound "
                                               "proven (at_least), how it was settled, its CPU seconds"),
    quiet: bool = QUIET,
) -> None:
    """Rank the first guesses by the least total of an optimal tree after them (optimal-expected):
    the K best exactly, with average and worst case, ties in the canonical guess order; every
    other first guess proven to need more.

    Example: guesstree openers words --answers hidden.txt --guesses all.txt --top 10
    """
    _engine()
    from guesstree.player.artifact import write_atomic

    from .writer import check_destination
    from .progress import search_status
    from .openers import rank_of, rank_openers

    if first is not None and report is not None:
        raise fail("--report lists every first guess of a ranking: leave out --first")
    with _failures("openers", game, "searching", "give a smaller --max-memory",
                   lambda error: f"cannot write {error.filename or report or search.checkpoint}: "
                                 f"{error.strerror or error}"):
        if report is not None:
            check_destination(report, artifact=False)  # before any work
        with search_status(quiet) as status, _terminate_as_interrupt():
            how = dataclasses.replace(search, progress=status)
            if first is not None:
                found = rank_of(game, first, search=how, **settings)
            else:
                found = rank_openers(game, top, search=how, **settings)
        if report is not None:
            lines = [json.dumps(opener.line()) for opener in found.openers]
            write_atomic(report, ("\n".join(lines) + "\n").encode())
    _say(game, found, as_json)
    if report is not None and not as_json:
        typer.echo(f"wrote {report}")


def _say(game: Game, found, as_json: bool) -> None:
    """What a search found (its ``text(game)``), or as JSON: the game, then its ``to_dict()``."""
    if as_json:
        typer.echo(json.dumps({"game": game.spec(), **found.to_dict()}, indent=2))
    else:
        typer.echo(found.text(game))


# -- how a command's work fails or stops ----------------------------------------------------------

@contextlib.contextmanager
def _failures(command: str, game: Game, doing: str, advice: str, os_said=None):
    """Every way a command's work fails, as one line and its exit code (the one mapping from errors
    to exit codes): a stopped search 130, with where its work is; anything else 2. ``doing`` and
    ``advice``: what a worker that died or memory that ran out interrupted, and what helps;
    ``os_said(error)``: what another system error says (default: that ``game`` could not be built)."""
    from .cluster import ClusterError
    from .search.solver import Interrupted

    try:
        yield
    except Interrupted as interrupted:
        raise _stopped(interrupted, command) from None
    except KeyboardInterrupt:
        raise _stopped(None, command) from None
    except ClusterError as error:  # with where the search's work was saved
        saved = "" if error.checkpoint is None else \
            f"; the search's work is saved in {error.checkpoint} (run the same {command} command with --resume)"
        raise fail(f"{error}{saved}") from None
    except BrokenExecutor:
        raise fail(f"a worker process died while {doing} {game!r} (out of memory, or killed)") from None
    except ValueError as error:
        raise fail(str(error)) from None
    except (MemoryError, OSError) as error:  # OSError: a mapping or a process the system refused
        if isinstance(error, MemoryError) or error.errno in (errno.ENOMEM, errno.EAGAIN):
            raise fail(f"out of memory {doing} {game!r}: {advice}") from None
        said = os_said(error) if os_said is not None else f"cannot build {game!r}: {error.strerror or error}"
        raise fail(said) from None


def _stopped(interrupted, command: str) -> typer.Exit:
    """Say on stderr that ``command``'s search was stopped, and where its work is saved (if
    ``interrupted`` says); exit 130."""
    if interrupted is None or interrupted.checkpoint is None:
        typer.echo("\ninterrupted: the search's work is lost (give --checkpoint FILE to keep it)", err=True)
    else:
        typer.echo(f"\ninterrupted: {interrupted.work} is saved in {interrupted.checkpoint}; run the same "
                   f"{command} command with --resume to continue", err=True)
    return typer.Exit(130)


@contextlib.contextmanager
def _terminate_as_interrupt():
    """SIGTERM (a job's time limit, a service stopping) stops a search as Ctrl-C does: its jobs
    stopped, its checkpoint saved, its shared memory freed (``_interrupt`` handles both signals)."""
    try:
        previous = {sig: signal.signal(sig, _interrupt) for sig in (signal.SIGTERM, signal.SIGINT)}
    except ValueError:  # not the main thread (an embedding program): leave its handlers alone
        yield
        return
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _interrupt(signum: int, frame) -> None:
    """Raise KeyboardInterrupt; but a signal arriving while numba compiles, inside one of
    llvmlite's ctypes callbacks (where Python prints a raised exception and drops it), is sent
    again a moment later, once the callback has returned."""
    while frame is not None:
        if "llvmlite" in frame.f_code.co_filename:  # within a callback from llvm, or under one
            threading.Timer(0.05, os.kill, (os.getpid(), signum)).start()
            return
        frame = frame.f_back
    raise KeyboardInterrupt


def main() -> None:
    """``python -m guesstree.compiler``: the whole program, as ``guesstree``."""
    from guesstree.player.cli import main as program

    program()

"""The commands that build trees: ``compile`` (one tree), ``compare`` (one per strategy, side by
side), and ``list`` (the games and strategies there are)."""
from __future__ import annotations

import dataclasses
import functools
import inspect
import json
import sys
import time
from pathlib import Path

import typer

from guesstree.player.program import Command, fail
from guesstree.player.games import GAMES, Game
from guesstree.player.wording import counted

from .. import catalogue
from ..workers.settings import SearchSettings
from .app import app, need_compiler
from .parameters import QUIET, declared, own_parameters, game_command, search_command
from .stops import failures, stops, terminate_as_interrupt


def _notice(path: Path | None) -> str | None:
    """The text of a ``--notice FILE``, or a clear error."""
    if path is None:
        return None
    from guesstree.player.header import check_notice

    try:
        return check_notice(path.read_text(encoding="utf-8-sig"))
    except FileNotFoundError:
        raise fail(f"--notice {path}: no such file") from None
    except OSError as error:
        raise fail(f"--notice {path}: cannot be read ({error.strerror or error})") from None
    except UnicodeDecodeError as error:
        raise fail(f"--notice {path}: cannot be read as text (not UTF-8: byte {error.start} is "
                   f"0x{error.object[error.start]:02x})") from None
    except ValueError as error:
        raise fail(f"--notice {path}: {error}") from None


def _estimable(function):
    """``compile``'s ``--estimate [--json]``: the estimate printed (``_estimate``) instead of the build."""
    @functools.wraps(function)
    def run(estimate_only: bool, as_json: bool, **arguments):
        if as_json and not estimate_only:
            raise fail("--json goes with --estimate (the tree itself is the artifact)")
        if not estimate_only:
            return function(**arguments)
        need_compiler()
        from ..options import Options

        game, settings = arguments["game"], arguments["settings"]
        with failures("compile", game, "estimating", "a smaller --max-memory"):
            options = Options(strategy=arguments["strategy"], engine=arguments["engine"], **settings)
            _estimate(game, options, arguments["search"], as_json)

    estimating = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=bool)
                  for name, default in (("estimate_only", typer.Option(False, "--estimate", help=(
                      "print the estimate of time and memory, and build nothing"))),
                                        ("as_json", typer.Option(False, "--json", help="with --estimate: as JSON")))]
    return declared(run, [*own_parameters(function, ()), *estimating])


@search_command("compile", settings=tuple(catalogue.SETTINGS), estimate=True)
@_estimable
def compile_command(
    game: Game,
    settings: dict,
    search: SearchSettings,
    strategy: str = typer.Option(..., "--strategy", "-s", metavar="NAME", help=", ".join(catalogue.STRATEGIES)),
    output: Path | None = typer.Option(None, "--output", "-o", metavar="PATH",
                                          help="the artifact's file, or an existing folder to write it in (default: "
                                               "<game slug>-<strategy>.msgpack.zst in the current folder, e.g. "
                                               "bulls-cows-d10-l4-entropy.msgpack.zst for bulls-cows --strategy "
                                               "entropy)"),
    quiet: bool = QUIET,
    engine: str = typer.Option("fast", "--engine", metavar="NAME",
                               help="fast (numpy kernels for small games, compiled numba kernels for big ones), "
                                    "numba, numpy, or reference (plain numpy, every guess at every node); same tree"),
    notice: Path | None = typer.Option(None, "--notice", metavar="FILE",
                                          help="a licence or copyright notice (text) for the tree to carry, e.g. "
                                               "that of the word lists a words tree embeds"),
) -> None:
    """Expand a strategy's whole tree and write it as an artifact.

    Example: guesstree compile mastermind --strategy entropy -o mm.msgpack.zst
    """
    need_compiler()
    from ..builder.writer import check_destination, default_path, save
    from ..options import Options

    notice_text = _notice(notice)  # before any work

    started = time.perf_counter()
    with failures("compile", game, "building", f"a smaller --max-memory (now {settings['max_memory'] / (1 << 30):g} "
                                                "GiB) scores the game in blocks on demand"):
        options = Options(strategy=strategy, engine=engine, **settings)
        named = default_path(game, options)
        path = check_destination(output or named, name=named.name)  # before any work
        try:
            with terminate_as_interrupt():
                built = _compiled(game, options, quiet, search)
        except stops():  # Ctrl-C or SIGTERM outside a search: the workers are stopped
            typer.echo(f"interrupted: {path} not written", err=True)
            raise typer.Exit(130) from None
    try:
        save(built, path, notice_text)
    except OSError as error:
        raise fail(f"cannot write {path}: {error.strerror or error}") from None
    if not quiet:
        s = built.stats
        weighted = f"weighted total {s.weighted_total:.6g}, mean {s.weighted_mean:.3f}; " if s.weighted else ""
        typer.echo(f"wrote {path}: {game.title()}, {options.name}, {counted(built.nodes, 'node')}; "
                   f"{counted(s['secrets'], 'secret')}, {weighted}total {s['total']}, average {s['average']:.3f}, "
                   f"worst {s['worst']} ({time.perf_counter() - started:.2f} s)")
        if built.proof:
            typer.echo(f"optimal: {built.proof['proven']}")
        if search.checkpoint is not None and Path(search.checkpoint).exists():
            typer.echo(f"kept the checkpoint {search.checkpoint} (compile --resume reuses its work); delete it once the "
                       "tree is all you need", err=True)


def _estimate(game: Game, options, search: SearchSettings, as_json: bool) -> None:
    """``compile --estimate``: what the build would take, printed (as JSON with ``--json``); nothing built."""
    from ..builder.estimate import summary
    from ..builder.runner import plan

    said = summary(game, options, plan(game, options, search, check=False)[1])
    typer.echo(json.dumps(said) if as_json else said["text"])


def _compiled(game: Game, options, quiet: bool, search: SearchSettings):
    """The built tree, with its progress shown: an exhaustive strategy's search, then the tree."""
    from ..builder.runner import build, plan
    from .progress import compile_display

    layout, figures = plan(game, options, search)  # (refused there, if it cannot finish)
    if figures is not None and figures.seconds >= 60 and not quiet:
        typer.echo(f"estimated: {figures.text()}", err=True)
    if layout.backend == "numba":
        from ..warm import announce

        announce("search" if options.strategy.is_exact else
                 "packed" if layout.peg_words(game) in ("unary", "nibbles") else "matrix", quiet)
    with compile_display(quiet) as (searching, building):
        built = build(game, options, progress=building, search=dataclasses.replace(search, progress=searching),
                      layout=layout)
    _say_first_guesses(built.first_guesses, quiet)
    return built


def _say_first_guesses(settled: dict, quiet: bool) -> None:
    """How the full proof settled its first guesses (effort, so on stderr: not in the artifact), in
    the words and counts of the proof's sentence: the best proven by a search, the others refuted
    (``settled['search']`` counts the best among the guesses searched)."""
    searched = sum(settled.values())
    if not quiet and searched > 1:
        typer.echo(f"first guesses: {searched}; the best proven by a search, the {searched - 1} others refuted: "
                   f"{settled['bound']} by a bound alone and {max(settled['search'] - 1, 0)} by search", err=True)


@game_command("compare", settings=("seed", "guess_sample", "secret_sample"), build=True, estimate=True)
def compare_command(
    game: Game,
    settings: dict,
    strategies: str | None = typer.Option(None, "--strategies", metavar="A,B,...",
                                             help="comma-separated strategies (default: first,minimax,entropy,"
                                                  "expected-size,most-parts)"),
    trees: Path | None = typer.Option(None, "--trees", metavar="DIR",
                                         help="directory of trees to reuse (named as compile names them); "
                                              "compiled ones are saved there"),
    plot: Path | None = typer.Option(None, "--plot", metavar="FILE",
                                        help="write the distributions side by side as an SVG picture"),
    as_json: bool = typer.Option(False, "--json", help="print the comparison as JSON"),
) -> None:
    """Compile (or load) one tree per strategy and compare them in one table.

    Columns: total and average guesses to win, worst case, the number of secrets won in
    1, 2, ... guesses, the average number of guesses to know the secret, the compile time
    (a game whose answers have weights: the weighted total and mean first).

    Example: guesstree compare mastermind --strategies entropy,minimax --plot mastermind.svg
    """
    need_compiler()
    from guesstree.player.artifact import write_atomic

    from ..builder.writer import check_destination
    from ..compare import DEFAULT_STRATEGIES, compare, parse_strategies, plot_svg, table

    if trees is not None and trees.exists() and not trees.is_dir():
        raise fail(f"--trees {trees} is not a directory")

    def progress(name: str) -> None:
        if sys.stderr.isatty():
            typer.echo(f"compiling {name} ...", err=True)

    with failures("compare", game, "comparing strategies on", "give a smaller --max-memory",
                   lambda error: f"cannot write {error.filename or plot}: {error.strerror or error}"):
        names = parse_strategies(strategies) if strategies is not None else list(DEFAULT_STRATEGIES)
        if plot is not None:
            check_destination(plot, artifact=False)  # before any work
        try:
            with terminate_as_interrupt():
                rows = compare(game, names, settings, trees, progress)  # bad settings fail before any build
        except stops():  # Ctrl-C or SIGTERM: the workers are stopped (trees already saved stay)
            typer.echo("interrupted: no comparison made", err=True)
            raise typer.Exit(130) from None
        if plot is not None:
            title = f"Guesses to win: {game.title()} ({counted(len(game.secrets), 'secret')})"
            write_atomic(plot, plot_svg(rows, title).encode())
    if as_json:
        typer.echo(json.dumps({"game": game.spec(), "secrets": len(game.secrets),
                               "rows": [row.to_json() for row in rows],
                               "plot": None if plot is None else str(plot)}, indent=2))
        return
    typer.echo(f"{game.title()}, {counted(len(game.secrets), 'secret')}")
    typer.echo(table(rows))
    if any(row.stats.weighted for row in rows):
        typer.echo("weighted, w. mean: guesses to win, each secret by its weight (the objective), in all and on average")
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

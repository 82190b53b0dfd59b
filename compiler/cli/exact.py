"""The commands over the exhaustive search: ``bound`` (the optimal worst case, proven) and
``openers`` (the exact ranking of the first guesses)."""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import typer

from guesstree.player.program import fail
from guesstree.player.games import Game

from ..workers.settings import SearchSettings
from .app import need_compiler
from .parameters import QUIET, search_command
from .stops import failures, terminate_as_interrupt


@search_command("bound")
def bound_command(
    game: Game,
    settings: dict,
    search: SearchSettings,
    as_json: bool = typer.Option(False, "--json", help="print the result and its proof as JSON"),
    host: str | None = typer.Option(None, "--host", metavar="absurdle",
                                    help="instead, the fewest guesses that beat an adversarial host: absurdle "
                                         "(it holds no secret and answers so as to keep the most)"),
    quiet: bool = QUIET,
) -> None:
    """The optimal worst case: the fewest guesses within which some strategy wins every
    secret, proven both ways (a tree that does it; an exhaustive search refuting one fewer).
    With --host absurdle: the fewest guesses that beat Absurdle's host, proven the same two ways.

    Example: guesstree bound bulls-cows --json
    """
    need_compiler()
    from ..exact import bound
    from ..warm import announce
    from .progress import search_status

    if host is not None:
        return _beat_host(game, host, settings, search, as_json, quiet)

    announce("search", quiet)
    with failures("bound", game, "searching", "give a smaller --max-memory",
                   lambda error: f"cannot write {search.checkpoint}: {error.strerror or error}"), \
            search_status(quiet) as status, terminate_as_interrupt():
        found = bound(game, search=dataclasses.replace(search, progress=status), **settings)
    _say(game, found, as_json)


@search_command("openers", settings=("max_depth",))
def openers_command(
    game: Game,
    settings: dict,
    search: SearchSettings,
    top: int = typer.Option(10, "--top", metavar="K", help="how many of the best first guesses to rank exactly"),
    first: str | None = typer.Option(None, "--first", metavar="GUESS",
                                        help="one first guess instead: its exact total and its exact rank"),
    as_json: bool = typer.Option(False, "--json", help="print the ranking as JSON"),
    report: Path | None = typer.Option(None, "--report", metavar="FILE",
                                          help="write one JSON line per first guess: its total or the bound "
                                               "proven (at_least), how it was settled, its CPU seconds"),
    quiet: bool = QUIET,
) -> None:
    """Rank the first guesses by the least total of an optimal tree after them (optimal-expected):
    the K best exactly, with average and worst case, ties in the canonical guess order; every
    other first guess proven to need more.

    Example: guesstree openers words --answers hidden.txt --guesses all.txt --top 10
    """
    need_compiler()
    from guesstree.player.artifact import write_atomic

    from ..builder.writer import check_destination
    from ..exact import rank_of, rank_openers
    from ..warm import announce
    from .progress import search_status

    if first is not None and report is not None:
        raise fail("--report lists every first guess of a ranking: leave out --first")
    announce("search", quiet)
    with failures("openers", game, "searching", "give a smaller --max-memory",
                   lambda error: f"cannot write {error.filename or report or search.checkpoint}: "
                                 f"{error.strerror or error}"):
        if report is not None:
            check_destination(report, artifact=False)  # before any work
        with search_status(quiet) as status, terminate_as_interrupt():
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


def _beat_host(game: Game, host: str, settings: dict, search: SearchSettings, as_json: bool, quiet: bool) -> None:
    """``bound --host``: ``host_search.fewest_against`` (one process, every allowed guess)."""
    from ..host_search import fewest_against

    if settings.get("candidates") == "consistent":
        raise fail("--host plays every allowed guess against the host: leave out --candidates consistent")
    if search.checkpoint is not None or search.cluster is not None:
        raise fail("--host searches in one process, without checkpoints: leave out --checkpoint and --cluster")
    with failures("bound", game, "searching", "give a smaller --max-memory", lambda error: str(error)), \
            terminate_as_interrupt():
        try:
            found = fewest_against(game, host, settings.get("max_memory"),
                                   progress=None if quiet else lambda line: typer.echo(line, err=True))
        except KeyboardInterrupt:  # (nothing of its work to keep, unlike a search's with --checkpoint)
            typer.echo("interrupted: stopped", err=True)
            raise typer.Exit(130) from None
    if as_json:
        typer.echo(json.dumps({"game": game.spec(), **found.to_dict(game)}, indent=2))
    else:
        typer.echo(found.text(game))


def _say(game: Game, found, as_json: bool) -> None:
    """What a search found (its ``text(game)``), or as JSON: the game, then its ``to_dict()``."""
    if as_json:
        typer.echo(json.dumps({"game": game.spec(), **found.to_dict()}, indent=2))
    else:
        typer.echo(found.text(game))

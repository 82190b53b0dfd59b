"""The options several commands share, declared once: the game's (``game_command``), a build's and
its estimate's, and how a search runs (``search_command``, which hands a command a ``SearchSettings``)."""
from __future__ import annotations

import functools
import inspect
import math
from pathlib import Path
from typing import Optional

import typer

from guesstree.player.program import Command, fail
from guesstree.player.games import GAMES, Game, make_game

from .. import catalogue
from ..workers.settings import SearchSettings  # the standard library alone
from .app import app


def _option(name: str, annotation, default) -> inspect.Parameter:
    """A command's keyword parameter ``name``: typer reads its option (or argument) from ``default``."""
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation, default=default)


METAVARS = {"feedback": "RULE"}  # a game's text option that is no file's name


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
        metavar = None if kind is bool else METAVARS.get(key) or {int: "N", float: "W"}.get(kind, "FILE")  # W: a weight
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
             "subtrees; the file stays when the command ends (delete it once done)")),
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
            from guesstree.player.wording import parse_duration

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

        own = own_parameters(function, ("game", "settings"))
        searching = [p for p in own if p in SEARCH_PARAMETERS]  # a search_command's: after the build's, in help
        parameters = [GAME_PARAMETERS[0], *(p for p in own if p not in searching), *building, *searching,
                      *_setting_parameters(settings), *GAME_PARAMETERS[1:]]
        return app.command(name, cls=Command)(declared(run, parameters))
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

        parameters = [*own_parameters(function, ("search",)), *SEARCH_PARAMETERS]
        return game_command(name, settings, build=True, estimate=estimate)(declared(run, parameters))
    return decorate


def own_parameters(function, given: tuple[str, ...]) -> list[inspect.Parameter]:
    """``function``'s parameters as keyword-only options, but those named in ``given`` (which a
    declaration hands it)."""
    return [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in inspect.signature(function).parameters.values()
            if p.name not in given]


def declared(run, parameters: list[inspect.Parameter]):
    """``run`` with ``parameters`` as the signature typer reads its options from."""
    run.__signature__ = inspect.signature(run).replace(parameters=parameters)
    run.__annotations__ = {p.name: p.annotation for p in parameters}
    return run


# -- the other options that several commands share ------------------------------------------------

QUIET = typer.Option(False, "--quiet", "-q", help="print nothing but errors")

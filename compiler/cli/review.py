"""``review``: a game's moves graded against the best ones (``player.review`` defines the figures;
``compiler.review`` computes them by the exhaustive search). It takes a tree or a game and its
options; on the player's install (no numpy) it reviews from the tree and the book alone."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from guesstree.player.program import FreeArguments, fail

from .app import app, missing_dependency, need_compiler
from .parameters import GAME_PARAMETERS, _option, declared, game_from_options


def review_command(**arguments) -> None:
    """Grade each move of a game: the expected guesses still needed after it against after the
    best guess, the tied best guesses, the worst case, the luck of each answer, a verdict (best,
    good below a loss of 0.05 guesses, inaccuracy below 0.2, mistake) and the total. Exact where
    the exhaustive search finishes within --seconds; elsewhere the figures are bounds, and say so.

    TREE_OR_GAME: a tree (a file, or a shipped tree's name), or a game with its options as compile
    takes them (a shipped optimal tree of that game is used where there is one). Give the moves
    after --, each guess with its feedback.

    Example: guesstree review wordle-salet-optimal-expected -- crane ----- moist -Y-YG ghost -GGYG shout GGGGG
    """
    source, history = arguments.pop("source"), arguments.pop("history") or []
    max_depth, seconds = arguments.pop("max_depth"), arguments.pop("seconds")
    as_json, any_guess, plugin = arguments.pop("as_json"), arguments.pop("any_guess"), arguments.pop("plugin")
    options = {key: value for key, value in arguments.items() if value is not None}
    if max_depth is not None and max_depth < 1:
        raise fail(f"--max-depth must be at least 1, not {max_depth}")
    if not seconds > 0:
        raise fail(f"--seconds must be above 0, not {seconds}")
    game, tree = _source(source, options, plugin, max_depth)
    from guesstree.player.cli.app import paired

    moves = paired(history, game, game.guesses[0] if tree is None else tree.guess_of(0))
    try:
        if missing_dependency() is None:
            need_compiler()
            from ..review import review

            from .stops import failures, terminate_as_interrupt
            with failures("review", game, "searching", "give a smaller game"), terminate_as_interrupt():
                try:
                    done = review(game, moves, max_depth, seconds, tree, any_guess)
                except KeyboardInterrupt:  # (a review keeps no work to resume: no word of a checkpoint)
                    typer.echo("interrupted: nothing reviewed", err=True)
                    raise typer.Exit(130) from None
        else:
            if tree is None:
                raise fail(f"no shipped tree settles {game.title()}, and the exhaustive search needs the "
                           f"compiler's dependencies ({missing_dependency()} is missing): pip install "
                           "'guesstree[compiler]', or name a tree of the game")
            from guesstree.player.review import review as tree_review

            done = tree_review(tree, moves, max_depth, any_guess)
    except ValueError as error:
        raise fail(str(error)) from None
    typer.echo(json.dumps(done.to_dict()) if as_json else done.text())


def _source(source: str, options: dict, plugin, max_depth: int | None):
    """The game and the tree that TREE_OR_GAME names: a game (by name or plugin module:factory)
    with its options, and the shipped tree that settles most of it; or a tree and its game."""
    from guesstree.player.games import GAMES
    from guesstree.player.review import shipped_tree

    if source in GAMES or (":" in source and not Path(source).exists()):
        try:
            game = game_from_options(source, **options)
        except ValueError as error:
            raise fail(str(error)) from None
        return game, shipped_tree(game, max_depth)
    if options:
        raise fail(f"{', '.join('--' + key.replace('_', '-') for key in options)}: game options go with a game "
                   f"(e.g. guesstree review mastermind --colours 6 ...), not a tree ({source})")
    from guesstree.player.cli.app import load_or_fail

    tree = load_or_fail(Path(source), plugin)
    return tree.game, tree


_PARAMETERS = [
    _option("source", str, typer.Argument(..., metavar="TREE_OR_GAME",
                                          help="a tree (file or shipped name), or a game: mastermind, bulls-cows, "
                                               "digits, twod, words, or a plugin module:factory")),
    _option("history", Optional[list[str]], typer.Argument(
        None, metavar="[GUESS FEEDBACK]...", help="the moves, each guess with its feedback, oldest first")),
    _option("max_depth", Optional[int], typer.Option(
        None, "--max-depth", metavar="N", help="review as if every game had to be won within N guesses "
                                               "(default: a tree's own limit, else none)")),
    _option("seconds", float, typer.Option(
        5.0, "--seconds", metavar="S", help="the longest the search may take on one move (its guess, and the "
                                            "position it leads to); past it the figures are bounds")),
    _option("as_json", bool, typer.Option(False, "--json", help="print the review as JSON (docs: Review a game)")),
    _option("any_guess", bool, typer.Option(False, "--any-guess",
                                            help="take a guess that is not one of the game's allowed guesses")),
    _option("plugin", Optional[list[str]], typer.Option(
        None, "--plugin", metavar="MODULE", help="trust this plugin game module (repeatable; default: "
                                                 "$GUESSTREE_PLUGINS)")),
    *GAME_PARAMETERS[1:]]

app.command("review", cls=FreeArguments)(declared(review_command, _PARAMETERS))

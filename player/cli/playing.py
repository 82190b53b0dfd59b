"""The commands that play a tree: ``play`` (against it, a person answering), ``solve`` (its path
for one secret) and ``next`` (the next guess after a history, once)."""
from __future__ import annotations

import json
from pathlib import Path

import typer

from .. import InconsistentHistory
from ..tree import NotAllowedGuess
from ..host import Absurdle, check_host
from ..program import FreeArguments, fail
from ..wording import counted
from .app import PLUGIN, TREE, command, load_or_fail, paired


@command(cls=FreeArguments)
def solve(
    tree_path: Path = TREE,
    secret: str = typer.Argument(..., help="the secret, as the game writes it (e.g. ABCD or 0123)"),
    plugin: list[str] | None = PLUGIN,
) -> None:
    """Show the tree's path for one secret.

    Example: guesstree solve trees/mastermind-c6-h4-entropy.msgpack.zst ABCD
    """
    tree = load_or_fail(tree_path, plugin)
    try:
        code = tree.game.parse_code(secret)
        if not tree.game.is_secret(code):
            raise ValueError(f"{secret!r} is not a possible secret of {tree.game}")
        path = tree.path(code)
    except (ValueError, InconsistentHistory) as error:
        raise fail(str(error)) from None
    game = tree.game
    for step, (guess, feedback) in enumerate(path, 1):
        typer.echo(f"{step}. {game.format_code(guess)}  {game.format_feedback(feedback)}")
    typer.echo(f"solved {game.format_code(code)} in {len(path)} guess{'' if len(path) == 1 else 'es'}")


@command("next", cls=FreeArguments)
def next_command(
    tree_path: Path = TREE,
    history: list[str] | None = typer.Argument(None, metavar="[GUESS FEEDBACK]...",
                                                  help="the guesses played so far, each with its feedback, oldest first"),
    as_json: bool = typer.Option(False, "--json", help="print guess, won, on_tree and candidates as JSON"),
    any_guess: bool = typer.Option(False, "--any-guess", help="take a guess that is not one of the game's allowed guesses"),
    plugin: list[str] | None = PLUGIN,
) -> None:
    """Print the next guess after the guesses and feedback given: the tree's while they follow it,
    else one computed from the secrets still possible (as play and Tree.suggest do).

    Prints nothing but the guess (or "won" once the winning feedback was given); exit 2 with one
    error line for a history no secret fits or text the game does not take.

    Example: guesstree next mastermind-c6-h4-entropy ABCD 1B1W --json
    """
    tree = load_or_fail(tree_path, plugin)
    steps = paired(history or [], tree.game, tree.guess_of(0))
    try:
        guess = tree.suggest(steps, any_guess=any_guess)
        on_tree = _on_tree(tree, steps)
        left = len(tree.candidates(steps, any_guess=any_guess))
    except NotAllowedGuess as error:  # the library names its keyword; here, the option
        raise fail(f"step {error.step}: {error.problem} (next --any-guess plays it anyway)") from None
    except ValueError as error:  # InconsistentHistory too
        raise fail(str(error)) from None
    shown = None if guess is None else tree.game.format_code(guess)
    if as_json:
        typer.echo(json.dumps({"guess": shown, "won": guess is None, "on_tree": on_tree, "candidates": left}))
    else:
        typer.echo("won" if guess is None else shown)


def _on_tree(tree, steps) -> bool:
    try:
        tree.next_guess(steps)
    except InconsistentHistory:
        return False
    return True


@command()
def play(
    tree_path: Path = TREE,
    plugin: list[str] | None = PLUGIN,
    any_guess: bool = typer.Option(False, "--any-guess",
                                   help="take a guess of your own that is not one of the game's allowed guesses"),
    you_guess: bool = typer.Option(False, "--you-guess",
                                   help="the other way round: the computer hides a secret, you guess, the tree hints"),
    seed: int | None = typer.Option(None, "--seed", metavar="N", help="--you-guess: hide the same secret for the same N"),
    host: str | None = typer.Option(None, "--host", metavar="absurdle",
                                    help="--you-guess: no secret is hidden; the host answers as Absurdle does, keeping "
                                         "as many secrets as it can"),
) -> None:
    """Play against a tree: it guesses, you answer with the feedback for your secret.

    Type the feedback as the game writes it (2B1W or '2 1' for mastermind, 1A2B for
    bulls-cows, 2S1B for digits, GY--- for words, <= >= none == for twod); or, if you
    played a guess of your own, the guess and its feedback (CRANE GY---): the game carries
    on from there with a guess computed from the secrets still possible. 'undo' takes
    the last answer back, 'help' shows the rules, 'quit' stops.

    With --you-guess the computer hides one of the game's secrets and you guess it: each
    guess gets the game's feedback; 'hint' shows the tree's guess for the game so far,
    'reveal' the secret. With --host absurdle it hides none: each guess gets the answer
    that keeps the most secrets (Absurdle), and 'reveal' says those still left.

    Example: guesstree play trees/mastermind-c6-h4-entropy.msgpack.zst, or a shipped tree by
    its name: guesstree play wordle-salet-optimal-expected
    """
    from ..session import Session

    session = Session(load_or_fail(tree_path, plugin), any_guess)
    game = session.game
    try:
        count = len(game.secrets)
    except ValueError as error:  # an older words tree away from its lists
        raise fail(str(error)) from None
    try:
        check_host(host)
    except ValueError as error:
        raise fail(str(error)) from None
    if host is not None and not you_guess:
        raise fail("--host answers your guesses: give --you-guess too")
    if you_guess:
        return _you_guess(session.tree, seed, host)
    commands = ("Played a guess of your own? Type it with its feedback. "
                "Type 'undo' to take an answer back, 'help' for these rules, 'quit' to stop.")
    typer.echo(f"{game.title()}, {counted(count, 'secret')}: {tree_path}")
    typer.echo(f"{game.instructions()}\n{commands}")
    try:
        while True:
            guess = session.guess()
            line = input(f"guess {len(session.history) + 1}: {game.format_code(guess)}  feedback? ").strip()
            if line.lower() in ("quit", "exit", "q"):
                return
            if line.lower() in ("help", "?", "h"):
                typer.echo(f"  {game.instructions()}\n  {commands}")
                continue
            if line.lower() == "undo":
                typer.echo(f"  {session.undo()}")
                continue
            try:
                message, done = session.answer(line)
            except ValueError as error:
                typer.echo(f"  {error}; try again ('help' shows how to answer)")
                continue
            typer.echo(f"  {message}")
            if done:
                return
    except EOFError:
        typer.echo("\nend of input: stopped")
    except KeyboardInterrupt:
        typer.echo("\ninterrupted: stopped")
        raise typer.Exit(130) from None


def _you_guess(tree, seed: int | None, host: str | None) -> None:
    """``play --you-guess``: the person guesses the secret the computer hides, or plays against an
    adversarial host (``session.Hidden``)."""
    import random

    from ..session import Hidden

    game = tree.game
    if host is None:
        hidden = Hidden(tree, random.Random(seed).choice(game.secrets))
        commands = "Type a guess, 'hint' for the tree's guess, 'reveal' to see the secret, 'quit' to stop."
        typer.echo(f"{game.title()}: a secret is hidden, one of {counted(len(game.secrets), 'secret')}. {commands}")
    else:
        hidden = Hidden(tree, host=Absurdle(game))
        commands = "Type a guess, 'hint' for the tree's guess, 'reveal' to see what is left, 'quit' to stop."
        typer.echo(f"{game.title()}: Absurdle hides no secret but keeps as many of the "
                   f"{counted(len(game.secrets), 'secret')} as it can. {commands}")
    try:
        while not hidden.over:
            line = input(f"guess {len(hidden.history) + 1}? ").strip()
            if line.lower() in ("quit", "exit", "q"):
                return
            calls = {"hint": hidden.hint, "reveal": hidden.reveal, "help": lambda: commands, "?": lambda: commands}
            try:
                said = calls[line.lower()]() if line.lower() in calls else hidden.guess(line)
            except ValueError as error:
                said = f"{error}; try again"
            typer.echo(f"  {said}")
    except EOFError:
        typer.echo("\nend of input: stopped")
    except KeyboardInterrupt:
        typer.echo("\ninterrupted: stopped")
        raise typer.Exit(130) from None

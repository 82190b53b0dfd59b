"""The ``guesstree`` command line: a thin shell over the library.

This module holds the player's commands (play, solve, next, info, trees, verify, manifest, export),
which only read trees and never import the compiler (``player/program.py`` gives the program its shape). Other installed packages add commands to the same program
through the ``guesstree.commands`` entry points: the compiler adds compile, bound and compare
(``compiler/cli.py``), loaded only when one of them runs or help lists them.
"""
from __future__ import annotations

import atexit
import difflib
import functools
import json
import os
import sys
import threading
from pathlib import Path
from typing import List, Optional

import typer

from . import FormatError, InconsistentHistory, __version__, load
from .header import jsonable
from .program import EXIT_INVALID, EXIT_UNUSABLE, Command, Program, fail
from .verify import unusable_report, verify_file
from .wording import counted

__all__ = ["app", "main", "fail", "Command", "EXIT_INVALID", "EXIT_UNUSABLE"]  # compiler/cli.py imports Command and fail

app = typer.Typer(
    cls=Program, no_args_is_help=True, rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
    help="Precomputed decision trees for Mastermind-style games: compile, play, verify.",
)


def _version(show: bool) -> None:
    if show:
        typer.echo(f"guesstree {__version__}")
        raise typer.Exit()


@app.callback()
def _program(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                          help="print the version and exit")) -> None:
    """Precomputed decision trees for Mastermind-style games: compile, play, verify.

    Commands: play, solve, next, info (what a tree does and holds), verify, manifest, export,
    trees (the shipped ones), list (the games and strategies); compile (a strategy's whole tree),
    bound (the optimal worst case), compare (strategies side by side), openers, warm.
    """


def command(*args, **kwargs):
    """``app.command`` with this program's help style."""
    return app.command(*args, cls=Command, **kwargs)


PLUGIN = typer.Option(None, "--plugin", metavar="MODULE",
                      help="trust this plugin game module (repeatable; default: $GUESSTREE_PLUGINS)")
TREE = typer.Argument(..., metavar="TREE", help="artifact (.msgpack.zst), or the name of a shipped tree "
                                                  "(e.g. wordle-salet-optimal-expected)")


def load_or_fail(path: Path, plugins: Optional[List[str]] = None):
    """The tree a TREE argument names: the artifact at ``path``, or where no such file exists and
    the name has no folder, the shipped tree of that name (``player.shipped()``)."""
    from .shipped import SUFFIX, load_shipped, shipped

    names = shipped() if not path.exists() and path.parent == Path(".") else []
    named = path.name.removesuffix(SUFFIX) in names
    try:
        return load_shipped(path.name) if named else load(path, plugins=plugins or None)
    except FormatError as error:
        hint = ""
        if names and not named:
            near = difflib.get_close_matches(path.name.removesuffix(SUFFIX), names, n=1, cutoff=0.6)
            hint = f"; nor is it a shipped tree's name ({f'did you mean {near[0]}? ' if near else ''}guesstree trees lists them)"
        raise fail(f"{error}{hint}") from None


@command()
def solve(
    tree_path: Path = TREE,
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
            raise ValueError(f"{secret!r} is not a possible secret of {tree.game}")
        path = tree.path(code)
    except (ValueError, InconsistentHistory) as error:
        raise fail(str(error)) from None
    game = tree.game
    for step, (guess, feedback) in enumerate(path, 1):
        typer.echo(f"{step}. {game.format_code(guess)}  {game.format_feedback(feedback)}")
    typer.echo(f"solved {game.format_code(code)} in {len(path)} guess{'' if len(path) == 1 else 'es'}")


@command("next")
def next_command(
    tree_path: Path = TREE,
    history: Optional[List[str]] = typer.Argument(None, metavar="[GUESS FEEDBACK]...",
                                                  help="the guesses played so far, each with its feedback, oldest first"),
    as_json: bool = typer.Option(False, "--json", help="print guess, won, on_tree and candidates as JSON"),
    any_guess: bool = typer.Option(False, "--any-guess", help="take a guess that is not one of the game's allowed guesses"),
    plugin: Optional[List[str]] = PLUGIN,
) -> None:
    """Print the next guess after the guesses and feedback given: the tree's while they follow it,
    else one computed from the secrets still possible (as play and Tree.suggest do).

    Prints nothing but the guess (or "won" once the winning feedback was given); exit 2 with one
    error line for a history no secret fits or text the game does not take.

    Example: guesstree next mastermind-c6-h4-entropy ABCD 1B1W --json
    """
    tree = load_or_fail(tree_path, plugin)
    given = history or []
    if len(given) % 2:
        raise fail(f"give each guess with its feedback (e.g. {tree.game.format_code(tree.guess_of(0))} "
                   f"{tree.game.format_feedback(tree.game.feedbacks()[0])}): {given[-1]!r} has none")
    steps = list(zip(given[::2], given[1::2]))
    try:
        guess = tree.suggest(steps, any_guess=any_guess)
        on_tree = _on_tree(tree, steps)
        left = len(tree.candidates(steps, any_guess=any_guess))
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


@command("trees")
def trees_command(as_json: bool = typer.Option(False, "--json", help="print a JSON array, one object per tree")) -> None:
    """List the trees shipped with guesstree: name, game, strategy, average and worst guesses to win.

    A TREE argument of any command takes a name of this list.

    Example: guesstree trees --json
    """
    from .shipped import listing

    rows = listing()
    if as_json:
        typer.echo(json.dumps(rows, indent=2))
        return
    width = max(len(row["name"]) for row in rows)
    game_width = max(len(row["game"]) for row in rows)
    typer.echo(f"{'name':<{width}}  {'game':<{game_width}}  {'strategy':<16}  average  worst")
    for row in rows:
        typer.echo(f"{row['name']:<{width}}  {row['game']:<{game_width}}  {row['strategy']:<16}  "
                   f"{row['average']:>7.4f}  {row['worst']:>5}")
    typer.echo(f"{counted(len(rows), 'tree')} in {Path(rows[0]['file']).parent}" if rows else "no shipped trees")


@command()
def info(
    tree_path: Path = TREE,
    as_json: bool = typer.Option(False, "--json", help="print the header as JSON"),
    plugin: Optional[List[str]] = PLUGIN,
) -> None:
    """Show a tree's header and statistics, with its distribution as bars.

    Example: guesstree info trees/mastermind-c6-h4-entropy.msgpack.zst --json
    """
    tree = load_or_fail(tree_path, plugin)
    header = {**tree.header, "stats": tree.stats.to_json(), "nodes": tree.nodes}
    if as_json:
        typer.echo(json.dumps(jsonable(header), indent=2))
        return
    s = tree.stats
    typer.echo(f"{tree_path}")
    typer.echo(f"  game       {tree.game}")
    if tree.allowed_guesses is not None:
        typer.echo(f"             compiled with {counted(tree.allowed_guesses, 'allowed guess', 'allowed guesses')}; "
                   f"the tree carries the {counted(len(tree.game.guesses), 'guess', 'guesses')} it can play")
    if tree.notice is not None:
        lines = tree.notice.strip().splitlines()
        more = f" ... ({counted(len(lines), 'line')}: info --json shows it whole)" if len(lines) > 1 else ""
        typer.echo(f"  notice     {lines[0]}{more}")
    for line in strategy_lines(tree.strategy):
        typer.echo(line)
    typer.echo(f"  producer   {header.get('producer')}, format {'.'.join(map(str, header.get('version', [])))}")
    chunks = f", in {counted(tree.chunks[0], 'chunk')} of {tree.chunks[1]} nodes" if tree.chunks else ""
    typer.echo(f"  nodes      {tree.nodes}{chunks}")
    typer.echo(f"  first      {tree.game.format_code(tree.next_guess([]))}")
    typer.echo(f"  secrets    {s['secrets']}")
    typer.echo(f"  to win     total {s['total']}, average {s['average']:.4f}, worst {s['worst']}")
    typer.echo(f"  to determine total {s['determined_total']}, average {s['determined_average']:.4f}, worst {s['determined_worst']}")
    typer.echo("guesses to win:")
    for line in bars(s["histogram"]):
        typer.echo(line)
    typer.echo("guesses to determine:")
    for line in bars(s["determined_histogram"]):
        typer.echo(line)


def strategy_lines(strategy: dict, width: int = 88) -> list[str]:
    """``info``'s strategy lines: its name and settings, then the proof's sentence (if any), each
    wrapped to ``width`` columns under the first."""
    import textwrap

    settings = ", ".join(f"{k}={v}" for k, v in strategy.items() if k not in ("name", "proven"))
    lines = textwrap.wrap(f"{strategy['name']}{', ' if settings else ''}{settings}", width - 13)
    proven = textwrap.wrap(str(strategy["proven"]), width - 13) if "proven" in strategy else []
    return ([f"  strategy   {lines[0]}", *(f"{'':13}{line}" for line in lines[1:])]
            + [f"  {'proven':<11}{line}" if i == 0 else f"{'':13}{line}" for i, line in enumerate(proven)])


def bars(histogram: dict, width: int = 40) -> list[str]:
    if not histogram:
        return []
    most = max(histogram.values())
    return [f"  {k:>3} {'█' * max(1, round(width * v / most)) if v else '':<{width}} {v}"
            for k, v in sorted(histogram.items())]


@command()
def verify(
    trees: Optional[List[Path]] = typer.Argument(None, metavar="[TREE|FOLDER]...",
                                                 help="artifacts, or folders of them (their *.msgpack.zst files)"),
    manifest: Optional[Path] = typer.Option(None, "--manifest", metavar="FILE|FOLDER",
                                            help="check against this MANIFEST.json (a FOLDER: its MANIFEST.json) too: each file's sha256, size and "
                                                 "statistics, and no listed file missing or tree file unlisted "
                                                 "(with TREE arguments: only those files)"),
    max_depth: Optional[int] = typer.Option(None, "--max-depth", metavar="N", help="fail if any secret needs more guesses"),
    as_json: bool = typer.Option(False, "--json", help="print a JSON array with one report per tree"),
    plugin: Optional[List[str]] = PLUGIN,
) -> None:
    """Replay every secret through each tree and check it; exit 0 valid, 1 invalid, 2 unusable.

    A FOLDER stands for its tree files (*.msgpack.zst). With --manifest FILE and no TREE, every
    file that FILE lists is checked, and every tree file beside it that it does not list is named.

    --json prints an array, one object per tree in the order given (however many):
    tree, ok, secrets, worst, total, average, histogram, determined_histogram, errors,
    and unusable (true when the file could not be read as a tree, or is listed but missing).

    Example: guesstree verify trees/mastermind-c6-h4-minimax.msgpack.zst --max-depth 5 --json

    Example: guesstree verify --manifest trees/MANIFEST.json
    """
    from .manifest import Manifest, ManifestError

    if max_depth is not None and max_depth < 1:
        raise fail("--max-depth must be at least 1")
    if not trees and manifest is None:
        raise fail("name a TREE or a FOLDER to verify, or give --manifest FILE")
    check = functools.partial(verify_file, max_depth=max_depth, plugins=plugin or None)
    if manifest is not None:
        try:
            listed = Manifest(manifest)
        except ManifestError as error:
            raise fail(str(error)) from None
        check = functools.partial(listed.check, max_depth=max_depth, plugins=plugin or None)
    if trees:
        reports = []
        for given in trees:
            found = _tree_files(given)
            reports += [check(path) for path in found] if found else \
                [unusable_report(given, "a folder without tree files (*.msgpack.zst)")]
    else:
        reports = [check(path) for path in listed.files()]
    status = max((EXIT_UNUSABLE if r["unusable"] else 0 if r["ok"] else EXIT_INVALID for r in reports), default=0)
    if as_json:
        typer.echo(json.dumps(reports, indent=2))
        raise typer.Exit(status)
    for report in reports:
        path = report["tree"]
        if report["unusable"]:
            said = report["errors"][0]
            typer.echo(f"UNUSABLE {path}: {said.removeprefix(f'{path}: ')}", err=True)  # the path once
        elif report["ok"]:
            typer.echo(f"ok {path}: {counted(report['secrets'], 'secret')}, total {report['total']}, "
                       f"average {report['average']:.4f}, worst {report['worst']}")
        else:
            typer.echo(f"INVALID {path}:", err=True)
            for line in report["errors"]:
                typer.echo(f"  {line}", err=True)
    if manifest is not None and status == 0:
        typer.echo(f"ok {listed.path}: {counted(len(reports), 'tree')} as listed")
    raise typer.Exit(status)


@command("manifest")
def manifest_command(
    folder: Path = typer.Argument(..., metavar="FOLDER", help="a folder of trees (its *.msgpack.zst files)"),
    output: Optional[Path] = typer.Option(None, "--output", "-o", metavar="FILE",
                                          help="file to write atomically (default: FOLDER/MANIFEST.json; - for standard output)"),
    plugin: Optional[List[str]] = PLUGIN,
) -> None:
    """Write the manifest of a folder of trees, to commit beside them: each file's sha256, size,
    game, strategy and statistics, which verify --manifest then holds the folder to.

    Every tree is read as verify reads it; one that is not a usable tree is named and nothing is written.

    Example: guesstree manifest trees/ -o trees/MANIFEST.json
    """
    from .artifact import write_atomic
    from .manifest import NAME, manifest_text

    if not folder.is_dir():
        raise fail(f"{folder}: {'not a folder' if folder.exists() else 'no such folder'}")
    if not _tree_files(folder):
        raise fail(f"{folder}: a folder without tree files (*.msgpack.zst)")
    try:
        text = manifest_text(folder, plugins=plugin or None)
    except ValueError as error:  # FormatError: the file and why
        raise fail(str(error)) from None
    if str(output) == "-":
        typer.echo(text, nl=False)
        return
    target = output if output is not None else folder / NAME
    try:
        write_atomic(target, text.encode("utf-8"))
    except OSError as error:
        raise fail(f"cannot write {target}: {error.strerror or error}") from None
    typer.echo(f"wrote {target}: {counted(len(json.loads(text)['trees']), 'tree')}")


def _tree_files(given: Path) -> list[Path]:
    """A TREE argument as the files to verify: a folder's tree files (sorted), or the path itself."""
    if not given.is_dir():
        return [given]
    return sorted(p for p in given.glob("*.msgpack.zst") if p.is_file())


@command()
def play(
    tree_path: Path = TREE,
    plugin: Optional[List[str]] = PLUGIN,
    any_guess: bool = typer.Option(False, "--any-guess",
                                   help="take a guess of your own that is not one of the game's allowed guesses"),
) -> None:
    """Play against a tree: it guesses, you answer with the feedback for your secret.

    Type the feedback as the game writes it (2B1W or '2 1' for mastermind, 1A2B for
    bulls-cows, 2S1B for digits, GY--- for words, <= >= none == for twod); or, if you
    played a guess of your own, the guess and its feedback (CRANE GY---): the game carries
    on from there with a guess computed from the secrets still possible. 'undo' takes
    the last answer back, 'help' shows the rules, 'quit' stops.

    Example: guesstree play trees/mastermind-c6-h4-entropy.msgpack.zst, or a shipped tree by
    its name: guesstree play wordle-salet-optimal-expected
    """
    from .session import Session

    session = Session(load_or_fail(tree_path, plugin), any_guess)
    game = session.game
    try:
        count = len(game.secrets)
    except ValueError as error:  # an older words tree away from its lists
        raise fail(str(error)) from None
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
        raise typer.Exit(130)


@command("export")
def export_command(
    tree_path: Path = TREE,
    fmt: Optional[str] = typer.Option(None, "--format", "-f", metavar="FORMAT", help="json, dot, text or html (default: from the -o suffix)"),
    output: Optional[Path] = typer.Option(None, "--output", "-o", metavar="FILE", help="file to write atomically (default: standard output)"),
    max_depth: Optional[int] = typer.Option(None, "--max-depth", metavar="N", help="dot: draw the first N guesses of each path, then a summary"),
    no_book: bool = typer.Option(False, "--no-book", help="html: leave out the opening book, which suggest follows after a first guess of one's own (Wordle's page: 473 KB -> 198 KB)"),
    plugin: Optional[List[str]] = PLUGIN,
) -> None:
    """Write a tree as nested JSON, Graphviz dot, one text line per secret, or a web page to play in.

    The html page is self-contained: open it in any browser, offline.

    Example: guesstree export trees/mastermind-c6-h4-entropy.msgpack.zst --format html -o mastermind.html
    """
    from .artifact import write_atomic
    from .export import FORMATS, export

    suffixes = {".json": "json", ".dot": "dot", ".gv": "dot", ".txt": "text", ".html": "html", ".htm": "html"}
    if output is not None and output.is_dir():  # before the format, which a folder's name cannot give
        raise fail(f"cannot write {output}: it is a directory; name a file in it, "
                   f"e.g. {output / ('tree.' + {'text': 'txt'}.get(fmt, fmt or 'html'))}")
    if fmt is None:
        fmt = suffixes.get(output.suffix.lower()) if output is not None else None
        if fmt is None:
            raise fail(f"say which --format to write: {', '.join(FORMATS)}")
    if fmt not in FORMATS:
        raise fail(f"unknown format: {fmt!r}; choose from {', '.join(FORMATS)}")
    if max_depth is not None and max_depth < 1:
        raise fail("--max-depth must be at least 1")
    if no_book and fmt != "html":
        raise fail("--no-book applies to --format html only")
    tree = load_or_fail(tree_path, plugin)
    if no_book:
        tree.book = None
    try:
        text = export(tree, fmt, max_depth)  # ValueError: e.g. an older words tree without its lists
    except ValueError as error:
        raise fail(str(error)) from None
    if output is None:
        typer.echo(text, nl=False)
        return
    try:
        write_atomic(output, text.encode("utf-8"))
    except OSError as error:
        raise fail(f"cannot write {output}: {error.strerror or error}") from None


def main() -> None:
    try:
        app(prog_name="guesstree")
    except SystemExit as done:
        code = done.code
    else:
        code = 0
    if "numba" in sys.modules and threading.active_count() == 1:
        _end_now(code)
    sys.exit(code)


def _end_now(code) -> None:
    """End without the interpreter's teardown: once numba has loaded compiled code, tearing down
    takes 0.13 s, which a 1-second command would spend freeing memory that the system takes back
    anyway. What must happen at exit still does: the exit handlers, and the output flushed."""
    if code is not None and not isinstance(code, int):
        print(code, file=sys.stderr)
        code = 1
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe: nothing more can be said there
            pass
    os._exit(code or 0)

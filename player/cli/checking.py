"""The commands that check trees before they are shipped or trusted: ``verify`` (every secret
replayed, against a manifest too) and ``manifest`` (a folder's, written)."""
from __future__ import annotations

import functools
import json
from pathlib import Path

import typer

from ..program import EXIT_INVALID, EXIT_UNUSABLE, fail
from ..verify import unusable_report, verify_file
from ..wording import counted
from .app import PLUGIN, command


@command()
def verify(
    trees: list[Path] | None = typer.Argument(None, metavar="[TREE|FOLDER]...",
                                                 help="artifacts, or folders of them (their *.msgpack.zst files)"),
    manifest: Path | None = typer.Option(None, "--manifest", metavar="FILE|FOLDER",
                                            help="check against this MANIFEST.json (a FOLDER: its MANIFEST.json) too: each file's sha256, size and "
                                                 "statistics, and no listed file missing or tree file unlisted "
                                                 "(with TREE arguments: only those files)"),
    max_depth: int | None = typer.Option(None, "--max-depth", metavar="N", help="fail if any secret needs more guesses"),
    as_json: bool = typer.Option(False, "--json", help="print a JSON array with one report per tree"),
    plugin: list[str] | None = PLUGIN,
) -> None:
    """Replay every secret through each tree and check it; exit 0 valid, 1 invalid, 2 unusable.

    A FOLDER stands for its tree files (*.msgpack.zst). With --manifest FILE and no TREE, every
    file that FILE lists is checked, and every tree file beside it that it does not list is named.

    --json prints an array, one object per tree in the order given (however many):
    tree, ok, secrets, worst, total, average, histogram, determined_histogram, errors,
    weighted_total, weighted_mean and total_weight (a weighted game's only), and unusable (true when the file could not be read as a tree, or is listed but missing).

    Example: guesstree verify trees/mastermind-c6-h4-minimax.msgpack.zst --max-depth 5 --json

    Example: guesstree verify --manifest trees/MANIFEST.json
    """
    from ..manifest import Manifest, ManifestError

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
            weighted = (f"weighted total {report['weighted_total']:.6g}, mean {report['weighted_mean']:.4f}; "
                        if "weighted_total" in report else "")
            typer.echo(f"ok {path}: {counted(report['secrets'], 'secret')}, {weighted}total {report['total']}, "
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
    output: Path | None = typer.Option(None, "--output", "-o", metavar="FILE",
                                          help="file to write atomically (default: FOLDER/MANIFEST.json; - for standard output)"),
    plugin: list[str] | None = PLUGIN,
) -> None:
    """Write the manifest of a folder of trees, to commit beside them: each file's sha256, size,
    game, strategy and statistics, which verify --manifest then holds the folder to.

    Every tree is read as verify reads it; one that is not a usable tree is named and nothing is written.

    Example: guesstree manifest trees/ -o trees/MANIFEST.json
    """
    from ..artifact import write_atomic
    from ..manifest import NAME, manifest_text

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

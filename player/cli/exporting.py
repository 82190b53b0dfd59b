"""The command that writes a tree in other forms: ``export`` (JSON, Graphviz dot, text, a web page)."""
from __future__ import annotations

from pathlib import Path

import typer

from ..program import fail
from .app import PLUGIN, TREE, command, load_or_fail


@command("export")
def export_command(
    tree_path: Path = TREE,
    fmt: str | None = typer.Option(None, "--format", "-f", metavar="FORMAT",
                                      help="json, dot (Graphviz source: its dot -Tsvg draws it), text or html "
                                           "(default: from the -o suffix)"),
    output: Path | None = typer.Option(None, "--output", "-o", metavar="FILE", help="file to write atomically (default: standard output)"),
    max_depth: int | None = typer.Option(None, "--max-depth", metavar="N", help="dot: draw the first N guesses of each path, then a summary"),
    no_book: bool = typer.Option(False, "--no-book", help="html: leave out the opening book, which suggest follows after a first guess of one's own (Wordle's page: 473 KB -> 198 KB)"),
    plugin: list[str] | None = PLUGIN,
) -> None:
    """Write a tree as nested JSON, Graphviz dot, one text line per secret, or a web page to play in.

    The html page is self-contained: open it in any browser, offline.

    Example: guesstree export trees/mastermind-c6-h4-entropy.msgpack.zst --format html -o mastermind.html
    """
    from ..artifact import write_atomic
    from ..export import FORMATS, export

    suffixes = {".json": "json", ".dot": "dot", ".gv": "dot", ".txt": "text", ".html": "html", ".htm": "html"}
    if output is not None and output.is_dir():  # before the format, which a folder's name cannot give
        raise fail(f"cannot write {output}: it is a directory; name a file in it, "
                   f"e.g. {output / ('tree.' + {'text': 'txt'}.get(fmt or 'html', fmt or 'html'))}")
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
    if fmt == "dot":  # a picture only once Graphviz draws it
        typer.echo(f"wrote {output}: Graphviz source; draw it with Graphviz's dot: "
                   f"dot -Tsvg {output} -o {output.with_suffix('.svg')}", err=True)

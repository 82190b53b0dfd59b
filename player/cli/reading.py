"""The commands that read what trees hold: ``info`` (a tree's header and statistics) and ``trees``
(the shipped ones)."""
from __future__ import annotations

import json
from pathlib import Path

import typer

from ..header import jsonable
from ..wording import counted
from .app import PLUGIN, TREE, command, load_or_fail


@command("trees")
def trees_command(as_json: bool = typer.Option(False, "--json", help="print a JSON array, one object per tree")) -> None:
    """List the trees shipped with guesstree: name, game, strategy, average and worst guesses to win.

    A TREE argument of any command takes a name of this list.

    Example: guesstree trees --json
    """
    from ..shipped import listing

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
    plugin: list[str] | None = PLUGIN,
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
    if s.weighted:  # the objective, then the plain figures (every secret once)
        typer.echo(f"  weighted   total {s['weighted_total']:.6g}, mean {s['weighted_mean']:.4f} "
                   f"(guesses to win, each secret by its weight; weights {s['total_weight']:.6g} in all)")
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

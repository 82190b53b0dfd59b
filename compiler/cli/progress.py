"""What a long command shows while it works, on stderr when it is a terminal (and not --quiet):
a bar of the work done while a tree is built, with the secrets solved, the time taken and the
time left at the work's pace (``BuildBar``), and the exhaustive search's status
(``search_status``). Both draw with rich, imported only when there is a terminal to draw on.
"""
from __future__ import annotations

import contextlib
import sys
import time


class BuildBar:
    """A progress bar of the build's work (``expand.Work``: the candidates of the nodes split, out
    of those done and guessed ahead), with the secrets solved and the nodes placed, and the time
    left at the pace of the work: ``with BuildBar(quiet, total) as update``
    gives the builder's ``progress(solved, total, nodes, work, expected)``, or None when nothing is
    shown. (The secrets are solved last: a breadth-first build wins most of them on its last levels,
    so a bar of them would promise days for minutes.)"""

    def __init__(self, quiet: bool, total: int):
        self.enabled = not quiet and sys.stderr.isatty()
        self.total, self.bar = total, None

    def __enter__(self):
        if not self.enabled:
            return None
        from rich.console import Console
        from rich.progress import BarColumn, Progress as Bar, TextColumn, TimeElapsedColumn

        self.bar = Bar(TextColumn("compiling"), BarColumn(),
                       TextColumn("{task.fields[solved]}/{task.fields[secrets]} secrets, {task.fields[nodes]:,} nodes"),
                       TimeElapsedColumn(), TextColumn("{task.fields[left]}"), console=Console(stderr=True),
                       transient=True)
        self.bar.__enter__()
        task = self.bar.add_task("compile", total=1, solved=0, secrets=self.total, nodes=0, left="")
        started, last = time.monotonic(), [0.0]

        def update(solved: int, total: int, nodes: int, work: int, expected: int) -> None:
            now = time.monotonic()
            if now - last[0] > 0.1 or solved == total:
                last[0] = now
                # the time left at the pace of the work so far (rich's own estimate restarts whenever
                # the total changes, and the work guessed ahead changes as each node opens)
                left = _left(now - started, work, expected) if work else ""
                self.bar.update(task, completed=work, total=max(expected, work, 1), solved=solved, secrets=total,
                                nodes=nodes, left=left)

        return update

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.__exit__(*exc)
        return False


def bar_share(status: dict) -> tuple[int, int]:
    """``(completed, total)`` of the search's bar: first guesses searched when they are jobs, else
    jobs done of the jobs handed out so far (done and in flight); ``(0, 1)``, an empty bar, before
    any job. Never a full bar for work not done."""
    openers = status.get("openers")
    if openers:
        return status.get("openers_done", 0), openers
    done, in_flight = status.get("jobs_done", 0), status.get("in_flight", 0)
    return (done, done + in_flight) if done + in_flight else (0, 1)


def describe(status: dict) -> tuple[str, str]:
    """The status line's two halves: where the search is, and its jobs, best total and nodes."""
    where = [status.get("task", "searching")]
    if "refuted" in status:  # the ranking of first guesses (search/ranking.py)
        where.append(f"{status.get('settled', 0)} settled, {status['refuted']} refuted")
    if "root" in status:
        where.append(f"first guess {status['root']}")
    if status.get("part"):  # (None: no part of the current first guess handed out yet)
        where.append(f"part {status['part']} ({status.get('part_size', '?')} secrets)")
    if "guess_index" in status:
        where.append(f"second guess {status['guess_index']}/{status.get('guesses', '?')}")
    done, in_flight = status.get("jobs_done", 0), status.get("in_flight", 0)
    jobs = [f"{done} jobs done, {in_flight} in flight"] if done else [f"{in_flight} jobs in flight"] if in_flight else []
    if "best" in status:
        jobs.append(f"best {status['best']}")
    if "kth" in status:
        jobs.append(f"{_ordinal(status.get('top', 0))} best {status['kth']}")
    if status.get("nodes"):  # (none while the codes are listed and scored: nothing to say yet)
        jobs.append(f"{status['nodes']:,} nodes")
    return ", ".join(where)[:80], ", ".join(jobs)


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def time_left(status: dict, elapsed: float) -> str:
    """An estimate of the time left, where the work has a known size: the first guesses, when
    they are the search's jobs, at the pace of those done so far. Jobs handed out as the search
    goes have no known total, so they get none."""
    openers, done = status.get("openers"), status.get("openers_done", 0)
    if not openers or not done or done >= openers:
        return ""
    return _left(elapsed, done, openers)


def _left(elapsed: float, done: float, total: float) -> str:
    """The time left of ``total`` at the pace of ``done`` in ``elapsed`` seconds, as the bars say it."""
    if done >= total:
        return ""
    seconds = elapsed * (total - done) / done
    shown = f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.0f} min" if seconds < 5400 else \
        f"{seconds / 3600:.1f} h"
    return f"about {shown} left"


@contextlib.contextmanager
def search_status(quiet: bool):
    """A long exhaustive search's progress on stderr (a terminal, not --quiet), else None: a bar
    (``bar_share``), the jobs in flight, the best total so far and where the search is; the Dask
    dashboard's address, once."""
    if quiet or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, Progress as Bar, TextColumn, TimeElapsedColumn

    console = Console(stderr=True)
    bar = Bar(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.fields[jobs]}"),
              TimeElapsedColumn(), TextColumn("{task.fields[left]}"), console=console, transient=True)
    task = bar.add_task("searching", total=1, jobs="", left="")
    started, last, said = time.monotonic(), [0.0], set()

    def show(status: dict) -> None:
        dashboard = status.get("dashboard")
        if dashboard and dashboard not in said:
            said.add(dashboard)
            console.print(f"Dask dashboard: {dashboard} ({status.get('workers', '?')} workers)")
        now = time.monotonic()
        if now - last[0] < 0.25:
            return
        last[0] = now
        where, jobs = describe(status)
        completed, total = bar_share(status)
        bar.update(task, description=where, jobs=jobs, total=total, completed=completed,
                   left=time_left(status, now - started))

    with bar:
        yield show


@contextlib.contextmanager
def compile_display(quiet: bool):
    """A compile's progress, on stderr when it is a terminal (and not --quiet): the search's status
    while an exhaustive strategy searches, then the build's bar while the tree is built.
    Yields ``(search, build)``: the search's ``progress(status)`` and the builder's
    ``progress(solved, total, nodes, work, expected)``, each None when nothing is shown."""
    if quiet or not sys.stderr.isatty():
        yield None, None
        return
    shown: dict = {}
    with contextlib.ExitStack() as building, contextlib.ExitStack() as searching:
        def search(status: dict) -> None:
            if "build" not in shown:
                if "search" not in shown:
                    shown["search"] = searching.enter_context(search_status(False))
                shown["search"](status)

        def build(solved: int, total: int, *so_far: int) -> None:
            if "build" not in shown:
                searching.close()  # the search is over: its line gives way to the bar
                shown["build"] = building.enter_context(BuildBar(False, total))
            shown["build"](solved, total, *so_far)

        yield search, build

"""Prove the records of trees/RECORDS.md again, one JSON line per result.

    python scripts/records.py                                   # every record, in table order
    python scripts/records.py --only mastermind-c4-h5-optimal-expected
    python scripts/records.py --list                            # the records' names
    python scripts/records.py --skip-long                       # leave out the records marked long

Each line: the record's name, the game spec, the objective (``optimal-expected``, ``optimal-worst``,
``fewest-at-worst`` or ``bound``), the total, average, worst case and number of secrets at the worst (``bound`` proves
the worst case only: its total is that of the tree the proof found, not a least total), the first
guess, wall and CPU seconds (this process's threads and children), and the cores it had. A
record that cannot be proved here (too big for the table, out of memory) prints its name with
``"status": "failed"`` and its error, and the others go on; the exit status is then 1.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from dataclasses import dataclass, field

from guesstree.compiler import Options, build
from guesstree.compiler.exact import bound
from guesstree.compiler.exact import rank_openers
from guesstree.player.games import make_game

OBJECTIVES = ("optimal-expected", "optimal-worst", "fewest-at-worst", "bound")


@dataclass(frozen=True)
class Record:
    """One result of the table: a game, its parameters, and the objective proved on it."""

    game: str
    params: dict
    objective: str
    long: bool = False  # minutes rather than seconds here: left out by --skip-long
    max_depth: int | None = None
    note: str = field(default="", compare=False)
    # optimal-expected by the ranking of the first guesses (``guesstree openers --top 1``), then the
    # tree of the best one (``compile --first``): for games of few first guesses and big parts, where
    # the compile's root refutes a poor first guess by searching whole parts (Mastermind 2x10's AAAAAAAAAA)
    ranked: bool = False

    @property
    def name(self) -> str:
        depth = f"-depth{self.max_depth}" if self.max_depth else ""
        return f"{make_game(self.game, **self.params).slug()}-{self.objective}{depth}"


def mastermind(colours: int, holes: int, repeats: bool = True) -> tuple[str, dict]:
    return "mastermind", {"colours": colours, "holes": holes, "secret_repeats": repeats, "guess_repeats": repeats}


def bulls_cows(digits: int, length: int) -> tuple[str, dict]:
    return "bulls-cows", {"digits": digits, "length": length}


def records_for(game: tuple[str, dict], objectives=OBJECTIVES, long: bool = False) -> list[Record]:
    return [Record(game[0], game[1], objective, long) for objective in objectives]


RECORDS = [
    *(record for colours in range(2, 13) for record in records_for(mastermind(colours, 2))),  # Chen and Lin 2004: 2 pegs
    *(record for digits in range(2, 11) for record in records_for(bulls_cows(digits, 2))),  # and the AB game,
    *(record for colours in (11, 12) for record in records_for(mastermind(colours, 2, repeats=False))),  # past 10 digits
    *(record for holes in range(3, 9) for record in records_for(mastermind(2, holes))),  # 2 colours, N holes
    *(record for colours, holes in ((3, 3), (3, 4), (3, 5), (4, 3), (4, 4), (5, 3), (5, 4))
      for record in records_for(mastermind(colours, holes))),  # Goddard 2004's table of averages
    *records_for(mastermind(3, 6)),
    *records_for(mastermind(3, 7)),
    *records_for(mastermind(4, 5)),
    *records_for(mastermind(5, 5)),
    *records_for(mastermind(6, 4, repeats=False)),
    *records_for(mastermind(8, 4, repeats=False)),
    *records_for(mastermind(9, 4, repeats=False)),
    *records_for(bulls_cows(10, 3)),
    *records_for(bulls_cows(9, 4)),
    *records_for(bulls_cows(8, 4)),
    Record(*mastermind(6, 4), "fewest-at-worst", note="Slovesnov: at least 539 secrets need 5 guesses"),
    Record(*bulls_cows(10, 4), "fewest-at-worst", long=True, note="Slovesnov: at least 50 secrets need 7 guesses"),
    *records_for(mastermind(8, 4), long=True),
    *records_for(mastermind(9, 4), ("bound", "optimal-expected"), long=True),
    *records_for(mastermind(10, 4), ("bound", "optimal-expected"), long=True),
    *records_for(mastermind(6, 5), ("bound", "optimal-expected"), long=True),
    *records_for(mastermind(2, 9), long=True),
    *(Record(*mastermind(2, holes), objective, long=True, ranked=objective == "optimal-expected")
      for holes in range(10, 13) for objective in OBJECTIVES),
]


def cpu_seconds() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def prove(record: Record) -> dict:
    """Prove ``record`` and return its JSON line's fields."""
    game = make_game(record.game, **record.params)
    wall, cpu = time.perf_counter(), cpu_seconds()
    if record.objective == "bound":
        report = bound(game)
        upper = report.proof["upper"]
        values = {"total": upper["tree_total"], "average": upper["tree_total"] / game.secret_count(),
                  "worst": report.worst, "at_worst": None, "first_guess": upper["first_guess"],
                  "proof": report.proof["lower"]["by"]}
    else:
        ranking = rank_openers(game, top=1, max_depth=record.max_depth) if record.ranked else None
        first = ranking.best[0].code if ranking else None
        built = build(game, Options(record.objective, max_depth=record.max_depth, first=first))
        s = built.stats
        proof = built.proof.get("proven", "")
        if ranking:
            proof = (f"every other first guess ({sum(ranking.refuted().values())}) is proven to need more than "
                     f"{s.total} guesses, or {s.total} and to come later; {proof}")
        values = {"total": s.total, "average": s.average, "worst": s.worst, "at_worst": s.histogram[s.worst],
                  "first_guess": game.format_code(game.guesses[built.node_guess[0]]), "proof": proof}
    return {"name": record.name, "game": game.spec(), "objective": record.objective,
            "max_depth": record.max_depth, "secrets": game.secret_count(), **values,
            "seconds": round(time.perf_counter() - wall, 1), "cpu_seconds": round(cpu_seconds() - cpu, 1),
            "cores": os.cpu_count()}


def select(only: list[str] | None, skip_long: bool) -> list[Record]:
    if not only:
        return [record for record in RECORDS if not (skip_long and record.long)]
    by_name = {record.name: record for record in RECORDS}
    unknown = [name for name in only if name not in by_name]
    if unknown:
        raise SystemExit(f"unknown record: {unknown[0]!r}; see --list")
    return [by_name[name] for name in dict.fromkeys(only)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", metavar="NAME", help="prove only these records (see --list)")
    parser.add_argument("--list", action="store_true", help="print the records' names and exit")
    parser.add_argument("--skip-long", action="store_true", help="leave out the records that take minutes here")
    args = parser.parse_args(argv)
    if args.list:
        print("\n".join(record.name + ("  (long)" if record.long else "") for record in RECORDS))
        return 0
    failed = 0
    for record in select(args.only, args.skip_long):
        try:
            line = prove(record)
        except (ValueError, MemoryError) as error:  # one record that cannot be proved here stops no other
            failed += 1
            line = {"name": record.name, "objective": record.objective, "status": "failed", "error": str(error)}
        print(json.dumps(line), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

"""Mastermind cells of ``mikemag/Mastermind``'s published table (its ``results/README.md``: Knuth
and most-parts, the average and the worst case of every game, each from the first guess it found
best) rebuilt here with the same first guesses; prints JSON, or a Markdown table with ``--markdown``.

    python scripts/mikemag_table.py [--max-secrets 60000] [--strategies minimax,most-parts] [--markdown]

Its Knuth is our ``minimax``, its Most Parts our ``most-parts``, both with every code a guess
(``--candidates all``) and ties to a possible secret, then the lowest code. Its first guesses are
digits (``1122``: colours 1, 1, 2, 2), ours letters (``AABB``). A cell agrees when our tree's
average is within one unit of the table's last decimal and the worst cases are equal: the table
mostly rounds (6x4 Knuth: 5801 / 1296 = 4.47608 is its 4.4761) but not always (14x2 Knuth: its
6.6326, where its raw data, ``results/2023_4090/*_aa_2p_2-15c.json``, holds 6.63265306122449,
1300 / 196, our total exactly). Each cell is one ``guesstree compile mastermind --colours C --holes H
--strategy S --first G``, timed whole in-process (the kernels compiled before).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# (colours, holes): (its first guess, its average, its worst), for the cells of at most 2 million
# secrets; copied from the table of mikemag/Mastermind, results/README.md.
CELLS = {
    "minimax": {
        (2, 2): ("12", 2.0000, 3), (3, 2): ("12", 2.3333, 3), (4, 2): ("12", 2.8125, 4),
        (5, 2): ("12", 3.3600, 5), (6, 2): ("12", 3.6667, 5), (7, 2): ("12", 4.1224, 6),
        (8, 2): ("12", 4.4531, 6), (9, 2): ("12", 4.8642, 7), (10, 2): ("12", 5.2000, 7),
        (11, 2): ("12", 5.5868, 8), (12, 2): ("12", 5.9236, 8), (13, 2): ("12", 6.2959, 9),
        (14, 2): ("12", 6.6326, 9), (15, 2): ("12", 6.9956, 10), (2, 3): ("112", 2.2500, 3),
        (3, 3): ("112", 2.7407, 4), (4, 3): ("112", 3.2656, 4), (5, 3): ("112", 3.6400, 5),
        (6, 3): ("123", 4.0463, 5), (7, 3): ("123", 4.4140, 6), (8, 3): ("123", 4.7871, 6),
        (9, 3): ("123", 5.1824, 7), (10, 3): ("123", 5.5050, 7), (11, 3): ("123", 5.8107, 7),
        (12, 3): ("123", 6.1291, 8), (13, 3): ("123", 6.4329, 8), (14, 3): ("123", 6.7085, 8),
        (15, 3): ("123", 7.0006, 9), (2, 4): ("1112", 2.7500, 4), (3, 4): ("1123", 3.0741, 4),
        (4, 4): ("1123", 3.5898, 4), (5, 4): ("1123", 4.0336, 5), (6, 4): ("1122", 4.4761, 5),
        (7, 4): ("1234", 4.8367, 6), (8, 4): ("1234", 5.1831, 6), (9, 4): ("1234", 5.5053, 7),
        (10, 4): ("1234", 5.8103, 7), (11, 4): ("1234", 6.1408, 8), (12, 4): ("1234", 6.4177, 8),
        (13, 4): ("1234", 6.7223, 9), (14, 4): ("1234", 7.0014, 9), (15, 4): ("1123", 7.3959, 9),
        (2, 5): ("11122", 3.0312, 4), (3, 5): ("11122", 3.4074, 4), (4, 5): ("11223", 3.9824, 5),
        (5, 5): ("11223", 4.4374, 6), (6, 5): ("11223", 4.8772, 6), (7, 5): ("11223", 5.2321, 7),
        (8, 5): ("11223", 5.6084, 7), (9, 5): ("11234", 5.9507, 8), (10, 5): ("12345", 6.2656, 8),
        (11, 5): ("12345", 6.5547, 9), (12, 5): ("12345", 6.8587, 9), (13, 5): ("12345", 7.1615, 9),
        (14, 5): ("12345", 7.4602, 10), (15, 5): ("11234", 7.7118, 10), (2, 6): ("111222", 3.5156, 5),
        (3, 6): ("111223", 3.7435, 5), (4, 6): ("112233", 4.3787, 6), (5, 6): ("112233", 4.8696, 6),
        (6, 6): ("111234", 5.3186, 7), (7, 6): ("112234", 5.7151, 8), (8, 6): ("112234", 6.0867, 8),
        (9, 6): ("112234", 6.4289, 9), (10, 6): ("112345", 6.7372, 9), (11, 6): ("112234", 7.0563, 9),
        (2, 7): ("1111222", 4.0000, 6), (3, 7): ("1112233", 4.1367, 5), (4, 7): ("1112233", 4.7997, 6),
        (5, 7): ("1112234", 5.3401, 7), (6, 7): ("1122334", 5.8044, 8), (7, 7): ("1122334", 6.2222, 8),
        (2, 8): ("11111222", 4.3984, 6), (3, 8): ("11122233", 4.5138, 6), (4, 8): ("11122334", 5.2406, 7),
        (5, 8): ("11122334", 5.8407, 8), (6, 8): ("11122334", 6.3456, 9),
    },
    "most-parts": {
        (2, 2): ("12", 2.0000, 3), (3, 2): ("12", 2.3333, 3), (4, 2): ("12", 2.8125, 4),
        (5, 2): ("12", 3.2400, 4), (6, 2): ("12", 3.6667, 5), (7, 2): ("12", 4.0612, 5),
        (8, 2): ("12", 4.4531, 6), (9, 2): ("12", 4.8272, 6), (10, 2): ("12", 5.2000, 7),
        (11, 2): ("12", 5.5620, 7), (12, 2): ("12", 5.9236, 8), (13, 2): ("12", 6.2781, 8),
        (14, 2): ("12", 6.6326, 9), (15, 2): ("12", 6.9822, 9), (2, 3): ("112", 2.2500, 3),
        (3, 3): ("112", 2.7037, 4), (4, 3): ("112", 3.2188, 4), (5, 3): ("123", 3.6240, 5),
        (6, 3): ("123", 3.9769, 5), (7, 3): ("123", 4.3498, 6), (8, 3): ("123", 4.7012, 6),
        (9, 3): ("123", 5.0316, 7), (10, 3): ("123", 5.3770, 7), (11, 3): ("123", 5.7077, 8),
        (12, 3): ("123", 6.0347, 8), (13, 3): ("123", 6.3673, 9), (14, 3): ("123", 6.6928, 9),
        (15, 3): ("123", 7.0169, 10), (2, 4): ("1112", 2.7500, 4), (3, 4): ("1123", 3.0370, 4),
        (4, 4): ("1123", 3.5547, 5), (5, 4): ("1123", 3.9568, 5), (6, 4): ("1123", 4.3735, 6),
        (7, 4): ("1123", 4.7430, 6), (8, 4): ("1234", 5.0874, 7), (9, 4): ("1234", 5.3999, 7),
        (10, 4): ("1234", 5.7320, 8), (11, 4): ("1122", 6.3312, 8), (12, 4): ("1234", 6.3777, 9),
        (13, 4): ("1234", 6.7027, 9), (14, 4): ("1234", 7.0294, 10), (15, 4): ("1234", 7.3563, 10),
        (2, 5): ("11122", 3.0312, 4), (3, 5): ("11123", 3.3580, 4), (4, 5): ("11223", 3.8799, 5),
        (5, 5): ("11223", 4.3514, 6), (6, 5): ("11122", 4.8322, 6), (7, 5): ("11223", 5.1686, 7),
        (8, 5): ("11223", 5.5491, 8), (9, 5): ("11234", 5.9035, 8), (10, 5): ("11234", 6.2502, 9),
        (11, 5): ("11234", 6.5941, 9), (12, 5): ("11234", 6.9381, 10), (13, 5): ("12345", 7.2716, 10),
        (14, 5): ("12345", 7.6014, 11), (15, 5): ("12345", 7.9318, 11), (2, 6): ("111122", 3.5000, 5),
        (3, 6): ("111223", 3.6653, 5), (4, 6): ("111223", 4.2676, 6), (5, 6): ("111223", 4.7807, 7),
        (6, 6): ("112233", 5.2336, 8), (7, 6): ("112234", 5.6554, 8), (8, 6): ("112233", 6.0275, 9),
        (9, 6): ("112234", 6.3920, 9), (10, 6): ("112234", 6.7433, 10), (11, 6): ("112234", 7.0934, 10),
        (2, 7): ("1111222", 3.9531, 6), (3, 7): ("1111223", 4.0210, 6), (4, 7): ("1112223", 4.6763, 7),
        (5, 7): ("1112233", 5.2409, 8), (6, 7): ("1112233", 5.7253, 9), (7, 7): ("1234567", 6.3962, 9),
        (2, 8): ("11112222", 4.3867, 6), (3, 8): ("11112223", 4.3976, 6), (4, 8): ("11122233", 5.1320, 7),
        (5, 8): ("11122233", 5.7528, 9), (6, 8): ("11122233", 6.2755, 10),
    },
}


def letters(digits: str) -> str:
    return "".join(chr(ord("A") + int(d) - 1) for d in digits)


def run(strategy: str, colours: int, holes: int) -> dict:
    from guesstree.compiler import Options, build
    from guesstree.player.games import make_game

    first, average, worst = CELLS[strategy][colours, holes]
    started = time.perf_counter()
    built = build(make_game("mastermind", colours=colours, holes=holes), Options(strategy, first=letters(first)))
    seconds = time.perf_counter() - started
    stats = built.stats
    ours = stats["total"] / stats["secrets"]
    return {"strategy": strategy, "colours": colours, "holes": holes, "first": letters(first),
            "secrets": stats["secrets"], "total": stats["total"], "average": round(ours, 5), "worst": stats["worst"],
            "published_average": average, "published_worst": worst,
            "agrees": abs(ours - average) < 1e-4 and stats["worst"] == worst, "seconds": round(seconds, 2)}


def main() -> int:
    parser = argparse.ArgumentParser(description="rebuild cells of mikemag/Mastermind's table")
    parser.add_argument("--max-secrets", type=int, default=60000)
    parser.add_argument("--strategies", default="minimax,most-parts")
    parser.add_argument("--markdown", action="store_true", help="a table for trees/RECORDS.md instead of JSON")
    args = parser.parse_args()
    rows = [run(strategy, c, h) for strategy in args.strategies.split(",")
            for (c, h) in sorted(CELLS[strategy], key=lambda cell: (cell[1], cell[0])) if c ** h <= args.max_secrets]
    if not args.markdown:
        print(json.dumps({"cells": len(rows), "agree": sum(r["agrees"] for r in rows), "rows": rows}, indent=1))
        return 0
    print("| strategy | colours x holes | first | total | average (published) | worst (published) | agrees | seconds |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['strategy']} | {r['colours']}x{r['holes']} | {r['first']} | {r['total']} | {r['average']:.5f} "
              f"({r['published_average']:.4f}) | {r['worst']} ({r['published_worst']}) | {'yes' if r['agrees'] else 'no'} "
              f"| {r['seconds']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

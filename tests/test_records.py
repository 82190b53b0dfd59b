"""The records of trees/RECORDS.md are right: an exhaustive search written here, independently of
the engine (plain Python over the game's own ``score``), finds the same optimum on small games;
no heuristic tree beats a record; a depth limit never helps; and two games that are the same game
prove the same total."""
from __future__ import annotations

import json
import re
import sys
from functools import cache
from pathlib import Path

import pytest

from guesstree.compiler import Options, build
from guesstree.compiler.exact import bound
from guesstree.compiler.search.total import Infeasible
from guesstree.player.games import make_game

ROOT = Path(__file__).resolve().parent.parent
HEURISTICS = ("first", "entropy", "worst-entropy", "minimax", "most-parts", "expected-size")


def brute_force(game):
    """(least total guesses to win every secret, fewest guesses in the worst case, and within those
    the fewest secrets that need them with the least total) of ``game``, by
    trying every allowed guess at every set of candidates: no symmetry, no bounds from the engine.
    Sets of candidates are tuples of secret indices in canonical order, memoised."""
    secrets, guesses = game.secrets, game.guesses
    scores = [[game.score(guess, secret) for secret in secrets] for guess in guesses]
    position = {secret: index for index, secret in enumerate(secrets)}
    wins = [position.get(guess) for guess in guesses]  # the secret a guess wins, if it is one

    def parts(candidates, g):
        """The non-winning feedback's parts, or None if the guess learns nothing and wins nothing."""
        split: dict = {}
        for secret in candidates:
            if secret != wins[g]:
                split.setdefault(scores[g][secret], []).append(secret)
        if wins[g] not in candidates and len(split) == 1:
            return None
        return [tuple(part) for part in split.values()]

    @cache
    def least_total(candidates):
        if len(candidates) <= 2:
            return 2 * len(candidates) - 1  # one won at once, the other next
        best = None
        for g in range(len(guesses)):
            split = parts(candidates, g)
            if split is None:
                continue
            # a part of n secrets takes at least 2n - 1 guesses: skip a guess that cannot do better
            if best is not None and len(candidates) + sum(2 * len(part) - 1 for part in split) >= best:
                continue
            total = len(candidates) + sum(least_total(part) for part in split)
            best = total if best is None else min(best, total)
        return best

    @cache
    def least_worst(candidates):
        if len(candidates) <= 2:
            return len(candidates)
        best = None
        for g in range(len(guesses)):
            split = parts(candidates, g)
            if split is not None:
                worst = 1 + max((least_worst(part) for part in split), default=0)
                best = worst if best is None else min(best, worst)
                if best == 1 + (len(candidates) > 1):
                    break  # no guess does better than winning or splitting into single secrets
        return best

    @cache
    def fewest_late(candidates, budget):
        """(secrets won by the budget's last guess, total) of the best tree within ``budget``, by
        that order, or None if no tree fits."""
        best = None
        for g in range(len(guesses)) if budget >= 1 else ():
            split = parts(candidates, g)
            if split is None:
                continue
            below = [fewest_late(part, budget - 1) for part in split]
            if None in below:
                continue
            won = wins[g] in candidates
            found = ((won and budget == 1) + sum(late for late, _ in below),
                     len(candidates) + sum(total for _, total in below))
            best = found if best is None else min(best, found)
        return best

    everything = tuple(range(len(secrets)))
    worst = least_worst(everything)
    return least_total(everything), worst, fewest_late(everything, worst)


def test_the_brute_force_knows_the_smallest_game_by_hand():
    # 2 colours, 2 holes: AB scores 2B (AB), 0B2W (BA), 1B0W (AA and BB): 1 + 2 + 2 + 3 = 8, worst 3
    # no opener wins every secret within 2; within 3, one secret needs the third (AA, then BB or AB, then BA)
    assert brute_force(make_game("mastermind", colours=2, holes=2)) == (8, 3, (1, 8))


SMALL = [(2, 2), (2, 3), (3, 2), (3, 3), (2, 4), (4, 2),
         pytest.param(4, 3, marks=pytest.mark.slow), pytest.param(3, 4, marks=pytest.mark.slow)]  # a minute each


@pytest.mark.parametrize("colours,holes", SMALL)
def test_the_engine_proves_what_the_brute_force_finds(colours, holes):
    game = make_game("mastermind", colours=colours, holes=holes)
    total, worst, (late, late_total) = brute_force(game)
    built = build(game, Options("optimal-expected"))
    assert built.stats.total == total
    assert built.proof["minimum_total"] == total
    assert bound(game).worst == worst
    within = build(game, Options("optimal-worst"))
    assert within.stats.worst == worst
    fewest = build(game, Options("fewest-at-worst"))
    assert (fewest.stats.worst, fewest.stats.histogram[worst], fewest.stats.total) == (worst, late, late_total)
    assert (fewest.proof["minimum_worst"], fewest.proof["fewest_at_worst"], fewest.proof["minimum_total"]) == \
        (worst, late, late_total)
    assert within.stats.histogram[worst] >= late and within.stats.total <= late_total


# Goddard 2004, "Mastermind Revisited": the least average to three decimals (these totals are the
# only ones that round to it, the games having fewer than 1000 secrets)
GODDARD = {(3, 4): 3.037, (4, 3): 3.219, (2, 5): 3.031, (2, 6): 3.5, (2, 7): 3.875}


@pytest.mark.parametrize("colours,holes", sorted(GODDARD))
def test_a_record_matches_the_published_average(colours, holes):
    stats = build(make_game("mastermind", colours=colours, holes=holes), Options("optimal-expected")).stats
    assert round(stats.average, 3) == GODDARD[colours, holes]


def chen_lin_mastermind(n: int) -> int:
    """Chen and Lin 2004, *Optimal algorithms for 2 x n Mastermind games*: the least average of two
    pegs in n colours is (8n^3 + 51n^2 - 74n + 48) / 24n^2 for even n, (8n^3 + 51n^2 - 80n + 69) / 24n^2
    for odd n (as the abstract states them): 24 times the least total."""
    return 8 * n**3 + 51 * n**2 - (74 * n - 48 if n % 2 == 0 else 80 * n - 69)


def chen_lin_ab(n: int) -> int:
    """Chen and Lin 2004, *Optimal algorithms for 2 x n AB games*: the least average of two different
    digits of n is (4n^3 + 21n^2 - 76n + 72) / 12n(n - 1) for even n, (4n^3 + 21n^2 - 82n + 105) /
    12n(n - 1) for odd n: 12 times the least total."""
    return 4 * n**3 + 21 * n**2 - (76 * n - 72 if n % 2 == 0 else 82 * n - 105)


@pytest.mark.parametrize("n", range(2, 13))
def test_two_pegs_match_chen_and_lins_formulas(n):
    """Both of Chen and Lin's closed forms, expected and worst case, Mastermind and the AB game (Bulls
    and Cows of two digits, Mastermind without repeats past 10 digits), for 2 to 12 colours."""
    mastermind = make_game("mastermind", colours=n, holes=2)
    ab = make_game("bulls-cows", digits=n, length=2) if n <= 10 else \
        make_game("mastermind", colours=n, holes=2, secret_repeats=False, guess_repeats=False)
    assert 12 * build(ab, Options("optimal-expected")).stats.total == chen_lin_ab(n)
    assert bound(ab).worst == -(-n // 2) + 1
    assert bound(mastermind).worst == n // 2 + 2
    total = build(mastermind, Options("optimal-expected")).stats.total
    if n == 2:  # the formula gives 7, which no tree reaches: no first guess of AA, AB, BA and BB tells
        # the other three apart, so 1 + 2 + 2 + 3 = 8 is the least (the brute force's too)
        assert (chen_lin_mastermind(2), total) == (24 * 7, 8)
    else:
        assert 24 * total == chen_lin_mastermind(n)


@pytest.mark.parametrize("game,params", [("mastermind", {"colours": 4, "holes": 3}),
                                         ("mastermind", {"colours": 5, "holes": 3, "secret_repeats": False,
                                                         "guess_repeats": False}),
                                         ("bulls-cows", {"digits": 6, "length": 3})])
def test_no_heuristic_beats_a_record(game, params):
    game = make_game(game, **params)
    record = build(game, Options("optimal-expected")).stats
    worst = bound(game).worst
    for strategy in HEURISTICS:
        for candidates in ("all", "consistent"):
            stats = build(game, Options(strategy, candidates=candidates)).stats
            assert stats.total >= record.total, (strategy, candidates)
            assert stats.worst >= worst, (strategy, candidates)


@pytest.mark.parametrize("colours,holes", [(5, 2), (4, 3), (2, 6)])
def test_a_depth_limit_never_helps(colours, holes):
    game = make_game("mastermind", colours=colours, holes=holes)
    free = build(game, Options("optimal-expected")).stats
    worst = bound(game).worst
    for depth in range(worst, free.worst + 2):
        limited = build(game, Options("optimal-expected", max_depth=depth)).stats
        assert limited.total >= free.total and limited.worst <= depth
    assert build(game, Options("optimal-expected", max_depth=free.worst)).stats.total == free.total
    # optimal-worst is the least total within the bound's worst case: Mastermind 8x4's --max-depth 6 row
    assert build(game, Options("optimal-worst")).stats.total == \
        build(game, Options("optimal-expected", max_depth=worst)).stats.total
    with pytest.raises(Infeasible):
        build(game, Options("optimal-expected", max_depth=worst - 1))


@pytest.mark.slow
def test_mastermind_without_repeats_is_bulls_and_cows():
    mastermind = make_game("mastermind", colours=10, holes=3, secret_repeats=False, guess_repeats=False)
    bulls_cows = make_game("bulls-cows", digits=10, length=3)
    assert [mastermind.score(g, s) for g in mastermind.guesses[:40] for s in mastermind.secrets] == \
        [bulls_cows.score(g, s) for g in bulls_cows.guesses[:40] for s in bulls_cows.secrets]
    totals = {build(game, Options("optimal-expected")).stats.total for game in (mastermind, bulls_cows)}
    assert totals == {3575}


def test_the_records_script_prints_one_json_line_per_result(capsys, load_script):
    records = load_script("records")
    assert records.main(["--only", "mastermind-c3-h3-optimal-expected", "mastermind-c3-h3-bound"]) == 0
    first, second = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert (first["total"], first["worst"], first["at_worst"], first["first_guess"]) == (73, 4, 1, "AAB")
    assert (second["objective"], second["worst"], second["at_worst"]) == ("bound", 4, None)
    assert first["game"] == {"name": "mastermind", "params": {"colours": 3, "holes": 3, "secret_repeats": True,
                                                              "guess_repeats": True}}


@pytest.mark.parametrize("holes", [6, 7])
def test_a_record_proved_by_the_ranking_of_first_guesses_is_the_compiles(load_script, holes):
    """A ``ranked`` record (``openers --top 1``, then ``compile --first`` of the best; Mastermind 2x10
    and up) proves what the compile's own search of every first guess proves, the same tree."""
    records = load_script("records")
    ranked, compiled = (records.prove(records.Record(*records.mastermind(2, holes), "optimal-expected", ranked=by))
                        for by in (True, False))
    fields = ("total", "average", "worst", "at_worst", "first_guess")
    assert [ranked[k] for k in fields] == [compiled[k] for k in fields]
    assert ranked["proof"].startswith("every other first guess (3) is proven to need more than ")


def test_the_records_table_agrees_with_the_shipped_trees(load_script):
    manifest = {entry["file"].removesuffix(".msgpack.zst"): entry["stats"]
                for entry in json.loads((ROOT / "trees" / "MANIFEST.json").read_text())["trees"]}
    names = {record.name for record in load_script("records").RECORDS}
    shipped = [line for line in (ROOT / "trees" / "RECORDS.md").read_text().splitlines() if "(**shipped**)" in line]
    assert len(shipped) == 11
    for line in shipped:
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        name = f"{slug(cells[0])}-{cells[2].strip('`')}"
        assert name in names and name in manifest, name
        total, worst, at_worst = re.match(r"(\d+), [\d.]+, worst (\d+) \((\d+)\)", cells[3].replace("**", "")).groups()
        stats = manifest[name]
        assert (int(total), int(worst), int(at_worst)) == (stats["total"], stats["worst"], stats["histogram"][worst])


def slug(game: str) -> str:
    """The file-name form of a game as RECORDS.md writes it: "Mastermind 8x4 without repeats (**shipped**)"."""
    if found := re.match(r"Bulls and Cows (\d+) of (\d+)", game):
        length, digits = found.groups()
        return make_game("bulls-cows", digits=int(digits), length=int(length)).slug()
    colours, holes = map(int, re.match(r"Mastermind (\d+)x(\d+)", game).groups())
    repeats = "without repeats" not in game
    return make_game("mastermind", colours=colours, holes=holes, secret_repeats=repeats, guess_repeats=repeats).slug()


@pytest.mark.parametrize("strategy, colours, holes", [
    ("minimax", 6, 4), ("minimax", 14, 2), ("minimax", 8, 3), ("minimax", 4, 5), ("minimax", 3, 6), ("minimax", 2, 8),
    ("most-parts", 6, 4), ("most-parts", 7, 3), ("most-parts", 4, 5), ("most-parts", 2, 8),
])
def test_mikemag_cells_are_rebuilt_from_their_first_guesses(strategy, colours, holes):
    """mikemag/Mastermind's published Knuth and most-parts cells (scripts/mikemag_table.py), from
    its first guesses: the same average (cut to four decimals, as it writes them) and worst case."""
    sys.path.insert(0, str(ROOT / "scripts"))
    import mikemag_table

    row = mikemag_table.run(strategy, colours, holes)
    assert row["agrees"], row

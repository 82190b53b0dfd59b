"""Weighted answers (issue 68): an answer list's weights, --others-weight, the weighted objective of
the heuristic strategies (against a brute force of this file's own), the weighted figures that the
builder writes and ``verify`` replays, and the help off the tree's ties."""
from __future__ import annotations

import json
import math
import re
from fractions import Fraction

import pytest

from guesstree import player
from guesstree.compiler import Options, build, to_bytes
from guesstree.player import advice
from guesstree.player.artifact import decode, encode
from guesstree.player.format import FormatError
from guesstree.player.games import game_from_spec, make_game
from guesstree.player.verify import verify
from guesstree.player.weights import format_weight, parse_weight

# answers with weights of their own (how likely each is), and guesses that are no answers
# answers with weights of their own (how likely each is), far apart: words of a few traps (_IGHT, _ATCH,
# _OUND, _ASTE, _OWER), where the weights change what the heuristics play (see the brute force below)
WEIGHED = {
    "baste": "0.01", "batch": "0.1", "bound": "0.1", "caste": "5", "catch": "0.5", "cower": "2", "eight": "2",
    "fight": "1", "found": "0.01", "haste": "0.5", "hatch": "20", "hound": "20", "latch": "5", "light": "50",
    "lower": "2", "match": "0.01", "might": "0.01", "mound": "5", "mower": "50", "night": "5", "paste": "20",
    "patch": "20", "pound": "0.5", "power": "0.5", "right": "1", "round": "1", "rower": "0.01", "sight": "0.5",
    "sound": "5", "sower": "0.5", "taste": "0.5", "tight": "5", "tower": "0.5", "waste": "50", "watch": "20",
    "wight": "5", "wound": "5",
}
OTHERS = ["blimp", "chaps", "crown", "dwelt", "frown", "graph", "plumb", "shown", "tramp"]  # guesses, no answers
TIE = 1e-9  # as the builder's context: scores this close (relatively) are equal


@pytest.fixture
def lists(tmp_path) -> tuple[str, str]:
    answers, guesses = tmp_path / "answers.txt", tmp_path / "guesses.txt"
    answers.write_text("# likely answers, and how likely\n" + "".join(
        f"{word.upper() if i % 3 == 0 else word} {weight}  # the {i}th\n" if i % 2 else f"{word}\t{weight}\n"
        for i, (word, weight) in enumerate(WEIGHED.items())) + "\n")
    guesses.write_text("\n".join([*WEIGHED, *OTHERS]) + "\n")
    return str(answers), str(guesses)


def weighted_game(lists, **params):
    answers, guesses = lists
    return make_game("words", answers=answers, guesses=guesses, **params)


# -- word lists --------------------------------------------------------------------------------

def test_an_answer_lists_lines_give_weights_and_a_line_without_one_weighs_1(lists, tmp_path):
    game = weighted_game(lists)
    words = [game.format_code(s).lower() for s in game.secrets]
    assert words == sorted(WEIGHED)
    assert game.weights == tuple(Fraction(WEIGHED[w]) for w in words)
    plain = tmp_path / "plain.txt"
    plain.write_text("crane\nslate 1\ntrace 1.000\n")
    assert make_game("words", answers=str(plain)).weights is None  # every weight 1: an unweighted game


@pytest.mark.parametrize("line, why", [
    ("crane 0", "the weight '0' is not a positive decimal number"),
    ("crane 0.000", "the weight '0.000' is not a positive"),
    ("crane -1", "the weight '-1' is not"),
    ("crane +2", "the weight '+2' is not"),
    ("crane 1e3", "the weight '1e3' is not"),
    ("crane .5", "the weight '.5' is not"),
    ("crane 5.", "the weight '5.' is not"),
    ("crane 1,5", "the weight '1,5' is not"),
    ("crane 2x", "the weight '2x' is not"),
])
def test_a_bad_weight_is_refused_by_file_line_and_text(tmp_path, line, why):
    answers = tmp_path / "answers.txt"
    answers.write_text(f"slate\n{line}\n")
    with pytest.raises(ValueError, match=f"^{re.escape(f'{answers}, line 2: {line!r}: {why}')}"):
        make_game("words", answers=str(answers)).secret_count()


def test_a_weight_in_a_guess_list_is_refused(tmp_path):
    answers, guesses = tmp_path / "answers.txt", tmp_path / "guesses.txt"
    answers.write_text("crane 2\nslate\n")
    guesses.write_text("crane\nslate\nadieu 3\n")
    with pytest.raises(ValueError, match=rf"^{guesses}, line 3: 'adieu 3' gives a weight, but only the answer "
                                         r"list's words have weights"):
        make_game("words", answers=str(answers), guesses=str(guesses)).guess_count()


def test_a_word_given_two_weights_is_refused_and_a_word_that_is_no_word_still_is(tmp_path):
    answers = tmp_path / "answers.txt"
    answers.write_text("crane 2\nslate\nCRANE 3\n")
    with pytest.raises(ValueError, match=rf"^{answers}, line 3: 'crane' weighs 3 here but 2 on line 1$"):
        make_game("words", answers=str(answers)).secret_count()
    answers.write_text("crane 2\ncan to\n")  # two words: a bad word, not a bad weight
    with pytest.raises(ValueError, match=r"line 2: 'can to' holds ' ' \(U\+0020 SPACE\), which is not a letter"):
        make_game("words", answers=str(answers)).secret_count()


def test_weights_as_text_round_trip():
    for text in ("1", "0.25", "3", "0.001", "12.5", "100"):
        assert format_weight(parse_weight(text)) == text
    assert format_weight(parse_weight("0.250")) == "0.25" and format_weight(parse_weight("007")) == "7"
    assert parse_weight("0") is None and parse_weight("-1") is None and parse_weight("1e3") is None


def test_others_weight_makes_every_allowed_guess_a_secret(lists):
    game = weighted_game(lists, others_weight=0.001)
    words = [game.format_code(s).lower() for s in game.secrets]
    assert words == sorted([*WEIGHED, *OTHERS]) and game.guesses == game.secrets
    weight = dict(zip(words, game.weights))
    assert all(weight[w] == Fraction(1, 1000) for w in OTHERS)
    assert all(weight[w] == Fraction(WEIGHED[w]) for w in WEIGHED)
    assert game.params()["others_weight"] == "0.001" and game_from_spec(game.spec()) == game
    with pytest.raises(ValueError, match="--others-weight needs --guesses"):
        make_game("words", answers=lists[0], others_weight=0.5)
    for bad in (0, -1, "x", "1e-3", Fraction(1, 3), True):
        with pytest.raises(ValueError, match="--others-weight must be a positive decimal number"):
            weighted_game(lists, others_weight=bad)


def test_games_that_differ_only_in_weights_differ(lists, tmp_path):
    game = weighted_game(lists)
    other = tmp_path / "other.txt"
    other.write_text("".join(f"{w} {'1' if w == 'light' else v}\n" for w, v in WEIGHED.items()))
    changed = make_game("words", answers=str(other), guesses=lists[1])
    assert game.secrets == changed.secrets and game.guesses == changed.guesses
    assert game != changed and game.identity() != changed.identity() and game.slug() != changed.slug()
    assert game.portable() == game and changed.portable() == changed and game.portable() != changed.portable()


# -- the artifact --------------------------------------------------------------------------------

def test_a_weighted_tree_round_trips_and_says_its_version(lists):
    game = weighted_game(lists, others_weight="0.01")
    built = build(game, Options("entropy"))
    data = to_bytes(built)
    header, body = decode(data)
    assert header["version"] == [1, 3]
    params = header["game"]["params"]
    assert params["answer_words"].split(" ") == sorted([*WEIGHED, *OTHERS]) and params["guess_words"] == ""
    words = params["answer_words"].split(" ")
    assert params["answer_weights"].split(" ") == [WEIGHED.get(w, "0.01") for w in words]
    assert "others_weight" not in params
    tree = player.loads(data, "weighted")
    assert tree.game == game and tree.game.weights == game.weights
    assert encode(*decode(data)) == data  # write -> read -> write is the same bytes
    assert to_bytes(build(tree.game, Options("entropy"))) == data  # the carried game builds the same tree
    total = sum(Fraction(w) for w in params["answer_weights"].split(" "))
    assert header["stats"]["total_weight"] == float(total)
    chunked = to_bytes(built, chunked=True)
    assert decode(chunked)[0]["version"] == [2, 1]


def test_an_unweighted_words_tree_is_the_same_file_as_before(tmp_path):
    answers = tmp_path / "answers.txt"
    answers.write_text("\n".join(WEIGHED) + "\n")
    header, _ = decode(to_bytes(build(make_game("words", answers=str(answers)), Options("entropy"))))
    assert header["version"] == [1, 1] and "answer_weights" not in header["game"]["params"]
    assert not set(header["stats"]) & {"weighted_total", "weighted_mean", "total_weight"}


def replayed(tree) -> dict:
    """Each secret's guesses to win, walking the tree with the game's own score."""
    game, depths = tree.game, {}
    for secret in game.secrets:
        history = []
        while True:
            guess = tree.next_guess(history)
            feedback = game.score(guess, secret)
            history.append((guess, feedback))
            if feedback == game.win:
                break
        depths[secret] = len(history)
    return depths


@pytest.mark.parametrize("strategy", ["entropy", "minimax", "expected-size", "most-parts"])
def test_verify_and_a_replay_of_every_secret_give_the_weighted_total(lists, strategy):
    game = weighted_game(lists, others_weight="0.05")
    tree = player.loads(to_bytes(build(game, Options(strategy))), "weighted")
    depths = replayed(tree)
    weight = dict(zip(game.secrets, game.weights))
    total = sum(weight[s] * d for s, d in depths.items())
    report = verify(tree)
    assert report.ok, report.errors
    assert report.weighted_total == tree.stats.weighted_total == pytest.approx(float(total), rel=1e-12)
    assert report.total_weight == pytest.approx(float(sum(game.weights)), rel=1e-12)
    assert report.weighted_mean == pytest.approx(float(total / sum(game.weights)), rel=1e-12)
    assert report.total == sum(depths.values())  # the plain figures: every secret once
    data = report.to_json()
    assert {"weighted_total", "weighted_mean", "total_weight"} <= set(data)


def test_a_changed_weight_is_refused_by_verify_and_a_malformed_one_on_load(lists):
    data = to_bytes(build(weighted_game(lists), Options("entropy")))
    header, body = decode(data)
    weights = header["game"]["params"]["answer_weights"].split(" ")

    def with_weights(text):
        changed = dict(header, game={**header["game"], "params": {**header["game"]["params"], "answer_weights": text}})
        return encode(changed, body)

    heavier = [("7" if i == 0 else w) for i, w in enumerate(weights)]
    report = verify(player.loads(with_weights(" ".join(heavier)), "mutant"))
    assert not report.ok
    assert any(e.startswith("the header says weighted_total = ") for e in report.errors), report.errors
    for bad in (" ".join(weights[:-1]), " ".join(["0", *weights[1:]]), " ".join(["1.50", *weights[1:]]),
                " ".join(["x", *weights[1:]]), " ".join(weights) + " ", "1 " * len(weights)):
        with pytest.raises(FormatError, match="answer_weights"):
            player.loads(with_weights(bad), "mutant")
    stats_only = dict(header, stats={k: v for k, v in header["stats"].items() if k != "weighted_mean"})
    with pytest.raises(FormatError, match="'weighted_total' but not 'weighted_mean'"):
        player.loads(encode(stats_only, body), "mutant")
    unweighted = dict(header, stats={k: v for k, v in header["stats"].items()
                                     if k not in ("weighted_total", "weighted_mean", "total_weight")})
    report = verify(player.loads(encode(unweighted, body), "mutant"))
    assert "the game's secrets have weights, but the header states no weighted figures" in report.errors


# -- the heuristics against a brute force -------------------------------------------------------

def brute_score(strategy: str, parts: list[Fraction]) -> float | Fraction:
    """The heuristic's score of a partition by weight (the larger the better), computed plainly."""
    node = sum(parts)
    if strategy == "entropy":
        return -sum(float(w / node) * math.log2(w / node) for w in parts)
    if strategy == "minimax":
        return -max(parts)
    if strategy == "expected-size":
        return -sum(w * w for w in parts) / node
    return Fraction(len(parts))  # most-parts


def brute_pick(game, strategy: str, candidates: list, weight: dict, counted: dict | None = None):
    """The guess the weighted heuristic plays at a node of ``candidates``: the best score of a useful
    guess, ties (within ``TIE``) to a candidate, then the heaviest, then the lowest guess (most-parts:
    the lowest candidate, weights aside). ``counted``: the weights the parts count (default ``weight``)."""
    counted = weight if counted is None else counted
    if len(candidates) <= 2:
        return candidates[0] if strategy == "most-parts" else max(candidates, key=lambda c: (weight[c], -candidates.index(c)))
    scored = []
    for guess in game.guesses:
        parts: dict = {}
        for secret in candidates:
            feedback = game.score(guess, secret)
            parts[feedback] = parts.get(feedback, 0) + (1 if strategy == "most-parts" else counted[secret])
        if len(parts) > 1 or guess in candidates:
            scored.append((brute_score(strategy, list(parts.values())), guess))
    best = max(score for score, _ in scored)
    tied = [guess for score, guess in scored if score >= best - TIE * abs(best)]
    mine = [guess for guess in tied if guess in candidates]
    if mine and strategy != "most-parts":
        heaviest = max(weight[g] for g in mine)
        return min(g for g in mine if weight[g] == heaviest)
    return min(mine or tied)


@pytest.mark.parametrize("strategy", ["entropy", "minimax", "expected-size", "most-parts"])
@pytest.mark.parametrize("engine", ["fast", "numba", "reference"])
def test_each_nodes_guess_is_the_brute_forces_pick(lists, strategy, engine):
    game = weighted_game(lists, others_weight="0.05")
    tree = player.loads(to_bytes(build(game, Options(strategy, engine=engine))), "weighted")
    weight = dict(zip(game.secrets, game.weights))
    ones = dict.fromkeys(game.secrets, Fraction(1))
    nodes = [([], list(game.secrets))]
    checked = unlike = 0
    while nodes:
        history, candidates = nodes.pop()
        guess = tree.next_guess(history)
        assert guess == brute_pick(game, strategy, candidates, weight), (history, len(candidates))
        checked += 1
        unlike += guess != brute_pick(game, strategy, candidates, weight, ones)  # the weights made the difference
        parts: dict = {}
        for secret in candidates:
            parts.setdefault(game.score(guess, secret), []).append(secret)
        nodes += [(history + [(guess, f)], part) for f, part in parts.items() if f != game.win]
    assert checked > 20
    assert (unlike == 0) == (strategy == "most-parts"), unlike  # (so that statistics without weights would fail)


def test_weights_change_the_tree_and_the_weighted_total_falls(lists, tmp_path):
    """Weights that make some words far likelier: the weighted tree is better on the weighted total
    than the tree built as if every answer weighed 1."""
    answers = tmp_path / "plain.txt"
    answers.write_text("\n".join(WEIGHED) + "\n")
    weighted = weighted_game(lists)
    plain = make_game("words", answers=str(answers), guesses=lists[1])
    for strategy in ("entropy", "expected-size"):
        mine = player.loads(to_bytes(build(weighted, Options(strategy))), "mine")
        theirs = player.loads(to_bytes(build(plain, Options(strategy))), "theirs")
        weight = dict(zip(weighted.secrets, weighted.weights))
        as_weighted = sum(weight[s] * d for s, d in replayed(theirs).items())
        assert mine.stats.weighted_total <= float(as_weighted)
    assert build(weighted, Options("most-parts")).node_guess == build(plain, Options("most-parts")).node_guess


# -- the commands --------------------------------------------------------------------------------

def test_compile_others_weight_info_verify_and_compare(cli, lists, tmp_path):
    run = cli
    answers, guesses = lists
    out = tmp_path / "w.msgpack.zst"
    done = run("compile", "words", "--answers", answers, "--guesses", guesses, "--others-weight", "0.001",
               "--strategy", "entropy", "-o", out)
    assert done.exit_code == 0, done.output
    tree = player.load(out)
    assert len(tree.game.secrets) == len(WEIGHED) + len(OTHERS)
    stats = tree.stats
    assert (f"{len(WEIGHED) + len(OTHERS)} secrets, weighted total {stats.weighted_total:.6g}, "
            f"mean {stats.weighted_mean:.3f}; total {stats.total}, average {stats.average:.3f}") in done.output
    info = run("info", out)
    assert info.exit_code == 0, info.output
    assert (f"weighted   total {stats.weighted_total:.6g}, mean {stats.weighted_mean:.4f} "
            f"(guesses to win, each secret by its weight; weights {stats.total_weight:.6g} in all)") in info.output
    assert f"to win     total {stats.total}, average {stats.average:.4f}" in info.output
    as_json = json.loads(run("info", out, "--json").output)
    assert as_json["stats"]["weighted_total"] == stats.weighted_total and as_json["stats"]["total"] == stats.total
    checked = run("verify", out)
    assert checked.exit_code == 0 and f"weighted total {stats.weighted_total:.6g}" in checked.output
    report = json.loads(run("verify", out, "--json").output)[0]
    assert report["weighted_mean"] == pytest.approx(stats.weighted_mean) and report["total"] == stats.total
    compared = run("compare", "words", "--answers", answers, "--guesses", guesses, "--others-weight", "0.001",
                   "--strategies", "entropy,minimax", "--json")
    assert compared.exit_code == 0, compared.output
    rows = json.loads(compared.output)
    rows = rows["rows"] if isinstance(rows, dict) else rows
    assert rows[0]["weighted_total"] == stats.weighted_total and "total" in rows[0]
    table = run("compare", "words", "--answers", answers, "--guesses", guesses, "--others-weight", "0.001",
                "--strategies", "entropy,minimax")
    assert table.exit_code == 0 and "w. mean" in table.output
    entropy_line = next(line for line in table.output.splitlines() if line.startswith("entropy"))
    assert entropy_line.split()[1:4] == [f"{stats.weighted_total:.6g}", f"{stats.weighted_mean:.3f}", str(stats.total)]
    assert "weighted, w. mean: guesses to win, each secret by its weight" in table.output


def test_a_users_mistake_with_weights_is_one_line(cli, lists, tmp_path):
    run = cli
    answers, guesses = lists
    bad = tmp_path / "bad.txt"
    bad.write_text("crane 2\nslate -1\n")
    for arguments, said in (
            (["--answers", bad], f"error: {bad}, line 2: 'slate -1': the weight '-1' is not a positive decimal number"),
            (["--answers", answers, "--others-weight", "0.5"], "error: --others-weight needs --guesses"),
            (["--answers", answers, "--guesses", guesses, "--others-weight", "0"],
             "error: --others-weight must be a positive decimal number")):
        done = run("compile", "words", *arguments, "--strategy", "entropy", "-o", tmp_path / "x.msgpack.zst")
        assert done.exit_code == 2, done.output
        assert done.output.strip().splitlines()[-1].startswith(said), done.output
        assert "Traceback" not in done.output and not (tmp_path / "x.msgpack.zst").exists()


# -- the help off the tree -----------------------------------------------------------------------

def test_advice_plays_the_heavier_of_two_candidates_first(lists, tmp_path):
    game = weighted_game(lists)
    code = {game.format_code(s).lower(): s for s in game.secrets}
    pair = [code["hatch"], code["light"]]  # light weighs 50, hatch 20: light first, though after hatch
    assert advice.best_guess(game, 5, [], pair) == code["light"]
    assert advice.best_guess(game, 5, [], [code["batch"], code["bound"]]) == code["batch"]  # equal: the first
    answers = tmp_path / "plain.txt"
    answers.write_text("\n".join(WEIGHED) + "\n")
    plain = make_game("words", answers=str(answers), guesses=lists[1])
    plain_code = {plain.format_code(s).lower(): s for s in plain.secrets}
    assert advice.best_guess(plain, 5, [], [plain_code["hatch"], plain_code["light"]]) == plain_code["hatch"]


def test_advices_ranking_breaks_ties_by_the_heavier_candidate(lists, tmp_path):
    game = weighted_game(lists)
    code = {game.format_code(s).lower(): s for s in game.secrets}
    # BASTE and BATCH split these four apart, BOUND and FOUND do not: BATCH (0.1) is heavier than BASTE (0.01)
    remaining = sorted(code[w] for w in ("baste", "batch", "bound", "found"))
    counts = dict(zip(game.guesses, game.partition_counts(game.guesses, remaining)))
    assert counts[code["baste"]] == counts[code["batch"]] == 4 > counts[code["bound"]]
    ranked = advice.ranked(game, game.guesses, remaining)
    assert ranked[0] == code["batch"]  # a candidate, the heavier (a split into singletons ends the ranking)
    assert advice.best_guess(game, 5, [], remaining) == code["batch"]
    answers = tmp_path / "plain.txt"
    answers.write_text("\n".join(WEIGHED) + "\n")
    plain = make_game("words", answers=str(answers), guesses=lists[1])  # unweighted: the lowest code
    assert advice.ranked(plain, plain.guesses, remaining)[0] == code["baste"]


def test_the_kernels_and_numpy_count_partitions_by_weight_alike():
    import numpy as np

    from guesstree.compiler.engine import kernels, vectorised
    from guesstree.compiler.engine.statistic import CLOG_SUM, MAX_PART, PARTS, SUM_SQUARES

    rng = np.random.default_rng(68)
    matrix = rng.integers(0, 40, size=(300, 500)).astype(np.uint8)
    guesses, candidates = np.arange(0, 300, 2), np.sort(rng.choice(500, 120, replace=False))
    weights = rng.integers(1, 1000, size=len(candidates))
    for statistic in (CLOG_SUM, MAX_PART, SUM_SQUARES, PARTS):
        for by_column, table in ((False, matrix), (True, np.ascontiguousarray(matrix.T))):
            compiled = kernels.weighted_partition_stats(table, guesses, candidates, weights, 40, statistic, by_column)
            plain = vectorised.weighted_partition_stats(table, guesses, candidates, weights, 40, statistic, by_column)
            assert np.allclose(compiled[0], plain[0], rtol=1e-12) and (compiled[1] == plain[1]).all()
    parts = [int(weights[matrix[guesses[0], candidates] == f].sum()) for f in range(40)]
    heaviest = kernels.weighted_partition_stats(matrix, guesses[:1], candidates, weights, 40, MAX_PART)[0][0]
    assert heaviest == max(parts)
    squares = kernels.weighted_partition_stats(matrix, guesses[:1], candidates, weights, 40, SUM_SQUARES)[0][0]
    assert squares == sum(p * p for p in parts)


def test_a_weighted_tree_is_the_same_built_by_worker_processes(lists, tmp_path):
    """The first guess's subtrees as jobs in two processes (each rebuilds the game, its weights
    with it, from the spec): the same bytes as one process."""
    from guesstree.compiler.workers.settings import SearchSettings

    game = weighted_game(lists, others_weight="0.05")
    here = to_bytes(build(game, Options("entropy")))
    jobs = SearchSettings(workers=2, checkpoint=str(tmp_path / "build.checkpoint"))
    assert to_bytes(build(game, Options("entropy"), workers=2, search=jobs)) == here

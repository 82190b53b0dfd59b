"""The verifier: a valid tree passes; break one thing and it must notice."""
from __future__ import annotations

import pytest

from guesstree import compiler
from guesstree import player
from guesstree.player.artifact import decode, encode, pack_uints
from guesstree.player.verify import verify


def mutated(data: bytes, change_header=None, change_body=None):
    """Decode, change, re-encode (``encode`` recomputes the body's sha256) and load."""
    header, body = decode(data)
    if change_header:
        change_header(header)
    if change_body:
        change_body(body)
    return player.loads(encode(header, body), "mutant")


def set_byte(body: dict, key: str, index: int, value: int) -> None:
    array = bytearray(body[key])
    assert body["feedback_width"] == 1
    array[index] = value
    body[key] = bytes(array)


@pytest.fixture
def mm32_bytes(mm32_path) -> bytes:
    return mm32_path.read_bytes()


def test_a_valid_tree_is_ok(mm32_tree):
    report = verify(mm32_tree)
    assert report.ok and report.errors == []
    assert (report.secrets, report.worst, report.total) == (9, 3, 21)
    assert report.average == pytest.approx(21 / 9)
    assert report.histogram == {1: 1, 2: 4, 3: 4}
    assert report.determined_histogram == {1: 3, 2: 6}


def test_report_json_has_the_documented_keys(mm32_tree):
    data = verify(mm32_tree).to_json()
    assert set(data) == {"ok", "secrets", "worst", "total", "average", "histogram", "determined_histogram", "errors"}
    assert data["histogram"] == {"1": 1, "2": 4, "3": 4}


@pytest.mark.parametrize("strategy", ["first", "minimax", "entropy"])
def test_classic_mastermind_trees_are_ok(build_cached, strategy):
    candidates = "consistent" if strategy == "first" else "all"
    built = build_cached("mastermind", strategy, candidates=candidates)
    report = verify(player.loads(compiler.to_bytes(built)), max_depth=built.stats["worst"])
    assert report.ok, report.errors
    assert report.histogram == built.stats["histogram"]
    assert report.determined_histogram == built.stats["determined_histogram"]


def test_max_depth_below_the_worst_case_fails(mm32_tree):
    assert verify(mm32_tree, max_depth=3).ok
    report = verify(mm32_tree, max_depth=2)
    assert not report.ok
    assert report.errors == ["4 secrets take more than 2 guesses, the bound, e.g. AA takes 3"]  # histogram {1: 1, 2: 4, 3: 4}
    assert verify(mm32_tree, max_depth=1).errors == ["8 secrets take more than 1 guess, the bound, e.g. AA takes 3"]


@pytest.mark.parametrize("node", range(9))
def test_changing_any_nodes_guess_is_noticed(mm32_bytes, node):
    def change(body):
        symbol = body["guess"][node * 2]
        set_byte(body, "guess", node * 2, (symbol + 1) % 3)

    report = verify(mutated(mm32_bytes, change_body=change))
    assert not report.ok
    assert report.errors


def test_changing_the_first_guess_names_what_goes_wrong(mm32_bytes):
    # the root plays AC instead of AB: AC's answers no longer match AB's edges
    report = verify(mutated(mm32_bytes, change_body=lambda body: set_byte(body, "guess", 1, 2)))
    assert not report.ok
    assert any("the game answers" in e and "for which the tree has no edge" in e for e in report.errors)
    assert any("is never taken" in e for e in report.errors) or any("never won" in e for e in report.errors)


def test_a_guess_the_game_does_not_allow_is_noticed(build_cached):
    """Bulls and cows never repeats a digit: a guess 00 is not allowed even where it would work."""
    built = build_cached("bulls-cows", "first", digits=4, length=2)
    data = compiler.to_bytes(built)
    leaf = max(range(built.nodes), key=lambda n: n if built.edge_counts[n] == 0 else -1)

    def change(body):
        code = body["guess"][leaf * 2:leaf * 2 + 2]
        set_byte(body, "guess", leaf * 2 + 1, code[0])  # e.g. 03 -> 00

    report = verify(mutated(data, change_body=change))
    assert not report.ok
    assert any("is not an allowed guess" in e for e in report.errors)


@pytest.mark.parametrize("edge", range(8))
def test_changing_any_edges_feedback_is_noticed(mm32_bytes, edge):
    header, body = decode(mm32_bytes)
    counts, feedback = list(body["edge_count"]), list(body["edge_feedback"])
    first = [sum(counts[:n]) for n in range(len(counts) + 1)]
    parent = next(n for n in range(len(counts)) if first[n] <= edge < first[n + 1])
    siblings = range(first[parent], first[parent + 1])
    win = body["feedbacks"].index([2, 0])
    free = [f for f in range(len(body["feedbacks"])) if f != win and f not in {feedback[e] for e in siblings}]
    if free:  # relabel the edge with a feedback its node has no edge for
        feedback[edge] = free[0]
    else:  # every answer is taken (the root): swap two labels, so that the mutant still loads
        other = first[parent] + (edge - first[parent] + 1) % len(siblings)
        feedback[edge], feedback[other] = feedback[other], feedback[edge]

    report = verify(mutated(mm32_bytes, change_body=lambda b: b.update(edge_feedback=bytes(feedback))))
    assert not report.ok and report.errors
    if free:
        assert any("for which the tree has no edge" in e for e in report.errors)
        assert any("is never taken" in e for e in report.errors)


@pytest.mark.parametrize("key, value", [
    ("total", 20), ("worst", 4), ("average", 2.5), ("secrets", 10),
    ("histogram", {1: 1, 2: 5, 3: 3}), ("determined_total", 14),
    ("determined_worst", 3), ("determined_histogram", {1: 4, 2: 5}), ("determined_average", 1.5),
])
def test_changing_any_statistic_is_noticed(mm32_bytes, key, value):
    def change(header):  # the artifact stores histograms as [guesses, secrets] pairs
        header["stats"][key] = [list(pair) for pair in value.items()] if isinstance(value, dict) else value

    report = verify(mutated(mm32_bytes, change_header=change))
    assert not report.ok
    assert report.errors == [f"the header says {key} = {value!r}, but the tree gives {verify_value(key)!r}"]


def verify_value(key):
    return {"total": 21, "worst": 3, "average": 21 / 9, "secrets": 9, "histogram": {1: 1, 2: 4, 3: 4},
            "determined_total": 15, "determined_worst": 2, "determined_histogram": {1: 3, 2: 6},
            "determined_average": 15 / 9}[key]


def test_an_unreachable_node_is_noticed(mm32_bytes):
    """Give the last leaf (AA, under AC) a child that no secret ever reaches."""
    def change(body):
        body["nodes"] += 1
        counts = bytearray(body["edge_count"])
        counts[8] = 1
        body["edge_count"] = bytes(counts) + b"\x00"
        body["edge_feedback"] += bytes([0])
        body["guess"] += bytes([2, 2])

    report = verify(mutated(mm32_bytes, change_body=change))
    assert not report.ok
    assert any("is never taken" in e for e in report.errors)
    assert "node 9 is unreachable" in report.errors


def test_a_truncated_tree_loses_secrets(mm32_bytes):
    """Drop AC's three children: AA, BB and CB are never won (6 nodes cannot win 9 secrets)."""
    def change(body):
        body["nodes"] = 6
        body["guess"] = body["guess"][:12]
        body["edge_count"] = pack_uints([4, 0, 1, 0, 0, 0], 1)
        body["edge_feedback"] = body["edge_feedback"][:5]

    report = verify(mutated(mm32_bytes, change_body=change))
    assert not report.ok and report.errors

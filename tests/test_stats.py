"""The one statistics type: from depths, to and from the header, to JSON, read as a mapping."""
from __future__ import annotations

import pytest

from guesstree import player
from guesstree.player.artifact import FormatError
from guesstree.player.stats import KEYS, Statistics


def test_from_depths_counts_wins_and_determinations():
    stats = Statistics.from_depths([1, 2, 2, 3], [0, 1, 2, 2])
    assert (stats.secrets, stats.total, stats.average, stats.worst) == (4, 8, 2.0, 3)
    assert stats.histogram == {1: 1, 2: 2, 3: 1} and stats.determined_histogram == {0: 1, 1: 1, 2: 2}
    assert (stats.determined_total, stats.determined_average, stats.determined_worst) == (5, 1.25, 2)
    assert stats["histogram"][2] == 2 and list(stats) == list(KEYS) and len(stats) == 9


def test_header_round_trip_keeps_every_value_and_the_key_order():
    stats = Statistics.from_depths([3, 1, 2], [2, 1, 2])
    header = stats.to_header()
    assert list(header) == list(KEYS) and header["histogram"] == [[1, 1], [2, 1], [3, 1]]
    assert Statistics.from_header(header) == stats and stats == dict(stats)


def test_json_keys_histograms_by_text():
    assert Statistics.from_depths([2, 1], [1, 1]).to_json()["histogram"] == {"1": 1, "2": 1}


def test_a_shipped_tree_reads_as_the_builder_wrote(mm32_path):
    stats = player.load(mm32_path).stats
    assert isinstance(stats, Statistics) and Statistics.from_header(stats.to_header(), "x") == stats


@pytest.mark.parametrize("key, value, message", [
    ("total", -1, "the statistic 'total' is -1, not a whole number"),
    ("average", float("nan"), "the statistic 'average' is nan, not a number"),
    ("histogram", [[2, 1], [1, 1]], "the statistic 'histogram' is not in increasing order of guesses"),
    ("histogram", {"1": 1}, "the statistic 'histogram' is not a list of [guesses, secrets] pairs"),
])
def test_a_bad_header_names_the_file_and_the_entry(key, value, message):
    header = {**Statistics.from_depths([1, 2], [1, 1]).to_header(), key: value}
    with pytest.raises(FormatError) as raised:
        Statistics.from_header(header, "t.msgpack.zst")
    assert str(raised.value) == f"t.msgpack.zst: {message}"


def test_depths_of_unequal_length_are_refused():
    with pytest.raises(ValueError, match="one depth of each kind per secret"):
        Statistics.from_depths([1, 2], [1])


def test_json_takes_the_statistics_as_it_took_the_dict():
    import json

    stats = Statistics.from_depths([1, 2, 2], [1, 1, 2])
    assert json.loads(json.dumps(stats)) == {**stats.to_json(), "average": 5 / 3, "determined_average": 4 / 3}
    assert isinstance(stats, dict) and stats.total == 5

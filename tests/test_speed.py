"""The estimate measures the machine it runs on (``compiler/builder/speed.py``): a machine slower at
the kernels than the one the model was fitted on gets estimates as much longer, measured once and
kept; the kept file is read with care."""
from __future__ import annotations

import json

import pytest

from guesstree.compiler import Options
from guesstree.compiler.builder import speed
from guesstree.compiler.builder.estimate import estimate
from guesstree.compiler.builder.plan import Layout
from guesstree.player.games import make_game


@pytest.fixture
def kept(tmp_path, monkeypatch):
    """Where the ratios are kept: a folder of this test's (``NUMBA_CACHE_DIR``, as warm's stamp)."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    return tmp_path / speed.FILE


def slower(times: float, calls: list):
    def measure(kind, counting):
        calls.append((kind, counting))
        return times * speed.REFERENCE[kind, counting]
    return measure


def test_a_slower_machine_is_measured_once_and_kept(kept):
    calls: list = []
    assert speed.ratio("packed", True, slower(3.0, calls)) == pytest.approx(3.0)
    assert speed.ratio("packed", True, slower(9.0, calls)) == pytest.approx(3.0)  # kept: not measured again
    assert speed.ratio("matrix", False, slower(0.5, calls)) == pytest.approx(0.5)
    assert calls == [("packed", True), ("matrix", False)]
    on_disk = json.loads(kept.read_text())
    assert on_disk["ratios"] == {"packed-counting": pytest.approx(3.0), "matrix-parts": pytest.approx(0.5)}
    assert on_disk["machine"]["cpu"] and len(on_disk["kernels"]) == 64


@pytest.mark.parametrize("text", [
    "{not json", "[]", '{"ratios": {"packed-counting": 3.0}}',  # no machine: another's, or none
    "MACHINE_OTHER_CPU", "RATIO_OUT_OF_BOUNDS", "RATIO_NOT_A_NUMBER",
])
def test_a_kept_file_of_another_machine_or_broken_is_measured_again(kept, text):
    speed.ratio("packed", True, slower(2.0, []))  # a good file, then broken as the case says
    good = json.loads(kept.read_text())
    if text == "MACHINE_OTHER_CPU":
        text = json.dumps({**good, "machine": {**good["machine"], "cpu": "another"}, "ratios": {"packed-counting": 7.0}})
    elif text == "RATIO_OUT_OF_BOUNDS":
        text = json.dumps({**good, "ratios": {"packed-counting": 1e9}})
    elif text == "RATIO_NOT_A_NUMBER":
        text = json.dumps({**good, "ratios": {"packed-counting": "fast"}})
    kept.write_text(text)
    calls: list = []
    assert speed.ratio("packed", True, slower(4.0, calls)) == pytest.approx(4.0) and calls == [("packed", True)]
    assert json.loads(kept.read_text())["ratios"] == {"packed-counting": pytest.approx(4.0)}


def test_a_ratio_gone_wrong_is_held_within_limits(kept):
    assert speed.ratio("matrix", True, lambda kind, counting: 0.0) == speed.LIMITS[0]
    assert speed.ratio("packed", False, lambda kind, counting: 1e6) == speed.LIMITS[1]


def test_an_unwritable_folder_measures_each_time_and_says_nothing(tmp_path, monkeypatch):
    blocked = tmp_path / "file"
    blocked.write_text("")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(blocked / "below"))  # a folder that cannot be made
    calls: list = []
    assert speed.ratio("packed", True, slower(2.0, calls)) == pytest.approx(2.0)
    assert speed.ratio("packed", True, slower(2.0, calls)) == pytest.approx(2.0) and len(calls) == 2


def test_the_estimate_scales_the_kernels_by_the_machine_and_says_so(kept, cli):
    game, options = make_game("mastermind", colours=7, holes=7), Options("most-parts")  # 5 minutes of kernels
    layout = Layout.of(game, options, 2)
    model, slow = (estimate(game, options, layout, load=0.0, speed=s) for s in (1.0, 3.0))
    assert 2.8 < slow.seconds / model.seconds < 3.0  # the kernels 3x; the start and the nodes' Python not
    assert "measured" not in model.text() and "its kernels measured at 3.0x the time of the model's machine" in slow.text()
    speed.ratio("packed", True, slower(3.0, []))  # this machine, measured so and kept
    said = json.loads(cli("compile", "mastermind", "--colours", "7", "--holes", "6", "--strategy", "entropy",
                          "--estimate", "--json").stdout)
    assert said["speed"] == 3.0 and "measured at 3.0x" in said["text"]


def test_a_small_build_is_not_probed(kept):
    game, options = make_game("mastermind"), Options("entropy")
    assert estimate(game, options, Layout.of(game, options, 2), load=0.0).speed == 1.0
    assert not kept.exists()


@pytest.mark.slow
def test_the_probes_run_the_kernels_and_take_a_fraction_of_a_second():
    for kind in speed.PROBES:
        for counting in (True, False):
            seconds = speed.probe_seconds(kind, counting)
            assert 0 < seconds < 2.0

"""A heuristic build's estimate of time and memory (``compiler/builder/estimate.py``): a build that cannot
finish is refused before any work, with its figures; ``--max-time`` and ``--force`` let it run;
the model stays near the builds measured on this machine (compiler/builder/estimate.py)."""
from __future__ import annotations

import json

import pytest

from guesstree.compiler import Options, build
from guesstree.compiler.builder.plan import Layout, plan
from guesstree.compiler.builder.estimate import Estimate, estimate
from guesstree.compiler.catalogue import DEFAULT_MAX_TIME
from guesstree.player.wording import parse_duration
from guesstree.player.games import make_game

BIG = ["mastermind", "--colours", "10", "--holes", "7"]  # 10 million secrets: days of most-parts


def test_a_build_of_days_is_refused_up_front_with_its_figures(cli, clean_error, tmp_path):
    out = tmp_path / "big.msgpack.zst"
    line = clean_error(cli("compile", *BIG, "--strategy", "most-parts", "-o", out), 2)
    assert "most-parts on Mastermind, 10 colours, 7 holes would take about" in line
    assert "days on" in line and "GiB of memory" in line and "over --max-time 6.0 h" in line
    assert "--force" in line
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_compare_refuses_before_it_builds_any_row(cli, clean_error, tmp_path):
    line = clean_error(cli("compare", *BIG, "--strategies", "first,most-parts", "--trees", tmp_path), 2)
    assert "most-parts on" in line and "over --max-time" in line
    assert list(tmp_path.iterdir()) == []  # not even the quick first-consistent tree


@pytest.mark.slow
def test_a_larger_max_time_or_force_lets_a_refused_build_run(cli, clean_error, tmp_path):
    game = ["mastermind", "--colours", "8", "--holes", "5", "--strategy", "most-parts", "--quiet"]
    line = clean_error(cli("compile", *game, "--max-time", "1s", "-o", tmp_path / "a.zst"), 2)
    assert "over --max-time 1 s" in line and not (tmp_path / "a.zst").exists()
    for override in (["--force", "--max-time", "1s"], ["--max-time", "10m"], ["--max-time", "none"]):
        out = tmp_path / f"{len(override)}{override[-1]}.zst"
        result = cli("compile", *game, *override, "-o", out)
        assert result.exit_code == 0, result.output
        assert out.stat().st_size > 0


def test_the_library_refuses_as_the_command_does():
    game = make_game("mastermind", colours=10, holes=7)
    with pytest.raises(ValueError, match="over --max-time 6.0 h"):
        build(game, Options("most-parts"))
    layout, figures = plan(game, Options("most-parts", max_time=None, force=True))
    assert figures.seconds > 86400 and layout.matrix == "none"


def test_more_memory_than_the_machine_has_is_refused_unless_forced():
    figures = Estimate(seconds=10.0, memory=40 << 30, cores=2)
    with pytest.raises(ValueError, match=r"more memory than this machine's 24.0 GiB; --force"):
        figures.check("most-parts on X", None, False, physical=24 << 30)
    figures.check("most-parts on X", None, True, physical=24 << 30)
    figures.check("most-parts on X", None, False, physical=64 << 30)


@pytest.mark.parametrize("game, strategy, load, seconds, largest", [
    # 2026-12-05, an idle machine: wall seconds (the largest process's MiB, where measured)
    (("mastermind", {"colours": 7, "holes": 7}), "most-parts", 0, 308, 762),
    (("mastermind", {"colours": 6, "holes": 7}), "most-parts", 0, 24.9, 325),
    (("mastermind", {"colours": 4, "holes": 8}), "most-parts", 0, 3.78, None),
    (("mastermind", {"colours": 6, "holes": 8}), "most-parts", 1, 1807, 1640),  # beside other work
    # 2026-12-06, beside four other engineers' work (the load before the build)
    (("mastermind", {"colours": 8, "holes": 5}), "minimax", 10.1, 20.0, 178),
    (("mastermind", {"colours": 7, "holes": 6}), "most-parts", 10.4, 38.7, 228),
    (("mastermind", {"colours": 5, "holes": 7}), "expected-size", 9.3, 164.8, 202),
    (("bulls-cows", {"digits": 9, "length": 5}), "minimax", 11.7, 17.0, 383),
    # 2026-12-06 later, a quiet machine, one build after another (the fit's table beside the estimates:
    # scripts/BENCHMARKS-ARCHIVE.md); the counting statistics' rows after their loops were vectorised
    (("mastermind", {"colours": 6, "holes": 7}), "most-parts", 0, 38.2, 324),
    (("mastermind", {"colours": 8, "holes": 6}), "most-parts", 0, 26.7, 325),
    (("mastermind", {"colours": 7, "holes": 6}), "minimax", 0, 15.0, 225),
    (("mastermind", {"colours": 5, "holes": 7}), "expected-size", 0, 12.3, 200),
    (("bulls-cows", {"digits": 10, "length": 6}), "minimax", 0, 58.1, 271),
    # 2026-12-07, a quiet machine: entropy after its pick went by multisets of colours (least_sums.py)
    (("mastermind", {"colours": 9, "holes": 5}), "entropy", 0, 2.76, 198),
    (("digits", {"length": 5}), "entropy", 0, 4.42, 221),
    (("mastermind", {"colours": 6, "holes": 6}), "entropy", 0, 2.13, 181),
    (("bulls-cows", {"digits": 10, "length": 5}), "entropy", 0, 1.89, 169),
    (("mastermind", {"colours": 8, "holes": 6}), "entropy", 0, 16.6, 315),
    (("mastermind", {"colours": 9, "holes": 6}), "entropy", 0, 58.3, 505),
])
def test_the_model_is_within_a_factor_of_two_of_measured_builds(game, strategy, load, seconds, largest):
    game, options = make_game(game[0], **game[1]), Options(strategy)
    figures = estimate(game, options, Layout.of(game, options, 2), load=load, speed=1.0)  # (measured on the model's machine)
    assert seconds / 2 <= figures.seconds <= seconds * 2, figures.text()
    if largest is not None:
        assert largest / 2 <= figures.largest / 2**20 <= largest * 2, figures.text()


def test_an_exhaustive_strategy_has_no_estimate_and_refuses_its_options(cli, clean_error):
    game = make_game("mastermind", colours=3, holes=2)
    assert plan(game, Options("optimal-worst"))[1] is None
    line = clean_error(cli("compile", "mastermind", "--colours", "3", "--holes", "2", "--strategy",
                           "optimal-worst", "--force"), 2)
    assert "apply to the heuristic strategies only" in line


@pytest.mark.parametrize("strategy, said", [
    ("most-parts", "most-parts on Mastermind, 10 colours, 7 holes: about "),
    ("optimal-expected", "optimal-expected on Mastermind, 10 colours, 7 holes: an exhaustive search of 10000000 "
                         "secrets and 10000000 guesses; its time is not modelled"),
])
def test_estimate_prints_the_figures_and_builds_nothing(cli, tmp_path, monkeypatch, strategy, said):
    monkeypatch.chdir(tmp_path)
    result = cli("compile", *BIG, "--strategy", strategy, "--estimate")  # over --max-time: said, not refused
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(said) and "of memory" in result.stdout
    as_json = json.loads(cli("compile", *BIG, "--strategy", strategy, "--estimate", "--json").stdout)
    assert (as_json["secrets"], as_json["guesses"], as_json["strategy"]) == (10 ** 7, 10 ** 7, strategy)
    assert (as_json["seconds"] is None) == (strategy == "optimal-expected")
    assert as_json["memory"] > 10 ** 7 * 600 and as_json["text"] == result.stdout.strip()
    assert list(tmp_path.iterdir()) == []


def test_a_game_whose_codes_do_not_list_is_refused_saying_what_fits(cli, clean_error, monkeypatch):
    """Issue 54: a sampled strategy too lists every code; the refusal names the largest game of the
    family that the strategy builds within the bounds given, and the --max-memory that lists these
    (on a machine of 24 GiB and 2 CPUs, which the memory its processes take depends on)."""
    from guesstree.compiler.builder import estimate as model

    monkeypatch.setattr(model, "physical_memory", lambda: 24 << 30)
    monkeypatch.setattr(model.os, "sched_getaffinity", lambda pid: {0, 1})
    line = clean_error(cli("compile", "bulls-cows", "--digits", "10", "--length", "10", "--strategy",
                           "sampled-entropy", "--max-memory", "0.5", "--max-time", "none", "--estimate"), 2)
    assert line == ("error: Bulls and cows, 10 of 10 digits is too big: listing its 3628800 secrets and as many "
                    "guesses takes about 885.9 MiB, over --max-memory 512.0 MiB (sampled-entropy too lists every code); "
                    "--max-memory 1 builds it; sampled-entropy builds at most Bulls and cows, 8 of 10 digits here")


def test_the_game_said_to_fit_an_exhaustive_search_is_one_it_builds(cli, clean_error, tmp_path, monkeypatch):
    """Issue 67: 12x8 with optimal-expected was told to try 12x6, which its search then refused
    (its matrix does not fit), in 400 characters starting with a repr. Now one short line, and the
    game named builds: here 4x3 where 4x4's matrix would not fit, with the same --max-memory."""
    from guesstree.compiler.builder import estimate as model

    monkeypatch.setattr(model, "physical_memory", lambda: 24 << 30)
    line = clean_error(cli("compile", "mastermind", "--colours", "12", "--holes", "8", "--strategy",
                           "optimal-expected"), 2)
    assert line == ("error: Mastermind 12x8 is too big: listing its 429981696 secrets and as many guesses takes about "
                    "102.5 GiB, over --max-memory 8.0 GiB and what this machine's 24.0 GiB can spare; optimal-expected "
                    "builds at most Mastermind 12x3 here")  # (12x3: 67 s here, 2026-12-07; 12x4 has 20736 secrets)
    budget = ["--max-memory", str(100 / 2**20), "--strategy", "optimal-expected"]  # 100 KiB
    line = clean_error(cli("compile", "mastermind", "--colours", "4", "--holes", "5", *budget), 2)
    assert line == ("error: Mastermind 4x5 is too big: listing its 1024 secrets and as many guesses takes about "
                    "256.0 KiB, over --max-memory 100.0 KiB; --max-memory 1 builds it; optimal-expected builds at most "
                    "Mastermind 4x3 here")
    assert "its feedback matrix does not fit" in clean_error(
        cli("compile", "mastermind", "--colours", "4", "--holes", "4", *budget, "-o", tmp_path / "4x4.zst"), 2)
    built = cli("compile", "mastermind", "--colours", "4", "--holes", "3", *budget, "-o", tmp_path / "4x3.zst")
    assert built.exit_code == 0 and "total 206" in built.stdout, built.output


def test_json_without_estimate_is_refused(cli, clean_error):
    line = clean_error(cli("compile", "mastermind", "--strategy", "entropy", "--json"), 2)
    assert line == "error: --json goes with --estimate (the tree itself is the artifact)"


@pytest.mark.parametrize("text, seconds", [("90s", 90), ("20m", 1200), ("6h", DEFAULT_MAX_TIME), ("2d", 172800),
                                           ("1.5h", 5400), ("45", 45), (" none ", None)])
def test_max_time_reads_a_time_with_its_unit(text, seconds):
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["", "0", "-5m", "6 hours", "x", "1e3"])
def test_a_max_time_that_is_not_a_time_is_named(text):
    with pytest.raises(ValueError, match="--max-time must be a positive time"):
        parse_duration(text)


def test_the_estimate_reads_the_load_uptime_says_and_the_cpus_this_process_may_use(cli, monkeypatch):
    """Issue 67: --estimate said "a load of 1.0" while uptime said 3.15 (it took the processes
    runnable at one instant) and was 3x short. The load is the last minute's average; the cores
    are the CPUs this process may run on; its kernels' threads get their fair share beside it."""
    from guesstree.compiler.builder import estimate as model

    monkeypatch.setattr(model.os, "getloadavg", lambda: (3.5, 2.0, 1.0))
    monkeypatch.setattr(model.os, "sched_getaffinity", lambda pid: {0, 1})
    monkeypatch.setattr(model.os, "cpu_count", lambda: 64)  # the machine's: not this process's to use
    assert model.load_average() == 3.5 and model.available_cpus() == 2
    game, options = make_game("mastermind", colours=7, holes=6), Options("most-parts")
    layout = Layout.of(game, options, 1)  # one process: the kernels' threads, one per CPU it may use
    busy, idle = estimate(game, options, layout), estimate(game, options, layout, load=0.0)
    assert (busy.load, busy.cores, idle.cores) == (3.5, 2, 2)
    # 2 threads beside 3.5 others on 2 CPUs: 2 * 2 / 5.5 of a core, each doing CONTENDED of one
    started = model.START_SECONDS / (2 / 4.5 * model.CONTENDED)  # the process's start: 1 thread beside 3.5
    assert busy.seconds - started == pytest.approx((idle.seconds - model.START_SECONDS) * 5.5 / (2 * model.CONTENDED))
    assert "on 2 cores shared with a load of 3.5 and " in busy.text() and "shared" not in idle.text()
    said = json.loads(cli("compile", "mastermind", "--colours", "7", "--holes", "6", "--strategy", "most-parts",
                          "--workers", "1", "--estimate", "--json").stdout)
    assert (said["load"], said["cores"]) == (3.5, 2) and "shared with a load of 3.5" in said["text"]
    monkeypatch.setattr(model.os, "getloadavg", lambda: (0.5, 2.0, 1.0))  # a CPU idle: no sharing
    assert model.share(1, model.load_average()) == 1
    monkeypatch.setattr(model.os, "sched_getaffinity", lambda pid: {3})  # a job given one CPU of 64
    assert estimate(game, options, layout, load=0.0).cores == 1 and model.share(2, 0.0) == pytest.approx(model.CONTENDED)

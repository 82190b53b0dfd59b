"""The ``guesstree`` command line, invoked in-process."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import typer

from guesstree import player
from guesstree.player.artifact import decode, encode
from guesstree.player.cli import app

REPO = Path(__file__).parent.parent
MM32 = ["mastermind", "--colours", "3", "--holes", "2"]


def command_names() -> list[str]:
    """The player's commands and those the compiler adds through the entry points."""
    return sorted(typer.main.get_command(app).list_commands(None))


# -- compile -------------------------------------------------------------------

def test_compile_writes_the_artifact(cli, tmp_path, mm32_path):
    path = tmp_path / "mm.msgpack.zst"
    result = cli("compile", *MM32, "--strategy", "entropy", "-o", path)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(
        f"wrote {path}: Mastermind, 3 colours, 2 holes, entropy, "
        "9 nodes; 9 secrets, total 21, average 2.333, worst 3 (")
    assert result.stderr == ""
    assert path.read_bytes() == mm32_path.read_bytes()  # the CLI builds the golden tree


def test_compile_quiet_prints_nothing(cli, tmp_path):
    path = tmp_path / "twod.msgpack.zst"
    result = cli("compile", "twod", "--size", "3", "--strategy", "minimax", "--quiet", "-o", path)
    assert result.exit_code == 0
    assert (result.stdout, result.stderr) == ("", "")
    assert player.load(path).stats["total"] == 22


@pytest.mark.parametrize("args, default", [
    (MM32 + ["--strategy", "entropy"], "mastermind-c3-h2-entropy.msgpack.zst"),
    (MM32 + ["--strategy", "minimax", "--candidates", "consistent"], "mastermind-c3-h2-minimax-consistent.msgpack.zst"),
    (MM32 + ["--no-secret-repeats", "--strategy", "first"], "mastermind-c3-h2-distinct-first.msgpack.zst"),
    (["twod", "--size", "3", "--strategy", "random", "--seed", "7"], "twod-s3-random-seed7.msgpack.zst"),
    (["bulls-cows", "--digits", "4", "--length", "2", "--strategy", "first"], "bulls-cows-d4-l2-first.msgpack.zst"),
])
def test_compile_writes_in_the_current_folder_or_the_one_named(cli, tmp_path, monkeypatch, args, default):
    (tmp_path / "here").mkdir()
    (tmp_path / "there").mkdir()
    monkeypatch.chdir(tmp_path / "here")
    assert cli("compile", *args, "-q").exit_code == 0  # never in a trees/ of the package's (issue 54)
    assert cli("compile", *args, "-q", "-o", tmp_path / "there").exit_code == 0
    assert [p.name for p in (tmp_path / "here").iterdir()] == [p.name for p in (tmp_path / "there").iterdir()] == \
        [default]


def test_compile_seed_changes_the_tree(cli, tmp_path):
    trees = []
    for seed in (1, 2):
        path = tmp_path / f"r{seed}.msgpack.zst"
        assert cli("compile", "mastermind", "--colours", "4", "--holes", "3", "--strategy", "random",
                   "--seed", seed, "-q", "-o", path).exit_code == 0
        trees.append(decode(path.read_bytes())[1])
    assert trees[0]["guess"] != trees[1]["guess"]


@pytest.mark.parametrize("args, message", [
    (["chess", "--strategy", "entropy"],
     "error: unknown game: 'chess'; choose from mastermind, bulls-cows, digits, twod, words, or module:factory"),
    (["mastermind", "--strategy", "fastest"], "error: unknown strategy: 'fastest'; choose from first, random, "
     "entropy, worst-entropy, sampled-entropy, minimax, most-parts, expected-size"),
    (["mastermind", "--strategy", "minmax"], "error: unknown strategy: 'minmax'; did you mean minimax? (guesstree "
     "list shows them all)"),
    (["mastermind", "--strategy", "knut"], "error: unknown strategy: 'knut'; did you mean knuth (minimax)?"),
    (["mastermind", "--holes", "0", "--strategy", "entropy"], "error: --holes must be a whole number from 1 to 12, not 0"),
    (["mastermind", "--size", "3", "--strategy", "entropy"], "error: --size does not apply to mastermind"),
    (["twod", "--holes", "3", "--colours", "2", "--strategy", "entropy"], "error: --colours, --holes does not apply to twod"),
    (["bulls-cows", "--no-secret-repeats", "--strategy", "entropy"], "error: --secret-repeats does not apply to bulls-cows"),
    (["mastermind", "--strategy", "entropy", "--candidates", "some"], "error: --candidates must be 'all' or 'consistent', not 'some'"),
    (["mastermind", "--strategy", "entropy", "--engine", "gpu"], "error: unknown engine: 'gpu'; choose from fast, numba, numpy, reference"),
    (["mastermind", "--colours", "3", "--holes", "4", "--no-secret-repeats", "--strategy", "entropy"],
     "error: --no-secret-repeats needs at least as many colours as holes (3 < 4)"),
    (["no_such_module_xyz:make", "--strategy", "entropy"], "error: cannot import game plugin module 'no_such_module_xyz'"),
])
def test_compile_bad_input_is_one_error_line(cli, tmp_path, monkeypatch, clean_error, args, message):
    monkeypatch.chdir(tmp_path)
    line = clean_error(cli("compile", *args), code=2)
    assert line.startswith(message)
    assert not (tmp_path / "trees").exists()


def test_compile_refuses_a_game_over_the_memory_budget(cli, tmp_path, clean_error):
    # about a kilobyte: too little even for the list of codes, let alone a feedback matrix
    line = clean_error(cli("compile", "digits", "--length", "4", "--strategy", "entropy", "--max-memory", "0.000001",
                           "-o", tmp_path / "d.zst"), code=2)
    assert "--max-memory" in line
    assert not (tmp_path / "d.zst").exists()


@pytest.mark.parametrize("value", ["inf", "nan", "0", "-1"])
def test_compile_refuses_a_meaningless_memory_budget(cli, tmp_path, clean_error, value):
    line = clean_error(cli("compile", *MM32, "--strategy", "entropy", "--max-memory", value,
                           "-o", tmp_path / "mm.zst"), code=2)
    assert line.startswith("error: --max-memory must be a positive number of GiB")


def test_compile_to_an_unwritable_place_is_one_error_line(cli, tmp_path, clean_error):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    line = clean_error(cli("compile", *MM32, "--strategy", "entropy", "-o", blocker / "mm.msgpack.zst"), code=2)
    assert line.startswith(f"error: cannot write {blocker / 'mm.msgpack.zst'}")


@pytest.mark.parametrize("where, says", [
    ("/proc/x.msgpack.zst", "No such file or directory"),
    ("{tmp}/no/such/x.msgpack.zst", "folder {tmp}/no/such does not exist; create it first"),
    ("{tmp}/a-file", "an artifact is zstd-compressed msgpack; name it a-file.msgpack.zst"),
    ("{tmp}/a-file/x.msgpack.zst", "{tmp}/a-file is not a directory"),
    ("{tmp}/tree.json", "an artifact is zstd-compressed msgpack; name it tree.msgpack.zst"),
])
@pytest.mark.parametrize("strategy", ["entropy", "optimal-expected"])
def test_compile_checks_where_the_tree_goes_before_any_work(cli, tmp_path, clean_error, monkeypatch, where, says,
                                                           strategy):
    import guesstree.compiler.builder.runner as builder
    import guesstree.compiler.exact as bound

    def no_work(*args, **kwargs):
        raise AssertionError("the work started before the output path was checked")

    monkeypatch.setattr(builder, "build", no_work)
    monkeypatch.setattr(bound, "solver_of", no_work)
    (tmp_path / "a-file").write_text("not a directory")
    path = where.format(tmp=tmp_path)
    line = clean_error(cli("compile", *MM32, "--strategy", strategy, "-o", path), code=2)
    assert line == f"error: cannot write {path}: {says.format(tmp=tmp_path)}"


def test_compare_checks_its_plot_path_before_any_work(cli, tmp_path, clean_error):
    line = clean_error(cli("compare", *MM32, "--strategies", "entropy", "--plot", tmp_path), code=2)
    assert line == f"error: cannot write {tmp_path}: it is a directory; name a file in it, e.g. {tmp_path}/plot.svg"


# -- info ------------------------------------------------------------------------

def test_info_text_with_bars(cli, mm32_path):
    result = cli("info", mm32_path)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == str(mm32_path)
    assert "  game       Mastermind 3x2" in lines
    assert "  strategy   entropy, candidates=all" in lines
    assert "  first      AB" in lines
    assert "  nodes      9" in lines
    assert "  to win     total 21, average 2.3333, worst 3" in lines
    assert "  to determine total 15, average 1.6667, worst 2" in lines
    win = lines[lines.index("guesses to win:") + 1:lines.index("guesses to determine:")]
    known = lines[lines.index("guesses to determine:") + 1:]
    # bars scaled to the largest count (40 characters): 1, 4, 4 and 3, 6
    assert [(line.split()[0], line.count("█"), line.split()[-1]) for line in win] == [
        ("1", 10, "1"), ("2", 40, "4"), ("3", 40, "4")]
    assert [(line.split()[0], line.count("█"), line.split()[-1]) for line in known] == [("1", 20, "3"), ("2", 40, "6")]


def test_info_json(cli, mm32_path):
    result = cli("info", mm32_path, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["format"] == "guesstree" and data["version"] == [1, 1]
    assert data["game"] == {"name": "mastermind", "params": {
        "colours": 3, "holes": 2, "secret_repeats": True, "guess_repeats": True}}
    assert data["strategy"] == {"name": "entropy", "candidates": "all"}
    assert data["stats"]["histogram"] == {"1": 1, "2": 4, "3": 4}
    assert data["stats"]["determined_histogram"] == {"1": 3, "2": 6}
    assert data["stats"]["total"] == 21 and data["nodes"] == 9
    assert len(data["body_sha256"]) == 64


# -- solve -----------------------------------------------------------------------

def test_solve_prints_the_path(cli, mm32_path):
    result = cli("solve", mm32_path, "CB")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == ["1. AB  1B0W", "2. AC  0B1W", "3. CB  2B0W", "solved CB in 3 guesses"]


def test_solve_in_one_guess_and_with_digits(cli, mm32_path):
    result = cli("solve", mm32_path, "12")  # digits are 1-based colours: 12 is AB
    assert result.stdout.splitlines() == ["1. AB  2B0W", "solved AB in 1 guess"]


@pytest.mark.parametrize("secret, message", [
    ("ABC", "error: 'ABC' has 3 colours; this game has 2 holes"),
    ("AD", "error: 'AD' uses a colour outside A-C"),
    ("A?", "error: 'A?' is not a code"),
])
def test_solve_bad_secret_is_one_error_line(cli, mm32_path, clean_error, secret, message):
    assert clean_error(cli("solve", mm32_path, secret), code=2).startswith(message)


def test_solve_a_code_that_is_never_a_secret(cli, tmp_path, clean_error):
    path = tmp_path / "distinct.msgpack.zst"
    assert cli("compile", "mastermind", "--colours", "4", "--holes", "3", "--no-secret-repeats",
               "--strategy", "minimax", "-q", "-o", path).exit_code == 0
    assert cli("solve", path, "DCB").exit_code == 0
    assert "is not a possible secret" in clean_error(cli("solve", path, "AAB"), code=2)


@pytest.mark.parametrize("command", [["solve", "{missing}", "AB"], ["info", "{missing}"], ["play", "{missing}"]])
def test_missing_file_is_one_error_line(cli, tmp_path, clean_error, command):
    missing = tmp_path / "absent.msgpack.zst"
    args = [a.format(missing=missing) for a in command]
    assert clean_error(cli(*args), code=2) == f"error: {missing}: no such file"


@pytest.mark.parametrize("command", [["solve", "{path}", "AB"], ["info", "{path}"], ["play", "{path}"]])
def test_garbage_file_is_one_error_line(cli, tmp_path, clean_error, command):
    path = tmp_path / "garbage.msgpack.zst"
    path.write_bytes(b"\x00garbage" * 50)
    line = clean_error(cli(*[a.format(path=path) for a in command]), code=2)
    assert line.startswith(f"error: {path}: ")


# -- verify ----------------------------------------------------------------------

VERIFY_KEYS = {"ok", "secrets", "worst", "total", "average", "histogram", "determined_histogram", "errors"}


def test_verify_valid_tree(cli, mm32_path):
    result = cli("verify", mm32_path)
    assert result.exit_code == 0
    assert result.stdout == f"ok {mm32_path}: 9 secrets, total 21, average 2.3333, worst 3\n"


def test_verify_json(cli, mm32_path):
    result = cli("verify", mm32_path, "--json", "--max-depth", "3")
    assert result.exit_code == 0, result.output
    report, = json.loads(result.stdout)  # an array, one report per tree, however many
    assert VERIFY_KEYS <= set(report) and report["unusable"] is False
    assert {k: report[k] for k in VERIFY_KEYS} == {
        "ok": True, "secrets": 9, "worst": 3, "total": 21, "average": pytest.approx(21 / 9, abs=1e-6),
        "histogram": {"1": 1, "2": 4, "3": 4}, "determined_histogram": {"1": 3, "2": 6}, "errors": []}


def test_verify_several_trees_gives_a_json_list(cli, golden_path):
    paths = [golden_path("mastermind-c3-h2-entropy.msgpack.zst"), golden_path("twod-s3-minimax.msgpack.zst")]
    result = cli("verify", *paths, "--json")
    assert result.exit_code == 0
    reports = json.loads(result.stdout)
    assert [(r["tree"], r["ok"], r["total"]) for r in reports] == [(str(paths[0]), True, 21), (str(paths[1]), True, 22)]


def test_verify_max_depth_below_the_worst_exits_1(cli, mm32_path):
    result = cli("verify", mm32_path, "--max-depth", "2")
    assert result.exit_code == 1
    assert result.stderr == f"INVALID {mm32_path}:\n  4 secrets take more than 2 guesses, the bound, e.g. AA takes 3\n"
    report, = json.loads(cli("verify", mm32_path, "--max-depth", "2", "--json").stdout)
    assert report["ok"] is False and report["errors"] == ["4 secrets take more than 2 guesses, the bound, e.g. AA takes 3"]


def test_verify_a_broken_tree_exits_1(cli, mm32_path, tmp_path):
    header, body = decode(mm32_path.read_bytes())
    header["stats"]["total"] = 20
    path = tmp_path / "lying.msgpack.zst"
    path.write_bytes(encode(header, body))
    result = cli("verify", path, "--json")
    assert result.exit_code == 1
    report, = json.loads(result.stdout)
    assert report["ok"] is False
    assert report["errors"] == ["the header says total = 20, but the tree gives 21"]


@pytest.mark.parametrize("content", [None, b"", b"garbage" * 10])
def test_verify_an_unusable_file_exits_2(cli, tmp_path, mm32_path, content):
    path = tmp_path / "bad.msgpack.zst"
    if content is not None:
        path.write_bytes(content)
    result = cli("verify", path, "--json")
    assert result.exit_code == 2
    report, = json.loads(result.stdout)
    assert report["ok"] is False and report["unusable"] is True and report["errors"][0].startswith(f"{path}: ")
    assert VERIFY_KEYS <= set(report)  # the same shape as a usable tree's report
    assert "Traceback" not in result.output
    # a valid tree next to it does not hide the failure
    assert cli("verify", mm32_path, path).exit_code == 2


def test_verify_rejects_a_zero_bound(cli, mm32_path, clean_error):
    assert clean_error(cli("verify", mm32_path, "--max-depth", "0"), code=2) == "error: --max-depth must be at least 1"


# -- play --------------------------------------------------------------------------

def play(cli, path, *answers):
    result = cli("play", path, input="".join(f"{a}\n" for a in answers))
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    return result


def test_play_to_a_win(cli, mm32_path):
    result = play(cli, mm32_path, "1B", "0 1", "2B")
    assert result.exit_code == 0
    out = result.stdout
    assert "guess 1: AB  feedback? " in out and "guess 2: AC  feedback? " in out and "guess 3: CB  feedback? " in out
    assert out.rstrip().endswith("solved: your secret is CB, found in 3 guesses")
    assert out.startswith("Mastermind, 3 colours, 2 holes, 9 secrets: ")  # a title, not a Python repr
    assert "1 secret is still possible: CB" in out  # the last secret left is named
    assert "'quit' to stop" in out and "right colour in the right place" in out


def test_play_explains_itself_on_help(cli, golden_path):
    result = play(cli, golden_path("twod-s3-minimax.msgpack.zst"), "help", "quit")
    assert result.exit_code == 0
    assert result.stdout.count("answer <= if your point is at most the guess") == 2  # at the start, on help
    assert "try again" not in result.stdout  # help is not bad feedback


def test_play_refuses_malformed_feedback_and_asks_again(cli, mm32_path):
    result = play(cli, mm32_path, "xx", "3B", "1B1W", "2B")
    assert result.exit_code == 0
    out = result.stdout
    assert "'xx' is not feedback for mastermind: write e.g. '2B1W' or '2 1'; try again" in out
    assert "'3B' is impossible: 3 black + 0 white exceed 2 positions; try again" in out
    assert "'1B1W' is impossible: with 1 black the last symbol cannot be misplaced; try again" in out
    assert out.count("guess 1: AB") == 4
    assert out.rstrip().endswith("solved: your secret is AB, found in 1 guess")


def test_play_impossible_feedback_then_undo(cli, mm32_path):
    result = play(cli, mm32_path, "0B0W", "1B0W", "undo", "1B", "0 1", "2B")
    assert result.exit_code == 0
    out = result.stdout
    assert ("no secret gives all these answers; most likely answer 1 is wrong: you gave 0B0W to AB, "
            "perhaps it was 1B0W (this answer was not taken; type 'undo' to take earlier answers back)") in out
    assert "took back 0B0W for AB" in out
    assert out.count("guess 2: CC") == 2  # asked again after the refused answer
    assert out.rstrip().endswith("solved: your secret is CB, found in 3 guesses")


def test_play_end_of_input_stops_cleanly(cli, mm32_path):
    result = play(cli, mm32_path, "1B")
    assert result.exit_code == 0
    assert result.stdout.rstrip().endswith("end of input: stopped")


def test_play_quit(cli, mm32_path):
    result = play(cli, mm32_path, "quit", "2B")
    assert result.exit_code == 0
    assert "solved" not in result.stdout


def test_play_bulls_cows_feedback_as_the_game_writes_it(cli, golden_path):
    result = play(cli, golden_path("bulls-cows-d4-l2-first.msgpack.zst"), "0A1B", "1A0B", "2A")
    assert result.exit_code == 0
    assert "right digit in the right place" in result.stdout and "e.g. 2A1B" in result.stdout
    assert "guess 2: 12" in result.stdout and "guess 3: 13" in result.stdout
    assert result.stdout.rstrip().endswith("solved: your secret is 13, found in 3 guesses")


# -- help and documentation -------------------------------------------------------

def test_every_command_is_there():
    assert set(command_names()) == {"bound", "compare", "compile", "export", "info", "list", "manifest", "openers",
                                    "play", "solve", "verify", "warm", "next", "trees", "review"}


@pytest.mark.parametrize("name", command_names())
def test_every_command_has_help_with_an_example(cli, name):
    result = cli(name, "--help")
    assert result.exit_code == 0
    assert typer.main.get_command(app).get_command(None, name).help
    assert f"Example: guesstree {name}" in result.stdout


def test_every_command_appears_in_the_readme():
    readme = REPO / "README.md"
    if not readme.exists():
        pytest.fail("README.md is missing: it must show every command as `guesstree <command>`")
    text = readme.read_text()
    missing = [name for name in command_names() if f"guesstree {name}" not in text]
    assert not missing, f"README.md never shows {', '.join('guesstree ' + m for m in missing)}"


PROGRAM_ENDING = """
import atexit, sys
atexit.register(lambda: print("exit handler ran"))  # buffered too
from guesstree.player.cli import main
sys.argv = ["guesstree", *sys.argv[1:]]
print("output before the end", end="")  # buffered: must still reach the pipe
main()
"""


@pytest.mark.parametrize("args, code, said", [
    (["bound", "mastermind", "--colours", "3", "--holes", "2"], 0, "the optimal worst case is 3 guesses"),
    (["compile", "mastermind", "--colours", "3", "--holes", "2", "--strategy", "optimal-expected", "--max-depth",
      "1", "-o", "t.msgpack.zst"], 2, "no tree wins every secret"),
])
def test_the_program_ends_with_its_output_its_exit_handlers_and_its_code(tmp_path, args, code, said):
    """After a command that loaded numba the program skips the interpreter's teardown: its
    output, its exit handlers and its exit code must not be lost with it."""
    import os
    import subprocess
    import sys

    buffered = {name: value for name, value in os.environ.items() if name != "PYTHONUNBUFFERED"}
    run = subprocess.run([sys.executable, "-c", PROGRAM_ENDING, *args], capture_output=True, text=True, timeout=300,
                         cwd=tmp_path, env=buffered)
    assert run.returncode == code, run.stderr
    assert run.stdout.startswith("output before the end") and run.stdout.endswith("exit handler ran\n")
    assert said in run.stdout + run.stderr


def test_compile_help_names_the_default_file_as_compile_names_it(cli):
    """Issue 67: the help said <game>-<strategy>; the name is the game's slug (its options too)."""
    from guesstree.compiler import Options
    from guesstree.compiler.builder.writer import default_path
    from guesstree.player.games import make_game

    said = re.sub(r"(\w-) ", r"\1", " ".join(cli("compile", "--help").stdout.split()))  # as wrapped at hyphens
    named = default_path(make_game("bulls-cows"), Options("entropy"))
    assert str(named) == "bulls-cows-d10-l4-entropy.msgpack.zst"
    assert f"(default: <game slug>-<strategy>.msgpack.zst in the current folder, e.g. {named} for bulls-cows " \
           "--strategy entropy)" in said

"""What a new user met in the first hour (issue 12), each fixed at its root and held here."""
from __future__ import annotations

import json
import os
import re
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import typer

from guesstree import player
from guesstree.player.cli import app
from guesstree.player.games import make_game

REPO = Path(__file__).parent.parent
SMALL = REPO / "tests" / "data" / "words-small.txt"
GUESSTREE = str(Path(sys.executable).parent / "guesstree")


# -- 1. many holes: symmetry costs at most what it saves; memory runs out cleanly -----------------

@pytest.mark.slow
def test_many_holes_compile_quickly(cli, tmp_path):
    path = tmp_path / "mm.msgpack.zst"
    result = cli("compile", "mastermind", "--colours", "2", "--holes", "12", "--strategy", "entropy", "-o", path)
    assert result.exit_code == 0, result.output
    assert player.load(path).stats["total"] == 24557  # the reference engine's tree (checked by hand)


def test_symmetries_are_enumerated_within_their_budget():
    from guesstree.compiler.engine.symmetry import Symmetry

    game = make_game("mastermind", colours=2, holes=12)
    symmetry = Symmetry(game, np.zeros((1, 12), dtype=np.int64), "numba")
    perms, maps = symmetry._symmetries(np.zeros((0, 12), dtype=np.int64), 100, False)  # 12! are there
    assert len(perms) == len(maps) == 100 and perms[0] == list(range(12))  # the identity first
    assert len({tuple(p) for p in perms}) == 100


def test_a_game_beyond_memory_is_refused_before_it_is_listed(cli, clean_error):
    result = cli("compile", "mastermind", "--colours", "26", "--holes", "12", "--strategy", "entropy")
    line = clean_error(result, 2)
    assert "95428956661682176 secrets" in line and "over --max-memory 8.0 GiB" in line


@pytest.mark.slow
def test_running_out_of_memory_is_one_line(tmp_path):
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (450 << 20, 450 << 20))  # numpy loaded, the 8x5 matrix not

    result = subprocess.run([GUESSTREE, "compile", "mastermind", "--colours", "8", "--holes", "5", "--strategy",
                             "entropy", "--engine", "numpy", "-o", str(tmp_path / "x.msgpack.zst")],
                            capture_output=True, text=True, timeout=300, preexec_fn=limit)
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    said = [line for line in result.stderr.strip().splitlines()  # (the estimate, said first on a busy machine)
            if not line.startswith("estimated: ")]
    assert said == [
        "error: out of memory building Mastermind, 8 colours, 5 holes: "
        "a smaller --max-memory (now 8 GiB) scores the game in blocks on demand"]
    assert not (tmp_path / "x.msgpack.zst").exists()


def test_a_tiny_memory_budget_is_said_in_sensible_units(cli, clean_error):
    line = clean_error(cli("compile", "mastermind", "--strategy", "entropy", "--max-memory", "0.000001"), 2)
    assert line == ("error: Mastermind 6x4 is too big: listing its 1296 secrets and as many guesses takes about "
                    "324.0 KiB, over --max-memory 1.0 KiB; --max-memory 1 builds it")


# -- 2. default names: short, flat, different for different trees ----------------------------------

def test_default_names_are_short_flat_and_distinct(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    answers = tmp_path / "lists" / "deep" / "answers.txt"
    answers.parent.mkdir(parents=True)
    answers.write_text(SMALL.read_text())
    for extra in ([], ["--first", "lemon"], ["--hard"], ["--hard", "--first", "lemon"]):
        result = cli("compile", "words", "--answers", answers, "--strategy", "entropy", *extra, "-q")
        assert result.exit_code == 0, result.output
    names = sorted(p.name for p in tmp_path.glob("*.msgpack.zst"))  # in the current folder (issue 54)
    assert len(names) == 4 and all(len(name) < 70 for name in names), names
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_dir()) == ["lists"]
    assert names[0].startswith("words-answers-") and "-entropy-first-lemon." in " ".join(names)


# -- 3. a words tree stands alone ------------------------------------------------------------------

def test_a_words_tree_works_from_another_folder(tmp_path, monkeypatch):
    work, elsewhere = tmp_path / "work", tmp_path / "elsewhere"
    work.mkdir(), elsewhere.mkdir()
    (work / "answers.txt").write_text(SMALL.read_text())
    run = dict(capture_output=True, text=True, timeout=120)
    made = subprocess.run([GUESSTREE, "compile", "words", "--answers", "answers.txt", "--strategy", "entropy",
                           "-o", "../elsewhere/w.msgpack.zst", "-q"], cwd=work, **run)
    assert made.returncode == 0, made.stderr
    (work / "answers.txt").unlink()
    verified = subprocess.run([GUESSTREE, "verify", "w.msgpack.zst"], cwd=elsewhere, **run)
    assert verified.returncode == 0 and verified.stdout.startswith("ok "), verified.stderr
    page = subprocess.run([GUESSTREE, "export", "w.msgpack.zst", "-o", "w.html"], cwd=elsewhere, **run)
    assert page.returncode == 0 and (elsewhere / "w.html").stat().st_size > 1000
    tree = player.load(elsewhere / "w.msgpack.zst")
    secret = tree.game.secrets[3]
    played = subprocess.run([GUESSTREE, "play", "w.msgpack.zst"], cwd=elsewhere, **run,
                            input="".join(tree.game.format_feedback(f) + "\n" for _, f in tree.path(secret)))
    assert played.stdout.rstrip().endswith(f"solved: your secret is {tree.game.format_code(secret)}, found in "
                                           f"{len(tree.path(secret))} guesses")


def test_the_shipped_trees_people_come_for():
    """Ready to embed: the proven optima of classic Mastermind, 7-colour Mastermind, Bulls and Cows
    and Wordle with SALET."""
    expected = {"mastermind-c6-h4-optimal-expected.msgpack.zst": (5625, 6),
                "mastermind-c7-h4-optimal-expected.msgpack.zst": (11228, 6),  # Ville 2013
                "bulls-cows-d10-l4-optimal-expected.msgpack.zst": (26274, 7),  # Tanaka 1996
                "wordle-salet-optimal-expected.msgpack.zst": (7920, 5),
                "wordle-hard-salet-optimal-expected-depth6.msgpack.zst": (8122, 6)}
    for name, (total, worst) in expected.items():
        tree = player.load(REPO / "trees" / name)
        assert (tree.stats["total"], tree.stats["worst"]) == (total, worst)
        assert tree.strategy["optimal"] is True and tree.strategy["minimum_total"] == total
    wordle = player.load(REPO / "trees" / "wordle-salet-optimal-expected.msgpack.zst")
    assert wordle.next_guess([]) == wordle.game.parse_code("salet") and len(wordle.game.secrets) == 2315


# -- 4. compare reuses an optimal tree ---------------------------------------------------------------

def test_compare_reuses_an_optimal_tree(cli, tmp_path):
    args = ("compare", "twod", "--size", "3", "--strategies", "optimal-expected", "--trees", tmp_path / "d", "--json")
    first, second = cli(*args), cli(*args)
    assert first.exit_code == 0 and second.exit_code == 0, second.output
    assert json.loads(second.stdout)["rows"][0]["source"] == "loaded"
    assert json.loads(second.stdout)["rows"][0]["total"] == json.loads(first.stdout)["rows"][0]["total"] == 22


# -- 5. the progress bar knows its total from the start ----------------------------------------------

def test_the_progress_bar_starts_with_its_total(monkeypatch):
    from guesstree.compiler.cli.progress import BuildBar

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    progress = BuildBar(False, 1296)
    with progress as update:
        assert update is not None and progress.bar.tasks[0].fields["secrets"] == 1296
        update(1000, 1296, 1100, 4000, 5000)  # the bar is the work's (secrets are won last)
        assert (progress.bar.tasks[0].completed, progress.bar.tasks[0].total) == (4000, 5000)
        assert progress.bar.tasks[0].fields["left"].endswith(" s left")  # at the work's pace: a quarter to go
        update(1296, 1296, 1378, 5100, 5100)
        said = " ".join(str(column.render(progress.bar.tasks[0])) for column in progress.bar.columns
                        if hasattr(column, "text_format"))
        assert "1296/1296 secrets, 1,378 nodes" in said  # the nodes placed


def test_a_compile_shows_its_search_then_its_bar(monkeypatch):
    """An exhaustive strategy's compile shows the search's status, then the build's bar:
    one display at a time (rich refuses two live displays at once)."""
    import guesstree.compiler.cli.progress as progress

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    shown = []
    monkeypatch.setattr(progress, "search_status", _recorded(progress.search_status, shown, "search"))
    monkeypatch.setattr(progress, "BuildBar", _recorded(progress.BuildBar, shown, "bar"))
    with progress.compile_display(False) as (search, build):
        search({"task": "minimum total", "jobs_done": 1, "in_flight": 1, "nodes": 10})
        search({"task": "minimum total", "jobs_done": 2, "in_flight": 0, "nodes": 20})
        build(5, 1296, 7, 1296, 4000)
        build(1296, 1296, 1378, 3900, 3900)
    assert shown == ["search opened", "search closed", "bar opened", "bar closed"]
    with progress.compile_display(True) as callbacks:
        assert callbacks == (None, None)  # --quiet: nothing shown


def _recorded(display, shown: list, name: str):
    """``display`` (a context manager's factory), noting in ``shown`` when it opens and closes."""
    import contextlib

    @contextlib.contextmanager
    def recorded(*arguments):
        with display(*arguments) as update:
            shown.append(f"{name} opened")
            yield update
        shown.append(f"{name} closed")
    return recorded


def test_the_search_bar_is_never_full_for_work_not_done():
    from guesstree.compiler.cli.progress import bar_share, describe

    assert bar_share({}) == (0, 1)  # empty before any job
    assert bar_share({"jobs_done": 0, "in_flight": 2}) == (0, 2)  # not full: nothing done yet
    assert bar_share({"jobs_done": 3, "in_flight": 1}) == (3, 4)
    assert bar_share({"openers": 5, "openers_done": 2, "jobs_done": 9, "in_flight": 3}) == (2, 5)
    assert describe({"task": "minimum total", "root": "AABB", "jobs_done": 0, "in_flight": 2, "nodes": 1234}) == (
        "minimum total, first guess AABB", "2 jobs in flight, 1,234 nodes")
    assert describe({"task": "minimum total", "jobs_done": 3, "in_flight": 2, "nodes": 5}) == (
        "minimum total", "3 jobs done, 2 in flight, 5 nodes")
    assert describe({"task": "listing the codes"}) == ("listing the codes", "")  # said at once (issue 54)


def test_a_long_search_estimates_the_time_left_where_its_size_is_known():
    from guesstree.compiler.cli.progress import time_left

    assert time_left({"openers": 100, "openers_done": 25}, 60.0) == "about 3 min left"  # 75 more at 2.4 s
    assert time_left({"openers": 12972, "openers_done": 1000}, 3600.0) == "about 12.0 h left"
    assert time_left({"openers": 10, "openers_done": 5}, 30.0) == "about 30 s left"
    assert time_left({"openers": 10, "openers_done": 0}, 30.0) == ""  # no pace yet
    assert time_left({"jobs_done": 5, "in_flight": 3}, 30.0) == ""  # jobs handed out as it goes: no total


# -- 8. the Python API takes the game's text and names what is wrong ---------------------------------

def test_next_guess_takes_text_and_names_bad_input(mm32_tree):
    assert mm32_tree.next_guess([("AB", "1B")]) == mm32_tree.next_guess([((0, 1), (1, 0))]) == (0, 2)
    assert mm32_tree.next_guess(pair for pair in [("AB", "1B0W")]) == (0, 2)  # any iterable
    for history, error, message in [
        (None, TypeError, "history must be a list of (guess, feedback) pairs, not NoneType"),
        ([("AB",)], TypeError, "step 1: expected a (guess, feedback) pair"),
        ([("AB", "1B", "x")], TypeError, "step 1: expected a (guess, feedback) pair"),
        ([("AB", 5)], TypeError, "step 1: a guess and a feedback are tuples of ints or the game's text"),
        ([("AZ", "1B")], ValueError, "step 1: 'AZ' uses a colour outside A-C"),
    ]:
        with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)")):
            mm32_tree.next_guess(history)


# -- 9. no Python internals in messages ----------------------------------------------------------

def test_words_without_answers_says_what_is_missing(cli, clean_error):
    assert clean_error(cli("compile", "words", "--strategy", "entropy"), 2) == (
        "error: words needs --answers FILE, a list of the possible secrets")


def test_an_answer_missing_from_the_guesses_names_both_files(cli, clean_error, tmp_path):
    guesses = tmp_path / "guesses.txt"
    guesses.write_text("\n".join(w for w in SMALL.read_text().split() if w != "lemon"))
    line = clean_error(cli("compile", "words", "--answers", SMALL, "--guesses", guesses, "--strategy", "entropy"), 2)
    assert line == f"error: {SMALL}: the answer 'lemon' is not in the guess list {guesses}, so it could never be won"


# -- 10. the command line's small gaps -------------------------------------------------------------

def test_version_short_help_completion_and_list(cli):
    assert cli("--version").stdout == f"guesstree {player.__version__}\n"
    assert cli("-h").exit_code == 0 and "--install-completion" in cli("-h").stdout
    listed = cli("list").stdout
    assert "mastermind   A code of coloured pegs (4 holes, 6 colours by default)" in listed and "optimal-expected  a tree of the fewest" in listed


@pytest.mark.parametrize("name", sorted(typer.main.get_command(app).list_commands(None)))
def test_help_shows_no_placeholders(cli, name):
    text = cli(name, "--help").stdout
    assert not re.search(r"<(int|str|float|bool|path|list|Path)\b[^>]*>|\{\w", text), text


def test_the_verify_help_example_passes_on_the_shipped_trees(cli, monkeypatch):
    monkeypatch.chdir(REPO)
    text = cli("verify", "--help").stdout.split("Example: guesstree ")[1].split("\n\n")[0]
    example = re.sub(r"-\n\s*", "-", text).split()  # the help wraps long lines, at a hyphen too
    assert cli(*example).exit_code == 0


def test_the_docs_plugin_example_runs_from_its_folder(tmp_path):
    guide = (REPO / "docs" / "tutorials" / "compile.md").read_text()  # "Your own game"
    code = guide.split("# mygame.py\n", 1)[1].split("```", 1)[0]
    (tmp_path / "mygame.py").write_text(code)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    result = subprocess.run([GUESSTREE, "compile", "mygame:make", "--strategy", "entropy", "-o", "p.msgpack.zst"],
                            cwd=tmp_path, capture_output=True, text=True, timeout=120, env=env)
    assert result.returncode == 0, result.stderr
    verified = subprocess.run([GUESSTREE, "verify", "p.msgpack.zst", "--plugin", "mygame"], cwd=tmp_path,
                              capture_output=True, text=True, timeout=120, env=env)
    assert verified.returncode == 0, verified.stderr


def test_the_strategy_help_names_every_strategy():
    """compile's help lists the strategies without importing them (numpy): the list must be whole."""
    from guesstree.compiler.cli import commands
    from guesstree.compiler.strategies import STRATEGIES

    option = next(p for p in commands()["compile"].params if p.name == "strategy")
    assert option.help.split(", ") == list(STRATEGIES)


@pytest.mark.slow
def test_a_command_compiles_only_what_it_runs_and_warm_compiles_everything_ahead(tmp_path):
    """On a machine whose install was never warmed, a command compiles no kernel ahead: a game
    small enough for the numpy engine compiles none and says nothing of it, a game on the compiled
    engine compiles the kernels it calls (numba, at first call), saying so first unless --quiet. ``guesstree warm`` compiles them
    all: what it compiled is all that an exact search, a bound and a heuristic build then need."""
    cache = tmp_path / "numba-cache"
    env = {**{k: v for k, v in os.environ.items() if k != "GUESSTREE_WARM"}, "NUMBA_CACHE_DIR": str(cache)}
    words = Path(__file__).parent / "data" / "words-small.txt"

    def guesstree(*command) -> list[str]:
        done = subprocess.run([GUESSTREE, *map(str, command), "-q", "-o", tmp_path / "tree.msgpack.zst"],
                              capture_output=True, text=True, env=env, timeout=600)
        assert done.returncode == 0 and done.stderr == "", (command, done.stderr)
        return sorted(p.name for p in cache.rglob("*.nb[ic]"))  # an index per kernel, a data file per signature

    assert guesstree("compile", "mastermind", "--colours", "3", "--holes", "2", "--strategy", "entropy") == []
    used = guesstree("compile", "mastermind", "--colours", "7", "--holes", "5", "--strategy", "entropy")
    assert any(name.startswith("packed._packed_block-") for name in used)
    assert not any(name.startswith(("recursion.", "table.")) for name in used)  # no search's kernels
    exact = ["compile", "words", "--answers", words, "--strategy", "optimal-expected", "-o", tmp_path / "w.zst"]
    for said in ("guesstree: compiling the exhaustive search's kernels for this machine, once (about a minute", ""):
        done = subprocess.run([GUESSTREE, *map(str, exact)], capture_output=True, text=True, env=env, timeout=600)
        assert done.returncode == 0 and done.stderr.startswith(said), done.stderr  # said on the first run only
        assert "compiling" not in done.stderr[len(said):]
    again = subprocess.run([GUESSTREE, "warm"], capture_output=True, text=True, env=env, timeout=600)
    assert again.returncode == 0 and re.search(r"compiled ahead \(\d+ small builds", again.stderr), again.stderr
    before = sorted(p.name for p in cache.rglob("*.nb[ic]"))
    assert len(before) > 40 and {n for n in used if n.endswith(".nbi")} <= set(before)
    for command in (["compile", "words", "--answers", words, "--strategy", "optimal-expected", "--first", "crane"],
                    ["compile", "words", "--answers", words, "--hard", "--strategy", "optimal-expected"],
                    ["compile", "mastermind", "--colours", "5", "--strategy", "optimal-expected"],
                    ["compile", "bulls-cows", "--digits", "6", "--length", "3", "--strategy", "optimal-worst"],
                    ["compile", "mastermind", "--colours", "7", "--holes", "5", "--strategy", "entropy"]):
        assert guesstree(*command) == before, command  # nothing compiled


def test_a_small_compile_never_loads_numba(tmp_path):
    """Classic Mastermind runs on the numpy engine: its whole compile, the cache's check included,
    neither loads numba nor compiles a kernel (loading numba alone took longer than the build)."""
    code = ("import runpy, sys\n"
            f"sys.argv = ['guesstree', 'compile', 'mastermind', '--strategy', 'entropy', '-q', '-o', {str(tmp_path / 'mm.msgpack.zst')!r}]\n"
            "try:\n    runpy.run_module('guesstree', run_name='__main__')\nexcept SystemExit as done:\n    assert not done.code\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('numba', 'llvmlite')))\n")
    env = {**{k: v for k, v in os.environ.items() if k != "GUESSTREE_WARM"}, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    for _ in range(2):  # a new machine's empty cache (which loads numba to clear it), then that cache
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=env)
        assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
    assert player.load(tmp_path / "mm.msgpack.zst").stats["total"] == 5722
    assert list((tmp_path / "cache").rglob("*.nb[ic]")) == []


def test_a_compile_starts_numba_without_its_cffi_typing(tmp_path):
    """A command that loads numba skips numba's cffi typing (``engine.numba_start``: its
    ``cffi.FFI()`` took 20 to 50 ms of every such command where cffi is installed), and cffi
    stays importable in the process afterwards where it is installed."""
    code = ("import atexit, importlib.util, runpy, sys\n"
            "def report():\n"  # (at exit: a command that loaded numba ends without the interpreter's teardown)
            "    from numba.core.typing import cffi_utils\n"
            "    print(cffi_utils.SUPPORTED, 'pycparser' in sys.modules)\n"
            "    if importlib.util.find_spec('cffi'):\n        import cffi\n        cffi.FFI()\n"
            "        print('cffi', 'pycparser' in sys.modules)\n"
            "atexit.register(report)\n"
            f"sys.argv = ['guesstree', 'compile', 'mastermind', '--colours', '5', '--holes', '5', '--strategy', "
            f"'entropy', '-q', '-o', {str(tmp_path / 'mm.msgpack.zst')!r}]\n"
            "runpy.run_module('guesstree', run_name='__main__')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.split("\n")
    assert lines[0] == "False False" and lines[1] in ("cffi True", "")
    assert player.load(tmp_path / "mm.msgpack.zst").stats.secrets == 3125


def test_the_warm_stamp_names_the_kernel_sources_and_only_theirs(tmp_path):
    """The stamp's digest covers every module that defines kernels: an edit of one changes it, an
    edit elsewhere in the package does not."""
    from guesstree.compiler import warm

    copy = tmp_path / "compiler"
    shutil.copytree(warm.ROOT, copy, ignore=shutil.ignore_patterns("__pycache__"))
    names = [p.relative_to(copy).as_posix() for p in warm.kernel_sources(copy)]
    assert {"engine/kernels.py", "search/partitions.py", "search/recursion.py", "search/table.py"} <= set(names)
    assert "cli/build.py" not in names and "warm.py" not in names
    digest = warm.kernels_digest(copy)
    assert digest == warm.kernels_digest()
    with open(copy / "cli" / "build.py", "a") as cli:
        cli.write("# an edit outside the kernels\n")
    assert warm.kernels_digest(copy) == digest
    with open(copy / "search" / "partitions.py", "a") as partitions:
        partitions.write("# an edit of a kernel that others call\n")
    assert warm.kernels_digest(copy) != digest


@pytest.mark.slow
def test_kernels_cached_from_other_sources_are_removed_before_they_can_run(tmp_path):
    """numba checks a cached kernel against its own file only, so recursion's cached kernels would
    still run an older partitions.py: a stamp of other kernel sources clears the package's cache
    (clear_stale, which warm runs first); a stamp of these sources keeps it."""
    cache = tmp_path / "numba-cache"
    script = """
import json, numpy as np
from guesstree.compiler import warm
from guesstree.compiler.search.counting import reachable
reachable(np.arange(4), 2)  # compiled and cached
print(len(list(warm._stamp_path().parent.rglob("counting.*.nb[ic]"))))
warm._stamp_path().write_text(json.dumps({"kernels": warm.kernels_digest()}))
print(warm.fresh(), warm.clear_stale())
warm._stamp_path().write_text(json.dumps({"kernels": "of an older guesstree"}))
print(warm.fresh(), warm.clear_stale(), len(list(warm._stamp_path().parent.rglob("*.nb[ic]"))), warm.fresh())
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "NUMBA_CACHE_DIR": str(cache)})
    assert done.returncode == 0, done.stderr
    cached, kept, cleared = done.stdout.splitlines()
    assert int(cached) >= 2  # the kernel's index and its data
    assert kept == "True 0"
    stale, removed, left, stamped = cleared.split()
    assert stale == "False" and int(removed) >= int(cached) and left == "0" and stamped == "True"


@pytest.mark.slow
def test_a_search_compiles_one_version_of_its_bounds_not_one_per_constant(tmp_path):
    """numba compiles a kernel once per argument types, and a constant passed from compiled code
    is a type of its own (``Literal[bool](False)``): the search's bounds are given typed values
    (``np.bool_(False)``), so that a first search compiles each once (10 s of a first Wordle job).
    What numba compiles shows only on an empty cache (a cached caller holds its callees' code)."""
    code = ("import sys\n"
            "from numba.core import event\n"
            "compiled = []\n"
            "class Listen(event.Listener):\n"
            "    def on_start(self, ev): pass\n"
            "    def on_end(self, ev): compiled.append((ev.data['dispatcher'].py_func.__name__, str(ev.data['args'])))\n"
            "event.register('numba:compile', Listen())\n"
            "from guesstree.compiler import Options, build\n"
            "from guesstree.player.games import make_game\n"
            "build(make_game('words', answers=sys.argv[1]), Options('optimal-expected'))\n"
            "print(sorted(name for name, args in compiled if name in ('guess_bounds', 'lookahead_bound', '_parts_of')\n"
            "             and 'Literal' in args))\n"
            "print(sum(name == 'guess_bounds' for name, _ in compiled))\n")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    words = Path(__file__).parent / "data" / "words-small.txt"
    done = subprocess.run([sys.executable, "-c", code, str(words)], capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    literal, compiles = done.stdout.split("\n")[:2]
    assert literal == "[]" and int(compiles) >= 1

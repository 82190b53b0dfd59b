"""Shared fixtures: golden artifacts, cached builds, the CLI runner and the plugin path; and the
summary of what the run left out (slow tests, skipped parts)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

# In-process commands compile kernels at first use, as a library user's calls do; the one test of
# the first command's warm-up (test_first_hour.py) runs in a subprocess without this.
os.environ.setdefault("GUESSTREE_WARM", "0")


def pytest_configure(config):
    """Kernels cached from other sources (an edit, another checkout's cache) would be run stale:
    numba does not see that a kernel a cached one calls has changed. Where the stamp does not
    match these sources, the cache is cleared and compiled again first (compiler/warm.py), saying
    so while it compiles; once per machine and sources. Not for ``--collect-only``, which runs no
    test, nor in pytest-xdist's workers, whose controller has compiled them before they start."""
    import importlib.util

    if config.option.collectonly or hasattr(config, "workerinput") or importlib.util.find_spec("numba") is None:
        return
    from guesstree.compiler import warm

    if not warm.warmed():
        warm.warm(say=lambda text: print(text, flush=True))

# -- what the default run leaves out, said at its end ------------------------------------------
# The default run (pyproject.toml: -m 'not slow') is the few-minute check; the long searches are
# marked slow and run by `python -m pytest -m slow` (.ci/run runs both). Deselected and skipped
# tests are counted here and named in the summary, so that no part goes untested unsaid. Under
# pytest-xdist the workers collect and deselect: each sends its count to the controller.
_left_out: dict[str, int] = {"slow": 0}


def pytest_deselected(items):
    _left_out["slow"] += sum(1 for item in items if item.get_closest_marker("slow") is not None)


def pytest_sessionfinish(session):
    if hasattr(session.config, "workeroutput"):
        session.config.workeroutput["slow_deselected"] = _left_out["slow"]


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """pytest-xdist's: a worker has finished; every worker deselects the same tests."""
    _left_out["slow"] = max(_left_out["slow"], getattr(node, "workeroutput", {}).get("slow_deselected", 0))


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    write = terminalreporter.write_line
    slow = _left_out["slow"]
    skipped: dict[str, int] = {}
    for report in terminalreporter.stats.get("skipped", []):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        reason = reason.removeprefix("Skipped: ")
        skipped[reason] = skipped.get(reason, 0) + 1
    if not slow and not skipped:
        return
    terminalreporter.section("not run", sep="-")
    if slow:
        write(f"{slow} long test{'s' if slow != 1 else ''} not run (marked slow): run `python -m pytest -m slow` "
              f"(about {SLOW_MINUTES} minutes on 2 cores) or `.ci/run`, which runs every test")
    for reason, count in sorted(skipped.items(), key=lambda pair: -pair[1]):
        write(f"{count} test{'s' if count != 1 else ''} skipped: {reason}")


SLOW_MINUTES = "10 to 20"  # the slow tests' wall time on 2 cores (the README's Tests section says the same)

TESTS = Path(__file__).parent
GOLDEN = TESTS / "golden"
PLUGINS = TESTS / "plugins"


@pytest.fixture
def golden_path():
    """``golden_path(name)``: the path of a committed golden artifact."""
    def path(name: str) -> Path:
        found = GOLDEN / name
        if not found.exists():
            pytest.fail(f"golden artifact {found} is missing; see test_artifact.py (GUESSTREE_REGEN_GOLDEN=1)")
        return found
    return path


@pytest.fixture
def mm32_path(golden_path) -> Path:
    """Mastermind, 3 colours, 2 holes, entropy: 9 secrets, 9 nodes (facts in test_artifact.py)."""
    return golden_path("mastermind-c3-h2-entropy.msgpack.zst")


@pytest.fixture
def mm32_tree(mm32_path):
    from guesstree import player

    return player.load(mm32_path)


@pytest.fixture(scope="session")
def build_cached():
    """``build_cached(game_name, strategy, **params_and_options)``: one build per distinct call."""
    from guesstree import compiler
    from guesstree.player.games import make_game

    builds: dict = {}

    def build(name: str, strategy: str, candidates: str = "all", engine: str = "fast", seed: int = 0,
              guess_sample: int = 500, secret_sample: int = 1000, **params):
        key = (name, strategy, candidates, engine, seed, guess_sample, secret_sample, tuple(sorted(params.items())))
        if key not in builds:
            options = compiler.Options(strategy=strategy, candidates=candidates, engine=engine, seed=seed,
                                       guess_sample=guess_sample, secret_sample=secret_sample)
            builds[key] = compiler.build(make_game(name, **params), options)
        return builds[key]
    return build


@pytest.fixture
def runner():
    from typer.testing import CliRunner

    return CliRunner()


@pytest.fixture
def cli(runner):
    """``cli(*args, input=None)``: run ``guesstree`` in-process and return the click Result."""
    from guesstree.player.cli import app

    def invoke(*args, input=None):
        return runner.invoke(app, [str(a) for a in args], input=input)
    return invoke


@pytest.fixture
def plugin_path(monkeypatch):
    """Make ``tests/plugins`` importable, so that ``tiny_game:make`` resolves."""
    monkeypatch.syspath_prepend(str(PLUGINS))
    return PLUGINS


@pytest.fixture
def clean_error():
    """``clean_error(result, code)``: assert a failed command exited with ``code`` (non-zero),
    printed exactly one ``error:`` line on stderr and no traceback; return that line."""
    return _clean_error


def _clean_error(result, code: int | None = None) -> str:
    assert result.exit_code != 0, result.output
    if code is not None:
        assert result.exit_code == code, (result.exit_code, result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0]


@pytest.fixture(scope="session")
def load_script():
    """``load_script(name)``: the module ``scripts/<name>.py``, imported from its file."""
    import importlib.util
    import sys

    def load(name: str):
        path = Path(__file__).resolve().parent.parent / "scripts" / f"{name}.py"
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # dataclasses look their module up while the file runs
        spec.loader.exec_module(module)
        return module
    return load

"""What `pip install guesstree` builds: a wheel with the player, the shipped trees as package data and
no compiled caches, from a build that needs nothing but setuptools (no numpy or numba at any stage)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent


def test_the_build_needs_setuptools_alone():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["build-system"]["requires"] == ["setuptools>=68"]
    assert not (ROOT / "setup.py").exists()  # nothing runs at build time
    assert all(not dep.startswith(("numpy", "numba")) for dep in project["project"]["dependencies"])


@pytest.mark.slow
def test_the_wheel_carries_the_trees_and_plays_them_from_anywhere(tmp_path):
    # from the sources alone: an editable install's guesstree.egg-info lists the modules it found, which
    # a build from the checkout would take in even where pyproject.toml leaves a package out
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".*", "*.egg-info", "build", "dist", "__pycache__",
                                                               "node_modules", "tests"))
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", tmp_path / "dist", source],
                           capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr
    (wheel,) = (tmp_path / "dist").glob("guesstree-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    shipped = sorted(p.name for p in (ROOT / "trees").glob("*.msgpack.zst"))
    assert sorted(n.rpartition("/")[2] for n in names if n.startswith("player/trees/") and n.endswith(".zst")) == shipped
    assert "player/trees/MANIFEST.json" in names and "player/trees/FORMAT.md" in names
    assert {"player/js/src/core.js", "player/js/src/games.js"} <= set(names)  # what the HTML export inlines
    assert not [n for n in names if n.endswith((".nbi", ".nbc", ".pyc"))]  # no build's or machine's caches
    modules = sorted(p.relative_to(ROOT).as_posix() for package in ("player", "compiler") for p in (ROOT / package).rglob("*.py"))
    assert [m for m in modules if m not in names] == []  # every module, subpackages included (compiler.search)
    target = tmp_path / "site"
    installed = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", target, wheel],
                               capture_output=True, text=True, timeout=600)
    assert installed.returncode == 0, installed.stderr
    script = ("import sys, player\n"
              "assert player.__file__.startswith(sys.argv[1]), player.__file__\n"
              "tree = player.load_shipped('wordle-salet-optimal-expected')\n"
              "print(len(player.shipped()), tree.stats['total'], tree.game.format_code(tree.next_guess([])),\n"
              "      'numpy' in sys.modules, 'numba' in sys.modules)\n"
              "from player.export import export\n"
              "assert 'class InconsistentHistory extends Error' in export(tree, 'html')\n")
    env = {**os.environ, "PYTHONPATH": str(target)}
    run = subprocess.run([sys.executable, "-c", script, str(target)], capture_output=True, text=True, cwd=tmp_path,
                         env=env, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == [str(len(shipped)), "7920", "SALET", "False", "False"]


def test_shipped_trees_by_name():
    import player

    names = player.shipped()
    assert names == sorted(p.name[:-len(".msgpack.zst")] for p in (ROOT / "trees").glob("*.msgpack.zst"))
    tree = player.load_shipped("mastermind-c6-h4-optimal-expected")
    assert repr(tree) == "player.load_shipped('mastermind-c6-h4-optimal-expected')"
    assert tree.stats["total"] == 5625  # Koyama & Lai
    assert player.load_shipped("mastermind-c6-h4-optimal-expected.msgpack.zst").stats == tree.stats
    with pytest.raises(ValueError, match="no shipped tree is named 'mastermind'; choose from bulls-cows-d10-l3-optimal-expected, "):
        player.load_shipped("mastermind")


def test_the_commands_take_a_shipped_tree_by_name_where_no_such_file_exists(cli, tmp_path, monkeypatch, clean_error):
    monkeypatch.chdir(tmp_path)
    solved = cli("solve", "mastermind-c6-h4-optimal-expected", "ACEF")
    assert solved.exit_code == 0 and solved.stdout.endswith("solved ACEF in 4 guesses\n"), solved.output
    assert cli("info", "wordle-salet-optimal-expected.msgpack.zst").stdout.splitlines()[5] == "  first      SALET"
    played = cli("play", "wordle-salet-optimal-expected", input="crane GYY--\nGGGGG\n")
    assert "8 secrets are still possible" in played.stdout and "your secret is CARGO, found in 2 guesses" in played.stdout
    line = clean_error(cli("info", "wordle"), 2)
    assert line.startswith("error: wordle: no such file (nor is it a shipped tree: bulls-cows-d10-l3-optimal-expected, ")
    assert clean_error(cli("info", "sub/wordle-salet-optimal-expected"), 2) == \
        "error: sub/wordle-salet-optimal-expected: no such file"  # a path with a folder is a path only
    (tmp_path / "mastermind-c6-h4-entropy").write_bytes(b"not a tree")  # a file of that name comes first
    assert clean_error(cli("info", "mastermind-c6-h4-entropy"), 2).startswith("error: mastermind-c6-h4-entropy: ")
    assert "shipped" not in clean_error(cli("info", "mastermind-c6-h4-entropy"), 2)

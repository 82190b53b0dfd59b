"""What a player install needs: a build of setuptools alone (no numpy or numba at any stage), and the
shipped trees by name from anywhere (the wheel itself: tests/test_release.py)."""
from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent


def test_the_build_needs_setuptools_alone():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["build-system"]["requires"] == ["setuptools>=77"]
    assert not (ROOT / "setup.py").exists()  # nothing runs at build time
    assert all(not dep.startswith(("numpy", "numba")) for dep in project["project"]["dependencies"])


def test_shipped_trees_by_name():
    from guesstree import player

    names = player.shipped()
    assert names == sorted(p.name[:-len(".msgpack.zst")] for p in (ROOT / "trees").glob("*.msgpack.zst"))
    tree = player.load_shipped("mastermind-c6-h4-optimal-expected")
    assert repr(tree) == "guesstree.player.load_shipped('mastermind-c6-h4-optimal-expected')"
    assert tree.stats["total"] == 5625  # Koyama & Lai
    assert player.load_shipped("mastermind-c6-h4-optimal-expected.msgpack.zst").stats == tree.stats
    with pytest.raises(ValueError, match="no shipped tree is named 'mastermind'; choose from bulls-cows-d10-l3-optimal-expected, "):
        player.load_shipped("mastermind")


def test_the_commands_take_a_shipped_tree_by_name_where_no_such_file_exists(cli, tmp_path, monkeypatch, clean_error):
    monkeypatch.chdir(tmp_path)
    solved = cli("solve", "mastermind-c6-h4-optimal-expected", "ACEF")
    assert solved.exit_code == 0 and solved.stdout.endswith("solved ACEF in 4 guesses\n"), solved.output
    assert "  first      SALET" in cli("info", "wordle-salet-optimal-expected.msgpack.zst").stdout.splitlines()
    played = cli("play", "wordle-salet-optimal-expected", input="crane GYY--\nGGG-Y\nGGGGG\n")
    assert "8 secrets are still possible" in played.stdout and "guess 2: CARGO" in played.stdout  # the opening book's
    assert played.stdout.rstrip().endswith("solved: your secret is CAROL, found in 3 guesses")
    line = clean_error(cli("info", "wordle"), 2)
    assert line == "error: wordle: no such file; nor is it a shipped tree's name (guesstree trees lists them)"
    assert clean_error(cli("info", "sub/wordle-salet-optimal-expected"), 2) == \
        "error: sub/wordle-salet-optimal-expected: no such file"  # a path with a folder is a path only
    (tmp_path / "mastermind-c6-h4-entropy").write_bytes(b"not a tree")  # a file of that name comes first
    assert clean_error(cli("info", "mastermind-c6-h4-entropy"), 2).startswith("error: mastermind-c6-h4-entropy: ")
    assert "shipped" not in clean_error(cli("info", "mastermind-c6-h4-entropy"), 2)

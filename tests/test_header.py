"""player/header.py: the header built (the writer's half) and read (the readers' half) side by side."""
from __future__ import annotations

import pytest

from guesstree import player
from guesstree.player import header
from guesstree.player.artifact import FormatError


def test_build_is_the_header_the_compiler_writes(build_cached):
    from guesstree import compiler

    built = build_cached("mastermind", "entropy", colours=3, holes=2)
    written = player.loads(compiler.to_bytes(built)).header
    made = header.build(built.game.portable(), {**built.options.spec(), **built.proof}, built.stats)
    assert list(made) == ["producer", "game", "strategy", "stats"]
    assert [key for key in written if key in made] == list(made)  # in this order: the artifact's bytes
    assert {key: written[key] for key in made} == made  # (encode adds format, version and body_sha256)
    assert written["stats"]["total"] == 21 and written["producer"] == f"guesstree {player.__version__}"


def test_read_gives_back_what_build_made(mm32_tree):
    fields = header.build(mm32_tree.game, mm32_tree.strategy, mm32_tree.stats, notice="CC0", allowed_guesses=12)
    read = header.Header.read(fields, "t.zst")
    assert (read.game, read.strategy, read.stats, read.notice, read.allowed_guesses) == (
        mm32_tree.game, {"name": "entropy", "candidates": "all"}, mm32_tree.stats, "CC0", 12)
    assert str(read.game) == "Mastermind 3x2" and read.stats.total == 21


@pytest.mark.parametrize("notice, why", [("", "the notice is empty"), (" \n", "the notice is empty"), (7, "the notice is not text"),
                                         ("x" * (64 * 1024 + 1), "the notice has more than 65536 bytes")])
def test_one_notice_rule_for_the_writer_and_the_readers(mm32_tree, notice, why):
    with pytest.raises(ValueError, match=f"^{why}$"):
        header.build(mm32_tree.game, mm32_tree.strategy, mm32_tree.stats, notice=notice)
    fields = {**header.build(mm32_tree.game, mm32_tree.strategy, mm32_tree.stats), "notice": notice}
    with pytest.raises(FormatError, match="^t.zst: the header's notice is not a text of at most 65536 bytes$"):
        header.Header.read(fields, "t.zst")


def test_the_old_names_are_still_importable_from_tree():
    from guesstree.player.tree import MAX_NOTICE_BYTES, notice_problem

    assert notice_problem is header.notice_problem and MAX_NOTICE_BYTES == 64 << 10

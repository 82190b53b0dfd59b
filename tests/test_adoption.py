"""What a stranger adopting guesstree hits first (issue 35's small things): one import name, a
manifest written by the program and read from its folder, a word list with a byte-order mark,
command-line mistakes as one line, a tree that says how many guesses it was compiled with and
carries the licence of the words it embeds, and a slug that reads."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from guesstree import player
from guesstree.player.artifact import decode, encode
from guesstree.player.games import make_game
from guesstree.player.verify import verify

REPO = Path(__file__).resolve().parent.parent
WORDLE = REPO / "tests" / "data" / "wordle"
DATA = REPO / "tests" / "data"


def test_the_only_import_name_is_guesstree(tmp_path):
    import guesstree

    probe = "import importlib.util as u; print([u.find_spec(n) is None for n in ('player', 'compiler', 'guesstree')])"
    found = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert found.stdout.strip() == "[True, True, False]"  # from a folder of no checkout: guesstree alone
    assert guesstree.player.__name__ == "guesstree.player" and guesstree.compiler.__name__ == "guesstree.compiler"
    assert guesstree.player.load.__module__ == "guesstree.player.tree"
    assert not [m for m in sys.modules if m.split(".")[0] in ("player", "compiler")]  # nothing imports the old names
    with pytest.raises(AttributeError, match="module 'guesstree' has no attribute 'board'"):
        _ = guesstree.board


# -- manifests -------------------------------------------------------------------

def test_manifest_writes_a_folders_manifest_that_verify_reads_from_the_folder(cli, tmp_path):
    folder = tmp_path / "trees"
    folder.mkdir()
    for name in ("twod-s5-entropy", "mastermind-c6-h4-entropy"):
        shutil.copy(REPO / "trees" / f"{name}.msgpack.zst", folder)
    written = cli("manifest", folder)
    assert written.exit_code == 0 and written.stdout == f"wrote {folder / 'MANIFEST.json'}: 2 trees\n", written.output
    document = json.loads((folder / "MANIFEST.json").read_text())
    assert [e["file"] for e in document["trees"]] == ["mastermind-c6-h4-entropy.msgpack.zst", "twod-s5-entropy.msgpack.zst"]
    assert document["trees"][0]["stats"]["total"] == 5722
    for given in (folder, folder / "MANIFEST.json"):
        checked = cli("verify", "--manifest", given)
        assert checked.exit_code == 0, checked.output
        assert checked.stdout.splitlines()[-1] == f"ok {folder / 'MANIFEST.json'}: 2 trees as listed"
    (folder / "twod-s5-entropy.msgpack.zst").unlink()  # the manifest now lists a missing file
    assert cli("verify", "--manifest", folder).exit_code == 2
    assert cli("manifest", folder, "-o", "-").stdout.count('"file"') == 1  # standard output, nothing written


def test_manifest_refuses_what_is_not_a_folder_of_trees_and_writes_nothing(cli, clean_error, tmp_path):
    assert clean_error(cli("manifest", tmp_path / "nope"), 2) == f"error: {tmp_path / 'nope'}: no such folder"
    assert clean_error(cli("manifest", tmp_path), 2) == f"error: {tmp_path}: a folder without tree files (*.msgpack.zst)"
    shutil.copy(REPO / "trees" / "twod-s5-entropy.msgpack.zst", tmp_path)
    (tmp_path / "bad.msgpack.zst").write_bytes(b"not a tree")
    line = clean_error(cli("manifest", tmp_path), 2)
    assert line.startswith(f"error: {tmp_path / 'bad.msgpack.zst'}: not a zstd-compressed artifact")
    assert not (tmp_path / "MANIFEST.json").exists()


# -- word lists and what a words tree says of them ------------------------------------

def test_a_word_list_with_a_byte_order_mark_is_the_same_list(tmp_path):
    plain = DATA / "words-ight.txt"
    marked = tmp_path / "notepad.txt"
    marked.write_bytes(b"\xef\xbb\xbf" + plain.read_bytes().replace(b"\n", b"\r\n"))
    assert make_game("words", answers=str(marked)).secrets == make_game("words", answers=str(plain)).secrets


def test_a_words_tree_carries_every_allowed_guess_and_an_older_one_says_how_many(cli, tmp_path):
    """A words tree carries every allowed guess (so that help off the tree may play any of them and
    refuse a non-word); one that carries only the guesses it plays says how many it was compiled with."""
    path = tmp_path / "w.msgpack.zst"
    made = cli("compile", "words", "--answers", DATA / "words-ight.txt", "--guesses", DATA / "words-ight-guesses.txt",
               "--strategy", "entropy", "-o", path, "-q")
    assert made.exit_code == 0, made.output
    tree = player.load(path)
    listed = len(make_game("words", answers=str(DATA / "words-ight.txt"), guesses=str(DATA / "words-ight-guesses.txt")).guesses)
    assert len(tree.game.guesses) == listed and tree.allowed_guesses is None
    assert tree.header["version"] == [1, 1] and verify(tree).ok
    header, body = decode(path.read_bytes())
    played = tree.game.portable({tree.guess_of(node) for node in range(tree.nodes)}).spec()
    fewer = tmp_path / "fewer.msgpack.zst"
    fewer.write_bytes(encode({**header, "game": played, "allowed_guesses": listed}, body))
    few = player.load(fewer)
    assert few.allowed_guesses == listed > len(few.game.guesses) and verify(few).ok
    assert few.unknown_guess(few.game.parse_code("zzzzz")) is None  # it cannot tell a non-word
    shown = cli("info", fewer).stdout.splitlines()
    assert shown[2] == (f"             compiled with {listed} allowed guesses; the tree carries the "
                        f"{len(few.game.guesses)} guesses it can play")
    lie = player.loads(encode({**header, "allowed_guesses": listed}, body), "lie")
    assert verify(lie).errors == [f"the header says the tree was compiled with {listed} allowed "
                                  f"guesses, but its game carries {listed} (a tree says so only "
                                  "where it carries fewer)"]


def test_the_shipped_wordle_trees_carry_their_word_lists_notice(cli):
    notice = (WORDLE / "LICENSE").read_text()
    assert "Copyright (c) 2022 Alex Selby (github alex1770)" in notice
    for name in ("wordle-salet-optimal-expected", "wordle-hard-salet-optimal-expected-depth6"):
        tree = player.load_shipped(name)
        assert tree.notice == notice and tree.allowed_guesses is None and len(tree.game.guesses) == 12972
        assert json.loads(cli("info", name, "--json").stdout)["notice"] == notice
    shown = cli("info", "wordle-salet-optimal-expected").stdout
    assert "  notice     The original Wordle word lists, wordlist_orig_hidden and wordlist_orig_all, are copied ... " \
           "(24 lines: info --json shows it whole)\n" in shown
    assert player.load_shipped("mastermind-c6-h4-entropy").notice is None  # no data of anyone else's


def test_compile_notice_is_carried_and_a_bad_one_refused_before_any_work(cli, clean_error, tmp_path):
    notice = tmp_path / "NOTICE"
    notice.write_text("Word lists: CC0.\n")
    path = tmp_path / "t.msgpack.zst"
    assert cli("compile", "twod", "--size", "3", "--strategy", "entropy", "--notice", notice, "-o", path, "-q").exit_code == 0
    tree = player.load(path)
    assert tree.notice == "Word lists: CC0.\n" and tree.header["version"] == [1, 2] and verify(tree).ok
    assert "  notice     Word lists: CC0.\n" in cli("info", path).stdout
    plain = tmp_path / "plain.msgpack.zst"
    assert cli("compile", "twod", "--size", "3", "--strategy", "entropy", "-o", plain, "-q").exit_code == 0
    assert player.load(plain).header["version"] == [1, 1]  # nothing of 1.2: a 1.1 file, as before
    (tmp_path / "empty").write_text("  \n")
    for given, says in ((tmp_path / "nope", "no such file"), (tmp_path / "empty", "the notice is empty")):
        line = clean_error(cli("compile", "twod", "--strategy", "entropy", "--notice", given, "-o", tmp_path / "x.msgpack.zst"), 2)
        assert line == f"error: --notice {given}: {says}"
    assert not (tmp_path / "x.msgpack.zst").exists()


# -- the command line ---------------------------------------------------------------

@pytest.mark.parametrize("args, message", [
    (["compile", "mastermind", "--bogus", "1"], "error: guesstree compile has no option --bogus (guesstree compile -h lists its options)"),
    (["compile", "mastermind", "--stratgy", "entropy"], "error: guesstree compile has no option --stratgy (did you mean --strategy?)"),
    (["compile", "mastermind"], "error: guesstree compile needs --strategy NAME (guesstree compile -h says what it takes)"),
    (["verify", "--bogus"], "error: guesstree verify has no option --bogus (guesstree verify -h lists its options)"),
    (["info"], "error: guesstree info needs TREE (guesstree info -h says what it takes)"),
    (["comple", "mastermind"], "error: no command 'comple' (did you mean compile or compare?)"),
    (["--bogus"], "error: guesstree has no option --bogus (guesstree -h lists its options)"),
])
def test_a_command_line_mistake_is_one_line_with_a_near_suggestion_only(cli, clean_error, args, message):
    assert clean_error(cli(*args), 2) == message


def test_the_mastermind_slugs_read():
    def slug(**repeats):
        return make_game("mastermind", **repeats).slug()
    assert slug() == "mastermind-c6-h4"
    assert slug(secret_repeats=False) == "mastermind-c6-h4-distinct"
    assert slug(secret_repeats=False, guess_repeats=False) == "mastermind-c6-h4-no-repeats"
    assert not [name for name in player.shipped() if "distinct-distinct" in name]


def test_every_export_of_a_tree_that_embeds_words_carries_their_notice():
    from guesstree.player.export import export

    tree = player.load_shipped("wordle-salet-optimal-expected")
    first = "The original Wordle word lists, wordlist_orig_hidden and wordlist_orig_all, are copied"
    assert json.loads(export(tree, "json"))["notice"] == tree.notice
    assert f"#   {first}\n" in export(tree, "text") and f"  //   {first}\n" in export(tree, "dot", 1)
    page = export(tree, "html")
    assert "Copyright (c) 2022 Alex Selby (github alex1770)" in page and 'id="notice"' in page
    plain = player.load_shipped("mastermind-c6-h4-entropy")
    assert not [fmt for fmt in ("json", "text") if "notice" in export(plain, fmt)]

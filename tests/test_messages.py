"""What a person is told, issue 67: an unknown game's nearest name, a word list's duplicates, the
command line's own flag in its errors, twod's grid, a win no secret gives, a checkpoint kept, and
what draws a dot file. Each message is one line, without a traceback."""
from __future__ import annotations

import json
import warnings

import pytest

from guesstree import player
from guesstree.player.games import make_game
from guesstree.player.words import DuplicateWords, read_words

WORDLE = "wordle-salet-optimal-expected"


@pytest.mark.parametrize("name, said", [
    ("wordle", "unknown game: 'wordle'; did you mean words? Wordle is words with its lists: --answers "
               "tests/data/wordle/wordlist_orig_hidden --guesses tests/data/wordle/wordlist_orig_all, in guesstree's "
               "source; guesstree play wordle-salet-optimal-expected plays the shipped tree"),
    ("mastermnd", "unknown game: 'mastermnd'; did you mean mastermind? (guesstree list shows them all)"),
    ("Digits", "unknown game: 'Digits'; did you mean digits? (game names are lower case)"),
    ("bulls-and-cows", "unknown game: 'bulls-and-cows'; did you mean bulls-cows?"),
    ("chess", "unknown game: 'chess'; choose from mastermind, bulls-cows, digits, twod, words, or module:factory"),
])
def test_an_unknown_game_gets_the_name_it_may_mean(cli, clean_error, name, said):
    with pytest.raises(ValueError) as caught:
        make_game(name)
    assert str(caught.value) == said
    assert clean_error(cli("compile", name, "--strategy", "entropy"), 2) == f"error: {said}"


def test_the_wordle_lists_named_are_there_and_make_the_game():
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    game = make_game("words", answers=str(root / "tests/data/wordle/wordlist_orig_hidden"),
                     guesses=str(root / "tests/data/wordle/wordlist_orig_all"))
    assert (game.secret_count(), game.guess_count()) == (2315, 12972)


def test_duplicates_in_a_word_list_are_said_once_with_the_file_the_count_and_the_first(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "dup.txt").write_text("crane\nslate\n# a comment\nCRANE\nadieu\nslate\ncrane\n")
    with pytest.warns(DuplicateWords) as caught:
        assert read_words("dup.txt", 5) == ["adieu", "crane", "slate"]
    assert [str(w.message) for w in caught] == [
        "dup.txt: 3 duplicate words dropped, the first 'crane' on line 4 (as on line 1)"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        (tmp_path / "clean.txt").write_text("crane\nslate\n")
        assert read_words("clean.txt", 5) == ["crane", "slate"]  # no warning without duplicates
    result = cli("compile", "words", "--answers", "dup.txt", "--strategy", "entropy", "-o", "d.msgpack.zst")
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == [
        "warning: dup.txt: 3 duplicate words dropped, the first 'crane' on line 4 (as on line 1)"]
    assert "3 secrets" in result.stdout


def test_next_names_its_own_flag_for_a_guess_the_game_does_not_allow(cli, clean_error):
    assert clean_error(cli("next", WORDLE, "xxxxx", "-Y---"), 2) == (
        "error: step 1: XXXXX is not one of the game's 12972 allowed guesses (next --any-guess plays it anyway)")
    tree = player.load_shipped(WORDLE)
    with pytest.raises(ValueError, match=r"\(any_guess=True plays it anyway\)$"):  # the Python API's own words
        tree.suggest([("xxxxx", "-Y---")])
    assert clean_error(cli("next", WORDLE, "xxxxx", "-Y---", "--any-guess"), 2) == \
        "error: no secret gives all these answers: XXXXX -Y---"
    # a step the game cannot read is still named by the library, at its step
    assert clean_error(cli("next", WORDLE, "salet", "-Y-", "xxxxx", "-----"), 2).startswith("error: step 1: ")


def test_next_json_after_a_win_counts_the_secret_found_and_refuses_a_win_no_secret_gives(cli, clean_error):
    on = json.loads(cli("next", "mastermind-c6-h4-entropy", "ABCD", "1B1W", "ACEF", "4B0W", "--json").stdout)
    assert on == {"guess": None, "won": True, "on_tree": True, "candidates": 1}
    off = json.loads(cli("next", WORDLE, "cigar", "GGGGG", "--json").stdout)
    assert off == {"guess": None, "won": True, "on_tree": False, "candidates": 1}
    # SALET, the tree's first guess, is no answer: it said won, with 0 candidates
    assert clean_error(cli("next", WORDLE, "salet", "GGGGG", "--json"), 2) == \
        "error: no secret gives all these answers: SALET GGGGG"


def test_twod_says_the_range_of_the_grid(cli, clean_error):
    assert clean_error(cli("solve", "twod-s5-entropy", "5,2"), 2) == "error: '5,2' is off the grid: x and y from 0 to 4"
    assert clean_error(cli("next", "twod-s5-entropy", "9,9", "<="), 2) == \
        "error: step 1: '9,9' is off the grid: x and y from 0 to 4"
    tree = player.load_shipped("twod-s5-entropy")
    with pytest.raises(ValueError, match=r"^step 1: \(5, 0\) is off the grid: x and y from 0 to 4$"):
        tree.candidates([((5, 0), (1, 0, 0))])


def test_a_checkpoint_kept_after_a_build_is_said_and_the_help_says_it_stays(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    game = ["compile", "mastermind", "--colours", "3", "--holes", "3", "--strategy", "optimal-expected",
            "--checkpoint", "ck", "-o", "t.msgpack.zst"]
    for resume in ([], ["--resume"]):
        result = cli(*game, *resume)
        assert result.exit_code == 0, result.output
        assert "kept the checkpoint ck (compile --resume reuses its work); delete it once the tree is all you need" \
            in result.stderr.splitlines()
        assert (tmp_path / "ck").exists()
    assert "kept" not in cli(*game, "--resume", "--quiet").stderr
    assert "the file stays when the command ends (delete it once done)" in " ".join(cli("compile", "-h").stdout.split())


def test_a_dot_file_says_graphviz_draws_it(cli, tmp_path):
    out = tmp_path / "tree.dot"
    result = cli("export", "twod-s5-entropy", "-o", out)
    assert result.exit_code == 0 and result.stdout == ""
    assert result.stderr == f"wrote {out}: Graphviz source; draw it with Graphviz's dot: dot -Tsvg {out} -o {tmp_path / 'tree.svg'}\n"
    assert out.read_text().splitlines()[1] == "  // Graphviz source: dot -Tsvg FILE -o tree.svg draws it (Graphviz's dot)"
    assert "dot (Graphviz source: its dot -Tsvg draws it)" in " ".join(cli("export", "-h").stdout.split())
    assert cli("export", "twod-s5-entropy", "-o", tmp_path / "tree.json").stderr == ""  # the others as before


@pytest.mark.parametrize("args, said", [
    (["info", "--plugin"], "error: guesstree info: option '--plugin' requires an argument"),
    (["compile", "mastermind", "--strategy"], "error: guesstree compile: option '--strategy' requires an argument"),
])
def test_an_option_without_its_value_names_the_command(cli, clean_error, args, said):
    """click's parser raises this one without its context: it said "guesstree: option ..."."""
    assert clean_error(cli(*args), 2) == said


def test_a_notice_that_cannot_be_read_is_said_without_python_s_errno(cli, clean_error, tmp_path):
    """It said "(... ([Errno 21] Is a directory: '/tmp/...')", the exception's repr-like text."""
    assert clean_error(cli("compile", "mastermind", "--strategy", "entropy", "--notice", tmp_path), 2) == \
        f"error: --notice {tmp_path}: cannot be read (Is a directory)"
    (tmp_path / "latin1.txt").write_bytes(b"caf\xe9\n")
    assert clean_error(cli("compile", "mastermind", "--strategy", "entropy", "--notice", tmp_path / "latin1.txt"), 2) == \
        f"error: --notice {tmp_path / 'latin1.txt'}: cannot be read as text (not UTF-8: byte 3 is 0xe9)"

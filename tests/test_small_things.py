"""Issue 25's small things: a missing tree is a FileNotFoundError, counts read as English,
a game option that is not a number is said so in one line."""
from __future__ import annotations

import errno
import pickle

import pytest

from guesstree import player
from guesstree.player.artifact import FormatError, MissingFile


def test_a_missing_tree_raises_file_not_found_naming_the_path(tmp_path):
    path = tmp_path / "nope.msgpack.zst"
    with pytest.raises(FileNotFoundError) as caught:
        player.load(path)
    error = caught.value
    assert (error.errno, error.filename) == (errno.ENOENT, str(path))
    assert str(error) == f"{path}: no such file"
    assert isinstance(error, FormatError)  # what the commands catch for any unreadable tree
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is MissingFile and str(copy) == str(error)


def test_a_directory_is_still_a_format_error_not_a_missing_file(tmp_path):
    with pytest.raises(FormatError, match="is a directory") as caught:
        player.load(tmp_path)
    assert not isinstance(caught.value, FileNotFoundError)


@pytest.mark.parametrize("args, message", [
    (["compile", "mastermind", "--colours", "six", "--strategy", "entropy"], "error: --colours must be a whole number, not 'six'"),
    (["compile", "twod", "--size", "5.5", "--strategy", "entropy"], "error: --size must be a whole number, not '5.5'"),
    (["compile", "mastermind", "--strategy", "random", "--seed", "x"], "error: --seed must be a whole number, not 'x'"),
    (["compile", "mastermind", "--strategy", "entropy", "--max-memory", "lots"], "error: --max-memory must be a number, not 'lots'"),
    (["verify", "tree.msgpack.zst", "--max-depth", "five"], "error: --max-depth must be a whole number, not 'five'"),
])
def test_a_word_where_a_number_belongs_is_one_line_naming_the_option(cli, clean_error, args, message):
    assert clean_error(cli(*args), code=2) == message


def test_other_bad_parameters_keep_their_own_messages(cli):
    result = cli("compile", "mastermind", "--strategy")
    assert result.exit_code == 2 and "requires an argument" in result.output


@pytest.mark.parametrize("n, noun, plural, said", [
    (1, "secret", None, "1 secret"), (0, "secret", None, "0 secrets"), (2, "node", None, "2 nodes"),
    (1, "guess", "guesses", "1 guess"), (7, "guess", "guesses", "7 guesses"),
])
def test_counts_are_worded_as_english_has_them(n, noun, plural, said):
    from guesstree.player.wording import counted

    assert counted(n, noun, plural) == said


@pytest.mark.parametrize("nbytes, said", [
    (512, "512 bytes"), (3584, "3.5 KiB"), (1.2 * 2**30, "1.2 GiB"), (3 * 2**40, "3.0 TiB"),
    (21.2 * 2**50, "21.2 PiB"), (22752036252.4 * 2**30, "21.2 EiB"),
])
def test_sizes_are_worded_in_the_largest_unit_below_them(nbytes, said):
    from guesstree.player.wording import size

    assert size(nbytes) == said


def test_export_to_a_folder_says_it_is_a_folder(cli, mm32_path, tmp_path):
    result = cli("export", mm32_path, "-o", tmp_path)
    assert result.exit_code == 2
    assert result.output.strip() == f"error: cannot write {tmp_path}: it is a directory; name a file in it, " \
                                    f"e.g. {tmp_path / 'tree.html'}"
    result = cli("export", mm32_path, "--format", "text", "-o", tmp_path)
    assert result.output.strip().endswith(f"e.g. {tmp_path / 'tree.txt'}")

"""Words of other lengths than five: the length taken from the list, and from six letters on
(3 ** 6 = 729 marks, 723 of them possible) feedback indices of two bytes, in the compiler's
matrices and in the artifact (``feedback_width`` 2)."""
from __future__ import annotations

import functools
import json

import pytest

from guesstree import player
from guesstree.compiler import Options, build
from guesstree.compiler.engine.kinds import feedback_dtype
from guesstree.compiler.engine.scorer import Scorer
from guesstree.compiler.builder.writer import body, to_bytes
from guesstree.player.artifact import decode
from guesstree.player.games import make_game
from guesstree.player.verify import verify

FOUR = "bake cake lake make rake take wake bike like hike pike bone cone lone tone zone done".split()
SIX = ("banana bandit candle castle cattle handle mantle bottle battle settle kettle little middle riddle "
       "saddle paddle puddle muddle needle beetle").split()
SEVEN = "ability absence academy account accused achieve acquire address advance adviser".split()
EIGHT = ("absolute abstract academic accepted accident accuracy accurate achieved acquired activity "
         "actually addition adequate adjacent adjusted advanced").split()
LISTS = {4: FOUR, 6: SIX, 7: SEVEN, 8: EIGHT}


def _write(tmp_path, words: list[str], name: str = "answers.txt"):
    path = tmp_path / name
    path.write_text("".join(w + "\n" for w in words))
    return path


def _body(path) -> dict:
    return decode(path.read_bytes(), str(path))[1]


def _optimal_total(game) -> int:
    """The least total of any tree, by brute force: every guess at every node, memoised on the
    candidate set (the search the compiler's exact strategies must agree with)."""
    secrets, guesses = game.secrets, game.guesses
    answers = [[game.score(g, s) for s in secrets] for g in guesses]
    win = game.win

    @functools.cache
    def total(candidates: frozenset) -> int:
        if len(candidates) == 1:
            return 1
        best = None
        for row in answers:
            parts: dict = {}
            for c in candidates:
                parts.setdefault(row[c], []).append(c)
            if len(parts) == 1 and win not in parts:
                continue  # learns nothing
            cost = len(candidates) + sum(total(frozenset(p)) for f, p in parts.items() if f != win)
            best = cost if best is None else min(best, cost)
        return best
    return total(frozenset(range(len(secrets))))


def test_the_feedback_type_is_one_byte_up_to_255_values():
    assert feedback_dtype(255).itemsize == 1 and feedback_dtype(256).itemsize == 2
    assert feedback_dtype(65535).itemsize == 2
    with pytest.raises(ValueError, match="65536 feedback values; at most 65535 are supported"):
        feedback_dtype(65536)


@pytest.mark.parametrize("length", [4, pytest.param(6, marks=pytest.mark.slow), 7,
                                    pytest.param(8, marks=pytest.mark.slow)])  # 6 and 8: 5 to 20 s
def test_the_length_is_the_lists_and_the_matrix_as_narrow_as_it_can(tmp_path, length):
    game = make_game("words", answers=str(_write(tmp_path, LISTS[length])))
    assert game.length == length and len(game.secrets) == len(LISTS[length])
    assert repr(game) == f"Words(answers={str(tmp_path / 'answers.txt')!r})"  # the call that rebuilds it
    assert len(game.feedbacks()) == 3 ** length - length
    for engine in ("numba", "numpy"):
        scorer = Scorer(game, 1 << 30, engine)
        assert scorer.matrix.dtype.itemsize == (1 if length <= 5 else 2)
        expected = [[game.feedbacks().index(game.score(g, s)) for s in game.secrets] for g in game.guesses]
        assert scorer.matrix.tolist() == expected, engine


def test_a_list_of_mixed_lengths_is_refused_by_line(tmp_path):
    answers = _write(tmp_path, ["bake", "cake", "lakes"])
    with pytest.raises(ValueError, match=r"line 3: 'lakes' is not a word of 4 letters \(the list's first "
                                         r"word has 4: give --length N"):
        _ = make_game("words", answers=str(answers)).secrets
    with pytest.raises(ValueError, match="line 1: 'bake' is not a word of 5 letters$"):
        _ = make_game("words", answers=str(answers), length=5).secrets
    with pytest.raises(ValueError, match="first word 'abcdefghijk' has 11 letters; words of 1 to 10 letters"):
        make_game("words", answers=str(_write(tmp_path, ["abcdefghijk"], "long.txt")))


@pytest.mark.parametrize("strategy, length", [
    (strategy, length) if (strategy, length) not in (("optimal-expected", 6), ("optimal-expected", 8)) else
    pytest.param(strategy, length, marks=pytest.mark.slow)  # seconds to a minute and more
    for strategy in ("entropy", "optimal-expected") for length in (4, 6, 8)])
def test_cli_compiles_and_verifies_words_of_other_lengths(cli, tmp_path, length, strategy):
    answers = _write(tmp_path, LISTS[length])
    path = tmp_path / "tree.msgpack.zst"
    result = cli("compile", "words", "--answers", answers, "--strategy", strategy, "-o", path)
    assert result.exit_code == 0, result.output
    result = cli("verify", path, "--json")
    assert result.exit_code == 0, result.output
    report, = json.loads(result.stdout)
    assert report["ok"] and report["secrets"] == len(LISTS[length])
    assert _body(path)["feedback_width"] == (1 if length <= 5 else 2)
    tree = player.load(path)
    assert tree.game.length == length
    word = LISTS[length][3]
    result = cli("solve", path, word)
    assert result.exit_code == 0 and word.upper() in result.stdout.splitlines()[-1], result.output


@pytest.mark.slow  # its first run on a machine compiles the search's kernels for two-byte feedback (about 40 s)
@pytest.mark.parametrize("length", [6, 7])
def test_optimal_expected_on_long_words_is_the_least_total(tmp_path, length):
    game = make_game("words", answers=str(_write(tmp_path, LISTS[length][:9])))
    built = build(game, Options("optimal-expected"))
    assert built.stats["total"] == _optimal_total(game)
    tree = player.loads(to_bytes(built))
    assert verify(tree).ok and tree.stats["total"] == built.stats["total"]


@pytest.mark.parametrize("length", [6, pytest.param(8, marks=pytest.mark.slow)])
def test_every_engine_builds_the_same_bytes_for_long_words(tmp_path, length):
    answers = str(_write(tmp_path, LISTS[length]))
    guesses = str(_write(tmp_path, LISTS[length] + [w[::-1] for w in LISTS[length]], "guesses.txt"))
    game = make_game("words", answers=answers, guesses=guesses)
    for strategy in ("entropy", "minimax", "most-parts"):
        reference = to_bytes(build(game, Options(strategy, engine="reference")))
        for engine in ("numba", "numpy", "fast"):
            assert to_bytes(build(game, Options(strategy, engine=engine))) == reference, (strategy, engine)
    built = build(game, Options("entropy"))
    assert body(built)["feedback_width"] == 2
    assert max(built.edge_feedback) > 255  # indices that need the second byte, written and read back
    tree = player.loads(to_bytes(built))
    assert verify(tree).ok

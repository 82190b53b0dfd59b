"""The player in C (player/c, issue 56), against the Python player as the oracle: every secret's path,
next_guess on histories on and off the tree (the game's ints and its text), candidates, the text
forms, the ABI through ctypes as another language calls it, the gtree command, hostile files under
AddressSanitizer and UndefinedBehaviorSanitizer with the Python reader's decisions and reasons,
libFuzzer on the reader, and the README's example program.

The default run samples secrets and runs the fuzzer for a few seconds; ``-m slow`` checks every
secret of every tree, a larger hostile corpus, the fuzzer for 20 s, and the CMake build.
"""
from __future__ import annotations

import ctypes
import functools
import json
import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from guesstree import player
from guesstree.player.artifact import decode, encode_chunked
from parts import missing

REPO = Path(__file__).resolve().parent.parent
C = REPO / "player" / "c"
BUILD = C / "build"
TREES = sorted((REPO / "trees").glob("*.msgpack.zst")) + sorted((REPO / "trees" / "book").glob("*.msgpack.zst"))
CHUNKED = ["mastermind-c6-h4-entropy", "wordle-salet-optimal-expected", "bulls-cows-d10-l4-minimax", "twod-s5-entropy"]
SAMPLE = 150  # secrets per tree in the default run; -m slow plays every one
MAX_CODE, MAX_FEEDBACK, STEPS = 12, 12, 64
OK, WON = 0, 1
STATUS = {0: "GT_OK", 1: "GT_WON", 41: "GT_E_PARSE", 42: "GT_E_OFF_TREE", 43: "GT_E_NO_SECRET", 44: "GT_E_ALREADY_WON",
          45: "GT_E_NOT_PLAYABLE", 46: "GT_E_NOT_ALLOWED", 40: "GT_E_ARGUMENT"}
ZSTD_PACKAGE = "the C player needs zstd's library and header (apt-get install libzstd-dev)"
FUZZ_PACKAGES = "the C player's fuzz test needs clang and libFuzzer's runtime (apt-get install clang libclang-rt-14-dev)"


@functools.cache
def zstd_header_missing() -> bool:
    """Does the C compiler not find ``zstd.h`` (with the ``CPPFLAGS`` it is given)?"""
    probe = subprocess.run(["cc", *os.environ.get("CPPFLAGS", "").split(), "-E", "-x", "c", "-"],
                           input="#include <zstd.h>\n", capture_output=True, text=True)
    return probe.returncode != 0


def make(*targets: str) -> None:
    """``make -C player/c TARGETS``; skipped (failed in CI) where zstd's library or clang is missing,
    naming the package that brings it."""
    if zstd_header_missing():
        missing(ZSTD_PACKAGE)
    done = subprocess.run(["make", "-s", "-j2", "-C", str(C), *targets], capture_output=True, text=True)
    if done.returncode:
        output = done.stdout + done.stderr
        if "-lzstd" in output:
            missing(ZSTD_PACKAGE)
        if "clang" in output and ("not found" in output or "fuzzer" in output):
            missing(FUZZ_PACKAGES)
        pytest.fail(f"make -C player/c {' '.join(targets)} failed:\n{output}")


# -- the ABI, as a program in another language calls it ----------------------------------------
class Error(ctypes.Structure):
    _fields_ = [("status", ctypes.c_int), ("message", ctypes.c_char * 512)]


class Text(ctypes.Structure):
    _fields_ = [("text", ctypes.c_void_p), ("length", ctypes.c_size_t)]

    def __str__(self) -> str:
        return ctypes.string_at(self.text, self.length).decode() if self.text else ""


class Info(ctypes.Structure):
    _fields_ = [("kind", ctypes.c_int), ("game", ctypes.c_char_p)] + [
        (name, ctypes.c_int) for name in ("colours", "holes", "secret_repeats", "guess_repeats", "digits", "size", "hard")] + [
        (name, ctypes.c_uint) for name in ("code_length", "symbols", "feedback_length", "feedbacks")] + [
        ("answers", ctypes.c_uint64), ("extra_guesses", ctypes.c_uint64),
        ("strategy", Text), ("producer", Text), ("notice", Text), ("allowed_guesses", ctypes.c_uint64),
        ("version_major", ctypes.c_int), ("version_minor", ctypes.c_int), ("nodes", ctypes.c_uint64),
        ("chunks", ctypes.c_uint32), ("chunk_nodes", ctypes.c_uint32)] + [
        (name, ctypes.c_uint64) for name in ("secrets", "total", "worst", "determined_total", "determined_worst")] + [
        ("average", ctypes.c_double), ("determined_average", ctypes.c_double),
        ("memory", ctypes.c_size_t), ("peak_memory", ctypes.c_size_t)]


class Allocator(ctypes.Structure):
    _fields_ = [("alloc", ctypes.c_void_p), ("free", ctypes.c_void_p), ("user", ctypes.c_void_p)]


class Arena(ctypes.Structure):
    _fields_ = [("allocator", Allocator), ("buffer", ctypes.c_void_p)] + [
        (name, ctypes.c_size_t) for name in ("size", "used", "blocks", "last")]


class Options(ctypes.Structure):
    _fields_ = [("allocator", ctypes.POINTER(Allocator)), ("chunk_slots", ctypes.c_uint)]


def ints(values, count: int):
    return (ctypes.c_int * max(1, count))(*values)


@pytest.fixture(scope="module")
def lib():
    make()
    library = ctypes.CDLL(str(BUILD / "libguesstree.so"))
    P, E, I = ctypes.c_void_p, ctypes.POINTER(Error), ctypes.POINTER(ctypes.c_int)
    signatures = {
        "gt_open_file": ([ctypes.POINTER(P), ctypes.c_char_p, ctypes.POINTER(Options), E], ctypes.c_int),
        "gt_open_memory": ([ctypes.POINTER(P), ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.POINTER(Options), E],
                           ctypes.c_int),
        "gt_close": ([P], None),
        "gt_check": ([P, E], ctypes.c_int),
        "gt_get_info": ([P, ctypes.POINTER(Info)], None),
        "gt_histogram": ([P, ctypes.c_int, ctypes.c_size_t, ctypes.POINTER(ctypes.c_uint64), ctypes.POINTER(ctypes.c_uint64)],
                         ctypes.c_size_t),
        "gt_next_guess": ([P, I, I, ctypes.c_size_t, I, E], ctypes.c_int),
        "gt_next_guess_text": ([P, ctypes.POINTER(ctypes.c_char_p), ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t, E],
                               ctypes.c_int),
        "gt_path": ([P, I, I, I, ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t), E], ctypes.c_int),
        "gt_candidates": ([P, I, I, ctypes.c_size_t, ctypes.c_int, I, ctypes.c_size_t, ctypes.POINTER(ctypes.c_uint64), E],
                          ctypes.c_int),
        "gt_parse_code": ([P, ctypes.c_char_p, I, E], ctypes.c_int),
        "gt_parse_feedback": ([P, ctypes.c_char_p, I, E], ctypes.c_int),
        "gt_format_code": ([P, I, ctypes.c_char_p, ctypes.c_size_t], ctypes.c_size_t),
        "gt_format_feedback": ([P, I, ctypes.c_char_p, ctypes.c_size_t], ctypes.c_size_t),
        "gt_status_name": ([ctypes.c_int], ctypes.c_char_p),
        "gt_arena_init": ([ctypes.POINTER(Arena), P, ctypes.c_size_t], None),
    }
    for name, (arguments, result) in signatures.items():
        function = getattr(library, name)
        function.argtypes, function.restype = arguments, result
    return library


class CTree:
    """A tree opened by the C library, answering as the Python player's methods are compared below."""

    def __init__(self, lib, path: Path | None = None, data: bytes | None = None, name: str = "<bytes>", options=None):
        self.lib, self.handle, self.error = lib, ctypes.c_void_p(), Error()
        self.data = data  # the bytes stay alive while the tree reads its chunks from them
        if data is None:
            status = lib.gt_open_file(ctypes.byref(self.handle), str(path).encode(), options, ctypes.byref(self.error))
        else:
            status = lib.gt_open_memory(ctypes.byref(self.handle), data, len(data), name.encode(), options, ctypes.byref(self.error))
        if status != OK:
            raise ValueError(f"{lib.gt_status_name(status).decode()}: {self.message}")
        self.info = Info()
        lib.gt_get_info(self.handle, ctypes.byref(self.info))
        self.h, self.w = self.info.code_length, self.info.feedback_length

    @property
    def message(self) -> str:
        return self.error.message.decode()

    def close(self) -> None:
        self.lib.gt_close(self.handle)

    def _answer(self, status: int, guess):
        if status == OK:
            return ("guess", guess)
        if status == WON:
            return ("won",)
        return ("error", STATUS.get(status, status), self.message)

    def next_guess(self, history):
        guesses = ints([s for g, _ in history for s in g], len(history) * self.h)
        feedbacks = ints([x for _, f in history for x in f], len(history) * self.w)
        out = ints([], self.h)
        status = self.lib.gt_next_guess(self.handle, guesses, feedbacks, len(history), out, ctypes.byref(self.error))
        return self._answer(status, tuple(out[:self.h]))

    def next_guess_text(self, history):
        texts = (ctypes.c_char_p * max(1, 2 * len(history)))(*[t.encode() for pair in history for t in pair])
        out = ctypes.create_string_buffer(128)
        status = self.lib.gt_next_guess_text(self.handle, texts, len(history), out, 128, ctypes.byref(self.error))
        return self._answer(status, out.value.decode())

    def path(self, secret):
        guesses, feedbacks, steps = ints([], STEPS * self.h), ints([], STEPS * self.w), ctypes.c_size_t()
        status = self.lib.gt_path(self.handle, ints(secret, self.h), guesses, feedbacks, STEPS, ctypes.byref(steps),
                                  ctypes.byref(self.error))
        if status != OK:
            return ("error", STATUS.get(status, status), self.message)
        return [(tuple(guesses[k * self.h:(k + 1) * self.h]), tuple(feedbacks[k * self.w:(k + 1) * self.w]))
                for k in range(steps.value)]

    def candidates(self, history, any_guess=False, most=50):
        guesses = ints([s for g, _ in history for s in g], len(history) * self.h)
        feedbacks = ints([x for _, f in history for x in f], len(history) * self.w)
        out, count = ints([], most * self.h), ctypes.c_uint64()
        status = self.lib.gt_candidates(self.handle, guesses, feedbacks, len(history), int(any_guess), out, most,
                                        ctypes.byref(count), ctypes.byref(self.error))
        if status != OK:
            return ("error", STATUS.get(status, status), self.message)
        shown = min(most, count.value)
        return count.value, [tuple(out[k * self.h:(k + 1) * self.h]) for k in range(shown)]

    def parse(self, text: str, feedback: bool):
        out = ints([], MAX_FEEDBACK)
        parse = self.lib.gt_parse_feedback if feedback else self.lib.gt_parse_code
        status = parse(self.handle, text.encode(), out, ctypes.byref(self.error))
        return tuple(out[:self.w if feedback else self.h]) if status == OK else ("error", self.message)

    def format(self, values, feedback: bool) -> str:
        out = ctypes.create_string_buffer(128)
        (self.lib.gt_format_feedback if feedback else self.lib.gt_format_code)(self.handle, ints(values, len(values)), out, 128)
        return out.value.decode()


# -- the oracle ------------------------------------------------------------------------------------
def py_next(tree: player.Tree, history, text: bool = False):
    try:
        guess = tree.next_guess(history)
    except (player.InconsistentHistory, ValueError) as error:
        return ("error", str(error))
    if guess is None:
        return ("won",)
    return ("guess", tree.game.format_code(guess) if text else guess)


def same(c_answer, py_answer) -> bool:
    """C's answer is Python's: the guess, the win, or the same message (C adds the status)."""
    if py_answer[0] == "error":
        return c_answer[0] == "error" and c_answer[2] == py_answer[1]
    return c_answer == py_answer


@pytest.fixture(scope="module")
def chunked_dir(tmp_path_factory):
    """Shipped trees rewritten in the chunked layout in chunks of 64 nodes, so that a path crosses
    several; and one whose chunk 1 is damaged, which opens and refuses the lookups that need it."""
    folder = tmp_path_factory.mktemp("chunked")
    for name in CHUNKED:
        document, body = decode((REPO / "trees" / f"{name}.msgpack.zst").read_bytes(), name)
        header = {k: v for k, v in document.items() if k not in ("format", "version", "body_sha256")}
        (folder / f"{name}.msgpack.zst").write_bytes(encode_chunked(header, body, 64))
    data = (folder / f"{CHUNKED[0]}.msgpack.zst").read_bytes()
    end = player.artifact.frame_length(player.artifact.InMemory(data))
    first = player.artifact.unpack_uints(decode(data)[1].index["chunk_size"], 4)[0]
    damaged = bytearray(data)
    damaged[end + first + 10] ^= 0xFF  # in chunk 1
    (folder / "damaged.msgpack.zst").write_bytes(bytes(damaged))
    return folder


def all_trees(chunked_dir) -> list[Path]:
    return TREES + [chunked_dir / f"{name}.msgpack.zst" for name in CHUNKED]


def sampled(secrets, every: bool, rng: random.Random):
    return list(secrets) if every or len(secrets) <= SAMPLE else rng.sample(list(secrets), SAMPLE)


def check_paths(lib, path: Path, every: bool) -> int:
    tree, c = player.load(path), CTree(lib, path)
    try:
        wrong = [s for s in sampled(tree.game.secrets, every, random.Random(path.name)) if c.path(s) != tree.path(s)]
        assert not wrong, f"{path.name}: {len(wrong)} paths differ, e.g. {wrong[0]}: {c.path(wrong[0])} != {tree.path(wrong[0])}"
        assert c.info.secrets == tree.stats["secrets"] == len(tree.game.secrets)
        return len(tree.game.secrets)
    finally:
        c.close()


# -- paths --------------------------------------------------------------------------------------------
def test_sampled_secrets_take_python_s_path_in_every_tree_and_the_book(lib, chunked_dir):
    for path in all_trees(chunked_dir):
        check_paths(lib, path, every=False)


@pytest.mark.slow
@pytest.mark.parametrize("name", [p.relative_to(REPO / "trees").as_posix() for p in TREES])
def test_every_secret_takes_python_s_path(lib, name):
    check_paths(lib, REPO / "trees" / name, every=True)


@pytest.mark.slow
def test_every_secret_takes_python_s_path_in_chunks(lib, chunked_dir):
    for name in CHUNKED:
        check_paths(lib, chunked_dir / f"{name}.msgpack.zst", every=True)


def test_a_code_the_tree_cannot_play_is_refused_as_python_refuses_it(lib):
    path = REPO / "trees" / "bulls-cows-d10-l4-minimax.msgpack.zst"
    tree, c = player.load(path), CTree(lib, path)
    code = (1, 1, 2, 3)  # a code of the game's symbols, but no secret: it repeats a digit
    with pytest.raises(player.InconsistentHistory) as caught:
        tree.path(code)
    assert c.path(code) == ("error", "GT_E_NOT_PLAYABLE", str(caught.value))
    assert c.path((0, 1, 2, 10))[:2] == ("error", "GT_E_ARGUMENT")
    c.close()


# -- trees the shipped ones do not show: other games, parameters, widths ---------------------------------
SIX = ("banana bandit candle castle cattle handle mantle bottle battle settle kettle little middle riddle "
       "saddle paddle puddle muddle needle beetle").split()
FOUR = "bake cake lake make rake take wake bike like hike pike bone cone lone tone zone done".split()
OTHER_GAMES = [
    ("mastermind", {"colours": 5, "holes": 3, "secret_repeats": False, "guess_repeats": False}),
    ("mastermind", {"colours": 4, "holes": 3, "secret_repeats": False}),
    ("mastermind", {"colours": 12, "holes": 2}),
    ("mastermind", {"colours": 2, "holes": 8}),
    ("digits", {"length": 3}),
    ("bulls-cows", {"digits": 7, "length": 3}),
    ("twod", {"size": 12}),
    ("words", {"words": SIX}),  # six letters: feedback indices of two bytes
    ("words", {"words": FOUR, "hard": True}),
]


@pytest.fixture(scope="module")
def other_trees(tmp_path_factory) -> list[tuple[str, bytes]]:
    """Small trees of games and parameters no shipped tree has, whole and in chunks of 8 nodes."""
    from guesstree.compiler import Options, build, to_bytes
    from guesstree.player.games import make_game

    folder, trees = tmp_path_factory.mktemp("other"), []
    for number, (name, params) in enumerate(OTHER_GAMES):
        params = dict(params)
        if "words" in params:
            (folder / f"{number}.txt").write_text("".join(w + "\n" for w in params.pop("words")))
            params["answers"] = str(folder / f"{number}.txt")
        data = to_bytes(build(make_game(name, **params), Options(strategy="entropy")))
        document, body = decode(data)
        header = {k: v for k, v in document.items() if k not in ("format", "version", "body_sha256")}
        trees += [(f"{name}-{number}", data), (f"{name}-{number}-chunked", encode_chunked(header, body, 8))]
    return trees


def test_trees_of_other_games_and_parameters_play_as_python(lib, other_trees):
    rng = random.Random(3)
    for name, data in other_trees:
        tree, c = player.loads(data, name), CTree(lib, data=data, name=name)
        game = tree.game
        wrong = [s for s in game.secrets if c.path(s) != tree.path(s)]
        assert not wrong, (name, wrong[:3])
        for history in histories(tree, rng, 4):
            assert same(c.next_guess(history), py_next(tree, history)), (name, history)
            if all(f in game.feedback_set for _, f in history):
                text = [(game.format_code(g), game.format_feedback(f)) for g, f in history]
                assert same(c.next_guess_text(text), py_next(tree, text, True)), (name, text)
        played = tree.path(rng.choice(game.secrets))[:1]
        assert c.candidates(played) == (len(tree.candidates(played)), tree.candidates(played)[:50]), name
        c.close()


# -- next_guess --------------------------------------------------------------------------------------
def histories(tree: player.Tree, rng: random.Random, count: int):
    """On the tree (every prefix of a secret's path, the win included), and off it: another guess,
    a feedback no secret left gives, a feedback the game never gives, a step after the win."""
    game = tree.game
    win = game.win
    for secret in rng.sample(list(game.secrets), min(count, len(game.secrets))):
        played = tree.path(secret)
        yield from (played[:k] for k in range(len(played) + 1))
        k = rng.randrange(len(played))
        other = rng.choice(game.guesses)
        yield played[:k] + [(other, played[k][1])]
        yield played[:k] + [(played[k][0], rng.choice(game.feedbacks()))]
        impossible = (game.length + 1, 0) if len(win) == 2 else tuple(3 for _ in win) if len(win) > 3 else (0, 1, 1)
        yield played[:k] + [(played[k][0], impossible)]
        yield played + [(played[0][0], played[0][1])]


def test_next_guess_answers_as_python_with_ints_and_text(lib, chunked_dir):
    rng = random.Random(56)
    compared = errors = 0
    for path in all_trees(chunked_dir):
        tree, c = player.load(path), CTree(lib, path)
        game = tree.game
        for history in histories(tree, rng, 6):
            expected = py_next(tree, history)
            assert same(c.next_guess(history), expected), (path.name, history, c.next_guess(history), expected)
            if all(f in game.feedback_set for _, f in history):
                text = [(game.format_code(g), game.format_feedback(f)) for g, f in history]
                assert same(c.next_guess_text(text), py_next(tree, text, True)), (path.name, text)
            compared += 1
            errors += expected[0] == "error"
        c.close()
    assert compared > 1000 and errors > 300


def test_text_that_is_no_code_or_feedback_is_refused_with_python_s_message(lib):
    cases = {
        "mastermind-c6-h4-entropy": [("ABCD", "5B0W"), ("ABCD", "3B1W"), ("ABCX", "1B"), ("ABC", "1B"), ("1234", "0"),
                                     ("a b c d", "BW"), ("ABCD", "2 1"), ("ABCD", "21"), ("ABCD", "2/1"), ("ABCD", "none"),
                                     ("ABCD", "2B 1W"), ("ABCD", "1W"), ("0123", "-"), ("", "1B"), ("ABCD", ""), ("ABCD", "B W")],
        "bulls-cows-d10-l4-minimax": [("0123", "1A2B"), ("0113", "1A"), ("01234", "0A0B"), ("abcd", "1A"), ("0123", "AAB"),
                                      ("0123", "3A1B"), ("0 1 2 3", "0, 4"), ("0123", "2A 2B")],
        "digits-l4-entropy": [("0123", "1S2B"), ("0123", "SSB"), ("012", "1S")],
        "twod-s5-entropy": [("2,2", "<="), ("2 2", ">="), ("22", "none"), ("2,2", "=="), ("2,2", "le"), ("2,2", "101"),
                            ("2,2", "1,0,0"), ("2,9", "<="), ("x,2", "<="), ("2", "<="), ("2,2", "maybe")],
        "wordle-salet-optimal-expected": [("salet", "--Y--"), ("SALET", "-y--g"), ("salet", "00102"), ("salet", "GGGGY"),
                                          ("salet", "🟩🟨⬛⬛⬜"), ("salet", "GYX"), ("sal3t", "-----"), ("saletx", "-----"),
                                          ("salet", "bbbbb")],
    }
    for name, pairs in cases.items():
        path = REPO / "trees" / f"{name}.msgpack.zst"
        tree, c = player.load(path), CTree(lib, path)
        first = tree.game.format_code(tree.next_guess([]))
        for guess, feedback in pairs:
            for history in ([(guess, feedback)], [(first, feedback)], [(guess, tree.game.format_feedback(tree.game.win))]):
                assert same(c.next_guess_text(history), py_next(tree, history, True)), (name, history, c.next_guess_text(history))
            for text, feedback_form in ((guess, False), (feedback, True)):
                parse = tree.game.parse_feedback if feedback_form else tree.game.parse_code
                try:
                    expected = parse(text)
                except ValueError as error:
                    expected = ("error", str(error))
                assert c.parse(text, feedback_form) == expected, (name, text)
        c.close()


TEXT_TREES = ["mastermind-c6-h4-entropy", "mastermind-c8-h4-optimal-expected", "bulls-cows-d10-l4-minimax",
              "digits-l4-entropy", "twod-s5-entropy", "wordle-salet-optimal-expected", "mastermind-c3-h6-optimal-expected"]
ALPHABET = "  ,,/-0123456789ABCDEFGHWYSXZabcdgswxyz.<=>nonelq\t\n'\"\\\x01"  # ASCII: Python's Unicode digits and spaces are not read


def test_random_text_is_read_as_python_reads_it(lib):
    rng = random.Random(11)
    count = int(os.environ.get("GUESSTREE_C_TEXTS", "400"))
    for name in TEXT_TREES:
        path = REPO / "trees" / f"{name}.msgpack.zst"
        tree, c = player.load(path), CTree(lib, path)
        texts = ["".join(rng.choice(ALPHABET) for _ in range(rng.randrange(9))) for _ in range(count)]
        texts += [tree.game.format_code(code) for code in rng.sample(list(tree.game.guesses), 20)]
        texts += [tree.game.format_feedback(f) for f in tree.game.feedbacks()]
        for text in texts:
            for feedback in (False, True):
                try:
                    expected = (tree.game.parse_feedback if feedback else tree.game.parse_code)(text)
                except ValueError as error:
                    expected = ("error", str(error))
                assert c.parse(text, feedback) == expected, (name, text, feedback)
        c.close()


def test_written_codes_and_feedback_are_python_s(lib):
    for path in TREES[::3]:
        tree, c = player.load(path), CTree(lib, path)
        for code in random.Random(1).sample(list(tree.game.guesses), 5):
            assert c.format(code, False) == tree.game.format_code(code)
        for feedback in tree.game.feedbacks()[:20]:
            assert c.format(feedback, True) == tree.game.format_feedback(feedback)
        c.close()


# -- candidates -------------------------------------------------------------------------------------
def test_candidates_are_python_s_on_and_off_the_tree(lib):
    rng = random.Random(7)
    for path in TREES:
        if "c9" in path.name or "digits" in path.name:
            continue  # the same games as others, with more secrets to score in Python
        tree, c = player.load(path), CTree(lib, path)
        game = tree.game
        for _ in range(3):
            secret = rng.choice(game.secrets)
            played = tree.path(secret)[:rng.randrange(1, 3)]
            guess = rng.choice(game.guesses)
            off = played[:1] + [(guess, game.score(guess, secret))]
            for history in (played, off):
                expected = tree.candidates(history)
                assert c.candidates(history) == (len(expected), expected[:50]), (path.name, history)
        if game.name == "words":  # AAAAA is no word: refused unless the tree cannot tell (allowed_guesses)
            history = [((0,) * game.length, game.feedbacks()[0])]
            refused = c.candidates(history)
            if tree.unknown_guess(history[0][0]):
                with pytest.raises(ValueError):
                    tree.candidates(history)
                assert refused[:2] == ("error", "GT_E_NOT_ALLOWED")
            else:
                assert refused[0] == len(tree.candidates(history))
            assert c.candidates(history, any_guess=True)[0] == len(tree.candidates(history, any_guess=True))
        c.close()


# -- the ABI, opening, memory ------------------------------------------------------------------------
def test_the_header_reads_as_python_reads_it(lib, chunked_dir):
    for path in all_trees(chunked_dir):
        tree, c = player.load(path), CTree(lib, path)
        info, stats = c.info, tree.stats
        assert info.game.decode() == tree.game.name
        assert (info.nodes, info.code_length, info.feedbacks) == (tree.nodes, tree.game.length, len(tree.feedbacks))
        assert str(info.strategy) == tree.strategy["name"] and str(info.producer) == tree.header["producer"]
        assert (str(info.notice) or None) == tree.notice
        assert (info.chunks, info.chunk_nodes) == (tree.chunks or (0, 0))
        assert [info.secrets, info.total, info.worst, info.determined_total, info.determined_worst] == [
            stats[k] for k in ("secrets", "total", "worst", "determined_total", "determined_worst")]
        assert (info.average, info.determined_average) == (stats["average"], stats["determined_average"])
        for determined, key in ((0, "histogram"), (1, "determined_histogram")):
            guesses, secrets, pairs = ctypes.c_uint64(), ctypes.c_uint64(), {}
            for i in range(lib.gt_histogram(c.handle, determined, 0, ctypes.byref(guesses), ctypes.byref(secrets))):
                lib.gt_histogram(c.handle, determined, i, ctypes.byref(guesses), ctypes.byref(secrets))
                pairs[guesses.value] = secrets.value
            assert pairs == stats[key]
        c.close()


def test_bytes_in_memory_open_as_the_file_does_and_errors_name_the_file(lib, tmp_path):
    path = REPO / "trees" / "mastermind-c6-h4-entropy.msgpack.zst"
    c = CTree(lib, data=path.read_bytes(), name="six.msgpack.zst")
    assert c.next_guess([]) == ("guess", (0, 1, 2, 3)) and c.info.total == 5722
    c.close()
    with pytest.raises(ValueError, match=r"^GT_E_IO: .*none\.msgpack\.zst: no such file$"):
        CTree(lib, tmp_path / "none.msgpack.zst")
    with pytest.raises(ValueError, match=r"^GT_E_EMPTY: empty\.msgpack\.zst: the file is empty$"):
        CTree(lib, data=b"", name="empty.msgpack.zst")
    with pytest.raises(ValueError, match="^GT_E_IO: .*: is a directory"):
        CTree(lib, tmp_path)
    assert lib.gt_status_name(44) == b"GT_E_ALREADY_WON"


def test_a_fixed_buffer_is_enough_and_too_little_is_refused(lib, chunked_dir):
    path = chunked_dir / "wordle-salet-optimal-expected.msgpack.zst"
    tree = player.load(path)
    buffer = ctypes.create_string_buffer(4 << 20)
    for size, expected in ((64 << 10, "GT_E_NO_MEMORY"), (4 << 20, None)):
        arena = Arena()
        lib.gt_arena_init(ctypes.byref(arena), buffer, size)
        options = Options(ctypes.pointer(arena.allocator), 2)
        if expected:
            with pytest.raises(ValueError, match=f"^{expected}: "):
                CTree(lib, path, options=options)
            continue
        c = CTree(lib, path, options=options)
        assert c.info.peak_memory <= size and arena.used <= size
        secret = tree.game.secrets[100]
        assert c.path(secret) == tree.path(secret)
        c.close()
        assert arena.blocks == 0  # every block given back


def test_a_chunked_tree_holds_its_slots_not_the_tree(lib, chunked_dir):
    whole = CTree(lib, REPO / "trees" / "wordle-salet-optimal-expected.msgpack.zst")
    chunked = CTree(lib, chunked_dir / "wordle-salet-optimal-expected.msgpack.zst", options=Options(None, 1))
    # the document (with its 12972 words) is in both; the nodes' arrays only in the whole one
    assert chunked.info.peak_memory < whole.info.peak_memory
    assert chunked.info.memory - chunked.info.peak_memory <= 0
    whole.close()
    chunked.close()


def test_a_damaged_chunk_opens_and_is_refused_when_a_lookup_needs_it(lib, chunked_dir):
    path = chunked_dir / "damaged.msgpack.zst"
    with pytest.raises(player.FormatError) as caught:
        tree = player.load(path)
        for node in range(tree.nodes):
            tree.edges(node)
    c = CTree(lib, path)
    assert c.next_guess([]) == ("guess", (0, 1, 2, 3))
    assert lib.gt_check(c.handle, ctypes.byref(c.error)) == 25  # GT_E_CHUNK
    assert c.message.split(": ", 1)[1].startswith("chunk 1: ") and str(caught.value).split(": ", 1)[1].startswith("chunk 1: ")
    c.close()


# -- gtree ------------------------------------------------------------------------------------------
def gtree(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(BUILD / "gtree"), *args], capture_output=True, text=True)


def test_gtree_answers_as_guesstree_does(lib):
    path = REPO / "trees" / "wordle-salet-optimal-expected.msgpack.zst"
    tree = player.load(path)
    done = gtree("path", str(path), "crane")
    assert done.returncode == 0 and done.stdout.split() == [tree.game.format_code(g) for g, _ in tree.path("crane")]
    done = gtree("next", str(path), "salet", "--Y--")
    assert done.returncode == 0 and done.stdout.strip() == tree.game.format_code(tree.next_guess([("salet", "--Y--")]))
    assert gtree("next", str(path), "salet", "GGGGG").stdout == "won\n"
    info = gtree("info", str(path))
    assert info.returncode == 0 and "first      SALET" in info.stdout and f"total {tree.stats['total']}" in info.stdout
    for other in TREES[::5]:  # the game as Python writes it
        assert gtree("info", str(other)).stdout.splitlines()[0] == f"game       {player.load(other).game!r}"
    off = gtree("next", str(path), "crane", "-----")
    assert off.returncode == 1 and off.stderr.strip() == "error: step 1: the tree plays SALET here, not CRANE"
    assert gtree("path", str(path), "zzzzz").returncode == 1
    assert gtree("info", str(REPO / "trees" / "none.msgpack.zst")).returncode == 2
    assert gtree("next", str(path), "salet").returncode == 2  # a guess without its feedback
    assert gtree("frobnicate", str(path)).returncode == 2


# -- hostile files ------------------------------------------------------------------------------------
REASONS = [  # the Python reader's message (after the file's name) -> the C reader's status
    (r"^chunk \d+: ", "GT_E_CHUNK"),
    (r"^the file is empty", "GT_E_EMPTY"),
    (r"^larger than any artifact", "GT_E_TOO_LARGE"),
    (r"^(not a zstd-compressed|the zstd frame (does not declare|claims|has no checksum|holds more))", "GT_E_FRAME"),
    (r"^the zstd data is damaged", "GT_E_ZSTD_DAMAGED"),
    (r"msgpack", "GT_E_MSGPACK"),
    (r"^not a guesstree artifact", "GT_E_NOT_GUESSTREE"),
    (r"format version", "GT_E_VERSION"),
    (r"(has no body|has no index|body's sha256)", "GT_E_BODY"),
    (r"plugin", "GT_E_PLUGIN"),
    (r"(game spec|game's parameters|cannot rebuild the game|unknown game|does not take)", "GT_E_GAME"),
    (r"^the (header's|statistic)", "GT_E_HEADER"),
    (r"^(bad node count|code length|bad feedback width|the feedback table)", "GT_E_TABLE"),
    (r"^(bad chunk size|the index's|\d+ chunks of)", "GT_E_CHUNKS"),
    (r"", "GT_E_NODES"),  # the arrays: lengths, symbols, edges, cycles, winning edges
]


def reason(message: str) -> str:
    text = message.split(": ", 1)[1]
    return next(status for pattern, status in REASONS if re.search(pattern, text))


def hostile_corpus(folder: Path, count: int) -> list[dict]:
    sys.path.insert(0, str(REPO / "scripts"))
    import fuzz

    fuzz.write_corpus(folder, count=count, seed=1)
    return json.loads((folder / "decisions.json").read_text())


def check_hostile(folder: Path, decisions: list[dict]) -> None:
    make("sanitize")
    files = "".join(f"{folder / d['file']}\n" for d in decisions)
    environment = {**os.environ, "ASAN_OPTIONS": "detect_leaks=1:abort_on_error=0", "UBSAN_OPTIONS": "print_stacktrace=1"}
    done = subprocess.run([str(BUILD / "asan" / "check-corpus")], input=files, capture_output=True, text=True,
                          env=environment, timeout=600)
    assert done.returncode == 0 and not done.stderr, done.stderr[-3000:]
    got = {line.split("\t")[0]: line.split("\t") for line in done.stdout.splitlines()}
    wrong = []
    for d in decisions:
        answer = got[d["file"]]
        if answer[1] != d["js"]:  # the JavaScript reader's decision: Python's, a plugin game refused
            wrong.append(f"{d['file']}: expected {d['js']}, got {answer[1:]} (Python: {d['message']})")
        elif answer[1] == "refused" and d["python"] == "refused" and answer[2] != reason(d["message"]) and not (
                answer[2] == "GT_E_PLUGIN" and "the game is the plugin '" in answer[3]):  # Python ran it, then refused
            wrong.append(f"{d['file']}: Python's reason {reason(d['message'])} ({d['message']}), C's {answer[2]}: {answer[3]}")
        elif answer[1] == "refused" and not answer[3].startswith(f"{d['file']}: "):
            wrong.append(f"{d['file']}: the message does not name the file: {answer[3]}")
    assert not wrong, "\n".join(wrong[:20])
    assert sum(d["python"] == "loaded" for d in decisions) >= 7 and len({d["kind"] for d in decisions}) >= 10


def test_hostile_files_are_refused_as_python_refuses_them_under_the_sanitizers(tmp_path):
    folder = tmp_path / "hostile"
    check_hostile(folder, hostile_corpus(folder, int(os.environ.get("GUESSTREE_HOSTILE_COUNT", "250"))))


@pytest.mark.slow
def test_a_larger_hostile_corpus_under_the_sanitizers(tmp_path):
    folder = tmp_path / "hostile"
    check_hostile(folder, hostile_corpus(folder, 1000))


def fuzz_seeds(folder: Path) -> tuple[Path, Path]:
    """Seeds of the two targets: artifacts, whole and chunked (fuzz-reader), and their documents'
    msgpack with the bytes after the frame (fuzz-document: a 4-byte length, the document, the rest)."""
    import struct

    import zstandard

    artifacts, documents = folder / "artifacts", folder / "documents"
    artifacts.mkdir()
    documents.mkdir()
    for path in TREES[::4] + [REPO / "trees" / "twod-s5-entropy.msgpack.zst"]:
        data = path.read_bytes()
        document, body = decode(data)
        header = {k: v for k, v in document.items() if k not in ("format", "version", "body_sha256")}
        for name, artifact in ((path.name, data), (f"chunked-{path.name}", encode_chunked(header, body, 16))):
            (artifacts / name).write_bytes(artifact)
            end = player.artifact.frame_length(player.artifact.InMemory(artifact))
            raw = zstandard.ZstdDecompressor().decompress(artifact[:end])
            (documents / name).write_bytes(struct.pack("<I", len(raw)) + raw + artifact[end:])
    return artifacts, documents


def run_fuzzers(tmp_path: Path, seconds: int) -> None:
    """Both libFuzzer targets for ``seconds`` each: no crash, no sanitizer report, no leak."""
    if not shutil.which("clang"):
        missing(FUZZ_PACKAGES)
    make("fuzz")
    for target, seeds in zip(("fuzz-reader", "fuzz-document"), fuzz_seeds(tmp_path)):
        corpus = tmp_path / f"{target}-corpus"
        corpus.mkdir()
        # One open may hold up to the format's caps (a 64 MiB body, four 16 MiB chunks): no single
        # allocation past 200 MiB; the process's size bounded with ASan's quarantine kept small.
        done = subprocess.run([str(BUILD / "fuzz" / target), f"-max_total_time={seconds}", "-rss_limit_mb=2048",
                               "-malloc_limit_mb=200", "-max_len=300000", f"-artifact_prefix={tmp_path}/", str(corpus),
                               str(seeds)], capture_output=True, text=True, timeout=seconds + 120,
                              env={**os.environ, "ASAN_OPTIONS": "quarantine_size_mb=64"})
        assert done.returncode == 0, done.stderr[-3000:]
        assert re.search(r"Done \d+ runs", done.stderr), done.stderr[-1000:]


def test_libfuzzer_finds_nothing_in_a_few_seconds(tmp_path):
    run_fuzzers(tmp_path, 3)


@pytest.mark.slow
def test_libfuzzer_finds_nothing_in_twenty_seconds(tmp_path):
    run_fuzzers(tmp_path, 20)


# -- the README's example, and CMake ------------------------------------------------------------------
def test_the_readme_example_compiles_and_plays_as_python(lib, tmp_path):
    text = (C / "README.md").read_text()
    example = re.search(r"```c\n(.*?)```", text, re.S)[1]
    assert 15 <= len(example.strip().splitlines()) <= 30
    (tmp_path / "example.c").write_text(example)
    compiled = subprocess.run(["cc", "-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror", f"-I{C}", "example.c",
                               str(BUILD / "libguesstree.a"), "-lzstd", "-o", "example"], cwd=tmp_path, capture_output=True, text=True)
    assert compiled.returncode == 0, compiled.stderr
    path = REPO / "trees" / "mastermind-c6-h4-entropy.msgpack.zst"
    done = subprocess.run([str(tmp_path / "example"), str(path), "ABBA"], capture_output=True, text=True)
    tree = player.load(path)
    assert done.returncode == 0 and done.stdout.split() == [tree.game.format_code(g) for g, _ in tree.path("ABBA")]


@pytest.mark.slow
def test_cmake_configures_and_builds(tmp_path):
    if not shutil.which("cmake"):
        missing("the C player's CMake build needs cmake (apt-get install cmake)")
    for step in (["cmake", "-S", str(C), "-B", str(tmp_path)], ["cmake", "--build", str(tmp_path), "-j2"]):
        done = subprocess.run(step, capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr
    path = REPO / "trees" / "twod-s5-entropy.msgpack.zst"
    done = subprocess.run([str(tmp_path / "gtree"), "next", str(path)], capture_output=True, text=True)
    assert done.stdout.strip() == player.load(path).game.format_code(player.load(path).next_guess([]))


def test_the_docs_c_example_answers_as_python(lib, tmp_path):
    guide = (REPO / "docs" / "tutorials" / "play.md").read_text()
    section = re.search(r"^## The player in C\n(.*?)(?=^## |\Z)", guide, re.S | re.M)[1]
    snippet = re.search(r"```c\n(.*?)```", section, re.S)[1].replace("gt_close(tree);", 'printf("%s\\n", guess);\ngt_close(tree);')
    (tmp_path / "main.c").write_text(f'#include <stdio.h>\n#include "guesstree.h"\nint main(void)\n{{\n{snippet}return 0;\n}}\n')
    compiled = subprocess.run(["cc", "-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror", f"-I{C}", str(tmp_path / "main.c"),
                               str(BUILD / "libguesstree.a"), "-lzstd", "-o", str(tmp_path / "main")], capture_output=True, text=True)
    assert compiled.returncode == 0, compiled.stderr
    done = subprocess.run([str(tmp_path / "main")], cwd=REPO, capture_output=True, text=True)
    tree = player.load(REPO / "trees" / "mastermind-c6-h4-entropy.msgpack.zst")
    assert done.stdout.strip() == tree.game.format_code(tree.next_guess([("ABCD", "1B1W")]))


def test_the_c_player_s_version_is_the_package_s():
    import guesstree

    assert re.search(r'#define GT_VERSION "([^"]+)"', (C / "guesstree.h").read_text())[1] == guesstree.__version__


def test_the_library_builds_for_a_target_without_files_or_malloc(tmp_path):
    """-DGT_NO_FILES -DGT_NO_MALLOC: no stdio file, no POSIX call, no malloc is left to link."""
    if zstd_header_missing():
        missing(ZSTD_PACKAGE)
    objects = []
    for source in sorted((C / "src").glob("*.c")):
        objects.append(tmp_path / f"{source.stem}.o")
        done = subprocess.run(["cc", "-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror", "-DGT_NO_FILES", "-DGT_NO_MALLOC",
                               "-O2", "-c", str(source), "-o", str(objects[-1])], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
    undefined = subprocess.run(["nm", "-u", *map(str, objects)], capture_output=True, text=True, check=True).stdout.split()
    assert not {"fopen", "fseeko", "fread", "fclose", "fstat", "malloc", "free"} & set(undefined)
    assert "ZSTD_decompressDCtx" in undefined  # zstd's decoder, compiled in beside it

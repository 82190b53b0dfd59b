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
        ("memory", ctypes.c_size_t), ("peak_memory", ctypes.c_size_t), ("feedback", ctypes.c_char_p)]


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
    return c_library()


def c_library() -> ctypes.CDLL:
    """The shared library, built, with every call's signature as another language declares it."""
    make()
    library = ctypes.CDLL(str(BUILD / "libguesstree.so"))
    P, E, INTS = ctypes.c_void_p, ctypes.POINTER(Error), ctypes.POINTER(ctypes.c_int)
    signatures = {
        "gt_open_file": ([ctypes.POINTER(P), ctypes.c_char_p, ctypes.POINTER(Options), E], ctypes.c_int),
        "gt_open_memory": ([ctypes.POINTER(P), ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.POINTER(Options), E],
                           ctypes.c_int),
        "gt_close": ([P], None),
        "gt_check": ([P, E], ctypes.c_int),
        "gt_get_info": ([P, ctypes.POINTER(Info)], ctypes.c_int),
        "gt_histogram": ([P, ctypes.c_int, ctypes.c_size_t, ctypes.POINTER(ctypes.c_uint64), ctypes.POINTER(ctypes.c_uint64)],
                         ctypes.c_int),
        "gt_next_guess": ([P, INTS, INTS, ctypes.c_size_t, INTS, E], ctypes.c_int),
        "gt_next_guess_text": ([P, ctypes.POINTER(ctypes.c_char_p), ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t, E],
                               ctypes.c_int),
        "gt_path": ([P, INTS, INTS, INTS, ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t), E], ctypes.c_int),
        "gt_candidates": ([P, INTS, INTS, ctypes.c_size_t, ctypes.c_int, INTS, ctypes.c_size_t, ctypes.POINTER(ctypes.c_uint64), E],
                          ctypes.c_int),
        "gt_parse_code": ([P, ctypes.c_char_p, INTS, E], ctypes.c_int),
        "gt_parse_feedback": ([P, ctypes.c_char_p, INTS, E], ctypes.c_int),
        "gt_suggest": ([P, INTS, INTS, ctypes.c_size_t, ctypes.c_int, INTS, INTS, E], ctypes.c_int),
        "gt_suggest_text": ([P, ctypes.POINTER(ctypes.c_char_p), ctypes.c_size_t, ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t,
                             INTS, E], ctypes.c_int),
        "gt_format_code": ([P, INTS, ctypes.c_char_p, ctypes.c_size_t, E], ctypes.c_int),
        "gt_format_feedback": ([P, INTS, ctypes.c_char_p, ctypes.c_size_t, E], ctypes.c_int),
        "gt_status_name": ([ctypes.c_int], ctypes.c_char_p),
        "gt_version": ([], ctypes.c_char_p),
        "gt_set_book": ([P, ctypes.POINTER(P), ctypes.c_size_t], ctypes.c_int),
        "gt_arena_init": ([ctypes.POINTER(Arena), P, ctypes.c_size_t], ctypes.c_int),
        "gt_get_alphabet": ([P, ctypes.POINTER(Text), ctypes.POINTER(Text)], ctypes.c_int),
        "gt_get_weight": ([P, INTS, ctypes.POINTER(Text)], ctypes.c_int),
        "gt_get_weighted_stats": ([P] + [ctypes.POINTER(ctypes.c_double)] * 3, ctypes.c_int),
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
        (self.lib.gt_format_feedback if feedback else self.lib.gt_format_code)(self.handle, ints(values, len(values)), out, 128, None)
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
            i = 0
            while lib.gt_histogram(c.handle, determined, i, ctypes.byref(guesses), ctypes.byref(secrets)) == OK:
                pairs[guesses.value] = secrets.value
                i += 1
            assert pairs == stats[key] and i == len(stats[key])
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


def test_an_arena_ignores_a_free_with_no_block_out(lib):
    """Giving an arena back a block when none is out (a caller's mistake) leaves it as it was: no count
    below zero, and it still gives and takes back its blocks."""
    buffer, arena = ctypes.create_string_buffer(4096), Arena()
    assert lib.gt_arena_init(ctypes.byref(arena), buffer, 4096) == OK
    alloc = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t)(arena.allocator.alloc)
    free = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p)(arena.allocator.free)
    free(arena.allocator.user, ctypes.cast(buffer, ctypes.c_void_p).value + 16)
    assert (arena.blocks, arena.used, arena.last) == (0, 0, 0)
    block = alloc(arena.allocator.user, 100)
    assert block and arena.blocks == 1
    free(arena.allocator.user, block)
    assert (arena.blocks, arena.used) == (0, 0)


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


def fuzz_module():
    sys.path.insert(0, str(REPO / "scripts"))
    import fuzz

    return fuzz


def with_chunk_damaged(data: bytes, chunk: int, inside: bool) -> bytes:
    """The chunked artifact with one chunk damaged: its frame (a byte flipped: zstd's checksum refuses
    it), or, inside, its guesses made symbols no game has in a frame that is sound."""
    import zstandard

    fuzz = fuzz_module()
    document, frames = fuzz.split_chunked(data)
    if not inside:
        broken = bytearray(frames[chunk])
        broken[10] ^= 0xFF
        frames[chunk] = bytes(broken)
    else:
        raw = bytearray(zstandard.ZstdDecompressor().decompress(frames[chunk]))
        raw[:8] = b"\xff" * 8  # the first nodes' guesses
        frames[chunk] = fuzz.frame(bytes(raw))
    return fuzz.pack_chunked(document, frames)


def test_a_damaged_chunk_is_refused_with_its_status_when_no_gt_error_is_given(lib, chunked_dir):
    """gt_error may always be NULL: the status of a damaged chunk comes back without one, on opening
    (chunk 0 is read then) and on the lookups and the check that need a chunk read later."""
    data = (chunked_dir / f"{CHUNKED[0]}.msgpack.zst").read_bytes()
    for inside in (False, True):
        first = with_chunk_damaged(data, 0, inside)
        for error in (None, ctypes.byref(Error())):
            handle = ctypes.c_void_p()
            assert lib.gt_open_memory(ctypes.byref(handle), first, len(first), b"first.msgpack.zst", None, error) == 25
        second = with_chunk_damaged(data, 1, inside)
        c = CTree(lib, data=second, name="second.msgpack.zst")
        assert lib.gt_check(c.handle, None) == 25 and lib.gt_check(c.handle, ctypes.byref(c.error)) == 25
        assert c.message.startswith("second.msgpack.zst: chunk 1: ")
        tree, refused = player.load(chunked_dir / f"{CHUNKED[0]}.msgpack.zst"), 0
        for secret in tree.game.secrets[::7]:  # the lookups that reach chunk 1, with no gt_error and with one
            code, guesses, feedbacks, steps = ints(secret, 4), ints([], STEPS * 4), ints([], STEPS * 2), ctypes.c_size_t()
            status = lib.gt_path(c.handle, code, guesses, feedbacks, STEPS, ctypes.byref(steps), None)
            assert status in (OK, 25) and (c.path(secret)[:2] == ("error", STATUS.get(25, 25))) == (status == 25)
            played = tree.path(secret)
            for k in range(len(played)):
                history = played[:k]
                status = lib.gt_next_guess(c.handle, ints([x for g, _ in history for x in g], max(1, 4 * k)),
                                           ints([x for _, f in history for x in f], max(1, 2 * k)), k, ints([], 4), None)
                assert status in (OK, 25) and (c.next_guess(history)[:2] == ("error", STATUS.get(25, 25))) == (status == 25)
                refused += status == 25
        assert refused > 0
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
    assert gtree("next", str(path), "cigar", "GGGGG").stdout == "won\n"  # SALET GGGGG: no secret gives it (below)
    info = gtree("info", str(path))
    assert info.returncode == 0 and "first      SALET" in info.stdout and f"total {tree.stats['total']}" in info.stdout
    refused = gtree("path", "mastermind-c6-h4-entropy", "ZZZZ")  # as guesstree solve refuses it
    assert refused.returncode == 2 and refused.stderr == "error: 'ZZZZ' uses a colour outside A-F\n"


def test_gtree_info_writes_the_game_s_title_and_the_whole_notice(lib):
    for other in TREES[::4] + [REPO / "trees" / "wordle-hard-salet-optimal-expected-depth6.msgpack.zst"]:
        tree, lines = player.load(other), gtree("info", str(other)).stdout.splitlines()
        assert lines[0] == f"game       {tree.game}"  # str(game), as guesstree info writes it
    tree = player.load(REPO / "trees" / "wordle-salet-optimal-expected.msgpack.zst")
    shown = [line[11:] for line in gtree("info", "wordle-salet-optimal-expected").stdout.splitlines()
             if line.startswith(("notice     ", " " * 11))]
    assert len(shown) > 20 and shown == tree.notice.strip().splitlines()[:len(shown)]
    assert "\n".join(shown) == tree.notice.strip()


def test_gtree_help_and_version_go_to_standard_output(lib):
    import guesstree

    for flag in ("--help", "-h"):
        done = gtree(flag)
        assert done.returncode == 0 and done.stdout.startswith("usage: gtree") and not done.stderr
    assert gtree("next", "--help").returncode == 0
    done = gtree("--version")
    assert done.returncode == 0 and done.stdout == f"gtree {guesstree.__version__}\n"


def test_gtree_takes_a_shipped_tree_s_name(lib, tmp_path):
    from guesstree.player.shipped import shipped

    tree = player.load(REPO / "trees" / "mastermind-c6-h4-entropy.msgpack.zst")
    first = tree.game.format_code(tree.next_guess([]))
    for name in ("mastermind-c6-h4-entropy", "mastermind-c6-h4-entropy.msgpack.zst"):  # from a folder without it
        done = subprocess.run([str(BUILD / "gtree"), "next", name], capture_output=True, text=True, cwd=tmp_path)
        assert done.returncode == 0 and done.stdout == f"{first}\n"
    listed = subprocess.run([str(BUILD / "gtree"), "trees"], capture_output=True, text=True, cwd=tmp_path).stdout.splitlines()
    assert listed[:-1] == shipped() and listed[-1] == f"{len(shipped())} trees in {REPO / 'trees'}"
    # $GUESSTREE_TREES names another folder: its trees by name, no longer the checkout's
    shutil.copy(REPO / "trees" / "twod-s5-entropy.msgpack.zst", tmp_path / "mine.msgpack.zst")
    env = {**os.environ, "GUESSTREE_TREES": str(tmp_path)}
    done = subprocess.run([str(BUILD / "gtree"), "next", "mine"], capture_output=True, text=True, env=env, cwd=REPO)
    assert done.returncode == 0 and done.stdout == "2,2\n"
    missing = subprocess.run([str(BUILD / "gtree"), "info", "mastermind-c6-h4-entropy"], capture_output=True, text=True,
                             env=env, cwd=tmp_path)
    assert missing.returncode == 2 and missing.stderr == ("error: mastermind-c6-h4-entropy: no such file; nor is it a "
                                                          "shipped tree's name (gtree trees lists them)\n")


MISTAKES = [  # (arguments after the command, as guesstree takes them too)
    ["next", "mastermind-c6-h4-entropy", "ABCD", "5B0W"],  # feedback that cannot occur
    ["next", "mastermind-c6-h4-entropy", "ABCD"],  # a guess without its feedback
    ["next", "mastermind-c6-h4-entropy", "ABCDE", "1B1W"],  # no code of the game
    ["next", "mastermind-c6-h4-entropy", "AAAA", "4B0W", "AAAA", "1B0W"],  # on after the win
    ["next", "mastermind-c6-h4-entropy", "AAAA", "0B0W", "BBBB", "0B0W", "CCCC", "0B0W", "DDDD", "0B0W",
     "EEEE", "0B0W", "FFFF", "0B0W"],  # no secret gives them all
    ["next", "wordle-salet-optimal-expected", "xxxxx", "Y----"],  # not an allowed guess
    ["next", "no-such-tree", "ABCD", "1B1W"],  # neither a file nor a shipped tree
    ["next", "trees/none.msgpack.zst"],
    ["info", str(REPO / "README.md")],  # not an artifact
    ["next"],  # no TREE
    ["frobnicate", "mastermind-c6-h4-entropy"],  # no such command
]


@pytest.mark.parametrize("arguments", MISTAKES, ids=lambda a: " ".join(a)[:40])
def test_gtree_s_exit_status_and_message_are_guesstree_s(lib, arguments):
    c = subprocess.run([str(BUILD / "gtree"), *arguments], capture_output=True, text=True, cwd=REPO)
    python = subprocess.run([sys.executable, "-m", "guesstree", *arguments], capture_output=True, text=True, cwd=REPO)
    assert c.returncode == python.returncode == 2 and not c.stdout
    assert len(c.stderr.splitlines()) == 1 and c.stderr.startswith("error: ")
    if arguments[0] == "next" and len(arguments) > 2 and arguments[1] != "no-such-tree":  # the library's own words
        assert c.stderr == python.stderr


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
    msgpack with the bytes after the frame (fuzz-document: a 4-byte length, the document, the rest);
    among them a tree of Ukrainian words (its alphabet and capitals, issue 68)."""
    import struct

    import zstandard

    from test_c_alphabets import alphabet_tree

    artifacts, documents = folder / "artifacts", folder / "documents"
    artifacts.mkdir()
    documents.mkdir()
    seeds = [(path.name, path.read_bytes()) for path in TREES[::4] + [REPO / "trees" / "twod-s5-entropy.msgpack.zst"]]
    for file, data in seeds + [("uk.msgpack.zst", alphabet_tree("uk"))]:
        document, body = decode(data)
        header = {k: v for k, v in document.items() if k not in ("format", "version", "body_sha256")}
        for name, artifact in ((file, data), (f"chunked-{file}", encode_chunked(header, body, 16))):
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


def test_the_c_player_s_version_is_the_package_s(lib):
    import guesstree

    header = (C / "guesstree.h").read_text()
    macro = {name: re.search(rf"#define GT_VERSION_{name} (\S+)", header)[1] for name in ("MAJOR", "MINOR", "PATCH", "STRING")}
    assert macro["STRING"] == f'"{guesstree.__version__}"' == '"{MAJOR}.{MINOR}.{PATCH}"'.format(**macro)
    assert lib.gt_version().decode() == guesstree.__version__
    major = guesstree.__version__.split(".")[0]  # the shared library's soname carries the major version
    assert os.readlink(BUILD / "libguesstree.so") == f"libguesstree.so.{major}"
    assert os.readlink(BUILD / f"libguesstree.so.{major}") == f"libguesstree.so.{guesstree.__version__}"


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


# -- the library as C programmers expect it: its symbols, NULL arguments, install, pkg-config, CMake ---------
def api_functions() -> set[str]:
    """The calls guesstree.h declares (GT_API)."""
    return set(re.findall(r"^GT_API [^(]*?\b(gt_\w+)\(", (C / "guesstree.h").read_text(), re.M))


def test_no_global_symbol_but_the_api_is_defined_without_the_internal_prefix(lib):
    """Only the public gt_* calls are plain names; every other global of the static library is gti_*
    (so that it cannot clash with a program's read_table or child_of), and the shared library
    exports the calls alone."""
    api = api_functions()
    assert len(api) == 23 and {"gt_suggest", "gt_set_book", "gt_version", "gt_open_file"} <= api
    listed = subprocess.run(["nm", "-g", "--defined-only", str(BUILD / "libguesstree.a")], capture_output=True, text=True,
                            check=True).stdout
    defined = {line.split()[2] for line in listed.splitlines() if len(line.split()) == 3}
    assert api <= defined and not {name for name in defined - api if not name.startswith("gti_")}
    exported = subprocess.run(["nm", "-D", "--defined-only", str(BUILD / "libguesstree.so")], capture_output=True, text=True,
                              check=True).stdout
    assert {line.split()[2] for line in exported.splitlines() if len(line.split()) == 3} == api


def null_calls(lib, handle, words, weighted):
    """Each public call with valid arguments (name -> arguments, the error last where it takes one);
    ``words``: a words tree, for the calls of its letters; ``weighted``: a tree of weighted answers."""
    P, size = ctypes.c_void_p, ctypes.c_size_t
    code, feedback, out = ints([0, 1, 2, 3], 4), ints([1, 1], 2), ctypes.create_string_buffer(64)
    history = (ctypes.c_char_p * 2)(b"ABCD", b"1B1W")
    count, steps, u1, u2 = ctypes.c_uint64(), size(), ctypes.c_uint64(), ctypes.c_uint64()
    return {
        "gt_open_file": [ctypes.byref(P()), str(REPO / "trees" / "mastermind-c6-h4-entropy.msgpack.zst").encode(), None],
        "gt_open_memory": [ctypes.byref(P()), b"x", 1, None, None],
        "gt_check": [handle],
        "gt_get_info": [handle, ctypes.byref(Info())],
        "gt_histogram": [handle, 0, 0, ctypes.byref(u1), ctypes.byref(u2)],
        "gt_next_guess": [handle, code, feedback, 1, ints([], 4)],
        "gt_next_guess_text": [handle, history, 1, out, 64],
        "gt_suggest": [handle, code, feedback, 1, 0, ints([], 4), ints([], 1)],
        "gt_suggest_text": [handle, history, 1, 0, out, 64, ints([], 1)],
        "gt_path": [handle, code, ints([], 64 * 4), ints([], 64 * 2), 64, ctypes.byref(steps)],
        "gt_candidates": [handle, code, feedback, 1, 0, ints([], 4 * 8), 8, ctypes.byref(count)],
        "gt_parse_code": [handle, b"ABCD", ints([], 4)],
        "gt_parse_feedback": [handle, b"1B1W", ints([], 2)],
        "gt_format_code": [handle, code, out, 64],
        "gt_format_feedback": [handle, feedback, out, 64],
        "gt_arena_init": [ctypes.byref(Arena()), ctypes.create_string_buffer(64), 64],
        "gt_set_book": [handle, (P * 1)(handle), 1],
        "gt_get_alphabet": [words, ctypes.byref(Text()), ctypes.byref(Text())],
        "gt_get_weight": [handle, code, ctypes.byref(Text())],
        "gt_get_weighted_stats": [weighted, ctypes.byref(ctypes.c_double()), ctypes.byref(ctypes.c_double()),
                                  ctypes.byref(ctypes.c_double())],
    }


TAKES_ERROR = {"gt_open_file", "gt_open_memory", "gt_check", "gt_next_guess", "gt_next_guess_text", "gt_suggest",
               "gt_suggest_text", "gt_path", "gt_candidates", "gt_parse_code", "gt_parse_feedback", "gt_format_code",
               "gt_format_feedback"}
OPTIONAL = {("gt_open_file", 2), ("gt_open_memory", 3), ("gt_open_memory", 4), ("gt_suggest", 6), ("gt_suggest_text", 6)}


def test_every_call_refuses_a_null_pointer_with_gt_e_argument_and_a_message(lib):
    """Each pointer of each call given as NULL: GT_E_ARGUMENT and a message naming the call, never a crash;
    the options, a name and where a suggestion came from may be NULL; so may every gt_error."""
    c = CTree(lib, REPO / "trees" / "mastermind-c6-h4-entropy.msgpack.zst")
    words = CTree(lib, REPO / "trees" / "wordle-salet-optimal-expected.msgpack.zst")
    from test_c_alphabets import weighted_tree

    weighted = CTree(lib, data=weighted_tree(), name="weighted")
    calls = null_calls(lib, c.handle, words.handle, weighted.handle)
    assert set(calls) | {"gt_close", "gt_status_name", "gt_version"} == api_functions()
    for name, arguments in calls.items():
        function, error = getattr(lib, name), Error()
        full = arguments + ([ctypes.byref(error)] if name in TAKES_ERROR else [])
        assert function(*full) != 40, name  # the valid call (gt_open_memory's one byte is refused as no zstd frame)
        for at, argument in enumerate(arguments):
            if isinstance(argument, int) or (name, at) in OPTIONAL:  # a count, a size, a flag; or NULL allowed
                continue
            error = Error()
            given = arguments[:at] + [None] + arguments[at + 1:]
            status = function(*given, *([ctypes.byref(error)] if name in TAKES_ERROR else []))
            assert status == 40, f"{name}: argument {at} NULL gave {status}"
            if name in TAKES_ERROR:
                assert error.status == 40 and error.message.decode(), (name, at)
                assert function(*given, None) == 40  # no gt_error: the status alone
    history = (ctypes.c_char_p * 2)(b"ABCD", None)  # a NULL text in a history
    assert lib.gt_next_guess_text(c.handle, history, 1, ctypes.create_string_buffer(8), 8, ctypes.byref(c.error)) == 40
    assert c.message == "step 1: a NULL guess or feedback"
    u = ctypes.c_uint64()
    assert lib.gt_histogram(c.handle, 0, 99, ctypes.byref(u), ctypes.byref(u)) == 40  # past the pairs
    lib.gt_close(None)
    assert lib.gt_status_name(99).decode() == "GT_UNKNOWN"
    c.close()
    words.close()
    weighted.close()


def test_format_refuses_a_buffer_too_small(lib):
    c = CTree(lib, REPO / "trees" / "wordle-salet-optimal-expected.msgpack.zst")
    out = ctypes.create_string_buffer(8)
    assert lib.gt_format_code(c.handle, ints([18, 0, 11, 4, 19], 5), out, 6, ctypes.byref(c.error)) == OK and out.value == b"SALET"
    assert lib.gt_format_code(c.handle, ints([18, 0, 11, 4, 19], 5), out, 5, ctypes.byref(c.error)) == 47  # GT_E_SPACE
    assert out.value == b"SALE" and c.message == "the code does not fit in 5 bytes"
    c.close()


# -- help off the tree: gt_suggest against Python's Tree.suggest (book=None) -------------------------------
BY_RULE, BY_TREE, BY_SYMMETRY, BY_BOOK = 0, 1, 2, 3
BOOK = REPO / "trees" / "book"
SUGGEST_TREES = ["mastermind-c6-h4-entropy", "mastermind-c6-h4-no-repeats-optimal-expected", "mastermind-c7-h4-optimal-expected",
                 "bulls-cows-d10-l4-minimax", "digits-l4-entropy", "twod-s5-entropy", "wordle-salet-optimal-expected",
                 "wordle-hard-salet-optimal-expected-depth6"]


def random_history(tree: player.Tree, rng: random.Random) -> list:
    """Up to three steps against a random secret, each a random allowed guess or now and then the suggestion."""
    game, steps = tree.game, []
    secret = rng.choice(game.secrets)
    for _ in range(rng.randint(1, 3)):
        suggested = tree.suggest(steps) if rng.random() < 0.3 else None
        guess = suggested or rng.choice(game.guesses_after(steps))
        steps.append((guess, game.score(guess, secret)))
        if steps[-1][1] == game.win:
            break
    return steps


def py_suggest(tree: player.Tree, steps) -> tuple:
    try:
        guess = tree.suggest(steps)
    except (player.InconsistentHistory, ValueError) as error:
        return ("error", str(error))
    return ("won",) if guess is None else ("guess", guess)


def c_suggest(lib, c: CTree, steps) -> tuple:
    guesses = ints([s for g, _ in steps for s in g], len(steps) * c.h)
    feedbacks = ints([x for _, f in steps for x in f], len(steps) * c.w)
    out, by = ints([], c.h), ctypes.c_int(-1)
    status = lib.gt_suggest(c.handle, guesses, feedbacks, len(steps), 0, out, ctypes.byref(by), ctypes.byref(c.error))
    return c._answer(status, tuple(out[:c.h])), by.value


def check_suggestions(lib, name: str, count: int, book: bool) -> dict:
    """gt_suggest against Tree.suggest on count random histories, with the shipped opening book given to
    both (gt_set_book: every tree of trees/book/) or to neither (book=None: the tree and the rule alone)."""
    path = REPO / "trees" / f"{name}.msgpack.zst"
    tree, c, rng = player.load(path), CTree(lib, path), random.Random(f"{name} {book}")
    openings = [CTree(lib, p) for p in sorted(BOOK.glob("*.msgpack.zst"))] if book else []
    handles = (ctypes.c_void_p * max(1, len(openings)))(*[o.handle for o in openings])
    assert lib.gt_set_book(c.handle, handles, len(openings)) == OK
    if not book:
        tree.book = None
    seen = {BY_RULE: 0, BY_TREE: 0, BY_SYMMETRY: 0, BY_BOOK: 0}
    try:
        for _ in range(count):
            steps = random_history(tree, rng)
            (answer, by), expected = c_suggest(lib, c, steps), py_suggest(tree, steps)
            assert same(answer, expected), f"{name} {steps}: C {answer}, Python {expected}"
            try:
                on_tree = tree.next_guess(steps) is not None or True
            except player.InconsistentHistory:
                on_tree = False
            assert (by == BY_TREE) == on_tree, (name, steps, by)
            seen[by] += 1
    finally:
        c.close()
        for opening in openings:
            opening.close()
    return seen


def test_off_the_tree_the_suggestion_is_python_s(lib):
    seen = {BY_RULE: 0, BY_TREE: 0, BY_SYMMETRY: 0, BY_BOOK: 0}
    for name in SUGGEST_TREES:
        for book in (False, True):
            for by, count in check_suggestions(lib, name, 15 if "wordle-hard" in name else 30, book).items():
                seen[by] += count
    assert seen[BY_RULE] > 150 and seen[BY_TREE] > 10 and seen[BY_SYMMETRY] > 5 and seen[BY_BOOK] > 10  # every way was taken


@pytest.mark.slow
@pytest.mark.parametrize("name", [p.name.removesuffix(".msgpack.zst") for p in TREES if p.parent.name == "trees"])
def test_off_the_tree_the_suggestion_is_python_s_in_every_tree(lib, name):
    check_suggestions(lib, name, 100, book=False)
    check_suggestions(lib, name, 100, book=True)


def test_the_book_s_index_names_each_tree_by_its_game_and_first_guess():
    """gtree reads no BOOK.json: it takes every tree of book/ as the opening for its game and its first
    guess, which is what the index says of each."""
    index = json.loads((BOOK / "BOOK.json").read_text())["openings"]
    assert sorted(o["file"] for o in index) == sorted(p.name for p in BOOK.glob("*.msgpack.zst"))
    for opening in index:
        tree = player.load(BOOK / opening["file"], book=None)
        assert tree.game.format_code(tree.guess_of(0)) == opening["first"]
    keys = [(json.dumps(o["game"], sort_keys=True), o["first"]) for o in index]
    assert len(set(keys)) == len(keys)


def test_a_suggestion_s_mistakes_are_python_s(lib):
    path = REPO / "trees" / "mastermind-c6-h4-entropy.msgpack.zst"
    tree, c = player.load(path), CTree(lib, path)
    tree.book = None
    game = tree.game
    for texts in ([("AAAA", "0B0W"), ("BBBB", "0B0W"), ("CCCC", "0B0W"), ("DDDD", "0B0W"), ("EEEE", "0B0W"), ("FFFF", "0B0W")],
                  [("ABCD", "4B0W"), ("ABCD", "0B0W")], [("AABB", "4B0W")], [("AABB", "1B0W"), ("ABCD", "1B1W")]):
        steps = [(game.parse_code(g), game.parse_feedback(f)) for g, f in texts]
        assert same(c_suggest(lib, c, steps)[0], py_suggest(tree, steps)), texts
    texts = (ctypes.c_char_p * 4)(b"AABB", b"1B0W", b"ABCD", b"1B1W")
    out, by = ctypes.create_string_buffer(16), ctypes.c_int()
    assert lib.gt_suggest_text(c.handle, texts, 2, 0, out, 16, ctypes.byref(by), ctypes.byref(c.error)) == OK
    assert out.value.decode() == game.format_code(tree.suggest([("AABB", "1B0W"), ("ABCD", "1B1W")])) and by.value == BY_RULE
    c.close()


def test_gtree_next_off_the_tree_suggests_as_guesstree_next(lib):
    for name, history in (("wordle-salet-optimal-expected", ["moist", "Y----"]),  # no opening in the book
                          ("wordle-salet-optimal-expected", ["crane", "Y----"]), ("mastermind-c6-h4-entropy", ["AABB", "1B0W"]),
                          ("mastermind-c8-h5-entropy", ["AABBC", "1B0W", "CDEFG", "0B2W"]),
                          ("bulls-cows-d10-l4-minimax", ["5678", "0A1B"]), ("twod-s5-entropy", ["1,1", "<="])):
        c = gtree("next", name, *history)
        python = subprocess.run([sys.executable, "-m", "guesstree", "next", name, *history, "--json"], capture_output=True,
                                text=True)
        assert c.returncode == python.returncode == 0, (name, c.stderr, python.stderr)
        answer = json.loads(python.stdout)
        assert c.stdout == f"{answer['guess']}\n"
        assert {k: v for k, v in json.loads(gtree("next", name, *history, "--json").stdout).items() if k != "by"} == answer
    renamed = player.load_shipped("mastermind-c7-h4-optimal-expected").guess_of(0)  # no book: its tree by symmetry
    renamed = "".join("ABCDEFG"[{0: 1, 1: 0}.get(s, s)] for s in renamed)  # A and B swapped: the same class
    for name, history, by in (("mastermind-c7-h4-optimal-expected", [renamed, "1B1W"], "symmetry"),
                              ("mastermind-c6-h4-entropy", ["AABB", "1B0W", "CCDD", "0B1W"], "rule"),
                              ("mastermind-c6-h4-entropy", ["AABB", "1B0W"], "book"), ("mastermind-c6-h4-entropy", [], "tree")):
        tree = player.load_shipped(name)
        expected = tree.game.format_code(tree.suggest(list(zip(history[::2], history[1::2]))))
        done = gtree("next", name, *history, "--json")
        left = len(tree.candidates(list(zip(history[::2], history[1::2]))))
        assert json.loads(done.stdout) == {"guess": expected, "won": False, "on_tree": by == "tree", "candidates": left, "by": by}


def test_a_book_tree_that_cannot_be_opened_spoils_no_other_suggestion(lib, tmp_path):
    """A damaged file in book/ is left out: the book's other openings and every other game answer as
    without it, where one bad tree made gtree next refuse every history off the tree."""
    shutil.copy(REPO / "trees" / "mastermind-c6-h4-entropy.msgpack.zst", tmp_path)
    shutil.copy(REPO / "trees" / "twod-s5-entropy.msgpack.zst", tmp_path)
    (tmp_path / "book").mkdir()
    shutil.copy(BOOK / "mastermind-c6-h4-optimal-expected-first-aabb.msgpack.zst", tmp_path / "book")
    (tmp_path / "book" / "broken.msgpack.zst").write_bytes(b"not a tree")
    env = {**os.environ, "GUESSTREE_TREES": str(tmp_path)}
    for name, history, by in (("mastermind-c6-h4-entropy", ["AABB", "1B0W"], "book"), ("twod-s5-entropy", ["1,1", "<="], "rule")):
        done = subprocess.run([str(BUILD / "gtree"), "next", name, *history, "--json"], capture_output=True, text=True, env=env)
        assert done.returncode == 0 and not done.stderr, done.stderr
        tree = player.load_shipped(name)  # the shipped book holds the same opening for AABB, and none for twod
        assert json.loads(done.stdout)["by"] == by
        assert json.loads(done.stdout)["guess"] == tree.game.format_code(tree.suggest(list(zip(history[::2], history[1::2]))))


def test_a_header_s_huge_worst_case_is_no_overflow_under_the_sanitizers(tmp_path):
    """stats.worst is any uint64 in a file; the rule's look-ahead adds to it. Under UBSan a worst case
    of 2^63 - 1 answers as Python answers (the look-ahead is bounded by the steps a tree may play)."""
    make("sanitize")
    fuzz = fuzz_module()
    document, body = fuzz.unpack((REPO / "trees" / "mastermind-c4-h5-optimal-worst.msgpack.zst").read_bytes())
    document["stats"] = {**document["stats"], "worst": 2**63 - 1}
    path = tmp_path / "worst.msgpack.zst"
    path.write_bytes(fuzz.pack(document))
    tree = player.load(path, book=None)
    env = {**os.environ, "GUESSTREE_TREES": str(tmp_path), "UBSAN_OPTIONS": "print_stacktrace=1"}
    for history in (["AAAAA", "0B0W"], ["AAAAB", "1B0W"]):  # neither in the tree's first guess's class: the rule
        done = subprocess.run([str(BUILD / "asan" / "gtree"), "next", str(path), *history, "--json"], capture_output=True,
                              text=True, env=env)
        assert done.returncode == 0 and not done.stderr, done.stderr[-3000:]
        answer = json.loads(done.stdout)
        assert answer["by"] == "rule" and answer["guess"] == tree.game.format_code(tree.suggest(list(zip(history[::2], history[1::2]))))


# -- install: make install, pkg-config, CMake's find_package -------------------------------------------------
CONSUMER = r"""#include <stdio.h>
#include <guesstree.h>

/* consumer TREE [GUESS FEEDBACK]: the library's version, then the suggestion after the history */
int main(int argc, char **argv)
{
    gt_tree *tree = NULL;
    gt_error error;
    char guess[64];
    if (argc < 2 || gt_open_file(&tree, argv[1], NULL, &error) != GT_OK) return 1;
    if (gt_suggest_text(tree, (const char *const *)argv + 2, (size_t)(argc - 2) / 2, 0, guess, sizeof guess, NULL, &error) != GT_OK) {
        fprintf(stderr, "error: %s\n", error.message);
        return 1;
    }
    printf("%s %d.%d.%d %s\n", gt_version(), GT_VERSION_MAJOR, GT_VERSION_MINOR, GT_VERSION_PATCH, guess);
    gt_close(tree);
    return 0;
}
"""


def consumer_answer(run: list[str], **kwargs) -> str:
    import guesstree

    path = REPO / "trees" / "mastermind-c6-h4-entropy.msgpack.zst"
    done = subprocess.run([*run, str(path), "AABB", "1B0W"], capture_output=True, text=True, **kwargs)
    assert done.returncode == 0, done.stderr
    tree = player.load(path)
    tree.book = None
    expected = tree.game.format_code(tree.suggest([("AABB", "1B0W")]))
    assert done.stdout == f"{guesstree.__version__} {guesstree.__version__} {expected}\n"
    return done.stdout


def test_make_install_lays_out_what_a_packager_expects_and_uninstall_takes_it_away(lib, tmp_path):
    import guesstree

    version, major = guesstree.__version__, guesstree.__version__.split(".")[0]
    make("install", "PREFIX=/usr", "LIBDIR=/usr/lib/x86_64-linux-gnu", f"DESTDIR={tmp_path}")
    lib_dir = tmp_path / "usr" / "lib" / "x86_64-linux-gnu"
    assert (tmp_path / "usr" / "include" / "guesstree.h").read_bytes() == (C / "guesstree.h").read_bytes()
    assert (lib_dir / "libguesstree.a").is_file() and (lib_dir / f"libguesstree.so.{version}").is_file()
    assert os.readlink(lib_dir / f"libguesstree.so.{major}") == f"libguesstree.so.{version}"
    assert os.readlink(lib_dir / "libguesstree.so") == f"libguesstree.so.{major}"
    dynamic = subprocess.run(["readelf", "-d", str(lib_dir / f"libguesstree.so.{version}")], capture_output=True, text=True).stdout
    assert f"Library soname: [libguesstree.so.{major}]" in dynamic
    pc = (lib_dir / "pkgconfig" / "guesstree.pc").read_text()
    assert "prefix=/usr\n" in pc and "libdir=${prefix}/lib/x86_64-linux-gnu\n" in pc and f"Version: {version}\n" in pc
    assert re.search(r"^(Requires\.private: libzstd|Libs\.private: .*-lzstd)$", pc, re.M)
    shipped = sorted(p.name for p in (REPO / "trees").glob("*.msgpack.zst"))
    installed = tmp_path / "usr" / "share" / "guesstree" / "trees"
    assert sorted(p.name for p in installed.iterdir() if p.is_file()) == shipped
    assert sorted(p.name for p in (installed / "book").iterdir()) == sorted(
        p.name for p in BOOK.iterdir() if p.name != "RANKINGS.json")  # (the review's, which gtree does not read)
    assert (tmp_path / "usr" / "bin" / "gtree").is_file()
    make("uninstall", "PREFIX=/usr", "LIBDIR=/usr/lib/x86_64-linux-gnu", f"DESTDIR={tmp_path}")
    assert not [p for p in tmp_path.rglob("*") if p.is_file() or p.is_symlink()]


def test_an_installed_library_is_found_by_pkg_config_and_gtree_finds_the_installed_trees(lib, tmp_path):
    if not shutil.which("pkg-config"):
        pytest.fail("the install test needs pkg-config (apt-get install pkg-config)")
    prefix = tmp_path / "prefix"
    make("install", f"PREFIX={prefix}")
    (tmp_path / "consumer.c").write_text(CONSUMER)
    env = {**os.environ, "PKG_CONFIG_PATH": f"{prefix / 'lib' / 'pkgconfig'}:{os.environ.get('PKG_CONFIG_PATH', '')}"}
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "guesstree"], capture_output=True, text=True, env=env)
    assert flags.returncode == 0, flags.stderr
    assert f"-I{prefix / 'include'}" in flags.stdout and f"-L{prefix / 'lib'}" in flags.stdout and "-lguesstree" in flags.stdout
    compiled = subprocess.run(["cc", "-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror", "consumer.c", "-o", "consumer",
                               *flags.stdout.split(), f"-Wl,-rpath,{prefix / 'lib'}"], cwd=tmp_path, capture_output=True, text=True)
    assert compiled.returncode == 0, compiled.stderr
    consumer_answer([str(tmp_path / "consumer")])
    linked = subprocess.run(["ldd", str(tmp_path / "consumer")], capture_output=True, text=True).stdout
    assert f"{prefix / 'lib' / 'libguesstree.so.0'}" in linked  # by its soname
    static = subprocess.run(["pkg-config", "--static", "--libs", "guesstree"], capture_output=True, text=True, env=env).stdout
    assert "-lzstd" in static
    # the installed gtree finds the installed trees by name, from anywhere, without $GUESSTREE_TREES
    env = {k: v for k, v in os.environ.items() if k != "GUESSTREE_TREES"}
    done = subprocess.run([str(prefix / "bin" / "gtree"), "next", "mastermind-c6-h4-entropy"], capture_output=True, text=True,
                          cwd=tmp_path, env=env)
    assert done.returncode == 0 and done.stdout == "ABCD\n"
    done = subprocess.run([str(prefix / "bin" / "gtree"), "next", "mastermind-c6-h4-entropy", "AABB", "1B0W", "--json"],
                          capture_output=True, text=True, cwd=tmp_path, env=env)
    assert json.loads(done.stdout)["by"] == "book"  # and its installed opening book
    listed = subprocess.run([str(prefix / "bin" / "gtree"), "trees"], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert listed.stdout.splitlines()[-1].endswith(f"trees in {prefix / 'share' / 'guesstree' / 'trees'}")


CMAKE_PROJECT = """cmake_minimum_required(VERSION 3.13)
project(consumer LANGUAGES C)
find_package(guesstree {version} CONFIG REQUIRED)
add_executable(consumer consumer.c)
target_link_libraries(consumer PRIVATE guesstree::guesstree)
add_executable(consumer_shared consumer.c)
target_link_libraries(consumer_shared PRIVATE guesstree::guesstree_shared)
"""


def cmake(*arguments: str, cwd: Path | None = None) -> None:
    done = subprocess.run(["cmake", *arguments], capture_output=True, text=True, cwd=cwd)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.slow
def test_cmake_install_is_found_by_find_package_from_another_project(tmp_path):
    import guesstree

    if not shutil.which("cmake"):
        pytest.fail("the CMake build needs cmake (apt-get install cmake)")
    prefix = tmp_path / "prefix"
    cmake("-S", str(C), "-B", str(tmp_path / "build"), f"-DCMAKE_INSTALL_PREFIX={prefix}")
    cmake("--build", str(tmp_path / "build"), "-j2")
    cmake("--install", str(tmp_path / "build"))
    assert (prefix / "lib" / "pkgconfig" / "guesstree.pc").is_file()
    assert (prefix / "lib" / "cmake" / "guesstree" / "guesstreeConfigVersion.cmake").is_file()
    project = tmp_path / "project"
    project.mkdir()
    (project / "consumer.c").write_text(CONSUMER)
    (project / "CMakeLists.txt").write_text(CMAKE_PROJECT.format(version=guesstree.__version__))
    prefixes = ";".join([str(prefix), *filter(None, os.environ.get("CMAKE_PREFIX_PATH", "").split(":"))])
    cmake("-S", str(project), "-B", str(project / "build"), f"-DCMAKE_PREFIX_PATH={prefixes}")
    cmake("--build", str(project / "build"))
    consumer_answer([str(project / "build" / "consumer")])
    consumer_answer([str(project / "build" / "consumer_shared")])  # found through the build's rpath
    done = subprocess.run([str(prefix / "bin" / "gtree"), "next", "twod-s5-entropy"], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0 and done.stdout == "2,2\n"
    # and a version this package is not: refused
    (project / "CMakeLists.txt").write_text(CMAKE_PROJECT.format(version="9.0"))
    refused = subprocess.run(["cmake", "-S", str(project), "-B", str(tmp_path / "again"), f"-DCMAKE_PREFIX_PATH={prefixes}"],
                             capture_output=True, text=True)
    assert refused.returncode != 0 and "guesstree" in refused.stderr
    # cmake --install --prefix elsewhere puts every file there, and guesstree.pc names where they are
    staged = tmp_path / "staged"
    cmake("--install", str(tmp_path / "build"), "--prefix", str(staged))
    assert sorted(p.name for p in (staged / "share" / "guesstree" / "trees").glob("*.msgpack.zst")) == \
        sorted(p.name for p in (REPO / "trees").glob("*.msgpack.zst"))
    assert (staged / "share" / "guesstree" / "trees" / "book" / "BOOK.json").is_file()
    if shutil.which("pkg-config"):
        for root in (prefix, staged):
            env = {**os.environ, "PKG_CONFIG_PATH": str(root / "lib" / "pkgconfig")}
            asked = subprocess.run(["pkg-config", "--variable=treesdir", "guesstree"], capture_output=True, text=True, env=env)
            assert Path(asked.stdout.strip()).resolve() == (root / "share" / "guesstree" / "trees").resolve()
            flags = subprocess.run(["pkg-config", "--cflags", "guesstree"], capture_output=True, text=True, env=env).stdout
            assert Path(flags.split()[0].removeprefix("-I")).resolve() == (root / "include").resolve()


@pytest.mark.slow
def test_a_project_that_builds_it_with_add_subdirectory_has_the_same_targets(tmp_path):
    if not shutil.which("cmake"):
        pytest.fail("the CMake build needs cmake (apt-get install cmake)")
    (tmp_path / "consumer.c").write_text(CONSUMER)
    (tmp_path / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.13)\nproject(parent LANGUAGES C)\n"
        f'add_subdirectory("{C.as_posix()}" guesstree)\n'
        "add_executable(consumer consumer.c)\ntarget_link_libraries(consumer PRIVATE guesstree::guesstree)\n"
        "add_executable(consumer_shared consumer.c)\ntarget_link_libraries(consumer_shared PRIVATE guesstree_shared)\n")
    cmake("-S", str(tmp_path), "-B", str(tmp_path / "build"))
    cmake("--build", str(tmp_path / "build"), "-j2")
    consumer_answer([str(tmp_path / "build" / "consumer")])
    consumer_answer([str(tmp_path / "build" / "consumer_shared")])


def test_a_suggestion_takes_its_memory_from_the_tree_s_allocator_and_gives_it_all_back(lib):
    """A fixed buffer: a suggestion off the tree fits in it beside the tree and leaves it as it found it
    (its blocks given back last taken first, as a gt_arena needs); a buffer too small for it is
    GT_E_NO_MEMORY, and the tree still answers."""
    path = REPO / "trees" / "wordle-salet-optimal-expected.msgpack.zst"
    tree = player.load(path)
    tree.book = None
    steps = [(tree.game.parse_code("moist"), tree.game.parse_feedback("Y----"))]
    expected = py_suggest(tree, steps)
    buffer = ctypes.create_string_buffer(4 << 20)
    for room in (4 << 20, None):
        arena = Arena()
        lib.gt_arena_init(ctypes.byref(arena), buffer, 4 << 20)
        c = CTree(lib, path, options=Options(ctypes.pointer(arena.allocator), 1))
        opened = (arena.used, arena.blocks)
        if room is None:  # the tree's own blocks and a few more bytes
            arena.size = arena.used + 4096
        answer, by = c_suggest(lib, c, steps)
        if room is None:
            assert answer == ("error", 26, "no memory left to suggest a guess")  # GT_E_NO_MEMORY
        else:
            assert same(answer, expected) and by == BY_RULE
        assert (arena.used, arena.blocks) == opened
        assert c.next_guess([]) == ("guess", tree.next_guess([]))
        c.close()
        assert arena.blocks == 0


# -- a win only on a code that can be the secret ----------------------------------------------------
WINS_NO_SECRET_GIVES = [  # the tree's own guesses, each answered with the win
    ["wordle-salet-optimal-expected", "salet", "GGGGG"],  # SALET is no answer
    ["mastermind-c6-h4-distinct-entropy", "AABC", "4B0W"],  # secrets have distinct colours
    ["mastermind-c6-h4-entropy", "ABCD", "0B0W", "AEEF", "4B0W"],  # 0B0W: the secret has no A
]


@pytest.mark.parametrize("arguments", WINS_NO_SECRET_GIVES, ids=lambda a: " ".join(a))
def test_gtree_refuses_a_win_no_secret_gives_as_guesstree_does(lib, arguments):
    shown = ", ".join(f"{guess.upper()} {feedback}" for guess, feedback in zip(arguments[1::2], arguments[2::2]))
    for json_flag in ([], ["--json"]):
        c = gtree("next", *arguments, *json_flag)
        python = subprocess.run([sys.executable, "-m", "guesstree", "next", *arguments, *json_flag], capture_output=True,
                                text=True, cwd=REPO)
        assert c.returncode == python.returncode == 2 and not c.stdout
        assert c.stderr == python.stderr == f"error: no secret gives all these answers: {shown}\n"
    tree = player.load_shipped(arguments[0])
    c = CTree(lib, REPO / "trees" / f"{arguments[0]}.msgpack.zst")
    steps = [(tree.game.parse_code(g), tree.game.parse_feedback(f)) for g, f in zip(arguments[1::2], arguments[2::2])]
    texts = list(zip(arguments[1::2], arguments[2::2]))
    refused = ("error", "GT_E_NO_SECRET", f"no secret gives all these answers: {shown}")
    assert c.next_guess(steps) == c.next_guess_text(texts) == c_suggest(lib, c, steps)[0] == refused
    c.close()


@pytest.mark.parametrize("name", ["mastermind-c6-h4-entropy", "mastermind-c6-h4-distinct-entropy",
                                  "bulls-cows-d10-l3-optimal-expected", "twod-s5-entropy"])
def test_a_win_at_every_node_is_python_s(lib, name):
    """At each node, the winning feedback to the tree's guess there: gt_next_guess and gt_suggest say
    GT_WON exactly where Python's next_guess and suggest say won (where some secret gives the
    history), else GT_E_NO_SECRET with Python's message."""
    path = REPO / "trees" / f"{name}.msgpack.zst"
    tree, c = player.load(path, book=None), CTree(lib, path)
    game, won = tree.game, 0
    below = [(0, [])]
    while below:
        node, steps = below.pop()
        guess = tree.guess_of(node)
        history = steps + [(guess, game.win)]
        expected = py_next(tree, history)
        assert same(c.next_guess(history), expected) and same(c_suggest(lib, c, history)[0], py_suggest(tree, history)), history
        assert expected == ("won",) or c.next_guess(history)[1] == "GT_E_NO_SECRET"
        won += expected == ("won",)
        below.extend((child, steps + [(guess, feedback)]) for feedback, child in tree.edges(node))
    c.close()
    assert won == tree.stats.secrets <= tree.nodes  # twod: every guess of its tree can be the secret

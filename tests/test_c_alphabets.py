"""The C player (player/c) on words of other alphabets and on weighted answers (issue 68), against
the Python player as the oracle: trees of Spanish (ñ, á, ü...), Ukrainian (Cyrillic, with є, і,
ї and ґ past я in code point order) and Greek (ς, shown as itself: Σ is σ's) words, compiled by the
Python compiler, whole and chunked, hard mode too: every secret's path, histories on and off the tree as ints and as text typed in capitals
and in lower case, the candidates, the help off the tree, the words shown and typed, hostile
``alphabet``, ``capitals`` and ``answer_weights`` refused under AddressSanitizer and
UndefinedBehaviorSanitizer, and the ties of weighted answers off the tree.

The word lists are tests/data/alphabets/ (chosen by hand); ``-m slow`` adds trees of samples of
Debian's /usr/share/dict/spanish and ukrainian (tests/debian_words.py; .ci/run installs them).
"""
from __future__ import annotations

import ctypes
import functools
import os
import random
import re
import subprocess
import sys
import tempfile
import unicodedata
from pathlib import Path

import pytest

from guesstree import player
from guesstree.player.artifact import decode, encode_chunked
from guesstree.player.encoding import encode
from test_c_player import (BUILD, OK, CTree, Error, Text, c_library, c_suggest, histories, ints, make, py_next, py_suggest,
                           random_history, same)

REPO = Path(__file__).resolve().parent.parent
LISTS = REPO / "tests" / "data" / "alphabets"
AZ = "abcdefghijklmnopqrstuvwxyz"


@pytest.fixture(scope="module")
def lib():
    return c_library()


def compiled(answers: Path, guesses: Path | None, hard: bool = False, strategy: str = "entropy") -> bytes:
    """A words tree as ``guesstree compile words`` makes it."""
    from guesstree.compiler import Options, build, to_bytes
    from guesstree.player.games import make_game

    params = {"answers": str(answers), "hard": hard}
    if guesses is not None:
        params["guesses"] = str(guesses)
    return to_bytes(build(make_game("words", **params), Options(strategy=strategy)))


def chunked(data: bytes, nodes: int = 8) -> bytes:
    """The same tree in the chunked layout, chunks of ``nodes`` nodes (a path crosses several)."""
    document, body = decode(data)
    return encode_chunked(header_of(document), body, nodes)


def header_of(document: dict) -> dict:
    return {k: v for k, v in document.items() if k not in ("format", "version", "body_sha256")}


@functools.cache
def alphabet_tree(name: str, hard: bool = False) -> bytes:
    """The tree of tests/data/alphabets/NAME-answers.txt and NAME-guesses.txt."""
    return compiled(LISTS / f"{name}-answers.txt", LISTS / f"{name}-guesses.txt", hard)


@pytest.fixture(scope="module")
def trees() -> dict[str, bytes]:
    """Spanish, Ukrainian and Greek words, whole and chunked; Spanish in hard mode."""
    made = {"es": alphabet_tree("es"), "uk": alphabet_tree("uk"), "el": alphabet_tree("el"), "es-hard": alphabet_tree("es", True)}
    made.update({f"{name}-chunked": chunked(data) for name, data in list(made.items())})
    return made


def opened(lib, name: str, data: bytes) -> tuple[player.Tree, CTree]:
    return player.loads(data, name), CTree(lib, data=data, name=name)


def lower(text: str) -> str:
    """A word as a person types it in lower case (the letters of these alphabets are their lower forms)."""
    return text.lower()


# -- the trees play as Python's -------------------------------------------------------------------------
def test_the_trees_carry_their_alphabet_in_format_1_3(trees):
    for name, data in trees.items():
        document, _ = decode(data)
        params = document["game"]["params"]
        assert document["version"] == ([2, 1] if "chunked" in name else [1, 3]), name
        assert len(params["alphabet"]) == len(params["capitals"]) and set(params["alphabet"]) - set(AZ), name
    assert "ñ" in decode(trees["es"])[0]["game"]["params"]["alphabet"]
    assert decode(trees["uk"])[0]["game"]["params"]["alphabet"].endswith("ґ")  # code point order: ґ (U+0491) last
    greek = decode(trees["el"])[0]["game"]["params"]
    capital = dict(zip(greek["alphabet"], greek["capitals"]))
    assert (capital["σ"], capital["ς"]) == ("Σ", "ς")


def test_every_secret_takes_python_s_path(lib, trees):
    for name, data in trees.items():
        tree, c = opened(lib, name, data)
        wrong = [s for s in tree.game.secrets if c.path(s) != tree.path(s)]
        assert not wrong, (name, wrong[:3])
        assert c.info.secrets == len(tree.game.secrets) and c.info.symbols == len(tree.game.alphabet.letters)
        c.close()


def test_histories_on_and_off_the_tree_answer_as_python_as_ints_and_as_typed_text(lib, trees):
    rng = random.Random(68)
    compared = typed = errors = 0
    for name, data in trees.items():
        tree, c = opened(lib, name, data)
        game = tree.game
        for history in histories(tree, rng, 12):
            expected = py_next(tree, history)
            assert same(c.next_guess(history), expected), (name, history, c.next_guess(history), expected)
            compared += 1
            errors += expected[0] == "error"
            if not all(f in game.feedback_set for _, f in history):
                continue
            for case in (str, lower):  # typed in capitals (as shown) and in lower case
                text = [(case(game.format_code(g)), game.format_feedback(f)) for g, f in history]
                assert same(c.next_guess_text(text), py_next(tree, text, True)), (name, text)
                typed += 1
        c.close()
    assert compared > 300 and typed > 300 and errors > 50


def test_candidates_are_python_s(lib, trees):
    rng = random.Random(3)
    for name, data in trees.items():
        tree, c = opened(lib, name, data)
        game = tree.game
        for _ in range(10):
            secret = rng.choice(game.secrets)
            guess = rng.choice(game.guesses)
            played = tree.path(secret)[:1]
            for history in (played, played + [(guess, game.score(guess, secret))]):
                expected = tree.candidates(history)
                assert c.candidates(history) == (len(expected), expected[:50]), (name, history)
        c.close()


def test_off_the_tree_the_suggestion_is_python_s(lib, trees):
    seen = {"rule": 0, "tree": 0}
    for name, data in trees.items():
        tree, c = opened(lib, name, data)
        tree.book = None
        rng = random.Random(name)
        for _ in range(40):
            steps = random_history(tree, rng)
            (answer, by), expected = c_suggest(lib, c, steps), py_suggest(tree, steps)
            assert same(answer, expected), (name, steps, answer, expected)
            seen["tree" if by == 1 else "rule"] += 1
        c.close()
    assert seen["rule"] > 50 and seen["tree"] > 10


# -- words shown and typed ---------------------------------------------------------------------------------
def test_words_are_shown_by_their_capitals_and_the_alphabet_is_the_tree_s(lib, trees):
    for name in ("es", "uk", "el"):
        tree, c = opened(lib, name, trees[name])
        params = decode(trees[name])[0]["game"]["params"]
        letters, capitals = Text(), Text()
        assert lib.gt_get_alphabet(c.handle, ctypes.byref(letters), ctypes.byref(capitals)) == OK
        assert (str(letters), str(capitals)) == (params["alphabet"], params["capitals"])
        for code in tree.game.guesses:
            assert c.format(code, False) == tree.game.format_code(code)
        c.close()
    tree, c = opened(lib, "es", trees["es"])
    niñas = tree.game.parse_code("niñas")
    assert c.format(niñas, False) == "NIÑAS" and c.parse("NIÑAS", False) == c.parse("niñas", False) == c.parse(" Niñas ", False) == niñas
    c.close()
    tree, c = opened(lib, "el", trees["el"])
    λόγος = tree.game.parse_code("λόγος")
    assert c.format(λόγος, False) == "ΛΌΓΟς" and c.parse("ΛΌΓΟς", False) == c.parse("λόγος", False) == λόγος
    assert c.parse("ΛΌΓΟΣ", False) == tree.game.parse_code("λόγοσ")  # Σ is σ's capital: no word of the game
    c.close()


def test_an_a_z_tree_has_the_alphabet_a_z_and_every_game_a_weight_of_one(lib):
    c = CTree(lib, REPO / "trees" / "wordle-salet-optimal-expected.msgpack.zst")
    letters, capitals, weight = Text(), Text(), Text()
    assert lib.gt_get_alphabet(c.handle, ctypes.byref(letters), ctypes.byref(capitals)) == OK
    assert (str(letters), str(capitals)) == ("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    assert lib.gt_get_weight(c.handle, ints([2, 17, 0, 13, 4], 5), ctypes.byref(weight)) == OK and str(weight) == "1"
    assert lib.gt_get_weight(c.handle, ints([0, 0, 0, 0, 0], 5), ctypes.byref(weight)) == 40  # AAAAA: no secret
    c.close()
    pegs = CTree(lib, REPO / "trees" / "mastermind-c6-h4-entropy.msgpack.zst")
    assert lib.gt_get_alphabet(pegs.handle, ctypes.byref(letters), ctypes.byref(capitals)) == 40  # no words game
    pegs.close()


def typed_texts(tree: player.Tree, rng: random.Random, count: int) -> list[str]:
    """Random texts of the game's letters and capitals, letters of other alphabets, ASCII and spaces."""
    alphabet = tree.game.alphabet
    others = "abcxyzABCXYZñÑüéΣσςßиІїҐ09 ,-'\"\\\t"
    pool = alphabet.letters + alphabet.capitals + others
    texts = ["".join(rng.choice(pool) for _ in range(rng.randrange(8))) for _ in range(count)]
    words = [tree.game.format_code(code) for code in rng.sample(list(tree.game.guesses), 20)]
    return texts + words + [w.lower() for w in words] + [w.title() for w in words]


def as_the_c_player_names(message: str) -> str:
    """Python's message with the name of a character past ASCII left out, as the C player writes it
    (it carries no Unicode tables: 'ы' (U+044B), where Python writes 'ы' (U+044B CYRILLIC SMALL LETTER YERU))."""
    return re.sub(r"\(U\+([0-9A-F]{4,6}) [^)]*\)", lambda m: m[0] if int(m[1], 16) < 0x80 else f"(U+{m[1]})", message)


def test_typed_words_are_read_and_refused_as_python_reads_them(lib, trees):
    rng = random.Random(11)
    refused = named = 0
    for name in ("es", "uk", "el"):
        tree, c = opened(lib, name, trees[name])
        for text in typed_texts(tree, rng, 400):
            try:
                expected = tree.game.parse_code(text)
            except ValueError as error:
                expected = ("error", as_the_c_player_names(str(error)))
                named += as_the_c_player_names(str(error)) == str(error) and "(U+" in str(error)
            refused += expected[0] == "error"
            assert c.parse(text, False) == expected, (name, text)
        c.close()
    assert refused > 300 and named > 100  # ASCII's names are Python's to the letter


def test_the_c_player_takes_typed_text_as_given_without_nfc(lib, trees):
    """'niñas' typed as n, i, n and U+0303 COMBINING TILDE: the Python player normalises it to NFC, the
    C player (no Unicode tables) refuses it, naming the combining mark; text that is not UTF-8 is refused."""
    tree, c = opened(lib, "es", trees["es"])
    decomposed = unicodedata.normalize("NFD", "niñas")
    assert decomposed != "niñas" and tree.game.parse_code(decomposed) == tree.game.parse_code("niñas")
    answer = c.parse(decomposed, False)
    assert answer[0] == "error" and "'\u0303' (U+0303) is not one of this game's letters" in answer[1]
    out, error = ints([], 12), Error()
    assert lib.gt_parse_code(c.handle, b"ni\xf1as", out, ctypes.byref(error)) == 41  # Latin-1, not UTF-8
    assert error.message.decode() == "'ni\\xf1as' is not a word: it is not UTF-8 text"  # the message is, its byte shown
    c.close()


def test_gtree_plays_words_typed_in_either_case(lib, trees, tmp_path):
    for name in ("es", "uk"):
        path = tmp_path / f"{name}.msgpack.zst"
        path.write_bytes(trees[name])
        tree = player.loads(trees[name], name)
        for secret in random.Random(name).sample(list(tree.game.secrets), 5):
            shown = [tree.game.format_code(g) for g, _ in tree.path(secret)]
            for typed in (tree.game.format_code(secret), tree.game.format_code(secret).lower()):
                done = subprocess.run([str(BUILD / "gtree"), "path", str(path), typed], capture_output=True, text=True)
                assert done.returncode == 0 and done.stdout.split() == shown, (name, typed, done.stderr)
        first = tree.game.format_code(tree.next_guess([]))
        info = subprocess.run([str(BUILD / "gtree"), "info", str(path)], capture_output=True, text=True)
        assert info.returncode == 0 and info.stdout.splitlines()[0] == f"game       {tree.game}"
        assert f"first      {first}" in info.stdout


def long_path(lib, c: CTree, secret, most: int = 512):
    """gt_path with room for most steps."""
    guesses, feedbacks, steps = ints([], most * c.h), ints([], most * c.w), ctypes.c_size_t()
    status = lib.gt_path(c.handle, ints(secret, c.h), guesses, feedbacks, most, ctypes.byref(steps), ctypes.byref(c.error))
    assert status == OK, c.message
    return [(tuple(guesses[k * c.h:(k + 1) * c.h]), tuple(feedbacks[k * c.w:(k + 1) * c.w])) for k in range(steps.value)]


def test_the_most_letters_an_alphabet_has_are_played_as_python(lib, tmp_path):
    """255 letters (CJK ideographs, each its own capital), codes up to 254: every secret's path and
    the text of each guess as Python's."""
    rng = random.Random(255)
    letters = [chr(0x4E00 + k) for k in range(255)]
    words = sorted({a + b for a, b in zip(letters, rng.sample(letters, 255))} | {"".join(rng.sample(letters, 2)) for _ in range(200)})
    answers = tmp_path / "cjk.txt"
    answers.write_text("".join(w + "\n" for w in words), encoding="utf-8")
    tree, c = opened(lib, "cjk", compiled(answers, None))
    assert c.info.symbols == 255 and len(tree.game.alphabet.letters) == 255
    wrong = [s for s in tree.game.secrets if long_path(lib, c, s) != tree.path(s)]
    assert not wrong, wrong[:3]
    assert c.info.worst > 64  # (few letters in common: a long game, longer than CTree.path's 64 steps)
    for code in tree.game.guesses[::7]:
        assert c.format(code, False) == tree.game.format_code(code) and c.parse(tree.game.format_code(code), False) == code
    c.close()


def test_gtree_under_the_sanitizers_reads_any_typed_text_and_plays_every_alphabet(trees, tmp_path):
    """gtree built with AddressSanitizer and UndefinedBehaviorSanitizer: info, path and next on each
    alphabet's tree, words typed in either case, text that is no word (not UTF-8, too long, other
    scripts): answers or one error line, no report."""
    make("sanitize")
    environment = {**os.environ, "ASAN_OPTIONS": "detect_leaks=1:abort_on_error=0", "UBSAN_OPTIONS": "print_stacktrace=1",
                   "GUESSTREE_TREES": str(tmp_path)}
    junk = [b"\xff\xfe", b"ni\xc3", "ñ".encode() * 100, "ж€".encode() * 300, b"a" * 5000, "ΛΌΓΟΣ".encode(), "ЖЖЖЖЖ".encode(), b"", b" ",
            "n\u0303ino".encode(), "🟩🟩🟩🟩🟩".encode()]
    runs = 0
    for name in ("es", "uk", "el", "es-hard-chunked"):
        path = tmp_path / f"{name}.msgpack.zst"
        path.write_bytes(trees[name])
        tree = player.loads(trees[name], name)
        secret = random.Random(name).choice(tree.game.secrets)
        played = tree.path(secret)
        shown = tree.game.format_code(secret)
        commands = [[b"info", path], [b"path", path, shown.encode()], [b"path", path, shown.lower().encode()]]
        commands += [[b"next", path, *[t.encode() for g, f in played[:k] for t in (tree.game.format_code(g).lower(),
                                                                                    tree.game.format_feedback(f))], b"--json"]
                     for k in range(len(played) + 1)]
        other = tree.game.format_code(random.Random(1).choice(tree.game.guesses)).encode()
        commands += [[b"next", path, other, b"Y----"], [b"next", path, other, b"-----", b"--any-guess"]]
        commands += [[b"path", path, text] for text in junk] + [[b"next", path, text, b"-----"] for text in junk]
        for command in commands:
            done = subprocess.run([str(BUILD / "asan" / "gtree"), *command], capture_output=True, env=environment, timeout=120)
            report = done.stderr.decode()  # a message is UTF-8, whatever was typed
            assert done.returncode in (0, 2) and "Sanitizer" not in report and "runtime error" not in report, (command, report)
            assert done.returncode == 0 or (report.startswith("error: ") and report.count("\n") == 1), (command, report)
            runs += 1
    assert runs > 100


# -- hostile alphabets, capitals and weights ------------------------------------------------------------------
def mutations(params: dict) -> dict[str, dict]:
    """Changes of a words tree's parameters that no writer makes: each must be refused."""
    a, c, words = params["alphabet"], params["capitals"], params["answer_words"]
    n, cjk = len(words.split(" ")), "".join(chr(0x4E00 + k) for k in range(256))
    ones = ["1"] * n

    def added(letter: str, capital: str) -> dict:  # one more letter, in code point order
        at = sorted(a + letter).index(letter)
        return {"alphabet": a[:at] + letter + a[at:], "capitals": c[:at] + capital + c[at:]}

    return {
        "alphabet-a-sign": added("×", "×"),
        "alphabet-a-capital": added("À", "À"),
        "alphabet-a-space": added("\u2003", "Ж"),
        "alphabet-an-emoji": added("🟩", "🟩"),
        "alphabet-unsorted": {"alphabet": a[1] + a[0] + a[2:]},
        "alphabet-repeated": {"alphabet": a[:-1] + a[0]},
        "alphabet-space": {"alphabet": " " + a[1:]},
        "alphabet-digit": {"alphabet": "0" + a[1:]},
        "alphabet-empty": {"alphabet": "", "capitals": ""},
        "alphabet-256": {"alphabet": cjk, "capitals": cjk},
        "alphabet-number": {"alphabet": 5},
        "alphabet-alone": {"capitals": None},
        "capitals-alone": {"alphabet": None},
        "capitals-short": {"capitals": c[:-1]},
        "capitals-long": {"capitals": c + "Ж"},
        "capitals-repeated": {"capitals": c[1] + c[1:]},
        "capitals-another-letter": {"capitals": a[1] + c[1:]},
        "words-outside-the-alphabet": {"answer_words": words.replace(words.split(" ")[0], "zzzzz")},
        "weights-all-one": {"answer_weights": " ".join(ones)},  # the game would write none
        "weights-long-form": {"answer_weights": " ".join(["2.50"] + ones[1:])},
        "weights-leading-zero": {"answer_weights": " ".join(["02"] + ones[1:])},
        "weights-too-few": {"answer_weights": " ".join(ones[1:])},
        "weights-too-many": {"answer_weights": " ".join(ones + ["1"])},
        "weights-zero": {"answer_weights": " ".join(["0"] + ones[1:])},
        "weights-zero-point": {"answer_weights": " ".join(["0.000"] + ones[1:])},
        "weights-negative": {"answer_weights": " ".join(["-1"] + ones[1:])},
        "weights-exponent": {"answer_weights": " ".join(["1e3"] + ones[1:])},
        "weights-point-alone": {"answer_weights": " ".join(["1."] + ones[1:])},
        "weights-two-spaces": {"answer_weights": "  ".join(ones)},
        "weights-trailing-space": {"answer_weights": " ".join(ones) + " "},
        "weights-a-list": {"answer_weights": [1] * n},
    }


def test_no_letter_the_python_reader_takes_is_refused_by_the_c_player(lib, trees):
    """Every letter of Unicode the Python reader takes in an alphabet (categories L and M, its own
    lower case and NFC) or as a capital (L and M), 255 at a time: the C player's partial rule (no
    Unicode tables) passes it, on to the words, which then use letters the alphabet has not."""
    from guesstree.player.letters import is_letter, normal_word

    letters = [chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF and is_letter(chr(c))]
    lower = [letter for letter in letters if normal_word(letter) == letter]
    base = "".join(lower[:255])
    others = [letter for letter in letters if letter not in set(base)]
    alphabets = [("".join(lower[k:k + 255]),) * 2 for k in range(0, len(lower), 255)]
    capitals = [(base, "".join((others[k:] + others)[:255])) for k in range(0, len(others), 255)]
    opened_whole = 0
    for letters_text, capitals_text in alphabets + capitals:
        data = mutated(trees["es"], {"alphabet": letters_text, "capitals": capitals_text})
        try:
            CTree(lib, data=data, name="letters").close()  # (base, the first 255, holds the Spanish words' letters)
            opened_whole += 1
        except ValueError as error:
            assert "answer_words is not a sorted list of distinct words" in str(error), (letters_text, capitals_text, error)
    assert len(alphabets) > 500 and len(capitals) > 500 and opened_whole == 1 + len(capitals)


def mutated(data: bytes, change: dict) -> bytes:
    document, body = decode(data)
    header = header_of(document)
    params = dict(header["game"]["params"])
    for key, value in change.items():
        if value is None:
            params.pop(key, None)
        else:
            params[key] = value
    header["game"] = {**header["game"], "params": params}
    return encode(header, body)


def corpus_decisions(folder: Path, files: dict[str, bytes]) -> dict[str, list[str]]:
    """The C reader's decision on each file (check-corpus under the sanitizers): file -> its fields."""
    make("sanitize")
    folder.mkdir(exist_ok=True)
    for name, data in files.items():
        (folder / name).write_bytes(data)
    environment = {**os.environ, "ASAN_OPTIONS": "detect_leaks=1:abort_on_error=0", "UBSAN_OPTIONS": "print_stacktrace=1"}
    done = subprocess.run([str(BUILD / "asan" / "check-corpus")], input="".join(f"{folder / n}\n" for n in files),
                          capture_output=True, text=True, env=environment, timeout=600)
    assert done.returncode == 0 and not done.stderr, done.stderr[-3000:]
    return {line.split("\t")[0]: line.split("\t")[1:] for line in done.stdout.splitlines()}


def test_hostile_alphabets_capitals_and_weights_are_refused_under_the_sanitizers(tmp_path, trees):
    files = {}
    for name in ("es", "uk"):
        params = decode(trees[name])[0]["game"]["params"]
        for kind, change in mutations(params).items():
            files[f"{name}-{kind}.msgpack.zst"] = mutated(trees[name], change)
        files[f"{name}-as-it-is.msgpack.zst"] = trees[name]
    decisions = corpus_decisions(tmp_path / "hostile", files)
    for file, data in files.items():
        decision = decisions[file]
        if file.endswith("as-it-is.msgpack.zst"):
            assert decision == ["loaded"], (file, decision)
            continue
        assert decision[:2] == ["refused", "GT_E_GAME"] and decision[2].startswith(f"{file}: "), (file, decision)
        with pytest.raises(ValueError):  # and the Python reader refuses it too
            player.loads(data, file)


def test_an_a_z_tree_that_writes_its_alphabet_is_refused_as_python_refuses_it(lib):
    """a-z is written as no alphabet: a tree that writes it was made by no writer."""
    data = (REPO / "trees" / "wordle-salet-optimal-expected.msgpack.zst").read_bytes()
    written = mutated(data, {"alphabet": AZ, "capitals": AZ.upper()})
    with pytest.raises(ValueError, match="does not take alphabet="):
        player.loads(written)
    with pytest.raises(ValueError, match=r"^GT_E_GAME: t: the game 'words' does not take alphabet='abcdefghijklmnopqrstuvwxyz' as "
                                         r"written \(a-z is written as no alphabet\)$"):
        CTree(lib, data=written, name="t")


def test_a_weighted_tree_s_damaged_statistics_are_refused_under_the_sanitizers(tmp_path):
    """The weighted statistics all three or none, each a positive number (GT_E_HEADER), as Python reads them."""
    document, body = decode(weighted_tree())
    header = header_of(document)
    files = {}
    for kind, change in {"partial": {"weighted_mean": None}, "zero": {"weighted_total": 0.0}, "negative": {"total_weight": -1},
                         "text": {"total_weight": "12"}, "infinite": {"weighted_mean": float("inf")}}.items():
        stats = dict(header["stats"])
        for key, value in change.items():
            if value is None:
                del stats[key]
            else:
                stats[key] = value
        files[f"stats-{kind}.msgpack.zst"] = encode({**header, "stats": stats}, body)
    files["stats-as-written.msgpack.zst"] = encode(header, body)
    decisions = corpus_decisions(tmp_path / "stats", files)
    for file, data in files.items():
        if file == "stats-as-written.msgpack.zst":
            assert decisions[file] == ["loaded"] and player.loads(data).stats.weighted
            continue
        assert decisions[file][:2] == ["refused", "GT_E_HEADER"] and "statistic" in decisions[file][2], (file, decisions[file])
        with pytest.raises(ValueError, match="statistic"):
            player.loads(data, file)


# -- weighted answers ----------------------------------------------------------------------------------------------
WEIGHTS = ["1", "2", "0.5", "3.25", "10", "0.125", "0.75"]


@functools.cache
def weighted_tree(name: str = "es", hard: bool = False, others: str | None = None) -> bytes:
    """The tree of tests/data/alphabets/NAME's lists, its answers weighed 1, 2, 0.5, 3.25... in turn
    (lines ``word weight``, as ``guesstree compile words`` reads them); ``others``: --others-weight."""
    from guesstree.compiler import Options, build, to_bytes
    from guesstree.player.games import make_game

    words = [line for line in (LISTS / f"{name}-answers.txt").read_text(encoding="utf-8").splitlines() if line[:1] != "#"]
    folder = Path(tempfile.mkdtemp(prefix="weighted-"))
    answers = folder / f"{name}-weighted.txt"
    answers.write_text("".join(f"{word} {WEIGHTS[k % len(WEIGHTS)]}\n" for k, word in enumerate(words)), encoding="utf-8")
    params = {"answers": str(answers), "guesses": str(LISTS / f"{name}-guesses.txt"), "hard": hard}
    if others is not None:
        params["others_weight"] = others
    return to_bytes(build(make_game("words", **params), Options(strategy="entropy")))


@pytest.fixture(scope="module")
def weighted_trees() -> dict[str, bytes]:
    """Weighted Spanish, Ukrainian and Greek trees; Spanish in hard mode; Ukrainian with every other
    allowed guess a secret of weight 0.25 (--others-weight); and one in chunks."""
    made = {"es": weighted_tree("es"), "uk": weighted_tree("uk"), "el": weighted_tree("el"),
            "es-hard": weighted_tree("es", True), "uk-others": weighted_tree("uk", others="0.25")}
    made["es-chunked"] = chunked(made["es"])
    return made


def test_a_weighted_tree_s_weights_and_statistics_are_python_s(lib, weighted_trees, tmp_path):
    from guesstree.player.weights import format_weight

    for name, data in weighted_trees.items():
        tree, c = opened(lib, name, data)
        assert tree.game.weights is not None and decode(data)[0]["version"] == ([2, 1] if "chunked" in name else [1, 3])
        for secret, weight in zip(tree.game.secrets, tree.game.weights):
            shown = Text()
            assert lib.gt_get_weight(c.handle, ints(secret, c.h), ctypes.byref(shown)) == OK
            assert str(shown) == format_weight(weight), (name, secret)
        values = [ctypes.c_double() for _ in range(3)]
        assert lib.gt_get_weighted_stats(c.handle, *map(ctypes.byref, values)) == OK
        assert [v.value for v in values] == [tree.stats["total_weight"], tree.stats["weighted_total"], tree.stats["weighted_mean"]]
        wrong = [s for s in tree.game.secrets if c.path(s) != tree.path(s)]
        assert not wrong, (name, wrong[:3])
        c.close()
    assert len(player.loads(weighted_trees["uk-others"]).game.secrets) == len(player.loads(weighted_trees["uk"]).game.guesses)
    plain = CTree(lib, data=alphabet_tree("es"), name="es")
    assert lib.gt_get_weighted_stats(plain.handle, *map(ctypes.byref, values)) == 40  # every secret weighs 1
    plain.close()
    path = tmp_path / "weighted.msgpack.zst"
    path.write_bytes(weighted_trees["es"])
    shown = subprocess.run([str(BUILD / "gtree"), "info", str(path)], capture_output=True, text=True).stdout.splitlines()
    python = subprocess.run([sys.executable, "-m", "guesstree", "info", str(path)], capture_output=True, text=True).stdout
    weighted_line = next(line for line in python.splitlines() if line.startswith("  weighted   "))
    assert weighted_line[2:] in shown and shown.index(weighted_line[2:]) == shown.index("secrets    32") + 1


def test_weighted_answers_break_ties_off_the_tree_as_python_does(lib, weighted_trees):
    """gt_suggest against Tree.suggest in weighted games: every answer Python's; among them two
    candidates whose first (in canonical order) is the lighter, answered by the heavier."""
    heavier_second = compared = by_rule = 0
    for name, data in weighted_trees.items():
        tree, c = opened(lib, name, data)
        tree.book = None
        weight = dict(zip(tree.game.secrets, tree.game.weights))
        rng = random.Random(f"weights {name}")
        for _ in range(60):
            steps = random_history(tree, rng)
            (answer, by), expected = c_suggest(lib, c, steps), py_suggest(tree, steps)
            assert same(answer, expected), (name, steps, answer, expected)
            compared += 1
            remaining = tree.candidates(steps) if expected[0] == "guess" else []
            by_rule += by == 0
            if by == 0 and len(remaining) == 2 and weight[remaining[1]] > weight[remaining[0]]:
                assert answer == ("guess", remaining[1])
                heavier_second += 1
        c.close()
    assert compared == 360 and by_rule > 100 and heavier_second > 5


def test_equal_weights_change_no_suggestion(lib, trees):
    """Every answer of weight 2.5 (the tree's body unchanged): gt_suggest is the unweighted game's."""
    data = trees["uk"]
    tree = player.loads(data, "uk")
    tree.book = None
    count = len(tree.game.secrets)
    document, body = decode(mutated(data, {"answer_weights": " ".join(["2.5"] * count)}))
    header = header_of(document)
    header["stats"] = {**header["stats"], "weighted_total": 2.5 * tree.stats["total"], "weighted_mean": tree.stats["average"],
                       "total_weight": 2.5 * count}
    c = CTree(lib, data=encode(header, body), name="uk")
    rng = random.Random(25)
    for _ in range(60):
        steps = random_history(tree, rng)
        assert same(c_suggest(lib, c, steps)[0], py_suggest(tree, steps)), steps
    c.close()


# -- Debian's dictionaries ---------------------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("language", ["spanish", "ukrainian"])
def test_a_tree_of_debian_s_word_list_plays_as_python(lib, language):
    """A sample of Debian's list (tests/debian_words.py, as the other players' tests take it), whole and
    in chunks: every secret's path, histories on and off the tree, suggestions."""
    import debian_words

    lists = getattr(debian_words, language)()
    data = compiled(Path(lists["answers"]), Path(lists["guesses"]))
    for layout, artifact in (("whole", data), ("chunked", chunked(data, 64))):
        tree, c = opened(lib, f"{language}-{layout}", artifact)
        wrong = [s for s in tree.game.secrets if c.path(s) != tree.path(s)]
        assert not wrong, (language, layout, wrong[:3])
        rng = random.Random(language)
        for history in histories(tree, rng, 10):
            assert same(c.next_guess(history), py_next(tree, history)), (language, history)
        tree.book = None
        for _ in range(20):
            steps = random_history(tree, rng)
            assert same(c_suggest(lib, c, steps)[0], py_suggest(tree, steps)), (language, steps)
        c.close()

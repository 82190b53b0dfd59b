"""The JavaScript player (player/js) against the Python one: its Node tests, with their expectations
written here by the Python player.

    python tests/test_js.py --write DIR [--part paths|hostile|suggest|chunked|alphabets]

writes what the Node tests (``player/js/test``) compare with: every shipped tree's path for every
secret (``export(tree, "text")``), a corpus of hostile files with the Python reader's decisions
(``scripts/fuzz.py --corpus``), and candidates/suggest for off-tree histories. The Node tests run
this themselves when ``GUESSTREE_EXPECTED`` does not name a folder that holds them; the test below
runs ``node --test`` with it, and fails rather than skips in CI when Node or the packages are missing.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import pytest  # noqa: E402

from guesstree import player  # noqa: E402
from guesstree.player.export import to_text  # noqa: E402
import debian_words  # noqa: E402
from parts import missing  # noqa: E402

JS = REPO / "player" / "js"
TREES = sorted((REPO / "trees").glob("*.msgpack.zst"))
SUGGEST_TREES = ["wordle-salet-optimal-expected", "wordle-hard-salet-optimal-expected-depth6",
                 "mastermind-c6-h4-entropy", "mastermind-c6-h4-distinct-entropy", "bulls-cows-d10-l4-minimax",
                 "digits-l4-entropy", "twod-s5-entropy"]


# -- the expectations ---------------------------------------------------------------------------
def write_paths(folder: Path) -> None:
    out = {}
    for path in TREES:
        tree = player.load(path)
        out[path.name] = [line for line in to_text(tree).splitlines() if not line.startswith("#")]
    (folder / "paths.json").write_text(json.dumps(out))


def off_tree_histories(tree: player.Tree, rng: random.Random) -> list[list]:
    """Histories that leave the tree: another first guess, a guess changed midway, then the
    suggestions followed to the end; plus a history on the tree and one no secret fits."""
    game = tree.game
    guesses = sorted({tree.guess_of(n) for n in range(tree.nodes)} | set(game.secrets))
    histories = []
    for _ in range(6):
        secret = rng.choice(game.secrets)
        steps = []
        for guess in ([rng.choice(guesses)] if rng.random() < 0.6 else []):
            steps.append((guess, game.score(guess, secret)))
        while True:  # on the tree for a while, then off it
            guess = tree.suggest(steps) if steps else tree.guess_of(0)
            if guess is None or len(steps) > 8:
                break
            if rng.random() < 0.3 and not game.restricts_guesses:
                guess = rng.choice(guesses)
            steps.append((guess, game.score(guess, secret)))
            histories.append(list(steps))
    for first in book_openers(tree)[:3]:  # the opening book's first guesses, then suggest to the win
        secret, steps = rng.choice(game.secrets), []
        guess = game.parse_code(first)
        while guess is not None and len(steps) <= 8:
            steps.append((guess, game.score(guess, secret)))
            histories.append(list(steps))
            guess = tree.suggest(steps)
    path = tree.path(rng.choice(game.secrets))
    histories.append(path[:-1])
    histories.append(path)
    if len(path) >= 2:  # the right guesses with a feedback no secret gives after the first
        wrong = next(f for f in game.feedbacks() if f != path[1][1] and f != game.win)
        histories.append([path[0], (path[1][0], wrong)])
    # the win claimed at the tree's guesses along the path: taken only where that guess can be the secret
    histories.extend(path[:step] + [(path[step][0], game.win)] for step in range(len(path) - 1))
    return histories


def book_openers(tree: player.Tree) -> list[str]:
    """The first guesses the shipped opening book holds for ``tree``'s game (player/book.py)."""
    return player.tree.shipped_book().openers(tree)


def write_suggest(folder: Path, seed: int = 1) -> None:
    rng = random.Random(seed)
    out = {}
    for name in SUGGEST_TREES:
        tree = player.load(REPO / "trees" / f"{name}.msgpack.zst")
        out[f"{name}.msgpack.zst"] = suggest_cases(tree, rng)
    (folder / "suggest.json").write_text(json.dumps(out))


def suggest_cases(tree: player.Tree, rng: random.Random, extra: list[list] = ()) -> list[dict]:
    """Off-tree histories of ``tree`` (and ``extra`` ones), each with the Python player's candidates,
    suggest and next_guess."""
    game = tree.game
    cases = []
    for history in [*off_tree_histories(tree, rng), *extra]:
        text = [[game.format_code(g), game.format_feedback(f)] for g, f in history]
        try:
            suggestion = tree.suggest(history)
            answer = {"suggest": None if suggestion is None else list(suggestion)}
        except player.InconsistentHistory as error:
            answer = {"error": str(error)}
        try:
            following = tree.next_guess(history)
            answer["next"] = None if following is None else list(following)
        except player.InconsistentHistory as error:
            answer["next_error"] = str(error)
        found = tree.candidates(history)
        cases.append({"history": [[list(g), list(f)] for g, f in history], "text": text,
                      "candidates": len(found), "first": [list(c) for c in found[:20]], **answer})
    return cases


def write_hostile(folder: Path) -> None:
    sys.path.insert(0, str(REPO / "scripts"))
    import fuzz

    fuzz.write_corpus(folder / "hostile", count=int(os.environ.get("GUESSTREE_HOSTILE_COUNT", "600")), seed=1)


CHUNKED_TREES = ["mastermind-c6-h4-entropy", "wordle-salet-optimal-expected", "bulls-cows-d10-l4-minimax"]


def write_chunked(folder: Path, chunk_nodes: int = 64) -> None:
    """Shipped trees rewritten in the chunked layout (trees/FORMAT.md §10), small chunks so that a
    path crosses several, with every secret's path; and one whose chunks past the root's are
    damaged, which loads and refuses the first lookup that needs them."""
    from guesstree.player.artifact import decode, encode_chunked

    out = folder / "chunked"
    out.mkdir(parents=True, exist_ok=True)
    paths = {}
    for name in CHUNKED_TREES:
        document, body = decode((REPO / "trees" / f"{name}.msgpack.zst").read_bytes(), name)
        header = {k: v for k, v in document.items() if k not in ("format", "version", "body_sha256")}
        data = encode_chunked(header, body, chunk_nodes)
        (out / f"{name}.msgpack.zst").write_bytes(data)
        tree = player.loads(data, name)
        paths[f"{name}.msgpack.zst"] = [line for line in to_text(tree).splitlines() if not line.startswith("#")]
    end = player.artifact.frame_length(player.artifact.InMemory(data))
    first = len(data) - end - sum(player.artifact.unpack_uints(decode(data)[1].index["chunk_size"], 4)[1:])
    damaged = bytearray(data)
    damaged[end + first + 10] ^= 0xFF  # in chunk 1
    (out / "damaged.msgpack.zst").write_bytes(bytes(damaged))
    (out / "paths.json").write_text(json.dumps(paths))


# Words beyond a-z (issue 68): Spanish (ñ, accents) and Ukrainian (Cyrillic, hard mode), samples of
# Debian's lists (tests/debian_words.py), compiled here.
ALPHABET_TREES = [("words-es", debian_words.spanish, False), ("words-uk-hard", debian_words.ukrainian, True)]


def typed_words(game, rng: random.Random) -> list[str]:
    """Words as people type them: in capitals, in lower case, mixed, decomposed (NFD), padded; and
    mistakes: a digit, a letter of no list, a Latin K among Cyrillic letters, too short, nothing."""
    import unicodedata

    words = [game.format_code(c) for c in rng.sample(game.secrets, 6)]
    accented = next(w for w in (game.format_code(c) for c in game.secrets) if unicodedata.normalize("NFD", w) != w)
    return [*words, *(w.lower() for w in words), words[0][:2].lower() + words[0][2:], f"  {words[1].lower()} ",
            unicodedata.normalize("NFD", accented), unicodedata.normalize("NFD", accented.lower()),
            words[2][:4] + "9", words[3][:4] + "ß", "K" + words[4][1:], words[5][:3], "", "çççç" + words[0][0]]


def write_alphabets(folder: Path, seed: int = 68) -> None:
    """Trees of Spanish and Ukrainian words, compiled, with the Python player's paths, off-tree answers
    and readings of typed words (the code, or the message that refuses it); the Spanish answers
    weighted too (``word 3`` lines), and chunked (format 2.1); and the Spanish tree's header altered
    (a hostile alphabet, capitals or weights) with the Python reader's decision."""
    from guesstree import compiler
    from guesstree.player.games import make_game

    out = folder / "alphabets"
    out.mkdir(parents=True, exist_ok=True)
    weighted = out / "words-es-weighted.txt"  # each answer a weight of its own, some alike, some decimal
    spanish = debian_words.spanish()
    answers = Path(spanish["answers"]).read_text(encoding="utf-8").split()
    weighted.write_text("".join(f"{w} {['1', '3', '0.25', '3', '12.5'][i % 5]}\n" for i, w in enumerate(answers)), encoding="utf-8")
    rng, expected = random.Random(seed), {}
    lists = [*ALPHABET_TREES, ("words-es-weighted", lambda: {**spanish, "answers": str(weighted)}, False)]
    for name, files, hard in lists:
        game = make_game("words", **files(), hard=hard)
        data = compiler.to_bytes(compiler.build(game, compiler.Options(strategy="entropy")))
        (out / f"{name}.msgpack.zst").write_bytes(data)
        expected[f"{name}.msgpack.zst"] = alphabet_case(player.loads(data, name), rng)
    spanish = (out / "words-es.msgpack.zst").read_bytes()
    chunked = chunked_bytes(spanish, 16)
    (out / "words-es-chunked.msgpack.zst").write_bytes(chunked)
    expected["words-es-chunked.msgpack.zst"] = alphabet_case(player.loads(chunked, "words-es-chunked"), rng)
    (out / "expected.json").write_text(json.dumps(expected, ensure_ascii=False), encoding="utf-8")
    write_altered(out, spanish)


def alphabet_case(tree: player.Tree, rng: random.Random) -> dict:
    """What the Node test checks of a tree beyond a-z: its game, its paths, off-tree answers, typed words."""
    readings = []
    for text in typed_words(tree.game, rng):
        try:
            readings.append({"text": text, "code": list(tree.game.parse_code(text))})
        except ValueError as error:
            readings.append({"text": text, "error": str(error)})
    weights = tree.game.weights
    extra = [] if weights is None else weighed_histories(tree, rng)
    return {"paths": [line for line in to_text(tree).splitlines() if not line.startswith("#")],
            "suggest": suggest_cases(tree, rng, extra), "typed": readings, "params": jsonable(tree.header["game"]["params"]),
            "title": tree.game.title(), "version": list(tree.header["version"]),
            "weights": None if weights is None else [float(w) for w in weights]}


def weighed_histories(tree: player.Tree, rng: random.Random, count: int = 8) -> list[list]:
    """Off-tree histories of a weighted tree after which the weights change the Python player's
    suggestion (the heavier of two candidates, a tie in parts to the heavier secret): one or two
    random guesses from random secrets, kept where the suggestion without the weights differs."""
    from guesstree.player.advice import best_guess

    game, found = tree.game, []
    for _ in range(3000):
        secret = rng.choice(game.secrets)
        history = [(g, game.score(g, secret)) for g in rng.sample(game.guesses, rng.choice((1, 2)))]
        if _on_tree(tree, history) or history[-1][1] == game.win:
            continue
        left = tree.candidates(history)
        weighed = best_guess(game, tree.stats["worst"], history, left)
        game.__dict__["weights"] = None  # (a cached property: the game as if every secret weighed 1)
        try:
            plain = best_guess(game, tree.stats["worst"], history, left)
        finally:
            del game.__dict__["weights"]
        if weighed != plain:
            found.append(history)
            if len(found) == count:
                return found
    raise AssertionError(f"only {len(found)} histories whose suggestion the weights change")


def _on_tree(tree: player.Tree, history) -> bool:
    try:
        tree.next_guess(history)
        return True
    except player.InconsistentHistory:
        return False


def chunked_bytes(data: bytes, chunk_nodes: int) -> bytes:
    from guesstree.player.artifact import decode, encode_chunked

    document, body = decode(data)
    header = {k: v for k, v in document.items() if k not in ("format", "version", "body_sha256")}
    return encode_chunked(header, body, chunk_nodes)


def write_altered(out: Path, data: bytes) -> None:
    """The Spanish tree with its game's parameters or its statistics altered, each with the Python
    reader's decision (``loaded``, or its message), in ``altered/decisions.json``."""
    from guesstree.player.artifact import decode
    from guesstree.player.encoding import encode

    document, body = decode(data)
    header = {k: v for k, v in document.items() if k not in ("format", "version", "body_sha256")}
    params = header["game"]["params"]
    alphabet, capitals, count = params["alphabet"], params["capitals"], len(params["answer_words"].split(" "))
    changes = {
        "reversed": {"alphabet": alphabet[::-1]}, "upper": {"alphabet": "A" + alphabet[1:]},
        "digit": {"alphabet": "1" + alphabet[1:], "capitals": "1" + capitals[1:]},
        "too-many": {"alphabet": "".join(chr(0x4E00 + i) for i in range(256)), "capitals": "".join(chr(0x4E00 + i) for i in range(256))},
        "number": {"alphabet": 7}, "no-capitals": {"capitals": None}, "no-alphabet": {"alphabet": None},
        "short-capitals": {"capitals": capitals[:-1]}, "repeated-capital": {"capitals": capitals[0] * 2 + capitals[2:]},
        "capital-a-letter": {"capitals": alphabet[1] + capitals[1:]}, "capital-a-digit": {"capitals": "9" + capitals[1:]},
        "swapped-capitals": {"capitals": capitals[1] + capitals[0] + capitals[2:]},  # shown oddly, but a game
        "no-n-tilde": {"alphabet": alphabet.replace("ñ", ""), "capitals": capitals.replace("Ñ", "")},
        "extra-letter": {"alphabet": alphabet + "ÿ", "capitals": capitals + "Ÿ"},
        "weights": {"answer_weights": " ".join(["2", "0.5"] * (count // 2) + ["7"] * (count % 2))},
        "weights-ones": {"answer_weights": " ".join(["1"] * count)},
        "weights-short": {"answer_weights": " ".join(["2"] * (count - 1))},
        "weights-unwritten": {"answer_weights": " ".join(["0.50"] * count)},
        "weights-negative": {"answer_weights": " ".join(["-1"] * count)},
    }
    weighted = {"weighted_total": 300.5, "weighted_mean": 2.5, "total_weight": 120.2}
    stats = {  # the weighted statistics (FORMAT.md §2.3): all three or none, each a positive number
        "stats-weighted": weighted, "stats-half": {"weighted_mean": 2.5},
        "stats-negative": {**weighted, "total_weight": -1.0}, "stats-zero": {**weighted, "weighted_total": 0},
        "stats-text": {**weighted, "weighted_mean": "2.5"}, "stats-infinite": {**weighted, "weighted_mean": float("inf")},
    }
    folder = out / "altered"
    folder.mkdir(exist_ok=True)
    decisions = []
    for change, values in [*changes.items(), *stats.items()]:
        altered = {k: v for k, v in {**params, **values}.items() if v is not None} if change in changes else params
        figures = {**header["stats"], **values} if change in stats else header["stats"]
        file = f"{change}.msgpack.zst"
        (folder / file).write_bytes(encode({**header, "stats": figures, "game": {**header["game"], "params": altered}}, body))
        try:
            player.loads((folder / file).read_bytes(), file)
            decisions.append({"file": file, "python": "loaded"})
        except player.FormatError as error:
            decisions.append({"file": file, "python": str(error)})
    (folder / "decisions.json").write_text(json.dumps(decisions, ensure_ascii=False), encoding="utf-8")


def jsonable(params: dict) -> dict:
    return {k: v for k, v in params.items() if isinstance(v, (str, int, float, bool)) or v is None}


PARTS = {"paths": write_paths, "suggest": write_suggest, "hostile": write_hostile, "chunked": write_chunked,
         "alphabets": write_alphabets}


def write(folder: Path, parts=tuple(PARTS)) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for part in parts:
        PARTS[part](folder)


# -- the test --------------------------------------------------------------------------------------
@pytest.fixture(scope="session")
def node() -> str:
    """Node, with player/js's packages installed (``npm ci`` run here when they are missing): the
    JavaScript player is tested wherever Node is. Without Node the test is skipped, and the run's
    summary says so (in CI it fails); without npm, or when ``npm ci`` fails, it fails saying how."""
    node = shutil.which("node")
    if node is None:
        missing("the JavaScript player's tests need Node on PATH (apt-get install nodejs npm)")
    if not (JS / "node_modules" / "fzstd").is_dir():
        npm = shutil.which("npm")
        if npm is None:
            pytest.fail("player/js has no node_modules and there is no npm on PATH to install them: "
                        "install npm (apt-get install npm), then `npm ci` in player/js")
        done = subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=JS,
                              capture_output=True, text=True, timeout=600)
        if done.returncode != 0:
            pytest.fail(f"`npm ci` in player/js failed (exit {done.returncode}): {done.stderr.strip()[-600:]}; "
                        "run it there to see why")
    return node


def run_node(node: str, folder: Path, files: list[str]) -> None:
    """``node --test`` on ``files`` of player/js/test (all of them when empty), against expectations in ``folder``."""
    env = {**os.environ, "GUESSTREE_EXPECTED": str(folder), "GUESSTREE_PYTHON": sys.executable}
    result = subprocess.run([node, "--test", "--test-reporter=tap", *files], cwd=JS, env=env,
                            capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-3000:]
    assert "# fail 0" in result.stdout and "# pass 0" not in result.stdout


HOSTILE = ["test/hostile.test.js"]  # the hostile corpus takes the Python reader 17 s to decide: a slow test


def test_node_tests_pass_against_the_python_player(node, tmp_path):
    """Every Node test but the hostile corpus's: games, paths of every shipped tree, suggest, the
    book, chunked trees, mutations, words beyond a-z."""
    write(tmp_path, ("paths", "suggest", "chunked", "alphabets"))
    files = sorted(str(p.relative_to(JS)) for p in (JS / "test").glob("*.test.js"))
    assert "test/games.test.js" in files and set(HOSTILE) <= set(files)
    run_node(node, tmp_path, [f for f in files if f not in HOSTILE])


@pytest.mark.slow
def test_node_refuses_the_hostile_corpus_as_the_python_player_does(node, tmp_path):
    write(tmp_path, ("hostile",))
    run_node(node, tmp_path, HOSTILE)


# -- the review of a game: the JavaScript player's against the Python player's -------------------
# Both review from the tree and the book by docs/tutorials/review.md's rules, and give the same JSON.
REVIEW_TREES = [("wordle-salet-optimal-expected", 6), ("wordle-salet-optimal-expected", None),
                ("wordle-hard-salet-optimal-expected-depth6", None), ("mastermind-c6-h4-optimal-expected", None)]
REVIEW_NODE = r"""
import { readFileSync } from "node:fs";
import { loadShipped, review, shippedBook } from "./src/node.js";
const out = [], trees = new Map();
for (const { tree, history, max_depth } of JSON.parse(readFileSync(0, "utf8"))) {
  if (!trees.has(tree)) trees.set(tree, await loadShipped(tree));
  out.push(review(trees.get(tree), shippedBook, history, max_depth === null ? {} : { maxDepth: max_depth }));
}
process.stdout.write(JSON.stringify(out));
"""


def review_histories(tree: player.Tree, rng: random.Random, count: int) -> list[list[tuple[str, str]]]:
    """Games of ``tree``'s, as text: on the tree, off it from the first guess or midway (a random
    allowed guess, a book opener), then the tree's suggestions, each cut at a random length."""
    game = tree.game
    openers = [game.parse_code(first) for first in book_openers(tree)]
    pool = sorted({tree.guess_of(n) for n in range(0, tree.nodes, max(1, tree.nodes // 400))} | set(game.secrets[::7]))
    games = []
    for k in range(count):
        secret, steps = rng.choice(game.secrets), []
        first = [None, rng.choice(pool), rng.choice(openers) if openers else None][k % 3]
        while len(steps) < 8:
            guess = first if not steps and first is not None else tree.suggest(steps)
            if steps and rng.random() < 0.2 and not game.restricts_guesses:
                guess = rng.choice(pool)
            if guess is None or game.allows(guess, steps):
                break
            steps.append((guess, game.score(guess, secret)))
            if steps[-1][1] == game.win:
                break
        cut = len(steps) if k % 2 == 0 else rng.randint(1, len(steps))
        games.append([(game.format_code(g), game.format_feedback(f)) for g, f in steps[:cut]])
    return games


def test_javascript_review_agrees_with_the_python_review(node):
    """Random games of four trees (Wordle within 6 guesses and without, Wordle hard, Mastermind 6x4),
    on the trees and off them, reviewed by both players: the same JSON, figure for figure."""
    from guesstree.player.review import review

    rng, cases = random.Random(71), []
    for name, max_depth in REVIEW_TREES:
        tree = player.load_shipped(name)
        for history in review_histories(tree, rng, 15):
            cases.append({"tree": name, "history": history, "max_depth": max_depth,
                          "python": review(tree, history, max_depth).to_dict()})
    done = subprocess.run([node, "--input-type=module", "-e", REVIEW_NODE], cwd=JS, capture_output=True, text=True,
                          input=json.dumps([{k: case[k] for k in ("tree", "history", "max_depth")} for case in cases]),
                          timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    for case, js in zip(cases, json.loads(done.stdout), strict=True):
        assert js == case["python"], f"{case['tree']} within {case['max_depth']}: {case['history']}"
    assert any(case["python"]["exact"] for case in cases) and not all(case["python"]["exact"] for case in cases)


REVIEW_BANDS = ("best", "good", "inaccuracy", "mistake")


def wandering(tree: player.Tree, rng: random.Random) -> list[tuple[str, str]]:
    """A game off every tree: two random guesses, then a random secret still possible each time, to the win."""
    game, steps = tree.game, []
    secret = rng.choice(game.secrets)
    for guess in rng.sample(game.secrets, 2):
        steps.append((guess, game.score(guess, secret)))
    while steps[-1][1] != game.win:
        guess = rng.choice(tree.candidates(steps))
        steps.append((guess, game.score(guess, secret)))
    return [(game.format_code(g), game.format_feedback(f)) for g, f in steps]


def within_bands(verdict: str, exact: str) -> bool:
    """Is the exact verdict one of the bands the verdict over an interval spans ("good to mistake", "good or worse")?"""
    words = verdict.split(" ")
    low = REVIEW_BANDS.index(words[0])
    high = len(REVIEW_BANDS) - 1 if verdict.endswith("or worse") else REVIEW_BANDS.index(words[-1])
    return low <= REVIEW_BANDS.index(exact) <= high


def test_javascript_review_holds_the_exhaustive_searchs_figures(node):
    """Mastermind 6x4 games reviewed by the compiler's exhaustive search (every figure exact) and by
    the JavaScript player from the tree and the book: each JavaScript interval holds the exact
    figure, a figure the JavaScript review calls exact is it, and its verdict's bands hold the exact one."""
    from guesstree.compiler.review import review as searched

    name, rng = "mastermind-c6-h4-optimal-expected", random.Random(7)
    tree = player.load_shipped(name)
    histories = review_histories(tree, rng, 6) + [wandering(tree, rng) for _ in range(6)]
    done = subprocess.run([node, "--input-type=module", "-e", REVIEW_NODE], cwd=JS, capture_output=True, text=True,
                          input=json.dumps([{"tree": name, "history": h, "max_depth": None} for h in histories]), timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    checked = 0
    for history, js in zip(histories, json.loads(done.stdout), strict=True):
        exact = searched(tree.game, history, None, 30.0, tree, False).to_dict()
        for jm, em in zip(js["moves"], exact["moves"], strict=True):
            if not em["exact"]:
                continue  # the search ran out of time: bounds against bounds say little
            at = (jm["step"], history)
            for key in ("total", "best_total", "left_total", "expected", "best_expected", "loss", "luck"):
                value = em[key][0]
                assert em[key] == [value, value], (key, at)
                low, high = jm[key]
                assert (low is None or low <= value) and (high is None or value <= high), (key, jm[key], value, at)
                checked += 1
            if jm["exact"]:
                assert {k: jm[k] for k in ("total", "best_total", "left_total", "loss", "luck", "worst", "verdict")} == \
                    {k: em[k] for k in ("total", "best_total", "left_total", "loss", "luck", "worst", "verdict")}, at
            assert within_bands(jm["verdict"], em["verdict"]), (jm["verdict"], em["verdict"], at)
            assert set(jm["best"]) <= set(em["best"]) or not em["best_complete"], at
    assert checked >= 50


def main() -> int:
    parser = argparse.ArgumentParser(description="write the JavaScript player's expectations")
    parser.add_argument("--write", type=Path, required=True, help="folder to write them to")
    parser.add_argument("--part", choices=sorted(PARTS), action="append", help="only these (default: all)")
    args = parser.parse_args()
    write(args.write, args.part or tuple(PARTS))
    return 0


if __name__ == "__main__":
    sys.exit(main())

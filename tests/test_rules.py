"""Feedback rules (issue 69, player/rules.py): Mastermind with black pegs only, words with counts-only
feedback and with letters in common. Each rule against our own reading of it, pair by pair; its trees
built by every strategy and by the exact search (against a brute force), proven by the verifier, broken
and refused; and played alike by the Python, JavaScript and C players (paths, next guesses as ints
and as text, the help off the tree, text read and written, hostile values of the parameter)."""
from __future__ import annotations

import base64
import json
import random
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from guesstree import compiler, player
from guesstree.compiler import Options, build, to_bytes
from guesstree.compiler.engine.scorer import Scorer
from guesstree.player.artifact import FormatError, decode, encode, encode_chunked
from guesstree.player.games import make_game
from guesstree.player.verify import verify

REPO = Path(__file__).resolve().parent.parent
# Words with anagrams (a guess sharing every letter that is not the word), repeated letters, and none in common.
WORDS = ["abide", "aster", "crane", "eerie", "geese", "least", "llama", "mummy", "rates", "slate", "speed", "stale",
         "stare", "steal", "tales", "taser", "tears", "vivid"]


# -- our own reading of each rule ------------------------------------------------------------------
def in_place(guess, secret) -> int:
    return sum(g == s for g, s in zip(guess, secret))


def shared(guess, secret) -> int:
    """Symbols the two hold in common, a repeated one as often as both hold it."""
    return sum((Counter(guess) & Counter(secret)).values())


def own_black(guess, secret):
    return (in_place(guess, secret),)


def own_counts(guess, secret):
    return in_place(guess, secret), shared(guess, secret) - in_place(guess, secret)


def own_common(guess, secret):
    return shared(guess, secret), int(guess == secret)


OWN = {"black": own_black, "counts": own_counts, "common": own_common}


@pytest.fixture(scope="module")
def word_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("rules") / "words.txt"
    path.write_text("".join(w + "\n" for w in WORDS))
    return path


def games(word_file: Path):
    """One small game of each rule, and a bigger black-peg Mastermind."""
    return {"black": make_game("mastermind", colours=3, holes=3, feedback="black"),
            "black-6x4": make_game("mastermind", feedback="black"),
            "black-distinct": make_game("mastermind", colours=4, holes=3, secret_repeats=False, feedback="black"),
            "counts": make_game("words", answers=str(word_file), feedback="counts"),
            "common": make_game("words", answers=str(word_file), feedback="common")}


def test_each_rule_scores_as_our_own_reading_of_it(word_file):
    for name, game in games(word_file).items():
        own = OWN[name.split("-")[0]]
        wrong = [(g, s) for g in game.guesses for s in game.secrets if game.score(g, s) != own(g, s)]
        assert not wrong, (name, wrong[:3])
        assert set(game.feedbacks()) >= {own(g, s) for g in game.guesses for s in game.secrets}
        assert game.win == own(game.secrets[0], game.secrets[0]) and game.win in game.feedbacks()


def test_asymmetric_examples(word_file):
    """Repeated letters one way and not the other; an anagram is no win."""
    black, counts, common = (games(word_file)[k] for k in ("black-6x4", "counts", "common"))
    code, word = black.parse_code, counts.parse_code
    assert black.score(code("AABB"), code("ABCA")) == (1,) and black.score(code("ABCA"), code("AABB")) == (1,)
    assert black.score(code("AAAA"), code("ABCD")) == (1,)  # the white pegs it would have had are not told
    assert counts.score(word("speed"), word("abide")) == (0, 2)  # one E of two is present
    assert counts.score(word("geese"), word("eerie")) == (2, 1)
    assert counts.score(word("stare"), word("tears")) == (2, 3)
    assert common.score(word("stare"), word("tears")) == (5, 0)  # every letter shared, not the word
    assert common.score(word("tears"), word("tears")) == (5, 1) == common.win
    assert common.score(word("llama"), word("mummy")) == (1, 0)


def test_the_lanes_split_as_the_score(word_file):
    rng = random.Random(69)
    for name, game in games(word_file).items():
        for _ in range(5):
            secrets = rng.sample(game.secrets, min(len(game.secrets), 40))
            split = game.splitter(secrets)
            for guess in rng.sample(game.guesses, 12):
                told = [game.score(guess, s) for s in secrets]
                assert len(set(split(guess))) == len(set(told)) == game.partition_count(guess, secrets), name
                assert [game.feedbacks()[v] for v in split(guess)] == told, name
                assert list(game.partition_counts([guess], secrets)) == [len(set(told))]
                for feedback in set(told):
                    assert game.consistent(guess, feedback, secrets) == [s for s, f in zip(secrets, told) if f == feedback]


@pytest.mark.parametrize("backend", ["numpy", "numba"])
def test_the_engine_scores_as_the_game(word_file, backend):
    for name, game in games(word_file).items():
        matrix = Scorer(game, 1 << 30, backend).matrix
        feedbacks = game.feedbacks()
        expected = [[feedbacks.index(game.score(g, s)) for s in game.secrets] for g in game.guesses]
        assert matrix.tolist() == expected, (name, backend)


def test_the_text_of_feedback_reads_back_and_a_mistake_is_named(word_file):
    black, counts, common = (games(word_file)[k] for k in ("black-6x4", "counts", "common"))
    for game in (black, counts, common):
        for feedback in game.feedbacks():
            assert game.parse_feedback(game.format_feedback(feedback)) == feedback
    assert [black.parse_feedback(t) for t in ("2", "2B", " 2 b ", "BB", "-", "none")] == [(2,), (2,), (2,), (2,), (0,), (0,)]
    assert [counts.parse_feedback(t) for t in ("1 2", "12", "1G2Y", "GYY", "2g", "-")] == [(1, 2)] * 4 + [(2, 0), (0, 0)]
    assert [common.parse_feedback(t) for t in ("3", " 0 ", "win", "WIN", "=")] == [(3, 0), (0, 0), (5, 1), (5, 1), (5, 1)]
    for game, text, said in [(black, "2B1W", "not feedback with black pegs only"), (black, "5", "cannot occur"),
                             (counts, "GY---", "not counts-only feedback"), (counts, "4 1", "cannot occur"),
                             (common, "two", "not feedback of letters in common"), (common, "6", "cannot occur")]:
        with pytest.raises(ValueError, match=said):
            game.parse_feedback(text)


def test_a_rule_of_another_game_or_hard_mode_is_refused(word_file):
    for name, params, said in [("mastermind", {"feedback": "counts"}, "--feedback must be full, black for this game"),
                               ("words", {"answers": str(word_file), "feedback": "black"}, "must be full, counts, common"),
                               ("words", {"answers": str(word_file), "feedback": "counts", "hard": True}, "--hard keeps"),
                               ("mastermind", {"feedback": 3}, "not 3")]:
        with pytest.raises(ValueError, match=said):
            make_game(name, **params)
    assert make_game("mastermind", feedback="full") == make_game("mastermind")  # full: the game itself


# -- trees: every strategy, the exact search, the verifier -------------------------------------------
STRATEGIES = ["entropy", "minimax", "most-parts", "expected-size", "optimal-expected", "optimal-worst"]


@pytest.fixture(scope="module")
def rule_trees(word_file) -> dict[str, bytes]:
    made = games(word_file)
    return {f"{name}-{strategy}": to_bytes(build(made[name], Options(strategy=strategy)))
            for name in ("black", "black-distinct", "counts", "common") for strategy in STRATEGIES}


def test_every_strategy_builds_a_tree_the_verifier_proves(rule_trees):
    for name, data in rule_trees.items():
        tree = player.loads(data, name)
        report = verify(tree)
        assert report.ok, (name, report.errors)
        assert report.secrets == len(tree.game.secrets) and tree.game.rule is not None


def test_the_exact_search_matches_a_brute_force(word_file, rule_trees):
    """The least total and the fewest guesses at worst, against test_optimal's brute force (the game's own scorer)."""
    from test_optimal import brute_force

    for name in ("black", "black-distinct", "counts", "common"):
        game = games(word_file)[name]
        total, worst, _ = brute_force(game)
        root = tuple(range(len(game.secrets)))
        expected = player.loads(rule_trees[f"{name}-optimal-expected"]).header["stats"]
        assert expected["total"] == total(root, len(root)), name
        fewest = player.loads(rule_trees[f"{name}-optimal-worst"]).header["stats"]["worst"]
        assert fewest == worst(root), name
        assert compiler.bound(game).worst == fewest, name
    assert (player.loads(rule_trees["black-optimal-expected"]).stats["total"], compiler.bound(games(word_file)["black"]).worst) \
        == (95, 5)  # trees/RECORDS.md's Mastermind 3x3, black pegs only


def test_a_broken_rule_tree_is_refused(rule_trees):
    """A feedback of an edge changed to another the rule can give: the verifier notices; the rule taken off the
    game: the player refuses the file."""
    data = rule_trees["counts-entropy"]
    header, body = decode(data)
    edges = bytearray(body["edge_feedback"])
    edges[0] = (edges[0] + 1) % len(player.loads(data).game.feedbacks())
    assert not verify(player.loads(encode(header, {**body, "edge_feedback": bytes(edges)}), "mutant")).ok
    header["game"]["params"].pop("feedback")
    with pytest.raises(FormatError, match="the feedback table holds .* which this game never gives"):
        player.loads(encode(header, body), "mutant")  # the full score: the rule's feedbacks are none of its own


def test_the_format_version_says_a_rule(rule_trees, mm32_path):
    document, body = decode(rule_trees["black-entropy"])
    assert document["version"] == [1, 4] and document["game"]["params"]["feedback"] == "black"
    header = {k: v for k, v in document.items() if k not in ("format", "version", "body_sha256")}
    assert decode(encode_chunked(header, body, 8))[0]["version"] == [2, 2]
    assert decode(mm32_path.read_bytes())[0]["version"] == [1, 1]  # a tree without a rule keeps its version


HOSTILE = {"purple": "black", 3: "black", -1: "black", True: "counts", "full": "black", "counts": "black", "black": "counts"}


def hostile_trees(rule_trees) -> list[tuple[str, bytes]]:
    """The feedback parameter changed to what no game of the tree takes (or written as full)."""
    out = []
    for value, tree_rule in HOSTILE.items():
        source = rule_trees["black-entropy" if tree_rule == "black" else "counts-entropy"]
        header, body = decode(source)
        header["game"]["params"]["feedback"] = value
        out.append((f"feedback={value!r}", encode(header, body)))
    return out


def test_a_hostile_feedback_parameter_is_refused_by_the_python_player(rule_trees):
    for name, data in hostile_trees(rule_trees):
        with pytest.raises(FormatError):
            player.loads(data, name)


# -- the three players --------------------------------------------------------------------------------
def trees_to_play(rule_trees) -> dict[str, bytes]:
    chosen = {name: rule_trees[name] for name in ("black-entropy", "black-distinct-minimax", "counts-entropy",
                                                  "common-most-parts")}
    for name, data in list(chosen.items()):
        document, body = decode(data)
        header = {k: v for k, v in document.items() if k not in ("format", "version", "body_sha256")}
        chosen[f"{name}-chunked"] = encode_chunked(header, body, 8)
    return chosen


TEXTS = ["2", "2B", "bb", "1 2", "1G2Y", "gyy", "-", "none", "win", "WIN", "=", "3", "GY---", "2B1W", "x", "", "99", "1/2"]


def test_the_c_player_answers_as_python(rule_trees):
    from test_c_player import CTree, c_library, c_suggest, histories, py_next, py_suggest, random_history, same

    lib, rng = c_library(), random.Random(169)
    for name, data in trees_to_play(rule_trees).items():
        tree, c = player.loads(data, name), CTree(lib, data=data, name=name)
        game = tree.game
        assert c.info.feedback.decode() == game.rule.name and c.w == len(game.win)
        assert [c.path(s) for s in game.secrets] == [tree.path(s) for s in game.secrets], name
        for history in histories(tree, rng, 5):
            if any(len(f) != len(game.win) for _, f in history):  # (an impossible feedback of another game's width)
                history = [(g, f[:len(game.win)]) for g, f in history]
            assert same(c.next_guess(history), py_next(tree, history)), (name, history)
            if all(f in game.feedback_set for _, f in history):
                text = [(game.format_code(g), game.format_feedback(f)) for g, f in history]
                assert same(c.next_guess_text(text), py_next(tree, text, True)), (name, text)
        for _ in range(8):
            steps = random_history(tree, rng)
            assert c_suggest(lib, c, steps)[0] == py_suggest(tree, steps), (name, steps)
        for text in TEXTS:
            try:
                expected = game.parse_feedback(text)
            except ValueError as error:
                assert c.parse(text, True) == ("error", str(error)), (name, text)
            else:
                assert c.parse(text, True) == expected, (name, text)
        assert [c.format(f, True) for f in game.feedbacks()] == [game.format_feedback(f) for f in game.feedbacks()]
        c.close()
    c_refuses_as_python(lib, hostile_trees(rule_trees))


def c_refuses_as_python(lib, hostile: list[tuple[str, bytes]]) -> None:
    """Each hostile file refused by the C player with the Python player's message (C adds the status)."""
    from test_c_player import CTree

    for name, data in hostile:
        with pytest.raises(FormatError) as python:
            player.loads(data, name)
        with pytest.raises(ValueError) as c:
            CTree(lib, data=data, name=name)
        assert str(c.value).endswith(str(python.value)), name


PLAY_NODE = r"""
import { readFileSync } from "node:fs";
import { load } from "./src/index.js";
import { shippedBook } from "./src/node.js";
const out = [];
for (const { bytes, histories, suggest, texts } of JSON.parse(readFileSync(0, "utf8"))) {
  let tree;
  try { tree = (await load(Buffer.from(bytes, "base64"), "t")).useBook(shippedBook); } catch (error) { out.push({ refused: error.message }); continue; }
  const game = tree.game, said = (f) => { try { return f(); } catch (error) { return { error: error.message }; } };
  const codes = (steps) => steps.map(([g, f]) => [game.parseCode(g), game.parseFeedback(f)]);
  out.push({
    title: game.title(), feedbacks: game.feedbacks().map((f) => game.formatFeedback(f)),
    paths: game.secrets().map((s) => tree.path(s).map(([g, f]) => `${game.formatCode(g)} ${game.formatFeedback(f)}`)),
    next: histories.map((h) => said(() => { const g = tree.nextGuess(codes(h)); return g === null ? null : game.formatCode(g); })),
    suggest: suggest.map((h) => said(() => { const g = tree.suggest(codes(h)); return g === null ? null : game.formatCode(g); })),
    texts: texts.map((t) => said(() => game.parseFeedback(t))),
  });
}
process.stdout.write(JSON.stringify(out));
"""


def python_answers(tree: player.Tree, on: list, off: list) -> dict:
    """What the Node script below prints for ``tree``, as the Python player answers it."""
    game = tree.game
    steps = lambda history: [(game.parse_code(g), game.parse_feedback(f)) for g, f in history]  # noqa: E731

    def said(call):
        try:
            return call()
        except ValueError as error:
            return {"error": str(error)}

    def guess(call):
        found = said(call)
        return found if found is None or isinstance(found, dict) else game.format_code(found)

    return {"title": game.title(), "feedbacks": [game.format_feedback(f) for f in game.feedbacks()],
            "paths": [[f"{game.format_code(g)} {game.format_feedback(f)}" for g, f in tree.path(s)] for s in game.secrets],
            "next": [guess(lambda h=h: tree.next_guess(steps(h))) for h in on],
            "suggest": [guess(lambda h=h: tree.suggest(steps(h))) for h in off],
            "texts": [said(lambda t=t: list(game.parse_feedback(t))) for t in TEXTS]}


def node_case(data: bytes, name: str, rng: random.Random, steps_of, count: int) -> tuple[dict, dict]:
    """PLAY_NODE's case for a tree (histories on it, ``count`` histories ``steps_of(tree, rng)`` for the
    help off it, TEXTS), and the Python player's answers to it."""
    from test_c_player import histories

    tree = player.loads(data, name)
    game = tree.game
    text = [[[game.format_code(g), game.format_feedback(f)] for g, f in steps] for steps in
            [h for h in histories(tree, rng, 4) if all(f in game.feedback_set for _, f in h)]]
    off = [[[game.format_code(g), game.format_feedback(f)] for g, f in steps_of(tree, rng)] for _ in range(count)]
    return ({"bytes": base64.b64encode(data).decode(), "histories": text, "suggest": off, "texts": TEXTS},
            python_answers(tree, text, off))


def test_the_javascript_player_answers_as_python(rule_trees):
    from test_c_player import random_history
    from test_js import JS, node as node_fixture

    node = node_fixture.__wrapped__()
    rng, cases, expected = random.Random(269), [], []
    played = trees_to_play(rule_trees)
    for name, data in played.items():
        case, answers = node_case(data, name, rng, random_history, 8)
        cases.append(case)
        expected.append(answers)
    hostile = hostile_trees(rule_trees)
    cases += [{"bytes": base64.b64encode(data).decode(), "histories": [], "suggest": [], "texts": []} for _, data in hostile]
    done = subprocess.run([node, "--input-type=module", "-e", PLAY_NODE], cwd=JS, capture_output=True, text=True,
                          input=json.dumps(cases), timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    answers = json.loads(done.stdout)
    for name, js, py in zip(played, answers, expected):
        for key in py:
            assert js[key] == py[key], (name, key)
    refused = answers[len(played):]
    for (name, data), js in zip(hostile, refused, strict=True):
        with pytest.raises(FormatError) as python:
            player.loads(data, "t")
        assert js == {"refused": str(python.value)}, name


# -- the command line ------------------------------------------------------------------------------
def test_the_commands_take_the_rule(cli, word_file, tmp_path):
    out = tmp_path / "bp.msgpack.zst"
    done = cli("compile", "mastermind", "--feedback", "black", "--strategy", "entropy", "-o", out, "-q")
    assert done.exit_code == 0, done.output
    tree = player.load(out)
    done = cli("next", out, "AAAA", "1B")
    assert done.exit_code == 0 and done.stdout.strip() == tree.game.format_code(tree.next_guess([((0, 0, 0, 0), (1,))]))
    for args, said in [(("next", out, "AAAA", "1B1W"), "not feedback with black pegs only"),
                       (("compile", "mastermind", "--feedback", "white", "--strategy", "entropy", "-o", out),
                        "--feedback must be full, black"),
                       (("compile", "bulls-cows", "--feedback", "black", "--strategy", "entropy", "-o", out),
                        "--feedback does not apply to bulls-cows")]:
        done = cli(*args)
        assert done.exit_code != 0 and said in done.stderr and "Traceback" not in done.output, (args, done.output)
    words = tmp_path / "c.msgpack.zst"
    done = cli("compile", "words", "--answers", word_file, "--feedback", "common", "--strategy", "optimal-expected",
               "-o", words, "-q")
    assert done.exit_code == 0, done.output
    done = cli("info", words)
    assert "letters in common" in done.stdout and "format 1.4" in done.stdout

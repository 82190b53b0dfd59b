"""Ultra-hard mode (issue 69, ``--ultra-hard``): every guess could be the answer, each earlier guess giving
it the feedback that guess got (alex1770's ``-U``). Its rule against our own reading of it; the compiler's
hint rule (numpy and compiled) against the game's; its trees built by every strategy and by the exact
search (against a brute force of our own over guesses beyond the answers), proven by the verifier, broken
and refused; and played alike by the Python, JavaScript and C players, hostile parameters refused alike."""
from __future__ import annotations

import base64
import json
import random
import subprocess
from collections import Counter
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from guesstree import compiler, player
from guesstree.compiler import Options, build, to_bytes
from guesstree.compiler.engine.hint_rule import HintRule
from guesstree.player.artifact import FormatError, decode, encode, encode_chunked
from guesstree.player.games import make_game
from guesstree.player.verify import verify

REPO = Path(__file__).resolve().parent.parent
WORDLE = REPO / "tests" / "data" / "wordle"
# Repeated letters (eerie, geese, llama, mummy), anagrams (stare, tears, rates, aster, taser) and words apart.
GUESSES = ["abide", "aster", "crane", "eerie", "geese", "least", "llama", "mummy", "rates", "slate", "speed", "stale",
           "stare", "steal", "tales", "taser", "tears", "vivid"]
ANSWERS = ["crane", "eerie", "least", "rates", "slate", "speed", "stale", "steal", "tales", "tears"]


# -- our own reading of the rule ----------------------------------------------------------------------
def wordle(guess: str, secret: str) -> str:
    """Wordle's marks: G in place; Y for a letter the secret holds elsewhere, as often as it holds it unmatched."""
    left = Counter(s for g, s in zip(guess, secret) if g != s)
    marks = []
    for g, s in zip(guess, secret):
        if g == s:
            marks.append("G")
        elif left[g]:
            marks.append("Y")
            left[g] -= 1
        else:
            marks.append("-")
    return "".join(marks)


def could_be_the_answer(guess: str, history) -> bool:
    return all(wordle(played, guess) == marks for played, marks in history)


@pytest.fixture(scope="module")
def lists(tmp_path_factory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("ultra")
    (folder / "answers.txt").write_text("".join(w + "\n" for w in ANSWERS))
    (folder / "guesses.txt").write_text("".join(w + "\n" for w in GUESSES))
    return folder / "answers.txt", folder / "guesses.txt"


def small(lists, **options):
    return make_game("words", answers=str(lists[0]), guesses=str(lists[1]), ultra_hard=True, **options)


def words_of(game, code) -> str:
    return game.format_code(code).lower()


def test_a_guess_is_allowed_exactly_when_it_could_be_the_answer(lists):
    """Every guess after every history of one or two steps (each step a guess and a secret of the list)."""
    game = small(lists)
    marks = {"G": 2, "Y": 1, "-": 0}
    for first in GUESSES:
        for secret in ANSWERS:
            for second in [None, *GUESSES[::3]]:
                history = [(first, wordle(first, secret))] + ([] if second is None else [(second, wordle(second, secret))])
                steps = [(game.parse_code(g), tuple(marks[m] for m in f)) for g, f in history]
                for guess in GUESSES:
                    refused = game.allows(game.parse_code(guess), steps)
                    assert (refused is None) == could_be_the_answer(guess, history), (history, guess, refused)
                allowed = [words_of(game, g) for g in game.guesses_after(steps)]
                assert allowed == [g for g in GUESSES if could_be_the_answer(g, history)]


def test_what_the_rule_says_of_letters(lists):
    """A letter marked present moves; an absent letter stays out; a green stays; the reason is said."""
    game = small(lists)
    steps = [(game.parse_code("stare"), (0, 1, 2, 0, 0))]  # S absent, T present (not second), A in place
    assert "could not be the answer after guess 1 (STARE -YG--): it would get" in game.allows(game.parse_code("llama"), steps)
    assert game.allows(game.parse_code("least"), steps) is not None  # S is out
    hard = make_game("words", answers=str(lists[0]), guesses=str(lists[1]), hard=True)
    assert hard.allows(game.parse_code("least"), steps) is None  # hard mode lets an absent letter be played
    assert game.title() == "Words of 5 letters (10 answers, ultra-hard mode)" and game.hard
    assert game.params()["ultra_hard"] is True and "ultra_hard" not in hard.params()


def test_the_compilers_hint_rule_is_the_games(lists):
    """HintRule (numpy) and its compiled kernel allow exactly the guesses the game allows, on random
    histories of Wordle's lists."""
    from guesstree.compiler.search.hint_kernels import hint_allowed

    game = make_game("words", answers=str(WORDLE / "wordlist_orig_hidden"), guesses=str(WORDLE / "wordlist_orig_all"),
                     ultra_hard=True)
    rule, index = HintRule(game, np.array(game.guesses)), {f: i for i, f in enumerate(game.feedbacks())}
    rng = random.Random(69)
    for _ in range(25):
        secret, history, played, feedbacks = rng.choice(game.secrets), [], [], []
        for _ in range(rng.randint(1, 3)):
            guess = rng.choice(game.guesses_after(history))
            history.append((guess, game.score(guess, secret)))
            played.append(game.guesses.index(guess))
            feedbacks.append(index[history[-1][1]])
        state = rule.state(played, feedbacks)
        expected = [game.allows(g, history) is None for g in game.guesses]
        assert rule.allowed(state).tolist() == expected
        assert hint_allowed(state, rule.positions, rule.counts).tolist() == expected
        assert [g for g, ok in zip(game.guesses, expected) if ok] == game.guesses_after(history)


STRATEGIES = ["entropy", "minimax", "most-parts", "expected-size", "optimal-expected", "optimal-worst"]


@pytest.fixture(scope="module")
def ultra_trees(lists) -> dict[str, bytes]:
    return {strategy: to_bytes(build(small(lists), Options(strategy=strategy))) for strategy in STRATEGIES}


def test_every_strategy_builds_a_tree_the_verifier_proves(ultra_trees):
    for name, data in ultra_trees.items():
        tree = player.loads(data, name)
        assert verify(tree).ok, name
        for secret in tree.game.secrets:  # each guess of each path could be the answer, as our own reading says
            history = [(words_of(tree.game, g), "".join("-YG"[m] for m in f)) for g, f in tree.path(secret)]
            assert all(could_be_the_answer(g, history[:k]) for k, (g, _) in enumerate(history)), (name, history)


def brute_force(game):
    """The least total and the fewest guesses at worst of ultra-hard mode, by plain recursion over (the
    secrets left, the guesses allowed) with our own scorer: shares no code with compiler/."""
    answers, guesses = [words_of(game, s) for s in game.secrets], [words_of(game, g) for g in game.guesses]

    def options(secrets, allowed):
        for guess in allowed:
            parts: dict[str, list[str]] = {}
            for s in secrets:
                parts.setdefault(wordle(guess, s), []).append(s)
            if len(parts) > 1 or guess in secrets:
                yield [(tuple(p), tuple(g for g in allowed if wordle(guess, g) == f))
                       for f, p in parts.items() if f != "GGGGG"]

    @cache
    def total(secrets, allowed):
        if len(secrets) == 1:
            return 1
        return min(len(secrets) + sum(total(*part) for part in parts) for parts in options(secrets, allowed))

    @cache
    def worst(secrets, allowed):
        if len(secrets) == 1:
            return 1
        return min(1 + max((worst(*part) for part in parts), default=0) for parts in options(secrets, allowed))

    return total(tuple(answers), tuple(guesses)), worst(tuple(answers), tuple(guesses))


def test_the_exact_search_matches_a_brute_force(lists, ultra_trees):
    """Guesses beyond the answers, so that the guesses allowed are not only the secrets left."""
    game = small(lists)
    total, worst = brute_force(game)
    assert player.loads(ultra_trees["optimal-expected"]).stats["total"] == total
    assert player.loads(ultra_trees["optimal-worst"]).stats["worst"] == worst == compiler.bound(game).worst
    hard = make_game("words", answers=str(lists[0]), guesses=str(lists[1]), hard=True)
    assert to_tree(hard, "optimal-expected").stats["total"] <= total  # a looser rule can only do as well or better


def to_tree(game, strategy: str) -> player.Tree:
    return player.loads(to_bytes(build(game, Options(strategy=strategy))))


def test_wordle_salet_ultra_hard_is_proven():
    """trees/RECORDS.md: the least total of ultra-hard Wordle opening with SALET (hard mode's: 8116)."""
    game = make_game("words", answers=str(WORDLE / "wordlist_orig_hidden"), guesses=str(WORDLE / "wordlist_orig_all"),
                     ultra_hard=True)
    tree = player.loads(to_bytes(build(game, Options(strategy="optimal-expected", first="salet"))))
    assert (tree.stats["total"], tree.stats["worst"]) == (8119, 8)
    assert verify(tree).ok


def test_a_broken_ultra_tree_is_refused(lists, ultra_trees):
    """The root's first child given a guess that could not be the answer: the verifier names the rule;
    ultra_hard taken off, written false, or beside hard false: the player refuses the file."""
    game, (header, body) = small(lists), decode(ultra_trees["entropy"])
    size = len(game.win)
    history = [(tuple(body["guess"][:size]), tuple(body["feedbacks"][body["edge_feedback"][0]]))]
    refused = next(g for g in game.guesses if game.allows(g, history) is not None)
    guesses = bytearray(body["guess"])
    guesses[size:2 * size] = bytes(refused)
    report = verify(player.loads(encode(header, {**body, "guess": bytes(guesses)}), "mutant"))
    assert not report.ok and any("ultra-hard mode" in e for e in report.errors), report.errors
    for change in ({"ultra_hard": False}, {"hard": False}, {"ultra_hard": "yes"}):
        changed = {**header, "game": {**header["game"], "params": {**header["game"]["params"], **change}}}
        with pytest.raises(FormatError, match="does not take"):
            player.loads(encode(changed, body), "mutant")


def test_the_format_version_says_ultra_hard(ultra_trees, lists):
    document, body = decode(ultra_trees["entropy"])
    assert document["version"] == [1, 5]
    assert {k: document["game"]["params"][k] for k in ("hard", "ultra_hard")} == {"hard": True, "ultra_hard": True}
    header = {k: v for k, v in document.items() if k not in ("format", "version", "body_sha256")}
    assert decode(encode_chunked(header, body, 8))[0]["version"] == [2, 3]
    hard = make_game("words", answers=str(lists[0]), guesses=str(lists[1]), hard=True)
    assert decode(to_bytes(build(hard, Options(strategy="entropy"))))[0]["version"] == [1, 1]  # as before


def test_a_feedback_rule_is_refused_with_ultra_hard(lists):
    with pytest.raises(ValueError, match="--ultra-hard keeps the hints of each letter's marks, which --feedback counts"):
        small(lists, feedback="counts")


# -- the three players --------------------------------------------------------------------------------
def trees_to_play(ultra_trees) -> dict[str, bytes]:
    chosen = {name: ultra_trees[name] for name in ("entropy", "optimal-expected")}
    document, body = decode(chosen["entropy"])
    header = {k: v for k, v in document.items() if k not in ("format", "version", "body_sha256")}
    return {**chosen, "entropy-chunked": encode_chunked(header, body, 8)}


def hostile_trees(ultra_trees) -> list[tuple[str, bytes]]:
    header, body = decode(ultra_trees["entropy"])
    out = []
    for change in ({"ultra_hard": False}, {"hard": False}, {"ultra_hard": True, "feedback": "counts"}):
        changed = {**header, "game": {**header["game"], "params": {**header["game"]["params"], **change}}}
        out.append((repr(change), encode(changed, body)))
    return out


def allowed_steps(tree: player.Tree, rng: random.Random) -> list:
    """Up to three steps against a random secret, each a guess the rule allows (now and then the suggestion)."""
    game, steps, secret = tree.game, [], rng.choice(tree.game.secrets)
    for _ in range(rng.randint(1, 3)):
        guess = (tree.suggest(steps) if rng.random() < 0.3 else None) or rng.choice(game.guesses_after(steps))
        steps.append((guess, game.score(guess, secret)))
        if steps[-1][1] == game.win:
            break
    return steps


def test_the_c_player_answers_as_python(ultra_trees):
    from test_c_player import CTree, c_library, c_suggest, histories, py_next, py_suggest, same
    from test_rules import c_refuses_as_python

    lib, rng = c_library(), random.Random(369)
    for name, data in trees_to_play(ultra_trees).items():
        tree, c = player.loads(data, name), CTree(lib, data=data, name=name)
        assert c.info.hard == 2
        assert [c.path(s) for s in tree.game.secrets] == [tree.path(s) for s in tree.game.secrets], name
        for history in histories(tree, rng, 5):
            assert same(c.next_guess(history), py_next(tree, history)), (name, history)
        for _ in range(20):
            steps = allowed_steps(tree, rng)
            assert c_suggest(lib, c, steps)[0] == py_suggest(tree, steps), (name, steps)
        c.close()
    c_refuses_as_python(lib, hostile_trees(ultra_trees))


ALLOWS_NODE = r"""
import { readFileSync } from "node:fs";
import { load } from "./src/index.js";
const out = [];
for (const { bytes, steps } of JSON.parse(readFileSync(0, "utf8"))) {
  let tree;
  try { tree = await load(Buffer.from(bytes, "base64"), "t"); } catch (error) { out.push({ refused: error.message }); continue; }
  const game = tree.game;
  out.push(steps.map((history) => game.guesses().map((g) => game.allows(g, history))));
}
process.stdout.write(JSON.stringify(out));
"""


def test_the_javascript_player_answers_as_python(ultra_trees):
    """Titles, paths, next guesses, the help off the tree and feedback texts (test_rules' script), every
    guess's refusal after random histories word for word, and the hostile files refused alike."""
    from test_js import JS, node as node_fixture
    from test_rules import PLAY_NODE, node_case

    node = node_fixture.__wrapped__()
    rng, played = random.Random(469), trees_to_play(ultra_trees)
    cases, expected, allows, refusals = [], [], [], []
    for name, data in played.items():
        case, answers = node_case(data, name, rng, allowed_steps, 10)
        cases.append(case)
        expected.append(answers)
        tree = player.loads(data, name)
        game = tree.game
        steps = [[(list(g), list(f)) for g, f in allowed_steps(tree, rng)] for _ in range(6)]
        allows.append({"bytes": base64.b64encode(data).decode(), "steps": steps})
        refusals.append([[game.allows(g, h) for g in game.guesses] for h in steps])
    allows += [{"bytes": base64.b64encode(data).decode(), "steps": []} for _, data in hostile_trees(ultra_trees)]
    for script, given in ((PLAY_NODE, cases), (ALLOWS_NODE, allows)):
        done = subprocess.run([node, "--input-type=module", "-e", script], cwd=JS, capture_output=True, text=True,
                              input=json.dumps(given), timeout=600)
        assert done.returncode == 0, done.stderr[-3000:]
        if script is PLAY_NODE:
            for name, js, py in zip(played, json.loads(done.stdout), expected):
                assert js == py, name
        else:
            answers = json.loads(done.stdout)
            assert answers[:len(played)] == refusals
            for (name, data), js in zip(hostile_trees(ultra_trees), answers[len(played):], strict=True):
                with pytest.raises(FormatError) as python:
                    player.loads(data, "t")
                assert js == {"refused": str(python.value)}, name

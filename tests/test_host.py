"""The adversarial host (issue 69, ``--host absurdle``, player/host.py): it answers each guess with the
feedback that keeps the most secrets, ties to the one that tells least. Its answers against our own
reading of Absurdle's rule; the fewest guesses that beat it (``bound --host``, compiler/host_search.py)
against a brute force of our own, and on Wordle's lists the published four; the JavaScript host
answers as Python's; ``play --you-guess --host absurdle`` in a terminal's stead."""
from __future__ import annotations

import json
import random
import subprocess
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from guesstree.compiler.host_search import fewest_against
from guesstree.player.games import make_game
from guesstree.player.host import Absurdle, answer

REPO = Path(__file__).resolve().parent.parent
WORDLE = REPO / "tests" / "data" / "wordle"
WORDS = ["abide", "aster", "crane", "eerie", "geese", "least", "llama", "mummy", "rates", "slate", "speed", "stale",
         "stare", "steal", "tales", "taser", "tears", "vivid"]


def own_answer(game, guess, secrets):
    """Absurdle's rule as we read it: the most secrets kept; between as many, the fewest exact marks,
    then the fewest present ones, then the lower marks left to right (for pegs: fewest black, then white)."""
    parts = Counter(game.score(guess, s) for s in secrets)
    most = max(parts.values())
    if game.name == "words":
        best = min((f for f, n in parts.items() if n == most), key=lambda f: (f.count(2), f.count(1), f))
    else:
        best = min(f for f, n in parts.items() if n == most)
    return best, [s for s in secrets if game.score(guess, s) == best]


@pytest.fixture(scope="module")
def small_games(tmp_path_factory):
    path = tmp_path_factory.mktemp("host") / "words.txt"
    path.write_text("".join(w + "\n" for w in WORDS))
    return {"words": make_game("words", answers=str(path)), "mastermind-3x3": make_game("mastermind", colours=3, holes=3),
            "mastermind-4x3-distinct": make_game("mastermind", colours=4, holes=3, secret_repeats=False),
            "black-3x3": make_game("mastermind", colours=3, holes=3, feedback="black")}


def test_the_host_answers_as_our_reading_of_absurdle(small_games):
    rng = random.Random(7)
    for name, game in small_games.items():
        for _ in range(60):
            left, host = list(game.secrets), Absurdle(game)
            for guess in rng.sample(game.guesses, 4):
                expected, left = own_answer(game, guess, left)
                assert host.answer(guess) == expected and host.left == left, (name, guess)


def test_it_answers_the_win_only_for_the_last_secret(small_games):
    game = small_games["words"]
    two = [game.parse_code("crane"), game.parse_code("slate")]
    assert answer(game, two[0], two)[0] != game.win  # one each way: the one that tells least, not the win
    assert answer(game, two[1], [two[1]])[0] == game.win


def brute_fewest(game) -> int:
    """The fewest guesses that beat the host, by plain recursion over the sets it keeps (our own answer)."""
    @cache
    def fewest(left: tuple) -> int:
        if len(left) == 1:
            return 1
        best = 99
        for guess in game.guesses:
            kept = tuple(own_answer(game, guess, list(left))[1])
            if len(kept) < len(left):
                best = min(best, 1 + fewest(kept))
        return best
    return fewest(tuple(game.secrets))


def test_the_fewest_guesses_match_a_brute_force(small_games):
    for name, game in small_games.items():
        found = fewest_against(game)
        assert found.worst == brute_fewest(game), name
        host = Absurdle(game)  # the sequence, replayed by the player's host, wins on its last guess
        assert [host.answer(g) for g in found.guesses] == found.answers and found.answers[-1] == game.win, name
        assert len(found.guesses) == found.worst


def test_wordle_against_absurdle_takes_four():
    """m1el/absurdle-solver: no two guesses leave one answer (so three never win), and four-guess wins exist.
    Ours: a four-guess win with no tie on the way, and the lower side whatever the host's rule between ties."""
    game = make_game("words", answers=str(WORDLE / "wordlist_orig_hidden"), guesses=str(WORDLE / "wordlist_orig_all"))
    found = fewest_against(game)
    assert (found.worst, found.ties, found.any_rule) == (4, 0, True)
    host = Absurdle(game)
    assert [host.answer(g) for g in found.guesses] == found.answers and host.left == [found.guesses[-1]]


def test_the_bound_command_takes_the_host(cli):
    done = cli("bound", "mastermind", "--colours", "3", "--holes", "3", "--host", "absurdle", "--json", "-q")
    assert done.exit_code == 0, done.output
    said = json.loads(done.output)
    assert said["host"] == "absurdle" and said["worst"] == brute_fewest(make_game("mastermind", colours=3, holes=3))
    for args, message in ((["--host", "host"], "--host must be absurdle, not 'host'"),
                          (["--host", "absurdle", "--candidates", "consistent"], "leave out --candidates consistent")):
        done = cli("bound", "mastermind", "--colours", "3", "--holes", "3", *args)
        assert done.exit_code != 0 and message in done.output, done.output


def test_play_you_guess_against_absurdle(cli, tmp_path):
    """The terminal's "you guess" against the host: the hints beat it, each answer the host's own."""
    out = tmp_path / "t.msgpack.zst"
    assert cli("compile", "mastermind", "--colours", "3", "--holes", "3", "--strategy", "entropy", "-o", out, "-q").exit_code == 0
    from guesstree import player

    tree = player.load(out)
    game, host, history, lines = tree.game, Absurdle(tree.game), [], []
    while not history or history[-1][1] != game.win:  # the tree's hints, as `hint` gives them
        guess = tree.suggest(history, True)
        history.append((guess, host.answer(guess)))
        lines.append(game.format_code(guess))
    done = cli("play", str(out), "--you-guess", "--host", "absurdle", input="hint\n" + "\n".join(lines) + "\n")
    assert done.exit_code == 0, done.output
    for guess, feedback in history[:-1]:
        assert f"{game.format_code(guess)} gets {game.format_feedback(feedback)}" in done.output
    assert f"You found {game.format_code(history[-1][0])} in {len(history)} guess" in done.output
    done = cli("play", str(out), "--you-guess", "--host", "absurdle", input=f"{lines[0]}\nreveal\n")
    assert "Absurdle holds no secret: " in done.output and "still fit its answers" in done.output
    done = cli("play", str(out), "--host", "absurdle")
    assert done.exit_code != 0 and "--host answers your guesses: give --you-guess too" in done.output


HOST_NODE = r"""
import { readFileSync } from "node:fs";
import { makeGame, hostAnswer } from "./src/index.js";
const out = [];
for (const { name, params, plays } of JSON.parse(readFileSync(0, "utf8"))) {
  const game = makeGame(name, params, () => params.answers_sha256);
  out.push(plays.map((guesses) => {
    let left = game.secrets();
    return guesses.map((g) => { const [f, kept] = hostAnswer(game, g, left); left = kept; return [f, left.length]; });
  }));
}
process.stdout.write(JSON.stringify(out));
"""


def test_the_javascript_host_answers_as_python(small_games):
    from test_js import JS, node as node_fixture

    node, rng, cases, expected = node_fixture.__wrapped__(), random.Random(70), [], []
    for game in small_games.values():
        spec = game.portable().spec() if game.name == "words" else game.spec()
        plays = [rng.sample(game.guesses, 4) for _ in range(30)]
        cases.append({"name": spec["name"], "params": spec["params"], "plays": [[list(g) for g in p] for p in plays]})
        answers = []
        for play in plays:
            host = Absurdle(game)
            answers.append([[list(host.answer(g)), len(host.left)] for g in play])
        expected.append(answers)
    done = subprocess.run([node, "--input-type=module", "-e", HOST_NODE], cwd=JS, capture_output=True, text=True,
                          input=json.dumps(cases), timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout) == expected

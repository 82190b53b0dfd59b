"""Word games: the official feedback rule, word lists, hard mode, a fixed opener."""
import random
from pathlib import Path

import numpy as np
import pytest

from guesstree import player
from guesstree.compiler import Options, build, to_bytes
from guesstree.player.artifact import decode, encode
from guesstree.player.games import make_game
from guesstree.player.verify import verify
from guesstree.player.words import DuplicateWords, list_sha256
from guesstree.compiler.workers.settings import SearchSettings

ONE_THREAD = SearchSettings(workers=1)  # a search on this thread alone

HERE = Path(__file__).parent
SMALL = HERE / "data" / "words-small.txt"
WORDLE = HERE / "data" / "wordle"  # the original lists, shipped: a clone tests its own claims
HIDDEN, ALL = WORDLE / "wordlist_orig_hidden", WORDLE / "wordlist_orig_all"


def words(**params):
    return make_game("words", answers=str(SMALL), **params)


@pytest.mark.parametrize("guess, secret, marks", [
    ("speed", "abide", "--Y-Y"),  # two E guessed, one in the secret: only the first is present
    ("abide", "speed", "---YY"),
    ("speed", "erase", "Y-YY-"),  # no exact E: both present, as ERASE has two
    ("eerie", "there", "Y-Y-G"),  # the last E exact leaves one E of THERE for the first two: the first
    ("llama", "hello", "YY---"),
    ("crane", "crane", "GGGGG"),
])
def test_score_follows_the_official_rule_for_repeated_letters(guess, secret, marks):
    game = words()
    assert game.format_feedback(game.score(game.parse_code(guess), game.parse_code(secret))) == marks


@pytest.mark.parametrize("text", ["GY---", "gy-..", "GYBBB", "21000", "🟩🟨⬛⬛⬛", "🟩🟨⬜⬜⬜", "G Y - - -"])
def test_feedback_is_accepted_in_the_usual_spellings(text):
    assert words().parse_feedback(text) == (2, 1, 0, 0, 0)


@pytest.mark.parametrize("text, reason", [("GGGGY", "cannot occur"), ("GY--", "5 marks"), ("GYQ--", "5 marks")])
def test_impossible_or_malformed_feedback_is_refused(text, reason):
    with pytest.raises(ValueError, match=reason):
        words().parse_feedback(text)


def test_codes_round_trip_and_bad_words_are_refused():
    game = words()
    assert game.format_code(game.parse_code("Crane")) == "CRANE"
    for bad in ("cran", "cranes", "cr4ne", "crâne"):
        with pytest.raises(ValueError):
            game.parse_code(bad)


def test_lists_are_case_folded_deduplicated_and_sorted(tmp_path):
    lines = SMALL.read_text().split()
    shuffled = tmp_path / "shuffled.txt"
    shuffled.write_text("\n".join(w.upper() if i % 2 else w for i, w in enumerate(random.Random(1).sample(lines, len(lines)))) + "\ncrane\n\n")
    game = make_game("words", answers=str(shuffled))
    with pytest.warns(DuplicateWords, match=r"shuffled.txt: 1 duplicate word dropped, the first 'crane' on line \d+ "
                                            r"\(as on line \d+\)$"):  # said, not dropped without a word (issue 67)
        assert [game.format_code(s).lower() for s in game.secrets] == sorted(set(lines))
    assert game.params()["answers_sha256"] == words().params()["answers_sha256"] == list_sha256(sorted(set(lines)))
    # the tree does not depend on the order of a file, only on its words
    assert build(game, Options("entropy")).node_guess == build(words(), Options("entropy")).node_guess


def test_a_bad_line_is_reported_with_file_and_line(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("crane\nslate\nsl@te\n")
    with pytest.raises(ValueError, match=r"bad.txt, line 3: 'sl@te'"):
        _ = make_game("words", answers=str(bad)).secrets


def test_an_answer_that_is_not_an_allowed_guess_is_refused(tmp_path):
    guesses = tmp_path / "guesses.txt"
    guesses.write_text("crane\n")
    with pytest.raises(ValueError, match="could never be won"):
        _ = make_game("words", answers=str(SMALL), guesses=str(guesses)).guesses


@pytest.mark.parametrize("strategy", ["first", "random", "entropy", "worst-entropy", "sampled-entropy",
                                      "minimax", "most-parts", "expected-size"])
@pytest.mark.parametrize("hard", [False, True])
def test_every_heuristic_builds_a_tree_that_verifies(strategy, hard):
    tree = player.loads(to_bytes(build(words(hard=hard), Options.shared(strategy, guess_sample=8, secret_sample=6))))
    report = verify(tree)
    assert report.ok, report.errors
    assert report.secrets == 20


def test_fast_and_reference_engines_agree_in_hard_mode():
    for strategy in ("entropy", "minimax"):
        fast = build(words(hard=True), Options(strategy))
        assert to_bytes(fast) == to_bytes(build(words(hard=True), Options(strategy, engine="reference")))


def test_hard_mode_rule():
    game = words(hard=True)
    code = game.parse_code
    history = [(code("crane"), game.parse_feedback("G-Y--"))]  # C at 1, an A somewhere
    assert game.allows(code("cater"), history) is None
    assert "fixed C at position 1" in game.allows(code("acute"), history)
    assert "revealed A" in game.allows(code("clone"), history)
    assert words(hard=False).allows(code("clone"), history) is None


def test_verify_checks_the_hard_mode_rule_on_every_path():
    game = words(hard=True)
    data = to_bytes(build(game, Options("entropy")))
    header, body = decode(data)
    guesses = bytearray(body["guess"])
    tree = player.loads(data)
    # replace the guess of a node below the root by an allowed word that ignores the hints
    node = next(n for n in range(1, tree.nodes) if tree.edges(n))
    history = next(h for h in _histories(tree) if h[0] == node)[1]
    rebel = next(g for g in game.guesses if game.allows(g, history))
    guesses[node * 5:(node + 1) * 5] = bytes(rebel)
    report = verify(player.loads(encode(header, {**body, "guess": bytes(guesses)})))
    assert not report.ok
    assert any("hard mode" in e and f"node {node}" in e for e in report.errors)


def _histories(tree):
    stack = [(0, [])]
    while stack:
        node, history = stack.pop()
        yield node, history
        for feedback, child in tree.edges(node):
            stack.append((child, history + [(tree.guess_of(node), feedback)]))


def test_a_tree_carries_its_words_and_an_older_one_checks_its_files(tmp_path):
    """A tree (format 1.1) needs no word list; one written before (1.0) names its files and
    refuses a list whose sha256 differs."""
    from guesstree.compiler.builder.writer import body, header
    from guesstree.player.artifact import encode

    answers = tmp_path / "answers.txt"
    answers.write_text(SMALL.read_text())
    game = make_game("words", answers=str(answers))
    built = build(game, Options("entropy"))
    data = to_bytes(built)
    answers.unlink()  # moved away from its list: the tree still stands alone
    tree = player.loads(data)
    assert "answers" not in tree.game.params() and tree.game.params()["answer_words"].split() == sorted(
        w.strip() for w in SMALL.read_text().split())
    assert verify(tree).ok and tree.game == game
    older = {**header(built), "game": game.spec()}  # the file names, as 1.0 wrote them
    answers.write_text(SMALL.read_text().replace("lemon", "lemma"))
    with pytest.raises(ValueError, match="not the one the tree was built from"):
        verify(player.loads(encode(older, body(built))))
    answers.write_text(SMALL.read_text())
    assert verify(player.loads(encode(older, body(built)))).ok


def test_a_fixed_opener_on_any_game():
    built = build(words(), Options("entropy", first="lemon"))
    assert words().guesses[built.node_guess[0]] == words().parse_code("lemon")
    assert built.options.spec()["first"] == "lemon"
    mastermind = build(make_game("mastermind"), Options("minimax", first="AABB"))
    assert mastermind.node_guess[0] == make_game("mastermind").guesses.index((0, 0, 1, 1))
    assert mastermind.stats["total"] == 5801  # Knuth's own opener, his published total
    with pytest.raises(ValueError, match="not an allowed guess"):
        build(words(), Options("entropy", first="zzzzz"))


def test_cli_compiles_plays_and_solves_a_word_tree(cli, tmp_path):
    path = tmp_path / "words.msgpack.zst"
    result = cli("compile", "words", "--answers", str(SMALL), "--hard", "--first", "slate",
                 "--strategy", "entropy", "-o", path)
    assert result.exit_code == 0, result.output
    result = cli("solve", path, "melon")
    assert result.exit_code == 0 and result.stdout.splitlines()[0].startswith("1. SLATE")
    assert cli("verify", path).exit_code == 0


@pytest.mark.slow
def test_the_original_wordle_lists():
    game = make_game("words", answers=str(HIDDEN), guesses=str(ALL))
    assert (len(game.secrets), len(game.guesses)) == (2315, 12972)
    assert game.params()["answers_sha256"] == "f40e47975cf360ff9febe7d49c8e285054d8fa3fb9644cea575922060951d6ee"
    tree = player.loads(to_bytes(build(game, Options("entropy", first="salet"))))
    report = verify(tree)
    assert report.ok and report.worst <= 6
    assert tree.next_guess([]) == game.parse_code("salet")


@pytest.mark.parametrize("strategy, max_depth", [("optimal-worst", None), ("optimal-expected", None),
                                                  ("optimal-expected", 3)])
def test_exact_strategies_on_a_word_game(strategy, max_depth):
    built = build(words(), Options(strategy, max_depth=max_depth))
    report = verify(player.loads(to_bytes(built)), max_depth=max_depth)
    assert report.ok, report.errors
    entropy = build(words(), Options("entropy")).stats
    assert built.stats["total"] <= entropy["total"] and built.stats["worst"] <= entropy["worst"]


# -- exact strategies in hard mode: the search follows the rule ------------------------------

IGHT = dict(answers=str(HERE / "data" / "words-ight.txt"), guesses=str(HERE / "data" / "words-ight-guesses.txt"))
INF = float("inf")


def brute_force_with_rules(game, first=None):
    """``(total, worst)`` at the root by plain recursion with the game's own ``score`` and
    ``allows`` (memoised on the candidates and the set of allowed guesses); shares no code
    with compiler/."""
    guesses = game.guesses
    answers = [[game.score(g, s) for s in game.secrets] for g in guesses]

    def allowed(history):
        return tuple(g for g in range(len(guesses)) if game.allows(guesses[g], history) is None)

    def options(candidates, history):
        for guess in allowed(history) if history or first is None else [guesses.index(game.parse_code(first))]:
            parts: dict = {}
            for s in candidates:
                parts.setdefault(answers[guess][s], []).append(s)
            if len(parts) > 1 or game.win in parts:
                yield [(history + ((guesses[guess], f),), tuple(p)) for f, p in parts.items() if f != game.win]

    totals: dict = {}
    worsts: dict = {}

    def total(candidates, budget, history=()):
        if len(candidates) == 1:
            return 1 if budget >= 1 else INF
        if budget < 2:
            return INF
        key = (candidates, budget, allowed(history), bool(history))
        if key not in totals:
            totals[key] = min((len(candidates) + sum(total(p, budget - 1, h) for h, p in parts)
                               for parts in options(candidates, history)), default=INF)
        return totals[key]

    def worst(candidates, history=()):
        if len(candidates) == 1:
            return 1
        key = (candidates, allowed(history), bool(history))
        if key not in worsts:
            worsts[key] = min((1 + max((worst(p, h) for h, p in parts), default=0)
                               for parts in options(candidates, history)), default=INF)
        return worsts[key]

    root = tuple(range(len(game.secrets)))
    return (lambda budget: total(root, budget)), (lambda: worst(root))


@pytest.mark.parametrize("hard, first", [(False, None), (False, "light"),
                                         pytest.param(True, None, marks=pytest.mark.slow), (True, "light")])
def test_exact_searches_follow_the_hard_mode_rule(hard, first):
    """After LIGHT, hard mode must keep -IGHT and can only try the -IGHT words one by one."""
    from guesstree.compiler.exact import searched_game
    from guesstree.compiler.search.solver import Solver
    from guesstree.compiler.search.table import INF as NONE

    game = make_game("words", hard=hard, **IGHT)
    total, worst = brute_force_with_rules(game, first)
    solver = Solver(searched_game(game, first=first), ONE_THREAD)
    assert solver.minimum_worst().worst == worst()
    for budget in range(2, 9):
        assert solver.minimum_total(budget) == (NONE if total(budget) == INF else total(budget))
    expected = {(False, None): (22, 3), (False, "light"): (28, 3), (True, None): (22, 3), (True, "light"): (37, 7)}
    assert (total(9), worst()) == expected[hard, first]


@pytest.mark.parametrize("strategy", ["optimal-expected", "optimal-worst"])
def test_optimal_trees_in_hard_mode_keep_the_rule_on_every_path(strategy):
    built = build(make_game("words", hard=True, **IGHT), Options(strategy, first="light"))
    assert (built.stats["total"], built.stats["worst"]) == (37, 7)
    report = verify(player.loads(to_bytes(built)))
    assert report.ok, report.errors


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["hard", "ultra_hard"])
def test_the_hint_rule_allows_exactly_what_the_game_allows(mode):
    """The rule's state, folded over random histories by ``HintRule`` (the rule run in Python) and
    by the exact search (the same rule compiled), against ``Words.allows``: hard mode's and ultra-hard mode's."""
    from guesstree.compiler.search import hint_kernels as hint
    from guesstree.compiler.engine.codes import codes_array
    from guesstree.compiler.engine.hint_rule import HintRule

    game = make_game("words", answers=str(HIDDEN), guesses=str(ALL), **{mode: True})
    rule = HintRule(game, codes_array(game.guesses))
    index = {f: i for i, f in enumerate(game.feedbacks())}
    rng = random.Random(5)
    sample = rng.sample(range(len(game.guesses)), min(400, len(game.guesses)))
    for _ in range(60):
        secret = rng.choice(game.secrets)
        compiled, played, answers, history = rule.start, [], [], []
        for _ in range(rng.randint(1, 3)):
            allowed = hint.hint_allowed(compiled, rule.positions, rule.counts)
            guess = rng.choice([g for g in sample if allowed[g]] or [game.guesses.index(secret)])
            feedback = game.score(game.guesses[guess], secret)
            played.append(guess)
            answers.append(index[feedback])
            history.append((game.guesses[guess], feedback))
            compiled = hint.hint_next(compiled, rule.positions, rule.marks, rule.counts, guess, index[feedback])
        state = rule.state(played, answers)
        assert np.array_equal(state, compiled)
        expected = [game.allows(game.guesses[g], history) is None for g in sample]
        assert rule.allowed(state)[sample].tolist() == expected
        assert hint.hint_allowed(compiled, rule.positions, rule.counts)[sample].tolist() == expected


def test_cli_compiles_and_verifies_an_optimal_hard_mode_tree(cli, tmp_path):
    path = tmp_path / "ight.msgpack.zst"
    result = cli("compile", "words", "--answers", IGHT["answers"], "--guesses", IGHT["guesses"], "--hard",
                 "--first", "light", "--strategy", "optimal-expected", "-o", path)
    assert result.exit_code == 0, result.output
    assert "total 37" in result.output and "worst 7" in result.output
    result = cli("verify", path, "--max-depth", "6")  # hard mode leaves the -IGHT words one by one
    assert result.exit_code == 1 and "1 secret takes more than 6 guesses, the bound, e.g. TIGHT takes 7" in result.output


def test_exact_strategies_refuse_a_rule_they_cannot_follow():
    class Picky(type(make_game("mastermind", colours=2, holes=2))):
        def allows(self, guess, history):
            return None if not history or guess[0] == 0 else "guesses after the first start with A"

    with pytest.raises(ValueError, match="--candidates consistent"):
        build(Picky(colours=2, holes=2), Options("optimal-expected"))
    built = build(words(hard=True), Options("optimal-expected", candidates="consistent"))
    assert verify(player.loads(to_bytes(built))).ok


@pytest.mark.slow
def test_optimal_wordle_tree_opening_with_salet_takes_7920_guesses():
    """Selby (2022), Bertsimas and Paskov (2022): 7920 guesses over the 2315 answers, worst case 5."""
    game = make_game("words", answers=str(HIDDEN), guesses=str(ALL))
    built = build(game, Options("optimal-expected", first="salet"))
    assert (built.stats["total"], built.stats["worst"]) == (7920, 5)
    assert built.proof["optimal"] is True
    assert verify(player.loads(to_bytes(built))).ok


@pytest.mark.slow
def test_optimal_hard_mode_wordle_tree_opening_with_salet_takes_8122_guesses():
    """Selby (2022), Bertsimas and Paskov (2022): 8122 guesses in hard mode, within Wordle's 6."""
    game = make_game("words", answers=str(HIDDEN), guesses=str(ALL), hard=True)
    built = build(game, Options("optimal-expected", first="salet", max_depth=6))
    assert (built.stats["total"], built.stats["worst"]) == (8122, 6)
    assert built.proof["minimum_total"] == 8122
    report = verify(player.loads(to_bytes(built)), max_depth=6)  # the hard-mode rule on every path
    assert report.ok, report.errors


@pytest.mark.parametrize("text", ["GYWWW", "gy-ww"])
def test_w_is_refused_as_a_mark_for_it_means_present_in_mastermind(text):
    with pytest.raises(ValueError, match=r"W is no mark of word games \(in Mastermind it means present\); write Y for present"):
        words().parse_feedback(text)


@pytest.mark.parametrize("text", ["GYXXX", "GY.B0", "gyxb-"])
def test_the_documented_absent_marks_are_taken(text):
    assert words().parse_feedback(text) == (2, 1, 0, 0, 0)


def test_a_word_list_may_hold_comments_and_blank_lines(tmp_path):
    from guesstree.player.words import read_words

    path = tmp_path / "answers.txt"
    path.write_text("# five-letter answers, from our puzzle\n\ncrane  # the first\nSLATE\n   \n#trace\nabbey\n")
    assert read_words(str(path), 5) == ["abbey", "crane", "slate"]
    path.write_text("# header\ncrane\ncran # too short\n")
    with pytest.raises(ValueError, match=r"answers.txt, line 3: 'cran' is not a word of 5 letters"):
        read_words(str(path), 5)


@pytest.mark.parametrize("data, why", [
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "not UTF-8 text (byte 0 is 0x89)"),
    (b"crane\x00\x00\x00\x00", "a binary file (it holds NUL bytes)"),
])
def test_a_binary_word_list_is_named_in_one_line(tmp_path, data, why):
    from guesstree.player.words import read_words

    path = tmp_path / "words.bin"
    path.write_bytes(data)
    with pytest.raises(ValueError) as refused:
        read_words(str(path), 5)
    assert str(refused.value) == f"{path}: not a word list: {why}; a word list is one word per line"

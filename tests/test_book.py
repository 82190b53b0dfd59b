"""The opening book (player/book.py, trees/book/): after a first guess of one's own that the book
holds (in a peg game: any first guess of a class it holds), ``suggest`` plays that opener's optimum."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from guesstree import player
from guesstree.player import book
from guesstree.player.artifact import FormatError
from guesstree.player.games import make_game
from test_advice import follow, longest_game  # every secret from an opener (or own guesses), then suggest

TREES = Path(__file__).parent.parent / "trees"
BOOK = TREES / "book"


@pytest.mark.parametrize("code, first", [("ABAC", "AABC"), ("FEDC", "ABCD"), ("BBAB", "AAAB"), ("EEEE", "AAAA"),
                                         ("CFFC", "AABB"), ("DCCE", "AABC"), ("AABC", "AABC")])
def test_a_first_guess_goes_to_the_first_code_of_its_class(code, first):
    game = make_game("mastermind")
    canonical, symmetry = book.class_of(game.parse_code(code), game.symbols)
    assert game.format_code(canonical) == first
    assert symmetry.back(canonical) == game.parse_code(code)


@pytest.mark.parametrize("name, params", [("mastermind", {}), ("bulls-cows", {}),
                                          ("mastermind", {"colours": 5, "holes": 5, "secret_repeats": False,
                                                          "guess_repeats": False})])
def test_the_symmetry_keeps_every_score_and_every_code_of_the_game(name, params):
    """What the book relies on: carried to the class's first code and back, codes stay codes of the
    game and every feedback is the same."""
    game = make_game(name, **params)
    rng = random.Random(3)
    for _ in range(40):
        _, symmetry = book.class_of(rng.choice(game.guesses), game.symbols)
        for guess, secret in zip(rng.sample(game.guesses, 30), rng.sample(game.secrets, 30)):
            moved, hidden = symmetry.forward(guess), symmetry.forward(secret)
            assert game.is_guess(moved) and hidden in game.secrets
            assert game.score(moved, hidden) == game.score(guess, secret)
            assert symmetry.back(moved) == guess


# The optimum for each class of first guess (`guesstree compile mastermind --first X --strategy optimal-expected`).
MASTERMIND_OPTIMA = {"EEEE": (6318, 6), "DDFD": (5791, 6), "BFBF": (5702, 6), "CBCA": (5625, 6), "FEDC": (5673, 6)}


@pytest.mark.parametrize("tree_name", ["mastermind-c6-h4-optimal-expected", "mastermind-c6-h4-entropy"])
@pytest.mark.parametrize("opener", sorted(MASTERMIND_OPTIMA))
def test_mastermind_after_any_first_guess_suggest_plays_its_optimum(tree_name, opener):
    """Any first guess of Mastermind 6x4 is in one of five classes, each in the book: suggest then
    wins every secret in exactly that first guess's optimal total, on the optimal tree and on
    another tree of the same game alike."""
    total, worst, _ = follow(player.load(TREES / f"{tree_name}.msgpack.zst"), opener)
    assert (total, worst) == MASTERMIND_OPTIMA[opener]


def test_bulls_and_cows_after_any_first_guess_suggest_plays_the_optimum():
    """Every Bulls and Cows first guess is alike: after 1234, the book's optimum from 0123, carried
    by the symmetry, wins in 26 274 with worst 7 (the rule alone: 26 758)."""
    tree = player.load(TREES / "bulls-cows-d10-l4-optimal-expected.msgpack.zst")
    assert follow(tree, "1234")[:2] == (26274, 7)


def in_book(folder: Path) -> book.Book:
    """The book of ``folder`` (its BOOK.json, if any), its trees loaded without a book of their own."""
    return book.Book(folder, lambda data, name: player.loads(data, name, book=None))


@pytest.mark.parametrize("given", ["empty", "none"])
def test_without_a_book_a_first_guess_of_the_trees_class_follows_the_tree_itself(tmp_path, given):
    """With no book (an empty folder's, or none), 1234 is still in the class of the optimal tree's
    0123: the tree itself, carried by the symmetry, plays on (26 274, worst 7); 5678 on the minimax
    tree plays as that tree does."""
    without = in_book(tmp_path) if given == "empty" else None
    optimal = player.load(TREES / "bulls-cows-d10-l4-optimal-expected.msgpack.zst", book=without)
    assert follow(optimal, "1234")[:2] == (26274, 7)
    minimax = player.load(TREES / "bulls-cows-d10-l4-minimax.msgpack.zst", book=without)
    assert follow(minimax, "5678")[:2] == (minimax.stats.total, minimax.stats.worst)


def test_wordle_after_crane_suggest_plays_cranes_optimum():
    """CRANE is in the book: its optimum, 7930 with worst 6 (the rule alone: 7951)."""
    tree = player.load(TREES / "wordle-salet-optimal-expected.msgpack.zst")
    assert follow(tree, "crane")[:2] == (7930, 6)


def test_wordle_hard_mode_after_stare_wins_within_six_and_keeps_the_rule():
    """Hard mode after STARE: the rule alone takes 7 for some answer; the book's tree wins every
    answer within 6, in 8208, every guess keeping the hints."""
    tree = player.load(TREES / "wordle-hard-salet-optimal-expected-depth6.msgpack.zst")
    assert follow(tree, "stare") == (8208, 6, [])


def test_without_the_book_suggest_follows_the_rule_alone():
    tree = player.load(TREES / "wordle-salet-optimal-expected.msgpack.zst")
    history = [("crane", "GYY--")]
    assert tree.game.format_code(tree.suggest(history)) != "BARRO"  # the book's guess for CRANE's part
    tree.book = None
    assert tree.game.format_code(tree.suggest(history)) == "BARRO"
    assert player.load(TREES / "wordle-salet-optimal-expected.msgpack.zst", book=None).suggest(history) == \
        tree.game.parse_code("BARRO")  # the book passed in, or none


def test_the_book_is_passed_in_and_shared_by_default():
    tree = player.load(TREES / "mastermind-c6-h4-entropy.msgpack.zst")
    assert tree.book is player.tree.shipped_book() and tree.book.folder == BOOK
    assert player.load_shipped("mastermind-c6-h4-entropy").book is tree.book
    opening = tree.book.opening(tree, (0, 0, 1, 2))
    assert opening.stats.total == 5625 and opening.book is None  # AABC's optimum, Koyama and Lai's 5625
    with pytest.raises(TypeError, match="book must be a player.book.Book, None or 'shipped', not str"):
        player.load(TREES / "mastermind-c6-h4-entropy.msgpack.zst", book="mine")


def test_the_index_names_each_trees_game_first_guess_and_figures():
    index = json.loads((BOOK / book.INDEX).read_text())
    assert index["format"] == book.FORMAT
    listed = {opening["file"] for opening in index["openings"]}
    assert listed == {path.name for path in BOOK.glob("*.msgpack.zst")}
    for opening in index["openings"]:
        tree = player.load(BOOK / opening["file"])
        assert opening["game"] == book.game_key(tree.header["game"])
        assert opening["first"] == tree.game.format_code(tree.guess_of(0))
        assert (opening["total"], opening["worst"]) == (tree.stats.total, tree.stats.worst)
        assert tree.strategy["name"] == "optimal-expected" and tree.strategy.get("optimal")
        if tree.game.name == "words":  # the guesses it plays: the tree it serves carries the rest
            assert tree.allowed_guesses == 12972 and len(tree.game.guesses) < 2500
        if tree.game.permutable:  # listed under its class's first code, as the player looks it up
            assert book.class_of(tree.guess_of(0), tree.game.symbols)[0] == tree.guess_of(0)


@pytest.mark.parametrize("text, why", [
    (b"{not json", "BOOK.json: not JSON"),
    (b'{"format": "other", "openings": []}', "not a guesstree-book index"),
    (b'{"format": "guesstree-book", "openings": [{"file": "../x.msgpack.zst", "first": "A", "game": {}}]}',
     "opening 1 is not a file, a game and a first guess"),
    (b'{"format": "guesstree-book", "openings": ' + b" " * (1 << 20) + b"[]}", "larger than a book's index may be"),
])
def test_a_damaged_index_is_refused_with_its_reason(tmp_path, text, why):
    (tmp_path / book.INDEX).write_bytes(text)
    tree = player.load(TREES / "mastermind-c6-h4-entropy.msgpack.zst", book=in_book(tmp_path))
    with pytest.raises(FormatError, match=why):
        tree.book.opening(tree, (0, 0, 1, 2))
    with pytest.raises(FormatError, match=why):
        tree.suggest([("AABC", "0B0W")])


def test_without_an_index_there_is_no_book(tmp_path):
    tree = player.load(TREES / "mastermind-c6-h4-entropy.msgpack.zst", book=in_book(tmp_path))
    assert tree.suggest([("AAAA", "0B0W")]) is not None  # the rule alone
    assert tree.book.opening(tree, (0, 0, 0, 0)) is None and tree.book.trees_for(tree) == []


def test_the_web_page_embeds_its_games_book_unless_told_not_to(cli, tmp_path):
    """The page plays the book as the players do (tests/test_browser.py compares its suggestions
    with Python's); ``--no-book`` leaves it out, and applies to pages only."""
    from guesstree.player.export import page_data

    tree = player.load(TREES / "mastermind-c6-h4-entropy.msgpack.zst")
    embedded = page_data(tree)["book"]
    assert sorted(opening["header"]["stats"]["total"] for opening in embedded) == [5625, 5673, 5702, 5791, 6318]
    assert all(opening["header"]["game"] == book.game_key(tree.header["game"]) for opening in embedded)
    source = TREES / "wordle-salet-optimal-expected.msgpack.zst"
    with_book, without = tmp_path / "with.html", tmp_path / "without.html"
    assert cli("export", source, "-o", with_book).exit_code == 0
    assert cli("export", source, "-o", without, "--no-book").exit_code == 0
    assert with_book.stat().st_size > without.stat().st_size + 10 * 20_000  # ten openers' trees
    refused = cli("export", source, "--format", "json", "--no-book")
    assert refused.exit_code == 2 and "--no-book applies to --format html only" in refused.stderr


def test_a_listed_file_that_is_missing_or_damaged_is_refused_by_name(tmp_path):
    listing = json.loads((BOOK / book.INDEX).read_text())
    (tmp_path / book.INDEX).write_text(json.dumps(listing))
    aaaa = "mastermind-c6-h4-optimal-expected-first-aaaa.msgpack.zst"
    for damage, why in ((None, "listed in BOOK.json but cannot be read"), (b"not zstd", "not a zstd-compressed artifact")):
        if damage is not None:
            (tmp_path / aaaa).write_bytes(damage)
        tree = player.load(TREES / "mastermind-c6-h4-entropy.msgpack.zst", book=in_book(tmp_path))
        with pytest.raises(FormatError, match=f"book/{aaaa}: {why}"):
            tree.suggest([("AAAA", "0B0W")])


@pytest.mark.slow
def test_after_the_book_then_a_guess_of_ones_own_suggest_still_wins():
    """Wordle: CRANE (in the book), then PILOT of one's own, then suggest (the rule, off the book):
    every answer (one in five here) is won, each suggestion narrows the candidates, none past 7."""
    tree = player.load(TREES / "wordle-salet-optimal-expected.msgpack.zst")
    assert longest_game(tree, ("crane", "pilot"), tree.game.secrets[::5]) <= 7


def test_a_history_no_secret_gives_is_refused_after_a_booked_first_guess_too():
    tree = player.load(TREES / "wordle-salet-optimal-expected.msgpack.zst")
    with pytest.raises(player.InconsistentHistory, match="no secret gives all these answers: CRANE GYY--, CARGO GGG-G"):
        tree.suggest([("crane", "GYY--"), ("cargo", "GGG-G")])
    assert tree.suggest([("crane", "GYY--"), ("cargo", "GGGGG")]) is None

"""The exported web player, driven in headless Chromium: its guesses must be the Python player's.

Needs Debian's ``chromium`` (``apt-get install -y chromium``) and Playwright for Python
(``pip install -e '.[browser]'``); never ``playwright install``, which downloads a browser.
Skipped, with the reason, when either is missing; ``GUESSTREE_CHROMIUM`` names another Chromium.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from guesstree import player
from guesstree.player.export import export, reach
from guesstree.player.review import review as python_review
import debian_words
from parts import missing

CHROMIUM = Path(os.environ.get("GUESSTREE_CHROMIUM", "/usr/bin/chromium"))
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

try:
    from playwright import sync_api
except ImportError:
    missing("the web page's test needs Playwright for Python (pip install -e '.[browser]')")
if not CHROMIUM.exists():
    missing(f"the web page's test needs Chromium at {CHROMIUM} (apt-get install -y chromium)")


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def trees(build_cached):
    from guesstree import compiler

    def tree(name: str, strategy: str, **params) -> player.Tree:
        return player.loads(compiler.to_bytes(build_cached(name, strategy, **params)), f"{name}-{strategy}",
                            plugins=["tiny_game"])
    return tree


class WebPlayer:
    """One exported page open in the browser, with the Python tree it came from."""

    def __init__(self, browser, tree: player.Tree, directory: Path, **page_options):
        self.tree, self.game = tree, tree.game
        self.path = directory / "player.html"
        self.path.write_text(export(tree, "html"), encoding="utf-8")
        self.page = browser.new_page(**page_options)
        self.page.set_default_timeout(10_000)
        self.problems: list[str] = []
        self.page.on("pageerror", lambda error: self.problems.append(f"page error: {error}"))
        self.page.on("console", lambda message: self.problems.append(f"console {message.type}: {message.text}"))
        self.page.on("request", lambda request: None if request.url.startswith("file://")
                     else self.problems.append(f"request: {request.url}"))
        self.page.goto(self.path.as_uri())
        assert self.state() == "playing"

    def show(self, panel: str) -> None:
        """Open one of the page's tabs: play, you-guess or lookup."""
        self.page.click(f"#tab-{panel}")
        assert self.page.get_attribute(f"#tab-{panel}", "aria-selected") == "true"
        assert self.page.is_visible(f"#{panel}")

    def guess(self) -> str:
        return self.page.get_attribute("#guess", "data-code")

    def state(self) -> str:
        return self.page.get_attribute("body", "data-state")

    def message(self) -> str:
        return self.page.text_content("#message")

    def history(self) -> list[str]:
        return [item.inner_text().replace("\n", "") for item in self.page.query_selector_all("#history li")]

    def answer(self, feedback) -> None:
        text = self.game.format_feedback(feedback)
        button = f'#answers button[data-feedback="{text}"]:not([disabled])'
        if self.page.query_selector(button):
            self.page.click(button)
        else:  # too many feedback values for buttons (words), or one disabled: type it, in another spelling
            self.type(text.replace("-", "b").lower())

    def type(self, text: str) -> None:
        self.page.fill("#feedback-input", text)
        self.page.click("#typed button[type=submit]")

    def offered(self) -> tuple[set[str], set[str]]:
        """The feedback buttons shown (enabled) and those shown disabled as impossible."""
        buttons = self.page.query_selector_all("#answers button[data-feedback]")
        enabled = {b.get_attribute("data-feedback") for b in buttons if b.is_enabled()}
        disabled = {b.get_attribute("data-feedback") for b in buttons if not b.is_enabled()}
        impossible = {b.get_attribute("data-feedback") for b in buttons
                      if "impossible" in (b.get_attribute("class") or "").split()}
        assert impossible == (disabled if self.state() == "playing" else set())  # styled as such
        return enabled, disabled

    def state_now(self) -> tuple:
        """Everything the player sees of the game, to compare two ways of answering."""
        return (self.state(), self.guess(), self.history(), self.message(),
                self.page.text_content("#turn"), self.page.text_content("#remaining"))

    def play(self, secret) -> None:
        """Play one whole game for ``secret``, checking each guess against the Python player."""
        self.page.click("#restart")
        path = self.tree.path(secret)
        for step, (guess, feedback) in enumerate(path, 1):
            assert self.state() == "playing"
            assert self.guess() == self.game.format_code(guess), (secret, step)
            assert self.page.text_content("#turn") == f"Guess {step}"
            self.answer(feedback)
        assert self.state() == "won", self.message()
        guesses = f"{len(path)} guess{'' if len(path) == 1 else 'es'}"
        assert self.message() == f"Solved in {guesses}: your secret is {self.game.format_code(secret)}."

    def close(self) -> None:
        self.page.close()
        assert not self.problems, self.problems


def python_error(parse, text: str) -> str:
    """The Python game's message for ``text``, which it refuses."""
    try:
        parse(text)
    except ValueError as error:
        return str(error)
    pytest.fail(f"{text!r} is accepted")


def some(secrets: list, count: int) -> list:
    step = max(1, len(secrets) // count)
    return secrets[::step][:count] + [secrets[-1]]


@pytest.mark.parametrize("name, strategy, params", [
    ("mastermind", "entropy", {"colours": 4, "holes": 3}),
    pytest.param("twod", "minimax", {"size": 4}, marks=pytest.mark.slow),
    pytest.param("bulls-cows", "first", {"digits": 4, "length": 2}, marks=pytest.mark.slow),
    pytest.param("tiny_game:make", "entropy", {}, marks=pytest.mark.slow),
    ("words", "entropy", {"answers": str(Path(__file__).parent / "data" / "words-small.txt"), "hard": True}),
    ("mastermind", "minimax", {"colours": 4, "holes": 3, "feedback": "black"}),  # feedback rules (issue 69)
    ("words", "entropy", {"answers": str(Path(__file__).parent / "data" / "words-small.txt"), "feedback": "counts"}),
    ("words", "most-parts", {"answers": str(Path(__file__).parent / "data" / "words-small.txt"), "feedback": "common"}),
])
def test_page_plays_like_the_python_player(browser, trees, tmp_path, plugin_path, name, strategy, params):
    web = WebPlayer(browser, trees(name, strategy, **params), tmp_path)
    for secret in some(web.game.secrets, 6):
        web.play(secret)
    web.close()


def path_to(tree: player.Tree, wanted) -> tuple[int, list]:
    """The first node, in the order secrets reach it, for which ``wanted(node, depth)`` holds,
    and the (guess, feedback) steps that lead there."""
    for secret in tree.game.secrets:
        node, steps = 0, []
        for guess, feedback in tree.path(secret):
            if wanted(node, len(steps)):
                return node, steps
            steps.append((guess, feedback))
            node = tree.child(node, feedback)
            if node is None:
                break
    pytest.fail("no such node in the tree")


def test_page_refuses_impossible_feedback_and_undoes(browser, trees, tmp_path):
    web = WebPlayer(browser, trees("mastermind", "entropy", colours=4, holes=3), tmp_path)
    tree, game, page = web.tree, web.game, web.page

    def missing(node: int) -> list:
        given = {f for f, _ in tree.edges(node)}
        return [f for f in game.feedbacks() if f not in given and f != game.win]

    node, steps = path_to(tree, lambda node, depth: depth >= 2 and missing(node))
    for _, feedback in steps:
        web.answer(feedback)
    here, before = web.guess(), web.history()
    assert here == game.format_code(tree.guess_of(node)) and len(before) == len(steps)
    assert game.format_feedback(missing(node)[0]) in web.offered()[1]  # its button is disabled: type it
    web.answer(missing(node)[0])
    assert web.message() == (
        f"No secret fits: no secret that gives your earlier answers gives {game.format_feedback(missing(node)[0])} "
        f"to {here}. One of your earlier answers may be wrong: undo to change it.")
    assert (web.guess(), web.history(), web.state()) == (here, before, "playing")  # the answer was not taken

    page.click("#undo")
    last_guess, last_feedback = steps[-1]
    assert web.guess() == game.format_code(last_guess)
    assert web.message() == f"Took back {game.format_feedback(last_feedback)} for {game.format_code(last_guess)}."
    assert len(web.history()) == len(steps) - 1

    # Typed feedback: as the game writes it, or as two numbers; what cannot occur is refused with
    # the Python game's own message (the page parses with the package's core, the same rules).
    for typed in ("3B1W", "lots", "2B1W"):
        expected = python_error(game.parse_feedback, typed)
        page.fill("#feedback-input", typed)
        page.click("#feedback-go")
        assert web.message() == expected and web.guess() == game.format_code(last_guess)
    page.fill("#feedback-input", " ".join(map(str, last_feedback)))
    page.click("#feedback-go")
    assert (web.guess(), len(web.history())) == (here, len(steps))

    # The win is refused for a guess that cannot be the secret after the answers given.
    page.click("#restart")
    _, wins = reach(tree)
    node, steps = path_to(tree, lambda node, depth: not wins[node])
    for _, feedback in steps:
        web.answer(feedback)
    web.answer(game.win)
    assert web.message().startswith(
        f"No secret fits: with your earlier answers, {game.format_code(tree.guess_of(node))} cannot be your secret.")
    assert web.state() == "playing"
    web.close()


def test_page_shows_the_path_of_a_typed_secret(browser, trees, tmp_path):
    web = WebPlayer(browser, trees("mastermind", "entropy", colours=4, holes=3), tmp_path)
    game, page = web.game, web.page
    web.show("lookup")
    for secret in some(game.secrets, 5):
        page.fill("#secret-input", game.format_code(secret).lower())  # typed any case
        page.click("#secret-go")
        path = web.tree.path(secret)
        shown = page.query_selector_all("#path li")
        assert [item.query_selector(".code").get_attribute("data-code") for item in shown] == [
            game.format_code(g) for g, _ in path]
        assert [item.query_selector(".feedback").text_content() for item in shown] == [
            game.format_feedback(f) for _, f in path]
        assert page.text_content("#path-message") == (
            f"The tree finds {game.format_code(secret)} in {len(path)} guess{'' if len(path) == 1 else 'es'}:")
    page.fill("#secret-input", "1 2 4")  # mastermind codes may be typed as 1-based digits
    page.click("#secret-go")
    assert page.text_content("#path-message").startswith("The tree finds ABD in ")
    page.fill("#secret-input", "ZZZ")
    page.click("#secret-go")
    assert page.text_content("#path-message").startswith('"ZZZ" is not a secret of this game')
    assert page.query_selector_all("#path li") == []
    web.close()


MM64 = Path(__file__).parent.parent / "trees" / "mastermind-c6-h4-entropy.msgpack.zst"


def fitting(tree: player.Tree, wins: list[bool], node: int) -> set[str]:
    """The feedback some secret still possible at ``node`` gives: its edges, and the win if it can win."""
    game = tree.game
    return {game.format_feedback(f) for f, _ in tree.edges(node)} | (
        {game.format_feedback(game.win)} if wins[node] else set())


@pytest.mark.slow
def test_page_enables_only_the_feedback_that_fits(browser, tmp_path):
    tree = player.load(MM64)
    game, (_, wins) = tree.game, reach(tree)
    web = WebPlayer(browser, tree, tmp_path)
    every = {game.format_feedback(f) for f in game.feedbacks()}
    assert len(every) == 14
    narrowed = 0
    for secret in some(game.secrets, 5):
        web.page.click("#restart")
        node = 0
        for guess, feedback in tree.path(secret):
            assert web.guess() == game.format_code(guess)
            enabled, disabled = web.offered()
            assert enabled == fitting(tree, wins, node) and disabled == every - enabled, (secret, node)
            narrowed += bool(disabled)
            if disabled:  # a disabled button does nothing, even when clicked anyway
                before = web.state_now()
                web.page.click(f'#answers button[data-feedback="{sorted(disabled)[0]}"]', force=True)
                assert web.state_now() == before
            web.page.click(f'#answers button[data-feedback="{game.format_feedback(feedback)}"]')
            node = tree.child(node, feedback)
        assert web.state() == "won"
        assert web.offered() == (set(), every)  # the game is over: no answer is offered
    assert narrowed
    web.close()


@pytest.mark.slow
def test_words_page_takes_marks_from_the_letter_tiles(browser, trees, tmp_path):
    web = WebPlayer(browser, trees("words", "entropy", answers=str(Path(__file__).parent / "data" / "words-small.txt")),
                    tmp_path)
    tree, game, page = web.tree, web.game, web.page
    _, wins = reach(tree)

    def tiles():
        return page.query_selector_all("#guess button.mark")

    def click_marks(feedback) -> None:
        assert len(tiles()) == len(feedback)
        for tile, mark in zip(tiles(), feedback):  # each click: grey -> yellow -> green -> grey
            for _ in range((mark - int(tile.get_attribute("data-mark"))) % 3):
                tile.click()
        assert [tile.get_attribute("data-mark") for tile in tiles()] == [str(mark) for mark in feedback]
        page.click("#marks-go")

    # A tile cycles grey, yellow, green and back, and says so.
    first = tiles()[0]
    for mark, colour in ((0, "grey"), (1, "yellow"), (2, "green"), (0, "grey")):
        assert first.get_attribute("data-mark") == str(mark) and colour in first.get_attribute("aria-label")
        first.click()
    page.click("#restart")

    # Clicking the tiles plays exactly like typing the same marks.
    for secret in some(game.secrets, 6):
        seen = {}
        for how in ("tiles", "typed"):
            page.click("#restart")
            seen[how] = []
            node = 0
            for guess, feedback in tree.path(secret):
                assert web.guess() == game.format_code(guess)
                assert web.offered() == (set(), set())  # no feedback buttons: the tiles and Enter, or typing
                if how == "tiles":
                    click_marks(feedback)
                else:
                    web.type("".join(map(str, feedback)))
                seen[how].append(web.state_now())
                node = tree.child(node, feedback)
        assert seen["tiles"] == seen["typed"]
        assert web.state() == "won" and web.message().endswith(f"your secret is {game.format_code(secret)}.")
        assert tiles() == [] and page.is_disabled("#marks-go")

    # Impossible marks are refused, from the tiles as when typed, and nothing changes.
    page.click("#restart")
    root = web.guess()
    never = (2,) * (game.length - 1) + (1,)  # all green but one yellow: that letter has nowhere to be
    unfit = next(f for f in game.feedbacks() if game.format_feedback(f) not in fitting(tree, wins, 0))
    cannot = f"{game.format_feedback(never)!r} is feedback that cannot occur in words"
    for marks, expected, typed in (
            (never, cannot, python_error(game.parse_feedback, game.format_feedback(never).lower())),
            (unfit, *[f"No secret fits: no secret gives {game.format_feedback(unfit)} to {root}."] * 2)):
        before = web.state_now()[:3]
        click_marks(marks)
        assert web.message() == expected and web.state_now()[:3] == before
        assert [tile.get_attribute("data-mark") for tile in tiles()] == [str(m) for m in marks]  # kept, to fix
        web.type(game.format_feedback(marks).lower())
        assert web.message() == typed and web.state_now()[:3] == before
    web.close()


WORDLE = Path(__file__).parent.parent / "trees" / "wordle-salet-optimal-expected.msgpack.zst"
WORDLE_HARD = Path(__file__).parent.parent / "trees" / "wordle-hard-salet-optimal-expected-depth6.msgpack.zst"


@pytest.mark.parametrize("tree_path, first, secrets", [
    (WORDLE, "crane", ["light", "zesty", "crank", "abbey"]),
    pytest.param(WORDLE_HARD, "crane", ["light", "mummy"], marks=pytest.mark.slow),
    pytest.param(MM64, "AABB", [(2, 3, 4, 5), (0, 1, 1, 0), (0, 0, 1, 1)], marks=pytest.mark.slow),
])
def test_page_carries_on_after_a_guess_of_the_persons_own(browser, tmp_path, tree_path, first, secrets):
    """The person types a guess they played with its feedback (``crane GY---``): the page takes it,
    says how many secrets are left, and suggests what the Python player's rule suggests, to the win."""
    tree = player.load(tree_path)
    game = tree.game
    web = WebPlayer(browser, tree, tmp_path)
    page = web.page
    for secret in secrets:
        secret = game.parse_code(secret) if isinstance(secret, str) else secret
        page.click("#restart")
        played = game.parse_code(first)
        history = [(played, game.score(played, secret))]
        page.fill("#played-input", f"{first} {game.format_feedback(history[0][1]).lower()}")
        page.click("#played-go")
        while True:
            left = tree.candidates(history)
            if history[-1][1] == game.win:
                assert web.state() == "won"
                assert web.message() == f"Solved in {len(history)} guess{'' if len(history) == 1 else 'es'}: your secret is {game.format_code(secret)}."
                break
            assert web.message() == ("1 secret is still possible." if len(left) == 1 else f"{len(left)} secrets are still possible.")
            assert page.text_content("#remaining") == f"{len(left)} secret{'' if len(left) == 1 else 's'} possible"
            expected = tree.suggest(history)
            assert web.guess() == game.format_code(expected), (secret, history)
            assert page.text_content("#source") == ("" if _on_tree(tree, history) else
                                                    "Off the tree: this guess is computed from the secrets still possible.")
            assert len(history) < 10
            history.append((expected, game.score(expected, secret)))
            web.answer(history[-1][1])
        assert len(web.history()) == len(history)

    # Taken back, the page is on the tree again; refused guesses change nothing.
    page.click("#restart")
    played = game.parse_code(first)
    page.fill("#played-input", f"{first} {game.format_feedback(game.score(played, secrets[0]))}")
    page.click("#played-go")
    assert web.guess() != game.format_code(tree.guess_of(0))
    page.click("#undo")
    assert web.guess() == game.format_code(tree.guess_of(0)) and page.text_content("#source") == ""
    before = web.state_now()[:3]
    for typed, expected in ((first, f"write the guess you played, a space, then its feedback, e.g. "
                                    f"{game.format_code(tree.guess_of(0))} {game.format_feedback(game.feedbacks()[0])}"),
                            (f"{first}x {game.format_feedback(game.win)}", python_error(game.parse_code, f"{first}x")),
                            (f"{first} ?", python_error(game.parse_feedback, "?"))):
        page.fill("#played-input", typed)
        page.click("#played-go")
        assert web.message() == expected and web.state_now()[:3] == before
    web.close()


def _on_tree(tree: player.Tree, history) -> bool:
    try:
        tree.next_guess(history)
        return True
    except player.InconsistentHistory:
        return False


def test_page_hard_mode_refuses_a_guess_that_drops_a_hint(browser, tmp_path):
    tree = player.load(WORDLE_HARD)
    game = tree.game
    web = WebPlayer(browser, tree, tmp_path)
    web.type("-G---")  # SALET: the A is green
    history = [(tree.guess_of(0), game.parse_feedback("-G---"))]
    before = web.state_now()[:3]
    web.page.fill("#played-input", "crony -----")
    web.page.click("#played-go")
    assert web.message() == game.allows(game.parse_code("crony"), history) == "hard mode: guess 1 fixed A at position 2"
    assert web.state_now()[:3] == before
    web.page.fill("#played-input", "bawdy -G--G")  # keeps the A (the secret HAIRY): taken, and off the tree
    web.page.click("#played-go")
    history.append((game.parse_code("bawdy"), game.parse_feedback("-G--G")))
    assert web.guess() == game.format_code(tree.suggest(history))
    assert web.page.text_content("#remaining") == f"{len(tree.candidates(history))} secrets possible"
    web.close()


def test_words_page_enter_placeholder_allowed_guesses_and_answers(browser, tmp_path):
    """Enter on a letter tile submits the marks (it does not recolour the tile); the own-guess
    example follows the game; a non-word is refused unless "any guess" is ticked; and a secret
    that is an allowed guess but not an answer is said to be so."""
    tree = player.load(WORDLE)
    game = tree.game
    web = WebPlayer(browser, tree, tmp_path)
    page = web.page
    assert page.get_attribute("#played-input", "placeholder").startswith("SALET ")
    tiles = page.query_selector_all("#guess .mark")
    tiles[1].click()  # SALET's A yellow: the rest grey
    tiles[1].press("Enter")
    assert web.history() == ["SALET-Y---"] and web.guess() == game.format_code(tree.suggest([("salet", "-Y---")]))
    history = [("salet", "-Y---")]
    example = page.get_attribute("#played-input", "placeholder")
    assert example.split()[0] == web.guess()  # the guess shown now, with a feedback some secret still gives
    assert game.parse_feedback(example.split()[1]) in {game.score(game.parse_code(web.guess()), s)
                                                       for s in tree.candidates(history)}
    before = web.state_now()[:3]
    page.fill("#played-input", "zzzzz -----")
    page.click("#played-go")
    assert web.message() == ('ZZZZZ is not one of the game\'s 12972 allowed guesses: a typo? Tick "any guess" '
                             'to play it anyway.') and web.state_now()[:3] == before
    page.check("#any-guess")
    page.fill("#played-input", "zzzzz -----")
    page.click("#played-go")
    history.append(("zzzzz", "-----"))
    assert web.history()[-1] == "ZZZZZ-----"
    assert web.guess() == game.format_code(tree.suggest(history, any_guess=True))
    web.show("lookup")
    page.fill("#secret-input", "aahed")
    page.click("#path-form button[type=submit]")
    assert page.text_content("#path-message") == ("AAHED is an allowed guess but not one of the 2315 possible "
                                                  "secrets (the answers): no game ends on it.")
    web.close()


@pytest.mark.parametrize("name, strategy, params", [
    ("mastermind", "entropy", {"colours": 4, "holes": 3}),
    pytest.param("words", "entropy", {"answers": str(Path(__file__).parent / "data" / "words-small.txt"), "hard": True},
                 marks=pytest.mark.slow),
    ("mastermind", "entropy", {"colours": 4, "holes": 3, "feedback": "black"}),
    ("words", "entropy", {"answers": str(Path(__file__).parent / "data" / "words-small.txt"), "feedback": "common"}),
])
def test_you_guess_the_pages_hidden_secret_with_the_trees_hints(browser, trees, tmp_path, name, strategy, params):
    """"You guess": the page hides a secret and scores each guess by the game's rules. Playing its
    hints (the Python player's suggest for the same history) finds it; every feedback the page gave
    is the Python game's score against the secret it then names."""
    web = WebPlayer(browser, trees(name, strategy, **params), tmp_path)
    tree, game, page = web.tree, web.game, web.page
    web.show("you-guess")
    for _ in range(3):  # three hidden secrets, each found by the hints
        page.click("#yg-new")
        assert page.get_attribute("#you-guess", "data-state") == "guessing"
        assert page.text_content("#yg-message") == f"A secret is hidden: one of {len(game.secrets)} secrets. Your first guess?"
        history = []
        while page.get_attribute("#you-guess", "data-state") == "guessing":
            page.click("#yg-hint")
            hinted = page.get_attribute("#yg-message", "data-hint")
            left = len(tree.candidates(history, any_guess=True))
            assert hinted == game.format_code(tree.suggest(history, any_guess=True)), history
            assert page.text_content("#yg-message") == \
                f"Hint: the tree would guess {hinted} ({left} secret{'' if left == 1 else 's'} still fit{'s' if left == 1 else ''})."
            page.fill("#yg-input", hinted.lower())
            page.click("#yg-go")
            shown = page.query_selector_all("#yg-history li")[-1]
            assert shown.query_selector(".code").get_attribute("data-code") == hinted
            history.append((game.parse_code(hinted), game.parse_feedback(shown.query_selector(".feedback").text_content())))
            assert len(history) <= tree.stats.worst + 1
        secret = history[-1][0]
        assert history[-1][1] == game.win and all(game.score(guess, secret) == feedback for guess, feedback in history)
        assert page.text_content("#yg-message") == (
            f"You found {game.format_code(secret)} in {len(history)} guess{'' if len(history) == 1 else 'es'} "
            f"(the tree finds it in {len(tree.path(secret))}).")
        assert page.is_disabled("#yg-go") and page.is_disabled("#yg-hint")

    # A guess the game does not take is refused with the Python game's words, and changes nothing.
    page.click("#yg-new")
    for typed in ("ZZZ", "ab"):
        page.fill("#yg-input", typed)
        page.click("#yg-go")
        assert page.text_content("#yg-message") == python_error(game.parse_code, typed)
        assert page.query_selector_all("#yg-history li") == []
    # Shown, the secret ends the game: it is one of the game's secrets.
    page.click("#yg-reveal")
    said = page.text_content("#yg-message")
    assert said.startswith("The secret is ") and game.parse_code(said[len("The secret is "):-1]) in set(game.secrets)
    assert page.get_attribute("#you-guess", "data-state") == "revealed" and page.is_disabled("#yg-go")
    web.close()


@pytest.mark.parametrize("name, params", [
    ("mastermind", {"colours": 4, "holes": 3}),
    ("words", {"answers": str(Path(__file__).parent / "data" / "words-small.txt"), "ultra_hard": True}),
])
def test_you_guess_against_absurdle_on_the_page(browser, trees, tmp_path, name, params):
    """"You guess" against Absurdle: the page hides no secret and answers each guess as the Python
    player's host (player/host.py) answers it; the tree's hints beat it; 'show' names what is left."""
    from guesstree.player.host import Absurdle

    web = WebPlayer(browser, trees(name, "entropy", **params), tmp_path)
    game, page = web.game, web.page
    web.show("you-guess")
    page.check("#yg-absurdle")
    assert page.text_content("#yg-message") == (f"Absurdle hides no secret but keeps as many of the {len(game.secrets)} "
                                                "secrets as it can. Your first guess?")
    host, history = Absurdle(game), []
    while page.get_attribute("#you-guess", "data-state") == "guessing":
        page.click("#yg-hint")
        hinted = page.get_attribute("#yg-message", "data-hint")
        page.fill("#yg-input", hinted.lower())
        page.click("#yg-go")
        shown = page.query_selector_all("#yg-history li")[-1]
        guess = game.parse_code(hinted)
        history.append((guess, host.answer(guess)))
        assert game.parse_feedback(shown.query_selector(".feedback").text_content()) == history[-1][1], history
        assert len(history) <= len(game.secrets)
    assert history[-1][1] == game.win and host.left == [history[-1][0]]
    assert page.text_content("#yg-message").startswith(f"You found {game.format_code(history[-1][0])} in {len(history)} ")
    page.click("#yg-new")  # a new game against the host; two guesses, then what is left
    host, steps = Absurdle(game), []
    for _ in range(2):
        guess = next(g for g in game.guesses_after(steps) if g not in [played for played, _ in steps])
        page.fill("#yg-input", game.format_code(guess))
        page.click("#yg-go")
        steps.append((guess, host.answer(guess)))
        if page.get_attribute("#you-guess", "data-state") != "guessing":
            break
    page.click("#yg-reveal")
    left = ", ".join(game.format_code(s) for s in host.left[:5]) + (", ..." if len(host.left) > 5 else "")
    assert page.text_content("#yg-message") == (f"Absurdle holds no secret: {len(host.left)} "
                                                f"secret{'' if len(host.left) == 1 else 's'} still fit its answers ({left}).")
    page.uncheck("#yg-absurdle")
    assert page.text_content("#yg-message") == f"A secret is hidden: one of {len(game.secrets)} secrets. Your first guess?"
    web.close()


# -- "You guess" with the picker: colour pegs, digits, the on-screen keyboard --------------------

WORDS_SMALL = str(Path(__file__).parent / "data" / "words-small.txt")


def holes(page) -> list[str]:
    """The guess being written, hole by hole: a symbol, or "" for a hole still empty."""
    shown = page.query_selector_all("#yg-holes > *")
    assert all(("hole" in (h.get_attribute("class") or "").split()) == (h.text_content() == "") for h in shown)
    return [h.text_content() for h in shown]


def pick(page, text: str) -> None:
    """Write ``text`` with the picker's keys, one click a symbol."""
    for char in text:
        page.click(f'#yg-picker button[data-key="{char}"]')


def tried(page, game) -> list[tuple]:
    """The page's guesses so far and the feedback it gave each."""
    return [(game.parse_code(item.query_selector(".code").get_attribute("data-code")),
             game.parse_feedback(item.query_selector(".feedback").text_content()))
            for item in page.query_selector_all("#yg-history li")]


def background(page, selector: str) -> str:
    return page.eval_on_selector(selector, "e => getComputedStyle(e).backgroundColor")


def accessible_names_hold_their_text(page) -> list[str]:
    """The buttons whose aria-label leaves out the words they show (a speech user says what they see)."""
    return page.evaluate("""() => [...document.querySelectorAll("button[aria-label]")]
        .filter((b) => /[a-z0-9]/i.test(b.textContent))
        .filter((b) => !b.getAttribute("aria-label").toLowerCase().includes(b.textContent.trim().toLowerCase()))
        .map((b) => `${b.textContent} labelled ${b.getAttribute("aria-label")}`)""")


def test_you_guess_mastermind_with_the_colour_picker(browser, trees, tmp_path):
    """Clicked colour pegs fill the holes (backspace empties the last, a full row takes no more),
    Enter guesses; a whole game played so is scored by the Python game's rules, and a guess made
    again is refused with what it got the first time, not counted."""
    web = WebPlayer(browser, trees("mastermind", "entropy", colours=4, holes=3), tmp_path)
    tree, game, page = web.tree, web.game, web.page
    web.show("you-guess")
    assert [key.get_attribute("data-key") for key in page.query_selector_all("#yg-picker button[data-key]")] == list("ABCD")
    assert holes(page) == ["", "", ""]
    pick(page, "AD")
    assert holes(page) == ["A", "D", ""] and page.input_value("#yg-input") == "AD"
    page.click("#yg-back")
    assert holes(page) == ["A", "", ""] and page.input_value("#yg-input") == "A"
    pick(page, "BCD")  # the third hole filled by C; D finds no hole
    assert holes(page) == ["A", "B", "C"] and page.input_value("#yg-input") == "ABC"
    page.fill("#yg-input", "2 4")  # typed, as 1-based digits: the holes follow
    assert holes(page) == ["B", "D", ""]
    for _ in range(3):
        page.click("#yg-back")
    assert holes(page) == ["", "", ""] and page.input_value("#yg-input") == ""
    page.click("h1")  # the physical keyboard, the focus on the page: a colour's letter or 1-based digit
    page.keyboard.type("c2")
    assert holes(page) == ["C", "B", ""]
    page.keyboard.press("Backspace")
    page.keyboard.press("Backspace")
    assert holes(page) == ["", "", ""]
    # A guess typed in 1-based digits goes on in digits, clicked or typed: the field stays one the
    # game reads (digits only, or letters only) and the holes show its colours.
    page.fill("#yg-input", "12")
    pick(page, "C")
    assert page.input_value("#yg-input") == "123" and holes(page) == ["A", "B", "C"]
    page.click("#yg-back")
    page.click("h1")
    page.keyboard.type("d")
    assert page.input_value("#yg-input") == "124" and holes(page) == ["A", "B", "D"]
    page.fill("#yg-input", "")
    # Keys an input method composes with are its own; a held letter repeats as in a field; a held
    # Enter sends the guess once, on the page as in the field. (The secret chosen, Math.random fixed.)
    page.evaluate("window.random = Math.random; Math.random = () => 0.5")
    page.click("#yg-new")
    page.evaluate("Math.random = window.random")
    secret = game.secrets[len(game.secrets) // 2]
    compose = """composing => document.body.dispatchEvent(new KeyboardEvent("keydown",
        {key: "a", isComposing: composing, bubbles: true, cancelable: true}))"""
    page.evaluate(compose, True)
    assert holes(page) == ["", "", ""]
    page.evaluate(compose, False)  # the same key, not composing, writes
    assert holes(page) == ["A", "", ""]
    page.click("h1")
    page.keyboard.down("b")
    page.keyboard.down("b")  # Playwright repeats a key pressed again before it is released
    page.keyboard.up("b")
    assert holes(page) == ["A", "B", "B"]
    for k, (written, where) in enumerate((("ABB", "h1"), ("CCD", "#yg-input")), 1):
        page.fill("#yg-input", written)
        page.click(where)
        page.keyboard.down("Enter")
        page.keyboard.down("Enter")
        page.keyboard.up("Enter")
        assert game.parse_code(written) != secret and len(tried(page, game)) == k, where
        assert page.text_content("#yg-message").startswith(
            f"{written} gets {game.format_feedback(game.score(game.parse_code(written), secret))}: "), where
    assert accessible_names_hold_their_text(page) == []

    for _ in range(2):
        page.click("#yg-new")
        while page.get_attribute("#you-guess", "data-state") == "guessing":
            before = tried(page, game)
            page.click("#yg-hint")
            hinted = page.get_attribute("#yg-message", "data-hint")
            assert hinted == game.format_code(tree.suggest(before, any_guess=True))
            pick(page, hinted)
            assert holes(page) == list(hinted)
            page.click("#yg-enter")
            after = tried(page, game)
            assert after[:-1] == before and game.format_code(after[-1][0]) == hinted
            assert holes(page) == ["", "", ""]  # emptied for the next guess
            if len(after) == 1 and after[0][1] != game.win:
                # The same guess again tells nothing new: said, and not counted.
                pick(page, hinted)
                page.click("#yg-enter")
                assert page.text_content("#yg-message") == (
                    f"You already guessed {hinted} (guess 1, {game.format_feedback(after[0][1])}): not counted.")
                assert tried(page, game) == after and holes(page) == list(hinted)
                for _ in hinted:
                    page.click("#yg-back")
        history = tried(page, game)
        secret = history[-1][0]
        assert history[-1][1] == game.win and all(game.score(g, secret) == f for g, f in history)
        assert page.text_content("#yg-message").startswith(f"You found {game.format_code(secret)} in {len(history)} guess")
        assert all(key.is_disabled() for key in page.query_selector_all("#yg-picker button"))
        # a key is the colour of its peg on the board
        for letter in set(game.format_code(secret)):
            peg = f'#yg-history li:last-child .peg:nth-child({game.format_code(secret).index(letter) + 1})'
            assert background(page, f'#yg-picker button[data-key="{letter}"]') == background(page, peg)
    web.close()


@pytest.mark.slow
def test_you_guess_bulls_cows_with_the_digit_picker(browser, trees, tmp_path):
    """The digits of the game as keys; a digit written is not offered again (bulls and cows'
    digits are distinct), offered again once deleted; a game played with the keys is scored by the
    Python game's rules."""
    web = WebPlayer(browser, trees("bulls-cows", "first", digits=4, length=2), tmp_path)
    game, page = web.game, web.page
    web.show("you-guess")
    assert [key.get_attribute("data-key") for key in page.query_selector_all("#yg-picker button[data-key]")] == list("0123")

    def offered() -> list[str]:
        return [key.get_attribute("data-key") for key in page.query_selector_all("#yg-picker button[data-key]:not([disabled])")]

    pick(page, "3")
    assert holes(page) == ["3", ""] and offered() == list("012")
    page.click("#yg-back")
    assert holes(page) == ["", ""] and offered() == list("0123")
    while page.get_attribute("#you-guess", "data-state") == "guessing":
        page.click("#yg-hint")
        pick(page, page.get_attribute("#yg-message", "data-hint"))
        page.click("#yg-enter")
        assert offered() == (list("0123") if page.get_attribute("#you-guess", "data-state") == "guessing" else [])
    history = tried(page, game)
    assert history[-1][1] == game.win and all(game.score(g, history[-1][0]) == f for g, f in history)
    web.close()


def known_letters(history: list[tuple]) -> dict[str, str]:
    """Wordle's keyboard: each letter guessed, with its best mark so far (2 green, 1 yellow, 0 grey)."""
    best: dict[str, int] = {}
    for guess, feedback in history:
        for letter, mark in zip(guess, feedback):
            best[chr(97 + letter)] = max(best.get(chr(97 + letter), 0), mark)
    return {letter: str(mark) for letter, mark in best.items()}


def keyboard(page) -> dict[str, str]:
    """The on-screen keyboard's coloured keys: letter -> its mark."""
    return {key.get_attribute("data-key"): key.get_attribute("data-mark")
            for key in page.query_selector_all("#yg-picker button[data-key]") if key.get_attribute("data-mark")}


def test_you_guess_words_with_the_on_screen_keyboard(browser, trees, tmp_path):
    """The keyboard has the letters the game's words use; clicked, they write the guess and Enter
    guesses; after each guess every key is coloured as Wordle colours it, by the marks the Python
    game gives against the secret found; the physical keyboard writes the same holes."""
    web = WebPlayer(browser, trees("words", "entropy", answers=WORDS_SMALL), tmp_path)
    tree, game, page = web.tree, web.game, web.page
    web.show("you-guess")
    keys = [key.get_attribute("data-key") for key in page.query_selector_all("#yg-picker button[data-key]")]
    used = {chr(97 + letter) for word in game.guesses for letter in word}
    assert sorted(keys) == sorted(used) and len(used) < 26  # a letter no word has gets no key
    assert [key for key in keys] == [c for c in "qwertyuiopasdfghjklzxcvbnm" if c in used]  # as on a keyboard

    # The physical keyboard, the focus on the page: letters fill the holes, Backspace, Enter.
    first = game.format_code(tree.guess_of(0)).lower()
    page.click("h1")
    page.keyboard.type(first[:3])
    assert holes(page) == list(first[:3].upper()) + ["", ""]
    page.keyboard.press("Backspace")
    assert holes(page) == list(first[:2].upper()) + ["", "", ""]
    page.keyboard.press("Enter")  # two letters are no word: refused with the Python game's words
    assert page.text_content("#yg-message") == python_error(game.parse_code, first[:2])
    page.keyboard.press("Backspace")
    page.keyboard.press("Backspace")
    assert holes(page) == [""] * 5 and tried(page, game) == []

    for _ in range(3):
        page.click("#yg-new")
        assert keyboard(page) == {}  # a new secret: nothing known
        seen = []
        while page.get_attribute("#you-guess", "data-state") == "guessing":
            page.click("#yg-hint")
            pick(page, page.get_attribute("#yg-message", "data-hint").lower())
            page.click("#yg-enter")
            seen.append(keyboard(page))
        history = tried(page, game)
        secret = history[-1][0]
        assert all(game.score(g, secret) == f for g, f in history)
        for k, shown in enumerate(seen, 1):
            assert shown == known_letters([(g, game.score(g, secret)) for g, _ in history[:k]]), k
        # the keys' colours are the tiles' of the same marks
        for key, mark in seen[-1].items():
            tile = next(f'#yg-history li:nth-child({i}) .tile:nth-child({p + 1})' for i, (g, f) in enumerate(history, 1)
                        for p, letter in enumerate(g) if chr(97 + letter) == key and f[p] == int(mark))
            assert background(page, f'#yg-picker button[data-key="{key}"]') == background(page, tile)

    # A letter found green stays green when a later guess has it elsewhere: the page's secret
    # chosen (its Math.random fixed) and two guesses picked so.
    page.evaluate("Math.random = () => 0.5")
    page.click("#yg-new")
    secret = game.secrets[len(game.secrets) // 2]
    first, second, letter = next((g1, g2, g1[p]) for g1 in game.guesses for p in range(game.length)
                                 if g1 != secret and game.score(g1, secret)[p] == 2
                                 for g2 in game.guesses if g1[p] in g2 and g2 != secret
                                 and all(m < 2 for letter, m in zip(g2, game.score(g2, secret)) if letter == g1[p]))
    for k, guess in enumerate((first, second), 1):
        pick(page, game.format_code(guess).lower())
        page.click("#yg-enter")
        assert tried(page, game) == [(g, game.score(g, secret)) for g in (first, second)[:k]]
        assert keyboard(page) == known_letters(tried(page, game))
    assert keyboard(page)[chr(97 + letter)] == "2"
    web.close()


YOU_GUESS_CONTROLS = ["#yg-holes", "#yg-picker", "#yg-input", "#yg-go", "#yg-hint", "#yg-reveal", "#yg-new",
                      "#yg-message", "#yg-picker button"]


def in_view(page, selector: str, width: int, height: int) -> list[str]:
    """What of ``selector`` is not wholly inside a ``width`` x ``height`` window as it is now."""
    outside = []
    for item in page.query_selector_all(selector):
        box = item.bounding_box()
        assert box is not None, selector  # shown
        if not (0 <= box["x"] and box["x"] + box["width"] <= width and 0 <= box["y"] and box["y"] + box["height"] <= height):
            outside.append(f"{selector} {item.get_attribute('data-key') or item.text_content()!r}: {box}")
    return outside


@pytest.mark.parametrize("tree_path, guesses", [
    (WORDLE, ["crane", "light", "zesty", "abbey", "mummy"]),
    (MM64, ["AABB", "CCDD", "EEFF", "ABCD", "CDEF"]),
])
def test_you_guess_is_one_click_away_on_a_1200x900_window_and_fits_a_phone(browser, tmp_path, tree_path, guesses):
    """On 1200 x 900 the tabs are in view; "You guess" (a click, or the address's #you-guess) shows
    all its controls without scrolling, still after five guesses; on a 375 px phone nothing is
    wider than the screen."""
    tree = player.load(tree_path)
    web = WebPlayer(browser, tree, tmp_path, viewport={"width": 1200, "height": 900})
    page = web.page
    assert in_view(page, '[role="tab"]', 1200, 900) == []
    web.show("you-guess")
    assert page.evaluate("window.scrollY") == 0 and page.is_hidden("#play") and page.is_hidden("#lookup")
    for sel in YOU_GUESS_CONTROLS:
        assert in_view(page, sel, 1200, 900) == []
    for guess in guesses:
        page.fill("#yg-input", guess)
        page.press("#yg-input", "Enter")
    assert len(page.query_selector_all("#yg-history li")) == len(guesses) or \
        page.get_attribute("#you-guess", "data-state") == "won"
    for sel in YOU_GUESS_CONTROLS:
        assert in_view(page, sel, 1200, 900) == []
    assert page.evaluate("window.scrollY") == 0
    page.focus("#tab-you-guess")  # the arrows move between the tabs
    page.keyboard.press("ArrowRight")
    assert page.get_attribute("#tab-lookup", "aria-selected") == "true" and page.is_visible("#secret-input")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert page.get_attribute("#tab-play", "aria-selected") == "true" and page.is_hidden("#you-guess")

    phone = browser.new_page(viewport={"width": 375, "height": 740})
    phone.goto(web.path.as_uri() + "#you-guess")  # the address opens the tab
    assert phone.get_attribute("#tab-you-guess", "aria-selected") == "true" and phone.is_visible("#yg-picker")
    for sel in YOU_GUESS_CONTROLS[:-1] + ["#yg-picker button", '[role="tab"]']:
        assert in_view(phone, sel, 375, 10_000) == []
    assert phone.evaluate("document.documentElement.scrollWidth") <= 375
    phone.close()
    web.close()


def test_you_guess_twod_grid_says_the_point_chosen_and_the_points_ruled_out(browser, trees, tmp_path):
    """twod's grid: the point chosen is pressed (aria-pressed), not only coloured; after each guess
    the points that no longer fit (the Python player's candidates) are labelled "ruled out"."""
    web = WebPlayer(browser, trees("twod", "minimax", size=4), tmp_path)
    tree, game, page = web.tree, web.game, web.page
    web.show("you-guess")

    def grid() -> dict[str, tuple]:
        return {point.get_attribute("data-key"): (point.get_attribute("aria-pressed"), point.get_attribute("aria-label"))
                for point in page.query_selector_all("#yg-picker .point")}

    every = [f"{x},{y}" for x in range(4) for y in range(4)]
    assert grid() == {key: ("false", f"point {key}") for key in every}
    page.click('#yg-picker .point[data-key="1,2"]')
    assert {key for key, (pressed, _) in grid().items() if pressed == "true"} == {"1,2"}
    assert page.input_value("#yg-input") == "1,2"
    page.click('#yg-picker .point[data-key="2,0"]')
    assert {key for key, (pressed, _) in grid().items() if pressed == "true"} == {"2,0"}
    while page.get_attribute("#you-guess", "data-state") == "guessing":
        page.click("#yg-hint")
        page.click(f'#yg-picker .point[data-key="{page.get_attribute("#yg-message", "data-hint")}"]')
        page.click("#yg-enter")
        history = tried(page, game)
        fit = {game.format_code(code) for code in tree.candidates(history, any_guess=True)}
        assert 0 < len(fit) < 16
        assert grid() == {key: ("false", f"point {key}" + ("" if key in fit else ", ruled out")) for key in every}
    secret = tried(page, game)[-1][0]
    assert all(game.score(g, secret) == f for g, f in tried(page, game))
    web.close()


def test_page_tabs_keys_and_address(browser, trees, tmp_path):
    """The tabs are a tablist that is no navigation landmark; the arrows, Home and End move
    between them; the address's #play, #you-guess, #lookup or #review opens its tab, also after load."""
    web = WebPlayer(browser, trees("mastermind", "entropy", colours=4, holes=3), tmp_path)
    page = web.page
    assert page.eval_on_selector('[role="tablist"]', "e => e.tagName") == "DIV"

    def selected() -> list[str]:
        return [tab.get_attribute("data-panel") for tab in page.query_selector_all('[role="tab"]')
                if tab.get_attribute("aria-selected") == "true"]

    assert selected() == ["play"]
    page.focus("#tab-play")
    page.keyboard.press("End")
    assert selected() == ["review"] and page.is_visible("#review") and page.is_hidden("#play")
    assert page.evaluate("document.activeElement.id") == "tab-review"
    page.keyboard.press("Home")
    assert selected() == ["play"] and page.evaluate("document.activeElement.id") == "tab-play"
    page.keyboard.press("ArrowLeft")  # round to the last
    assert selected() == ["review"]
    go = """hash => new Promise((done) => {  // resolved by a listener after the page's own
        window.addEventListener("hashchange", () => done(), { once: true });
        location.hash = hash; })"""
    for panel in ("you-guess", "play", "review", "lookup"):
        page.evaluate(go, panel)
        assert selected() == [panel] and page.is_visible(f"#{panel}")
    page.evaluate(go, "elsewhere")  # no tab's address: the tab shown stays
    assert selected() == ["lookup"]
    web.close()


# -- the review of a game (player/js/src/review.js, docs/tutorials/review.md) -----------------------

MASTERMIND_OPTIMAL = Path(__file__).parent.parent / "trees" / "mastermind-c6-h4-optimal-expected.msgpack.zst"
BOOK = json.loads((Path(__file__).parent.parent / "trees" / "book" / "BOOK.json").read_text())


def book_total(first: str) -> int:
    """The opening book's proven least total for a first guess (BOOK.json)."""
    return next(opening["total"] for opening in BOOK["openings"] if opening["first"] == first)


def review_rows(page, where: str) -> list[dict]:
    """The review table's moves as shown: each cell's text by its column, and the row's data."""
    heads = [th.text_content() for th in page.query_selector_all(f"{where} thead th")]
    rows = []
    for row in page.query_selector_all(f"{where} tbody tr"):
        cells = row.query_selector_all("td")
        rows.append({**{head: cell.inner_text().strip() for head, cell in zip(heads, cells)},
                     "played": cells[1].get_attribute("title"), "shown": cells[1].query_selector(".code").get_attribute("data-code"),
                     "verdict": row.get_attribute("data-verdict"), "exact": row.get_attribute("data-exact"),
                     "bounds": [head for head, cell in zip(heads, cells) if "bound" in (cell.get_attribute("class") or "")]})
    return rows


def shown(value: float) -> str:
    """A figure as the page writes it: rounded to 4 decimals, no trailing zeros."""
    return f"{round(value, 4):.4f}".rstrip("0").rstrip(".") if value != int(value) else str(int(value))


def shown_figure(pair) -> str:
    """An interval as the page writes it: one number where exact, "≥ low" with no upper end, "low–high"."""
    low, high = pair
    if low is None and high is None:
        return "none"  # no strategy within the depth limit
    if low == high:
        return shown(low)
    return f"≥ {shown(low)}" if high is None else f"{shown(low)}–{shown(high)}"


@pytest.mark.parametrize("tree_path", [WORDLE, MASTERMIND_OPTIMAL])
def test_review_after_a_game_of_you_guess(browser, tmp_path, tree_path):
    """Won by the tree's hints, the game's review shows every move best and exact (the tree is
    optimal); a new secret hides it; a secret shown reviews the guesses played so far."""
    web = WebPlayer(browser, player.load(tree_path), tmp_path)
    tree, game, page = web.tree, web.game, web.page
    web.show("you-guess")
    assert page.is_hidden("#yg-review")
    while page.get_attribute("#you-guess", "data-state") == "guessing":
        page.click("#yg-hint")
        page.fill("#yg-input", page.get_attribute("#yg-message", "data-hint"))
        page.click("#yg-go")
        if page.get_attribute("#you-guess", "data-state") == "guessing":
            assert page.is_hidden("#yg-review")
    history = tried(page, game)
    rows = review_rows(page, "#yg-review")
    assert len(rows) == len(history) and page.is_visible("#yg-review")
    secrets = len(game.secrets)
    for k, (row, (guess, feedback)) in enumerate(zip(rows, history)):
        assert (row["verdict"], row["exact"], row["Loss"], row["bounds"]) == ("best", "true", "0", []), (k, row)
        assert row["#"] == str(k + 1) and row["Secrets"].startswith(f"{secrets} → ")
        assert row["played"] == f"{game.format_code(guess)} {game.format_feedback(feedback)}"
        secrets = len(tree.candidates(history[:k + 1]))
        assert row["Secrets"].endswith(f"→ {0 if k == len(history) - 1 else secrets}")
    minimum = tree.strategy["minimum_total"] / len(game.secrets)
    assert rows[0]["Expected"] == f"{shown(minimum)} / {shown(minimum)}"
    assert page.text_content("#yg-review tfoot").startswith(f"In all: {len(history)} guess")
    page.click("#yg-new")
    assert page.is_hidden("#yg-review")
    page.click("#yg-hint")
    page.fill("#yg-input", page.get_attribute("#yg-message", "data-hint"))
    page.click("#yg-go")
    if page.get_attribute("#you-guess", "data-state") == "guessing":
        page.click("#yg-reveal")
        assert [row["verdict"] for row in review_rows(page, "#yg-review")] == ["best"]
    web.close()


def test_review_of_a_typed_wordle_game(browser, tmp_path):
    """A Wordle game typed in: CRANE within 6 guesses is exact by the book's tree (its total
    against SALET's), the next guess, off every tree, bounded; with no depth limit CRANE's total
    is an interval; a history no secret fits is refused at its step."""
    web = WebPlayer(browser, player.load(WORDLE), tmp_path)
    page = web.page
    web.show("review")

    def review(text: str, depth: str = "") -> list[dict]:
        page.fill("#review-input", text)
        page.fill("#review-depth", depth)
        page.click("#review-go")
        return review_rows(page, "#review-out")

    crane, salet = book_total("CRANE"), 7920
    rows = review("crane -Y--- moist ---YY", "6")
    assert page.text_content("#review-message") == "2 moves reviewed."
    first, second = rows
    assert (first["Expected"], first["Loss"], first["Best"], first["Worst"], first["verdict"], first["exact"], first["bounds"]) == (
        f"{shown(crane / 2315)} / {shown(salet / 2315)}", shown((crane - salet) / 2315), "SALET\u00a0…", "6 / 5", "good", "true", [])
    assert first["Secrets"] == "2315 → 90" and first["played"] == "CRANE -Y---" and first["shown"] == "CRANE"
    marks = page.query_selector_all("#review-out tbody tr:first-child .tile")  # the feedback, as the tiles' colours
    assert [tile.get_attribute("data-mark") for tile in marks] == ["0", "1", "0", "0", "0"]
    assert second["exact"] == "false" and second["Loss"].startswith("≥ ") and "Loss" in second["bounds"]
    assert second["verdict"].endswith("or worse")
    legend = page.text_content("#review-out .legend")
    assert "tree and the opening book" in legend and "guesstree review with the compiler's install gives exact figures" in legend
    free = review("crane -Y---")[0]  # no depth limit: the book's depth-6 tree is an upper bound only
    assert free["Expected"] == f"{shown(salet / 2315)}–{shown(crane / 2315)} / {shown(salet / 2315)}" and free["exact"] == "false"
    game = [("crane", "-G---"), ("moist", "---GG"), ("trust", "GGGGG")]  # as the Python player reviews it
    python = python_review(web.tree, game, 6).to_dict()
    for row, move in zip(review(" ".join(f"{g} {f}" for g, f in game), "6"), python["moves"], strict=True):
        assert (row["Expected"], row["Loss"], row["Luck"], row["Worst"], row["verdict"], row["exact"]) == (
            f"{shown_figure(move['expected'])} / {shown_figure(move['best_expected'])}", shown_figure(move["loss"]),
            shown_figure(move["luck"]), f"{move['worst'] or '?'} / {move['best_worst'] or '?'}", move["verdict"],
            str(move["exact"]).lower()), row
    review("salet ----- crane GGGGG")
    assert page.text_content("#review-message") == "step 2: no secret gives all these answers: SALET -----, CRANE GGGGG"
    assert page.get_attribute("#review-message", "class") == "error" and review_rows(page, "#review-out") == []
    review("crane")
    assert page.text_content("#review-message").startswith("crane has no feedback")
    page.focus("#review-input")  # Enter in the field reviews, as in the page's other forms
    page.fill("#review-input", "crane -Y---")
    page.fill("#review-depth", "6")
    page.keyboard.press("Enter")
    assert page.text_content("#review-message") == "1 move reviewed."
    web.close()


def test_review_of_a_typed_mastermind_game(browser, tmp_path):
    """Mastermind: ABCD from the book's tree (exact), BACE bounded by the book's tree after ABCD."""
    web = WebPlayer(browser, player.load(MASTERMIND_OPTIMAL), tmp_path)
    page = web.page
    page.goto(web.path.as_uri() + "#review")
    page.fill("#review-input", "ABCD 0B2W BACE 1B1W")
    page.click("#review-go")
    first, second = review_rows(page, "#review-out")
    abcd, best = book_total("ABCD"), 5625
    assert (first["Expected"], first["Loss"], first["Worst"], first["verdict"], first["exact"]) == (
        f"{shown(abcd / 1296)} / {shown(best / 1296)}", shown((abcd - best) / 1296), "6 / 6", "good", "true")
    assert first["Secrets"] == "1296 → 312" and first["played"] == "ABCD 0B2W" and first["Guess"].endswith("0B2W")
    assert second["Secrets"] == "312 → 55" and second["exact"] == "false"
    web.close()


# -- compare --plot in a browser -----------------------------------------------------------------

def test_compare_plot_fits_a_1000_px_window(browser, tmp_path):
    """The picture of seven strategies over seventeen guess counts is at most 1000 px wide; one
    whose title has a word wider than that is drawn smaller: in a 1000 px window neither is cut,
    every text (the legend's rightmost among them) inside the picture and the window."""
    from guesstree.compiler.compare import Row, plot_svg

    def row(name: str, worst: int) -> Row:
        histogram = {k: 10 * k * (worst + 1 - k) for k in range(1, worst + 1)}
        secrets, total = sum(histogram.values()), sum(k * v for k, v in histogram.items())
        stats = {"secrets": secrets, "total": total, "average": total / secrets, "worst": worst, "histogram": histogram}
        return Row(name, {"name": name}, stats, secrets, None)

    rows = [row(name, worst) for name, worst in (("first", 9), ("minimax", 6), ("entropy", 6), ("expected-size", 6),
                                                  ("most-parts", 6), ("worst-entropy", 17), ("fewest-at-worst", 6))]
    page = browser.new_page(viewport={"width": 1000, "height": 700})
    for title, natural in (("Guesses to win: Mastermind, 6 colours, 4 holes, 1296 secrets", True),
                           ("W" * 120, False)):
        path = tmp_path / "plot.svg"
        path.write_text(plot_svg(rows, title), encoding="utf-8")
        page.goto(path.as_uri())
        svg, texts, scroll = page.evaluate("""() => {
            const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
            return [box(document.documentElement), [...document.querySelectorAll("text")].map(box),
                    document.documentElement.scrollWidth]; }""")
        assert (float(page.get_attribute("svg", "width")) <= 1000) == natural
        assert svg[2] - svg[0] <= 1000 and scroll <= 1000, title
        drawn = svg[2] - svg[0]
        assert drawn == (float(page.get_attribute("svg", "width")) if natural else 1000)  # as it is, or scaled down
        rightmost = max(texts, key=lambda t: t[2])
        assert page.evaluate("document.querySelectorAll('g.legend text').length") == len(rows) and rightmost[2] <= svg[2]
        assert all(svg[0] <= t[0] and t[2] <= svg[2] and svg[1] <= t[1] and t[3] <= svg[3] for t in texts), title
    page.close()


# -- the words keyboard in the play tab, and words of any alphabet (issue 68) -------------------

def own_keyboard(page) -> dict[str, str]:
    """The play tab's keyboard's coloured keys: letter -> its mark."""
    return {key.get_attribute("data-key"): key.get_attribute("data-mark")
            for key in page.query_selector_all("#own-picker button[data-key]") if key.get_attribute("data-mark")}


def mark_tiles(page, feedback) -> None:
    """Colour the tiles of the guess shown (each click: grey -> yellow -> green -> grey)."""
    tiles = page.query_selector_all("#guess button.mark")
    assert len(tiles) == len(feedback)
    for tile, mark in zip(tiles, feedback):
        for _ in range((mark - int(tile.get_attribute("data-mark"))) % 3):
            tile.click()


def test_play_tab_keyboard_writes_a_guess_of_ones_own_whose_letters_are_then_coloured(browser, trees, tmp_path):
    """The play tab of a words page has the game's keyboard: a word written on it (or typed with the
    focus on the page) is shown for its letters to be coloured, Enter plays it, the page suggests what
    the Python player suggests, and the keys are coloured by the history as Wordle's are."""
    web = WebPlayer(browser, trees("words", "entropy", answers=WORDS_SMALL), tmp_path)
    tree, game, page = web.tree, web.game, web.page
    keys = [key.get_attribute("data-key") for key in page.query_selector_all("#own-picker button[data-key]")]
    used = {chr(97 + letter) for word in game.guesses for letter in word}
    assert keys == [c for c in "qwertyuiopasdfghjklzxcvbnm" if c in used]
    assert page.is_visible("#own-picker") and own_keyboard(page) == {}
    root = web.guess()
    secret = game.secrets[len(game.secrets) // 3]
    own = next(g for g in game.guesses if g != tree.guess_of(0) and g != secret)
    word = game.format_code(own)
    for letter in word.lower():
        page.click(f'#own-picker button[data-key="{letter}"]')
    assert page.input_value("#own-input") == word.lower()
    page.click("#own-enter")
    assert web.guess() == word and web.history() == [] and page.text_content("#turn") == "Guess 1"
    assert web.message() == f"Colour the letters of {word} as your feedback says, then press Enter."
    assert page.text_content("#source").startswith("Your own guess") and page.input_value("#own-input") == ""
    history = [(own, game.score(own, secret))]
    mark_tiles(page, history[0][1])
    page.click("#marks-go")
    assert web.history() == [word + game.format_feedback(history[0][1])]
    assert web.guess() == game.format_code(tree.suggest(history))
    assert own_keyboard(page) == known_letters(history)
    # the physical keyboard with the focus on the page: letters, Backspace, Enter to show it, Enter to play it
    second = next(g for g in game.guesses if g not in (own, secret) and game.allows(g, history) is None)
    page.click("h1")
    text = game.format_code(second).lower()
    page.keyboard.type(text + text[0])  # one letter too many: not written
    assert page.input_value("#own-input") == text
    page.keyboard.press("Backspace")
    assert page.input_value("#own-input") == text[:-1]
    page.keyboard.type(text[-1].upper())  # a capital writes its letter
    assert page.input_value("#own-input") == text
    page.keyboard.press("Enter")
    assert web.guess() == game.format_code(second)
    history.append((second, game.score(second, secret)))
    mark_tiles(page, history[1][1])
    page.click("h1")
    page.keyboard.press("Enter")
    assert len(web.history()) == 2 and web.guess() == game.format_code(tree.suggest(history))
    assert own_keyboard(page) == known_letters(history)
    # a non-word is refused with the Python game's message; undo shows the tree's guess again
    page.fill("#own-input", "ab1")
    page.click("#own-go")
    assert web.message() == python_error(game.parse_code, "ab1") and len(web.history()) == 2
    page.click("#undo")
    page.click("#undo")
    assert web.guess() == root and own_keyboard(page) == {}
    assert accessible_names_hold_their_text(page) == [] and web.problems == []
    web.close()


def words_es() -> dict:
    return debian_words.spanish()


def words_uk_hard() -> dict:
    return {**debian_words.ukrainian(), "hard": True}


WORDS_OF = {"es": words_es, "uk": words_uk_hard}
LAYOUT_ROWS = {"es": ["qwertyuiop", "asdfghjklñ", "zxcvbnm"], "uk": ["йцукенгшщзхїъ", "фівапролджєыэ", "ячсмитьбюґё"]}


def unnamed(message: str) -> str:
    """A Python message as the JavaScript player words it: a character by its code point, without
    the Unicode name it has no table of ('9' (U+0039 DIGIT NINE) -> '9' (U+0039))."""
    import re

    return re.sub(r"\(U\+([0-9A-F]{4,6}) [^)]*\)", r"(U+\1)", message)


def keyboard_rows(page, picker: str) -> list[list[str]]:
    """The on-screen keyboard's rows: each key's letter (data-key), Enter and ⌫ left out."""
    return page.evaluate("""(picker) => [...document.querySelectorAll(`#${picker} .picker-row`)]
        .map((row) => [...row.querySelectorAll("button[data-key]")].map((key) => key.dataset.key))""", picker)


def press_key(page, key: str) -> None:
    """A key of the physical keyboard with the focus on the page, for a letter Playwright's US
    keyboard has not (ñ, й): its keydown, as a keyboard of that language sends it."""
    page.evaluate("""(key) => document.body.dispatchEvent(new KeyboardEvent("keydown",
        { key, bubbles: true, cancelable: true }))""", key)


@pytest.mark.parametrize("layout", ["es", "uk"])
def test_words_of_another_alphabet_play_like_the_python_player(browser, trees, tmp_path, layout):
    """Spanish and Ukrainian (hard mode) trees: the page plays every game as the Python player does,
    shows words in capitals, its keyboards hold the game's letters (a keyboard's rows for the letters
    it has, the others after them in the alphabet's order), and typed words are read as Python reads
    them, in capitals or lower case, composed or not."""
    import unicodedata

    web = WebPlayer(browser, trees("words", "entropy", **WORDS_OF[layout]()), tmp_path)
    game, page = web.game, web.page
    alphabet = game.params()["alphabet"]
    for secret in some(game.secrets, 5):
        web.play(secret)
    used = [letter for letter in alphabet if any(alphabet[s] == letter for word in game.guesses for s in word)]
    rows = [[c for c in row if c in used] for row in LAYOUT_ROWS[layout]]
    others = [c for c in used if not any(c in row for row in rows)]
    expected = [row for row in rows + [others[i:i + 11] for i in range(0, len(others), 11)] if row]
    assert keyboard_rows(page, "own-picker") == keyboard_rows(page, "yg-picker") == expected
    assert len(used) > 26 - 10 and any(not c.isascii() for row in expected for c in row)
    labels = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll("#yg-picker button[data-key]")]
        .map((key) => [key.dataset.key, key.textContent]))""")
    assert labels == {c: game.format_code((alphabet.index(c),)) for c in used}  # each letter's capital

    # You guess: a word of the game's own letters, written with the keys, typed in capitals, in lower
    # case, decomposed; a wrong character named as Python names it.
    web.show("you-guess")
    page.evaluate("Math.random = () => 0.25")
    page.click("#yg-new")
    hidden = game.secrets[int(0.25 * len(game.secrets))]
    beyond = [c for c in game.guesses if any(not alphabet[s].isascii() for s in c) and c != hidden]
    first = beyond[0]
    for letter in (alphabet[s] for s in first):
        page.click(f'#yg-picker button[data-key="{letter}"]')
    assert holes(page) == [game.format_code((s,)) for s in first]
    page.click("#yg-enter")
    assert tried(page, game) == [(first, game.score(first, hidden))]
    assert keyboard(page) == {alphabet[s]: str(m) for s, m in known_marks([(first, game.score(first, hidden))]).items()}
    history = [(first, game.score(first, hidden))]
    typed = [game.format_code(c) for c in beyond[1:4] if game.allows(c, history) is None or not game.hard]
    for text in typed[:1] + [unicodedata.normalize("NFD", w.lower()) for w in typed[1:2]]:
        code = game.parse_code(text)
        if game.allows(code, history) is not None:
            continue
        page.fill("#yg-input", text)
        page.click("#yg-go")
        history.append((code, game.score(code, hidden)))
        assert tried(page, game) == history, text
    for bad in (game.format_code(first)[:4] + "9", game.format_code(first)[:4] + "ß"):
        page.fill("#yg-input", bad)
        page.click("#yg-go")
        assert page.text_content("#yg-message") == unnamed(python_error(game.parse_code, bad))
    # the physical keyboard, the focus on the page: the letter or its capital writes the letter
    page.fill("#yg-input", "")
    page.click("h1")
    letters = [alphabet[s] for s in first]
    for i, letter in enumerate(letters):
        press_key(page, letter.upper() if i % 2 else letter)
    assert holes(page) == [game.format_code((s,)) for s in first]
    press_key(page, "Backspace")
    assert holes(page) == [game.format_code((s,)) for s in first[:-1]] + [""]
    web.close()


def known_marks(history: list[tuple]) -> dict[int, int]:
    """Each letter guessed (its code) with its best mark so far."""
    best: dict[int, int] = {}
    for guess, feedback in history:
        for letter, mark in zip(guess, feedback):
            best[letter] = max(best.get(letter, 0), mark)
    return best


def test_ukrainian_hard_mode_own_guess_on_the_play_tabs_keyboard(browser, trees, tmp_path):
    """The play tab of a Ukrainian hard-mode tree: a guess of one's own written on its keyboard
    (Cyrillic keys), its letters coloured, the suggestion the Python player's; a guess that drops a
    hint is refused with hard mode's message in capitals; the lookup reads a secret in lower case."""
    web = WebPlayer(browser, trees("words", "entropy", **words_uk_hard()), tmp_path)
    tree, game, page = web.tree, web.game, web.page
    alphabet = game.params()["alphabet"]
    secret = game.secrets[len(game.secrets) // 2]
    own = next(g for g in game.guesses if g not in (tree.guess_of(0), secret) and 2 in game.score(g, secret))
    for letter in (alphabet[s] for s in own):
        page.click(f'#own-picker button[data-key="{letter}"]')
    page.click("#own-enter")
    assert web.guess() == game.format_code(own)
    history = [(own, game.score(own, secret))]
    mark_tiles(page, history[0][1])
    page.click("#marks-go")
    assert web.history() == [game.format_code(own) + game.format_feedback(history[0][1])]
    assert web.guess() == game.format_code(tree.suggest(history))
    assert own_keyboard(page) == {alphabet[s]: str(m) for s, m in known_marks(history).items()}
    dropping = next(g for g in game.guesses if game.allows(g, history) is not None)
    page.fill("#own-input", game.format_code(dropping).lower())
    page.click("#own-go")
    assert web.message() == game.allows(dropping, history) and len(web.history()) == 1
    web.show("lookup")
    page.fill("#secret-input", game.format_code(secret).lower())
    page.click("#path-form button[type=submit]")
    assert page.text_content("#path-message") == \
        f"The tree finds {game.format_code(secret)} in {len(tree.path(secret))} guess{'' if len(tree.path(secret)) == 1 else 'es'}:"
    # the review of a game typed in lower case: the Python player's figures, the words in capitals
    web.show("review")
    played = [(game.format_code(own).lower(), game.format_feedback(game.score(own, secret)))]
    played += [(game.format_code(g).lower(), game.format_feedback(f)) for g, f in tree.path(secret)[1:]]
    python = python_review(tree, played, None).to_dict()
    page.fill("#review-input", " ".join(f"{g} {f}" for g, f in played))
    page.click("#review-go")
    rows = review_rows(page, "#review-out")
    for row, move, (guess, _) in zip(rows, python["moves"], played, strict=True):
        assert (row["shown"], row["Expected"], row["Loss"], row["verdict"], row["exact"]) == (
            guess.upper(), f"{shown_figure(move['expected'])} / {shown_figure(move['best_expected'])}",
            shown_figure(move["loss"]), move["verdict"], str(move["exact"]).lower()), row
    assert accessible_names_hold_their_text(page) == []
    web.close()


def test_weighted_words_page_says_its_weighted_mean_and_suggests_by_the_weights(browser, trees, tmp_path):
    """A tree of weighted Spanish answers: the summary gives the weighted mean beside the plain one;
    every game is the Python player's; off the tree, after a guess of one's own, the page suggests
    what the Python player's rule suggests with the weights (the heavier of two candidates first)."""
    lists = words_es()
    answers = Path(lists["answers"]).read_text(encoding="utf-8").split()
    weighted = tmp_path / "weighted.txt"
    weighted.write_text("".join(f"{w} {['1', '3', '0.25', '12.5'][i % 4]}\n" for i, w in enumerate(answers)), encoding="utf-8")
    web = WebPlayer(browser, trees("words", "entropy", answers=str(weighted), guesses=lists["guesses"]), tmp_path)
    tree, game, page = web.tree, web.game, web.page
    s = tree.stats
    assert game.weights is not None and s["weighted_mean"] != s["average"]
    assert page.text_content("#summary") == (f"{s['secrets']} secrets · {s['average']:.3f} guesses on average "
                                             f"({s['weighted_mean']:.3f} weighted by how likely each secret is) · worst case {s['worst']}")
    for secret in some(game.secrets, 4):
        web.play(secret)
    # two candidates left after a guess of one's own: the heavier is suggested, wherever it comes
    weight = dict(zip(game.secrets, game.weights))
    pair = next((g, s1, s2) for g in game.guesses for s1 in game.secrets
                for s2 in [t for t in tree.candidates([(g, game.score(g, s1))]) if t != s1]
                if g not in (s1, s2, tree.guess_of(0)) and len(tree.candidates([(g, game.score(g, s1))])) == 2
                and weight[max(s1, s2)] > weight[min(s1, s2)])
    played, secret, _ = pair
    history = [(played, game.score(played, secret))]
    page.click("#restart")
    page.fill("#played-input", f"{game.format_code(played)} {game.format_feedback(history[0][1])}")
    page.click("#played-go")
    left = tree.candidates(history)
    assert web.guess() == game.format_code(tree.suggest(history)) == game.format_code(max(left))  # the later, heavier one
    web.close()

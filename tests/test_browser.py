"""The exported web player, driven in headless Chromium: its guesses must be the Python player's.

Needs Debian's ``chromium`` (``apt-get install -y chromium``) and Playwright for Python
(``pip install -e '.[browser]'``); never ``playwright install``, which downloads a browser.
Skipped, with the reason, when either is missing; ``GUESSTREE_CHROMIUM`` names another Chromium.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

import player
from player.export import export, reach

CHROMIUM = Path(os.environ.get("GUESSTREE_CHROMIUM", "/usr/bin/chromium"))
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

sync_api = pytest.importorskip(
    "playwright.sync_api", reason="Playwright for Python is not installed (pip install -e '.[browser]')")
if not CHROMIUM.exists():
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install -y chromium)", allow_module_level=True)


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def trees(build_cached):
    import compiler

    def tree(name: str, strategy: str, **params) -> player.Tree:
        return player.loads(compiler.to_bytes(build_cached(name, strategy, **params)), f"{name}-{strategy}",
                            plugins=["tiny_game"])
    return tree


class WebPlayer:
    """One exported page open in the browser, with the Python tree it came from."""

    def __init__(self, browser, tree: player.Tree, directory: Path):
        self.tree, self.game = tree, tree.game
        path = directory / "player.html"
        path.write_text(export(tree, "html"), encoding="utf-8")
        self.page = browser.new_page()
        self.page.set_default_timeout(10_000)
        self.problems: list[str] = []
        self.page.on("pageerror", lambda error: self.problems.append(f"page error: {error}"))
        self.page.on("console", lambda message: self.problems.append(f"console {message.type}: {message.text}"))
        self.page.on("request", lambda request: None if request.url.startswith("file://")
                     else self.problems.append(f"request: {request.url}"))
        self.page.goto(path.as_uri())
        assert self.state() == "playing"

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
        button = f'#answers button[data-feedback="{text}"]'
        if self.page.query_selector(button):
            self.page.click(button)
        else:  # too many feedback values for buttons (words): type it, in another spelling
            self.page.fill("#feedback-input", text.replace("-", "b").lower())
            self.page.click("#typed button[type=submit]")

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


def some(secrets: list, count: int) -> list:
    step = max(1, len(secrets) // count)
    return secrets[::step][:count] + [secrets[-1]]


@pytest.mark.parametrize("name, strategy, params", [
    ("mastermind", "entropy", {"colours": 4, "holes": 3}),
    ("twod", "minimax", {"size": 4}),
    ("bulls-cows", "first", {"digits": 4, "length": 2}),
    ("tiny_game:make", "entropy", {}),
    ("words", "entropy", {"answers": str(Path(__file__).parent / "data" / "words-small.txt"), "hard": True}),
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

    # Typed feedback: as the game writes it, or as two numbers; what cannot occur is refused.
    for typed, expected in (("3B1W", "3B1W cannot occur in this game."),
                            ("lots", '"lots" is not feedback for this game: use the buttons, or write e.g. 0B0W.')):
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

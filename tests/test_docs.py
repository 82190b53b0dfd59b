"""The documentation site (issue 67): ``mkdocs build --strict`` builds it with no warning, so no
broken link or anchor between its pages; it shows every command, the Python API from the
docstrings, and the players' and the format's files as they stand (included, never copied); the
README stays a short front page whose links lead somewhere.

The guides' own content (their examples run, their tables match the trees) is held by the tests
of what they describe: test_readme.py, test_first_hour.py, test_precommit.py, test_release.py and
test_c_player.py read the pages below."""
from __future__ import annotations

import html
import importlib
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import typer

from guesstree.player.cli import app

REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs"
README = REPO / "README.md"
README_LIMIT = 30_000  # bytes: the front page, not the manual
TOOLS = {"mkdocs": "mkdocs", "mkdocstrings": "mkdocstrings", "mkdocstrings_handlers.python": "mkdocstrings-python",
         "material": "mkdocs-material", "pymdownx": "pymdown-extensions"}
# the pages that include a file of the repository as it stands
INCLUDED = {"reference/javascript.md": "player/js/README.md", "reference/c.md": "player/c/README.md",
            "reference/format.md": "trees/FORMAT.md", "reference/checkpoint.md": "trees/CHECKPOINT.md",
            "reference/records.md": "trees/RECORDS.md", "developing.md": "DEVELOPING.md"}
QUIET = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}  # the Material theme's notice of its end of life, each build


def command_names() -> list[str]:
    return sorted(typer.main.get_command(app).list_commands(None))


def page_text(site: Path, page: str) -> str:
    """The words of a built page (``reference/c.md`` -> ``site/reference/c/index.html``), tags removed."""
    built = site / (page.removesuffix(".md").removesuffix("index") + "/index.html").lstrip("/")
    return html.unescape(re.sub(r"<[^>]+>", "", built.read_text()))


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    missing = [package for module, package in TOOLS.items() if importlib.util.find_spec(module.split(".")[0]) is None
               or importlib.util.find_spec(module) is None]
    if missing:
        pytest.fail(f"the docs build needs {', '.join(missing)}: pip install -e '.[docs]' (the test extra brings it)")
    out = tmp_path_factory.mktemp("site")
    built = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(REPO / "mkdocs.yml"), "-d", str(out)],
                           cwd=REPO, capture_output=True, text=True, timeout=300, env=QUIET)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    return out


def test_the_site_builds_strictly_with_every_page(site):
    pages = sorted(str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md"))
    assert len(pages) >= 15
    for page in pages:
        assert page_text(site, page).strip(), page


def test_a_broken_anchor_fails_the_build(tmp_path):
    """The strict build is a link check: a link to an anchor a page lacks is an error, not a 404."""
    if importlib.util.find_spec("mkdocs") is None:
        pytest.fail("the docs build needs mkdocs: pip install -e '.[docs]'")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n\n[the games](other.md#the-gamez)\n")
    (docs / "other.md").write_text("# Other\n\n## The games\n")
    config = (REPO / "mkdocs.yml").read_text()
    config = re.sub(r"(?ms)^nav:.*?\n(?=\S)", "", config)  # this site's own pages, its checks unchanged
    config = re.sub(r"(?ms)^(hooks|watch):.*?\n(?=\S)", "", config)
    config = re.sub(r"(?ms)^  - mkdocstrings:.*\Z", "", config)
    (tmp_path / "mkdocs.yml").write_text(config)
    built = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "site")],
                           cwd=tmp_path, capture_output=True, text=True, timeout=300, env=QUIET)
    assert built.returncode == 1
    assert "does not contain an anchor '#the-gamez'" in built.stderr


def test_the_readme_is_a_short_front_page():
    size = len(README.read_bytes())
    assert size < README_LIMIT, f"README.md is {size} bytes; the details belong in docs/"


def test_the_readmes_links_lead_to_files_of_the_repository():
    """README.md is not part of the site (mkdocs does not check it): its relative links are checked here."""
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README.read_text())
    local = [link for link in links if not re.match(r"[a-z]+:", link)]
    assert {"docs/index.md", "docs/tutorials/compile.md", "docs/tutorials/play.md", "docs/tutorials/verify.md",
            "docs/tutorials/scale.md", "docs/commands.md"} <= set(local)
    assert not [link for link in local if not (REPO / link).exists()]
    anchors = re.findall(r"\]\(#([^)]+)\)", README.read_text())
    headings = {re.sub(r"[^\w\- ]", "", h).strip().lower().replace(" ", "-") for h in re.findall(r"^#+ (.*)$", README.read_text(), re.M)}
    assert anchors and set(anchors) <= headings


def test_every_command_is_in_the_docs_with_its_options(site):
    """The Commands page has a row for each command of the program, and the site shows each."""
    rows = re.findall(r"^\| `guesstree (\w+)", (DOCS / "commands.md").read_text(), re.M)
    assert sorted(rows) == command_names()
    text = " ".join(page_text(site, str(p.relative_to(DOCS))) for p in DOCS.rglob("*.md"))
    assert not [name for name in command_names() if f"guesstree {name}" not in text]


def test_each_tutorial_is_a_job(site):
    for page, commands in {"tutorials/compile.md": ["guesstree compile", "guesstree compare", "guesstree openers"],
                           "tutorials/play.md": ["guesstree play", "guesstree next", "guesstree solve", "next_guess"],
                           "tutorials/verify.md": ["guesstree verify", "guesstree manifest", "pre-commit"],
                           "tutorials/scale.md": ["--workers", "--checkpoint", "--resume", "--cluster local:2"]}.items():
        text = page_text(site, page)
        assert not [c for c in commands if c not in text], page


@pytest.mark.parametrize("page, source", sorted(INCLUDED.items()))
def test_the_references_are_the_repositorys_files_included(site, page, source):
    """Each reference page includes its file (one source), and the built page shows all its headings."""
    assert (DOCS / page).read_text().count(f'--8<-- "{source}"') == 1
    text = page_text(site, page)
    headings = [re.sub(r"[`*]", "", h).strip() for h in re.findall(r"^#{1,3} (.+)$", (REPO / source).read_text(), re.M)]
    assert headings and not [h for h in headings if h not in text], page


def test_the_results_page_is_the_readmes_tables(site):
    """The README's results and benchmarks are the single source the Results page includes."""
    text = page_text(site, "results.md")
    for marker in ("strategies", "optima", "benchmarks"):
        assert f'--8<-- "README.md:{marker}"' in (DOCS / "results.md").read_text()
    for figure in ("5625", "26274", "7920", "8122", "0.0000028", "peak RSS"):
        assert figure in text


@pytest.mark.parametrize("name", [
    "guesstree.player.load",
    "guesstree.player.Tree.next_guess",
    "guesstree.player.Tree.suggest",
    "guesstree.player.FormatError",
    "guesstree.player.InconsistentHistory",
    "guesstree.player.shipped.shipped",
    "guesstree.player.book.Book",
    "guesstree.player.game.Game",
    "guesstree.player.verify.verify",
    "guesstree.player.manifest.check_manifest",
    "guesstree.player.manifest.manifest_text",
    "guesstree.compiler.builder.runner.build",
    "guesstree.compiler.options.Options",
    "guesstree.compiler.exact.bound",
    "guesstree.compiler.exact.rank_openers",
    "guesstree.compiler.compare.compare",
])
def test_the_python_api_is_rendered_from_the_docstrings(site, name):
    """Each name has its entry, with its docstring's first line (mkdocstrings reads the source)."""
    module, _, attribute = name.rpartition(".")
    try:
        obj = getattr(importlib.import_module(module), attribute)
    except ModuleNotFoundError:  # a method: Tree.next_guess
        owner, _, attribute_of = module.rpartition(".")
        obj = getattr(getattr(importlib.import_module(owner), attribute_of), attribute)
    built = (site / "reference" / "python" / "index.html").read_text()
    assert f'id="{name}"' in built
    first_line = obj.__doc__.strip().splitlines()[0]
    text = page_text(site, "reference/python.md")
    assert " ".join(first_line.replace("``", "").split()[:6]) in " ".join(text.split())

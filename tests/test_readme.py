"""The README's and the guides' figures are the shipped trees' and agree with each other; they read
as a guide for users, not a lab notebook (its history lives in scripts/BENCHMARKS-ARCHIVE.md). The
README is the front page; the guides are docs/ (their site: tests/test_docs.py)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
README = (REPO / "README.md").read_text()
DOCS = REPO / "docs"
GUIDES = {path.relative_to(DOCS).as_posix(): path.read_text() for path in sorted(DOCS.rglob("*.md"))}  # our own pages
MANIFEST = {entry["file"]: entry for entry in json.loads((REPO / "trees" / "MANIFEST.json").read_text())["trees"]}


def section(title: str, text: str = README, where: str = "README.md") -> str:
    """The text of the section ``## title`` of ``text``, up to the next one."""
    found = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    assert found, f"{where} has no section '## {title}'"
    return found.group(1)


def guide_section(page: str, title: str) -> str:
    return section(title, GUIDES[page], f"docs/{page}")


def marked(name: str) -> str:
    """The README's part between its ``--8<-- [start:name]`` and ``[end:name]`` markers, which the
    docs' pages include (docs/results.md): one text, shown in both places."""
    found = re.search(rf"<!-- --8<-- \[start:{name}\] -->\n(.*?)<!-- --8<-- \[end:{name}\] -->", README, re.S)
    assert found, f"README.md has no part marked {name!r}"
    return found.group(1)


def table_rows(text: str) -> list[list[str]]:
    return [[cell.strip() for cell in line.strip().strip("|").split("|")]
            for line in text.splitlines() if line.startswith("| `")]


def test_the_players_examples_run_from_any_folder(tmp_path, monkeypatch):
    """The Python examples of "The player in a program" (docs/tutorials/play.md) run where no
    trees/ folder is, and give what their comments say."""
    blocks = re.findall(r"```python\n(.*?)```", guide_section("tutorials/play.md", "The player in a program"), re.S)
    assert len(blocks) == 2
    monkeypatch.chdir(tmp_path)
    names: dict = {}
    for block in blocks:
        if not block.startswith("# mygame.py"):
            exec(compile(block, "README.md", "exec"), names)
    tree, wordle = names["tree"], names["wordle"]
    assert tree.next_guess([]) == (0, 1, 2, 3)
    assert tree.next_guess([("ABCD", "1B1W")]) == tree.next_guess([((0, 1, 2, 3), (1, 1))])
    assert len(wordle.candidates([("crane", "GYY--")])) == 8
    assert wordle.suggest([("crane", "GYY--")]) == wordle.game.parse_code("cargo")
    assert len(wordle.candidates([("ghost", "Y----")])) == 90
    assert wordle.suggest([("ghost", "Y----")]) == wordle.game.parse_code("raile")
    with pytest.raises(ValueError, match="CRANR is not one of the game.s 12972 allowed guesses"):
        wordle.suggest([("cranr", "G----")])
    assert wordle.suggest([]) == wordle.game.parse_code("salet")


def test_the_readmes_python_example_runs_from_any_folder(tmp_path, monkeypatch):
    (block,) = re.findall(r"```python\n(.*?)  ```", README, re.S)
    monkeypatch.chdir(tmp_path)
    lines = [line.removeprefix("  ") for line in block.splitlines()]
    names: dict = {}
    exec(compile("\n".join(lines[:-2]), "README.md", "exec"), names)
    for line in lines[-2:]:  # each call gives what its comment says
        call, said = line.split("#")
        assert eval(call, names) == eval(said.split(":")[0], names)


def test_the_classic_mastermind_table_is_the_shipped_trees():
    rows = table_rows(marked("strategies"))
    assert len(rows) == 8
    for strategy, total, average, worst, distribution in rows:
        name = strategy.split("`")[1]
        if "--max-depth 5" in name:  # not shipped: the tests prove it (test_optimal.py); its worst is 5
            assert (int(total), int(worst)) == (5626, 5)
            continue
        stats = MANIFEST[f"mastermind-c6-h4-{name}.msgpack.zst"]["stats"]
        assert (int(total), float(average), int(worst)) == (stats["total"], round(stats["average"], 3), stats["worst"])
        assert [int(n) for n in distribution.split(", ")] == list(stats["histogram"].values())


def test_the_shipped_optima_table_is_the_manifest():
    rows = table_rows(marked("optima"))
    assert len(rows) == 11
    for file, _game, total, worst, _published in rows:
        stats = MANIFEST[file.strip("`")]["stats"]
        assert (int(total), int(worst)) == (stats["total"], stats["worst"])
        assert MANIFEST[file.strip("`")]["strategy"]["optimal"] is True


def test_every_tree_the_readme_and_the_guides_name_is_shipped():
    for where, text in {"README.md": README, **GUIDES}.items():
        named = set(re.findall(r"trees/([\w.-]+\.msgpack\.zst)", text))
        assert named <= set(MANIFEST), (where, named - set(MANIFEST))
        if where in ("README.md", "tutorials/play.md", "tutorials/verify.md"):
            assert named, where


@pytest.mark.parametrize("job", [
    "`compile words` (original Wordle lists) `--strategy entropy`",
    "`compile words ... --first salet --strategy optimal-expected`",
    "`compile words ... --hard --first salet --strategy optimal-expected --max-depth 6`",
])
def test_the_word_games_figures_are_in_the_benchmark_table_only(job):
    seconds = {row[0]: row[1] for row in table_rows(section("Benchmarks"))}[job]
    assert float(seconds) > 0
    assert not re.search(r"\d s\b", guide_section("tutorials/compile.md", "Word games"))  # one copy of each figure: the table's


def test_the_wordle_lists_the_readme_names_ship_with_the_tests():
    assert "tests/data/wordle/" in guide_section("tutorials/compile.md", "Word games")
    for name in ("wordlist_orig_hidden", "wordlist_orig_all"):
        assert (REPO / "tests" / "data" / "wordle" / name).is_file()


@pytest.mark.parametrize("notebook", ["this machine", "this 2-core", "third session", "paired with", "a commit id"])
def test_the_readme_and_the_guides_keep_no_lab_notebook(notebook):
    for where, text in {"README.md": README, **GUIDES}.items():
        if notebook == "a commit id":
            found = re.findall(r"\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b", text)
        else:
            found = [notebook] if notebook in text else []
        assert not found, f"{where} says {found[0]!r}: history goes to scripts/BENCHMARKS-ARCHIVE.md"
    assert "paired with 44efe5b" in (REPO / "scripts" / "BENCHMARKS-ARCHIVE.md").read_text()  # where it went

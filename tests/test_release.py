"""The release files, as a stranger gets them: ``python -m build`` makes an sdist and a wheel that
pass ``twine check --strict``, whose only import name is ``guesstree`` and which carry the licences;
the wheel installed in a fresh venv plays from an empty folder with no numpy, and the docs' CI
snippet (docs/tutorials/verify.md) runs there as written; ``npm pack`` makes a tarball that installs into an empty Node project
and runs its README's example. One version and one home everywhere."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
import venv
import zipfile
from importlib.metadata import version as installed_version
from pathlib import Path

import pytest

import guesstree

ROOT = Path(__file__).resolve().parent.parent
JS = ROOT / "player" / "js"
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
PACKAGE = json.loads((JS / "package.json").read_text())
VERSION = guesstree.__version__
WHEEL = f"guesstree-{VERSION}-py3-none-any.whl"


def run(args: list, cwd: Path, env: dict | None = None, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


def readme_block(text: str, heading: str, language: str) -> str:
    """The first ``language`` code block after the paragraph that starts with ``heading``."""
    found = re.search(rf"^{re.escape(heading)}.*?```{language}\n(.*?)```", text, re.S | re.M)
    assert found, f"no {language} block after {heading!r}"
    return found.group(1)


def test_one_version_everywhere(cli):
    lock = json.loads((JS / "package-lock.json").read_text())
    exported = re.search(r'^export const version = "([^"]+)";', (JS / "src" / "index.js").read_text(), re.M)
    changelog = re.findall(r"^## \[(\d[^\]]*)\]", (ROOT / "CHANGELOG.md").read_text(), re.M)
    assert PROJECT["dynamic"] == ["version"]  # pyproject.toml reads guesstree.__version__
    assert installed_version("guesstree") == VERSION
    assert PACKAGE["version"] == lock["version"] == lock["packages"][""]["version"] == exported.group(1) == VERSION
    assert changelog[0] == VERSION  # the newest release the changelog names
    assert cli("--version").stdout == f"guesstree {VERSION}\n"
    from guesstree import player
    assert player.__version__ == VERSION


def test_one_home_and_one_licence():
    home = PROJECT["urls"]["Source"]
    assert PACKAGE["repository"]["url"] == f"git+{home}.git" and PACKAGE["repository"]["directory"] == "player/js"
    assert PACKAGE["bugs"]["url"] == PROJECT["urls"]["Issues"] == f"{home}/issues"
    assert PACKAGE["homepage"].startswith(home) and PROJECT["urls"]["Homepage"] == home
    assert PACKAGE["license"] == PROJECT["license"] == "MIT"
    assert (ROOT / "LICENSE").read_text().startswith("MIT License\n\nCopyright (c) 2026 The guesstree developers\n")
    for name in PROJECT["license-files"]:
        assert "Permission is hereby granted, free of charge" in (ROOT / name).read_text()
    assert "../" not in (JS / "README.md").read_text()  # the npm package's README stands alone


def source_copy(tmp_path: Path) -> Path:
    """The checkout's sources alone: an editable install's guesstree.egg-info lists the modules it
    found, which a build from the checkout itself would take in even where pyproject.toml leaves one out."""
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".*", "*.egg-info", "build", "dist", "__pycache__",
                                                               "node_modules", "*.tgz"))
    return source


@pytest.fixture(scope="module")
def release(tmp_path_factory) -> Path:
    """``python -m build`` of the sources: the folder of the sdist and the wheel."""
    pytest.importorskip("build", reason="the build package is not installed (pip install build)")
    tmp = tmp_path_factory.mktemp("release")
    built = run([sys.executable, "-m", "build", "--outdir", tmp / "dist", source_copy(tmp)], tmp, timeout=900)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    return tmp / "dist"


@pytest.mark.slow
def test_the_release_files_pass_twine_and_hold_one_import_name_and_the_licences(release):
    pytest.importorskip("twine", reason="twine is not installed (pip install twine)")
    assert sorted(p.name for p in release.iterdir()) == [WHEEL, f"guesstree-{VERSION}.tar.gz"]
    checked = run([sys.executable, "-m", "twine", "check", "--strict", *sorted(release.iterdir())], release)
    assert checked.returncode == 0 and checked.stdout.count("PASSED") == 2, checked.stdout + checked.stderr
    names = zipfile.ZipFile(release / WHEEL).namelist()
    dist_info = f"guesstree-{VERSION}.dist-info"
    assert {name.split("/")[0] for name in names} == {"guesstree", dist_info}  # no player/ or compiler/ at the top
    assert (f"{dist_info}/licenses/LICENSE" in names and f"{dist_info}/licenses/tests/data/wordle/LICENSE" in names)
    metadata = zipfile.ZipFile(release / WHEEL).read(f"{dist_info}/METADATA").decode()
    assert "License-Expression: MIT" in metadata and f"Version: {VERSION}" in metadata
    modules = sorted(f"guesstree/{p.relative_to(ROOT).as_posix()}" for package in ("player", "compiler")
                     for p in (ROOT / package).rglob("*.py") if "node_modules" not in p.parts)
    assert [m for m in modules if m not in names] == []  # every module, subpackages included
    shipped = sorted(p.name for p in (ROOT / "trees").glob("*.msgpack.zst"))
    assert sorted(n.rpartition("/")[2] for n in names if n.startswith("guesstree/player/trees/") and n.endswith(".zst")
                  and n.count("/") == 3) == shipped
    assert {"guesstree/player/js/src/core.js", "guesstree/player/trees/MANIFEST.json"} <= set(names)
    book = {f"guesstree/player/trees/book/{p.name}" for p in (ROOT / "trees" / "book").glob("*.msgpack.zst")}
    assert book and book | {f"guesstree/player/trees/book/{index}" for index in ("BOOK.json", "RANKINGS.json")} <= set(names)  # the opening book
    assert not [n for n in names if n.endswith((".nbi", ".nbc", ".pyc"))]  # no build's or machine's caches


@pytest.mark.slow
def test_the_wheel_in_a_fresh_venv_plays_from_an_empty_folder_and_runs_the_docs_ci_snippet(release, tmp_path):
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    bin_dir = env_dir / ("Scripts" if os.name == "nt" else "bin")
    env = {**{k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")},
           "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    # the CI snippet of docs/tutorials/verify.md, as written, in a repository with its trees, their manifest and the wheel
    project = tmp_path / "project"
    (project / "trees").mkdir(parents=True)
    (project / "dist").mkdir()
    shutil.copy(release / WHEEL, project / "dist")
    for name in ("twod-s5-entropy", "wordle-salet-optimal-expected"):
        shutil.copy(ROOT / "trees" / f"{name}.msgpack.zst", project / "trees")
    from guesstree.player.manifest import manifest_text
    (project / "trees" / "MANIFEST.json").write_text(manifest_text(project / "trees"))
    snippet = readme_block((ROOT / "docs" / "tutorials" / "verify.md").read_text(), "A CI job (GitHub Actions)", "yaml")
    steps = re.findall(r"^- run: (.*)$", snippet, re.M)
    assert steps[0] == f"pip install dist/{WHEEL}"
    for step in steps:
        done = subprocess.run(step, shell=True, cwd=project, env=env, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, (step, done.stdout[-2000:], done.stderr[-2000:])
    reports = json.loads((project / "verify.json").read_text())
    assert [(Path(r["tree"]).name, r["ok"], r["total"]) for r in reports] == [
        ("twod-s5-entropy.msgpack.zst", True, 83), ("wordle-salet-optimal-expected.msgpack.zst", True, 7920)]
    # the player from an empty folder: one import name, no numpy, the shipped trees and their notice
    empty = tmp_path / "empty"
    empty.mkdir()
    python = bin_dir / "python"
    script = ("import importlib.util, sys\n"
              "from guesstree import player\n"
              "tree = player.load_shipped('wordle-salet-optimal-expected')\n"
              "print(tree.stats['total'], tree.game.format_code(tree.next_guess([])), len(tree.game.guesses))\n"
              "print('Alex Selby' in tree.notice, 'numpy' in sys.modules,\n"
              "      [name for name in ('player', 'compiler', 'numpy', 'numba') if importlib.util.find_spec(name)])\n"
              "import guesstree.player.export\n")
    played = run([python, "-c", script], empty, env)
    assert played.returncode == 0, played.stderr
    assert played.stdout.split("\n")[:2] == ["7920 SALET 12972", "True False []"]
    listed = run([bin_dir / "guesstree", "--help"], empty, env)
    assert "(needs guesstree[compiler]) Expand a strategy's whole tree" in listed.stdout, listed.stdout
    assert re.search(r"^  list\s+List the games", listed.stdout, re.M)  # no extra needed
    compiled = run([bin_dir / "guesstree", "compile", "mastermind", "--strategy", "entropy"], empty, env)
    assert (compiled.returncode, compiled.stderr) == (2, "error: this command needs the compiler's dependencies "
                                                         "(numpy is missing): pip install 'guesstree[compiler]'\n")
    reviewed = run([bin_dir / "guesstree", "review", "wordle-salet-optimal-expected", "--max-depth", "6", "--json",
                    "--", "crane", "-----", "moist", "-Y-YG"], empty, env)  # from the tree and the book, no numpy
    assert reviewed.returncode == 0, reviewed.stderr
    review = json.loads(reviewed.stdout)
    assert (review["source"], review["moves"][0]["total"], review["moves"][1]["best_total"]) == (
        "tree and book", [7930, 7930], [735, 735]), review
    assert review["missing"].startswith("the exhaustive search (guesstree review with the compiler's install) would give")
    moved = run([python, "-m", "guesstree", "info", "wordle-salet-optimal-expected"], empty, env)
    assert "  notice     The original Wordle word lists, wordlist_orig_hidden and" in moved.stdout, moved.stdout + moved.stderr


@pytest.mark.slow
def test_the_npm_tarball_installs_into_an_empty_project_and_runs_its_readme(tmp_path):
    if shutil.which("npm") is None or shutil.which("node") is None:
        pytest.skip("node and npm are not installed (apt-get install -y nodejs npm)")
    packed = run(["npm", "pack", "--json", "--pack-destination", tmp_path], JS)
    assert packed.returncode == 0, packed.stderr
    (listing,) = json.loads(packed.stdout)
    files = {entry["path"] for entry in listing["files"]}
    assert {"LICENSE", "README.md", "package.json", "trees/WORDLISTS-LICENSE", "src/index.js", "index.d.ts"} <= files
    assert not [f for f in files if f.startswith(("test/", "scripts/", "node_modules/"))]
    shipped = {f"trees/{p.name}" for p in (ROOT / "trees").glob("*.msgpack.zst")}
    book = {f"trees/book/{p.name}" for p in (ROOT / "trees" / "book").glob("*.msgpack.zst")}
    assert shipped <= files and book | {"trees/book/BOOK.json"} <= files
    project = tmp_path / "project"
    project.mkdir()
    (project / "package.json").write_text(json.dumps({"name": "stranger", "private": True, "type": "module"}))
    installed = run(["npm", "install", "--no-audit", "--no-fund", tmp_path / listing["filename"]], project)
    assert installed.returncode == 0, installed.stderr
    example = re.search(r"```js\n(.*?)```", (JS / "README.md").read_text(), re.S).group(1)
    (project / "example.mjs").write_text(example)
    ran = run(["node", "example.mjs"], project)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.splitlines() == ["SALET", "BROND", "3", "9", "7920 5", f"true {VERSION}"]  # as its comments say
    licence = (project / "node_modules" / "guesstree-player" / "LICENSE").read_text()
    assert licence == (ROOT / "LICENSE").read_text()

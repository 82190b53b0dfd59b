"""The pre-commit hooks of ``.pre-commit-hooks.yaml``, run by pre-commit itself (``try-repo`` on
this checkout) in a repository of its own: a good tree is committed, a damaged one refused."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from guesstree.player.manifest import manifest_text

ROOT = Path(__file__).resolve().parent.parent
TREE = "twod-s5-entropy.msgpack.zst"

pytestmark = pytest.mark.slow  # pre-commit installs guesstree into an environment of its own (about a minute)


def run(args: list, cwd: Path, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


@pytest.fixture
def repository(tmp_path) -> tuple[Path, dict]:
    pytest.importorskip("pre_commit", reason="pre-commit is not installed (pip install pre-commit)")
    if shutil.which("git") is None or run(["git", "rev-parse", "HEAD"], ROOT, dict(os.environ)).returncode != 0:
        pytest.skip("this checkout is not a git repository with a commit: try-repo needs one")
    env = {key: value for key, value in os.environ.items() if not key.startswith("GIT_")}
    env.update(PRE_COMMIT_HOME=str(tmp_path / "pre-commit-home"))  # its own hook environments
    repo = tmp_path / "repo"
    (repo / "trees").mkdir(parents=True)
    for args in (["init", "-q"], ["config", "user.email", "ci@example.com"], ["config", "user.name", "CI"],
                 ["config", "commit.gpgsign", "false"]):
        assert run(["git", *args], repo, env).returncode == 0
    return repo, env


def try_repo(repo: Path, env: dict) -> subprocess.CompletedProcess:
    """Both hooks of this checkout on what is staged in ``repo``."""
    return run([sys.executable, "-m", "pre_commit", "try-repo", str(ROOT), "--verbose"], repo, env)


def test_the_hooks_pass_a_good_tree_and_refuse_a_damaged_one(repository):
    repo, env = repository
    tree = repo / "trees" / TREE
    shutil.copy(ROOT / "trees" / TREE, tree)
    (repo / "trees" / "MANIFEST.json").write_text(manifest_text(repo / "trees"))
    assert run(["git", "add", "-A"], repo, env).returncode == 0
    passed = try_repo(repo, env)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "guesstree verify (changed trees)" in passed.stdout and "Passed" in passed.stdout
    assert f"ok trees/{TREE}: 25 secrets, total 83, average 3.3200, worst 5" in passed.stdout
    assert "ok trees/MANIFEST.json: 1 tree as listed" in passed.stdout
    assert run(["git", "commit", "-q", "-m", "a good tree"], repo, env).returncode == 0

    data = bytearray(tree.read_bytes())
    data[len(data) // 2] ^= 0xFF
    tree.write_bytes(bytes(data))
    assert run(["git", "add", "-A"], repo, env).returncode == 0
    refused = try_repo(repo, env)
    assert refused.returncode == 1, refused.stdout + refused.stderr
    assert "- exit code: 2" in refused.stdout  # unusable, as guesstree verify says it
    assert f"UNUSABLE trees/{TREE}: the zstd data is damaged" in refused.stdout
    assert refused.stdout.count("Failed") == 2  # the changed tree, and the folder against its manifest


def test_the_docs_local_hooks_run_as_written(repository):
    """The ``repo: local`` configuration of docs/tutorials/verify.md, its text as it stands, with
    guesstree installed where the commit is made (this interpreter's environment on the PATH)."""
    repo, env = repository
    guide = (ROOT / "docs" / "tutorials" / "verify.md").read_text()
    config = re.search(r"run the installed `guesstree`:\n\n```yaml\n(.*?)```", guide, re.S).group(1)
    assert "repo: local" in config
    (repo / ".pre-commit-config.yaml").write_text(config)
    env = {**env, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"}
    tree = repo / "trees" / TREE
    shutil.copy(ROOT / "trees" / TREE, tree)
    (repo / "trees" / "MANIFEST.json").write_text(manifest_text(repo / "trees"))
    assert run(["git", "add", "-A"], repo, env).returncode == 0
    passed = run([sys.executable, "-m", "pre_commit", "run", "--verbose"], repo, env)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert f"ok trees/{TREE}: 25 secrets, total 83" in passed.stdout and "ok trees/MANIFEST.json: 1 tree as listed" in passed.stdout
    data = bytearray(tree.read_bytes())
    data[len(data) // 2] ^= 0xFF
    tree.write_bytes(bytes(data))
    assert run(["git", "add", "-A"], repo, env).returncode == 0
    refused = run([sys.executable, "-m", "pre_commit", "run", "--verbose"], repo, env)
    assert refused.returncode == 1 and refused.stdout.count("Failed") == 2, refused.stdout + refused.stderr

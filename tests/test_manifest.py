"""``guesstree verify --manifest`` and ``verify FOLDER``: a folder of trees checked against its
manifest (sha256, size, statistics; missing and unlisted files named), with verify's exit codes."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from guesstree import player
from guesstree.player.manifest import Manifest, ManifestError, check_manifest, entry_of, manifest_text

TREES = Path(__file__).resolve().parent.parent / "trees"
SMALL = ["twod-s5-entropy.msgpack.zst", "mastermind-c6-h4-distinct-entropy.msgpack.zst"]


@pytest.fixture
def folder(tmp_path) -> Path:
    """Two small shipped trees and their manifest, in a folder of their own."""
    for name in SMALL:
        shutil.copy(TREES / name, tmp_path / name)
    (tmp_path / "MANIFEST.json").write_text(manifest_text(tmp_path))
    return tmp_path


def edit_manifest(folder: Path, change) -> None:
    document = json.loads((folder / "MANIFEST.json").read_text())
    change(document)
    (folder / "MANIFEST.json").write_text(json.dumps(document))


@pytest.mark.slow  # every shipped tree replayed (verify --manifest trees/ in .ci/run too)
def test_the_shipped_manifest_describes_every_shipped_tree(cli):
    listed = json.loads((TREES / "MANIFEST.json").read_text())["trees"]
    for entry in listed:  # what scripts/build_trees.py wrote is what entry_of reads back
        data = (TREES / entry["file"]).read_bytes()
        assert entry_of(data, player.loads(data, str(TREES / entry["file"]))) == entry
    result = cli("verify", "--manifest", TREES / "MANIFEST.json")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == f"ok {TREES / 'MANIFEST.json'}: {len(listed)} trees as listed"
    assert "ok " + str(TREES / "wordle-salet-optimal-expected.msgpack.zst") + ": 2315 secrets, total 7920" in result.stdout


def test_a_folder_that_matches_its_manifest(folder):
    reports = check_manifest(folder / "MANIFEST.json")
    assert [Path(r["tree"]).name for r in reports] == sorted(SMALL)
    assert all(r["ok"] and not r["unusable"] for r in reports)
    assert {r["total"] for r in reports} == {83, 1440}  # twod 5x5 entropy; 6x4 distinct entropy


def test_another_valid_tree_under_a_listed_name_is_invalid(cli, folder):
    twod, mastermind = SMALL
    shutil.copy(TREES / "mastermind-c6-h4-entropy.msgpack.zst", folder / mastermind)
    result = cli("verify", "--manifest", folder / "MANIFEST.json")
    assert result.exit_code == 1
    assert f"INVALID {folder / mastermind}:" in result.stderr
    assert "  the manifest says sha256 = " in result.stderr
    assert "  the manifest says total = 1440, but the tree has 5722" in result.stderr
    assert "  the manifest says secrets = 360, but the tree has 1296" in result.stderr
    assert f"ok {folder / twod}: 25 secrets" in result.stdout


def test_a_statistic_the_manifest_misstates_is_named(cli, folder):
    edit_manifest(folder, lambda d: d["trees"][1]["stats"].update(worst=4))
    result = cli("verify", "--manifest", folder / "MANIFEST.json", "--json")
    assert result.exit_code == 1
    reports = json.loads(result.stdout)
    assert [r["ok"] for r in reports] == [True, False]
    assert reports[1]["errors"] == ["the manifest says worst = 4, but the tree has 5"]
    assert reports[1]["unusable"] is False and reports[1]["total"] == 83


def test_missing_and_unlisted_files_are_named(cli, folder):
    (folder / SMALL[0]).unlink()
    shutil.copy(TREES / "mastermind-c6-h4-minimax.msgpack.zst", folder / "extra.msgpack.zst")
    (folder / "notes.txt").write_text("not a tree: never named")
    result = cli("verify", "--manifest", folder / "MANIFEST.json")
    assert result.exit_code == 2  # unusable (missing) outranks invalid (unlisted), as in verify
    manifest = folder / "MANIFEST.json"
    assert f"UNUSABLE {folder / SMALL[0]}: listed in {manifest} but missing" in result.stderr
    assert f"INVALID {folder / 'extra.msgpack.zst'}:\n  not listed in {manifest} (guesstree manifest {folder} lists every tree of the folder)" in result.stderr
    assert "notes.txt" not in result.output


def test_named_files_are_checked_alone_against_their_entries(cli, folder, tmp_path_factory):
    (folder / SMALL[0]).unlink()  # not named below: not looked for
    result = cli("verify", "--manifest", folder / "MANIFEST.json", folder / SMALL[1])
    assert result.exit_code == 0, result.output
    elsewhere = tmp_path_factory.mktemp("elsewhere") / SMALL[1]
    shutil.copy(TREES / SMALL[1], elsewhere)
    result = cli("verify", "--manifest", folder / "MANIFEST.json", elsewhere)
    assert result.exit_code == 1 and f"not in the folder of {folder / 'MANIFEST.json'}" in result.stderr


def test_a_damaged_tree_is_unusable_even_when_listed(cli, folder):
    path = folder / SMALL[1]
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    result = cli("verify", "--manifest", folder / "MANIFEST.json")
    assert result.exit_code == 2 and f"UNUSABLE {path}: " in result.stderr and f"{path}: {path}" not in result.stderr


@pytest.mark.parametrize("text, message", [
    ("{not json", "not a JSON manifest"),
    ('{"format": "other", "trees": []}', "not a guesstree-manifest file (format is 'other')"),
    ('[1, 2]', "not a guesstree-manifest file (format is 'list')"),
    ('{"format": "guesstree-manifest"}', "'trees' is not a list of entries"),
    ('{"format": "guesstree-manifest", "trees": [{"file": "a.msgpack.zst", "sha256": "0", "bytes": 1}]}',
     "entry 1 has no stats"),
    ('{"format": "guesstree-manifest", "trees": [{"file": "../a.msgpack.zst", "sha256": "0", "bytes": 1, "stats": {}}]}',
     "entry 1: '../a.msgpack.zst' is not a file name in the manifest's folder"),
    ('{"format": "guesstree-manifest", "trees": [{"file": "a", "sha256": "0", "bytes": 1, "stats": {}},'
     ' {"file": "a", "sha256": "0", "bytes": 1, "stats": {}}]}', "a is listed twice"),
])
def test_an_unusable_manifest_is_one_line_naming_it(cli, clean_error, tmp_path, text, message):
    path = tmp_path / "MANIFEST.json"
    path.write_text(text)
    assert clean_error(cli("verify", "--manifest", path), code=2).startswith(f"error: {path}: {message}")
    with pytest.raises(ManifestError, match="^" + str(path)):
        Manifest(path)


def test_a_missing_manifest_and_nothing_to_verify(cli, clean_error, tmp_path):
    assert clean_error(cli("verify", "--manifest", tmp_path / "nope.json"), code=2) == \
        f"error: {tmp_path / 'nope.json'}: no such file"
    assert clean_error(cli("verify"), code=2) == "error: name a TREE or a FOLDER to verify, or give --manifest FILE"


def test_a_folder_stands_for_its_tree_files(cli, folder, tmp_path_factory):
    result = cli("verify", folder, "--json")
    assert result.exit_code == 0, result.output
    assert [Path(r["tree"]).name for r in json.loads(result.stdout)] == sorted(SMALL)
    empty = tmp_path_factory.mktemp("empty")
    result = cli("verify", empty, folder / SMALL[0], "--json")
    assert result.exit_code == 2
    reports = json.loads(result.stdout)
    assert reports[0] == {"tree": str(empty), "ok": False, "secrets": None, "worst": None, "total": None,
                          "average": None, "histogram": {}, "determined_histogram": {},
                          "errors": ["a folder without tree files (*.msgpack.zst)"], "unusable": True}
    assert reports[1]["ok"] and reports[1]["total"] == 83

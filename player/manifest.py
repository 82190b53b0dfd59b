"""A folder's manifest of trees (``trees/MANIFEST.json``, written by ``scripts/build_trees.py``).

The manifest lists each tree file of its folder with what the file must be: its sha256 and
size, and what the tree inside says (nodes, game, strategy, statistics). Checking a folder
against it names every file that differs, every listed file that is missing and every tree file
(``*.msgpack.zst``) in the folder that is not listed; each tree is replayed by the verifier too,
so a manifest copied from a damaged tree cannot vouch for it.

    {"format": "guesstree-manifest", "trees": [{"file": "x.msgpack.zst", "sha256": "...",
     "bytes": 3445, "nodes": 1380, "game": {...}, "strategy": {...}, "stats": {...}}, ...]}

Unknown keys are ignored, at the top and in entries, so a newer manifest stays readable.
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from .format import FormatError
from .sources import read_file
from .tree import Tree, loads
from .verify import unusable_report, verify_file

FORMAT = "guesstree-manifest"
NAME = "MANIFEST.json"  # a folder's manifest, where a folder is named instead of its manifest
SUFFIX = ".msgpack.zst"  # what counts as a tree file of the folder (an unlisted one is named)
MAX_BYTES = 16 << 20  # a manifest is a few KB per tree; a larger file is refused unread
REQUIRED = ("file", "sha256", "bytes", "stats")  # the checks no entry may leave out
CHECKED = ("sha256", "bytes", "nodes", "game", "strategy", "stats")  # in the order differences are told


class ManifestError(ValueError):
    """The manifest itself is unusable; the message names the file and why."""


def entry_of(data: bytes, tree: Tree) -> dict:
    """The manifest entry that describes a tree file (its bytes and the tree loaded from them),
    as ``scripts/build_trees.py`` writes it, JSON's string keys in the histograms."""
    stats = {key: ({str(k): v for k, v in value.items()} if isinstance(value, dict) else value)
             for key, value in tree.stats.items()}
    return {"file": Path(tree.name).name, "sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data),
            "nodes": tree.nodes, "game": tree.header["game"], "strategy": tree.header["strategy"], "stats": stats}


def read_manifest(path: str | os.PathLike) -> dict[str, dict]:
    """The manifest's entries by file name, or ``ManifestError`` naming what is wrong."""
    path = Path(path)
    try:
        text = read_file(path, MAX_BYTES, "a manifest").decode("utf-8")
        document = json.loads(text)
    except FormatError as error:
        raise ManifestError(str(error)) from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ManifestError(f"{path}: not a JSON manifest ({error})") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        found = document.get("format") if isinstance(document, dict) else type(document).__name__
        raise ManifestError(f"{path}: not a {FORMAT} file (format is {found!r})")
    trees = document.get("trees")
    if not isinstance(trees, list):
        raise ManifestError(f"{path}: 'trees' is not a list of entries")
    entries: dict[str, dict] = {}
    for number, entry in enumerate(trees, 1):
        if not isinstance(entry, dict):
            raise ManifestError(f"{path}: entry {number} is not an object")
        absent = [key for key in REQUIRED if key not in entry]
        if absent:
            raise ManifestError(f"{path}: entry {number} has no {', '.join(absent)}")
        name = entry["file"]
        if not isinstance(name, str) or not name or name != Path(name).name or name in (".", ".."):
            raise ManifestError(f"{path}: entry {number}: {name!r} is not a file name in the manifest's folder")
        if name in entries:
            raise ManifestError(f"{path}: {name} is listed twice")
        entries[name] = entry
    return entries


def differences(listed: dict, found: dict) -> list[str]:
    """What a file's entry says that the file does not have, one line per key (per statistic)."""
    lines = []
    for key in CHECKED:
        if key not in listed or listed[key] == found[key]:
            continue
        if key == "stats" and isinstance(listed[key], dict):
            for stat in sorted(set(listed[key]) | set(found[key])):
                if listed[key].get(stat) != found[key].get(stat):
                    lines.append(f"the manifest says {stat} = {_said(listed[key].get(stat))}, "
                                 f"but the tree has {_said(found[key].get(stat))}")
        else:
            lines.append(f"the manifest says {key} = {_said(listed[key])}, but the file has {_said(found[key])}")
    return lines


def _said(value) -> str:
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= 80 else text[:77] + "..."


class Manifest:
    """A manifest read from ``path`` (``ManifestError`` if unusable), for checking its folder's files."""

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path) / NAME if Path(path).is_dir() else Path(path)
        self.folder = self.path.parent
        self.entries = read_manifest(self.path)

    def __repr__(self) -> str:
        return f"Manifest({str(self.path)!r})"

    def files(self) -> list[Path]:
        """Every listed file, in the manifest's order, then every unlisted tree file of the folder."""
        on_disk = sorted(p.name for p in self.folder.glob(f"*{SUFFIX}") if p.is_file())
        return [self.folder / name for name in [*self.entries, *(n for n in on_disk if n not in self.entries)]]

    def check(self, path: str | os.PathLike, max_depth: int | None = None, plugins=None) -> dict:
        """``verify_file``'s report of one file, with what differs from its entry first among the
        errors: missing (unusable), not listed, not in the folder, or another sha256, size, tree."""
        path = Path(path)
        name = path.name if path.resolve().parent == self.folder.resolve() else None
        entry = self.entries.get(name) if name is not None else None
        if entry is not None and not path.exists():
            return unusable_report(path, f"listed in {self.path} but missing")
        try:
            data = read_file(path)
            tree = loads(data, str(path), plugins)
        except ValueError as error:  # FormatError, or an older words tree without its lists
            return unusable_report(path, str(error))
        report = verify_file(path, max_depth, plugins, tree=tree)
        if name is None:
            problems = [f"not in the folder of {self.path}"]
        elif entry is None:
            problems = [f"not listed in {self.path} (guesstree manifest {self.folder} lists every tree of the folder)"]
        else:
            problems = differences(entry, entry_of(data, tree))
        if problems:
            report["ok"] = False
            report["errors"] = [*problems, *report["errors"]]
        return report


def check_manifest(manifest: str | os.PathLike, trees: list[str | os.PathLike] | None = None,
                   max_depth: int | None = None, plugins=None) -> list[dict]:
    """Check a folder against its manifest; one report per file, as ``verify_file`` gives them.

    With ``trees`` (files of the manifest's folder, e.g. those a commit changes) only these are
    checked, each against its entry; without, every listed file and every unlisted tree file of
    the folder. A listed file that is missing is unusable; a file that differs from its entry, or
    is not listed, is invalid. Raises ``ManifestError`` when the manifest cannot be used.
    """
    listed = Manifest(manifest)
    return [listed.check(path, max_depth, plugins) for path in (listed.files() if trees is None else trees)]


def entries_of(folder: str | os.PathLike, files: list[str] | None = None, plugins=None) -> list[dict]:
    """The entries of the tree files ``files`` of ``folder``, in that order (default: every tree
    file of the folder, sorted by name); ``FormatError`` names a file that is not a usable tree."""
    folder = Path(folder)
    paths = [folder / name for name in files] if files is not None else \
        sorted(p for p in folder.glob(f"*{SUFFIX}") if p.is_file())
    listed = []
    for path in paths:
        data = read_file(path)
        listed.append(entry_of(data, loads(data, str(path), plugins)))
    return listed


def manifest_text(folder: str | os.PathLike, files: list[str] | None = None, plugins=None) -> str:
    """A manifest of the tree files of ``folder`` (``entries_of``), what ``check_manifest`` reads."""
    return json.dumps({"format": FORMAT, "trees": entries_of(folder, files, plugins)}, indent=2) + "\n"


__all__ = ["Manifest", "ManifestError", "check_manifest", "read_manifest", "entry_of", "entries_of", "differences",
           "manifest_text"]

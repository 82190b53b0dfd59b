"""The exhaustive searches' checkpoint file: the solved entries of their transposition table,
so that ``--resume`` continues an interrupted search. The format is in ``trees/CHECKPOINT.md``.

A checkpoint is read back, so it gets the artifact's care, through the artifact's own reader of
files and zstd frames: a file that is damaged, truncated, oversized, of another format or
version, or made for another search is refused with a ``ValueError`` (``FormatError``) naming
the file and the reason, before anything is allocated for it.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import msgpack
import numpy as np
import zstandard

from guesstree.player.artifact import inflate, read_file, refuse_extension, write_atomic

FORMAT = "guesstree-checkpoint"
VERSION = (2, 0)  # (major, minor): a reader refuses another major and ignores unknown keys
ENTRY_BYTES = 24  # three little-endian uint64 per entry
MAX_ENTRIES = 1 << 24  # the largest table a search makes
MAX_BYTES = MAX_ENTRIES * ENTRY_BYTES + (1 << 20)  # inflated size cap (and the file's)


def save(path: str | os.PathLike, table: np.ndarray, identity: dict) -> Path:
    """Write the table's non-empty entries to ``path`` atomically."""
    entries = np.ascontiguousarray(table[table[:, 2] != 0], dtype="<u8")
    document = {"format": FORMAT, "version": list(VERSION), "identity": identity, "entries": entries.tobytes()}
    raw = msgpack.packb(document, use_bin_type=True)
    data = zstandard.ZstdCompressor(level=3, write_content_size=True, write_checksum=True).compress(raw)
    return write_atomic(path, data)


def load(path: str | os.PathLike, identity: dict) -> np.ndarray:
    """The entries of the checkpoint at ``path``, as rows of a table; refuses anything else."""
    def fail(reason: str) -> ValueError:
        return ValueError(f"{path}: {reason}")

    raw = inflate(read_file(path, MAX_BYTES, "a checkpoint"), str(path), MAX_BYTES, "a checkpoint")
    try:
        document = msgpack.unpackb(raw, raw=False, strict_map_key=True, max_bin_len=MAX_BYTES,
                                   max_str_len=1 << 20, max_array_len=1 << 16, max_map_len=1 << 16, max_ext_len=0,
                                   ext_hook=refuse_extension)
    except (ValueError, TypeError, msgpack.UnpackException) as error:
        raise fail(f"the checkpoint is damaged ({type(error).__name__}: {error})") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise fail("not a guesstree checkpoint")
    version = document.get("version")
    if not (isinstance(version, list) and len(version) == 2 and all(type(v) is int for v in version)):
        raise fail(f"bad checkpoint version {version!r}")
    if version[0] != VERSION[0]:
        raise fail(f"checkpoint version {version[0]}.{version[1]} is not readable here (this guesstree reads "
                   f"{VERSION[0]}.x): start the search anew")
    if document.get("identity") != identity:
        raise fail(f"this checkpoint is of another search ({_said(document.get('identity'))}), not of "
                   f"{_said(identity)}")
    entries = document.get("entries")
    if not isinstance(entries, bytes) or len(entries) % ENTRY_BYTES:
        raise fail("the checkpoint's entries are malformed")
    return np.frombuffer(entries, dtype="<u8").reshape(-1, 3).astype(np.uint64)


def _said(identity) -> str:
    return json.dumps(identity, sort_keys=True)[:200]

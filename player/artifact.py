"""The artifact file (trees/FORMAT.md): a zstd frame holding one msgpack map, read here
(``read``, ``decode``): every file that is not a well-formed artifact refused with ``FormatError``.

The file's other jobs each have a module of their own, whose names this one hands on, so that
``guesstree.player.artifact`` stays the one import for callers: ``format.py`` what an artifact is
(its name, versions, the readers' limits, ``FormatError``), ``sources.py`` where its bytes come
from, ``frames.py`` its zstd frames, ``unpacking.py`` a msgpack map unpacked from bytes nobody
vouches for, ``uints.py`` the tree's arrays as bytes, ``encoding.py`` the bytes written (whole or
in chunks, byte-reproducible) and ``atomic.py`` a file written atomically.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass

from .atomic import write_atomic
from .encoding import encode, encode_chunked, encode_chunks
from .format import (ADDED, CHUNKED, FORMAT_NAME, MAX_BODY_BYTES, MAX_FILE_BYTES, MAX_STRUCTURE_BYTES, PARAMS_ADDED,
                     VERSION, FormatError, MissingFile, version_of)
from .frames import ZSTD_LEVEL, compress, frame_length, inflate
from .sources import InMemory, OnDisk, Source, read_file, source_of
from .uints import pack_uints, unpack_uints
from .unpacking import refuse_extension, unpack_map


@dataclass(frozen=True)
class Chunked:
    """The body of a chunked artifact (trees/FORMAT.md §10), still unread: its ``index`` (the
    document's map) and where its chunks are, ``start`` on in ``source``."""

    index: dict
    source: Source
    start: int


def decode(data: bytes, name: str = "<bytes>") -> tuple[dict, dict | Chunked]:
    """``(header, body)`` of an artifact's bytes, or ``FormatError``; see ``read``."""
    return read(InMemory(data), name)


def read(source: Source, name: str) -> tuple[dict, dict | Chunked]:
    """``(header, body)`` of the artifact in ``source``: the body's map of a whole tree (1.x), or
    a ``Chunked`` body whose chunks are read when a lookup needs them (2.x); else ``FormatError``."""
    def fail(reason: str) -> FormatError:
        return FormatError(f"{name}: {reason}")

    end = frame_length(source)
    if end > MAX_FILE_BYTES:
        raise fail(f"larger than any artifact this player reads ({MAX_FILE_BYTES} bytes)")
    raw = inflate(source.read(0, end), name)
    document = unpack_map(raw, fail, "the artifact")
    del raw  # the body below is a copy: at most two inflated sizes are alive at once
    if document.get("format") != FORMAT_NAME:
        raise fail(f"not a {FORMAT_NAME} artifact (format is {document.get('format')!r})")
    version = document.get("version")
    if not (isinstance(version, list) and len(version) == 2 and all(type(v) is int for v in version)):
        raise fail(f"bad format version {version!r}")
    if version[0] not in (VERSION[0], CHUNKED[0]):
        raise fail(f"format version {version[0]}.{version[1]} is not readable by this player "
                   f"(it reads {VERSION[0]}.x and {CHUNKED[0]}.x); use a matching guesstree")
    if version[0] == CHUNKED[0]:
        index = document.pop("index", None)
        if not isinstance(index, bytes):
            raise fail("the chunked artifact has no index")
        return document, Chunked(unpack_map(index, fail, "the index"), source, end)
    if end != source.size:
        raise fail(f"the zstd data is damaged ({source.size - end} bytes follow the frame)")
    body_bytes = document.pop("body", None)
    if not isinstance(body_bytes, bytes):
        raise fail("the artifact has no body")
    digest = document.get("body_sha256")
    if not isinstance(digest, str) or digest != hashlib.sha256(body_bytes).hexdigest():
        raise fail("the body's sha256 does not match the header (the file is damaged or was altered)")
    body = unpack_map(body_bytes, fail, "the body")
    return document, body


__all__ = [  # this module's own, then those it hands on
    "Chunked", "decode", "read",
    "ADDED", "CHUNKED", "FORMAT_NAME", "MAX_BODY_BYTES", "MAX_FILE_BYTES", "MAX_STRUCTURE_BYTES", "PARAMS_ADDED",
    "VERSION", "version_of", "FormatError", "MissingFile", "InMemory", "OnDisk", "Source", "read_file", "source_of",
    "ZSTD_LEVEL", "compress", "frame_length", "inflate", "refuse_extension", "unpack_map", "pack_uints", "unpack_uints",
    "encode", "encode_chunked", "encode_chunks", "write_atomic",
]

"""The artifact file: a zstd frame holding one msgpack map (see trees/FORMAT.md).

Reading refuses anything that is not a well-formed artifact with ``FormatError``;
writing is atomic (temporary file, then rename) and byte-reproducible.
"""
from __future__ import annotations

import hashlib
import os
import sys
import tempfile
from array import array
from pathlib import Path

import msgpack
import zstandard

FORMAT_NAME = "guesstree"
VERSION = (1, 0)  # (major, minor): a reader refuses another major and ignores unknown keys
MAX_FILE_BYTES = 256 << 20  # a compressed artifact larger than this is refused unread
MAX_BODY_BYTES = 1 << 30  # inflated size cap: a frame claiming more is refused before inflating
ZSTD_LEVEL = 19


class FormatError(ValueError):
    """The file is not a usable guesstree artifact; the message names the file and why."""


def pack_uints(values, width: int) -> bytes:
    """Little-endian unsigned ints of ``width`` bytes (1, 2 or 4)."""
    typecode = {1: "B", 2: "H", 4: "I"}[width]
    packed = array(typecode, values)
    if packed.itemsize != width:
        packed = array("L" if width == 4 else typecode, values)
    if sys.byteorder == "big":
        packed.byteswap()
    return packed.tobytes()


def unpack_uints(data: bytes, width: int) -> array:
    typecode = {1: "B", 2: "H", 4: "I"}[width]
    values = array(typecode)
    if values.itemsize != width:
        values = array("L")
    values.frombytes(data)
    if sys.byteorder == "big":
        values.byteswap()
    return values


def encode(header: dict, body: dict) -> bytes:
    """The artifact's bytes: ``header`` gains ``body_sha256``; ``body`` is packed inside."""
    body_bytes = msgpack.packb(body, use_bin_type=True)
    document = {
        "format": FORMAT_NAME,
        "version": list(VERSION),
        **header,
        "body_sha256": hashlib.sha256(body_bytes).hexdigest(),
        "body": body_bytes,
    }
    raw = msgpack.packb(document, use_bin_type=True)
    compressor = zstandard.ZstdCompressor(level=ZSTD_LEVEL, write_content_size=True, write_checksum=True)
    return compressor.compress(raw)


def write_atomic(path: str | os.PathLike, data: bytes) -> Path:
    """Write ``data`` to ``path`` so that the destination is either as before or complete."""
    path = Path(path)
    directory = path.parent if str(path.parent) else Path(".")
    directory.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except FileNotFoundError:
            pass
        raise
    return path


def decode(data: bytes, name: str = "<bytes>") -> tuple[dict, dict]:
    """Return ``(header, body)`` of an artifact's bytes, or raise ``FormatError``."""
    def fail(reason: str) -> FormatError:
        return FormatError(f"{name}: {reason}")

    if not data:
        raise fail("the file is empty")
    try:
        params = zstandard.get_frame_parameters(data)
    except zstandard.ZstdError:
        raise fail("not a zstd-compressed artifact (bad frame header)") from None
    if params.content_size in (zstandard.CONTENTSIZE_UNKNOWN, zstandard.CONTENTSIZE_ERROR):
        raise fail("the zstd frame does not declare its content size")
    if params.content_size > MAX_BODY_BYTES:
        raise fail(f"the zstd frame claims {params.content_size} bytes, more than the {MAX_BODY_BYTES} allowed")
    try:
        raw = zstandard.ZstdDecompressor().decompress(data, max_output_size=MAX_BODY_BYTES)
    except zstandard.ZstdError as error:
        raise fail(f"the zstd data is damaged ({error})") from None
    if len(raw) != params.content_size:
        raise fail("the zstd frame holds more or less than it declares")
    document = _unpack(raw, fail, "the artifact")
    if not isinstance(document, dict):
        raise fail("the artifact is not a msgpack map")
    if document.get("format") != FORMAT_NAME:
        raise fail(f"not a {FORMAT_NAME} artifact (format is {document.get('format')!r})")
    version = document.get("version")
    if not (isinstance(version, list) and len(version) == 2 and all(type(v) is int for v in version)):
        raise fail(f"bad format version {version!r}")
    if version[0] != VERSION[0]:
        raise fail(f"format version {version[0]}.{version[1]} is not readable by this player "
                   f"(it reads {VERSION[0]}.x); use a matching guesstree")
    body_bytes = document.pop("body", None)
    if not isinstance(body_bytes, bytes):
        raise fail("the artifact has no body")
    digest = document.get("body_sha256")
    if digest != hashlib.sha256(body_bytes).hexdigest():
        raise fail("the body's sha256 does not match the header (the file is damaged or was altered)")
    body = _unpack(body_bytes, fail, "the body")
    if not isinstance(body, dict):
        raise fail("the body is not a msgpack map")
    return document, body


def _unpack(raw: bytes, fail, what: str):
    try:
        return msgpack.unpackb(
            raw, raw=False, strict_map_key=False, use_list=True,
            max_str_len=1 << 20, max_bin_len=MAX_BODY_BYTES, max_array_len=1 << 20,
            max_map_len=1 << 16, max_ext_len=0,
        )
    except (ValueError, msgpack.ExtraData, msgpack.FormatError, msgpack.StackError, TypeError) as error:
        raise fail(f"{what} is not valid msgpack ({type(error).__name__}: {error})") from None


def read_file(path: str | os.PathLike) -> bytes:
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise FormatError(f"{path}: {size} bytes is larger than any artifact this player reads")
        return path.read_bytes()
    except FileNotFoundError:
        raise FormatError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise FormatError(f"{path}: is a directory, not an artifact") from None
    except PermissionError:
        raise FormatError(f"{path}: permission denied") from None
    except OSError as error:
        raise FormatError(f"{path}: cannot read ({error.strerror or error})") from None


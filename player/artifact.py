"""The artifact file: a zstd frame holding one msgpack map (see trees/FORMAT.md).

Reading refuses anything that is not a well-formed artifact with ``FormatError``;
writing is atomic (temporary file, then rename) and byte-reproducible.
"""
from __future__ import annotations

import errno
import hashlib
import os
import sys
from array import array
from pathlib import Path

import msgpack
import zstandard

FORMAT_NAME = "guesstree"
VERSION = (1, 2)  # (major, minor): a reader refuses another major and ignores unknown keys
ADDED = {"allowed_guesses": 2, "notice": 2}  # the minor version that added each optional header key since 1.1
MAX_BODY_BYTES = 64 << 20  # inflated size cap: a frame claiming more is refused before inflating
MAX_FILE_BYTES = MAX_BODY_BYTES + (1 << 20)  # a compressed artifact larger than this is refused unread
# msgpack bytes that are not ``bin`` payloads (maps, arrays, numbers, strings): a few bytes of
# them can become ~60 times as many bytes of Python objects, so their share is capped.
MAX_STRUCTURE_BYTES = 1 << 20
_BIN_TYPES = frozenset((0xC4, 0xC5, 0xC6))  # msgpack bin 8/16/32: inert bytes, however long
ZSTD_LEVEL = 19


class FormatError(ValueError):
    """The file is not a usable guesstree artifact; the message names the file and why."""


class MissingFile(FileNotFoundError, FormatError):
    """No file at the path: the ``FileNotFoundError`` callers expect (``errno``, ``filename``),
    and a ``FormatError`` like every other file that cannot be read as a tree."""

    def __init__(self, path: str | os.PathLike):
        super().__init__(errno.ENOENT, "no such file", str(path))

    def __str__(self) -> str:
        return f"{self.filename}: {self.strerror}"

    def __reduce__(self):  # OSError would pickle (errno, strerror), which this __init__ does not take
        return type(self), (self.filename,)


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
    """The artifact's bytes: ``header`` gains ``body_sha256``; ``body`` is packed inside. The version
    written is the least that has every key of ``header`` (trees/FORMAT.md §6): a tree that needs
    nothing of 1.2 stays a 1.1 file, byte for byte."""
    body_bytes = msgpack.packb(body, use_bin_type=True)
    document = {
        "format": FORMAT_NAME,
        "version": [VERSION[0], max([1, *(ADDED[key] for key in header if key in ADDED)])],
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
    import tempfile  # only writers need it: the player's import stays small

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
    _fsync_directory(directory)
    return path


def _fsync_directory(directory: Path) -> None:
    """Make the rename durable; a platform that cannot open directories (Windows) skips it."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def inflate(data: bytes, name: str = "<bytes>", limit: int = MAX_BODY_BYTES, what: str = "an artifact") -> bytes:
    """The content of exactly one zstd frame that declares its size (at most ``limit``) and a
    checksum, or ``FormatError`` naming the file (``what`` it should be: an artifact, a checkpoint)."""
    def fail(reason: str) -> FormatError:
        return FormatError(f"{name}: {reason}")

    if not data:
        raise fail("the file is empty")
    try:
        params = zstandard.get_frame_parameters(data)
    except zstandard.ZstdError:
        raise fail(f"not a zstd-compressed {what.split()[-1]} (bad frame header)") from None
    if params.content_size in (zstandard.CONTENTSIZE_UNKNOWN, zstandard.CONTENTSIZE_ERROR):
        raise fail("the zstd frame does not declare its content size")
    if params.content_size > limit:
        raise fail(f"the zstd frame claims {params.content_size} bytes, more than the {limit} allowed")
    if not params.has_checksum:
        raise fail("the zstd frame has no checksum")
    try:
        # One frame and nothing after it; with the size declared, zstd inflates into exactly that much.
        raw = zstandard.ZstdDecompressor(max_window_size=limit).decompress(
            data, max_output_size=limit, allow_extra_data=False)
    except zstandard.ZstdError as error:
        raise fail(f"the zstd data is damaged ({error})") from None
    if len(raw) != params.content_size:
        raise fail("the zstd frame holds more or less than it declares")
    return raw


def decode(data: bytes, name: str = "<bytes>") -> tuple[dict, dict]:
    """Return ``(header, body)`` of an artifact's bytes, or raise ``FormatError``."""
    def fail(reason: str) -> FormatError:
        return FormatError(f"{name}: {reason}")

    raw = inflate(data, name)
    document = _unpack_map(raw, fail, "the artifact")
    del raw  # the body below is a copy: at most two inflated sizes are alive at once
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
    if not isinstance(digest, str) or digest != hashlib.sha256(body_bytes).hexdigest():
        raise fail("the body's sha256 does not match the header (the file is damaged or was altered)")
    body = _unpack_map(body_bytes, fail, "the body")
    return document, body


def _unpack_map(raw: bytes, fail, what: str) -> dict:
    """Unpack one msgpack map, refusing trailing bytes and oversized structure before building it."""
    limits = dict(raw=False, strict_map_key=False, max_ext_len=0, max_bin_len=len(raw),
                  max_str_len=min(len(raw), MAX_STRUCTURE_BYTES), max_array_len=min(len(raw), MAX_STRUCTURE_BYTES),
                  max_map_len=min(len(raw), MAX_STRUCTURE_BYTES) // 2)
    try:
        _check_structure(raw, limits, fail, what)
        return msgpack.unpackb(raw, use_list=True, ext_hook=refuse_extension, object_pairs_hook=_map, **limits)
    except (ValueError, TypeError, msgpack.UnpackException) as error:
        # ValueError covers msgpack's FormatError, StackError, ExtraData and bad UTF-8;
        # TypeError an unhashable map key; UnpackException OutOfData (truncation).
        raise fail(f"{what} is not valid msgpack ({type(error).__name__}: {error})") from None


def _map(pairs: list) -> dict:
    """A map, refusing the key ``__proto__`` (FORMAT.md §2: a JavaScript reader cannot hold it, so
    no artifact has it, and both players refuse it alike)."""
    result = dict(pairs)
    if "__proto__" in result:
        raise ValueError("a map key __proto__, which an artifact never holds")
    return result


def refuse_extension(code: int, data: bytes):
    """An artifact holds no extension types (FORMAT.md §2), not even one of no bytes, which
    ``max_ext_len=0`` lets through."""
    raise ValueError("an extension type, which an artifact never holds")


def _check_structure(raw: bytes, limits: dict, fail, what: str) -> None:
    """Walk the map's entries without building them (``skip`` allocates no objects) and refuse
    more than ``MAX_STRUCTURE_BYTES`` outside ``bin`` payloads, or bytes after the map."""
    unpacker = msgpack.Unpacker(max_buffer_size=max(len(raw), 1), **limits)
    unpacker.feed(raw)
    try:
        entries = unpacker.read_map_header()
    except ValueError:
        raise fail(f"{what} is not a msgpack map") from None
    payload = 0
    for _ in range(2 * entries):
        start = unpacker.tell()
        unpacker.skip()
        if raw[start] in _BIN_TYPES:
            payload += unpacker.tell() - start
        if unpacker.tell() - payload > MAX_STRUCTURE_BYTES:
            raise fail(f"{what} holds more than {MAX_STRUCTURE_BYTES} bytes of msgpack structure")
    if unpacker.tell() != len(raw):
        raise fail(f"{what} has {len(raw) - unpacker.tell()} bytes after its msgpack map")


def jsonable(value):
    """A header value as JSON can hold it: string keys, lists, and bytes (an unknown key of a
    newer minor version) said as their size instead of written out."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, bytes):
        return f"<{len(value)} bytes>"
    return value


def read_file(path: str | os.PathLike, limit: int = MAX_FILE_BYTES, what: str = "an artifact") -> bytes:
    """The bytes of ``path``; refused unread (or at ``limit``, for devices and pipes) if larger."""
    path = Path(path)
    try:
        with open(path, "rb") as handle:
            data = handle.read(limit + 1)
    except FileNotFoundError:
        raise MissingFile(path) from None
    except IsADirectoryError:
        raise FormatError(f"{path}: is a directory, not {what}") from None
    except PermissionError:
        raise FormatError(f"{path}: permission denied") from None
    except OSError as error:
        raise FormatError(f"{path}: cannot read ({error.strerror or error})") from None
    except ValueError as error:  # e.g. a NUL byte in the name
        raise FormatError(f"{path!r}: not a usable file name ({error})") from None
    if len(data) > limit:
        raise FormatError(f"{path}: larger than any {what.split()[-1]} this player reads ({limit} bytes)")
    return data

"""The artifact file: a zstd frame holding one msgpack map (see trees/FORMAT.md).

Reading refuses anything that is not a well-formed artifact with ``FormatError``;
writing is atomic (temporary file, then rename) and byte-reproducible.
"""
from __future__ import annotations

import errno
import hashlib
import os
import stat
import sys
from array import array
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import msgpack
import zstandard

FORMAT_NAME = "guesstree"
VERSION = (1, 2)  # (major, minor) of the whole layout: a reader refuses a major it does not know, ignores unknown keys
CHUNKED = (2, 0)  # the chunked layout (trees/FORMAT.md §10): the document, then the tree in chunks
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


def encode_chunked(header: dict, body: dict, chunk_nodes: int) -> bytes:
    """The chunked artifact (trees/FORMAT.md §10) of the tree in ``body`` (the arrays of §3)."""
    nodes, length, width = body["nodes"], body["code_length"], body["feedback_width"]
    counts = unpack_uints(body["edge_count"], width)
    edge = 0
    contents = []
    for start in range(0, nodes, chunk_nodes):
        end = min(nodes, start + chunk_nodes)
        edges = sum(counts[start:end])
        contents.append(body["guess"][start * length:end * length] + body["edge_count"][start * width:end * width]
                        + body["edge_feedback"][edge * width:(edge + edges) * width])
        edge += edges
    index = {key: body[key] for key in ("nodes", "code_length", "feedbacks", "feedback_width")}
    return encode_chunks(header, index, contents, chunk_nodes)


def encode_chunks(header: dict, index: dict, contents, chunk_nodes: int) -> bytes:
    """The chunked artifact (trees/FORMAT.md §10): the document frame, its ``index`` (``index``'s
    fields, and each chunk's size and checksum), then one frame per chunk of ``contents`` (each
    the arrays of §3 for ``chunk_nodes`` nodes, the last perhaps fewer), compressed a few at a
    time on every core (each frame on its own: the same bytes; the contents need not all be held)."""
    from concurrent.futures import ThreadPoolExecutor
    from itertools import islice

    width, length = index["feedback_width"], index["code_length"]

    def compress(content: bytes) -> bytes:
        return zstandard.ZstdCompressor(level=ZSTD_LEVEL, write_content_size=True, write_checksum=True).compress(content)

    frames, first, edges = [], [], 0
    contents = iter(contents)
    cores = os.cpu_count() or 1
    with ThreadPoolExecutor(max_workers=cores) as pool:  # zstd lets go of the GIL
        while batch := list(islice(contents, 2 * cores)):
            for content in batch:
                nodes = min(chunk_nodes, index["nodes"] - chunk_nodes * len(first))
                first.append(edges)
                edges += (len(content) - nodes * (length + width)) // width
            frames += pool.map(compress, batch)
    index = {**index, "chunk_nodes": chunk_nodes, "chunk_size": pack_uints([len(f) for f in frames], 4),
             "chunk_first_edge": pack_uints(first, 4), "chunk_checksum": b"".join(f[-4:] for f in frames)}
    # packed on its own, as a whole body is: its columns are then bins of a map of their own
    document = {"format": FORMAT_NAME, "version": list(CHUNKED), **header, "index": msgpack.packb(index, use_bin_type=True)}
    compressor = zstandard.ZstdCompressor(level=ZSTD_LEVEL, write_content_size=True, write_checksum=True)
    return compressor.compress(msgpack.packb(document, use_bin_type=True)) + b"".join(frames)


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
        window = 1 << max(10, (limit - 1).bit_length())  # a power of two, at least zstd's least window
        raw = zstandard.ZstdDecompressor(max_window_size=window).decompress(
            data, max_output_size=limit, allow_extra_data=False)
    except zstandard.ZstdError as error:
        raise fail(f"the zstd data is damaged ({error})") from None
    if len(raw) != params.content_size:
        raise fail("the zstd frame holds more or less than it declares")
    return raw


@dataclass(frozen=True)
class Chunked:
    """The body of a chunked artifact (trees/FORMAT.md §10), still unread: its ``index`` (the
    document's map) and where its chunks are, ``start`` on in ``source``."""

    index: dict
    source: "Source"
    start: int


def decode(data: bytes, name: str = "<bytes>") -> tuple[dict, dict | Chunked]:
    """``(header, body)`` of an artifact's bytes, or ``FormatError``; see ``read``."""
    return read(InMemory(data), name)


def read(source: "Source", name: str) -> tuple[dict, dict | Chunked]:
    """``(header, body)`` of the artifact in ``source``: the body's map of a whole tree (1.x), or
    a ``Chunked`` body whose chunks are read when a lookup needs them (2.x); else ``FormatError``."""
    def fail(reason: str) -> FormatError:
        return FormatError(f"{name}: {reason}")

    end = frame_length(source)
    if end > MAX_FILE_BYTES:
        raise fail(f"larger than any artifact this player reads ({MAX_FILE_BYTES} bytes)")
    raw = inflate(source.read(0, end), name)
    document = _unpack_map(raw, fail, "the artifact")
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
        return document, Chunked(_unpack_map(index, fail, "the index"), source, end)
    if end != source.size:
        raise fail(f"the zstd data is damaged ({source.size - end} bytes follow the frame)")
    body_bytes = document.pop("body", None)
    if not isinstance(body_bytes, bytes):
        raise fail("the artifact has no body")
    digest = document.get("body_sha256")
    if not isinstance(digest, str) or digest != hashlib.sha256(body_bytes).hexdigest():
        raise fail("the body's sha256 does not match the header (the file is damaged or was altered)")
    body = _unpack_map(body_bytes, fail, "the body")
    return document, body


def frame_length(source: "Source") -> int:
    """Where the zstd frame that ``source`` starts with ends, found by its block headers (RFC 8878
    §3.1.1) without inflating it; ``source.size`` where it is no whole frame (``inflate`` says why)."""
    head = source.read(0, 18)
    try:
        at = zstandard.frame_header_size(head)
    except zstandard.ZstdError:
        return source.size
    while at + 3 <= source.size and at <= MAX_FILE_BYTES:  # past that, read refuses the file anyway
        block = int.from_bytes(source.read(at, 3), "little")
        at += 3 + (1 if block >> 1 & 3 == 1 else block >> 3)  # an RLE block holds one byte
        if block & 1:  # the last block, then the checksum
            return min(at + 4 * (head[4] >> 2 & 1), source.size)
    return source.size


class InMemory:
    """An artifact's bytes in memory, read piece by piece as a file is."""

    def __init__(self, data: bytes):
        self.data, self.size = memoryview(data).toreadonly(), len(data)

    def read(self, offset: int, size: int) -> bytes:
        return bytes(self.data[offset:offset + size])


class OnDisk:
    """An artifact in a file, opened for each read (a tree read chunk by chunk holds no file
    open); small reads (the frame's headers) come from a window of ``WINDOW`` bytes."""

    WINDOW = 1 << 16

    def __init__(self, path: Path, size: int):
        self.path, self.size = path, size
        self._window = (0, b"")

    def read(self, offset: int, size: int) -> bytes:
        start, window = self._window
        small = size <= 64
        if not (small and start <= offset <= offset + size <= start + len(window)):
            with _opened(self.path, "an artifact") as handle:
                if os.fstat(handle.fileno()).st_size != self.size:
                    raise FormatError(f"{self.path}: the file changed while the tree was open")
                handle.seek(offset)
                window, start = handle.read(self.WINDOW if small else size), offset
            if not small:
                return window
            self._window = (start, window)
        return window[offset - start:offset - start + size]


Source = InMemory | OnDisk


def source_of(path: str | os.PathLike) -> Source:
    """Where ``load`` reads ``path`` from: the file itself, or, for a device or a pipe (no size to
    seek in), its bytes up to the cap of a whole artifact."""
    path = Path(path)
    with _opened(path, "an artifact") as handle:
        found = os.fstat(handle.fileno())
    return OnDisk(path, found.st_size) if stat.S_ISREG(found.st_mode) else InMemory(read_file(path))


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
    with _opened(path, what) as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise FormatError(f"{path}: larger than any {what.split()[-1]} this player reads ({limit} bytes)")
    return data


@contextmanager
def _opened(path: Path, what: str):
    """``path`` open for reading, or ``FormatError`` (``MissingFile``) saying why it cannot be."""
    try:
        handle = open(path, "rb")
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
    try:
        with handle:
            yield handle
    except OSError as error:
        raise FormatError(f"{path}: cannot read ({error.strerror or error})") from None

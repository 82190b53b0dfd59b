"""One msgpack map unpacked from bytes nobody vouches for (trees/FORMAT.md §2, §9): its structure
walked and capped before any object is built, bytes after it, extension types and the key
``__proto__`` refused: the document, the body and a chunked index alike."""
from __future__ import annotations

import msgpack

from .format import MAX_STRUCTURE_BYTES

_BIN_TYPES = frozenset((0xC4, 0xC5, 0xC6))  # msgpack bin 8/16/32: inert bytes, however long


def unpack_map(raw: bytes, fail, what: str) -> dict:
    """Unpack one msgpack map, refusing trailing bytes and oversized structure before building it;
    ``fail(reason)``: the error to raise, naming the file; ``what``: the map, as the reason names it."""
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

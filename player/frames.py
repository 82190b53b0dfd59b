"""The zstd frames of an artifact (trees/FORMAT.md §1, §10): compressed as every writer does
(``compress``), inflated only as a checked, bounded, whole frame (``inflate``), and measured without
inflating (``frame_length``)."""
from __future__ import annotations

import zstandard

from .format import MAX_BODY_BYTES, MAX_FILE_BYTES, FormatError
from .sources import Source

ZSTD_LEVEL = 19


def compress(data: bytes) -> bytes:
    """One frame of ``data`` that declares its size and a checksum, as a reader requires."""
    return zstandard.ZstdCompressor(level=ZSTD_LEVEL, write_content_size=True, write_checksum=True).compress(data)


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


def frame_length(source: Source) -> int:
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

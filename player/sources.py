"""Where an artifact's bytes come from: a file, opened for each read (a tree read chunk by chunk
holds no file open), or bytes in memory, each read piece by piece; a file that cannot be read is
a ``FormatError`` that names it and says why."""
from __future__ import annotations

import os
import stat
from contextlib import contextmanager
from pathlib import Path

from .format import MAX_FILE_BYTES, FormatError, MissingFile


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

"""Arrays in named shared memory, so that worker processes read the same pages as their parent
(a build's matrix of answers) instead of a copy each."""
from __future__ import annotations

import mmap
import weakref
from multiprocessing.shared_memory import SharedMemory

import numpy as np


class SharedArray:
    """A numpy array in named shared memory; pickled as its name, so a worker maps the same pages."""

    def __init__(self, shape: tuple[int, ...], dtype, name: str | None = None):
        self.shape, self.dtype = tuple(int(n) for n in shape), np.dtype(dtype)
        size = max(1, int(np.prod(self.shape, dtype=np.int64)) * self.dtype.itemsize)
        if name is None:  # map that much privately first: running short is a MemoryError, not a failed segment
            try:
                mmap.mmap(-1, size).close()
            except OSError:
                raise MemoryError(f"cannot map {size} bytes") from None
        self._memory = SharedMemory(name=name, create=name is None, size=size)  # created zero-filled
        self._owner = name is None
        self.array = np.ndarray(self.shape, self.dtype, buffer=self._memory.buf)
        if self._owner:  # freed with its maker, if not released before
            self._finalizer = weakref.finalize(self, _unlink, self._memory)

    def __reduce__(self):
        return SharedArray, (self.shape, self.dtype.str, self._memory.name)

    def release(self) -> None:
        """Unmap it here (if nothing else holds a view), and free it if this process made it."""
        self.array = None
        try:
            self._memory.close()
        except BufferError:  # a view is still alive: the pages go when the process ends
            pass
        if self._owner:
            self._owner = False
            self._finalizer()


def _unlink(memory: SharedMemory) -> None:
    try:
        memory.unlink()
    except FileNotFoundError:
        pass

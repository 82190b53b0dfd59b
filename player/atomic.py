"""Files written atomically: the destination is either as it was or complete (trees/FORMAT.md §8),
for artifacts and every other file guesstree writes (manifests, checkpoints, pages, plots)."""
from __future__ import annotations

import os
from pathlib import Path


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

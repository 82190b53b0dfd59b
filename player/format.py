"""What a guesstree artifact is (trees/FORMAT.md): the format's name and versions, the limits a
reader holds a file to (§9), and ``FormatError``, what every reader raises for a file it cannot use.
"""
from __future__ import annotations

import errno
import os

FORMAT_NAME = "guesstree"
VERSION = (1, 5)  # (major, minor) of the whole layout: a reader refuses a major it does not know, ignores unknown keys
CHUNKED = (2, 3)  # the chunked layout (trees/FORMAT.md §10): the document, then the tree in chunks
ADDED = {"allowed_guesses": 2, "notice": 2}  # the minor version that added each optional header key since 1.1
# The game parameters each minor version added (the chunked layout's minor is 2 less): 1.3 (2.1) a letter
# beyond a-z and a weighted answer of words; 1.4 (2.2) a feedback rule (player/rules.py); 1.5 (2.3) words'
# ultra-hard mode. An older reader refuses them as parameters its game does not take (§6).
PARAMS_ADDED = {"alphabet": 3, "capitals": 3, "answer_weights": 3, "feedback": 4, "ultra_hard": 5}


def version_of(header: dict, chunked: bool = False) -> list[int]:
    """The version a file of ``header`` is written as: the least that has every key it holds (§6), so
    that a tree that needs nothing new keeps its bytes."""
    game = header.get("game")
    params = game.get("params") if isinstance(game, dict) else None
    added = [PARAMS_ADDED[key] for key in params if key in PARAMS_ADDED] if isinstance(params, dict) else []
    if chunked:
        return [CHUNKED[0], max([0, *(minor - 2 for minor in added)])]
    return [VERSION[0], max([1, *(ADDED[key] for key in header if key in ADDED), *added])]
MAX_BODY_BYTES = 64 << 20  # inflated size cap: a frame claiming more is refused before inflating
MAX_FILE_BYTES = MAX_BODY_BYTES + (1 << 20)  # a compressed artifact larger than this is refused unread
# msgpack bytes that are not ``bin`` payloads (maps, arrays, numbers, strings): a few bytes of
# them can become ~60 times as many bytes of Python objects, so their share is capped.
MAX_STRUCTURE_BYTES = 1 << 20


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

"""A heuristic build's finished jobs on disk: the subtrees below its first guess, each appended to
one file as it finishes, so that the tree is written from the file with memory bounded by one
job, and (``--checkpoint FILE``) so that ``--resume`` continues a build that was stopped or
killed. The format is in ``trees/CHECKPOINT.md`` ("The build checkpoint").

The file is read back, so it gets the artifact's care: a record that is damaged, oversized, or
does not add up, a file of another format or version, or one made for another build is refused
with a ``ValueError`` naming the file and the reason. Only a last record cut short (the build
was killed while writing it) is dropped, and its job runs again.
"""
from __future__ import annotations

import os
import tempfile
import weakref
from pathlib import Path
import msgpack
import numpy as np
import zstandard

from guesstree import player
from guesstree.player.artifact import inflate, refuse_extension, write_atomic

FORMAT = "guesstree-build-checkpoint"
VERSION = (1, 0)  # (major, minor): a reader refuses another major and ignores unknown keys
LENGTH_BYTES = 8  # each record: its frame's length, little-endian, then the zstd frame
MAX_IDENTITY_BYTES = 64 << 20  # the identity's inflated size cap (the parts' sizes, one per job)


def identity(context, guess: int, parts: list[tuple[int, np.ndarray]]) -> dict:
    """What a checkpoint is about: the game, the strategy, and the first guess's split of the
    secrets (its guess, each part's answer and size, and a digest of every part's secrets)."""
    import hashlib

    digest = hashlib.sha256()
    for _, secrets in parts:
        digest.update(np.ascontiguousarray(secrets, dtype="<u4").tobytes())
    return {"format": FORMAT, "version": list(VERSION), "producer": f"guesstree {player.__version__}",
            "game": context.game.identity(),
            "strategy": context.options.spec(), "guess": int(guess),
            "parts": [[int(answer), len(secrets)] for answer, secrets in parts], "secrets_sha256": digest.hexdigest()}


class Record:
    """One finished job: the subtree below one part of the first guess, level by level."""

    def __init__(self, job: int, levels: list[tuple[np.ndarray, np.ndarray, np.ndarray]],
                 wins: tuple[np.ndarray, np.ndarray], determined: tuple[np.ndarray, np.ndarray]):
        self.job, self.levels, self.wins, self.determined = job, levels, wins, determined

    @classmethod
    def of(cls, job: int, subtree) -> Record:
        levels = [tuple(np.asarray(column, dtype=np.int64) for column in level) for level in subtree.levels]
        return cls(job, levels, _pairs(subtree.wins), _pairs(subtree.determined))

    @property
    def nodes(self) -> int:
        return sum(len(level[0]) for level in self.levels)

    def pack(self) -> bytes:
        document = {"job": self.job,
                    "levels": [[_bin(g, "<u4"), _bin(c, "<u4"), _bin(f, "<u4")] for g, c, f in self.levels],
                    "wins": [_bin(self.wins[0], "<u4"), _bin(self.wins[1], "u1")],
                    "determined": [_bin(self.determined[0], "<u4"), _bin(self.determined[1], "u1")]}
        raw = msgpack.packb(document, use_bin_type=True)
        frame = zstandard.ZstdCompressor(level=1, write_content_size=True, write_checksum=True).compress(raw)
        return len(frame).to_bytes(LENGTH_BYTES, "little") + frame


def _pairs(pairs) -> tuple[np.ndarray, np.ndarray]:
    array = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    return array[:, 0], array[:, 1]


def _bin(values: np.ndarray, dtype: str) -> bytes:
    return np.ascontiguousarray(values, dtype=dtype).tobytes()


class Spool:
    """The build's records, in ``path`` (a checkpoint, kept) or in a temporary file with no name
    (``path`` None). ``resume``: keep the records of a checkpoint of the same build (``identity``)."""

    def __init__(self, identity: dict, limits: Limits, path: str | os.PathLike | None = None,
                 resume: bool = False):
        self.limits = limits
        self.kept = path is not None
        self.path = Path(path) if path is not None else None
        self.offsets: dict[int, tuple[int, int]] = {}  # job: (offset of its frame, its length)
        self.nodes: dict[int, int] = {}  # job: the nodes of its subtree
        self.depths: dict[int, int] = {}  # job: the levels of its subtree
        self.resumed: list[tuple[tuple, tuple]] = []  # the wins and determined of the jobs a resume kept
        if self.path is None:  # a file with no name (removed as it is made, where the system can): nothing
            # of it is left behind, whether the build ends, is stopped or is killed
            self._file = tempfile.TemporaryFile(prefix="guesstree-build-", suffix=".spool")
            self._file.write(_frame(identity))
        else:
            if resume and self.path.exists():
                self._recover(identity)
            else:
                write_atomic(self.path, _frame(identity))
            self._file = open(self.path, "r+b")
            self._file.seek(0, os.SEEK_END)
        self._finalizer = weakref.finalize(self, self._file.close)

    def add(self, record: Record) -> None:
        """Append a finished job's record (on disk before this returns, if the file is a checkpoint)."""
        data = record.pack()
        at = self._file.tell()
        self._file.write(data)
        self._file.flush()
        if self.kept:
            os.fsync(self._file.fileno())
        self._note(record, (at + LENGTH_BYTES, len(data) - LENGTH_BYTES))

    def _note(self, record: Record, frame: tuple[int, int]) -> None:
        self.offsets[record.job], self.nodes[record.job], self.depths[record.job] = frame, record.nodes, len(record.levels)

    def record(self, job: int) -> Record:
        self._file.seek(self.offsets[job][0])
        frame = self._file.read(self.offsets[job][1])
        self._file.seek(0, os.SEEK_END)
        return self._load(frame)

    def close(self) -> None:
        """Close the file; a temporary one is gone (a checkpoint stays)."""
        self._finalizer()

    # -- reading a checkpoint back ----------------------------------------------------------------

    def _fail(self, reason: str) -> ValueError:
        return ValueError(f"{self.path}: {reason}; start the build anew without --resume")

    def _recover(self, identity: dict) -> None:
        """The records of a checkpoint of this build; a last record cut short is cut off."""
        size = self.path.stat().st_size
        with open(self.path, "rb") as handle:
            frames, end = _frames(handle, size)
            if not frames:
                raise self._fail("not a guesstree build checkpoint (it is empty or cut short)")
            head, _ = self._document(self._read(handle, frames[0]), MAX_IDENTITY_BYTES, "the checkpoint's identity")
            if head.get("format") != FORMAT:
                raise self._fail("not a guesstree build checkpoint")
            version = head.get("version")
            if not (isinstance(version, list) and len(version) == 2 and version[0] == VERSION[0]):
                raise self._fail(f"checkpoint version {version!r} is not readable here (this guesstree reads "
                                 f"{VERSION[0]}.x)")
            if {k: v for k, v in head.items() if k != "producer"} != \
                    {k: v for k, v in identity.items() if k != "producer"}:
                raise self._fail("this checkpoint is of another build (another game, strategy, first guess or "
                                 "split of the secrets)")
            for frame in frames[1:]:
                record = self._load(self._read(handle, frame))
                if record.job in self.offsets:
                    raise self._fail(f"job {record.job} is recorded twice")
                self._note(record, frame)
                self.resumed.append((record.wins, record.determined))
        if end < size:  # the build was killed while writing its last record
            os.truncate(self.path, end)

    @staticmethod
    def _read(handle, frame: tuple[int, int]) -> bytes:
        handle.seek(frame[0])
        return handle.read(frame[1])

    def _load(self, frame: bytes) -> Record:
        """The record in ``frame``, checked against the job it names (``Limits.check``)."""
        document, size = self._document(frame, self.limits.largest_raw, "a record")
        job = document.get("job")
        if type(job) is not int or not 0 <= job < len(self.limits.sizes):
            raise self._fail(f"a record names no job of this build ({job!r})")
        if size > self.limits.raw_bytes(job):
            raise self._fail(f"the record of job {job} is larger than its part's subtree can be")
        try:
            levels = [tuple(_column(column) for column in level) for level in document["levels"]]
            wins, determined = ([_column(pair[0]), _column(pair[1], "u1")] for pair in (document["wins"], document["determined"]))
            if any(len(level) != 3 for level in levels) or len(document["wins"]) != 2 or len(document["determined"]) != 2:
                raise ValueError("wrong shape")
        except (KeyError, TypeError, ValueError, IndexError) as error:
            raise self._fail(f"the record of job {job} is damaged ({error})") from None
        try:
            return self.limits.check(Record(job, levels, tuple(wins), tuple(determined)), job)
        except ValueError as error:
            raise self._fail(str(error)) from None

    def _document(self, frame: bytes, limit: int, what: str) -> tuple[dict, int]:
        """The map in ``frame``, and its inflated size."""
        try:
            raw = inflate(frame, "", limit, "a checkpoint")
        except ValueError as error:
            raise self._fail(f"{what} is damaged or cut ({str(error).removeprefix(': ')})") from None
        try:
            document = msgpack.unpackb(raw, raw=False, strict_map_key=True, max_bin_len=limit,
                                       max_str_len=1 << 20, max_array_len=1 << 20, max_map_len=1 << 10,
                                       max_ext_len=0, ext_hook=refuse_extension)
        except (ValueError, TypeError, msgpack.UnpackException) as error:
            raise self._fail(f"{what} is damaged ({type(error).__name__}: {error})") from None
        if not isinstance(document, dict):
            raise self._fail(f"{what} is not a map")
        return document, len(raw)


def _frame(document: dict) -> bytes:
    raw = msgpack.packb(document, use_bin_type=True)
    frame = zstandard.ZstdCompressor(level=3, write_content_size=True, write_checksum=True).compress(raw)
    return len(frame).to_bytes(LENGTH_BYTES, "little") + frame


def _frames(handle, size: int) -> tuple[list[tuple[int, int]], int]:
    """Each whole record's ``(offset, length)`` of its frame, and where the whole records end."""
    frames, at = [], 0
    while at + LENGTH_BYTES <= size:
        handle.seek(at)
        length = int.from_bytes(handle.read(LENGTH_BYTES), "little")
        if at + LENGTH_BYTES + length > size:
            break
        frames.append((at + LENGTH_BYTES, length))
        at += LENGTH_BYTES + length
    return frames, at


def _column(value, dtype: str = "<u4") -> np.ndarray:
    if not isinstance(value, bytes) or len(value) % np.dtype(dtype).itemsize:
        raise ValueError("a column is not a whole array")
    return np.frombuffer(value, dtype=dtype).astype(np.int64)


class Limits:
    """What a record of each job may hold, from the first guess's split: each part's secrets, the
    game's guesses and answers. A record outside them is refused, not trusted."""

    def __init__(self, parts: list[np.ndarray], guesses: int, answers: int, win: int, max_depth: int = 255):
        self.parts, self.sizes = parts, [len(secrets) for secrets in parts]
        self.guesses, self.answers, self.win, self.max_depth = guesses, answers, win, max_depth

    def raw_bytes(self, job: int) -> int:
        """A record's inflated size cap: a subtree of s secrets has at most 2s nodes and edges."""
        return 64 * self.sizes[job] + (1 << 16)

    @property
    def largest_raw(self) -> int:
        return max((self.raw_bytes(job) for job in range(len(self.sizes))), default=1 << 16)

    def check(self, record: Record, job: int) -> Record:
        """``record``, if it is a whole subtree of job ``job``'s part; else a ValueError."""
        def fail(reason: str) -> ValueError:
            return ValueError(f"the record of job {job} {reason}")

        expected = 1
        for depth, (guesses, counts, feedbacks) in enumerate(record.levels):
            if len(guesses) != expected or len(counts) != expected or len(feedbacks) != int(counts.sum()):
                raise fail(f"does not add up at its level {depth}")
            if len(guesses) and (guesses.max() >= self.guesses or feedbacks.size and feedbacks.max() >= self.answers):
                raise fail(f"names a guess or an answer beyond the game's at its level {depth}")
            expected = len(feedbacks)
        if expected != 0 or len(record.levels) > self.max_depth:
            raise fail("does not end in leaves")
        part = self.parts[job]
        for name, (secrets, depths) in (("wins", record.wins), ("determined", record.determined)):
            if len(secrets) != len(depths) or (len(depths) and (depths.min() < 2 or depths.max() > len(record.levels) + 1)):
                raise fail(f"holds impossible {name}")
        if not np.array_equal(np.sort(record.wins[0]), np.sort(part)):
            raise fail("does not win exactly its part's secrets")
        if not np.isin(record.determined[0], part).all():
            raise fail("determines a secret of another part")
        return record

"""A heuristic build's checkpoint (``--checkpoint FILE``, ``--resume``; ``compiler/builder/spool.py``): the
subtrees below the first guess written as they finish, a build stopped, killed or cut short
resumed to the same bytes as one run, and a checkpoint that is damaged or of another build
refused with its reason."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import msgpack
import numpy as np
import pytest
import zstandard

from guesstree.compiler import Options, build
from guesstree.compiler.builder import plan, runner as builder
from guesstree.compiler.builder.writer import to_bytes
from guesstree.compiler.workers.settings import SearchSettings
from guesstree.compiler.search.solver import Interrupted
from guesstree.compiler.builder.spool import LENGTH_BYTES, Record, _frames
from guesstree.player.games import make_game

GAME = make_game("mastermind", colours=6, holes=4)


def records(path) -> list[tuple[int, int]]:
    with open(path, "rb") as handle:
        return _frames(handle, os.path.getsize(path))[0]


@pytest.fixture(scope="module")
def whole() -> bytes:
    return to_bytes(build(GAME, Options("minimax")))


def checkpointed(path, resume=False, progress=None, game=GAME, strategy="minimax"):
    return build(game, Options(strategy), progress=progress, search=SearchSettings(checkpoint=path, resume=resume))


def test_a_checkpointed_build_is_the_same_tree_and_resumes_to_it(whole, tmp_path):
    path = tmp_path / "build.checkpoint"
    built = checkpointed(path)
    assert to_bytes(built) == whole and built.stats["total"] == 5801
    assert len(records(path)) == 1 + built.edge_counts[0] == 1 + 12  # the identity, then a record per part of AABB's
    assert to_bytes(checkpointed(path, resume=True)) == whole


def test_a_build_stopped_after_some_subtrees_resumes_with_the_rest(whole, tmp_path, monkeypatch):
    monkeypatch.setattr(builder, "REPORT_SECONDS", 3600.0)  # the bar moves once per finished job only
    path = tmp_path / "build.checkpoint"
    calls = []

    def stop_after_two(solved, total, nodes, work, expected):
        calls.append(solved)
        if len(calls) == 3:  # the first call is before any job: two jobs are done
            raise KeyboardInterrupt

    with pytest.raises(Interrupted) as stopped:
        checkpointed(path, progress=stop_after_two)
    assert stopped.value.checkpoint == path and len(records(path)) == 1 + 2
    resumed = []
    built = checkpointed(path, resume=True, progress=lambda solved, *so_far: resumed.append(solved))
    assert resumed[0] == calls[-1]  # it starts where the stopped build was
    assert len(resumed) == 1 + 12 - 2 and resumed[-1] == 1296 and to_bytes(built) == whole


@pytest.mark.parametrize("workers", [1, 2])
def test_the_bar_moves_while_a_subtree_is_built(whole, tmp_path, monkeypatch, workers):
    """The jobs tell their progress as they go (in worker processes too): secrets won and nodes
    placed only grow, to the whole tree's, and more often than once per job."""
    monkeypatch.setattr(builder, "REPORT_SECONDS", 0.0)
    monkeypatch.setattr(plan, "PARALLEL_MIN_SECRETS", 0)  # worker processes, as for a big game
    calls = []
    built = build(GAME, Options("minimax"), progress=lambda *call: calls.append(call),
                  search=SearchSettings(checkpoint=tmp_path / "cp", workers=workers))
    assert to_bytes(built) == whole
    assert len(calls) > 3 * 12  # far more than once per part of AABB's
    assert all(a[0] <= b[0] and a[2] <= b[2] and a[3] <= b[3] for a, b in zip(calls, calls[1:]))
    work = sum(count for depth, count in internal_nodes(built) if count > 2 and depth > 2)  # below the first two levels
    assert calls[-1] == (1296, 1296, built.nodes, work, work)  # the work guessed ahead is all done
    assert all(0 < expected < 2 * work for *_, expected in calls)  # guessed within a factor of 2 all along


def internal_nodes(built) -> list[tuple[int, int]]:
    """``(depth, candidates)`` of each node of ``built`` that is split (more than one secret reaches
    it): a node is the path that reaches it, and each secret's path (``Tree.path``) passes its nodes."""
    from collections import Counter

    from guesstree.player.tree import loads

    tree = loads(to_bytes(built))
    reached = Counter(tuple(path[:depth]) for path in map(tree.path, GAME.secrets) for depth in range(len(path)))
    return [(len(node) + 1, count) for node, count in reached.items() if count > 1]


def test_a_record_cut_short_anywhere_is_built_again(whole, tmp_path):
    path = tmp_path / "build.checkpoint"
    checkpointed(path)
    data = path.read_bytes()
    last = records(path)[-1][0] - LENGTH_BYTES  # where the last record starts
    for cut in (last + 1, last + LENGTH_BYTES, last + LENGTH_BYTES + 9, len(data) - 1):
        path.write_bytes(data[:cut])
        assert to_bytes(checkpointed(path, resume=True)) == whole
        assert path.read_bytes() == data  # cut back to whole records, then the job appended again


def test_without_resume_an_old_checkpoint_is_replaced_and_resume_without_a_file_starts_anew(whole, tmp_path):
    path = tmp_path / "build.checkpoint"
    path.write_bytes(b"not a checkpoint")
    assert to_bytes(checkpointed(path)) == whole
    fresh = tmp_path / "none.checkpoint"
    assert to_bytes(checkpointed(fresh, resume=True)) == whole and fresh.exists()


def _rewritten(path, job_index: int, change) -> None:
    """Replace record ``job_index`` (1: the first job's) by ``change(document)``, well framed."""
    data = path.read_bytes()
    frames = records(path)
    at, length = frames[job_index]
    document = msgpack.unpackb(zstandard.ZstdDecompressor().decompress(data[at:at + length]), raw=False)
    change(document)
    frame = zstandard.ZstdCompressor(write_content_size=True, write_checksum=True).compress(
        msgpack.packb(document, use_bin_type=True))
    path.write_bytes(data[:at - LENGTH_BYTES] + len(frame).to_bytes(LENGTH_BYTES, "little") + frame + data[at + length:])


def _set(level: int, column: int, values):
    def change(document):
        document["levels"][level][column] = np.asarray(values, dtype="<u4").tobytes()
    return change


@pytest.mark.parametrize("change, reason", [
    (lambda d: d.update(job=99), "names no job of this build"),
    (lambda d: d.update(job=-1), "names no job of this build"),
    (lambda d: d.update(levels=d["levels"][:-1]), "does not end in leaves"),
    (lambda d: d["levels"][0].__setitem__(1, b"\x07\x00\x00\x00"), "does not add up at its level 0"),
    (lambda d: d["levels"][0].__setitem__(0, b"\xff\xff\x00\x00"), "beyond the game's"),
    (lambda d: d["levels"][0].__setitem__(0, b"\x00\x00"), "damaged"),
    (lambda d: d["wins"].__setitem__(0, d["wins"][0][:-4] + b"\x00\x00\x00\x00"), "does not win exactly its part"),
    (lambda d: d["wins"].__setitem__(1, b"\x01" * len(d["wins"][1])), "impossible wins"),
    (lambda d: d.pop("determined"), "damaged"),
    (lambda d: d.update(levels=[[b"", b"", b""]]), "does not add up"),
])
def test_a_record_that_is_not_its_jobs_subtree_is_refused(tmp_path, change, reason):
    path = tmp_path / "build.checkpoint"
    checkpointed(path)
    _rewritten(path, 1, change)
    with pytest.raises(ValueError, match=reason) as refused:
        checkpointed(path, resume=True)
    assert str(path) in str(refused.value) and "start the build anew without --resume" in str(refused.value)


def test_a_damaged_a_repeated_or_a_foreign_checkpoint_is_refused(tmp_path):
    path = tmp_path / "build.checkpoint"
    checkpointed(path)
    data = path.read_bytes()
    at, length = records(path)[2]
    path.write_bytes(data[:at + length // 2] + bytes([data[at + length // 2] ^ 0xFF]) + data[at + length // 2 + 1:])
    with pytest.raises(ValueError, match="damaged"):
        checkpointed(path, resume=True)
    second = records(path)  # its frames are still whole
    path.write_bytes(data + data[second[1][0] - LENGTH_BYTES:second[1][0] + second[1][1]])
    with pytest.raises(ValueError, match="job .* is recorded twice"):
        checkpointed(path, resume=True)
    path.write_bytes(data)
    with pytest.raises(ValueError, match="of another build"):
        checkpointed(path, resume=True, strategy="most-parts")
    with pytest.raises(ValueError, match="of another build"):
        checkpointed(path, resume=True, game=make_game("mastermind", colours=6, holes=4, secret_repeats=False))
    for foreign in (b"", b"\x05\x00\x00\x00\x00\x00\x00\x00hello", b"\xff" * 100):
        path.write_bytes(foreign)
        with pytest.raises(ValueError, match="not a guesstree build checkpoint|damaged or cut"):
            checkpointed(path, resume=True)


def test_another_major_version_is_refused(tmp_path):
    path = tmp_path / "build.checkpoint"
    checkpointed(path)
    _rewritten(path, 0, lambda d: d.update(version=[2, 0]))
    with pytest.raises(ValueError, match=r"version \[2, 0\] is not readable here"):
        checkpointed(path, resume=True)


def test_a_record_is_its_frame_after_its_length():
    record = Record(3, [(np.array([5]), np.array([2]), np.array([1, 4])), (np.array([6, 7]), np.array([0, 0]),
                                                                           np.array([], dtype=np.int64))],
                    (np.array([9, 10]), np.array([3, 3])), (np.array([9]), np.array([2])))
    assert record.nodes == 3 and record.pack()[:LENGTH_BYTES] == (len(record.pack()) - LENGTH_BYTES).to_bytes(8, "little")


@pytest.mark.slow
def test_a_build_killed_by_sigkill_resumes_to_the_same_bytes(tmp_path):
    """The whole command, killed (no handler runs) once two subtrees are on disk, then resumed."""
    command = [sys.executable, "-m", "guesstree", "compile", "mastermind", "--colours", "7", "--holes", "5",
               "--strategy", "most-parts", "--workers", "1", "-q"]
    checkpoint = tmp_path / "build.checkpoint"
    process = subprocess.Popen([*command, "-o", str(tmp_path / "killed.zst"), "--checkpoint", str(checkpoint)],
                               start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while process.poll() is None and time.monotonic() < deadline:
            if checkpoint.exists() and len(records(checkpoint)) >= 3:
                os.killpg(process.pid, signal.SIGKILL)
                break
            time.sleep(0.02)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    assert process.returncode == -signal.SIGKILL and not (tmp_path / "killed.zst").exists()
    done = len(records(checkpoint)) - 1
    assert 2 <= done < 19
    subprocess.run([*command, "-o", str(tmp_path / "resumed.zst"), "--checkpoint", str(checkpoint), "--resume"],
                   check=True)
    subprocess.run([*command, "-o", str(tmp_path / "one.zst")], check=True)
    assert (tmp_path / "resumed.zst").read_bytes() == (tmp_path / "one.zst").read_bytes()

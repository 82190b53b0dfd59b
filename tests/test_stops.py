"""Clean stops: a compile that spawns worker processes stops on SIGINT and SIGTERM with one line,
and leaves no process, shared memory or semaphore behind; its workers end by themselves when it
is killed outright (SIGKILL, as the out-of-memory killer or a CI runner does)."""
from __future__ import annotations

import contextlib
import operator
import os
import pty
import signal
import subprocess
import sys
import threading
import time

import psutil
import pytest

from guesstree.compiler.workers.pool import BrokenProcessPool, WorkerPool

LINUX = sys.platform.startswith("linux")
# The builder spawns one worker per core for a heuristic's tree of 20000 secrets or more
# (builder.plan.PARALLEL_MIN_SECRETS). 10x5 Mastermind, 100000 secrets: its build lasts about 13 s, so
# the stop meets it running (8x5's, 3 s, could end before the signal came).
GAME = ["mastermind", "--colours", "10", "--holes", "5"]
needs_cores = pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="the builder spawns workers only with 2 cores or more")


def _compile(game: list[str], tmp_path, command: str = "compile") -> subprocess.Popen:
    arguments = ["--strategy", "entropy", "--quiet", "-o", str(tmp_path / "tree.msgpack.zst")] \
        if command == "compile" else ["--strategies", "entropy", "--trees", str(tmp_path / "trees")]
    command = [sys.executable, "-m", "guesstree", command, *game, *arguments]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                            start_new_session=True, env=_private_temporary(tmp_path))  # a group of its own, as a shell job has


def _private_temporary(tmp_path) -> dict:
    """The environment with a temporary folder of the test's own (``tmp_path / "tmp"``, empty), to
    see what a command leaves there."""
    (tmp_path / "tmp").mkdir()
    return {**os.environ, "TMPDIR": str(tmp_path / "tmp")}


def _workers(parent: psutil.Process) -> list[psutil.Process]:
    try:
        return [p for p in parent.children(recursive=True) if "spawn_main" in " ".join(p.cmdline())]
    except psutil.Error:
        return []


def _started(process: subprocess.Popen, count: int, timeout: float = 120) -> list[psutil.Process]:
    """The compile's processes (its workers, and multiprocessing's resource tracker), once ``count``
    workers are running; a moment later, so that they are setting up or busy."""
    parent = psutil.Process(process.pid)
    deadline = time.monotonic() + timeout
    while len(_workers(parent)) < count:
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the workers did not start"
        time.sleep(0.1)
    time.sleep(2)
    return parent.children(recursive=True)


def _shared_files(processes: list[psutil.Process]) -> set[str]:
    """The files of /dev/shm (shared memory, semaphores) that any of ``processes`` maps."""
    found = set()
    for process in processes:
        try:
            with open(f"/proc/{process.pid}/maps") as maps:
                found |= {line.split(maxsplit=5)[5].strip() for line in maps
                          if len(line.split(maxsplit=5)) == 6 and "/dev/shm/" in line}
        except OSError:
            pass
    return {name.removesuffix(" (deleted)") for name in found}


def _gone(processes: list[psutil.Process], within: float) -> list[psutil.Process]:
    """Those of ``processes`` still alive after ``within`` seconds."""
    deadline = time.monotonic() + within
    while True:
        alive = [p for p in processes if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.1)


@needs_cores
@pytest.mark.parametrize("command, stop", [("compile", signal.SIGINT),
                                           pytest.param("compile", signal.SIGTERM, marks=pytest.mark.slow),
                                           pytest.param("compare", signal.SIGTERM, marks=pytest.mark.slow)])
def test_a_compile_with_workers_stops_in_one_line(tmp_path, command, stop):
    process = _compile(GAME, tmp_path, command)
    children = _started(process, min(2, os.cpu_count()))
    shared = _shared_files([psutil.Process(process.pid), *children])
    os.killpg(process.pid, stop)  # the whole group, as Ctrl-C in a terminal or a CI cancel sends it
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    said = f"interrupted: {tmp_path / 'tree.msgpack.zst'} not written" if command == "compile" else \
        "interrupted: no comparison made"
    assert err.strip().splitlines() == ["stopping...", said]
    assert not (tmp_path / "tree.msgpack.zst").exists() and not any((tmp_path / "trees").glob("*"))
    assert _gone(children, within=5) == []
    assert list((tmp_path / "tmp").iterdir()) == []  # no spool of the subtrees built (issue 54)
    if LINUX:
        assert {name for name in shared if os.path.exists(name)} == set()
        assert not any(name.startswith("/dev/shm/sem.") for name in shared)  # the pool needs no semaphore


@pytest.mark.slow
@needs_cores
@pytest.mark.skipif(not LINUX, reason="reads /proc and /dev/shm")
def test_the_workers_of_a_killed_compile_end_by_themselves(tmp_path):
    process = _compile(GAME, tmp_path)
    children = _started(process, min(2, os.cpu_count()))
    shared = _shared_files([psutil.Process(process.pid), *children])
    os.kill(process.pid, signal.SIGKILL)  # the parent alone, with no chance to stop anything
    process.communicate(timeout=30)
    assert _gone(children, within=10) == []  # the workers, and the resource tracker after them
    assert list((tmp_path / "tmp").iterdir()) == []  # the spool had no name to leave behind
    # the resource tracker frees what the dead parent made, once the workers are gone
    assert {name for name in shared if os.path.exists(name)} == set()


@pytest.mark.skipif(os.name != "posix", reason="a terminal (pty) for the search's status line")
@pytest.mark.parametrize("stop, where, searching", [
    (signal.SIGINT, ["--workers", "2"], "in flight"), (signal.SIGTERM, ["--workers", "2"], "in flight"),
    (signal.SIGINT, ["--workers", "1"], "minimum total"),  # the search, in the main thread in compiled code
    pytest.param(signal.SIGINT, ["--cluster", "local:2"], "jobs done", marks=pytest.mark.slow),  # Dask's processes
])
def test_an_exhaustive_search_stops_within_seconds(tmp_path, stop, where, searching):
    """Stopped while it searches (on threads or a local cluster's workers, the status line says "in
    flight"), an exhaustive search says "stopping..." at once and ends within seconds, not when its
    jobs end (numba code cannot be interrupted: the searches poll a stop flag, a local cluster's
    workers are ended by their process ids); its checkpoint is written, and no process prints more."""
    command = [sys.executable, "-m", "guesstree", "compile", "mastermind", "--colours", "8", "--holes", "4",
               "--strategy", "optimal-expected", *where, "--checkpoint", str(tmp_path / "search.ckpt"),
               "-o", str(tmp_path / "tree.msgpack.zst")]
    terminal, shown = pty.openpty()  # the status line is drawn only on a terminal
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=shown, text=True, cwd=tmp_path,
                               start_new_session=True, env=_private_temporary(tmp_path))
    os.close(shown)
    said: list[str] = []

    def read():
        with contextlib.suppress(OSError):  # (EIO: the process ended)
            while chunk := os.read(terminal, 4096):
                said.append(chunk.decode(errors="replace"))
    threading.Thread(target=read, daemon=True).start()
    deadline = time.monotonic() + 300
    while searching not in "".join(said):
        assert process.poll() is None, ("".join(said)[-3000:], process.stdout.read())
        assert time.monotonic() < deadline, f"the search never said {searching!r}"
        time.sleep(0.1)
    time.sleep(5.0 if "1" in where else 1.0)  # the search deep in its jobs (one thread: 3 min in all)
    children = psutil.Process(process.pid).children(recursive=True)
    assert process.poll() is None
    sent = time.monotonic()
    os.killpg(process.pid, stop)
    process.wait(timeout=120)
    latency = time.monotonic() - sent
    time.sleep(0.2)
    os.close(terminal)
    text = "".join(said)
    print(f"stopped {latency:.2f} s after {stop.name}")
    assert process.returncode == 130, text
    assert "stopping..." in text and "Traceback" not in text
    assert _gone(children, within=5) == []
    assert "listing the codes, scoring 4,096 guesses x 4,096 secrets" in text  # said before any search
    assert "interrupted: the search's work is saved in" in text and (tmp_path / "search.ckpt").stat().st_size > 0
    assert latency < 5, f"{latency:.1f} s to stop"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["search.ckpt", "tmp"]
    assert list((tmp_path / "tmp").iterdir()) == []


# -- the pool itself --------------------------------------------------------------------------

def test_pool_answers_every_job_and_raises_a_job_error():
    with WorkerPool(2, int, 5) as pool:  # each worker's state: int(5)
        assert dict(pool.map_unordered(operator.add, [(1,), (2,), (3,)])) == {0: 6, 1: 7, 2: 8}
        with pytest.raises(ZeroDivisionError):
            list(pool.map_unordered(operator.truediv, [(1,), (0,)]))
        assert dict(pool.map_unordered(operator.mul, [(2,)])) == {0: 10}  # still usable after a job's error


def test_pool_drops_the_answers_of_jobs_left_running():
    with WorkerPool(2, float, 1) as pool:  # each worker's state: 1.0
        jobs = pool.map_unordered(time.sleep, [(), ()])  # two jobs of a second each
        assert next(jobs) in ((0, None), (1, None))
        jobs.close()  # the other still running
        assert dict(pool.map_unordered(operator.add, [(1,), (2,), (3,)])) == {0: 2.0, 1: 3.0, 2: 4.0}


def test_pool_tells_a_setup_error():
    with WorkerPool(1, int, "five") as pool, pytest.raises(ValueError, match="invalid literal"):
        list(pool.map_unordered(operator.add, [(1,)]))


def test_pool_tells_a_dead_worker():
    with WorkerPool(1, float, 30) as pool:  # each job: time.sleep(30.0)
        worker = pool._workers[0][0]
        threading.Timer(1.0, lambda: os.kill(worker.pid, signal.SIGKILL)).start()
        started = time.monotonic()
        with pytest.raises(BrokenProcessPool, match="exit code -9"):
            list(pool.map_unordered(time.sleep, [()]))
        assert time.monotonic() - started < 10


@pytest.mark.slow
@pytest.mark.skipif(os.name != "posix", reason="SIGKILL")
def test_busy_and_idle_workers_end_with_a_killed_parent():
    script = ("import sys, time\n"
              "from guesstree.compiler.workers.pool import WorkerPool\n"
              "pool = WorkerPool(2, float, 60)\n"  # each job: time.sleep(60.0)
              "print(*(p.pid for p, _ in pool._workers), flush=True)\n"
              "jobs = pool.map_unordered(time.sleep, [()])\n"  # one busy worker, one idle
              "next(jobs)\n")
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    pids = [int(pid) for pid in parent.stdout.readline().split()]
    workers = [psutil.Process(pid) for pid in pids]
    time.sleep(1.5)
    assert all(w.is_running() for w in workers)
    parent.kill()
    parent.wait()
    assert _gone(workers, within=5) == []

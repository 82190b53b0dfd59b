"""Exhaustive searches on a Dask cluster (``--cluster``): the same bytes as on one machine, for any
cluster and any order of jobs; workers killed, schedulers gone, Ctrl-C and resume, refusals.

The clusters are real: a scheduler and workers started with Dask's own command line on
127.0.0.1 (``dask scheduler``, ``dask worker``), or ``--cluster local:2``, and ``guesstree``
runs as a separate process, as a user runs it. Every process a test starts is stopped by its
process id when the test ends.
"""
from __future__ import annotations

import ctypes
import json
import operator
import os
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

pytest.importorskip("distributed")
import cloudpickle  # noqa: E402 (Dask's)
from distributed import wait  # noqa: E402
from distributed.diagnostics.plugin import SchedulerPlugin  # noqa: E402

cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the scheduler runs this module's functions

BIN = Path(sys.executable).parent
DASK = [str(BIN / "dask")]
GUESSTREE = [sys.executable, "-m", "guesstree"]
WORDS = Path(__file__).parent / "data" / "wordle"  # the original lists


def _end_with_the_tests() -> None:
    """In a started service, before it runs: SIGTERM when the test process ends, however it ends
    (killed, it runs no finalizer that would stop its services by their process ids)."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


class Cluster:
    """A Dask scheduler and workers, each started with Dask's command line in a session of its own."""

    def __init__(self, folder: Path, workers: int = 2, preload: Path | None = None, cwd: Path | None = None):
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.file = folder / "scheduler.json"
        self.processes = [self._start(["scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                                       "--scheduler-file", str(self.file)], "scheduler")]
        self.address = self._address(time.monotonic() + 60)
        more = ["--preload", str(preload)] if preload else []
        self.processes.append(self._start(["worker", self.address, "--nworkers", str(workers), "--nthreads", "1",
                                           "--host", "127.0.0.1", "--no-dashboard", *more], "workers", cwd))
        self.wait_for(workers)
        with self.client() as client:
            client.register_plugin(JobCounter())

    def _address(self, deadline: float) -> str:
        """The scheduler's address from its file, once the file is there and whole (the scheduler
        writes it in place: read too early, it is empty or cut short)."""
        while True:
            try:
                return json.loads(self.file.read_text())["address"]
            except (FileNotFoundError, json.JSONDecodeError, KeyError):
                assert time.monotonic() < deadline, "the scheduler did not start"
                time.sleep(0.1)

    def _start(self, args: list[str], name: str, cwd: Path | None = None) -> subprocess.Popen:
        log = open(self.folder / f"{name}.log", "wb")
        return subprocess.Popen(DASK + args, stdout=log, stderr=subprocess.STDOUT, cwd=cwd or self.folder,
                                start_new_session=True, preexec_fn=_end_with_the_tests)

    def client(self):
        from distributed import Client

        return Client(self.address, timeout="20s")

    def wait_for(self, workers: int) -> None:
        with self.client() as client:
            client.wait_for_workers(workers, timeout=120)

    def scheduler(self, function):
        """``function(scheduler)`` run in the scheduler's process."""
        with self.client() as client:
            return client.run_on_scheduler(function)

    def stop_scheduler(self) -> None:
        os.killpg(self.processes[0].pid, signal.SIGKILL)

    def stop(self) -> None:
        for process in self.processes:
            try:
                os.killpg(process.pid, signal.SIGTERM)
            except ProcessLookupError:
                continue
        for process in self.processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    started = Cluster(tmp_path_factory.mktemp("dask"))
    yield started
    started.stop()


@pytest.fixture
def own_cluster(tmp_path):
    """``own_cluster(**settings)``: a cluster for one test (stopped with it)."""
    made = []

    def start(**settings):
        made.append(Cluster(tmp_path / f"dask{len(made)}", **settings))
        return made[-1]
    yield start
    for started in made:
        started.stop()


def guesstree(*args, cwd=None, timeout=600) -> subprocess.CompletedProcess:
    return subprocess.run(GUESSTREE + [str(a) for a in args], capture_output=True, text=True, cwd=cwd,
                          timeout=timeout)


def started(*args, cwd=None) -> subprocess.Popen:
    """The command running, as from a terminal: Ctrl-C (SIGINT) interrupts it even when the tests
    themselves run where SIGINT is ignored (a background job of a shell), which children inherit."""
    return subprocess.Popen(GUESSTREE + [str(a) for a in args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=cwd, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


class JobCounter(SchedulerPlugin):
    """In the scheduler: how many times each guesstree job was started and finished."""

    name = "guesstree-job-counter"

    def __init__(self):
        self.started, self.finished = Counter(), Counter()

    def transition(self, key, start, finish, *args, **kwargs):
        if str(key).startswith("guesstree-"):
            if finish == "processing":
                self.started[key] += 1
            elif finish == "memory":
                self.finished[key] += 1


def jobs_finished(dask_scheduler) -> int:
    """The guesstree jobs that the scheduler saw finish (run in its process)."""
    return sum(dask_scheduler.plugins[JobCounter.name].finished.values())


def small_words(folder: Path) -> list:
    """A Wordle-like game small enough for CI: 120 answers, 420 allowed guesses."""
    answers = (WORDS / "wordlist_orig_hidden").read_text().split()[:120]
    others = (WORDS / "wordlist_orig_all").read_text().split()[3000:3300]
    (folder / "answers.txt").write_text("\n".join(answers) + "\n")
    (folder / "guesses.txt").write_text("\n".join(sorted(set(answers + others))) + "\n")
    return ["words", "--answers", folder / "answers.txt", "--guesses", folder / "guesses.txt"]


def compiled(tmp_path: Path, name: str, *args) -> bytes:
    path = tmp_path / f"{name}.msgpack.zst"
    result = guesstree("compile", *args, "-q", "-o", path)
    assert result.returncode == 0, result.stderr
    return path.read_bytes()


MM4 = ["mastermind", "--colours", "4"]
SEARCHES = {
    "mastermind-4x4-optimal-expected": [*MM4, "--strategy", "optimal-expected"],
    "mastermind-4x4-optimal-worst": [*MM4, "--strategy", "optimal-worst"],
    "mastermind-4x4-fewest-at-worst": [*MM4, "--strategy", "fewest-at-worst"],
    "mastermind-5x4-optimal-expected-depth5": ["mastermind", "--colours", "5", "--strategy", "optimal-expected",
                                               "--max-depth", "5"],
}


@pytest.mark.slow  # a Dask scheduler and workers: 5 to 45 s each
@pytest.mark.parametrize("name", SEARCHES)
def test_the_same_bytes_on_a_cluster_started_with_dasks_command_line(cluster, tmp_path, name):
    before = cluster.scheduler(jobs_finished)
    alone = compiled(tmp_path, "alone", *SEARCHES[name])
    spread = compiled(tmp_path, "spread", *SEARCHES[name], "--cluster", cluster.address)
    assert spread == alone
    assert cluster.scheduler(jobs_finished) > before  # the jobs ran on the cluster's workers


@pytest.mark.slow  # a Dask scheduler and workers: 5 to 45 s each
def test_an_opener_search_on_a_cluster_is_the_same_bytes(cluster, tmp_path):
    game = small_words(tmp_path)
    alone = compiled(tmp_path, "alone", *game, "--strategy", "optimal-expected")
    before = cluster.scheduler(jobs_finished)
    spread = compiled(tmp_path, "spread", *game, "--strategy", "optimal-expected", "--cluster", cluster.address)
    assert spread == alone
    assert cluster.scheduler(jobs_finished) > before  # a job per opener that no bound refutes (search/ranking.py)


@pytest.mark.slow  # a Dask scheduler and workers: 5 to 45 s each
def test_openers_k_searches_the_heuristics_best_first_guesses_and_says_so(cluster, tmp_path):
    game = small_words(tmp_path)
    few = compiled(tmp_path, "few", *game, "--strategy", "optimal-expected", "--openers", "6")
    assert compiled(tmp_path, "few-spread", *game, "--strategy", "optimal-expected", "--openers", "6",
                    "--cluster", cluster.address) == few
    from guesstree import player

    compiled(tmp_path, "full", *game, "--strategy", "optimal-expected")
    tree = player.load(tmp_path / "few.msgpack.zst")
    full = player.load(tmp_path / "full.msgpack.zst")
    assert tree.strategy["optimal"] is False
    assert tree.strategy["optimal_among"] == "6 openers" and tree.strategy["openers_ranked_by"] == "entropy"
    assert tree.strategy["proven"].startswith("optimal among 6 openers (of ")
    assert tree.strategy["minimum_total"] == tree.stats["total"] == full.stats["total"]


@pytest.mark.slow  # a Dask scheduler and workers: 5 to 45 s each
def test_openers_covering_every_first_guess_is_a_full_proof(tmp_path):
    tree_path = tmp_path / "t.msgpack.zst"
    result = guesstree("compile", *MM4, "--strategy", "optimal-expected", "--openers", "50", "-q", "-o", tree_path)
    assert result.returncode == 0, result.stderr
    from guesstree import player

    strategy = player.load(tree_path).strategy
    assert strategy["optimal"] is True and strategy["minimum_total"] == 905 and strategy["openers"] == 50


@pytest.mark.slow  # a Dask scheduler and workers: 5 to 45 s each
def test_bound_on_a_cluster_proves_the_same(cluster):
    alone = guesstree("bound", "bulls-cows", "--length", "3", "--json")
    spread = guesstree("bound", "bulls-cows", "--length", "3", "--json", "--cluster", cluster.address)
    assert alone.returncode == spread.returncode == 0, spread.stderr
    mine, theirs = json.loads(alone.stdout), json.loads(spread.stdout)
    assert mine["proof"] == theirs["proof"] and mine["worst"] == theirs["worst"] == 6


@pytest.mark.slow  # a Dask scheduler and workers: 5 to 45 s each
def test_a_local_cluster_of_two_processes(tmp_path):
    args = ["mastermind", "--colours", "5", "--strategy", "optimal-expected"]
    assert compiled(tmp_path, "local", *args, "--cluster", "local:2") == compiled(tmp_path, "alone", *args)


SLOW_JOBS = """
import time
from guesstree.compiler.workers import cluster

_job = getattr(cluster.run_job, "unslowed", cluster.run_job)  # preloaded by the nanny and the worker


def _slow_job(search, job, seed):  # every job takes a second more: a test acts while they run
    if job is not None:
        time.sleep(1.0)
    return _job(search, job, seed)


_slow_job.unslowed = _job
cluster.run_job = _slow_job
_build_job = getattr(cluster.run_build_job, "unslowed", cluster.run_build_job)


def _slow_build_job(build, call, seed):  # a heuristic build's subtrees, the same
    if call is not None:
        time.sleep(1.0)
    return _build_job(build, call, seed)


_slow_build_job.unslowed = _build_job
cluster.run_build_job = _slow_build_job
"""


def slow_workers(folder: Path) -> Path:
    """A worker preload that makes each job last a second or more (the searches are fast)."""
    preload = folder / "slow_jobs.py"
    preload.write_text(SLOW_JOBS)
    return preload


@pytest.mark.slow  # a Dask scheduler and workers: 5 to 45 s each
@pytest.mark.parametrize("args", [
    ["mastermind", "--strategy", "optimal-expected", "--openers", "5"],  # five jobs of a second or so
    ["mastermind", "--colours", "5", "--strategy", "most-parts"],  # a heuristic's build: a job per part
])
def test_a_worker_killed_in_the_middle_of_a_job_costs_only_that_job(own_cluster, tmp_path, args):
    mine = own_cluster(preload=slow_workers(tmp_path))
    alone = compiled(tmp_path, "alone", *args)
    run = started("compile", *args, "-q", "-o", tmp_path / "spread.msgpack.zst", "--cluster", mine.address)
    killed = None
    with mine.client() as client:
        deadline = time.monotonic() + 120
        while killed is None and time.monotonic() < deadline and run.poll() is None:
            for worker, keys in client.processing().items():
                jobs = [key for key in keys if str(key).startswith("guesstree-")]
                if jobs:
                    os.kill(client.run(os.getpid, workers=[worker])[worker], signal.SIGKILL)
                    killed = jobs[0]
                    break
            time.sleep(0.02)
    out, err = run.communicate(timeout=300)
    assert run.returncode == 0, err
    assert killed is not None
    assert (tmp_path / "spread.msgpack.zst").read_bytes() == alone

    def starts(dask_scheduler):
        return dask_scheduler.plugins[JobCounter.name].started[killed]
    assert mine.scheduler(starts) >= 2  # the job was started again elsewhere: it was killed mid-way


def _after_first_job(cluster: Cluster, run: subprocess.Popen) -> None:
    deadline = time.monotonic() + 120
    while cluster.scheduler(jobs_finished) < 1:
        assert run.poll() is None and time.monotonic() < deadline, "the search ended before a job finished"
        time.sleep(0.05)
    time.sleep(0.3)  # the result on its way from the scheduler to the search (jobs last a second: more are left)


@pytest.mark.slow  # a Dask scheduler and workers: 5 to 45 s each
@pytest.mark.parametrize("stop", ["ctrl-c", "scheduler gone"])
def test_a_stopped_search_keeps_its_finished_jobs_and_resumes_on_another_cluster(own_cluster, tmp_path, stop):
    from guesstree.compiler.search.checkpoint import ENTRY_BYTES

    mine = own_cluster(preload=slow_workers(tmp_path))
    args = ["mastermind", "--strategy", "optimal-expected", "--openers", "5"]
    alone = compiled(tmp_path, "alone", *args)
    checkpoint = tmp_path / "search.checkpoint"
    out = tmp_path / "spread.msgpack.zst"
    run = started("compile", *args, "-o", out, "--checkpoint", checkpoint, "--cluster", mine.address)
    _after_first_job(mine, run)
    if stop == "ctrl-c":
        os.kill(run.pid, signal.SIGINT)
    else:
        mine.stop_scheduler()
    _, err = run.communicate(timeout=120)
    if stop == "ctrl-c":
        assert run.returncode == 130, err
        assert f"the search's work is saved in {checkpoint}" in err
    else:
        assert run.returncode == 2, err
        assert err.strip().splitlines() == [  # one line, no traceback
            f"error: lost the Dask scheduler at {mine.address} in the middle of the search; the search's work is "
            f"saved in {checkpoint} (run the same compile command with --resume)"]
    assert not out.exists()
    assert checkpoint.stat().st_size > 100 * ENTRY_BYTES / 10  # the finished job's entries
    resumed = guesstree("compile", *args, "-q", "-o", out, "--checkpoint", checkpoint, "--resume",
                        "--cluster", "local:2")
    assert resumed.returncode == 0, resumed.stderr
    assert out.read_bytes() == alone


@pytest.mark.slow  # a Dask scheduler and workers: 5 to 45 s each
def test_a_stopped_search_frees_the_clusters_workers_at_once(own_cluster, tmp_path):
    """Dask cannot interrupt a running task: each job watches whether the scheduler still wants it,
    and stops its search when the client that asked for it stopped (8x5's jobs last minutes)."""
    mine = own_cluster()
    run = started("compile", "mastermind", "--colours", "8", "--holes", "5", "--strategy", "optimal-expected",
                  "-q", "-o", tmp_path / "tree.msgpack.zst", "--cluster", mine.address)
    with mine.client() as client:
        deadline = time.monotonic() + 120
        while sum(str(key).startswith("guesstree-") for keys in client.processing().values() for key in keys) < 2:
            assert run.poll() is None and time.monotonic() < deadline, "no job started"
            time.sleep(0.1)
        time.sleep(2)  # both workers deep in a job
        os.kill(run.pid, signal.SIGINT)
        _, err = run.communicate(timeout=60)
        assert run.returncode == 130, err
        workers = sorted(client.scheduler_info()["workers"])
        free = [client.submit(operator.neg, 1, workers=[worker], allow_other_workers=False, pure=False)
                for worker in workers]
        wait(free, timeout=15)  # (a TimeoutError: a worker still in the stopped search's job)
        assert [future.result() for future in free] == [-1] * len(workers) == [-1, -1]


# -- a heuristic build's subtrees on a cluster -------------------------------------------------------

@pytest.mark.slow  # a Dask scheduler and workers: 5 to 45 s each
def test_a_heuristic_build_on_a_cluster_is_the_same_bytes(cluster, tmp_path):
    for name, game in (("mm", ["mastermind"]), ("words", small_words(tmp_path))):
        before = cluster.scheduler(jobs_finished)
        alone = compiled(tmp_path, f"{name}-alone", *game, "--strategy", "entropy")
        spread = compiled(tmp_path, f"{name}-spread", *game, "--strategy", "entropy", "--cluster", cluster.address)
        assert spread == alone
        assert cluster.scheduler(jobs_finished) > before  # a job per part of the first guess


@pytest.mark.slow  # a Dask scheduler and workers: 5 to 45 s each
def test_a_cluster_splits_the_first_guesss_big_parts_again_and_splices_the_same_bytes(monkeypatch, tmp_path):
    """On a cluster a big part of the first guess is a job that plays its guess, then a job per
    part of that guess (``builder.runner._subtrees``); spliced in the client, the same tree."""
    from guesstree.compiler import Options, build
    from guesstree.compiler.builder import runner as builder
    from guesstree.compiler.builder.writer import to_bytes
    from guesstree.compiler.workers.settings import SearchSettings
    from guesstree.player.games import make_game

    words = small_words(tmp_path)
    for game, strategy in ((make_game("mastermind", colours=5), "most-parts"),
                           (make_game("words", answers=str(words[2]), guesses=str(words[4])), "entropy")):
        alone = to_bytes(build(game, Options(strategy)))
        spliced, original = [], builder.spliced
        monkeypatch.setattr(builder, "SPLIT_MIN_SECRETS", 6)
        monkeypatch.setattr(builder, "_splits_again", lambda pool, nodes, secrets: True)  # as on many workers
        monkeypatch.setattr(builder, "spliced", lambda top, pieces, spliced=spliced, original=original:
                            spliced.append(len(pieces)) or original(top, pieces))
        assert to_bytes(build(game, Options(strategy), search=SearchSettings(cluster="local:2"))) == alone
        assert len(spliced) > 1 and max(spliced) > 3  # parts of the first guess split again, each in pieces
        monkeypatch.undo()


HEURISTIC = ["mastermind", "--colours", "5", "--strategy", "most-parts"]  # a job of a second per part


@pytest.mark.slow  # a Dask scheduler and workers: 5 to 45 s each
def test_a_build_whose_scheduler_goes_keeps_its_subtrees_and_resumes_on_another_cluster(own_cluster, tmp_path):
    from guesstree.compiler.builder.spool import LENGTH_BYTES

    mine = own_cluster(preload=slow_workers(tmp_path))
    alone = compiled(tmp_path, "alone", *HEURISTIC)
    checkpoint, out = tmp_path / "build.checkpoint", tmp_path / "spread.msgpack.zst"
    run = started("compile", *HEURISTIC, "-o", out, "--checkpoint", checkpoint, "--cluster", mine.address)
    _after_first_job(mine, run)
    mine.stop_scheduler()
    _, err = run.communicate(timeout=120)
    assert run.returncode == 2, err
    assert "Traceback" not in err and err.strip().splitlines()[-1] == (
        f"error: lost the Dask scheduler at {mine.address} in the middle of the search; the search's work is "
        f"saved in {checkpoint} (run the same compile command with --resume)")
    assert not out.exists() and checkpoint.stat().st_size > 2 * LENGTH_BYTES  # the identity and a subtree
    resumed = guesstree("compile", *HEURISTIC, "-q", "-o", out, "--checkpoint", checkpoint, "--resume",
                        "--cluster", "local:2")
    assert resumed.returncode == 0, resumed.stderr
    assert out.read_bytes() == alone


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("address, words", [
    ("tcp://127.0.0.1:FREE", "error: cannot reach the Dask scheduler at tcp://127.0.0.1:"),  # a port no one listens on
    ("nowhere", "error: --cluster nowhere: give a scheduler's address (tcp://HOST:PORT) or local:N"),
    ("local:zero", "error: --cluster local:zero: local:N needs a number of worker processes"),
])
def test_a_bad_cluster_address_is_one_line(tmp_path, address, words):
    address = address.replace("FREE", str(_free_port()))
    result = guesstree("compile", *MM4, "--strategy", "optimal-expected", "-o", tmp_path / "t.msgpack.zst",
                       "--cluster", address)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and result.stderr.startswith(words), result.stderr
    assert not (tmp_path / "t.msgpack.zst").exists()


@pytest.mark.slow  # a Dask scheduler and workers: 5 to 45 s each
def test_the_scheduler_address_may_come_from_the_environment(cluster, tmp_path):
    before = cluster.scheduler(jobs_finished)
    path = tmp_path / "t.msgpack.zst"
    env = {**os.environ, "DASK_SCHEDULER_ADDRESS": cluster.address}
    result = subprocess.run([*GUESSTREE, "compile", *MM4, "--strategy", "optimal-worst", "-q", "-o", str(path)],
                            capture_output=True, text=True, env=env, timeout=300)
    assert result.returncode == 0, result.stderr
    assert cluster.scheduler(jobs_finished) > before


@pytest.mark.slow  # a Dask scheduler and workers: 5 to 45 s each
def test_a_worker_of_another_guesstree_version_is_refused(own_cluster, tmp_path):
    preload = tmp_path / "older.py"
    preload.write_text("import guesstree\nguesstree.__version__ = '0.0.1'\n")
    mine = own_cluster(workers=1, preload=preload)
    result = guesstree("bound", *MM4, "--cluster", mine.address)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        f"error: the worker at {next(iter(_workers(mine)))} runs guesstree 0.0.1, this client guesstree "
        f"{_version()}: install the same version on every machine"]


PLUGIN = """\
import itertools

from guesstree.player.games import Game


class Tilted(Game):
    name = "tilted"
    length, symbols, win = 3, 3, (3, 1)

    def _secrets(self):
        return list(itertools.product(range(3), repeat=3))

    def _guesses(self):
        return self._secrets()

    def feedbacks(self):
        return [(hits, sign) for hits in range(4) for sign in range(3) if hits < 3 or sign == 1]

    def score(self, guess, secret):
        difference = sum(guess) - sum(secret)
        return sum(g == s for g, s in zip(guess, secret)), (difference > 0) - (difference < 0) + 1 if {flip} else 1


def make():
    return Tilted()
"""


@pytest.mark.slow  # a Dask scheduler and workers: 5 to 45 s each
def test_a_worker_that_makes_another_game_is_refused(own_cluster, tmp_path):
    here, there = tmp_path / "here", tmp_path / "there"
    for folder, flip in ((here, True), (there, False)):  # the same plugin name, another plugin on the worker
        folder.mkdir()
        (folder / "tilted.py").write_text(PLUGIN.format(flip=flip))
    mine = own_cluster(workers=1, cwd=there)
    result = guesstree("compile", "tilted:make", "--strategy", "optimal-expected", "-o", here / "t.msgpack.zst",
                       "--cluster", mine.address, cwd=here)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        f"error: the worker at {next(iter(_workers(mine)))} makes another game than Tilted() from the same "
        "description (another version of its plugin or word lists?)"]
    assert not (here / "t.msgpack.zst").exists()


def test_without_a_cluster_dask_is_not_imported():
    script = ("import sys; from guesstree.player.games import make_game; from guesstree.compiler import Options, build; "
              "build(make_game('mastermind', colours=4), Options(strategy='optimal-expected')); "
              "print('distributed' in sys.modules, 'dask' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert result.stdout.split() == ["False", "False"], result.stderr


def _workers(cluster: Cluster) -> list:
    with cluster.client() as client:
        return list(client.scheduler_info()["workers"])


def _version() -> str:
    from guesstree import player

    return player.__version__


def test_a_board_post_that_fails_does_not_fail_the_search():
    """Posting the best total helps running jobs; when the scheduler has just gone, the post fails
    and the next wait for jobs tells the user (one line, checkpoint kept), not the post."""
    from guesstree.compiler.workers.cluster import VariableBoard

    class Gone:
        def set(self, value):
            raise ConnectionResetError(104, "Connection reset by peer")

    board = VariableBoard("search")
    board._variable = Gone()
    board.write((1, 5625, 0, 7))  # no error
    board._read_at = -1e9  # read now, not within BOARD_SECONDS of the last read
    assert board.read() is None  # nothing half-posted: running jobs keep their own limits

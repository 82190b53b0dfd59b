"""The exhaustive searches' jobs, and a heuristic build's subtrees, on a Dask cluster
(``--cluster``): from a local cluster of a few processes to many machines, with the same tree out;
the client's side (``DaskJobs``; ``DaskMap`` for a build) and everything a worker runs (``run_job``,
``run_build_job``).

A heuristic build hands out the first guess's subtrees as the builder's worker processes take
them (``builder.runner._subtrees``): each worker makes the build's context once and returns each subtree
whole, or for a big part on many workers its guess, then each of its parts' subtrees; the client
splices them and writes each part's subtree to its spool, so the tree is the same bytes.

The solver (``search/solver.py``) hands out the same jobs (``search/jobs.py``) as it does to the
threads of this process: each an exact search with a cutoff, whose answer is a fact that does not
depend on which worker computed it or when. Here each job runs on some Dask worker, in a worker
process of its own, which builds the search's game once from its description and keeps its own
table; with its answer it returns the table entries that the client's tree needs (``jobs.entries``). The best total of the node
being searched is a Dask ``Variable`` that running jobs read between their parts, so every
worker prunes with it.

Dask is imported only here, and only when ``--cluster`` is given.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import shutil
import signal
import tempfile
import threading
import time
from pathlib import Path
from collections.abc import Callable

import numpy as np

from .pool import main_unseen

LOCAL = "local:"
CONNECT_SECONDS = 5  # to reach the scheduler
WORKER_SECONDS = 60  # for the first worker to join
JOBS_PER_WORKER = 3  # jobs sent at once per worker
BOARD_SECONDS = 0.25  # a running job reads the best total at most this often
EXTRA = "guesstree[distributed]"


class ClusterError(Exception):
    """The cluster cannot run (or finish) the search: unreachable, gone, or refusing it. Says so
    in one line; ``checkpoint``: where the search's work was saved, if it was."""

    def __init__(self, message: str, checkpoint: Path | None = None):
        self.checkpoint = checkpoint
        super().__init__(message)


class Refused(ClusterError):
    """A worker that cannot take part: another guesstree, or another game from the same description."""


def dask_setup(worker) -> None:
    """A local cluster's worker, as it starts (Dask's preload, ``local:N``, in the worker process's
    main thread): Ctrl-C reaches the whole process group, but this client stops its workers
    (``DaskJobs.close``), so they ignore it rather than print a traceback each."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def worker_address() -> str:
    from distributed import get_worker

    try:
        return get_worker().address
    except ValueError:
        return "?"


class VariableBoard:
    """The best total of the node being searched, as a cluster's workers read it: a Dask
    ``Variable`` named after the search, read at most every ``BOARD_SECONDS``."""

    def __init__(self, name: str, client=None):
        self.name, self._client, self._variable = name, client, None
        self._read_at, self._value = 0.0, None

    def _get(self):
        if self._variable is None:
            from distributed import Variable

            self._variable = Variable(self.name, client=self._client)
        return self._variable

    def write(self, best: tuple) -> None:
        """Post ``best``: a help to the running jobs, not a result, so a failure is let pass (a
        scheduler gone is told by the next wait for jobs, ``DaskJobs.finished``)."""
        try:
            self._get().set([int(v) for v in best])
        except Exception:
            pass

    def read(self) -> tuple | None:
        now = time.monotonic()
        if now - self._read_at >= BOARD_SECONDS:
            self._read_at = now
            try:
                value = self._get().get(timeout=0.05)
            except Exception:  # not posted yet (a timeout), or the scheduler is busy: keep the last
                value = None
            if value is not None:
                self._value = tuple(value)
        return self._value


def fingerprint(game, *arrays: np.ndarray) -> str:
    """What two processes must agree on to work on the same game: its identity and ``arrays`` (the
    search's every feedback, or a build's codes)."""
    digest = hashlib.sha256(json.dumps(game.identity(), sort_keys=True, default=str).encode())
    for array in arrays:
        digest.update(np.ascontiguousarray(array).data)
    return digest.hexdigest()


def search_description(space, make: Callable) -> dict:
    """What a cluster's worker needs to take part in the search of ``space`` (see ``run_job``):
    the recipe of its game (``SearchedGame.recipe``), and ``make(searched, SearchSettings(workers=1),
    board=...)`` that makes its solver (the ``Solver`` class)."""
    import uuid

    from guesstree import player

    return {"id": uuid.uuid4().hex, "version": player.__version__, "game": repr(space.game),
            "recipe": space.searched.recipe(), "fingerprint": fingerprint(space.game, space.matrix),
            "penalty": space.penalty, "make": make}


_lock = threading.Lock()  # a worker runs one job at a time (its solver is not thread-safe)
_searches: dict = {}  # in a worker: the solver of the search it works for


def run_job(search: dict, job, seed):
    """A job on a cluster's worker: ``job.run`` on this search's solver, made on the first job
    (and seeded with the entries of a resumed search's checkpoint, ``seed``). Returns the result,
    the table entries the client needs (``jobs.entries``), the nodes searched and the seconds;
    with ``job`` None only makes the solver. A worker with another guesstree, or one that
    rebuilds another game, is refused."""
    with _lock:
        solver = _searches.get(search["id"])
        if solver is None:
            solver = _new_solver(search, seed)
        if job is None:  # a worker's first job, sent when the search starts: ready, or refused
            return None
        nodes, started = solver.nodes, time.perf_counter()
        with _stopped_if_dropped(solver.space.stop):
            result = job.run(solver)
        return result, solver.entries(job), solver.nodes - nodes, time.perf_counter() - started


@contextlib.contextmanager
def _stopped_if_dropped(flag: np.ndarray):
    """While a job runs on a worker: once the scheduler drops it (its client stopped, or gone), the
    search's stop ``flag`` is set, so that the worker is free within a moment, not when the job
    would have ended (a compiled search polls the flag; Dask cannot interrupt a running task)."""
    from distributed.worker import get_worker, thread_state

    try:
        worker, key = get_worker(), thread_state.key
    except (ValueError, AttributeError):  # not a task of a Dask worker (a test calls it directly)
        yield
        return
    done = threading.Event()

    def watch():
        while not done.wait(BOARD_SECONDS):
            task = worker.state.tasks.get(key)
            if task is None or task.state in ("cancelled", "released", "forgotten"):
                flag[0] = 1
                return
    watcher = threading.Thread(target=watch, name="guesstree-dropped", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        done.set()
        watcher.join()
        flag[0] = 0


def _new_solver(search: dict, seed):
    from .settings import SearchSettings

    searched = _made(search, search["recipe"], lambda made: fingerprint(made.game, made.matrix))
    for old in _searches.values():
        old.close()
    _searches.clear()
    solver = _searches[search["id"]] = search["make"](searched, SearchSettings(workers=1),
                                                      board=VariableBoard(search["id"]))
    solver.space.penalize(search["penalty"])
    if seed is not None and len(seed):
        solver.restore(seed)
    return solver


def build_description(context) -> dict:
    """What a cluster's worker needs to expand a heuristic build's subtrees (see ``run_build_job``):
    the build's context, made there once, without a whole matrix where this one has none."""
    import uuid

    from guesstree import player

    scorer = context.scorer
    return {"id": uuid.uuid4().hex, "version": player.__version__, "game": repr(context.game),
            "recipe": context.portable_recipe(whole=None if scorer.matrix is not None else False),
            "fingerprint": fingerprint(context.game, scorer.guess_codes, scorer.secret_codes)}


_builds: dict = {}  # in a worker: the context of the build it works for


def run_build_job(build: dict, call, seed):
    """A job of a heuristic build on a cluster's worker: ``function(context, *arguments)`` for
    ``call = (function, arguments)``, over this build's context (made on the first job, or with
    ``call`` None). Returns ``(result, None, 0, seconds)``, as ``run_job`` does."""
    with _lock:
        context = _builds.get(build["id"])
        if context is None:
            context = _made(build, build["recipe"], lambda made: fingerprint(
                made.game, made.scorer.guess_codes, made.scorer.secret_codes))
            _builds.clear()
            _builds[build["id"]] = context
        if call is None:
            return None
        started = time.perf_counter()
        function, arguments = call
        return function(context, *arguments), None, 0, time.perf_counter() - started


def _made(description: dict, recipe: tuple, fingerprint_of: Callable):
    """What ``recipe`` makes on this worker (a search's game, a build's context), or a ``Refused``:
    another guesstree here, or another game made from the same description."""
    from guesstree import player

    if description["version"] != player.__version__:
        raise Refused(f"the worker at {worker_address()} runs guesstree {player.__version__}, this client "
                      f"guesstree {description['version']}: install the same version on every machine")
    setup, arguments = recipe
    try:
        made = setup(*arguments)
    except ValueError as error:
        raise Refused(f"the worker at {worker_address()} cannot make the game {description['game']}: {error}") \
            from None
    if fingerprint_of(made) != description["fingerprint"]:
        raise Refused(f"the worker at {worker_address()} makes another game than {description['game']} from the "
                      "same description (another version of its plugin or word lists?)")
    return made


class DaskMap:
    """A heuristic build's jobs on the cluster at ``where``, as ``pool.WorkerPool`` runs them on
    this machine: ``map_unordered(function, jobs)`` gives ``(index, function(context, *job))`` as
    each job finishes, ``context`` the build's, made once on each worker (``build_description``)."""

    reporter = None  # a cluster's job tells nothing until it is done

    def __init__(self, where: str, context):
        self.jobs = DaskJobs(where, build_description(context), lambda *effort: None, np.zeros(0, np.int64),
                             run=run_build_job)

    @property
    def slots(self) -> int:
        """Jobs the cluster runs at once (one per worker)."""
        return self.jobs.slots

    def map_unordered(self, function: Callable, jobs: list, progress: Callable | None = None):
        """(``progress``: not called; a cluster's job tells nothing until it is done.)"""
        waiting, running = list(enumerate(jobs))[::-1], {}
        while waiting or running:
            while waiting and len(running) < self.jobs.capacity:
                index, arguments = waiting.pop()
                running[self.jobs.submit((function, arguments))] = index
            for handle in self.jobs.finished(list(running), timeout=1.0):
                index = running.pop(handle)
                yield index, self.jobs.result(handle)

    def close(self) -> None:
        self.jobs.close()


class DaskJobs:
    """A search's jobs on the cluster at ``where`` (an address, or ``local:N`` for N worker processes
    started here): ``run(search, job, seed)`` (default ``run_job``) runs on a worker and returns
    ``(result, entries, nodes, seconds)``; ``absorb(entries, nodes, seconds)`` takes the rest in the client."""

    def __init__(self, where: str, search: dict, absorb: Callable, seed: np.ndarray, run: Callable = None):
        self._run = run or run_job
        try:
            import distributed
        except ImportError:
            raise ClusterError(f"--cluster needs Dask: pip install '{EXTRA}'") from None
        self._distributed, self._search, self._absorb = distributed, search, absorb
        self._local = self._scratch = None
        self.where = where
        # Dask's own logs (a connection retried, a scheduler gone) stay out of the user's terminal:
        # what matters reaches the user as a ClusterError
        self._levels = _silence("distributed")
        try:
            self.client = self._connect(where)
        except BaseException:
            _restore(self._levels)
            raise
        self.board = VariableBoard(search["id"], self.client)
        self.board.write((-1, 0, 0, 0))  # posted at once: a worker's read never waits for it
        self.dashboard = self._dashboard()
        try:
            self.client.wait_for_workers(1, timeout=WORKER_SECONDS)
        except (TimeoutError, OSError):
            self.close()
            raise ClusterError(f"the Dask scheduler at {where} has no workers (none joined in {WORKER_SECONDS} s)") \
                from None
        self.slots, self._counted = self._workers(), time.monotonic()
        self._seed = self.client.scatter(seed, broadcast=True) if len(seed) else None
        self._sent = 0
        self._prepare()

    def _connect(self, where: str):
        distributed = self._distributed
        if where.startswith(LOCAL):
            count = where[len(LOCAL):]
            if not count.isdigit() or int(count) < 1:
                raise ClusterError(f"--cluster {where}: local:N needs a number of worker processes, e.g. local:2")
            import dask

            self._scratch = tempfile.mkdtemp(prefix="guesstree-dask-")  # its servers' folders, removed by close
            # spawned workers need nothing from the main module (see pool.py)
            with main_unseen(), dask.config.set({"temporary-directory": self._scratch}):
                self._local = distributed.LocalCluster(
                    n_workers=int(count), threads_per_worker=1, processes=True, host="127.0.0.1",
                    dashboard_address="127.0.0.1:0", silence_logs=logging.ERROR, preload=[__name__])
            return distributed.Client(self._local)
        if "://" not in where and ":" not in where:
            raise ClusterError(f"--cluster {where}: give a scheduler's address (tcp://HOST:PORT) or local:N")
        try:
            return distributed.Client(where, timeout=f"{CONNECT_SECONDS}s")
        except (OSError, TimeoutError, ValueError) as error:
            reason = str(error).splitlines()[0] if str(error) else type(error).__name__
            raise ClusterError(f"cannot reach the Dask scheduler at {where}: {reason}") from None

    def _dashboard(self) -> str | None:
        try:
            return self.client.dashboard_link if self.client.scheduler_info().get("services", {}).get("dashboard") \
                else None
        except Exception:
            return None

    def _workers(self) -> int:
        """Jobs at once: one per worker (a worker runs one job at a time; more threads do not help)."""
        return max(1, len(self.client.scheduler_info().get("workers", {})))

    def _prepare(self) -> None:
        """Each worker makes the search's game and solver before the first job, or refuses it:
        a worker that runs another guesstree (or none), or makes another game, is refused before
        the search starts."""
        ready = [self.client.submit(self._run, self._search, None, self._seed, pure=False, workers=[worker],
                                    allow_other_workers=True, key=f"ready-guesstree-{self._search['id'][:12]}-{i}")
                 for i, worker in enumerate(sorted(self.client.scheduler_info().get("workers", {})))]
        try:
            self._wait(ready, timeout=None)
            for future in ready:
                try:
                    self.result(future)
                except (ClusterError, KeyboardInterrupt, MemoryError):
                    raise
                except Exception as error:  # e.g. guesstree not importable there: the job cannot even start
                    from guesstree import player

                    raise Refused(f"a worker of {self.where} cannot run guesstree's jobs ({type(error).__name__}: "
                                  f"{error}): install '{EXTRA}' of guesstree {player.__version__} on every worker") \
                        from None
        except BaseException:
            self.close()
            raise

    def _wait(self, handles: list, timeout: float | None, **settings) -> None:
        """Until ``handles`` are done (or failed), or for ``timeout`` seconds; what failed is told by ``result``."""
        try:
            self._distributed.wait(handles, timeout=timeout, **settings)
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException:  # a timeout, or jobs cancelled (a CancelledError: the scheduler gone)
            pass

    def submit(self, job):
        self._sent += 1
        return self.client.submit(self._run, self._search, job, self._seed, pure=False,
                                  key=f"guesstree-{self._search['id'][:12]}-{self._sent}")

    @property
    def capacity(self) -> int:
        """Jobs sent at once: a few per worker, so that none waits for the client between jobs
        (a job reads the best total when it starts, so its cutoff is as fresh as if sent then)."""
        return self.slots * JOBS_PER_WORKER

    def finished(self, handles: list, timeout: float) -> list:
        """The handles that finished (or failed) within ``timeout`` seconds."""
        self._wait(handles, timeout, return_when="FIRST_COMPLETED")
        done = [h for h in handles if h.status != "pending"]
        if self.client.status not in ("running", "connecting", "newly-created"):
            raise self._lost()
        if time.monotonic() - self._counted > 5:  # workers that joined (or left) since
            with contextlib.suppress(Exception):
                self.slots, self._counted = self._workers(), time.monotonic()
        return done

    def result(self, handle, timeout: float | None = None):
        """A finished job's value (its effort given to ``absorb``), within ``timeout`` seconds."""
        status = handle.status
        if status == "finished":
            try:
                outcome = handle.result(timeout)  # if its worker died since, Dask computes it again
            except (KeyboardInterrupt, SystemExit):
                raise
            except TimeoutError:  # (an OSError, but the scheduler is there: the worker is busy)
                raise
            except BaseException as error:  # a CancelledError, or the connection closed: the scheduler gone
                if isinstance(error, OSError) or self.client.status != "running":
                    raise self._lost() from None
                reason = str(error).splitlines()[0] if str(error) else type(error).__name__
                raise ClusterError(f"the cluster at {self.where} lost a finished job's result ({reason})") from None
            if outcome is None:  # a worker made ready
                return None
            value, *effort = outcome
            self._absorb(*effort)
            return value
        if status == "error":
            error = handle.exception()
            if isinstance(error, ClusterError):
                raise type(error)(str(error)) from None
            if type(error).__name__ == "KilledWorker":
                raise ClusterError(f"a job of the search killed every worker that ran it ({error}): out of memory "
                                   "on the workers?") from None
            raise error
        if self.client.status != "running":
            raise self._lost()
        raise ClusterError(f"the Dask scheduler at {self.where} dropped a job ({status})")

    def _lost(self) -> ClusterError:
        return ClusterError(f"lost the Dask scheduler at {self.where} in the middle of the search")

    def close(self) -> None:
        """Let the cluster go; a local cluster's workers (ours, holding nothing) are ended by their
        process ids first: one inside a compiled search answers no polite close for a second or more."""
        with contextlib.suppress(Exception):
            self.client.close(timeout=5)
        if self._local is not None:
            for pid in _worker_pids(self._local):
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            with contextlib.suppress(Exception):
                self._local.close(timeout=5)
            self._local = None
        if self._scratch is not None:
            shutil.rmtree(self._scratch, ignore_errors=True)
            self._scratch = None
        _restore(self._levels)


def _worker_pids(local) -> list[int]:
    """The process ids of a ``LocalCluster``'s workers (each nanny's process)."""
    pids = []
    for nanny in list(getattr(local, "workers", {}).values()):
        with contextlib.suppress(AttributeError):
            pids.append(nanny.process.process.pid)
    return [pid for pid in pids if pid]


def _silence(prefix: str) -> dict:
    """Raise every logger named ``prefix``* (made when Dask was imported) to CRITICAL; their levels before."""
    names = [name for name in logging.root.manager.loggerDict if name == prefix or name.startswith(prefix + ".")]
    levels = {name: logging.getLogger(name).level for name in names}
    for name in names:
        logging.getLogger(name).setLevel(logging.CRITICAL)
    return levels


def _restore(levels: dict) -> None:
    for name, level in levels.items():
        logging.getLogger(name).setLevel(level)

"""How an exhaustive search runs, apart from what it searches: its threads, its checkpoint, its
progress display and where its jobs run (this machine, or a Dask cluster). The command line makes
one from its flags and hands it to ``build``; the exhaustive strategy's ``prepared`` gives it to
the solver it starts."""
from __future__ import annotations

import os
from dataclasses import dataclass
from collections.abc import Callable

SCHEDULER_VARIABLE = "DASK_SCHEDULER_ADDRESS"  # Dask's own: the scheduler a client connects to by default


@dataclass(frozen=True)
class SearchSettings:
    """``workers``: threads (default one per core); ``checkpoint``: the file that keeps the search's
    work (read first if ``resume``); ``progress``: called with a status dict now and then;
    ``cluster``: a Dask scheduler's address, or local:N (``compiler/workers/cluster.py``); ``slots``: the
    transposition table's entries."""

    workers: int | None = None
    checkpoint: str | os.PathLike | None = None
    resume: bool = False
    progress: Callable[[dict], None] | None = None
    cluster: str | None = None
    slots: int | None = None  # the transposition table's entries (default: by the memory budget)

    def __post_init__(self):
        workers = self.workers
        if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
            raise ValueError(f"--workers must be a whole number of at least 1, not {workers!r}")
        if self.resume and self.checkpoint is None:
            raise ValueError("--resume needs --checkpoint FILE")

    @property
    def given(self) -> bool:
        """Does it ask for more than a search's defaults (threads, a checkpoint, a resume, a cluster)?"""
        return self.workers is not None or self.checkpoint is not None or self.resume or self.cluster is not None

    @property
    def cluster_address(self) -> str | None:
        """``cluster``, else the one ``$DASK_SCHEDULER_ADDRESS`` names, else None."""
        return self.cluster or os.environ.get(SCHEDULER_VARIABLE) or None

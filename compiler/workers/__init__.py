"""Where long work runs, apart from what it computes: ``settings.py`` how it runs
(``SearchSettings``: threads or processes, checkpoint, progress, cluster), ``pool.py`` spawned
worker processes, ``shared.py`` arrays in shared memory that they read, ``cluster.py`` jobs on a
Dask cluster (imported only for ``--cluster``). The floor under the engine, the search and the
builder: nothing here imports them. Nothing is imported here."""

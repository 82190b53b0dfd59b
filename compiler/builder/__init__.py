"""The heuristic builder: a strategy expanded over every secret into a tree, breadth first.
``runner.py`` builds it (``build``), here or its first guess's subtrees as jobs on one of three
runners (this process, worker processes, a Dask cluster); ``expand.py`` the expansion below a node
and the jobs; ``plan.py`` how the work is laid out and what it will take (``estimate.py``, whose
model is documented there); ``context.py`` what strategies may ask at a node (``BuildContext``);
``tree.py`` the built tree (``Built``); ``spool.py`` finished subtrees on disk (the build's
checkpoint); ``writer.py`` the artifact. Nothing is imported here."""

"""The exhaustive search, with proof: optimal trees (``optimal-worst``, ``optimal-expected``,
``fewest-at-worst``) and the optimal worst case (``guesstree bound``). fewest-at-worst is the
least-total search with a penalty on every secret won by the budget's last guess
(``Problem.penalty``, ``Solver._penalize``). Its rooms, from the top down:

- ``solver.py``: the search of one game, run (``Solver``): the
  answers with their proofs, jobs on threads or a cluster, progress, Ctrl-C, checkpoints
  (``checkpoint.py``, the file); ``workers/settings.py`` how it runs (``SearchSettings``: threads,
  checkpoint, progress, cluster), and ``dispatch.py`` the one policy of where its jobs run, chosen
  once (here, threads, a cluster), which picks how a node's guesses are weighed (``weighing.py``);
- ``total.py`` and ``worst.py``: the top two levels' branch and bound (least total; fewest
  guesses in the worst case), ``choice.py`` their bookkeeping at a node, ``proof.py`` what they
  proved and its sentence, ``jobs.py`` the jobs they hand out and the backends that run them;
- ``ranking.py``: the ranking of the first guesses (the root's branch and bound with the K-th
  best total as its cutoff, by rising effort), which the full proof's root uses too, and
  ``standings.py`` what it found and how that is said;
- ``space.py``: the game as the searches see it (``SearchedGame``: its arrays, ``GameArrays``, and
  what may be played; the counting tables, the table, a node's guesses and key, and the one rule
  that weighs a guess's parts, ``Space.weigh``), which builds the compiled searches'
  ``problem.Problem``;
- compiled (numba): ``recursion.py`` (``min_total``, ``within``) over ``partitions.py`` (how
  guesses split candidates), ``alike.py`` (guesses that count once), ``counting.py`` (bounds by
  counting), ``hint_kernels.py`` (hard mode's rule) and ``table.py`` (the transposition table);
- a weighted game (``Game.weights``): ``weighted_search.py`` (``WeightedSearch``, which the solver
  runs instead of ``total.py`` for the least weighted total) over the compiled ``weighted.py``.

An exhaustive strategy's ``prepared`` (``compiler/strategies.py``) starts the search a build
needs, gives the strategy that plays its tree (``Solved``, which holds the solver) while the build
runs and closes the solver when it ends; the other
library calls that start one are in ``compiler/exact.py`` (``bound``, ``rank_openers``,
``rank_of``, ``solving``); a cluster's worker makes the game from its recipe
(``SearchedGame.recipe``) and runs the jobs through ``compiler/workers/cluster.py``. Nothing is imported here, so
that a module of this package loads only what it needs.
"""

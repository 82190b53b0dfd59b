"""guesstree's offline compiler: expand a strategy's whole tree and write it as an artifact.

    from guesstree.compiler import Options, build, save
    save(build(make_game("mastermind"), Options("entropy")), "mm.msgpack.zst")
    # an exact tree, its search keeping a checkpoint:
    build(make_game("mastermind"), Options("optimal-expected"), search=SearchSettings(checkpoint="mm.ckpt"))

The names below are loaded on first use, so that ``guesstree.compiler.cli`` (the compiler's commands in
the one ``guesstree`` program) imports without numpy and numba.
"""
from importlib import import_module

_HOMES = {"Built": "builder.tree", "build": "builder.runner", "plan": "builder.runner", "Options": "options",
          "save": "builder.writer", "to_bytes": "builder.writer", "STRATEGIES": "strategies", "get_strategy": "strategies",
          "SearchSettings": "workers.settings", "bound": "exact", "rank_openers": "exact", "rank_of": "exact",
          "solving": "exact", "compare": "compare", "register": "engine.kinds"}

__all__ = list(_HOMES)


def __getattr__(name: str):
    if name not in _HOMES:
        raise AttributeError(f"module 'guesstree.compiler' has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{_HOMES[name]}"), name)

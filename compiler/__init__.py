"""guesstree's offline compiler: expand a strategy's whole tree and write it as an artifact.

    from guesstree.compiler import Options, build, save
    save(build(make_game("mastermind"), Options("entropy")), "mm.msgpack.zst")
    # an exact tree, its search keeping a checkpoint:
    build(make_game("mastermind"), Options("optimal-expected"), search=SearchSettings(checkpoint="mm.ckpt"))

The names below are loaded on first use, so that ``guesstree.compiler.cli`` (the compiler's commands in
the one ``guesstree`` program) imports without numpy and numba.
"""
from importlib import import_module

_HOMES = {"Built": "builder", "build": "builder", "Options": "options", "save": "writer", "to_bytes": "writer",
          "STRATEGIES": "strategies", "get_strategy": "strategies", "SearchSettings": "search.settings"}

__all__ = list(_HOMES)


def __getattr__(name: str):
    if name not in _HOMES:
        raise AttributeError(f"module 'guesstree.compiler' has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{_HOMES[name]}"), name)

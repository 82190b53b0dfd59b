"""How numba starts in guesstree's own processes (a command's, its workers'): without its cffi
typing (``numba_without_cffi``). No kernel of ours takes a cffi function, and where cffi is
installed (the test extras bring it) numba's first kernel load makes a ``cffi.FFI()``, which loads
cffi's C parser: 34 to 43 ms of a one-second command. Nothing here imports numba.
"""
from __future__ import annotations

import importlib.abc
import importlib.util
import sys


class _WithoutCffi(importlib.abc.MetaPathFinder):
    """Finds numba's cffi typing module once, and has it load while ``import cffi`` fails (its
    ``SUPPORTED`` is then False); cffi is importable again as soon as it has loaded."""

    MODULE = "numba.core.typing.cffi_utils"

    def find_spec(self, name, path, target=None):
        if name != self.MODULE:
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        load = spec.loader.exec_module

        def exec_module(module) -> None:
            held = sys.modules.get("cffi")
            sys.modules["cffi"] = None  # (None in sys.modules: the import raises ImportError)
            try:
                load(module)
            finally:
                if held is None:
                    del sys.modules["cffi"]
                else:
                    sys.modules["cffi"] = held

        spec.loader.exec_module = exec_module
        return spec


def numba_without_cffi() -> None:
    """In this process, numba's cffi typing loads without cffi, when numba loads it. Nothing is
    loaded here; once numba has loaded it, or where another finder already waits, nothing is done."""
    if _WithoutCffi.MODULE not in sys.modules and not any(isinstance(f, _WithoutCffi) for f in sys.meta_path):
        sys.meta_path.insert(0, _WithoutCffi())

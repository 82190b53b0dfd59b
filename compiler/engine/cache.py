"""Where numba caches this package's compiled kernels, from which sources and for which machine:
what ``warm.py`` stamps its cache with, and ``builder/speed.py`` keys its measures by.
"""
from __future__ import annotations

import hashlib
import os
import platform
import re
from pathlib import Path

from guesstree import player

STAMP = "guesstree-warm.json"
ROOT = Path(__file__).resolve().parent.parent  # the compiler's package
KERNEL = re.compile(r"^@njit", re.M)  # a module that defines compiled kernels, which numba caches


def stamp_path() -> Path:
    """Where numba caches this package's kernels: ``NUMBA_CACHE_DIR``, else ``__pycache__`` beside
    the sources when it can be written, else the user's cache folder (as numba decides)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"]) / STAMP
    beside = ROOT / "__pycache__"
    if os.access(beside if beside.exists() else beside.parent, os.W_OK):
        return beside / STAMP
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "guesstree" / STAMP


def kernel_sources(root: Path = ROOT) -> list[Path]:
    """The package's modules that define compiled kernels, in order."""
    return sorted(path for path in root.rglob("*.py") if KERNEL.search(path.read_text(encoding="utf-8")))


def kernels_digest(root: Path = ROOT) -> str:
    """The sha256 of every kernel source, with its path in the package."""
    digest = hashlib.sha256()
    for path in kernel_sources(root):
        source = path.read_bytes()
        digest.update(f"{path.relative_to(root).as_posix()}\0{len(source)}\0".encode() + source)
    return digest.hexdigest()


def machine() -> dict:
    """What ``warm`` compiled for: numba keys its cache by these too, so this only says whether
    ``warm.warmed`` (the tests' check), never whether a cached kernel may run."""
    import llvmlite.binding
    import numba

    return {"guesstree": player.__version__, "python": platform.python_version(), "numba": numba.__version__,
            "cpu": llvmlite.binding.get_host_cpu_name(), "machine": platform.machine()}


def cold(module: str) -> bool:
    """Does numba's cache hold no kernel of ``module`` (a compiler module, e.g. ``search.recursion``)
    yet, so that its first call here compiles? Loads numba and the module."""
    import importlib

    from numba.core.dispatcher import Dispatcher

    kernels = vars(importlib.import_module(f"guesstree.compiler.{module}")).values()
    folders = {Path(k.stats.cache_path) for k in kernels if isinstance(k, Dispatcher) and k.stats.cache_path}
    stem = module.rsplit(".", 1)[-1]
    return not any(next(folder.glob(f"{stem}.*.nbi"), None) for folder in folders)

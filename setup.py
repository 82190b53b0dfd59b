"""Compile ahead at install (see compiler/warm.py); everything else is in pyproject.toml."""
import os
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildAndCompileAhead(build_py):
    """build_py, then the compiler's kernels compiled into numba's cache beside the sources that
    will run: the checkout for an editable install, else the build folder that becomes the wheel.
    A failure here costs only speed (the kernels compile at first use), never the install."""

    def run(self) -> None:
        super().run()
        if os.environ.get("GUESSTREE_COMPILE_AHEAD", "1") == "0":
            return
        root = Path(__file__).resolve().parent if self.editable_mode else Path(self.build_lib).resolve()
        env = dict(os.environ)
        if not self.editable_mode:  # the cache goes into the wheel, not where this machine keeps its own
            env.pop("NUMBA_CACHE_DIR", None)
            for stale in (root / "compiler" / "__pycache__").glob("*.nb[ic]"):  # an earlier build's, in build/
                stale.unlink()
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(root), env.get("PYTHONPATH")]))  # pip's build env too
        try:
            done = subprocess.run([sys.executable, "-m", "compiler.warm"], cwd=root, env=env, timeout=900)
        except (OSError, subprocess.TimeoutExpired) as error:
            print(f"guesstree: not compiled ahead ({error}); kernels compile at first use", file=sys.stderr)
            return
        if done.returncode != 0:
            print("guesstree: not compiled ahead (see above); kernels compile at first use", file=sys.stderr)


setup(cmdclass={"build_py": BuildAndCompileAhead})

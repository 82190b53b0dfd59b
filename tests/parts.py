"""A part of the project that cannot be tested here: skipped where a system package is missing, so
that the README's test command passes on a new machine and its summary names the part and the one
command that brings it (tests/conftest.py); under CI (``CI`` set, as ``.ci/run`` is run), where
every package is installed, the same absence fails the run instead of leaving a part untested."""
from __future__ import annotations

import os

import pytest


def missing(reason: str) -> None:
    """Skip the test (the module, at its top level) for ``reason``, which names what is missing and
    how to install it; fail it in CI."""
    if os.environ.get("CI", "").lower() not in ("", "0", "false"):
        pytest.fail(f"CI runs every part, but {reason}", pytrace=False)
    pytest.skip(reason, allow_module_level=True)

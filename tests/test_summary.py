"""The end of a test run says what it did not run: the slow tests it deselected, and each skipped
part with its reason (tests/conftest.py's summary)."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).parent


@pytest.mark.parametrize("workers", ["0", "2"])  # one process, and pytest-xdist's workers (the default run's)
def test_the_summary_counts_the_slow_tests_and_names_each_skip(tmp_path, workers):
    shutil.copy(TESTS / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "test_parts.py").write_text(
        "import pytest\n\n"
        "def test_quick():\n    assert 1 + 1 == 2\n\n"
        "@pytest.mark.slow\ndef test_long_one():\n    pass\n\n"
        "@pytest.mark.slow\ndef test_long_two():\n    pass\n\n"
        "def test_needs_a_widget():\n    pytest.skip('no widget here (apt-get install widget)')\n")
    ran = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "not slow", "-n", workers,
                          "-W", "ignore::pytest.PytestUnknownMarkWarning", str(tmp_path)],
                         cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    lines = ran.stdout.splitlines()
    assert "2 long tests not run (marked slow): run `python -m pytest -m slow` (about 10 to 20 minutes on 2 cores) " \
           "or `.ci/run`, which runs every test" in lines
    assert "1 test skipped: no widget here (apt-get install widget)" in lines
    assert ("1 passed, 1 skipped, 2 deselected" if workers == "0" else "1 passed, 1 skipped") in ran.stdout

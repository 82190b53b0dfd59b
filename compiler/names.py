"""The strategies by name, with one line each on what they play: what the command line offers and
lists without importing numpy (``strategies.py`` gives each name its behaviour)."""
from __future__ import annotations

STRATEGY_DOCS = {
    "first": "the first consistent candidate in canonical order (Shapiro)",
    "random": "a uniformly random consistent candidate (--seed)",
    "entropy": "maximise the partition's Shannon entropy (Neuwirth)",
    "worst-entropy": "minimise entropy among guesses that make progress",
    "sampled-entropy": "maximise entropy over sampled guesses scored on sampled secrets (--seed)",
    "minimax": "minimise the largest part (Knuth)",
    "most-parts": "maximise the number of parts (Kooi)",
    "expected-size": "minimise the expected part size (Irving)",
    "optimal-worst": "a tree of the fewest guesses in the worst case (branch and bound, with proof)",
    "optimal-expected": "a tree of the fewest guesses in total (exhaustive, with proof; --max-depth)",
}

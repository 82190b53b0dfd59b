"""What decides a tree: the strategy and its settings (and, not deciding it, how fast it is built)."""
from __future__ import annotations

import re
from dataclasses import dataclass

from .strategies import get_strategy

ENGINES = ("fast", "numba", "numpy", "reference")  # fast: numpy kernels for small games, numba for the rest
DEFAULT_MAX_MEMORY = 8 << 30


@dataclass(frozen=True)
class Options:
    """Everything that decides the tree (``engine`` and ``max_memory`` decide only how it is built)."""

    strategy: str = "entropy"
    candidates: str = "all"  # "all" allowed guesses, or only "consistent" ones
    seed: int = 0
    guess_sample: int = 500
    secret_sample: int = 1000
    engine: str = "fast"
    max_memory: int = DEFAULT_MAX_MEMORY
    first: str | None = None  # a fixed opening guess, as the game writes it
    max_depth: int | None = None  # optimal-expected: the most guesses any secret may take
    openers: int | None = None  # optimal-expected: search only the first guesses that rank best by the heuristic

    def __post_init__(self):
        strategy = get_strategy(self.strategy)
        if self.candidates not in ("all", "consistent"):
            raise ValueError(f"--candidates must be 'all' or 'consistent', not {self.candidates!r}")
        if not strategy.any_guess and self.candidates != "consistent":
            object.__setattr__(self, "candidates", "consistent")  # first/random only play candidates
        if self.engine not in ENGINES:
            raise ValueError(f"unknown engine: {self.engine!r}; choose from {', '.join(ENGINES)}")
        for name in ("guess_sample", "secret_sample"):
            if getattr(self, name) < 1:
                raise ValueError(f"--{name.replace('_', '-')} must be at least 1")
        if not 0 <= self.seed < 2**63:
            raise ValueError(f"--seed must be a whole number from 0 to 2**63-1, not {self.seed}")
        if self.max_depth is not None:
            if self.strategy != "optimal-expected":
                raise ValueError("--max-depth applies to --strategy optimal-expected only")
            if isinstance(self.max_depth, bool) or not isinstance(self.max_depth, int) or self.max_depth < 1:
                raise ValueError(f"--max-depth must be a whole number of at least 1, not {self.max_depth!r}")

        if self.openers is not None:
            if self.strategy != "optimal-expected":
                raise ValueError("--openers applies to --strategy optimal-expected only")
            if self.first is not None:
                raise ValueError("--openers and --first exclude each other: --first fixes the one opener")
            if isinstance(self.openers, bool) or not isinstance(self.openers, int) or self.openers < 1:
                raise ValueError(f"--openers must be a whole number of at least 1, not {self.openers!r}")

    @property
    def exhaustive(self) -> bool:
        """Does the strategy search the whole game before the tree is built (the optimal ones)?"""
        return get_strategy(self.strategy).exhaustive

    def spec(self) -> dict:
        """The strategy as the artifact records it: only what changes the tree."""
        strategy = get_strategy(self.strategy)
        spec = {"name": self.strategy, "candidates": self.candidates}
        if strategy.randomised:
            spec["seed"] = self.seed
        if strategy.sampled:
            spec["guess_sample"] = self.guess_sample
            spec["secret_sample"] = self.secret_sample
        if self.first is not None:
            spec["first"] = self.first
        if self.max_depth is not None:
            spec["max_depth"] = self.max_depth
        if self.openers is not None:
            spec["openers"] = self.openers
        return spec

    def slug(self) -> str:
        """The strategy's part of a default file name: every setting that changes the tree."""
        spec = self.spec()
        parts = [spec["name"]]
        if spec["candidates"] == "consistent" and get_strategy(self.strategy).any_guess:
            parts.append("consistent")
        if "seed" in spec:
            parts.append(f"seed{spec['seed']}")
        if "guess_sample" in spec and (self.guess_sample, self.secret_sample) != (500, 1000):
            parts.append(f"g{self.guess_sample}-s{self.secret_sample}")
        if self.first is not None:
            parts.append("first-" + (re.sub(r"[^A-Za-z0-9]+", "", self.first).lower() or "x"))
        if "max_depth" in spec:
            parts.append(f"depth{spec['max_depth']}")
        if "openers" in spec:
            parts.append(f"openers{spec['openers']}")
        return "-".join(parts)

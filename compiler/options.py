"""What decides a tree: the strategy and its settings (and, not deciding it, how fast it is built)."""
from __future__ import annotations

import re
from dataclasses import dataclass

from .catalogue import DEFAULT_MAX_TIME, SETTINGS
from .strategies import Strategy, get_strategy

ENGINES = ("fast", "numba", "numpy", "reference")  # fast: numpy kernels for small games, numba for the rest
DEFAULT_MAX_MEMORY = 8 << 30


def check_candidates(candidates: str) -> None:
    """A ValueError naming ``--candidates``, unless it is "all" or "consistent"."""
    if candidates not in ("all", "consistent"):
        raise ValueError(f"--candidates must be 'all' or 'consistent', not {candidates!r}")


@dataclass(frozen=True)
class Options:
    """Everything that decides the tree (``engine``, ``max_memory``, ``max_time`` and ``force``
    decide only how it is built: a heuristic build estimated over ``max_time`` seconds, or over this
    machine's memory, is refused unless ``force``: ``estimate.py``).

    ``strategy`` is given by name or as a ``Strategy`` and held as the strategy; the settings
    after ``candidates`` are the strategies' (``catalogue.SETTINGS``: their defaults are there),
    each checked and recorded by the strategy that takes it."""

    strategy: Strategy = "entropy"
    candidates: str = "all"  # "all" allowed guesses, or only "consistent" ones
    seed: int = SETTINGS["seed"].default
    guess_sample: int = SETTINGS["guess_sample"].default
    secret_sample: int = SETTINGS["secret_sample"].default
    engine: str = "fast"
    max_memory: int = DEFAULT_MAX_MEMORY
    max_time: float | None = DEFAULT_MAX_TIME  # seconds (None: no limit)
    force: bool = False
    first: str | None = None  # a fixed opening guess, as the game writes it
    max_depth: int | None = None  # optimal-expected: the most guesses any secret may take
    openers: int | None = None  # optimal-expected: search only the first guesses that rank best by the heuristic

    def __post_init__(self):
        strategy = get_strategy(self.strategy)
        object.__setattr__(self, "strategy", strategy)
        check_candidates(self.candidates)
        object.__setattr__(self, "candidates", strategy.candidates(self.candidates))
        if self.engine not in ENGINES:
            raise ValueError(f"unknown engine: {self.engine!r}; choose from {', '.join(ENGINES)}")
        strategy.check(self)

    @classmethod
    def shared(cls, strategy: str | Strategy, **settings) -> Options:
        """Options of ``strategy`` from settings shared by several strategies (as ``compare`` gives
        every row the same ones): a strategy setting it does not take is left out, not refused."""
        strategy = get_strategy(strategy)
        return cls(strategy=strategy, **{key: value for key, value in settings.items()
                                         if (key not in SETTINGS or key in strategy.settings)
                                         # (an exhaustive search has no estimate: estimate.py)
                                         and not (strategy.is_exact and key in ("max_time", "force"))})

    @property
    def name(self) -> str:
        """The strategy's name."""
        return self.strategy.name

    def spec(self) -> dict:
        """The strategy as the artifact records it: only what changes the tree."""
        return {"name": self.name, "candidates": self.candidates, **self.strategy.record(self)}

    def slug(self) -> str:
        """The strategy's part of a default file name: every setting that changes the tree."""
        spec = self.spec()
        parts = [self.name]
        if self.candidates == "consistent" and self.strategy.candidates("all") == "all":
            parts.append("consistent")
        if "seed" in spec:
            parts.append(f"seed{spec['seed']}")
        samples = (SETTINGS["guess_sample"].default, SETTINGS["secret_sample"].default)
        if "guess_sample" in spec and (self.guess_sample, self.secret_sample) != samples:
            parts.append(f"g{self.guess_sample}-s{self.secret_sample}")
        if self.first is not None:
            parts.append("first-" + (re.sub(r"[^A-Za-z0-9]+", "", self.first).lower() or "x"))
        if "max_depth" in spec:
            parts.append(f"depth{spec['max_depth']}")
        if "openers" in spec:
            parts.append(f"openers{spec['openers']}")
        return "-".join(parts)

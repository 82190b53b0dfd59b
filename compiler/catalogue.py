"""What the command line offers of the strategies, without importing numpy: each name with one
line on what it plays and the settings it takes, and every setting's default, flag and check.
``strategies.py`` gives each name its behaviour; ``options.py`` holds the settings of one build;
the command line declares its flags from ``SETTINGS`` (so each default is written here only).
"""
from __future__ import annotations

from dataclasses import dataclass


DEFAULT_MAX_TIME = 6 * 3600.0  # seconds: --max-time's default


@dataclass(frozen=True)
class Setting:
    """A strategy's setting: its default, the ``--flag``'s metavar and help, and the least value."""

    default: object
    metavar: str
    help: str
    least: int | None = 1  # a whole number of at least this (None: text, checked by the strategy)
    most: int | None = None

    def check(self, name: str, value) -> None:
        """A ValueError that names the flag, unless ``value`` is one this setting takes."""
        if self.least is None or value is None:
            return
        whole = isinstance(value, int) and not isinstance(value, bool)
        if not whole or value < self.least or (self.most is not None and value > self.most):
            span = f"from {self.least} to {self.most_said()}" if self.most is not None else f"of at least {self.least}"
            raise ValueError(f"{flag(name)} must be a whole number {span}, not {value!r}")

    def most_said(self) -> str:
        return "2**63-1" if self.most == 2**63 - 1 else str(self.most)


def flag(name: str) -> str:
    """A setting's flag: ``max_depth`` -> ``--max-depth``."""
    return "--" + name.replace("_", "-")


# In the order an artifact records them (a header's strategy keeps it byte for byte).
SETTINGS = {
    "seed": Setting(0, "N", "seed of the randomised strategies", least=0, most=2**63 - 1),
    "guess_sample": Setting(500, "N", "sampled-entropy: guesses scored per node"),
    "secret_sample": Setting(1000, "N", "sampled-entropy: secrets each guess is scored on"),
    "first": Setting(None, "GUESS", "fix the opening guess (e.g. ABCD, 0123, salet); the strategy plays the rest",
                     least=None),
    "max_depth": Setting(None, "N", "optimal-expected: the most guesses any secret may take"),
    "openers": Setting(None, "K", "optimal-expected: search only the K first guesses that the game's heuristic "
                                  "ranks best (optimal among them, recorded so)"),
}
EVERY_STRATEGY = ("first",)  # the settings that every strategy takes

# name -> (what it plays, the settings it takes beside EVERY_STRATEGY's)
STRATEGIES = {
    "first": ("the first consistent candidate in canonical order (Shapiro)", ()),
    "random": ("a uniformly random consistent candidate (--seed)", ("seed",)),
    "entropy": ("maximise the partition's Shannon entropy (Neuwirth)", ()),
    "worst-entropy": ("minimise entropy among guesses that make progress", ()),
    "sampled-entropy": ("maximise entropy over sampled guesses scored on sampled secrets (--seed)",
                        ("seed", "guess_sample", "secret_sample")),
    "minimax": ("minimise the largest part (Knuth)", ()),
    "most-parts": ("maximise the number of parts (Kooi)", ()),
    "expected-size": ("minimise the expected part size (Irving)", ()),
    "optimal-worst": ("a tree of the fewest guesses in the worst case (branch and bound, with proof)", ()),
    "optimal-expected": ("a tree of the fewest guesses in total (exhaustive, with proof; --max-depth)",
                         ("max_depth", "openers")),
    "fewest-at-worst": ("the fewest guesses in the worst case, then the fewest secrets that need them, then the "
                        "fewest in total (exhaustive, with proof)", ()),
}


# the strategies by the authors who published them (the README names them so): --strategy knuth
ALIASES = {"shapiro": "first", "neuwirth": "entropy", "knuth": "minimax", "kooi": "most-parts",
           "irving": "expected-size", "koyama-lai": "optimal-expected"}


def canonical(name: str) -> str:
    """A strategy's name, from its name or an author's (``ALIASES``); a ValueError that lists the
    names, with the closest ones first ("did you mean ..."), for any other."""
    if name in STRATEGIES:
        return name
    lowered = name.strip().lower()
    if lowered in STRATEGIES or lowered in ALIASES:
        return ALIASES.get(lowered, lowered)
    import difflib

    close = difflib.get_close_matches(lowered, [*STRATEGIES, *ALIASES], n=3, cutoff=0.6)
    close = list(dict.fromkeys(f"{c} ({ALIASES[c]})" if c in ALIASES else c for c in close))
    if close:
        raise ValueError(f"unknown strategy: {name!r}; did you mean {' or '.join(close)}? (guesstree list shows "
                         "them all)")
    raise ValueError(f"unknown strategy: {name!r}; choose from {', '.join(STRATEGIES)}, or by author: "
                     f"{', '.join(f'{a} ({n})' for a, n in ALIASES.items())}")


def settings_of(name: str) -> tuple[str, ...]:
    """The settings strategy ``name`` takes, in the order an artifact records them."""
    taken = set(STRATEGIES[name][1]) | set(EVERY_STRATEGY)
    return tuple(key for key in SETTINGS if key in taken)


def takers(setting: str) -> list[str]:
    """The strategies that take ``setting``."""
    return [name for name in STRATEGIES if setting in settings_of(name)]

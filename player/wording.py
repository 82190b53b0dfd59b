"""Counts, sizes and times in messages, worded as English has them: ``counted(1, "secret")`` is
"1 secret", ``size(3 << 30)`` "3.0 GiB", ``duration(5400)`` "90 min"; and the times people type
(``parse_duration("20m")``)."""
from __future__ import annotations

import re

UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and ``noun``, made plural unless ``n`` is 1 (``plural`` when adding -s is wrong)."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def size(nbytes: float) -> str:
    """A memory size for people: ``512 bytes``, ``3.5 KiB``, ``1.2 GiB``, ``21.2 PiB``."""
    for unit, scale in (("EiB", 1 << 60), ("PiB", 1 << 50), ("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20),
                        ("KiB", 1 << 10)):
        if nbytes >= scale:
            return f"{nbytes / scale:.1f} {unit}"
    return f"{int(nbytes)} bytes"


def duration(seconds: float) -> str:
    """A time for people: ``45 s``, ``12 min``, ``3.5 h``, ``9.2 days``."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    if seconds < 48 * 3600:
        return f"{seconds / 3600:.1f} h"
    if seconds < 1000 * 86400:
        return f"{seconds / 86400:.1f} days"
    return f"{seconds / (365.25 * 86400):.3g} years"


def parse_duration(text: str) -> float | None:
    """``--max-time``: a number with a unit (``90s``, ``20m``, ``6h``, ``2d``; seconds without
    one), or ``none`` for no limit; a ValueError that names it otherwise."""
    if text.strip().lower() == "none":
        return None
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*", text.lower())
    if not match or float(match.group(1)) <= 0:
        raise ValueError(f"--max-time must be a positive time such as 90s, 20m, 6h or 2d, or none, not {text!r}")
    return float(match.group(1)) * UNITS[match.group(2) or "s"]

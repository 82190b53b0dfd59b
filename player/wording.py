"""Counts in messages, worded as English has them: ``counted(1, "secret")`` is "1 secret"."""
from __future__ import annotations


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and ``noun``, made plural unless ``n`` is 1 (``plural`` when adding -s is wrong)."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"

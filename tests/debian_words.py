"""Samples of Debian's word lists of other languages, written where a test needs them: most of those
lists are GPL (each package's copyright file says so), so they stay out of the repository, and the
tests read them from the system (``.ci/run`` installs the packages; without one, the test is skipped
with the command that brings it, and fails under CI: ``parts.missing``)."""
from __future__ import annotations

import tempfile
from pathlib import Path

from guesstree.player.wordlists import words_of_length

from parts import missing

DICT = Path("/usr/share/dict")


def words_of(language: str, package: str, length: int = 5) -> list[str]:
    """The words of ``length`` letters of ``/usr/share/dict/LANGUAGE``, made normal, sorted (a dictionary
    holds words of every length, and some that are not all letters: l'eau, e-mail)."""
    source = DICT / language
    if not source.exists():
        missing(f"the word lists of other languages need Debian's {package} (apt-get install -y {package})")
    return words_of_length(str(source), length)


def sample(language: str, package: str, answers: int = 120, guesses: int = 320) -> dict[str, str]:
    """``answers`` words evenly spread over the list, and ``guesses`` (the answers among them) the same
    way: the files of a game of that language, the same on every machine with the same package."""
    words = words_of(language, package)
    chosen = [words[i * len(words) // answers] for i in range(answers)]
    others = [words[(2 * i + 1) * len(words) // (2 * (guesses - answers))] for i in range(guesses - answers)]
    folder = Path(tempfile.gettempdir()) / "guesstree-test-lists"
    folder.mkdir(exist_ok=True)
    paths = {"answers": folder / f"{language}-answers.txt", "guesses": folder / f"{language}-guesses.txt"}
    for path, listed in ((paths["answers"], chosen), (paths["guesses"], sorted(set(chosen) | set(others)))):
        text = "".join(word + "\n" for word in listed)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            scratch = path.with_suffix(f".{id(text)}.tmp")
            scratch.write_text(text, encoding="utf-8")
            scratch.replace(path)  # (two test processes may write it at once: each whole)
    return {key: str(path) for key, path in paths.items()}


def spanish() -> dict[str, str]:
    return sample("spanish", "wspanish")


def ukrainian() -> dict[str, str]:
    return sample("ukrainian", "wukrainian")

"""An artifact's header (trees/FORMAT.md §2): built and read side by side, as ``stats.py`` has its pair.

``build`` is the writer's half: the header's dict from its fields, the notice checked by the rule
readers hold it to (the compiler's writer, the web page's embedded tree and the opening book's
rewritten trees all make theirs here). ``Header.read`` is the readers' half: each field checked and restored, every
refusal a ``FormatError`` naming the file and the field. ``notice_problem`` is the one rule both
halves share. ``jsonable`` is a header's values as JSON holds them, for the commands that print one.
"""
from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from dataclasses import dataclass

from guesstree import __version__

from .format import FormatError
from .games import GAMES, Game, game_from_spec
from .stats import Statistics

MAX_NOTICE_BYTES = 64 << 10  # a notice is a licence: a few KB
PLUGINS_ENV = "GUESSTREE_PLUGINS"  # comma-separated plugin modules a tree may import and call
PRODUCER = f"guesstree {__version__}"
_SCALARS = (type(None), bool, int, float, str)
_STRATEGY_TYPES = {"name": str, "candidates": str, "seed": int, "guess_sample": int, "secret_sample": int}


def build(game: Game, strategy: dict, stats: Statistics, notice: str | None = None,
          allowed_guesses: int | None = None, producer: str = PRODUCER) -> dict:
    """The header of trees/FORMAT.md §2 for a tree of ``game`` (as the artifact records it: its
    ``portable()`` form) built by ``strategy`` (its settings and what its search proved), with
    ``stats``; ``notice``: the licence of the data the game embeds, carried verbatim (a ValueError
    says why one cannot be); ``allowed_guesses``: how many guesses the tree was compiled with,
    where the game carries fewer (§2.1)."""
    fields: dict = {"producer": producer, "game": game.spec(), "strategy": dict(strategy), "stats": stats.to_header()}
    if notice is not None:
        fields["notice"] = check_notice(notice)
    if allowed_guesses is not None:
        fields["allowed_guesses"] = allowed_guesses
    return fields


def check_notice(notice: str) -> str:
    """A notice as a tree may carry it, or a ValueError that says why not."""
    problem = notice_problem(notice)
    if problem is not None:
        raise ValueError(problem)
    return notice


def notice_problem(notice) -> str | None:
    """Why ``notice`` cannot be a tree's notice (the writer's and the readers' one rule), or None."""
    if not isinstance(notice, str):
        return "the notice is not text"
    if not notice.strip():
        return "the notice is empty"
    if len(notice.encode("utf-8")) > MAX_NOTICE_BYTES:
        return f"the notice has more than {MAX_NOTICE_BYTES} bytes"
    return None


@dataclass(frozen=True)
class Header:
    """A header as a reader holds it, each field checked."""

    game: Game
    strategy: dict
    stats: Statistics
    producer: str
    notice: str | None
    allowed_guesses: int | None

    @classmethod
    def read(cls, header: dict, name: str, plugins: Iterable[str] | str | None = None) -> Header:
        """The fields of ``header`` (of the file ``name``), or a ``FormatError`` naming the one refused.
        ``plugins``: the plugin modules the game may come from (default: ``$GUESSTREE_PLUGINS``)."""
        game = _game(header, name, _trusted(plugins))
        strategy = _strategy(header, name)
        stats = Statistics.from_header(header.get("stats"), name)
        producer = header.get("producer")
        if not isinstance(producer, str):
            raise FormatError(f"{name}: the header's producer is {producer!r}, not a string")
        return cls(game, strategy, stats, producer, _notice(header, name), _allowed_guesses(header, name))


def _trusted(plugins: Iterable[str] | str | None) -> frozenset[str]:
    if plugins is None:
        plugins = os.environ.get(PLUGINS_ENV, "")
    if isinstance(plugins, str):  # "a,b" as in the environment, not the letters of one name
        plugins = plugins.split(",")
    return frozenset(module.strip() for module in plugins if module.strip())


def _game(header: dict, name: str, trusted: frozenset[str]) -> Game:
    spec = header.get("game")
    if not (isinstance(spec, dict) and isinstance(spec.get("name"), str)):
        raise FormatError(f"{name}: the header has no usable game spec")
    game_name, params = spec["name"], spec.get("params", {})
    if not (isinstance(params, dict) and all(isinstance(k, str) and isinstance(v, _SCALARS) for k, v in params.items())):
        raise FormatError(f"{name}: the game's parameters {params!r} are not a map of names to plain values")
    if game_name not in GAMES:
        _check_plugin(game_name, trusted, name)
    try:
        game = game_from_spec({"name": game_name, "params": params})
    except Exception as error:  # a trusted plugin may fail in any way; the file is still unusable
        raise FormatError(f"{name}: cannot rebuild the game {game_name!r}: {error}") from None
    rebuilt = game.params()
    stray = [key for key, value in params.items() if key not in rebuilt or rebuilt[key] != value]
    if stray:
        raise FormatError(f"{name}: the game {game_name!r} does not take {stray[0]}={params[stray[0]]!r} as written")
    return game


def _check_plugin(game_name: str, trusted: frozenset[str], name: str) -> None:
    """A plugin spec names code to run: only a module the caller trusts may be imported and its
    factory called. Without that, an already imported module's ``Game`` subclass is accepted;
    anything else (``shutil:rmtree``, a module nobody imported) is refused unrun."""
    module_name, colon, factory_name = game_name.partition(":")
    if not colon:
        raise FormatError(f"{name}: unknown game {game_name!r}")
    if module_name in trusted:
        return
    factory = getattr(sys.modules.get(module_name), factory_name, None)
    if isinstance(factory, type) and issubclass(factory, Game):
        return
    raise FormatError(
        f"{name}: the game is the plugin {game_name!r}, which this player does not run unasked: "
        f"trust its module with the command's --plugin option (e.g. guesstree info {name} --plugin {module_name}), "
        f"guesstree.player.load(..., plugins=[{module_name!r}]) "
        f"or {PLUGINS_ENV}={module_name}")


def _notice(header: dict, name: str) -> str | None:
    """The licence of the data the game embeds (a words tree's lists), if the tree carries one."""
    notice = header.get("notice")
    if notice is not None and notice_problem(notice) is not None:
        raise FormatError(f"{name}: the header's notice is not a text of at most {MAX_NOTICE_BYTES} bytes")
    return notice


def _allowed_guesses(header: dict, name: str) -> int | None:
    """How many guesses the tree was compiled with, where the game carries fewer (a words tree
    carries only the guesses it plays; the verifier checks it is no fewer); ``None`` where the
    game's guesses are all there were."""
    allowed = header.get("allowed_guesses")
    if allowed is not None and not (type(allowed) is int and 1 <= allowed < 1 << 32):
        raise FormatError(f"{name}: the header's allowed_guesses {allowed!r} is not a count of guesses")
    return allowed


def _strategy(header: dict, name: str) -> dict:
    strategy = header.get("strategy")
    if not (isinstance(strategy, dict) and isinstance(strategy.get("name"), str)
            and all(isinstance(k, str) and type(v) is _STRATEGY_TYPES.get(k, type(v)) and isinstance(v, _SCALARS)
                    for k, v in strategy.items())):
        raise FormatError(f"{name}: the header's strategy {strategy!r} is not a map of names to plain values")
    return strategy


def jsonable(value):
    """A header value as JSON can hold it: string keys, lists, and bytes (an unknown key of a
    newer minor version) said as their size instead of written out."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, bytes):
        return f"<{len(value)} bytes>"
    return value

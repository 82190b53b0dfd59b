"""guesstree's offline compiler: expand a strategy's whole tree and write it as an artifact."""
from .build import Built, Options, build
from .output import save, to_bytes
from .strategies import STRATEGIES, get_strategy

__all__ = ["Built", "Options", "build", "save", "to_bytes", "STRATEGIES", "get_strategy"]

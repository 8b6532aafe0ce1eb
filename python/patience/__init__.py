"""patience: fair, skill-based solitaire.

Four games by exact rules (``patience.games``), game records and replay
(``patience.records``), timed sessions (``patience.session``) and, underneath, a native
core in Rust. Start with :func:`patience.games.new_game`:

>>> from patience.games import new_game
>>> game = new_game("klondike", seed=7, variant={"draw": 3})
>>> game.score(), game.is_over()
(0, False)
"""

from functools import cache

__all__ = ["__version__"]


@cache
def _installed_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("patience")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "0+unknown"


def __getattr__(name: str) -> str:
    """``patience.__version__``, read from the installed package's metadata when first
    asked for (reading it costs a tenth of a second that every command would pay at start)."""
    if name == "__version__":
        return _installed_version()
    raise AttributeError(f"module 'patience' has no attribute {name!r}")

"""patience: fair, skill-based solitaire.

Four games by exact rules (``patience.games``), game records and replay
(``patience.records``), timed sessions (``patience.session``) and, underneath, a native
core in Rust. Start with :func:`patience.games.new_game`:

>>> from patience.games import new_game
>>> game = new_game("klondike", seed=7, variant={"draw": 3})
>>> game.score(), game.is_over()
(0, False)
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("patience")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0+unknown"

__all__ = ["__version__"]

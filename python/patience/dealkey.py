"""The installation's deal key: the secret that makes catalog seeds unpredictable.

A competitive deal (a timed game's, a tournament's) must not be predictable by a player:
whoever knows the seed knows every face-down card and the whole stock. The seeded shuffle
is public (docs/shuffle.md), so the secret has to be the seed itself. ``patience deals
generate`` therefore draws its seeds from a *keyed* stream: seed ``i`` of stream ``s`` is
the first 63 bits of HMAC-SHA256(key, game, variant, ``s``, ``i``). For the operator who
holds the key the stream is deterministic, so a catalog job killed and run again makes
exactly the catalog it would have made; for anybody else every seed is an independent
random number, and a seed once published (a finished timed game shows its seed, a closed
tournament publishes its deals) tells nothing about any other.

The key is 32 random bytes from the operating system, made on first use and kept in a file
readable by its owner only (``PATIENCE_DEAL_KEY_FILE``; by default
``~/.config/patience/deal.key``), outside the database: a copy of the database (a backup,
a dump handed to someone) does not give it away. Only the command that generates catalog
deals reads it; the server never does, and nothing logs or serves it. Each catalog deal
records the key's *fingerprint* (an HMAC of a fixed text, which says nothing about the
key), so that the deals of a key thought to be leaked can be retired. docs/fairness.md
says what an attacker knows and what they cannot.

>>> key = DealKey(bytes(32))
>>> key.seed("golf", {"wrap": True}, 0, 0) == key.seed("golf", {"wrap": True}, 0, 0)
True
>>> key.seed("golf", {"wrap": True}, 0, 0) == key.seed("golf", {"wrap": True}, 0, 1)
False
>>> 0 <= key.seed("klondike", {"draw": 3}, 7, 123) < 2**63
True
>>> len(key.fingerprint), key.origin == "key:" + key.fingerprint
(16, True)
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import stat
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from patience.errors import PatienceError

__all__ = ["KEY_BYTES", "DealKey", "DealKeyError", "default_key_path"]

KEY_BYTES = 32
"""The key's length: 256 bits, HMAC-SHA256's block-sized secret."""

_SEED_LABEL = b"patience catalog seed v1\x00"
_FINGERPRINT_LABEL = b"patience deal key fingerprint v1"


class DealKeyError(PatienceError):
    """The deal key's file cannot be read, made, or trusted: the reason says which."""


def default_key_path() -> Path:
    """Where the deal key is kept when ``PATIENCE_DEAL_KEY_FILE`` does not say:
    ``$XDG_CONFIG_HOME/patience/deal.key``, ``~/.config/patience/deal.key`` by default."""
    config = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config) / "patience" / "deal.key"


@dataclass(frozen=True, slots=True)
class DealKey:
    """A deal key: 32 secret bytes (never shown by ``repr``)."""

    secret: bytes = field(repr=False)

    def __post_init__(self) -> None:
        if len(self.secret) != KEY_BYTES:
            raise DealKeyError(f"a deal key is {KEY_BYTES} bytes, not {len(self.secret)}")

    @classmethod
    def fresh(cls) -> DealKey:
        """A new random key, in memory only (tests, benchmarks, throw-away catalogs)."""
        return cls(secrets.token_bytes(KEY_BYTES))

    @property
    def fingerprint(self) -> str:
        """16 hex digits that name the key without telling anything about it."""
        return hmac.new(self.secret, _FINGERPRINT_LABEL, hashlib.sha256).hexdigest()[:16]

    @property
    def origin(self) -> str:
        """What a catalog deal made from this key records as its origin."""
        return f"key:{self.fingerprint}"

    def seed(self, name: str, variant: Mapping[str, object], stream: int, index: int) -> int:
        """Seed ``index`` of keyed stream ``stream`` of ``name`` and ``variant``: 63 bits
        (a seed fits every database's signed 64-bit integers)."""
        message = json.dumps([name, dict(variant), stream, index], sort_keys=True)
        digest = hmac.new(self.secret, _SEED_LABEL + message.encode(), hashlib.sha256).digest()
        return int.from_bytes(digest[:8], "big") >> 1

    def stream(
        self, name: str, variant: Mapping[str, object], stream: int, start: int = 0
    ) -> Iterator[tuple[int, int]]:
        """``(index, seed)`` of keyed stream ``stream``, from index ``start`` on."""
        index = start
        while True:
            yield index, self.seed(name, variant, stream, index)
            index += 1

    @classmethod
    def load(cls, path: Path, *, create: bool = True) -> DealKey:
        """The key kept in ``path``, made there first when there is none and ``create``.

        The file holds the key as 64 hex digits and must be its owner's alone (mode 0600,
        as ssh asks of a private key): a key others could read is refused, with the command
        that mends it. Raises :class:`DealKeyError`."""
        try:
            return cls._read(path)
        except FileNotFoundError:
            if not create:
                raise DealKeyError(f"there is no deal key at {path}") from None
        try:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another job made it a moment ago: use that one
            return cls._read(path)
        except OSError as error:
            raise DealKeyError(f"cannot make the deal key {path}: {error.strerror}") from None
        key = cls.fresh()
        with os.fdopen(descriptor, "w") as file:
            file.write(key.secret.hex() + "\n")
            file.flush()
            os.fsync(file.fileno())
        return key

    @classmethod
    def _read(cls, path: Path) -> DealKey:
        try:
            mode = path.stat().st_mode
            text = path.read_text(encoding="ascii").strip()
        except FileNotFoundError:
            raise
        except (OSError, UnicodeDecodeError) as error:
            reason = getattr(error, "strerror", None) or "not a key file"
            raise DealKeyError(f"cannot read the deal key {path}: {reason}") from None
        if not stat.S_ISREG(mode):
            raise DealKeyError(f"the deal key {path} is not a file")
        if mode & 0o077:
            raise DealKeyError(
                f"the deal key {path} can be read by others (mode {stat.S_IMODE(mode):o}): "
                f"run chmod 600 {path}"
            )
        if len(text) != 2 * KEY_BYTES or any(c not in "0123456789abcdefABCDEF" for c in text):
            raise DealKeyError(f"the deal key {path} is not {2 * KEY_BYTES} hex digits")
        return cls(bytes.fromhex(text))

"""Accounts: sign up, log in and out, change a password, signed-in sessions that expire.

A password is kept only as its argon2id hash (``argon2-cffi``, with a salt of its own and
the library's parameters, which it records in the hash); a signed-in session is a random
token the browser keeps in a cookie and the database only as its SHA-256. The token also
gives the session's CSRF token (:func:`csrf_token`), which the page sends back as a
header: the database holds nothing from which anyone could sign in.

**Hashing is bounded.** An argon2id hash takes 64 MiB and tenths of a second, on purpose.
Every hash and check runs through one :class:`PasswordHashing`: at most ``workers`` (2) at
a time, so at most ``workers`` x 64 MiB, and ``waiting`` (16) more queued; past that a
request is refused at once (:class:`BusyError`, 503 from the server) before anything is
counted, instead of waiting without bound.

**Guessing is slowed, and nobody can lock the owner out** (:class:`LoginLimits`; the
numbers are the defaults). Every log-in attempt is written to the database as a failure,
in one transaction with the counts that let it through, *before* its password is checked
(on PostgreSQL under advisory locks for the account and the address, on SQLite under the
write lock its insert takes), and becomes a success only once the password is right: so
any number of concurrent attempts, through any number of server processes, check no more
passwords than the limits allow. A refused attempt is answered
(:class:`TooManyAttemptsError`, with the seconds to wait) without checking anything.

- *Per account and client* (the client is the device when the account knows it, else the
  address): 5 failures, then each further attempt waits twice as long after the last
  failure: 1 s, 2 s, 4 s ... up to 15 minutes, the failures of the last day counted, and
  the right password from that client starting the count afresh. One address guessing one
  account gets about 15 guesses in its first quarter of an hour, then 4 an hour (about 110
  a day); the owner, from anywhere else, is not slowed at all.
- *Per account, from new devices*: 20 failures within an hour from clients the account has
  not logged in from. Past it such clients wait until failures age out, and a device the
  account has logged in from still passes, with the right password: each successful
  log-in sets a device cookie (a random token, a year, kept only as its SHA-256), so a
  rival spreading guesses over many addresses (at most 20 an hour, 480 a day) locks out no
  browser the owner has used. A password change forgets every device but the one that
  changed it.
- *Per address*: 100 failures within an hour from one address, over all the accounts it
  tries from unknown devices (spraying one password over many names). Past it, new
  devices there wait; the accounts' known devices behind the same address (a shared NAT,
  the operator's included) still pass.
- *An unknown name* is counted like any other and costs the same work: its password is
  checked against a dummy argon2 hash of the same parameters, made once, so that neither
  the answer nor its time tells a name that exists from one that does not.
- *Sign-ups*: 10 an hour from one address (``sign_ups_per_hour``), counted in the
  database before the password is hashed; the operator's command line is not limited.

Operators administer accounts (``patience users`` and the operator page): list and show
them, disable and enable (a disabled account cannot sign in, and its signed-in sessions
end), rename, reset a password, promote to operator and demote, and delete. A deleted
account keeps no name and no password: its row stays, anonymous, so that its finished
games and tournament results stand (a tournament's standings and published verification
do not change) without saying whose they were.

>>> check_name("  Ada Lovelace ")
'Ada Lovelace'
>>> check_name("a")
Traceback (most recent call last):
...
patience.players.accounts.AccountError: a name has 2 to 24 characters
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import math
import re
import secrets
import threading
import time
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Connection, Engine, and_, case, delete, func, insert, select, text, update
from sqlalchemy.exc import IntegrityError

from patience.errors import PatienceError
from patience.store.db import devices, login_attempts, logins, sessions, sign_ups, users
from patience.text import visible_name

__all__ = [
    "Account",
    "AccountError",
    "Accounts",
    "BadCredentialsError",
    "BusyError",
    "DisabledError",
    "LoginLimits",
    "NameTakenError",
    "NoSuchAccountError",
    "PasswordHashing",
    "SignedIn",
    "TooManyAttemptsError",
    "User",
    "check_name",
    "check_password",
    "csrf_token",
    "name_key",
]

NAME_PATTERN = re.compile(r"[\w .'-]+")
"""Letters (any script), digits, spaces and ``_ . ' -``."""

MIN_PASSWORD = 8
MAX_PASSWORD = 256


class AccountError(PatienceError):
    """A request about an account that cannot be granted, with the reason."""


class NameTakenError(AccountError):
    """Another account has that name (names are compared without case)."""


class BadCredentialsError(AccountError):
    """No account of that name, or not its password (the two are not told apart)."""


class DisabledError(AccountError):
    """The account is disabled by an operator: it may not sign in."""


class NoSuchAccountError(AccountError):
    """No account has that name (or id)."""


class TooManyAttemptsError(AccountError):
    """Too many failed log-ins (or sign-ups) lately from this client, for this account or
    from this address: try again in ``retry_after`` seconds."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class BusyError(AccountError):
    """Every password-hashing worker is busy and the queue is full: nothing was counted or
    checked; try again in ``retry_after`` seconds."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"the server is busy checking passwords: try again in {retry_after} s")
        self.retry_after = retry_after


@dataclass(frozen=True, slots=True)
class User:
    """An account as the rest of the platform sees it (never its password's hash)."""

    id: str
    name: str
    operator: bool
    created_at: float


@dataclass(frozen=True, slots=True)
class Account:
    """An account as an operator sees it: the player's, with its state, last log-in,
    finished games and signed-in sessions (never its password's hash)."""

    id: str
    name: str
    operator: bool
    disabled: bool
    deleted: bool
    created_at: float
    last_login_at: float | None
    games: int
    sessions: int

    def to_json(self) -> dict[str, object]:
        """As the operator's API and ``patience users list --json`` give it."""
        return {
            "id": self.id,
            "name": self.name,
            "operator": self.operator,
            "disabled": self.disabled,
            "deleted": self.deleted,
            "created_at": self.created_at,
            "last_login_at": self.last_login_at,
            "games": self.games,
            "sessions": self.sessions,
        }


@dataclass(frozen=True, slots=True)
class SignedIn:
    """A new signed-in session: the cookie's token (shown once, kept hashed), its CSRF
    token, when it expires, and a new device token for the browser to keep (None when
    the browser's device cookie is already this account's)."""

    user: User
    token: str
    csrf: str
    expires_at: float
    device: str | None = None


@dataclass(frozen=True, slots=True)
class LoginLimits:
    """The limits on failed log-ins (the module's docstring tells what each is for).

    ``free`` failures of one account from one client, then a wait after each further one
    of ``backoff_first`` seconds doubling up to ``backoff_max``, failures counted over
    ``backoff_window`` seconds; ``account`` failures of one account from new devices, and
    ``address`` from one address over every account, within ``window`` seconds.

    >>> [LoginLimits().backoff(failures) for failures in (4, 5, 6, 7, 15, 10_000)]
    [0.0, 1.0, 2.0, 4.0, 900.0, 900.0]
    """

    free: int = 5
    backoff_first: float = 1.0
    backoff_max: float = 900.0
    backoff_window: float = 86_400.0
    account: int = 20
    address: int = 100
    window: float = 3_600.0

    def backoff(self, failures: int) -> float:
        """Seconds a client waits after its last failure, when it has failed ``failures``
        times (since its last success, within ``backoff_window``)."""
        if failures < self.free:
            return 0.0
        doublings = min(failures - self.free, 62)
        return min(self.backoff_max, self.backoff_first * 2.0**doublings)


class PasswordHashing:
    """argon2id hashing and checking (``hasher``, argon2-cffi's defaults unless given), at
    most ``workers`` at a time in the threads that call it, with at most ``waiting`` more
    waiting their turn; a call past that raises :class:`BusyError` at once. Memory for
    hashing is so bounded by :attr:`memory_bound`.

    >>> hashing = PasswordHashing(PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))
    >>> hashing.verify(hashing.hash("a password"), "a password")
    True
    >>> hashing.verify(hashing.hash("a password"), "another one"), hashing.waiting()
    (False, 0)
    """

    def __init__(
        self,
        hasher: PasswordHasher | None = None,
        *,
        workers: int = 2,
        waiting: int = 16,
        retry_after: int = 1,
    ) -> None:
        if workers < 1 or waiting < 0:
            raise ValueError("password hashing needs a worker or more, and a queue of 0 or more")
        self.hasher = hasher or PasswordHasher()
        self.workers = workers
        self._running = threading.BoundedSemaphore(workers)
        self._admitted = threading.BoundedSemaphore(workers + waiting)
        self._lock = threading.Lock()
        self._inside = 0
        self._retry_after = retry_after

    @property
    def memory_bound(self) -> int:
        """Bytes that hashing may hold at once: ``workers`` x the hash's memory cost."""
        return self.workers * self.hasher.memory_cost * 1024

    def waiting(self) -> int:
        """Hashes and checks running or waiting their turn now."""
        with self._lock:
            return self._inside

    @contextlib.contextmanager
    def slot(self) -> Iterator[None]:
        """A turn to hash: waits while ``workers`` are busy, or raises :class:`BusyError`
        when the queue is full too."""
        if not self._admitted.acquire(blocking=False):
            raise BusyError(self._retry_after)
        with self._lock:
            self._inside += 1
        try:
            with self._running:
                yield
        finally:
            with self._lock:
                self._inside -= 1
            self._admitted.release()

    def hash(self, password: str) -> str:
        """``password``'s argon2id hash, in its turn."""
        with self.slot():
            return self.hasher.hash(password)

    def verify(self, stored: str, password: str) -> bool:
        """Whether ``password`` is the one ``stored`` (a hash) was made from, in its turn."""
        with self.slot():
            try:
                return self.hasher.verify(stored, password)
            except (VerificationError, InvalidHashError):
                return False

    def needs_rehash(self, stored: str) -> bool:
        """Whether ``stored`` was made with other parameters than the hasher's now."""
        try:
            return self.hasher.check_needs_rehash(stored)
        except InvalidHashError:
            return True


def check_name(name: str) -> str:
    """``name`` as an account's display name (spaces around it dropped, Unicode normalised
    by compatibility, so that a full-width or styled letter is the letter itself), or
    :class:`AccountError` with the reason. The letters of a name are of one script, so that
    a name cannot pass for another by a look-alike letter of another alphabet.

    >>> check_name("  \uff21da ")
    'Ada'
    >>> check_name("Ad\u0430")
    Traceback (most recent call last):
    ...
    patience.players.accounts.AccountError: a name's letters are of one alphabet
    """
    name = unicodedata.normalize("NFKC", name).strip()
    if not 2 <= len(name) <= 24:
        raise AccountError("a name has 2 to 24 characters")
    if not NAME_PATTERN.fullmatch(name) or "  " in name:
        raise AccountError("a name has letters, digits, single spaces and _ . ' - only")
    if len({_script(c) for c in name if c.isalpha()}) > 1:
        raise AccountError("a name's letters are of one alphabet")
    try:
        visible_name(name)  # letters drawn blank (the Hangul fillers) are letters too
    except ValueError as error:
        raise AccountError(str(error)) from None
    return name


def _script(letter: str) -> str:
    """The script a letter's Unicode name starts with (LATIN, CYRILLIC, GREEK, CJK, ...)."""
    return unicodedata.name(letter, "UNKNOWN").split(" ", 1)[0]


def check_password(password: str, name: str) -> None:
    """Refuse a password that is too short, too long, or the name itself."""
    if len(password) < MIN_PASSWORD:
        raise AccountError(f"a password has at least {MIN_PASSWORD} characters")
    if len(password) > MAX_PASSWORD:
        raise AccountError(f"a password has at most {MAX_PASSWORD} characters")
    if password.casefold() == name.casefold():
        raise AccountError("a password is not the name")


LOOK_ALIKES = str.maketrans(
    # Cyrillic letters drawn as Latin ones
    "\u0430\u0435\u043e\u0440\u0441\u0443\u0445\u0456\u0458\u0455\u0501\u04bb\u04cf"
    "\u0432\u043a\u043c\u043d\u0442\u044c"
    # Greek letters drawn as Latin ones
    "\u03bf\u03b1\u03bd\u03c1\u03c4\u03b9\u03ba\u03c5\u03c7",
    "aeopcyxijsdhlbkmhtboavptikux",
)
"""Letters of other alphabets that a reader takes for Latin ones (lower case, as
:func:`name_key` compares them): a name written with them is the Latin name."""


def name_key(name: str) -> str:
    """The form in which names are compared: without case, by compatibility, and with the
    Cyrillic and Greek letters that look Latin read as those, so that no name can pass for
    another by a look-alike letter.

    >>> name_key(" \uff21DA ") == name_key("ada")
    True
    >>> name_key("\u0410\u0435\u043e") == name_key("aeo")
    True
    """
    return unicodedata.normalize("NFKC", name).strip().casefold().translate(LOOK_ALIKES)


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def csrf_token(token: str) -> str:
    """The CSRF token of the signed-in session whose cookie holds ``token``: derived from
    it, so it needs no storage, and useless without the cookie (which another site's page
    can neither read nor, being ``SameSite=Strict``, send)."""
    return hmac.new(token.encode(), b"patience csrf", hashlib.sha256).hexdigest()


SESSION_CACHE_SECONDS = 2.0
"""How long a signed-in session, once looked up, is taken as it was without asking the
database again: a log-out, a disabled or deleted account or a password change in this
process ends the session at once; in another server process within this time."""

SESSION_CACHE_SIZE = 20_000
"""Signed-in sessions remembered at most (the least recently used are forgotten)."""

DEVICE_DAYS = 365.0
"""How long a device stays known to an account without logging in to it."""

MAX_DEVICES = 50
"""Devices an account keeps at most: a new one forgets the least recently used."""

PRUNE_SECONDS = 60.0
"""How often a process deletes log-in attempts and sign-ups too old to count."""

_PRUNE_LOCK = 0x7061_7470
"""PostgreSQL advisory lock of the process pruning (the others skip their turn)."""


def _lock_key(name: str) -> int:
    """A PostgreSQL advisory lock's key (a signed 64-bit number) for ``name``."""
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big", signed=True)


def _serialize(connection: Connection, *names: str) -> None:
    """Hold a lock on each of ``names`` until the transaction ends, so that transactions
    about the same account or address run one after the other. On PostgreSQL these are
    advisory locks, taken in one order so that no two transactions wait for each other;
    SQLite lets one transaction write at a time, and the caller's first statement, an
    insert, takes that lock."""
    if connection.dialect.name != "postgresql":
        return
    for key in sorted({_lock_key(name) for name in names}):
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": key})


def _seconds(wait: float) -> int:
    return max(1, math.ceil(wait))


def _user(row: Any) -> User:
    return User(row.id, row.name, row.operator, row.created_at)


class Accounts:
    """Accounts, signed-in sessions and known devices in the database of ``engine``.

    ``session_days``: how long a log-in lasts. ``limits``: on failed log-ins.
    ``sign_ups_per_hour``: sign-ups from one address (0: no limit). ``hashing``: the
    bounded argon2 pool (two at a time by default). ``clock``: wall-clock seconds (tests
    move it)."""

    def __init__(
        self,
        engine: Engine,
        *,
        session_days: float = 14.0,
        limits: LoginLimits | None = None,
        sign_ups_per_hour: int = 10,
        hashing: PasswordHashing | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._engine = engine
        self._session_seconds = session_days * 86_400
        self._limits = limits or LoginLimits()
        self._sign_ups_per_hour = sign_ups_per_hour
        self._hashing = hashing or PasswordHashing()
        self._clock = clock
        self._dummy: str | None = None
        self._dummy_lock = threading.Lock()
        self._pruned = -math.inf
        # Signed-in sessions seen lately: a request's session is looked up in the database
        # at most once every SESSION_CACHE_SECONDS (the event loop answers moves meanwhile).
        self._seen: OrderedDict[str, tuple[User, float, float]] = OrderedDict()
        self._seen_lock = threading.Lock()

    @property
    def hashing(self) -> PasswordHashing:
        """The bounded pool every password hash and check runs in."""
        return self._hashing

    # -- accounts -------------------------------------------------------------------

    def create(self, name: str, password: str, *, operator: bool = False) -> User:
        """A new account (:class:`NameTakenError` if the name is taken), with no limit on
        how many: for the operator's command line and the tests."""
        name = check_name(name)
        check_password(password, name)
        self._name_free(name)
        return self._insert(name, self._hashing.hash(password), operator)

    def user(self, user_id: str) -> User | None:
        """The account ``user_id``, if there is one."""
        with self._engine.connect() as connection:
            row = connection.execute(select(users).where(users.c.id == user_id)).first()
        return None if row is None else _user(row)

    def sign_up(self, name: str, password: str, *, address: str | None = None) -> SignedIn:
        """A new account, signed in, its browser a known device. From ``address`` (the
        server's caller), the sign-up is counted against ``sign_ups_per_hour`` before the
        password is hashed (:class:`TooManyAttemptsError` past it)."""
        name = check_name(name)
        check_password(password, name)
        self._name_free(name)
        claim = None
        if address is not None and self._sign_ups_per_hour > 0:
            claim = self._claim_sign_up(address)
        try:
            password_hash = self._hashing.hash(password)
        except BusyError:
            if claim is not None:
                with self._engine.begin() as connection:
                    connection.execute(delete(sign_ups).where(sign_ups.c.id == claim))
            raise
        user = self._insert(name, password_hash, False)
        return self._sign_in(user, device=self._new_device(user.id))

    def log_in(
        self, name: str, password: str, *, address: str, device: str | None = None
    ) -> SignedIn:
        """Sign in by name and password from ``address``, with the browser's device token
        if it has one: :class:`BadCredentialsError` for a wrong name or password (a deleted
        account has neither), :class:`DisabledError` for a disabled account's right
        password, :class:`TooManyAttemptsError` past the limits (nothing checked then),
        :class:`BusyError` when hashing is full (nothing counted then)."""
        key = name_key(name)[:32]
        with self._engine.connect() as connection:
            row = connection.execute(select(users).where(users.c.name_key == key)).first()
        if row is not None and row.deleted_at is not None:
            row = None
        known = None if row is None or not device else self._known_device(row.id, device)
        attempt = self._claim(key, address, known)
        right = self._check(attempt, None if row is None else row.password_hash, password)
        if row is None or not right:
            raise BadCredentialsError("no account of that name has that password")
        self._succeeded(attempt)
        if row.disabled:
            raise DisabledError("this account is disabled: ask an operator")
        user = _user(row)
        if self._hashing.needs_rehash(row.password_hash):
            with contextlib.suppress(BusyError):  # next time, then
                self._set_password(user.id, password)
        return self._sign_in(user, device=None if known else self._new_device(user.id))

    def change_password(self, user: User, old: str, new: str, *, session: str = "") -> None:
        """Replace ``user``'s password, given the old one; every other signed-in session
        of the account ends, and every known device is forgotten (the caller signs this
        browser in again). Wrong old passwords back off like failed log-ins, per signed-in
        session (``session``, its cookie's token), which passes the caps as a known device
        does: a player under attack can still change their password."""
        check_password(new, user.name)
        with self._engine.connect() as connection:
            row = connection.execute(select(users).where(users.c.id == user.id)).one()
        attempt = self._claim(row.name_key, "", _hash(f"session {session}"))
        if not self._check(attempt, row.password_hash, old):
            raise BadCredentialsError("the old password is not right")
        self._succeeded(attempt)
        self._set_password(user.id, new)
        self._end_sessions(user.id)
        with self._engine.begin() as connection:
            connection.execute(delete(devices).where(devices.c.user_id == user.id))

    def _name_free(self, name: str) -> None:
        """Refuse a taken name before any password is hashed for it."""
        with self._engine.connect() as connection:
            taken = connection.execute(
                select(users.c.id).where(users.c.name_key == name_key(name))
            ).first()
        if taken is not None:
            raise NameTakenError(f"the name {name!r} is taken")

    def _insert(self, name: str, password_hash: str, operator: bool) -> User:
        user = User(secrets.token_hex(16), name, operator, self._clock())
        try:
            with self._engine.begin() as connection:
                connection.execute(
                    insert(users).values(
                        id=user.id,
                        name=user.name,
                        name_key=name_key(name),
                        password_hash=password_hash,
                        operator=operator,
                        created_at=user.created_at,
                    )
                )
        except IntegrityError:
            raise NameTakenError(f"the name {name!r} is taken") from None
        return user

    # -- signed-in sessions ---------------------------------------------------------

    def session(self, token: str) -> User | None:
        """The account signed in by cookie token ``token``, unless it expired, was ended,
        or the account is disabled. Looked up in the database at most once every
        :data:`SESSION_CACHE_SECONDS` a session."""
        key = _hash(token)
        now = self._clock()
        checked = time.monotonic()
        with self._seen_lock:
            seen = self._seen.get(key)
            if seen is not None:
                user, expires_at, looked = seen
                if checked - looked < SESSION_CACHE_SECONDS and now < expires_at:
                    self._seen.move_to_end(key)
                    return user
                del self._seen[key]
        with self._engine.connect() as connection:
            row = connection.execute(
                select(users, logins.c.expires_at.label("login_expires"))
                .join(logins, logins.c.user_id == users.c.id)
                .where(
                    and_(
                        logins.c.token_hash == key,
                        logins.c.expires_at > now,
                        users.c.disabled.is_(False),
                    )
                )
            ).first()
        if row is None:
            return None
        user = _user(row)
        with self._seen_lock:
            self._seen[key] = (user, row.login_expires, checked)
            while len(self._seen) > SESSION_CACHE_SIZE:
                self._seen.popitem(last=False)
        return user

    def _forget_sessions(self, user_id: str | None = None, token_hash: str | None = None) -> None:
        """Forget the remembered sessions of ``user_id`` (or the one of ``token_hash``)."""
        with self._seen_lock:
            for key in [
                key
                for key, (user, _, _) in self._seen.items()
                if key == token_hash or (user_id is not None and user.id == user_id)
            ]:
                del self._seen[key]

    def log_out(self, token: str) -> None:
        """End the signed-in session of ``token`` (nothing if there is none). The browser
        stays a known device of the account."""
        self._forget_sessions(token_hash=_hash(token))
        with self._engine.begin() as connection:
            connection.execute(delete(logins).where(logins.c.token_hash == _hash(token)))

    def sign_in_again(self, user: User) -> SignedIn:
        """A new signed-in session for ``user`` after a password change, its browser a
        known device afresh."""
        return self._sign_in(user, device=self._new_device(user.id))

    def _sign_in(self, user: User, *, device: str | None = None) -> SignedIn:
        token = secrets.token_urlsafe(32)
        now = self._clock()
        expires = now + self._session_seconds
        with self._engine.begin() as connection:
            connection.execute(update(users).where(users.c.id == user.id).values(last_login_at=now))
            connection.execute(delete(logins).where(logins.c.expires_at <= now))
            connection.execute(
                insert(logins).values(
                    token_hash=_hash(token), user_id=user.id, created_at=now, expires_at=expires
                )
            )
        return SignedIn(user, token, csrf_token(token), expires, device)

    # -- administration -------------------------------------------------------------

    def _accounts_query(self) -> Any:
        now = self._clock()
        games = (
            select(func.count())
            .where(and_(sessions.c.user_id == users.c.id, sessions.c.ended_at.is_not(None)))
            .scalar_subquery()
        )
        signed_in = (
            select(func.count())
            .where(and_(logins.c.user_id == users.c.id, logins.c.expires_at > now))
            .scalar_subquery()
        )
        return select(
            users.c.id,
            users.c.name,
            users.c.operator,
            users.c.disabled,
            users.c.deleted_at,
            users.c.created_at,
            users.c.last_login_at,
            games.label("games"),
            signed_in.label("signed_in"),
        )

    @staticmethod
    def _account(row: Any) -> Account:
        return Account(
            row.id,
            row.name,
            bool(row.operator),
            bool(row.disabled),
            row.deleted_at is not None,
            row.created_at,
            row.last_login_at,
            int(row.games),
            int(row.signed_in),
        )

    def accounts(
        self,
        *,
        search: str = "",
        deleted: bool = False,
        offset: int = 0,
        limit: int = 100,
    ) -> tuple[list[Account], int]:
        """A page of the accounts by name (those whose name holds ``search``, compared as
        names are), with the deleted ones if ``deleted``; and how many there are in all."""
        where: Any = users.c.deleted_at.is_(None) if not deleted else users.c.id.is_not(None)
        if search.strip():
            where = and_(where, users.c.name_key.contains(name_key(search), autoescape=True))
        with self._engine.connect() as connection:
            total = connection.execute(select(func.count()).select_from(users).where(where))
            count = int(total.scalar_one())
            rows = connection.execute(
                self._accounts_query()
                .where(where)
                .order_by(case((users.c.deleted_at.is_(None), 0), else_=1), users.c.name_key)
                .offset(offset)
                .limit(limit)
            ).all()
        return [self._account(row) for row in rows], count

    def account(self, user_id: str) -> Account:
        """The account ``user_id`` (:class:`NoSuchAccountError` if there is none)."""
        with self._engine.connect() as connection:
            row = connection.execute(self._accounts_query().where(users.c.id == user_id)).first()
        if row is None:
            raise NoSuchAccountError("no such account")
        return self._account(row)

    def find(self, name: str) -> Account:
        """The account named ``name`` (compared as names are); :class:`NoSuchAccountError`
        if there is none."""
        with self._engine.connect() as connection:
            row = connection.execute(
                self._accounts_query().where(users.c.name_key == name_key(name)[:32])
            ).first()
        if row is None:
            raise NoSuchAccountError(f"no account is named {name.strip()[:40]!r}")
        return self._account(row)

    def _change(self, user_id: str, **values: Any) -> Account:
        """Set ``values`` on the live (not deleted) account ``user_id``."""
        with self._engine.begin() as connection:
            done = connection.execute(
                update(users)
                .where(and_(users.c.id == user_id, users.c.deleted_at.is_(None)))
                .values(**values)
            ).rowcount
        if not done:
            raise NoSuchAccountError("no such account (or it was deleted)")
        return self.account(user_id)

    def _end_sessions(self, user_id: str) -> None:
        """End every signed-in session of ``user_id``, in every server process (within
        :data:`SESSION_CACHE_SECONDS` in the others)."""
        self._forget_sessions(user_id=user_id)
        with self._engine.begin() as connection:
            connection.execute(delete(logins).where(logins.c.user_id == user_id))

    def _forget_attempts(self, name: str) -> None:
        """Forget the log-in attempts on the account named ``name`` (a reset password or a
        deleted account starts afresh)."""
        with self._engine.begin() as connection:
            connection.execute(
                delete(login_attempts).where(login_attempts.c.name_key == name_key(name)[:32])
            )

    def set_disabled(self, user_id: str, disabled: bool) -> Account:
        """Disable the account (it cannot sign in; its signed-in sessions end) or enable it
        again."""
        account = self._change(user_id, disabled=disabled)
        if disabled:
            self._end_sessions(user_id)
        return account

    def set_operator(self, user_id: str, operator: bool) -> Account:
        """Make the account an operator, or a player again (its sessions end: a signed-in
        page learns its new role as it signs in again)."""
        account = self._change(user_id, operator=operator)
        self._end_sessions(user_id)
        return account

    def rename(self, user_id: str, name: str) -> Account:
        """Give the account another name (:class:`NameTakenError` if another has it)."""
        name = check_name(name)
        try:
            account = self._change(user_id, name=name, name_key=name_key(name))
        except IntegrityError:
            raise NameTakenError(f"the name {name!r} is taken") from None
        self._forget_sessions(user_id=user_id)
        return account

    def reset_password(self, user_id: str, password: str) -> Account:
        """Set the account's password (an operator's reset: the old one is not asked
        for); its signed-in sessions end, its known devices and its log-in attempts are
        forgotten."""
        account = self.account(user_id)
        if account.deleted:
            raise NoSuchAccountError("no such account (or it was deleted)")
        check_password(password, account.name)
        self._set_password(user_id, password)
        self._end_sessions(user_id)
        with self._engine.begin() as connection:
            connection.execute(delete(devices).where(devices.c.user_id == user_id))
        self._forget_attempts(account.name)
        return self.account(user_id)

    def delete_account(self, user_id: str) -> None:
        """Delete the account: its name, password, sessions and devices go, its log-in
        attempts are forgotten, and its row stays anonymous (``deleted player`` and a
        number), so that its finished games and tournament results stand without its name.
        Its name is free for another account."""
        account = self.account(user_id)
        if account.deleted:
            raise NoSuchAccountError("no such account (or it was deleted)")
        self._end_sessions(user_id)
        with self._engine.begin() as connection:
            connection.execute(
                update(users)
                .where(users.c.id == user_id)
                .values(
                    name=f"deleted player {user_id[:8]}",
                    name_key=f"~{user_id}"[:32],  # no name's key starts with "~"
                    password_hash="",
                    operator=False,
                    disabled=True,
                    deleted_at=self._clock(),
                    last_login_at=None,
                )
            )
            connection.execute(delete(devices).where(devices.c.user_id == user_id))
        self._forget_attempts(account.name)

    def operators(self) -> int:
        """Operators whose accounts may sign in."""
        with self._engine.connect() as connection:
            count = connection.execute(
                select(func.count()).where(
                    and_(users.c.operator.is_(True), users.c.disabled.is_(False))
                )
            ).scalar_one()
        return int(count)

    # -- known devices --------------------------------------------------------------

    def _known_device(self, user_id: str, token: str) -> str | None:
        """The hash of device token ``token`` if it is a device ``user_id`` logged in from
        within :data:`DEVICE_DAYS`, else None."""
        token_hash = _hash(token)
        since = self._clock() - DEVICE_DAYS * 86_400
        with self._engine.connect() as connection:
            found = connection.execute(
                select(devices.c.token_hash).where(
                    devices.c.token_hash == token_hash,
                    devices.c.user_id == user_id,
                    devices.c.used_at > since,
                )
            ).first()
        return None if found is None else token_hash

    def _new_device(self, user_id: str) -> str:
        """A new device token for ``user_id`` (kept as its hash), forgetting the devices
        unused for :data:`DEVICE_DAYS` and the least recently used past
        :data:`MAX_DEVICES`."""
        token = secrets.token_urlsafe(32)
        now = self._clock()
        with self._engine.begin() as connection:
            connection.execute(
                insert(devices).values(
                    token_hash=_hash(token), user_id=user_id, created_at=now, used_at=now
                )
            )
            kept = (
                select(devices.c.token_hash)
                .where(devices.c.user_id == user_id, devices.c.used_at > now - DEVICE_DAYS * 86_400)
                .order_by(devices.c.used_at.desc())
                .limit(MAX_DEVICES)
            )
            connection.execute(
                delete(devices).where(
                    devices.c.user_id == user_id,
                    devices.c.token_hash.not_in(kept.scalar_subquery()),
                )
            )
        return token

    # -- limits ---------------------------------------------------------------------

    def _claim(self, key: str, address: str, device: str | None) -> int:
        """Write a failed log-in attempt on account ``key`` from ``address`` (and known
        device ``device``, a hash) and return its id, in one transaction with the counts
        that allow it; :class:`TooManyAttemptsError`, nothing written, past a limit."""
        self._prune()
        limits = self._limits
        now = self._clock()
        place = _hash(address)
        attempts = login_attempts.c
        with self._engine.begin() as connection:
            _serialize(connection, f"login account {key}", f"login address {place}")
            attempt: int = connection.execute(
                insert(login_attempts)
                .values(name_key=key, address=place, device=device, at=now, failed=True)
                .returning(login_attempts.c.id)
            ).scalar_one()
            others = and_(attempts.id != attempt, attempts.name_key == key)
            client = (
                attempts.device == device
                if device is not None
                else and_(attempts.address == place, attempts.device.is_(None))
            )
            since = connection.execute(
                select(func.max(attempts.at)).where(others, client, attempts.failed.is_(False))
            ).scalar()
            since = max(now - limits.backoff_window, -math.inf if since is None else since)
            failures, last = connection.execute(
                select(func.count(), func.max(attempts.at)).where(
                    others, client, attempts.failed, attempts.at > since
                )
            ).one()
            wait = 0.0 if last is None else last + limits.backoff(failures) - now
            if wait > 0:
                seconds = _seconds(wait)
                raise TooManyAttemptsError(
                    f"too many failed log-ins to this account from here: try again in {seconds} s",
                    seconds,
                )
            if device is not None:
                return attempt  # a known device passes the caps on new devices
            recent = and_(
                attempts.id != attempt,
                attempts.device.is_(None),
                attempts.failed,
                attempts.at > now - limits.window,
            )
            for column, value, cap, refusal in (
                (
                    attempts.name_key,
                    key,
                    limits.account,
                    "too many failed log-ins to this account from new devices: try again in "
                    "{} s, or from a device you have logged in from before",
                ),
                (
                    attempts.address,
                    place,
                    limits.address,
                    "too many failed log-ins from your address: try again in {} s, or from a "
                    "device you have logged in from before",
                ),
            ):
                where = and_(recent, column == value)
                count = connection.execute(select(func.count()).where(where)).scalar_one()
                if count >= cap:
                    # the failure whose ageing brings the count under the cap
                    freeing = connection.execute(
                        select(attempts.at)
                        .where(where)
                        .order_by(attempts.at)
                        .offset(count - cap)
                        .limit(1)
                    ).scalar_one()
                    seconds = _seconds(freeing + limits.window - now)
                    raise TooManyAttemptsError(refusal.format(seconds), seconds)
        return attempt

    def _check(self, attempt: int, stored: str | None, password: str) -> bool:
        """Whether ``password`` is the one hashed in ``stored``; with no stored hash (no
        such account) the same work is done on a dummy hash, and the answer is no. When
        hashing is full the attempt is taken back, as never made."""
        try:
            if stored is None:
                self._hashing.verify(self._dummy_hash(), password)
                return False
            return self._hashing.verify(stored, password)
        except BusyError:
            with self._engine.begin() as connection:
                connection.execute(delete(login_attempts).where(login_attempts.c.id == attempt))
            raise

    def _succeeded(self, attempt: int) -> None:
        with self._engine.begin() as connection:
            connection.execute(
                update(login_attempts).where(login_attempts.c.id == attempt).values(failed=False)
            )

    def _dummy_hash(self) -> str:
        """A hash of a random password with the hasher's parameters, made once."""
        with self._dummy_lock:
            if self._dummy is None:
                self._dummy = self._hashing.hash(secrets.token_urlsafe(24))
            return self._dummy

    def _claim_sign_up(self, address: str) -> int:
        """Count a sign-up from ``address`` and return its id, in one transaction with the
        count that allows it; :class:`TooManyAttemptsError`, nothing written, past it."""
        self._prune()
        now = self._clock()
        place = _hash(address)
        limit = self._sign_ups_per_hour
        with self._engine.begin() as connection:
            _serialize(connection, f"sign-up address {place}")
            claim: int = connection.execute(
                insert(sign_ups).values(address=place, at=now).returning(sign_ups.c.id)
            ).scalar_one()
            where = and_(sign_ups.c.id != claim, sign_ups.c.address == place)
            where = and_(where, sign_ups.c.at > now - 3_600)
            count = connection.execute(select(func.count()).where(where)).scalar_one()
            if count >= limit:
                freeing = connection.execute(
                    select(sign_ups.c.at)
                    .where(where)
                    .order_by(sign_ups.c.at)
                    .offset(count - limit)
                    .limit(1)
                ).scalar_one()
                seconds = _seconds(freeing + 3_600 - now)
                raise TooManyAttemptsError(
                    f"too many sign-ups from your address: at most {limit} an hour; try again "
                    f"in {seconds} s",
                    seconds,
                )
        return claim

    def _prune(self) -> None:
        """Delete the attempts and sign-ups too old to count, at most every
        :data:`PRUNE_SECONDS` in this process, and in one process at a time."""
        now = self._clock()
        if now - self._pruned < PRUNE_SECONDS:
            return
        self._pruned = now
        keep = max(self._limits.backoff_window, self._limits.window)
        with self._engine.begin() as connection:
            if (
                connection.dialect.name == "postgresql"
                and not connection.execute(
                    text("SELECT pg_try_advisory_xact_lock(:key)"), {"key": _PRUNE_LOCK}
                ).scalar_one()
            ):
                return
            connection.execute(delete(login_attempts).where(login_attempts.c.at < now - keep))
            connection.execute(delete(sign_ups).where(sign_ups.c.at < now - 3_600))

    # -- passwords ------------------------------------------------------------------

    def _set_password(self, user_id: str, password: str) -> None:
        password_hash = self._hashing.hash(password)
        with self._engine.begin() as connection:
            connection.execute(
                update(users).where(users.c.id == user_id).values(password_hash=password_hash)
            )

"""Accounts: sign up, log in and out, change a password, signed-in sessions that expire.

A password is kept only as its argon2id hash (``argon2-cffi``, with a salt of its own and
the library's parameters, which it records in the hash); a signed-in session is a random
token the browser keeps in a cookie and the database only as its SHA-256. The token also
gives the session's CSRF token (:func:`csrf_token`), which the page sends back as a
header: the database holds nothing from which anyone could sign in.

Failed log-ins are counted in the database, per account and per address, so that every
server process counts the same; past the limits a log-in is refused with the seconds to
wait (:class:`TooManyAttemptsError`), the right password included.

>>> check_name("  Ada Lovelace ")
'Ada Lovelace'
>>> check_name("a")
Traceback (most recent call last):
...
patience.players.accounts.AccountError: a name has 2 to 24 characters
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Engine, and_, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from patience.errors import PatienceError
from patience.store.db import login_failures, logins, users

__all__ = [
    "AccountError",
    "Accounts",
    "BadCredentialsError",
    "NameTakenError",
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


class TooManyAttemptsError(AccountError):
    """Too many failed log-ins lately, for the account or from the address."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


@dataclass(frozen=True, slots=True)
class User:
    """An account as the rest of the platform sees it (never its password's hash)."""

    id: str
    name: str
    operator: bool
    created_at: float


@dataclass(frozen=True, slots=True)
class SignedIn:
    """A new signed-in session: the cookie's token (shown once, kept hashed), its CSRF
    token, and when it expires."""

    user: User
    token: str
    csrf: str
    expires_at: float


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


class Accounts:
    """Accounts and signed-in sessions in the database of ``engine``.

    ``session_days``: how long a log-in lasts. ``failures_per_account`` and
    ``failures_per_address``: failed log-ins allowed within ``failure_window`` seconds.
    ``clock``: wall-clock seconds (tests move it)."""

    def __init__(
        self,
        engine: Engine,
        *,
        session_days: float = 14.0,
        failures_per_account: int = 5,
        failures_per_address: int = 20,
        failure_window: float = 900.0,
        clock: Callable[[], float] = time.time,
        hasher: PasswordHasher | None = None,
    ) -> None:
        self._engine = engine
        self._session_seconds = session_days * 86_400
        self._per_account = failures_per_account
        self._per_address = failures_per_address
        self._window = failure_window
        self._clock = clock
        self._hasher = hasher or PasswordHasher()

    # -- accounts -------------------------------------------------------------------

    def create(self, name: str, password: str, *, operator: bool = False) -> User:
        """A new account (:class:`NameTakenError` if the name is taken)."""
        name = check_name(name)
        check_password(password, name)
        user = User(secrets.token_hex(16), name, operator, self._clock())
        try:
            with self._engine.begin() as connection:
                connection.execute(
                    insert(users).values(
                        id=user.id,
                        name=user.name,
                        name_key=name_key(name),
                        password_hash=self._hasher.hash(password),
                        operator=operator,
                        created_at=user.created_at,
                    )
                )
        except IntegrityError:
            raise NameTakenError(f"the name {name!r} is taken") from None
        return user

    def user(self, user_id: str) -> User | None:
        """The account ``user_id``, if there is one."""
        with self._engine.connect() as connection:
            row = connection.execute(select(users).where(users.c.id == user_id)).first()
        return None if row is None else User(row.id, row.name, row.operator, row.created_at)

    def sign_up(self, name: str, password: str) -> SignedIn:
        """A new account, signed in."""
        user = self.create(name, password)
        return self._sign_in(user)

    def log_in(self, name: str, password: str, *, address: str) -> SignedIn:
        """Sign in by name and password from ``address``: :class:`BadCredentialsError` for a
        wrong name or password, :class:`TooManyAttemptsError` past the limits."""
        key = name_key(name)
        self._check_attempts(key, address)
        with self._engine.connect() as connection:
            row = connection.execute(select(users).where(users.c.name_key == key)).first()
        if row is None or not self._verify(row.password_hash, password):
            now = self._clock()
            with self._engine.begin() as connection:
                connection.execute(
                    delete(login_failures).where(login_failures.c.at < now - self._window)
                )
                connection.execute(
                    insert(login_failures).values(name_key=key[:32], address=address[:64], at=now)
                )
            raise BadCredentialsError("no account of that name has that password")
        user = User(row.id, row.name, row.operator, row.created_at)
        if self._hasher.check_needs_rehash(row.password_hash):
            self._set_password(user.id, password)
        return self._sign_in(user)

    def change_password(self, user: User, old: str, new: str) -> None:
        """Replace ``user``'s password, given the old one; every other signed-in session
        of the account ends (the caller signs this one in again)."""
        with self._engine.connect() as connection:
            stored = connection.execute(
                select(users.c.password_hash).where(users.c.id == user.id)
            ).scalar_one()
        if not self._verify(stored, old):
            raise BadCredentialsError("the old password is not right")
        check_password(new, user.name)
        self._set_password(user.id, new)
        with self._engine.begin() as connection:
            connection.execute(delete(logins).where(logins.c.user_id == user.id))

    # -- signed-in sessions ---------------------------------------------------------

    def session(self, token: str) -> User | None:
        """The account signed in by cookie token ``token``, unless it expired or was ended."""
        now = self._clock()
        with self._engine.connect() as connection:
            row = connection.execute(
                select(users)
                .join(logins, logins.c.user_id == users.c.id)
                .where(and_(logins.c.token_hash == _hash(token), logins.c.expires_at > now))
            ).first()
        return None if row is None else User(row.id, row.name, row.operator, row.created_at)

    def log_out(self, token: str) -> None:
        """End the signed-in session of ``token`` (nothing if there is none)."""
        with self._engine.begin() as connection:
            connection.execute(delete(logins).where(logins.c.token_hash == _hash(token)))

    def sign_in_again(self, user: User) -> SignedIn:
        """A new signed-in session for ``user`` (after a password change)."""
        return self._sign_in(user)

    def _sign_in(self, user: User) -> SignedIn:
        token = secrets.token_urlsafe(32)
        now = self._clock()
        expires = now + self._session_seconds
        with self._engine.begin() as connection:
            connection.execute(delete(logins).where(logins.c.expires_at <= now))
            connection.execute(
                insert(logins).values(
                    token_hash=_hash(token), user_id=user.id, created_at=now, expires_at=expires
                )
            )
        return SignedIn(user, token, csrf_token(token), expires)

    # -- passwords ------------------------------------------------------------------

    def _verify(self, stored: str, password: str) -> bool:
        try:
            return self._hasher.verify(stored, password)
        except (VerificationError, InvalidHashError):
            return False

    def _set_password(self, user_id: str, password: str) -> None:
        with self._engine.begin() as connection:
            connection.execute(
                update(users)
                .where(users.c.id == user_id)
                .values(password_hash=self._hasher.hash(password))
            )

    def _check_attempts(self, key: str, address: str) -> None:
        since = self._clock() - self._window
        with self._engine.connect() as connection:
            for column, value, limit, what in (
                (login_failures.c.name_key, key[:32], self._per_account, "this account"),
                (login_failures.c.address, address[:64], self._per_address, "your address"),
            ):
                count, oldest = connection.execute(
                    select(func.count(), func.min(login_failures.c.at)).where(
                        and_(column == value, login_failures.c.at > since)
                    )
                ).one()
                if count >= limit:
                    wait = max(1, int(oldest + self._window - self._clock()) + 1)
                    raise TooManyAttemptsError(
                        f"too many failed log-ins for {what}: try again in {wait} s", wait
                    )

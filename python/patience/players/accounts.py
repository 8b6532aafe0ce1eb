"""Accounts: sign up, log in and out, change a password, signed-in sessions that expire.

A password is kept only as its argon2id hash (``argon2-cffi``, with a salt of its own and
the library's parameters, which it records in the hash); a signed-in session is a random
token the browser keeps in a cookie and the database only as its SHA-256. The token also
gives the session's CSRF token (:func:`csrf_token`), which the page sends back as a
header: the database holds nothing from which anyone could sign in.

Failed log-ins are counted in the database, per account and per address, so that every
server process counts the same; past the limits a log-in is refused with the seconds to
wait (:class:`TooManyAttemptsError`), the right password included.

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

import hashlib
import hmac
import re
import secrets
import threading
import time
import unicodedata
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Engine, and_, case, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from patience.errors import PatienceError
from patience.store.db import login_failures, logins, sessions, users

__all__ = [
    "Account",
    "AccountError",
    "Accounts",
    "BadCredentialsError",
    "DisabledError",
    "NameTakenError",
    "NoSuchAccountError",
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


SESSION_CACHE_SECONDS = 2.0
"""How long a signed-in session, once looked up, is taken as it was without asking the
database again: a log-out, a disabled or deleted account or a password change in this
process ends the session at once; in another server process within this time."""

SESSION_CACHE_SIZE = 20_000
"""Signed-in sessions remembered at most (the least recently used are forgotten)."""


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
        # Signed-in sessions seen lately: a request's session is looked up in the database
        # at most once every SESSION_CACHE_SECONDS (the event loop answers moves meanwhile).
        self._seen: OrderedDict[str, tuple[User, float, float]] = OrderedDict()
        self._seen_lock = threading.Lock()

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
        if (
            row is None
            or row.deleted_at is not None
            or not self._verify(row.password_hash, password)
        ):
            now = self._clock()
            with self._engine.begin() as connection:
                connection.execute(
                    delete(login_failures).where(login_failures.c.at < now - self._window)
                )
                connection.execute(
                    insert(login_failures).values(name_key=key[:32], address=address[:64], at=now)
                )
            raise BadCredentialsError("no account of that name has that password")
        if row.disabled:
            raise DisabledError("this account is disabled: ask an operator")
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
        self._end_sessions(user.id)

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
        user = User(row.id, row.name, row.operator, row.created_at)
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
        """End the signed-in session of ``token`` (nothing if there is none)."""
        self._forget_sessions(token_hash=_hash(token))
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
            connection.execute(update(users).where(users.c.id == user.id).values(last_login_at=now))
            connection.execute(delete(logins).where(logins.c.expires_at <= now))
            connection.execute(
                insert(logins).values(
                    token_hash=_hash(token), user_id=user.id, created_at=now, expires_at=expires
                )
            )
        return SignedIn(user, token, csrf_token(token), expires)

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
        for); its signed-in sessions end, and its failed log-ins are forgotten."""
        account = self.account(user_id)
        if account.deleted:
            raise NoSuchAccountError("no such account (or it was deleted)")
        check_password(password, account.name)
        self._set_password(user_id, password)
        self._end_sessions(user_id)
        with self._engine.begin() as connection:
            connection.execute(
                delete(login_failures).where(login_failures.c.name_key == name_key(account.name))
            )
        return self.account(user_id)

    def delete_account(self, user_id: str) -> None:
        """Delete the account: its name, password and sessions go, its failed log-ins are
        forgotten, and its row stays anonymous (``deleted player`` and a number), so that
        its finished games and tournament results stand without its name. Its name is free
        for another account."""
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
            connection.execute(
                delete(login_failures).where(login_failures.c.name_key == name_key(account.name))
            )

    def operators(self) -> int:
        """Operators whose accounts may sign in."""
        with self._engine.connect() as connection:
            count = connection.execute(
                select(func.count()).where(
                    and_(users.c.operator.is_(True), users.c.disabled.is_(False))
                )
            ).scalar_one()
        return int(count)

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

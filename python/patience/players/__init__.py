"""Players (docs/architecture.md, layer 9): accounts and signed-in sessions
(:mod:`.accounts`), and what a player has played (:mod:`.history`)."""

from .accounts import (
    Account,
    AccountError,
    Accounts,
    BadCredentialsError,
    BusyError,
    DisabledError,
    LoginLimits,
    NameTakenError,
    NoSuchAccountError,
    PasswordHashing,
    SignedIn,
    TooManyAttemptsError,
    User,
    csrf_token,
)

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
    "csrf_token",
]

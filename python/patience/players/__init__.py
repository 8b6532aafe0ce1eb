"""Players (docs/architecture.md, layer 9): accounts and signed-in sessions
(:mod:`.accounts`), and what a player has played (:mod:`.history`)."""

from .accounts import (
    AccountError,
    Accounts,
    BadCredentialsError,
    BusyError,
    LoginLimits,
    NameTakenError,
    PasswordHashing,
    SignedIn,
    TooManyAttemptsError,
    User,
    csrf_token,
)

__all__ = [
    "AccountError",
    "Accounts",
    "BadCredentialsError",
    "BusyError",
    "LoginLimits",
    "NameTakenError",
    "PasswordHashing",
    "SignedIn",
    "TooManyAttemptsError",
    "User",
    "csrf_token",
]

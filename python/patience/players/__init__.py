"""Players (ARCHITECTURE.md, layer 9): accounts and signed-in sessions
(:mod:`.accounts`), and what a player has played (:mod:`.history`)."""

from .accounts import (
    Account,
    AccountError,
    Accounts,
    BadCredentialsError,
    DisabledError,
    NameTakenError,
    NoSuchAccountError,
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
    "DisabledError",
    "NameTakenError",
    "NoSuchAccountError",
    "SignedIn",
    "TooManyAttemptsError",
    "User",
    "csrf_token",
]

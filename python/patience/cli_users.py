"""``patience users create NAME [--operator]``: make an account in the database the server
uses (``PATIENCE_DATABASE_URL``); the first operator is made this way. The password is
asked for twice on the terminal (or read from standard input's first line when it is not
a terminal), never taken from the command line, where other users of the machine and the
shell's history would see it."""

from __future__ import annotations

import argparse
import getpass
import sys
from typing import Any

from patience.players import AccountError, Accounts

__all__ = ["add_commands", "run_command"]


def add_commands(commands: Any) -> None:
    """Add ``patience users`` to the command's subparsers."""
    users = commands.add_parser("users", help="players' accounts")
    user_commands = users.add_subparsers(dest="users_command", required=True)
    create = user_commands.add_parser("create", help="make an account (asks for the password)")
    create.add_argument("name", help="the display name (2 to 24 characters)")
    create.add_argument("--operator", action="store_true", help="may run tournaments")


def _password() -> str:
    if not sys.stdin.isatty():
        return sys.stdin.readline().rstrip("\n")
    first = getpass.getpass("Password: ")
    if getpass.getpass("Password again: ") != first:
        raise AccountError("the two passwords differ")
    return first


def run_command(args: argparse.Namespace) -> int:
    """Run a ``patience users`` command; the exit status."""
    from patience.cli_deals import open_database

    try:
        password = _password()
        database = open_database(create=True)
        try:
            user = Accounts(database).create(args.name, password, operator=args.operator)
        finally:
            database.dispose()
    except AccountError as error:
        print(f"patience: {error}", file=sys.stderr)
        return 1
    role = "operator" if user.operator else "player"
    print(f"{role} {user.name} created")
    return 0

"""``patience users create | list | show | disable | enable | rename | reset-password |
promote | demote | delete``: players' accounts, in the database the server uses
(``PATIENCE_DATABASE_URL``), for whoever runs the server's machine; the first operator is
made here (``create NAME --operator``). Accounts are named as players wrote them, compared
without case.

A password is asked for twice on the terminal (or read from standard input's first line
when it is not a terminal), never taken from the command line, where other users of the
machine and the shell's history would see it; ``reset-password --generate`` makes a random
one and prints it once. ``delete`` asks to be confirmed on a terminal (``--yes`` elsewhere).
"""

from __future__ import annotations

import argparse
import datetime
import getpass
import json
import secrets
import sys
from typing import Any

from patience.players import Account, AccountError, Accounts

__all__ = ["add_commands", "run_command"]


def add_commands(commands: Any) -> None:
    """Add ``patience users`` to the command's subparsers."""
    users = commands.add_parser("users", help="players' accounts")
    sub = users.add_subparsers(dest="users_command", required=True)
    create = sub.add_parser("create", help="make an account (asks for the password)")
    create.add_argument("name", help="the display name (2 to 24 characters)")
    create.add_argument("--operator", action="store_true", help="may run tournaments")
    listing = sub.add_parser("list", help="every account, by name")
    listing.add_argument("--search", default="", help="only names holding this")
    listing.add_argument("--deleted", action="store_true", help="the deleted accounts too")
    listing.add_argument("--json", action="store_true", help="one JSON object an account a line")
    show = sub.add_parser("show", help="one account: its role, state, games and log-ins")
    show.add_argument("name")
    show.add_argument("--json", action="store_true", help="print one JSON object")
    for name, text in (
        ("disable", "the account may not sign in; its signed-in sessions end"),
        ("enable", "the account may sign in again"),
        ("promote", "make the account an operator"),
        ("demote", "make the operator a player"),
    ):
        sub.add_parser(name, help=text).add_argument("name")
    rename = sub.add_parser("rename", help="give an account another name")
    rename.add_argument("name")
    rename.add_argument("new_name", metavar="NEW_NAME")
    reset = sub.add_parser(
        "reset-password", help="set an account's password (asks for it); its sessions end"
    )
    reset.add_argument("name")
    reset.add_argument("--generate", action="store_true", help="a random one, printed once")
    delete = sub.add_parser(
        "delete", help="delete an account: name and password go, its games stay anonymous"
    )
    delete.add_argument("name")
    delete.add_argument("--yes", action="store_true", help="no question asked")


def _password() -> str:
    if not sys.stdin.isatty():
        return sys.stdin.readline().rstrip("\n")
    first = getpass.getpass("Password: ")
    if getpass.getpass("Password again: ") != first:
        raise AccountError("the two passwords differ")
    return first


def _when(moment: float | None) -> str:
    if moment is None:
        return "never"
    return datetime.datetime.fromtimestamp(moment).strftime("%Y-%m-%d %H:%M")


def _state(account: Account) -> str:
    if account.deleted:
        return "deleted"
    return "disabled" if account.disabled else "active"


def _role(account: Account) -> str:
    return "operator" if account.operator else "player"


def _table(accounts: list[Account]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(box=None, pad_edge=False)
    for heading, justify in (
        ("name", "left"),
        ("role", "left"),
        ("state", "left"),
        ("games", "right"),
        ("signed in", "right"),
        ("last log-in", "left"),
        ("created", "left"),
    ):
        table.add_column(heading, justify=justify, no_wrap=True)  # type: ignore[arg-type]
    for account in accounts:
        table.add_row(
            account.name,
            _role(account),
            _state(account),
            str(account.games),
            str(account.sessions),
            _when(account.last_login_at),
            _when(account.created_at),
        )
    # on a terminal, its width; into a pipe or a file, whole lines
    width = None if sys.stdout.isatty() else 400
    Console(highlight=False, width=width).print(table)


def run_command(args: argparse.Namespace) -> int:
    """Run a ``patience users`` command; the exit status."""
    from patience.cli_deals import open_database

    command = args.users_command
    try:
        password = None
        if command == "create" or (command == "reset-password" and not args.generate):
            password = _password()
        database = open_database()
        try:
            return _run(command, args, Accounts(database), password)
        finally:
            database.dispose()
    except AccountError as error:
        print(f"patience: {error}", file=sys.stderr)
        return 1


def _run(command: str, args: argparse.Namespace, accounts: Accounts, password: str | None) -> int:
    if command == "create":
        assert password is not None
        user = accounts.create(args.name, password, operator=args.operator)
        print(f"{'operator' if user.operator else 'player'} {user.name} created")
        return 0
    if command == "list":
        page, _ = accounts.accounts(search=args.search, deleted=args.deleted, limit=10**9)
        if args.json:
            for account in page:
                print(json.dumps(account.to_json()))
        elif page:
            _table(page)
        else:
            print("no accounts" + (f" with {args.search!r} in the name" if args.search else ""))
        return 0
    account = accounts.find(args.name)
    if command == "show":
        if args.json:
            print(json.dumps(account.to_json()))
            return 0
        print(f"{account.name}: {_role(account)}, {_state(account)}")
        print(f"  created {_when(account.created_at)}, last log-in {_when(account.last_login_at)}")
        print(f"  {account.games} finished games, {account.sessions} signed-in sessions")
        print(f"  id {account.id}")
        return 0
    if command in ("disable", "enable"):
        account = accounts.set_disabled(account.id, command == "disable")
        ended = " (its signed-in sessions ended)" if command == "disable" else ""
        print(f"{account.name} is {_state(account)}{ended}")
    elif command in ("promote", "demote"):
        account = accounts.set_operator(account.id, command == "promote")
        print(f"{account.name} is now {'an operator' if account.operator else 'a player'}")
        if command == "demote" and accounts.operators() == 0:
            print("patience: no operator is left: make one with `patience users promote NAME`")
    elif command == "rename":
        old = account.name
        account = accounts.rename(account.id, args.new_name)
        print(f"{old} is now named {account.name}")
    elif command == "reset-password":
        if args.generate:
            password = secrets.token_urlsafe(12)
        assert password is not None
        account = accounts.reset_password(account.id, password)
        print(f"{account.name}'s password is set; their signed-in sessions ended")
        if args.generate:
            print(f"new password: {password}")
    elif command == "delete":
        if not args.yes:
            if not sys.stdin.isatty():
                raise AccountError("deleting an account is confirmed with --yes")
            answer = input(f"Delete {account.name}? Their games stay, without their name [y/N] ")
            if answer.strip().lower() not in ("y", "yes"):
                print("nothing deleted")
                return 1
        accounts.delete_account(account.id)
        print(f"{account.name} deleted; {account.games} finished games kept, anonymous")
    return 0

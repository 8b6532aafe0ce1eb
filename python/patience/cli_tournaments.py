"""``patience tournament create | list | standings | close | cancel | verify``.

All but ``verify`` work on the database the server uses (``PATIENCE_DATABASE_URL``), on the
server's machine, in the name of an operator's account (``--operator NAME``). ``verify``
checks a closed tournament's publication from anywhere: a URL (the server's
``/api/tournaments/ID/verification``) or a file of it; it needs nothing of the server.
"""

from __future__ import annotations

import argparse
import datetime
import json
import re
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

from sqlalchemy import select

from patience import cli_types
from patience.catalog import rated_again, rating_witness
from patience.errors import PatienceError
from patience.games import GAMES
from patience.players import User
from patience.players.accounts import name_key
from patience.tournaments import (
    CatalogShortError,
    TournamentError,
    Tournaments,
    notices,
    verify,
)

__all__ = ["add_commands", "run_command"]


def add_commands(commands: Any) -> None:
    """Add ``patience tournament`` to the command's subparsers."""
    tournament = commands.add_parser("tournament", help="tournaments")
    sub = tournament.add_subparsers(dest="tournament_command", required=True)
    create = sub.add_parser("create", help="make a tournament (its deals from the catalog)")
    create.add_argument("name")
    create.add_argument("game", choices=sorted(GAMES))
    create.add_argument("--variant", default="{}", help="JSON, e.g. '{\"draw\": 3}'")
    create.add_argument("--policy", choices=("shared", "tier"), default="shared")
    create.add_argument("--tier", type=cli_types.tier, help="1 (easiest) to 10 (hardest)")
    create.add_argument("--opens-in", type=cli_types.minutes, default=0.0, help="minutes from now")
    create.add_argument("--minutes", type=cli_types.minutes, required=True, help="how long it runs")
    create.add_argument("--attempts", type=cli_types.positive, default=1)
    create.add_argument("--max-entrants", type=cli_types.positive, default=100)
    create.add_argument("--operator", required=True, help="the operator account's name")
    create.add_argument("--json", action="store_true")
    sub.add_parser("list", help="every tournament").add_argument("--json", action="store_true")
    standings = sub.add_parser("standings", help="a tournament's standings")
    standings.add_argument("id")
    standings.add_argument("--offset", type=cli_types.at_least_zero, default=0)
    standings.add_argument("--limit", type=cli_types.positive, default=20)
    standings.add_argument("--json", action="store_true")
    close = sub.add_parser("close", help="close a tournament now (recorded and published)")
    close.add_argument("id")
    close.add_argument("--operator", required=True, help="the operator account's name")
    cancel = sub.add_parser("cancel", help="cancel a tournament now: closed, without results")
    cancel.add_argument("id")
    cancel.add_argument("--operator", required=True, help="the operator account's name")
    cancel.add_argument(
        "--yes", action="store_true", help="cancel it (without it: what would end, nothing changed)"
    )
    check = sub.add_parser(
        "verify", help="check a closed tournament: commitment, tiers, replays, ranks"
    )
    check.add_argument("source", help="the verification's URL, or a file of it (- for stdin)")
    check.add_argument("--no-tiers", action="store_true", help="skip rating every seed again")
    check.add_argument(
        "--model",
        type=Path,
        help="the rating model file the server's catalog used, when it is not the one this"
        " patience ships (its version must be the one the document names)",
    )
    check.add_argument("--json", action="store_true")


def _operator(tournaments: Tournaments, name: str) -> User:
    from patience.store.db import users

    with tournaments.engine.connect() as connection:
        row = connection.execute(select(users).where(users.c.name_key == name_key(name))).first()
    if row is None or not row.operator:
        raise PatienceError(f"no operator account named {name!r}")
    return User(row.id, row.name, row.operator, row.created_at)


def _when(seconds: float) -> str:
    return datetime.datetime.fromtimestamp(seconds, datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")


def verification_url(source: str) -> str:
    """The verification publication's address for a tournament's address: its page in the
    client, its API resource or the publication itself.

    >>> verification_url("https://example.org/#/tournaments/5f3a")
    'https://example.org/api/tournaments/5f3a/verification'
    >>> verification_url("http://h:8000/api/tournaments/5f3a")
    'http://h:8000/api/tournaments/5f3a/verification'
    >>> verification_url("http://h:8000/api/tournaments/5f3a/verification")
    'http://h:8000/api/tournaments/5f3a/verification'
    """
    parts = urllib.parse.urlsplit(source)
    page = re.fullmatch(r"/?tournaments/([0-9A-Za-z_-]+)/?", parts.fragment)
    resource = re.fullmatch(r"(.*/api/tournaments/[0-9A-Za-z_-]+)/?", parts.path)
    if page:
        path = f"/api/tournaments/{page[1]}/verification"
    elif resource:
        path = f"{resource[1]}/verification"
    else:
        return source
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, path, "", ""))


def _load(source: str) -> Any:
    if source == "-":
        published = json.load(sys.stdin)
    elif source.startswith(("http://", "https://")):
        try:
            with urllib.request.urlopen(verification_url(source), timeout=60) as answer:
                published = json.load(answer)
        except urllib.error.HTTPError as error:
            try:  # the API's refusal says why; a proxy's page of HTML does not
                detail = json.loads(error.read() or b"{}").get("detail", error.reason)
            except (ValueError, AttributeError):
                detail = error.reason
            raise ValueError(f"the server answered {error.code}: {detail}") from None
    else:
        published = json.loads(Path(source).read_text())
    if not isinstance(published, dict) or not {"document", "entries"} <= published.keys():
        raise ValueError(
            "this is not a tournament's verification publication (it is published once the "
            "tournament has closed)"
        )
    return published


def _verify(args: argparse.Namespace) -> int:
    try:
        published = _load(args.source)
        model_path = None if args.model is None else str(args.model)
        tier_of = (
            None
            if args.no_tiers
            else lambda g, v, s, m, r: rated_again(g, v, s, m, r, model_path=model_path)
        )
        witness_of = None if args.no_tiers else rating_witness
        problems = verify(published, tier_of=tier_of, witness_of=witness_of)
    except urllib.error.URLError as error:  # before OSError, of which it is one
        reason = getattr(error.reason, "strerror", None) or error.reason
        print(f"patience: cannot verify {args.source}: {reason}", file=sys.stderr)
        return 1
    except OSError as error:
        reason = error.strerror or str(error)
        print(f"patience: cannot verify {args.source}: {reason}", file=sys.stderr)
        return 1
    except (ValueError, KeyError, TypeError) as error:
        print(f"patience: cannot verify {args.source}: {error}", file=sys.stderr)
        return 1
    said = notices(published)
    if args.json:
        print(json.dumps({"verified": not problems, "problems": problems, "notices": said}))
        return 1 if problems else 0
    if problems:
        for problem in problems:
            print(f"FAILED: {problem}")
    else:
        entries = len(published["entries"])
        print(
            f"verified: commitment {published['commitment'][:16]}..., "
            f"{len(published['document']['deals'])} deal(s)"
            f"{'' if args.no_tiers else ' with their tiers'}, {entries} entries replayed and "
            "ranked as published"
        )
    for notice in said:
        print(f"note: {notice}")
    return 1 if problems else 0


def run_command(args: argparse.Namespace) -> int:
    """Run a ``patience tournament`` command; the exit status."""
    if args.tournament_command == "verify":
        return _verify(args)
    from patience.cli_deals import open_database
    from patience.store.games import GameStore

    engine = open_database()
    store = GameStore(engine)
    tournaments = Tournaments(store)
    store.on_game_end(tournaments.game_ended)
    try:
        return _run(args, tournaments)
    except CatalogShortError as short:  # the operator at a shell: the command that makes them
        print(
            f"patience: {short} `patience deals generate {short.game}` (with the variant's "
            "options) makes more, as does a running server's refill; then create it again.",
            file=sys.stderr,
        )
        return 1
    except PatienceError as error:
        print(f"patience: {error}", file=sys.stderr)
        return 1
    finally:
        engine.dispose()


def _run(args: argparse.Namespace, tournaments: Tournaments) -> int:
    import time

    command = args.tournament_command
    if command == "create":
        try:
            variant = json.loads(args.variant)
        except ValueError:
            raise PatienceError(f"--variant is JSON, not {args.variant!r}") from None
        if not isinstance(variant, dict):
            raise PatienceError("--variant is a JSON object")
        opens = time.time() + 60 * args.opens_in
        made = tournaments.create(
            _operator(tournaments, args.operator),
            name=args.name,
            game=args.game,
            variant=variant,
            policy=args.policy,
            tier=args.tier,
            opens_at=opens,
            closes_at=opens + 60 * args.minutes,
            attempts=args.attempts,
            max_entrants=args.max_entrants,
        )
        if args.json:
            print(json.dumps(made))
        else:
            print(
                f"tournament {made['id']} ({made['name']}), {_when(made['opens_at'])} to "
                f"{_when(made['closes_at'])}; commitment {made['commitment']}"
            )
        return 0
    if command == "list":
        every = tournaments.all()
        if args.json:
            print(json.dumps({"tournaments": every}))
        for t in [] if args.json else every:
            print(
                f"{t['id']}  {t['status']:<8}  {t['name']}  ({t['title']}, {t['entrants']} "
                f"entrants, closes {_when(t['closes_at'])})"
            )
        return 0
    if command == "standings":
        table = tournaments.standings(args.id, offset=args.offset, limit=args.limit)
        if args.json:
            print(json.dumps(table))
            return 0
        print(table["rule"])
        for row in table["entries"]:
            print(
                f"{row['rank']:>5}  {row['name']:<24} {row['score']:>6}  {row['elapsed']:>8.3f} s"
            )
        print(f"{table['total']} entrants with a finished attempt")
        return 0
    operator = _operator(tournaments, args.operator)
    if command == "cancel":
        if not args.yes:
            shown = tournaments.public(args.id)
            if shown["status"] == "finished":  # as the cancel itself would refuse it
                raise TournamentError("the tournament has closed already")
            print(
                f"patience: would cancel tournament {shown['id']} ({shown['name']}, "
                f"{shown['status']}, {shown['entrants']} entrants): closed now with nobody "
                "ranked, its running attempts ended, its deals and salt published; nothing "
                "cancelled: run again with --yes to cancel it",
                file=sys.stderr,
            )
            return 1
        cancelled = tournaments.cancel(operator, args.id)
        print(
            f"tournament {cancelled['id']} cancelled: no results; its deals and salt are published"
        )
        return 0
    assert command == "close"
    closed = tournaments.close(operator, args.id)
    print(f"tournament {closed['id']} closed early: its deals and salt are published")
    return 0

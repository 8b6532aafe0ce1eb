"""The ``patience`` command: ``play``, ``replay``, ``solve``, ``deals``, ``serve``, ``users``
and ``tournament``.

It behaves as a command-line tool should: every error a user can cause (a bad option, file,
record, deal or move) is printed on standard error as one line with its reason, with a
non-zero exit status and never a traceback (2 for a command line argparse refuses, 1 for
the rest, but 75 from ``serve`` for what may pass: a database that does not answer, server
processes that would not start); a reader that stops reading (``| head``) or Ctrl-C ends it quietly.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import signal
import sys
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from patience import __version__, cli_types
from patience.batch import solve_seeds, summarise
from patience.cli_deals import add_commands as add_catalog_commands
from patience.cli_deals import run_command as run_catalog_command
from patience.cli_deals import variant_from
from patience.cli_ops import add_commands as add_ops_commands
from patience.cli_ops import run_db_command, run_settings_command
from patience.cli_tournaments import add_commands as add_tournament_commands
from patience.cli_tournaments import run_command as run_tournament_command
from patience.cli_users import add_commands as add_user_commands
from patience.cli_users import run_command as run_user_command
from patience.errors import PatienceError
from patience.games import GAMES, Game, new_game
from patience.records import GameRecord, replay_json
from patience.solve import SOLVABLE_GAMES, solve

__all__ = ["main"]


def _add_variant_options(parser: argparse.ArgumentParser, cls: type[Game]) -> None:
    for option in cls.options:
        if all(isinstance(value, bool) for value in option.values):
            parser.add_argument(
                f"--{option.name}",
                action=argparse.BooleanOptionalAction,
                default=option.default,
                help=f"variant option (default: {option.default})",
            )
        else:
            parser.add_argument(
                f"--{option.name}",
                type=type(option.default),
                choices=option.values,
                default=option.default,
                help=f"variant option (default: {option.default})",
            )


def _add_numberings(source: argparse._MutuallyExclusiveGroup, cls: type[Game]) -> None:
    """``--NAME N`` in ``source`` for each numbering of the game's deals that players know
    from elsewhere (:attr:`Game.numberings`)."""
    for name, numbering in cls.numberings.items():
        source.add_argument(
            f"--{name}",
            type=cli_types.deal_number(numbering),
            metavar="N",
            help=f"{numbering.title} N ({numbering.first:,} to {numbering.last:,})",
        )


def _numbered(args: argparse.Namespace, cls: type[Game]) -> tuple[str, int] | None:
    """The numbering and the number of a deal the command line names, if it names one."""
    for name in cls.numberings:
        number = getattr(args, name, None)
        if number is not None:
            return name, number
    return None


_DEFAULT_NODE_LIMIT = 50_000_000


def _add_limits(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--time-limit", type=cli_types.seconds, default=10.0, help="seconds per deal (default: 10)"
    )
    parser.add_argument(
        "--node-limit",
        type=cli_types.positive,
        default=_DEFAULT_NODE_LIMIT,
        help="positions per deal (default: 50,000,000)",
    )


def _game_parsers(
    command: argparse.ArgumentParser, names: Iterable[str]
) -> Iterator[argparse.ArgumentParser]:
    """One sub-parser per game of ``names`` under ``command``, each with the game's variant
    options, for the caller to add the command's own options to."""
    games = command.add_subparsers(dest="game", required=True, metavar="GAME")
    for name in names:
        cls = GAMES[name]
        game_parser = games.add_parser(name, help=cls.title)
        _add_variant_options(game_parser, cls)
        yield game_parser


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="patience", description="Fair, skill-based solitaire.")
    parser.add_argument("--version", action="version", version=f"patience {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    play = commands.add_parser("play", help="play a timed game in the terminal")
    for name, game_parser in zip(GAMES, _game_parsers(play, GAMES), strict=True):
        source = game_parser.add_mutually_exclusive_group()
        source.add_argument(
            "--seed", type=cli_types.seed, help="deal by the seeded shuffle (default: random)"
        )
        source.add_argument("--deal", help="the deal as card strings, first-dealt first")
        _add_numberings(source, GAMES[name])
        game_parser.add_argument(
            "--record", type=Path, help="write the game record here at the end"
        )

    replay = commands.add_parser("replay", help="replay a game record and print the outcome")
    replay.add_argument("file", help="a game record (JSON); - reads standard input")
    replay.add_argument("--json", action="store_true", help="print one JSON object")

    solve_parser = commands.add_parser(
        "solve", help="solve a deal with every card known; the certificate is replayed"
    )
    for name, game_parser in zip(
        SOLVABLE_GAMES, _game_parsers(solve_parser, SOLVABLE_GAMES), strict=True
    ):
        source = game_parser.add_mutually_exclusive_group(required=True)
        source.add_argument("--seed", type=cli_types.seed, help="the deal of this seed")
        source.add_argument("--deal", help="the deal as card strings, first-dealt first")
        _add_numberings(source, GAMES[name])
        source.add_argument(
            "--record", help="the deal and variant of this game record (- reads stdin)"
        )
        _add_limits(game_parser)
        game_parser.add_argument(
            "--wins-only",
            action="store_true",
            help="look for a win only (a solver that proves losses may then win more deals "
            "on a short budget, and prove fewer lost)",
        )
        game_parser.add_argument("--json", action="store_true", help="print one JSON object")

    deals = commands.add_parser("deals", help="deals and seeds")
    deal_commands = deals.add_subparsers(dest="deals_command", required=True)
    stats = deal_commands.add_parser(
        "stats", help="solve many seeded deals on all cores: the winnable share"
    )
    for game_parser in _game_parsers(stats, SOLVABLE_GAMES):
        game_parser.add_argument(
            "--count", type=cli_types.positive, default=1000, help="deals to solve"
        )
        game_parser.add_argument("--first", type=cli_types.seed, default=0, help="the first seed")
        game_parser.add_argument(
            "--jobs", type=cli_types.positive, help="processes (default: all cores)"
        )
        _add_limits(game_parser)
        game_parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_catalog_commands(deal_commands, _game_parsers)
    show = deal_commands.add_parser("show", help="print the deal of a seed (or of a number)")
    for name, game_parser in zip(GAMES, _game_parsers(show, GAMES), strict=True):
        if GAMES[name].numberings:
            source = game_parser.add_mutually_exclusive_group(required=True)
            source.add_argument("--seed", type=cli_types.seed, help="the deal's seed")
            _add_numberings(source, GAMES[name])
        else:
            game_parser.add_argument(
                "--seed", type=cli_types.seed, required=True, help="the deal's seed"
            )
        game_parser.add_argument(
            "--json", action="store_true", help="print the deal as a JSON list"
        )
    serve = commands.add_parser(
        "serve", help="run the web platform (PATIENCE_DATABASE_URL, default SQLite here)"
    )
    serve.add_argument("--host", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=cli_types.port, help="port to listen on (default 8000)")
    serve.add_argument(
        "--workers",
        type=cli_types.positive,
        help="server processes (default 1; more need PostgreSQL)",
    )
    add_user_commands(commands)
    add_ops_commands(commands)
    add_tournament_commands(commands)
    return parser


def _fail(message: str) -> int:
    print(f"patience: {message}", file=sys.stderr)
    return 1


def _cmd_play(args: argparse.Namespace) -> int:
    from patience.session import Session
    from patience.terminal import TerminalGame, read_key

    cls = GAMES[args.game]
    variant = variant_from(args, cls)
    try:
        numbered = _numbered(args, cls)
        if args.deal is not None:
            game = new_game(args.game, deal=args.deal, variant=variant)
            print(f"Dealing the given deal of {cls.title}.")
        elif numbered is not None:
            name, number = numbered
            game = cls.from_number(name, number, variant)
            title = cls.numberings[name].title
            print(f"Dealing {cls.title}, {title} {number} (replay it with --{name} {number}).")
        else:
            seed = args.seed if args.seed is not None else secrets.randbits(32)
            game = new_game(args.game, seed=seed, variant=variant)
            print(f"Dealing {cls.title}, seed {seed} (replay it with --seed {seed}).")
    except ValueError as error:
        return _fail(str(error))
    session = Session(game)
    # a game played card by card (a tap is the move) reads single keys on a real terminal
    keys = cls.layout["direct"] and sys.stdin.isatty() and sys.stdout.isatty()
    TerminalGame(session, read=read_key if keys else input).run()
    if args.record is not None:
        try:
            args.record.write_text(session.record().dumps() + "\n")
        except OSError as error:
            return _fail(f"cannot write {args.record}: {error.strerror}")
        print(f"Record written to {args.record}.")
    return 0


def _read_record(name: str) -> Any:
    text = sys.stdin.read() if name == "-" else Path(name).read_text(encoding="utf-8")
    return json.loads(text)


def _cmd_replay(args: argparse.Namespace) -> int:
    try:
        data = _read_record(args.file)
    except OSError as error:
        return _fail(f"cannot read {args.file}: {error.strerror}")
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        return _fail(f"{args.file} is not a game record: it is not JSON ({error})")
    result = replay_json(data)
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(f"won: {'yes' if result.won else 'no'}")
        print(f"score: {result.score}")
        print(f"foundation: {result.foundation} cards")
        print(f"moves applied: {result.moves}")
    failure = result.error
    if failure is not None:
        where = "record" if failure.index is None else f"move {failure.index} ({failure.move!r})"
        return _fail(f"{where}: {failure.reason}")
    return 0


def _cmd_solve(args: argparse.Namespace) -> int:
    cls = GAMES[args.game]
    variant = variant_from(args, cls)
    try:
        if args.record is not None:
            record = GameRecord.from_json(_read_record(args.record))
            if record.game != args.game:
                return _fail(f"the record is a game of {record.game}, not {args.game}")
            game = new_game(args.game, deal=record.deal, variant=record.variant)
        elif args.deal is not None:
            game = new_game(args.game, deal=args.deal, variant=variant)
        elif (numbered := _numbered(args, cls)) is not None:
            game = cls.from_number(*numbered, variant)
        else:
            game = new_game(args.game, seed=args.seed, variant=variant)
    except OSError as error:
        return _fail(f"cannot read {args.record}: {error.strerror}")
    except json.JSONDecodeError as error:
        return _fail(f"{args.record} is not JSON: {error}")
    except ValueError as error:
        return _fail(str(error))
    result = solve(
        game,
        time_limit=args.time_limit,
        node_limit=args.node_limit,
        wins_only=args.wins_only,
    )
    if args.json:
        print(json.dumps(result.to_json()))
        return 0
    print(f"outcome: {result.outcome}" + (f" ({result.reason})" if result.reason else ""))
    if result.moves:
        print(f"moves ({len(result.moves)}): {' '.join(result.moves)}")
    print(f"nodes: {result.nodes}")
    print(f"time: {result.seconds:.4f} s")
    return 0


def _cmd_deals(args: argparse.Namespace) -> int:
    if args.deals_command == "stats":
        return _cmd_stats(args)
    status = run_catalog_command(args)
    if status is not None:
        return status
    cls = GAMES[args.game]
    numbered = _numbered(args, cls)
    try:  # the shuffle depends on the game alone; the variant is checked all the same
        if numbered is not None:
            deal = cls.from_number(*numbered, variant_from(args, cls)).deal
        else:
            deal = cls.from_seed(args.seed, variant_from(args, cls)).deal
    except ValueError as error:
        return _fail(str(error))
    if args.json:
        print(json.dumps([str(card) for card in deal]))
    else:
        print(" ".join(str(card) for card in deal))
    return 0


def _cmd_stats(args: argparse.Namespace) -> int:
    cls = GAMES[args.game]
    variant = variant_from(args, cls)
    if args.first + args.count - 1 > cli_types.MAX_SEED:
        return _fail(
            f"seeds end at {cli_types.MAX_SEED:,}: "
            f"--first {args.first} --count {args.count} goes past it"
        )
    seeds = range(args.first, args.first + args.count)
    results = list(
        solve_seeds(
            args.game,
            variant,
            seeds,
            time_limit=args.time_limit,
            node_limit=args.node_limit,
            jobs=args.jobs,
        )
    )
    summary = summarise(results)
    if args.json:
        print(json.dumps({"game": args.game, "variant": variant} | summary.to_json()))
        return 0
    low, high = summary.interval
    shown = ", ".join(f"{key} {value}" for key, value in variant.items())
    title = f"{cls.title} ({shown})" if shown else cls.title
    print(f"{title}: seeds {args.first}..{args.first + args.count - 1}")
    budget = f"{args.time_limit:g} s"
    if args.node_limit != _DEFAULT_NODE_LIMIT:
        budget += f" and {args.node_limit:,} nodes"
    print(
        f"solved {summary.solved}, unsolvable {summary.unsolvable}, "
        f"undecided {summary.unknown} (budget {budget} a deal)"
    )
    print(
        f"winnable: {100 * summary.winnable:.2f}% of decided deals, "
        f"95% interval {100 * low:.2f}% to {100 * high:.2f}%"
    )
    print(
        f"time a deal: median {1000 * summary.median_seconds:.2f} ms, "
        f"p90 {1000 * summary.p90_seconds:.2f} ms, max {1000 * summary.max_seconds:.1f} ms"
    )
    if summary.unknown_seeds:
        print("undecided: seeds " + " ".join(map(str, summary.unknown_seeds)))
    return 0


def _cmd_serve(args: argparse.Namespace) -> int:
    from patience.server.serve import ServeError, serve
    from patience.server.settings import Settings, SettingsError

    given = {
        name: value
        for name, value in (("host", args.host), ("port", args.port), ("workers", args.workers))
        if value is not None
    }
    try:
        serve(Settings.from_env(None, **given))
    except SettingsError as error:
        return _fail(str(error))
    except ServeError as error:  # 1, or 75 for what may pass (docs/deploy.md)
        _fail(str(error))
        return error.status
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``patience`` command; returns the exit status."""
    args = _parser().parse_args(argv)
    handlers = {
        "play": _cmd_play,
        "replay": _cmd_replay,
        "solve": _cmd_solve,
        "deals": _cmd_deals,
        "serve": _cmd_serve,
        "users": run_user_command,
        "db": run_db_command,
        "settings": run_settings_command,
        "tournament": run_tournament_command,
    }
    from patience.server.settings import SettingsError
    from patience.store.db import DatabaseError

    try:
        status = handlers[args.command](args)
        sys.stdout.flush()  # a reader gone away is found here, not at exit
    except (PatienceError, SettingsError, DatabaseError) as error:  # no traceback for these
        return _fail(str(error))
    except BrokenPipeError:
        # The reader of the output stopped reading (``patience deals export | head -2``):
        # not an error of this command. Nothing more is written, and the status is that of
        # a program stopped by SIGPIPE, as other tools report it.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 128 + signal.SIGPIPE
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 128 + signal.SIGINT
    return status


if __name__ == "__main__":
    sys.exit(main())

"""``patience deals generate | pick | rate | export | report | calibrate | train-model``:
catalogs of certified, rated deals, in the database the server uses (``PATIENCE_DATABASE_URL``)."""

from __future__ import annotations

import argparse
import datetime
import json
import math
import re
import secrets
import statistics
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine, make_url

if TYPE_CHECKING:
    from matplotlib.figure import Figure

from patience import cli_types
from patience.batch import run
from patience.catalog import CERTIFY_NODES, public_seed_stream, rated_again
from patience.dealkey import DealKey, default_key_path
from patience.errors import PatienceError
from patience.games import GAMES, Game, variant_key, variant_words
from patience.rating import (
    FIRST_MOVE_NODES,
    PLAYER_GAMES,
    NotCertifiedError,
    decile_cuts,
    rate_seed,
    rating_version,
)
from patience.ratings.cheap import RatingPolicy
from patience.ratings.model import load_model
from patience.ratings.training import TRAINING_STREAM
from patience.solve import SOLVABLE_GAMES

__all__ = [
    "add_commands",
    "catalog_figure",
    "database_in_use",
    "describe",
    "open_database",
    "run_command",
    "variant_from",
]

CALIBRATION_STREAM = 1_000_000
"""The stream calibration deals come from: apart from the streams catalogs are built
from (0 and up), so no calibration deal is dealt to a player by the default job."""


def add_commands(
    deal_commands: Any,
    game_parsers: Callable[
        [argparse.ArgumentParser, Iterable[str]], Iterator[argparse.ArgumentParser]
    ],
) -> None:
    """Add the catalog's commands to ``patience deals``."""
    generate = deal_commands.add_parser(
        "generate", help="certify, rate and store deals in the catalog (resumable)"
    )
    for parser in game_parsers(generate, SOLVABLE_GAMES):
        parser.add_argument(
            "--count", type=cli_types.positive, default=100, help="deals the catalog holds"
        )
        parser.add_argument(
            "--stream", type=_stream, default=0, help="the job's keyed seed stream (default 0)"
        )
        parser.add_argument(
            "--jobs", type=cli_types.positive, help="local processes (default: all cores)"
        )
        parser.add_argument(
            "--scheduler", type=_scheduler, help="a Dask scheduler's address (tcp://HOST:PORT)"
        )
        parser.add_argument(
            "--chunk",
            type=cli_types.positive,
            default=64,
            help="seeds written at a time (default 64)",
        )
        parser.add_argument("--quiet", action="store_true", help="no progress bar")
        _rating_options(parser)
    deal_commands.add_parser(
        "key", help="the deal key's file and fingerprint (made on first use; never printed)"
    )
    retire = deal_commands.add_parser(
        "retire", help="never deal the unused deals of an origin (a key thought leaked)"
    )
    retire.add_argument(
        "--origin",
        required=True,
        type=_origin,
        help="key:FINGERPRINT (patience deals key shows the current one), random or unrecorded",
    )
    retire.add_argument("--game", choices=sorted(SOLVABLE_GAMES), help="only this game's deals")
    retire.add_argument(
        "--yes", action="store_true", help="retire them (without it: how many, nothing changed)"
    )
    pick = deal_commands.add_parser("pick", help="claim an unused catalog deal of a tier")
    for parser in game_parsers(pick, PLAYER_GAMES):
        parser.add_argument("--tier", type=cli_types.tier, required=True, help="1 (easiest) to 10")
        parser.add_argument("--json", action="store_true", help="print one JSON object")
    rate = deal_commands.add_parser("rate", help="rate one seeded deal")
    for parser in game_parsers(rate, PLAYER_GAMES):
        parser.add_argument("--seed", type=cli_types.seed, required=True, help="the deal's seed")
        parser.add_argument(
            "--model",
            metavar="VERSION",
            help="the tier the verdict of rating model VERSION (the one this patience ships)"
            " gives, as a catalog rated most deals and a tournament's document names it",
        )
        parser.add_argument(
            "--rating-version",
            type=cli_types.positive,
            metavar="N",
            help="rate with version N of the game's rating (default: the current one), as a"
            " tournament's document names it",
        )
        parser.add_argument("--json", action="store_true", help="print one JSON object")
    export = deal_commands.add_parser("export", help="the catalog's deals, one JSON object a line")
    for parser in game_parsers(export, SOLVABLE_GAMES):
        parser.add_argument("--json", action="store_true", help="(the only format)")
    report = deal_commands.add_parser("report", help="the catalog: deals per game, variant, tier")
    report.add_argument("--png", type=Path, help="also draw the distribution to this PNG")
    report.add_argument("--json", action="store_true", help="print one JSON object")
    _train_options(deal_commands, game_parsers)
    calibrate = deal_commands.add_parser(
        "calibrate", help="rate deals of a calibration stream and set the tiers' cut scores"
    )
    for parser in game_parsers(calibrate, PLAYER_GAMES):
        parser.add_argument("--count", type=cli_types.positive, default=500, help="deals to rate")
        parser.add_argument(
            "--jobs", type=cli_types.positive, help="local processes (default: all cores)"
        )
        parser.add_argument(
            "--write", type=Path, help="the calibration file to update (default: print only)"
        )


def _rating_options(parser: argparse.ArgumentParser) -> None:
    """How ``deals generate`` rates its deals (:mod:`patience.ratings.cheap`)."""
    how = parser.add_argument_group(
        "rating (the model on most deals, the full ladder where it matters)"
    )
    how.add_argument(
        "--full", action="store_true", help="rate every deal with the full ladder (slow)"
    )
    how.add_argument(
        "--full-share",
        type=cli_types.share,
        help="the share of deals also rated in full, as a sample (default: the model's)",
    )
    how.add_argument(
        "--edge-margin",
        type=cli_types.share,
        help="rate in full a deal whose model score is this near a tier's edge "
        "(default: the model's)",
    )
    how.add_argument("--model", type=Path, help="a rating model file instead of the one shipped")


def _policy(args: argparse.Namespace) -> RatingPolicy:
    """The rating policy of ``deals generate``'s options; a model file given is checked now,
    not in the middle of the job."""
    if args.full and (args.model or args.full_share is not None or args.edge_margin is not None):
        raise PatienceError(
            "--full rates every deal in full: no --model, --full-share or --edge-margin"
        )
    if args.model is not None:
        load_model(args.model, game=args.game, variant=variant_from(args, GAMES[args.game]))
    return RatingPolicy(
        use_model=not args.full,
        full_share=args.full_share,
        edge_margin=args.edge_margin,
        model_path=None if args.model is None else str(args.model.resolve()),
    )


def _train_options(deal_commands: Any, game_parsers: Any) -> None:
    train = deal_commands.add_parser(
        "train-model",
        help="rate deals of a public stream in full and train the rating model on them",
    )
    for parser in game_parsers(train, PLAYER_GAMES):
        parser.add_argument(
            "--training-set",
            type=Path,
            required=True,
            help="the training set, JSON lines (rows already there are kept)",
        )
        parser.add_argument(
            "--count", type=cli_types.positive, default=500, help="deals to train on"
        )
        parser.add_argument(
            "--stream",
            type=_stream,
            default=TRAINING_STREAM,
            help=f"the public seed stream (default {TRAINING_STREAM})",
        )
        parser.add_argument(
            "--jobs", type=cli_types.positive, help="local processes (default: all cores)"
        )
        parser.add_argument(
            "--version",
            required=True,
            help="the model's version, kept in its file (the shipped ones: GAME-VARIANT-N)",
        )
        parser.add_argument(
            "--full-share",
            type=cli_types.share,
            default=0.01,
            help="the share of a catalog job's deals rated in full as a sample (default 0.01)",
        )
        parser.add_argument(
            "--edge-margin",
            type=cli_types.share,
            default=0.0,
            help="rate in full deals whose model score is this near a tier's edge (default 0)",
        )
        parser.add_argument(
            "--first-move-nodes",
            type=cli_types.positive,
            default=FIRST_MOVE_NODES,
            help="the features' search of each first move, in nodes (default: the full "
            f"rating's, {FIRST_MOVE_NODES:,})",
        )
        parser.add_argument(
            "--share-first-moves",
            action="store_true",
            help="the features' first-move searches keep one table a deal (for a game whose "
            "solver can)",
        )
        parser.add_argument("--write", type=Path, help="the model file to write")


def _train_model(args: argparse.Namespace) -> int:
    from patience.ratings.evidence import FirstMoveSearch
    from patience.ratings.fit import train
    from patience.ratings.training import collect, digest, read, refresh

    if not re.fullmatch(r"[a-z0-9][a-z0-9.-]{0,63}", args.version):
        raise PatienceError(
            f"a model's version is lower-case letters, digits, '.' and '-', not {args.version!r}"
        )
    for path in (args.training_set, args.write):
        if path is not None and not path.parent.is_dir():
            raise PatienceError(f"cannot write {path}: no folder {path.parent}")
    cls = GAMES[args.game]
    variant = cls.check_variant(variant_from(args, cls))
    if args.share_first_moves and not cls.shares_first_moves:
        raise PatienceError(
            f"the {cls.title} solver does not share a table among the first moves' searches"
        )
    first_moves = FirstMoveSearch(args.first_move_nodes, shared=args.share_first_moves)
    try:
        rows = read(args.training_set) if args.training_set.exists() else []
    except (OSError, ValueError) as error:
        raise PatienceError(f"{args.training_set} is not a training set: {error}") from None
    if rows and (rows[0].get("features") is None or not rows[0].get("full")):
        raise PatienceError(f"{args.training_set} is not a training set: no features or ratings")
    current = rating_version(args.game)
    older = {
        rating.get("version") for row in rows for rating in row.get("full") or [] if rating
    } - {current}
    if older:  # a model learns the full rating of one version: never one of another's
        raise PatienceError(
            f"{args.training_set} holds full ratings of rating version "
            f"{', '.join(str(v) for v in sorted(older, key=str))}; {cls.title} is rated with "
            f"version {current}: collect a training set of its own (a new file)"
        )

    def fill() -> None:  # the training set's deals up to --count, each rated in full
        collect(
            args.training_set,
            args.game,
            variant,
            args.count,
            stream=args.stream,
            jobs=args.jobs,
            first_moves=first_moves,
        )

    if len(rows) < args.count:
        print(
            f"rating {args.count - len(rows)} deals of stream {args.stream} in full ...",
            file=sys.stderr,
        )
        fill()
        rows = read(args.training_set)
    refreshed = refresh(
        args.training_set, args.game, variant, jobs=args.jobs, first_moves=first_moves
    )
    if refreshed.changed:
        print(f"the features of {args.training_set} were gathered again", file=sys.stderr)
    if refreshed.dropped:
        print(
            f"{len(refreshed.dropped)} deals of {args.training_set} are no longer certified"
            " within the catalog's node limit and were dropped (seeds "
            + ", ".join(str(seed) for seed in refreshed.dropped)
            + "); rating others in their place ...",
            file=sys.stderr,
        )
        fill()
    rows = read(args.training_set)[: args.count]
    model = train(
        args.game,
        variant,
        rows,
        version=args.version,
        training={
            "stream": args.stream,
            "file": str(args.training_set),
            "sha256": digest(args.training_set),
        },
        edge_margin=args.edge_margin,
        full_share=args.full_share,
        first_moves=first_moves,
    )
    summary = {
        key: value for key, value in model.items() if key not in ("booster", "booster_sha256")
    }
    print(json.dumps(summary))
    if args.write:
        args.write.write_text(json.dumps(model, indent=1, sort_keys=True) + "\n")
        load_model(args.write, game=args.game, variant=variant)  # it reads back
    return 0


def _stream(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("a stream is a whole number from 0 to 2**31 - 1") from None
    if not 0 <= value < 2**31:
        raise argparse.ArgumentTypeError("a stream is a whole number from 0 to 2**31 - 1")
    return value


def _origin(text: str) -> str:
    if text in ("random", "unrecorded") or re.fullmatch(r"key:[0-9a-f]{16}", text):
        return text
    raise argparse.ArgumentTypeError(
        "an origin is key: and a 16-digit fingerprint, random or unrecorded"
    )


def variant_from(args: argparse.Namespace, cls: type[Game]) -> dict[str, object]:
    """The variant the command line's options of game ``cls`` chose."""
    return {option.name: getattr(args, option.name) for option in cls.options}


def database_in_use(url: str) -> str:
    """How a command names the database it works on: a SQLite file by its absolute path
    (a relative one is relative to the current folder), any other by its URL with the
    password hidden.

    >>> database_in_use("sqlite:////srv/patience/patience.sqlite3")
    '/srv/patience/patience.sqlite3'
    >>> database_in_use("postgresql+psycopg://patience:secret@db.example/patience")
    'postgresql+psycopg://patience:***@db.example/patience'
    """
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        return str(Path(parsed.database).absolute())
    from patience.store.db import mask_url

    return mask_url(parsed)


def open_database() -> Engine:
    """The database the server uses (``PATIENCE_DATABASE_URL``), named on standard error,
    which must exist and be migrated (``patience db migrate``, a step of its own): a
    :class:`patience.store.db.DatabaseError` says what to run otherwise (a SQLite file
    made empty in the wrong folder would only hide where the real one is), and a
    :class:`patience.server.settings.SettingsError` a bad setting."""
    from patience.server import Settings
    from patience.server.serve import ServeError, check_database
    from patience.store.db import DatabaseError, make_engine

    settings = Settings.from_env()
    print(f"patience: database {database_in_use(settings.database_url)}", file=sys.stderr)
    try:
        check_database(settings)
    except ServeError as error:
        raise DatabaseError(str(error)) from None
    return make_engine(settings.database_url)


def describe(name: str, variant: Mapping[str, object]) -> str:
    """A game and variant written as the lobby writes them.

    >>> describe("golf", {"wrap": False}), describe("klondike", {"draw": 3})
    ('Golf, no wrap', 'Solitaire Rush, draw 3')
    """
    return ", ".join([GAMES[name].title, *variant_words(variant)])


def run_command(args: argparse.Namespace) -> int | None:
    """Run ``args.deals_command`` if it is one of these; None if it is not."""
    commands = {
        "generate": _generate,
        "pick": _pick,
        "rate": _rate,
        "export": _export,
        "report": _report,
        "calibrate": _calibrate,
        "train-model": _train_model,
        "key": _key,
        "retire": _retire,
    }
    command = commands.get(args.deals_command)
    return None if command is None else command(args)


def _scheduler(text: str) -> str:
    """A Dask scheduler's address: ``tcp://HOST:PORT`` (or another Dask protocol)."""
    if not re.fullmatch(r"[a-z]+://[^\s/]+:\d+", text):
        raise argparse.ArgumentTypeError(f"a scheduler's address is tcp://HOST:PORT, not {text!r}")
    return text


def _generate(args: argparse.Namespace) -> int:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from patience.store.catalog import generate, unused

    variant = variant_from(args, GAMES[args.game])
    policy = _policy(args)
    key = deal_key()
    engine = open_database()
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, disable=args.quiet, transient=False) as progress:
        task = progress.add_task(describe(args.game, variant), total=args.count, rate="")
        first: list[int] = []  # the deals there when the job began: not made by this run

        def advance(done: int, total: int) -> None:
            if not first:
                first.append(done)
            elapsed = progress.tasks[task].elapsed or 0.0
            made = done - first[0]
            rate = f"{made / elapsed:.2f} deals/s" if elapsed > 0 and made else ""
            progress.update(task, completed=done, rate=rate)

        try:
            generated = generate(
                engine,
                args.game,
                variant,
                args.count,
                key=key,
                stream=args.stream,
                jobs=args.jobs,
                scheduler=args.scheduler,
                chunk=args.chunk,
                progress=advance,
                policy=policy,
            )
        except OSError as error:  # the cluster cannot be reached, or went away
            engine.dispose()
            print(f"patience: the Dask scheduler {args.scheduler}: {error}", file=sys.stderr)
            print("patience: what was done so far is kept; run the job again", file=sys.stderr)
            return 1
    with engine.connect() as connection:
        free = unused(connection, args.game, GAMES[args.game].check_variant(variant))
    engine.dispose()
    print(
        f"{describe(args.game, variant)}: {generated.added} deals added, "
        f"{generated.present} already there (stream {args.stream}: {generated.tried} seeds "
        f"solved now, {generated.added} of them certified); {free} not yet dealt"
    )
    if generated.rerated:
        print(
            f"{generated.rerated} deals never dealt, rated with an earlier version of the "
            "rating, were rated again with the current one"
        )
    return 0


def deal_key() -> DealKey:
    """The installation's deal key (``PATIENCE_DEAL_KEY_FILE``), made on first use."""
    from patience.server import Settings

    path = Settings.from_env().deal_key_file
    return DealKey.load(Path(path) if path else default_key_path())


def _key(args: argparse.Namespace) -> int:
    from patience.server import Settings

    setting = Settings.from_env().deal_key_file
    path = Path(setting) if setting else default_key_path()
    existed = path.exists()
    key = DealKey.load(path)
    if not existed:
        print(f"no deal key was there: a new one is made now, in {path}")
    print(f"deal key: {path} (fingerprint {key.fingerprint})")
    print(
        "keep a copy where only you can read it; the deals it made are marked key:"
        + key.fingerprint
    )
    return 0


def _retire(args: argparse.Namespace) -> int:
    import time

    from patience.store.catalog import retirable, retire

    which = f"unused deals of origin {args.origin} ({args.game or 'every game'})"
    engine = open_database()
    try:
        with engine.begin() as connection:
            if not args.yes:
                count = retirable(connection, origin=args.origin, game=args.game)
                print(
                    f"patience: would retire {count} {which}, never to be dealt; "
                    "nothing retired: run again with --yes to retire them",
                    file=sys.stderr,
                )
                return 1
            retired = retire(connection, origin=args.origin, at=time.time(), game=args.game)
    finally:
        engine.dispose()
    print(f"{retired} {which} retired: they are never dealt")
    return 0


def _pick(args: argparse.Namespace) -> int:
    from patience.store.catalog import take
    from patience.store.db import deals

    cls = GAMES[args.game]
    variant = cls.check_variant(variant_from(args, cls))
    engine = open_database()
    with engine.begin() as connection:
        taken = take(
            connection, args.game, variant, f"pick-{secrets.token_hex(6)}", (args.tier, args.tier)
        )
        row = None
        if taken is not None:
            row = connection.execute(
                deals.select().where(deals.c.game == args.game, deals.c.seed == str(taken.seed))
            ).first()
    engine.dispose()
    if taken is None or row is None:
        print(
            f"patience: no unused {describe(args.game, variant)} deal of tier {args.tier}",
            file=sys.stderr,
        )
        return 1
    rating = json.loads(row.rating) if row.rating else None
    if args.json:
        print(json.dumps({"seed": taken.seed, "tier": taken.tier, "rating": rating}))
    else:
        print(f"seed {taken.seed}, tier {taken.tier}")
        if rating:
            print(_rating_text(rating))
    return 0


def _rating_text(rating: dict[str, Any]) -> str:
    players = ", ".join(f"{name} {rate:.0%}" for name, rate in rating["players"].items())
    if rating.get("progress", rating["players"]) != rating["players"]:
        home = ", ".join(f"{name} {share:.0%}" for name, share in rating["progress"].items())
        players += f"; cards home: {home}"
    return (
        f"score {rating['score']:.3f} (rating version {rating['version']}); players won: "
        f"{players}; solver {rating['nodes']} nodes, a win in {rating['moves']} moves, "
        f"{rating['first_moves']:.0%} of first moves still win"
    )


def _rate(args: argparse.Namespace) -> int:
    variant = variant_from(args, GAMES[args.game])
    try:
        if args.model is not None:
            tier = rated_again(args.game, variant, args.seed, args.model, args.rating_version)
            if args.json:
                print(json.dumps({"seed": args.seed, "tier": tier, "model": args.model}))
            else:
                print(
                    f"{describe(args.game, variant)}, seed {args.seed}: tier {tier}"
                    f" (rating model {args.model}'s verdict)"
                )
            return 0
        # at the catalog's node limit, so that the tier is the one a catalog gives
        rating = rate_seed(
            args.game,
            variant,
            args.seed,
            node_limit=CERTIFY_NODES[args.game],
            version=args.rating_version,
        )
    except NotCertifiedError as error:
        print(f"patience: seed {args.seed}: {error}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(rating.to_json()))
    else:
        words = "uncalibrated" if rating.tier is None else f"tier {rating.tier}"
        print(f"{describe(args.game, variant)}, seed {args.seed}: {words}")
        print(_rating_text(rating.to_json()))
    return 0


def _export(args: argparse.Namespace) -> int:
    from patience.store.catalog import export

    cls = GAMES[args.game]
    variant = cls.check_variant(variant_from(args, cls))
    engine = open_database()
    with engine.connect() as connection:
        for row in export(connection, args.game, variant):
            print(json.dumps(row))
    engine.dispose()
    return 0


def _report(args: argparse.Namespace) -> int:
    from patience.store.catalog import counts, model_agreement

    engine = open_database()
    with engine.connect() as connection:
        rows = counts(connection)
        models = model_agreement(connection)
    if args.png:
        try:
            _draw(engine, rows, args.png)
        except OSError as error:
            engine.dispose()
            print(f"patience: cannot write {args.png}: {error.strerror}", file=sys.stderr)
            return 1
    engine.dispose()
    if args.json:
        print(json.dumps({"deals": rows, "models": [_model_json(m) for m in models]}))
        return 0
    if not rows:
        print("the catalog is empty: patience deals generate GAME --count N fills it")
    for row in rows:
        tier = "unrated" if row["tier"] is None else f"tier {row['tier']:>2}"
        retired = f", {row['retired']} retired (never dealt)" if row["retired"] else ""
        if row["superseded"]:
            retired += (
                f", {row['superseded']} rated with an earlier version of the rating (kept, "
                "not dealt)"
            )
        print(
            f"{describe(row['game'], row['variant'])}: {tier}: {row['deals']} "
            f"deal{'' if row['deals'] == 1 else 's'}, {row['unused']} unused{retired}"
        )
    for model in models:
        print(_model_text(model))
    if args.png:
        print(f"drawn to {args.png}")
    return 0


def _model_json(model: Any) -> dict[str, Any]:
    return {
        "game": model.game,
        "variant": model.variant,
        "model": model.model,
        "cheap": model.cheap,
        "full": model.full,
        "sample": None if model.sample is None else model.sample.to_json(),
        "all_full": None if model.all_full is None else model.all_full.to_json(),
    }


def _model_text(model: Any) -> str:
    """One line on a rating model's agreement with the full ladder in the catalog."""
    head = (
        f"{describe(model.game, model.variant)}: model {model.model}: {model.cheap} deals "
        f"rated by the model, {model.full} in full beside it"
    )
    parts = []
    for label, figures in (("sample", model.sample), ("sample and edges", model.all_full)):
        if figures is not None:
            parts.append(
                f"{label} ({figures.deals}): Spearman {figures.spearman:.3f}, "
                f"same tier {figures.same_tier:.0%}, within one {figures.within_one:.0%}, "
                f"{figures.moved} moved by more"
            )
    return head + (
        "; agreement with the full ladder on the " + "; on the ".join(parts)
        if parts
        else "; no agreement yet (too few deals rated both ways)"
    )


def _draw(engine: Engine, rows: list[dict[str, Any]], path: Path) -> None:
    """Draw :func:`catalog_figure` to the PNG file ``path``."""
    import matplotlib.pyplot as plt

    figure = catalog_figure(engine, rows)
    try:
        figure.savefig(path, dpi=100)
    finally:
        plt.close(figure)


def catalog_figure(engine: Engine, rows: list[dict[str, Any]]) -> Figure:
    """The catalog's difficulty (``rows`` as :func:`patience.store.catalog.counts` gives
    them), a row of two plots for each rated game and variant: its deals per tier, dealt
    and unused, and each reference player's mean win rate per tier (Kansas: mean share of
    cards home). A tier without deals has no point, and no line passes through it."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator, PercentFormatter

    from patience.store.catalog import export

    kinds = sorted({json.dumps([r["game"], r["variant"]]) for r in rows if r["tier"] is not None})
    tiers = list(range(1, 11))
    figure, axes = plt.subplots(
        max(1, len(kinds)), 2, figsize=(12, 1.0 + 3.6 * max(1, len(kinds))), squeeze=False
    )
    figure.suptitle("The deal catalog by difficulty tier (1 easiest, 10 hardest)")
    for (count_axis, rate_axis), kind in zip(axes, kinds, strict=False):
        name, variant = json.loads(kind)
        title = describe(name, variant)
        of_kind = [r for r in rows if [r["game"], r["variant"]] == [name, variant]]
        unused = [sum(r["unused"] for r in of_kind if r["tier"] == t) for t in tiers]
        dealt = [
            sum(
                r["deals"] - r["unused"] - r["retired"] - r["superseded"]
                for r in of_kind
                if r["tier"] == t
            )
            for t in tiers
        ]
        count_axis.bar(tiers, dealt, color="#8d6e63", label="dealt")
        count_axis.bar(tiers, unused, bottom=dealt, color="#2e7d32", label="unused")
        count_axis.set_title(f"{title}: {sum(unused) + sum(dealt)} deals, {sum(unused)} unused")
        count_axis.set_xlabel("tier")
        count_axis.set_ylabel("deals")
        count_axis.set_xticks(tiers)
        count_axis.yaxis.set_major_locator(MaxNLocator(integer=True))
        highest = max(u + d for u, d in zip(unused, dealt, strict=True))
        count_axis.set_ylim(0, max(1, math.ceil(highest * 1.1)))
        count_axis.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))

        with engine.connect() as connection:
            deals = [
                d
                for d in export(connection, name, variant)
                if d["tier"] is not None and d["version"] == rating_version(name)
            ]
        # a player's progress is its win rate, or the share of cards home where the game
        # rates by progress
        by_progress = GAMES[name].rated_by_progress
        measure = "progress" if by_progress else "players"
        players = sorted({player for d in deals for player in d.get(measure) or {}})
        styles = ["o-", "s--", "^-.", "D:"]
        for index, player in enumerate(players):
            means = []
            for t in tiers:
                values = [
                    d[measure][player]
                    for d in deals
                    if d["tier"] == t and player in (d[measure] or {})
                ]
                means.append(statistics.fmean(values) if values else math.nan)  # a gap
            rate_axis.plot(tiers, means, styles[index % len(styles)], label=player)
        what = "mean share of cards home" if by_progress else "mean win rate"
        rate_axis.set_title(f"{title}: reference players' {what}")
        rate_axis.set_xlabel("tier")
        rate_axis.set_ylabel("share of cards home" if by_progress else "win rate")
        rate_axis.set_ylim(-0.03, 1.03)
        rate_axis.yaxis.set_major_formatter(PercentFormatter(xmax=1))
        rate_axis.set_xticks(tiers)
        rate_axis.set_xlim(0.5, 10.5)
        if players:
            rate_axis.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
    if not kinds:
        axes[0][0].set_title("no rated deals yet")
        axes[0][0].text(
            0.5,
            0.5,
            "patience deals generate GAME --count N\nfills the catalog",
            ha="center",
            va="center",
            transform=axes[0][0].transAxes,
        )
        for axis in axes[0]:
            axis.set_xticks([])
            axis.set_yticks([])
    figure.tight_layout()
    return figure


def _calibration_task(task: tuple[str, dict[str, object], int]) -> dict[str, Any] | None:
    name, variant, seed = task
    try:
        return rate_seed(name, variant, seed).to_json()
    except NotCertifiedError:
        return None


def _calibrate(args: argparse.Namespace) -> int:
    if args.write and not args.write.parent.is_dir():  # said now, not after the ratings
        raise PatienceError(f"cannot write {args.write}: no folder {args.write.parent}")
    calibrations = None if args.write is None else read_calibrations(args.write)
    cls = GAMES[args.game]
    variant = cls.check_variant(variant_from(args, cls))
    seeds = public_seed_stream(args.game, variant, CALIBRATION_STREAM)
    scores: list[float] = []
    tried = 0
    while len(scores) < args.count:
        batch = [next(seeds) for _ in range(max(16, args.count - len(scores)))]
        tried += len(batch)
        for rating in run(
            _calibration_task, [(args.game, variant, s) for s in batch], jobs=args.jobs
        ):
            if rating is not None and len(scores) < args.count:
                scores.append(rating["score"])
    entry = {
        "cuts": [round(cut, 6) for cut in decile_cuts(scores)],
        "deals": len(scores),
        "stream": CALIBRATION_STREAM,
        "seeds_tried": tried,
        "made": datetime.date.today().isoformat(),
    }
    key = variant_key(variant)
    print(json.dumps({"game": args.game, "variant": variant, **entry}))
    if args.write and calibrations is not None:
        version = str(rating_version(args.game))
        calibrations["games"].setdefault(args.game, {}).setdefault(version, {})[key] = entry
        try:
            args.write.write_text(json.dumps(calibrations, indent=2, sort_keys=True) + "\n")
        except OSError as error:
            raise PatienceError(f"cannot write {args.write}: {error.strerror}") from None
    return 0


def read_calibrations(path: Path) -> dict[str, Any]:
    """The calibration file ``path`` as ``deals calibrate --write`` updates it (games, then
    rating versions, then variants), checked before any deal is rated: a file that does not
    exist is an empty one, and one of the earlier form (one ``version`` for every game, the
    variants right under each game) is read as that version's. Raises
    :class:`PatienceError` when it cannot be read or is not a calibration file.

    >>> import tempfile
    >>> old = Path(tempfile.mkdtemp()) / "calibration.json"
    >>> _ = old.write_text('{"version": 1, "games": {"golf": {"{}": {"cuts": []}}}}')
    >>> read_calibrations(old)
    {'games': {'golf': {'1': {'{}': {'cuts': []}}}}}
    """
    if not path.exists():
        return {"games": {}}
    try:
        data = json.loads(path.read_text())
    except OSError as error:
        raise PatienceError(f"cannot read {path}: {error.strerror}") from None
    except ValueError as error:  # not JSON, or not text
        raise PatienceError(f"{path} is not a calibration file: {error}") from None
    wrong = PatienceError(
        f"{path} is not a calibration file (an object of games, each of rating versions, "
        "each of variants)"
    )
    if not isinstance(data, dict) or not isinstance(data.get("games", {}), dict):
        raise wrong
    games = data.get("games", {})
    if "version" in data:  # the earlier form: one version, the variants under each game
        version = data["version"]
        if not isinstance(version, int) or isinstance(version, bool):
            raise wrong
        games = {name: {str(version): variants} for name, variants in games.items()}
    for versions in games.values():
        if not isinstance(versions, dict) or not all(
            isinstance(variants, dict) for variants in versions.values()
        ):
            raise wrong
    return {"games": games}

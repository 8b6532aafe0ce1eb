"""``patience deals generate | pick | rate | export | report | calibrate``: catalogs of
certified, rated deals, in the database the server uses (``PATIENCE_DATABASE_URL``)."""

from __future__ import annotations

import argparse
import datetime
import json
import re
import secrets
import statistics
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from sqlalchemy import Engine

from patience.batch import run
from patience.catalog import seed_stream
from patience.errors import PatienceError
from patience.games import GAMES, Game, variant_key
from patience.rating import PLAYER_GAMES, RATING_VERSION, NotCertifiedError, rate_seed
from patience.solve import SOLVABLE_GAMES

__all__ = ["add_commands", "open_database", "run_command", "variant_from"]

CALIBRATION_STREAM = 1_000_000
"""The stream calibration deals come from: apart from the streams catalogs are built
from (0 and up), so no calibration deal is dealt to a player by the default job."""


def add_commands(
    deal_commands: Any,
    game_parsers: Callable[
        [argparse.ArgumentParser, Iterable[str]], Iterator[argparse.ArgumentParser]
    ],
    positive: Callable[[str], int],
    seed: Callable[[str], int],
) -> None:
    """Add the catalog's commands to ``patience deals``."""
    generate = deal_commands.add_parser(
        "generate", help="certify, rate and store deals in the catalog (resumable)"
    )
    for parser in game_parsers(generate, SOLVABLE_GAMES):
        parser.add_argument("--count", type=positive, default=100, help="deals the catalog holds")
        parser.add_argument("--stream", type=int, default=0, help="the job's seed stream")
        parser.add_argument("--jobs", type=positive, help="local processes (default: all cores)")
        parser.add_argument(
            "--scheduler", type=_scheduler, help="a Dask scheduler's address (tcp://HOST:PORT)"
        )
        parser.add_argument(
            "--chunk", type=positive, default=64, help="seeds written at a time (default 64)"
        )
        parser.add_argument("--quiet", action="store_true", help="no progress bar")
    pick = deal_commands.add_parser("pick", help="claim an unused catalog deal of a tier")
    for parser in game_parsers(pick, PLAYER_GAMES):
        parser.add_argument("--tier", type=_tier, required=True, help="1 (easiest) to 10")
        parser.add_argument("--json", action="store_true", help="print one JSON object")
    rate = deal_commands.add_parser("rate", help="rate one seeded deal")
    for parser in game_parsers(rate, PLAYER_GAMES):
        parser.add_argument("--seed", type=seed, required=True, help="the deal's seed")
        parser.add_argument("--json", action="store_true", help="print one JSON object")
    export = deal_commands.add_parser("export", help="the catalog's deals, one JSON object a line")
    for parser in game_parsers(export, SOLVABLE_GAMES):
        parser.add_argument("--json", action="store_true", help="(the only format)")
    report = deal_commands.add_parser("report", help="the catalog: deals per game, variant, tier")
    report.add_argument("--png", type=Path, help="also draw the distribution to this PNG")
    report.add_argument("--json", action="store_true", help="print one JSON object")
    calibrate = deal_commands.add_parser(
        "calibrate", help="rate deals of a calibration stream and set the tiers' cut scores"
    )
    for parser in game_parsers(calibrate, PLAYER_GAMES):
        parser.add_argument("--count", type=positive, default=500, help="deals to rate")
        parser.add_argument("--jobs", type=positive, help="local processes (default: all cores)")
        parser.add_argument(
            "--write", type=Path, help="the calibration file to update (default: print only)"
        )


def _tier(text: str) -> int:
    value = int(text)
    if not 1 <= value <= 10:
        raise argparse.ArgumentTypeError("a tier is 1 (easiest) to 10 (hardest)")
    return value


def variant_from(args: argparse.Namespace, cls: type[Game]) -> dict[str, object]:
    """The variant the command line's options of game ``cls`` chose."""
    return {option.name: getattr(args, option.name) for option in cls.options}


def open_database() -> Engine:
    """The database the server uses (``PATIENCE_DATABASE_URL``), which must be migrated
    (``patience db migrate``): :class:`patience.store.db.DatabaseError` otherwise, and
    :class:`patience.server.settings.SettingsError` for a bad setting."""
    from patience.server import Settings
    from patience.server.serve import ServeError, check_database
    from patience.store.db import DatabaseError, make_engine

    settings = Settings.from_env()
    try:
        check_database(settings)
    except ServeError as error:
        raise DatabaseError(str(error)) from None
    return make_engine(settings.database_url)


def _describe(name: str, variant: dict[str, object]) -> str:
    return GAMES[name].title + "".join(f", {key} {value}" for key, value in variant.items())


def run_command(args: argparse.Namespace) -> int | None:
    """Run ``args.deals_command`` if it is one of these; None if it is not."""
    commands = {
        "generate": _generate,
        "pick": _pick,
        "rate": _rate,
        "export": _export,
        "report": _report,
        "calibrate": _calibrate,
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
        task = progress.add_task(_describe(args.game, variant), total=args.count, rate="")

        def advance(done: int, total: int) -> None:
            elapsed = progress.tasks[task].elapsed or 0.0
            rate = f"{done / elapsed:.1f} deals/s" if elapsed > 0 else ""
            progress.update(task, completed=done, rate=rate)

        try:
            generated = generate(
                engine,
                args.game,
                variant,
                args.count,
                stream=args.stream,
                jobs=args.jobs,
                scheduler=args.scheduler,
                chunk=args.chunk,
                progress=advance,
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
        f"{_describe(args.game, variant)}: {generated.added} deals added, "
        f"{generated.present} already there (stream {args.stream}, {generated.tried} seeds); "
        f"{free} not yet dealt"
    )
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
        print(f"patience: no unused {_describe(args.game, variant)} deal of tier {args.tier}")
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
        rating = rate_seed(args.game, variant, args.seed)
    except NotCertifiedError as error:
        print(f"patience: seed {args.seed}: {error}")
        return 1
    if args.json:
        print(json.dumps(rating.to_json()))
    else:
        tier = "uncalibrated" if rating.tier is None else f"tier {rating.tier}"
        print(f"{_describe(args.game, variant)}, seed {args.seed}: {tier}")
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
    from patience.store.catalog import counts

    engine = open_database()
    with engine.connect() as connection:
        rows = counts(connection)
    if args.png:
        try:
            _draw(engine, rows, args.png)
        except OSError as error:
            engine.dispose()
            print(f"patience: cannot write {args.png}: {error.strerror}", file=sys.stderr)
            return 1
    engine.dispose()
    if args.json:
        print(json.dumps({"deals": rows}))
        return 0
    if not rows:
        print("the catalog is empty: patience deals generate GAME --count N fills it")
    for row in rows:
        tier = "unrated" if row["tier"] is None else f"tier {row['tier']:>2}"
        print(
            f"{_describe(row['game'], row['variant'])}: {tier}: {row['deals']} deals, "
            f"{row['unused']} unused"
        )
    if args.png:
        print(f"drawn to {args.png}")
    return 0


def _draw(engine: Engine, rows: list[dict[str, Any]], path: Path) -> None:
    """The catalog's difficulty: for each rated game and variant, its deals per tier, and
    each reference player's mean win rate per tier (Kansas: mean share of cards home)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from patience.store.catalog import export

    kinds = sorted({json.dumps([r["game"], r["variant"]]) for r in rows if r["tier"] is not None})
    figure, axes = plt.subplots(
        max(1, len(kinds)), 2, figsize=(11, 3.2 * max(1, len(kinds))), squeeze=False
    )
    for (count_axis, rate_axis), kind in zip(axes, kinds, strict=False):
        name, variant = json.loads(kind)
        with engine.connect() as connection:
            deals = [d for d in export(connection, name, variant) if d["tier"] is not None]
        tiers = range(1, 11)
        count_axis.bar(tiers, [sum(d["tier"] == t for d in deals) for t in tiers], color="#2e7d32")
        count_axis.set_title(f"{_describe(name, variant)}: deals per tier")
        count_axis.set_xticks(list(tiers))
        # a player's progress is its win rate, but in Kansas the share of cards home
        measure = "progress" if name == "kansas" else "players"
        for player in deals[0][measure] if deals else []:
            means = [
                statistics.fmean([d[measure][player] for d in deals if d["tier"] == t] or [0.0])
                for t in tiers
            ]
            rate_axis.plot(list(tiers), means, marker="o", label=player)
        rate_axis.set_title(
            "mean share of cards home per tier" if name == "kansas" else "mean win rate per tier"
        )
        rate_axis.set_ylim(0, 1)
        rate_axis.set_xticks(list(tiers))
        rate_axis.legend()
    if not kinds:
        axes[0][0].set_title("no rated deals yet")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def _calibration_task(task: tuple[str, dict[str, object], int]) -> dict[str, Any] | None:
    name, variant, seed = task
    try:
        return rate_seed(name, variant, seed).to_json()
    except NotCertifiedError:
        return None


def _calibrate(args: argparse.Namespace) -> int:
    cls = GAMES[args.game]
    variant = cls.check_variant(variant_from(args, cls))
    seeds = seed_stream(args.game, variant, CALIBRATION_STREAM)
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
    ordered = sorted(scores)
    cuts = [ordered[(len(ordered) * k) // 10] for k in range(1, 10)]
    entry = {
        "cuts": [round(cut, 6) for cut in cuts],
        "deals": len(scores),
        "stream": CALIBRATION_STREAM,
        "seeds_tried": tried,
        "made": datetime.date.today().isoformat(),
    }
    key = variant_key(variant)
    print(json.dumps({"game": args.game, "variant": variant, **entry}))
    if args.write:
        data = json.loads(args.write.read_text()) if args.write.exists() else {}
        if data.get("version", RATING_VERSION) != RATING_VERSION:
            raise PatienceError(f"{args.write} is of rating version {data['version']}")
        data["version"] = RATING_VERSION
        data.setdefault("games", {}).setdefault(args.game, {})[key] = entry
        args.write.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
    return 0

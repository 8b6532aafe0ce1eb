"""What a catalog deal costs, stage by stage; catalogs built end to end, rated with the
model and in full; and local processes against a Dask cluster.

    .venv/bin/python benchmarks/catalog.py golf --wrap --count 200
    .venv/bin/python benchmarks/catalog.py golf --wrap --count 200 --build 4000 --chunk 512
    .venv/bin/python benchmarks/catalog.py golf --wrap --count 40 --build 2000 --full-count 40
    .venv/bin/python benchmarks/catalog.py klondike --draw 3 --count 100 --dask

Takes ``--count`` seeds of a stream of its own and times (CPU time, which a busy machine
disturbs less than wall time), in one process, each stage of
:func:`patience.catalog.catalog_deal`: certifying (the solver looking for a win), each
reference player's playouts, and the share of winning first moves; prints the mean cost a
deal by stage and the deals a second that one core and all cores would make (a projection),
and the cheap rating of the same seeds in one batch, as a catalog job's chunk is rated
(:func:`patience.ratings.evidence.gather_many`). With ``--build N`` it then *measures*: it
builds catalogs of N deals into throw-away SQLite files with
``patience.store.catalog.generate`` on all cores, once for each rating policy (``cheap``:
the model alone; ``model``: the model with its sample and edge deals rated in full, as
``patience deals generate`` does; ``full``: every deal in full, on ``--full-count`` deals),
and prints the deals a second on wall time and on CPU time (this process and its worker
processes). With ``--dask`` it then builds one catalog (of ``--build`` deals, else
``--count``, rated as ``deals generate`` rates them) twice into throw-away SQLite files
with ``patience.store.catalog.generate``, on local processes (all cores) and on a Dask
cluster it starts here (a scheduler and one worker process a core, on this machine), checks
the two catalogs are the same, and prints the throughput ratio. The targets: Golf 1,000
deals a second on two cores, Klondike draw 3 100 a second, Dask within 15% of local.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sqlalchemy import select

from common import game_and_variant  # benchmarks/common.py, beside this script
from patience import _core
from patience.catalog import CERTIFY_NODES, public_seed_stream
from patience.dealkey import DealKey
from patience.games import GAMES
from patience.rating import MAX_MOVES, PLAYOUTS
from patience.ratings import FULL, RatingPolicy, shipped_model
from patience.ratings.evidence import gather, gather_many, rated_ladder
from patience.solve import solve
from patience.store.catalog import generate
from patience.store.db import deals, make_engine, migrate

BENCH_STREAM = 3_000_000


def _stages(name: str, variant: dict[str, object], seed: int) -> dict[str, float] | None:
    game = GAMES[name].from_seed(seed, variant)
    costs: dict[str, float] = {}
    started = time.process_time()
    certified = solve(game, time_limit=600, node_limit=CERTIFY_NODES[name], wins_only=True)
    costs["certify"] = time.process_time() - started
    if certified.outcome != "solved":
        return None
    position = game.native_position()
    for index, player in enumerate(rated_ladder(name)):  # as a full rating plays them
        started = time.process_time()
        seeds = [index * 1_000_003 + k for k in range(PLAYOUTS[name][player])]
        _core.results(name, position, player, seeds, MAX_MOVES)
        costs[player] = time.process_time() - started
    started = time.process_time()
    for move in game.legal_moves():
        after = game.copy()
        after.play(move)
        if after.outcome() is None:
            _core.solve(
                name,
                after.native_position(),
                max_nodes=200_000,
                max_seconds=60,
                max_states=800_000,
                wins_only=True,
            )
    costs["first moves"] = time.process_time() - started
    model = shipped_model(name, variant)
    started = time.process_time()
    evidence = gather(game, node_limit=CERTIFY_NODES[name])
    if model is not None:
        model.predict(evidence)
    costs["cheap rating"] = time.process_time() - started  # not in the total: its own path
    return costs


def _cpu() -> float:
    """CPU seconds of this process and of its children that have ended."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _build(
    name: str,
    variant: dict[str, object],
    count: int,
    policy: RatingPolicy,
    *,
    chunk: int,
    stream: int,
) -> tuple[float, float, dict[str, int]]:
    """Build a catalog of ``count`` deals rated by ``policy`` on all cores: wall seconds,
    CPU seconds, and how many deals were rated how."""
    key = DealKey.fresh()
    with tempfile.TemporaryDirectory() as folder:
        engine = make_engine(f"sqlite:///{folder}/catalog.sqlite3")
        migrate(engine)
        cpu, started = _cpu(), time.perf_counter()
        generate(engine, name, variant, count, key=key, stream=stream, chunk=chunk, policy=policy)
        wall, cpu = time.perf_counter() - started, _cpu() - cpu
        with engine.connect() as connection:
            ratings = [json.loads(r) for r in connection.execute(select(deals.c.rating)).scalars()]
        engine.dispose()
    how: dict[str, int] = {}
    for rating in ratings:
        kind = rating.get("full_reason", rating.get("method", "full"))
        how[kind] = how.get(kind, 0) + 1
    return wall, cpu, how


def _cluster(workers: int, folder: Path) -> tuple[list[subprocess.Popen[bytes]], str]:
    dask = Path(sys.executable).with_name("dask")
    address_file = folder / "scheduler.json"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    scheduler = subprocess.Popen(
        [
            dask,
            "scheduler",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--no-dashboard",
            "--scheduler-file",
            str(address_file),
        ],
        **quiet,  # type: ignore[call-overload]
    )
    while not address_file.exists():
        time.sleep(0.1)
    address = json.loads(address_file.read_text())["address"]
    worker = subprocess.Popen(
        [dask, "worker", address, "--nworkers", str(workers), "--nthreads", "1", "--no-dashboard"],
        **quiet,  # type: ignore[call-overload]
    )
    time.sleep(3)  # the workers connect
    return [worker, scheduler], address


def _catalog(url: str) -> list[tuple[str, str | None]]:
    engine = make_engine(url)
    with engine.connect() as connection:
        rows = connection.execute(deals.select()).all()
    engine.dispose()
    return sorted((row.seed, row.rating) for row in rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--dask", action="store_true")
    parser.add_argument("--build", type=int, default=0, help="deals a measured catalog holds")
    parser.add_argument("--full-count", type=int, default=0, help="deals rated all in full")
    parser.add_argument("--chunk", type=int, default=64, help="generate's chunk (its default 64)")
    known, variant = game_and_variant(parser, sorted(GAMES))
    cls = GAMES[known.game]
    seeds = public_seed_stream(known.game, variant, BENCH_STREAM)
    rows: list[dict[str, float]] = []
    failed: list[float] = []
    tried: list[int] = []
    while len(rows) < known.count:
        seed = next(seeds)
        tried.append(seed)
        costs = _stages(known.game, variant, seed)
        if costs is None:
            failed.append(0.0)
        else:
            rows.append(costs)
    cores = os.cpu_count() or 1
    print(f"{cls.title} {variant}: {len(rows)} certified deals ({len(failed)} seeds not won)")
    total = 0.0
    for stage in rows[0]:
        mean = statistics.fmean(row[stage] for row in rows)
        if stage != "cheap rating":
            total += mean
        print(f"  {stage:>12}: mean {mean * 1000:9.2f} CPU ms a deal")
    print(
        f"  {'total':>12}: mean {total * 1000:9.2f} CPU ms a deal: {1 / total:.1f} deals a "
        f"second on one core, about {cores / total:.1f} on {cores} (projected)"
    )
    model = shipped_model(known.game, variant)
    games = [cls.from_seed(seed, variant) for seed in tried]
    started = time.process_time()
    gathered = gather_many(games, node_limit=CERTIFY_NODES[known.game])
    if model is not None:
        model.predict_many([item.evidence for item in gathered if item.evidence is not None])
    batched = (time.process_time() - started) / len(rows)
    print(
        f"  the cheap rating of the same {len(tried)} seeds in one batch (gather_many, "
        f"predict_many): {batched * 1000:.2f} CPU ms a certified deal, the seeds not won "
        f"included: {1 / batched:.1f} deals a second on one core (projected)"
    )
    policies: list[tuple[str, RatingPolicy, int]] = []
    if known.build and model is not None:
        policies += [
            ("cheap", RatingPolicy(full_share=0.0, edge_margin=0.0), known.build),
            ("model", RatingPolicy(), known.build),
        ]
    if known.full_count:
        policies.append(("full", FULL, known.full_count))
    if policies:
        print(
            f"catalogs built with patience.store.catalog.generate on {cores} cores "
            f"(chunk {known.chunk}), measured:"
        )
    for index, (label, policy, count) in enumerate(policies):
        wall, cpu, how = _build(
            known.game, variant, count, policy, chunk=known.chunk, stream=BENCH_STREAM + index
        )
        rated = ", ".join(f"{kind} {n}" for kind, n in sorted(how.items()))
        print(
            f"  {label:>5}: {count} deals ({rated}) in {wall:.2f} s wall, {cpu:.2f} s CPU: "
            f"{count / wall:8.1f} deals/s wall, {count / cpu:8.1f} deals per CPU second "
            f"({cpu / count * 1000:.2f} CPU ms a deal)"
        )
    if policies:
        own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(f"  memory: this process at most {own:.0f} MiB, a worker at most {workers:.0f} MiB")
    if not known.dask:
        return
    count = known.build or known.count  # the catalog both build
    key = DealKey.fresh()  # one throw-away key, so that both runs draw the same seeds
    with tempfile.TemporaryDirectory() as folder:
        urls = [f"sqlite:///{folder}/local.sqlite3", f"sqlite:///{folder}/cluster.sqlite3"]
        for url in urls:
            migrate(make_engine(url))
        started = time.perf_counter()
        generate(
            make_engine(urls[0]),
            known.game,
            variant,
            count,
            key=key,
            stream=BENCH_STREAM,
            chunk=known.chunk,
        )
        local = time.perf_counter() - started
        processes, address = _cluster(cores, Path(folder))
        try:
            started = time.perf_counter()
            generate(
                make_engine(urls[1]),
                known.game,
                variant,
                count,
                key=key,
                stream=BENCH_STREAM,
                scheduler=address,
                chunk=known.chunk,
            )
            cluster = time.perf_counter() - started
        finally:
            for process in processes:
                process.terminate()
                process.wait(timeout=30)
        same = _catalog(urls[0]) == _catalog(urls[1])
        print(
            f"generate {count}: local processes {count / local:.2f} deals/s, "
            f"Dask ({cores} workers) {count / cluster:.2f} deals/s: "
            f"ratio {local / cluster:.2f}; the same catalog: {same} (rated as deals generate "
            "rates them by default)"
        )


if __name__ == "__main__":
    sys.exit(main())

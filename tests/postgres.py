"""A private, throwaway PostgreSQL cluster for the tests (the fixtures are in ``conftest.py``).

The cluster is made with Debian's server binaries (``/usr/lib/postgresql/<version>/bin``,
package ``postgresql``) in a temporary directory and listens only on a Unix socket there:
no TCP port, no system cluster, no password. PostgreSQL will not run as root, so under
root (as in CI) every server command runs as ``nobody``, who owns the directory.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pwd
import shutil
import stat
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import psycopg
from psycopg import sql

INSTALL_COMMAND = "sudo apt-get install postgresql"
USER = "patience"
DATABASE = "patience"
UNPRIVILEGED_USER = "nobody"
POSTGRES_ROOT = Path("/usr/lib/postgresql")
# sockaddr_un holds 108 bytes; the server's socket is <directory>/.s.PGSQL.5432
MAX_SOCKET_DIRECTORY = 80


class PostgresError(RuntimeError):
    """The PostgreSQL server binaries are missing, or the cluster would not start."""


def server_binaries(root: Path = POSTGRES_ROOT) -> Path | None:
    """The ``bin`` directory of the highest installed version having initdb and pg_ctl.

    >>> server_binaries(Path("/nonexistent")) is None
    True
    """

    def version(bin_directory: Path) -> tuple[int, ...]:
        name = bin_directory.parent.name
        return tuple(int(part) for part in name.split(".")) if name[:1].isdigit() else ()

    candidates = [
        directory
        for directory in root.glob("*/bin")
        if all(os.access(directory / tool, os.X_OK) for tool in ("initdb", "pg_ctl"))
    ]
    return max(candidates, key=version, default=None)


def _traversable_by_all(directory: Path) -> bool:
    """Whether every directory from ``/`` down to ``directory`` lets others pass through."""
    return all(os.stat(path).st_mode & stat.S_IXOTH for path in (directory, *directory.parents))


def _base_directory(as_root: bool) -> Path:
    base = Path(tempfile.gettempdir()).resolve()
    too_long = len(str(base)) > MAX_SOCKET_DIRECTORY - 30
    if too_long or (as_root and not _traversable_by_all(base)):
        return Path("/tmp")
    return base


def _quote(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


class Cluster:
    """A running cluster in ``directory``: data in ``data``, its socket in ``directory``."""

    def __init__(self, binaries: Path, directory: Path, run_as: list[str]) -> None:
        self.binaries, self.directory, self.run_as = binaries, directory, run_as
        self.data, self.log = directory / "data", directory / "server.log"
        self._numbers = itertools.count(1)

    def _run(self, tool: str, *args: str) -> None:
        command = [*self.run_as, str(self.binaries / tool), *args]
        result = subprocess.run(
            command, cwd=self.directory, capture_output=True, text=True, check=False
        )
        if result.returncode != 0:
            log = self.log.read_text(errors="replace") if self.log.exists() else ""
            raise PostgresError(
                f"{' '.join(command)} failed ({result.returncode}):\n"
                f"{result.stdout}{result.stderr}{log}"
            )

    def initdb(self, *, durable: bool = False) -> None:
        self._run(
            "initdb",
            *("-D", str(self.data), "-U", USER, "--auth=trust", "-E", "UTF8", "--locale=C"),
            "--no-sync",
        )
        settings = {
            "listen_addresses": "''",  # no TCP at all: only the socket below
            "unix_socket_directories": _quote(str(self.directory)),
        }
        if not durable:
            # Durability is pointless for data thrown away at the end of the session, and
            # skipping the flushes makes the tests faster. Never do this with real data.
            # (A benchmark asks for a durable cluster, as a deployment runs.)
            settings |= {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}
        with (self.data / "postgresql.conf").open("a") as conf:
            conf.write("\n# patience tests\n")
            conf.writelines(f"{name} = {value}\n" for name, value in settings.items())

    def start(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-s", "start")

    def stop(self) -> None:
        if not (self.data / "postmaster.pid").exists():
            return  # never started (or already gone): nothing to stop
        # The data is discarded, so nothing needs to be written back on the way out.
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "-s", "stop")

    def url(self, database: str = DATABASE) -> str:
        """The SQLAlchemy URL of ``database`` (psycopg 3 over the Unix socket)."""
        return f"postgresql+psycopg://{USER}@/{database}?host={self.directory}"

    def _admin(self, statement: str, database: str) -> None:
        query = sql.SQL(statement).format(sql.Identifier(database))
        with psycopg.connect(
            host=str(self.directory), user=USER, dbname="postgres", autocommit=True
        ) as connection:
            connection.execute(query)

    def create_database(self, name: str) -> None:
        self._admin("CREATE DATABASE {}", name)

    def drop_database(self, name: str) -> None:
        """Drop ``name``, closing any connection a test left open to it."""
        self._admin("DROP DATABASE {} WITH (FORCE)", name)

    def new_database(self) -> str:
        """Create an empty database ``test_<n>`` and return its name."""
        name = f"test_{next(self._numbers)}"
        self.create_database(name)
        return name


@contextlib.contextmanager
def running_cluster(*, durable: bool = False) -> Iterator[Cluster]:
    """Start a private cluster, yield it, then stop it and remove its directory; with
    ``durable``, every commit is flushed to the disk, as PostgreSQL does by default."""
    binaries = server_binaries()
    if binaries is None:
        raise PostgresError(
            f"the PostgreSQL tests need Debian's PostgreSQL server (initdb and pg_ctl under "
            f"{POSTGRES_ROOT}/<version>/bin): run `{INSTALL_COMMAND}` (`make test` installs "
            f"it when run as root)"
        )
    as_root = os.geteuid() == 0
    directory = Path(tempfile.mkdtemp(prefix="patience-pg-", dir=_base_directory(as_root)))
    run_as: list[str] = []
    if as_root:
        user = pwd.getpwnam(UNPRIVILEGED_USER)
        os.chown(directory, user.pw_uid, user.pw_gid)  # mkdtemp's mode 0700, now theirs
        run_as = ["runuser", "-u", UNPRIVILEGED_USER, "--"]
    cluster = Cluster(binaries, directory, run_as)
    try:
        cluster.initdb(durable=durable)
        try:
            cluster.start()
            cluster.create_database(DATABASE)
            yield cluster
        finally:
            cluster.stop()
    finally:
        shutil.rmtree(directory, ignore_errors=True)

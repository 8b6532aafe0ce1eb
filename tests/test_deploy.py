"""The deployment of docs/deploy.md, for real: two server processes (``patience serve
--workers 2``) on one PostgreSQL database, behind Debian's nginx running the sample
configuration ``deploy/nginx.conf`` with TLS (a self-signed certificate made with openssl),
and Chromium playing a game and logging in through it. Checked besides: the session cookie
is ``Secure`` over TLS; ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed from the
proxy only; ``/metrics`` is not served through the proxy, is summed over both processes,
and is refused to other addresses; both processes answer; the systemd unit is valid; and
``deploy/patience-ctl`` runs a command with the settings file.

nginx connects to the server from 127.0.0.4 (``proxy_bind``, added for the test), the only
proxy the server trusts, so that the server can tell the browser's address (127.0.0.1, from
``X-Forwarded-For``) from the proxy's. nginx also takes a client's address from the header
``X-Test-Client`` (``real_ip_header``, added for the test) when there is one, so that a test
can be an IPv6 client, or a client of its own, though it connects from 127.0.0.1.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser

import postgres
from patience.server import launch
from test_browser import BYPASS_CSP, browser  # noqa: F401 (the fixture)
from test_operations import serve_logged, wait_for

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
NGINX = "/usr/sbin/nginx"
PROXY_ADDRESS = "127.0.0.2"  # where nginx listens
PROXY_SOURCE = "127.0.0.4"  # where nginx connects to the server from: the trusted proxy
BROWSER_ADDRESS = "127.0.0.1"  # where the browser connects to nginx from
OTHER_ADDRESS = "127.0.0.3"  # a client that is not the proxy
CLIENT_HEADER = "X-Test-Client"  # the address nginx takes a client to be at, in a test
PASSWORD = "correct horse battery"
WAIT = 180.0  # seconds a start may take on a busy machine (a deadline, not a wait)


@dataclass
class Deployment:
    site: str  # https://127.0.0.2:PORT, through nginx
    redirect: str  # http://127.0.0.2:PORT, nginx's port-80 server
    app: str  # http://127.0.0.1:PORT, the server processes themselves
    log: Path  # the server's standard error: JSON lines
    database_url: str

    def lines(self) -> list[dict[str, Any]]:
        """The server's log lines so far."""
        found = []
        for line in self.log.read_text(errors="replace").splitlines():
            if line.startswith("{"):
                found.append(json.loads(line))
        return found

    def access(self, path: str) -> list[dict[str, Any]]:
        """The access log's lines of requests to ``path``."""
        return [
            line
            for line in self.lines()
            if line.get("logger") == "patience.access" and line.get("path") == path
        ]


def answers(url: str, **options: Any) -> bool:
    try:
        return httpx.get(url, timeout=2, **options).status_code == 200
    except httpx.HTTPError:
        return False


def site_config(port: int, https_port: int, http_port: int, folder: Path) -> str:
    """``deploy/nginx.conf`` as a test runs it: its example name, addresses and
    certificate replaced, and the address nginx connects from set; nothing else changed."""
    text = (DEPLOY / "nginx.conf").read_text()
    replacements = [
        ("server 127.0.0.1:8000;", f"server 127.0.0.1:{port};"),
        ("listen 443 ssl http2;", f"listen {PROXY_ADDRESS}:{https_port} ssl http2;"),
        ("listen 80;", f"listen {PROXY_ADDRESS}:{http_port};"),
        ("/etc/letsencrypt/live/play.example.org/fullchain.pem", str(folder / "cert.pem")),
        ("/etc/letsencrypt/live/play.example.org/privkey.pem", str(folder / "key.pem")),
        ("play.example.org", PROXY_ADDRESS),
        (
            "proxy_http_version 1.1;",
            f"proxy_http_version 1.1;\n    proxy_bind {PROXY_SOURCE};\n"
            f"    set_real_ip_from {BROWSER_ADDRESS};\n    real_ip_header {CLIENT_HEADER};",
        ),
    ]
    for old, new in replacements:
        assert old in text, f"deploy/nginx.conf no longer has {old!r}"
        text = text.replace(old, new)
    # no IPv6 listener in a test (the machine may have no IPv6 loopback)
    return "\n".join(line for line in text.splitlines() if "listen [::]" not in line)


def nginx_config(folder: Path, site: str) -> Path:
    """A main configuration for an nginx of our own: its files in ``folder``."""
    (folder / "site.conf").write_text(site)
    for temp in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (folder / temp).mkdir()
    user = "user root;\n" if os.geteuid() == 0 else ""
    main = f"""{user}worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log;
events {{ worker_connections 256; }}
http {{
    access_log {folder}/access.log;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    include {folder}/site.conf;
}}
"""
    path = folder / "nginx.conf"
    path.write_text(main)
    return path


def certificate(folder: Path) -> None:
    """A self-signed certificate for the proxy's address."""
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "2",
            "-subj",
            f"/CN={PROXY_ADDRESS}",
            "-addext",
            f"subjectAltName=IP:{PROXY_ADDRESS}",
            "-keyout",
            str(folder / "key.pem"),
            "-out",
            str(folder / "cert.pem"),
        ],
        check=True,
        capture_output=True,
    )


def patience(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "patience.cli", *args], env=env, capture_output=True, text=True
    )


@pytest.fixture(scope="module")
def deployment(
    tmp_path_factory: pytest.TempPathFactory, postgres_cluster: postgres.Cluster
) -> Iterator[Deployment]:
    assert Path(NGINX).exists(), "the deployment test needs Debian's nginx: apt-get install nginx"
    folder = tmp_path_factory.mktemp("deploy")
    name = postgres_cluster.new_database()
    url = postgres_cluster.url(name)
    port, https_port, http_port = launch.free_port(), launch.free_port(), launch.free_port()
    env = {key: value for key, value in os.environ.items() if not key.startswith("PATIENCE_")} | {
        "PATIENCE_DATABASE_URL": url,
        "PATIENCE_PORT": str(port),
        "PATIENCE_WORKERS": "2",
        "PATIENCE_TRUSTED_PROXIES": PROXY_SOURCE,
        "PATIENCE_CATALOG_REFILL": "0",
    }
    migrated = patience("db", "migrate", env=env)
    assert migrated.returncode == 0, migrated.stderr
    log = folder / "server.log"
    processes: list[subprocess.Popen[bytes]] = []
    try:
        server = serve_logged(env, log)
        processes.append(server)
        app = f"http://127.0.0.1:{port}"
        wait_for(
            lambda: server.poll() is not None or answers(f"{app}/readyz"), "the server's start"
        )
        assert server.poll() is None, log.read_text()
        certificate(folder)
        config = nginx_config(folder, site_config(port, https_port, http_port, folder))
        checked = subprocess.run(
            [NGINX, "-t", "-p", str(folder), "-c", str(config)], capture_output=True, text=True
        )
        assert checked.returncode == 0, checked.stderr
        proxy = subprocess.Popen(
            [NGINX, "-p", str(folder), "-c", str(config), "-g", "daemon off;"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        processes.append(proxy)
        site = f"https://{PROXY_ADDRESS}:{https_port}"
        wait_for(
            lambda: proxy.poll() is not None or answers(f"{site}/healthz", verify=False),
            "nginx's start",
        )
        assert proxy.poll() is None, (folder / "error.log").read_text()
        yield Deployment(site, f"http://{PROXY_ADDRESS}:{http_port}", app, log, url)
    finally:
        for process in reversed(processes):
            process.send_signal(signal.SIGTERM)
        for process in processes:
            process.wait(timeout=30)
        postgres_cluster.drop_database(name)


def test_a_game_and_a_log_in_through_nginx_with_tls_in_chromium(
    browser: Browser,  # noqa: F811
    deployment: Deployment,
) -> None:
    context = browser.new_context(
        ignore_https_errors=True, bypass_csp=BYPASS_CSP, viewport={"width": 1100, "height": 800}
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{deployment.site}/#/account")
    page.wait_for_selector("#signup")
    page.fill("#signup-name", "Ada")
    page.fill("#signup-password", PASSWORD)
    page.click("#signup button[type=submit]")
    page.wait_for_selector("#stats, #no-stats")
    assert page.inner_text("#nav a.who") == "Ada"
    cookie = next(c for c in context.cookies() if c["name"] == "patience_session")
    assert cookie["secure"], "the session cookie is Secure over TLS"
    assert cookie["httpOnly"]
    assert cookie["sameSite"] == "Strict"

    # a game, signed in: its start and moves carry the CSRF token through the proxy
    page.goto(f"{deployment.site}/")
    page.check("input[name=game][value=golf]")
    page.check("input[name=mode][value=practice]")
    page.fill("#seed", "7")
    page.click("#start")
    page.wait_for_selector("#board .card")
    for _ in range(3):
        version = page.get_attribute("#board", "data-version")
        page.keyboard.press("Space")
        page.wait_for_function(f"document.querySelector('#board').dataset.version !== '{version}'")
    page.click("#end")
    page.click("#confirm-yes")
    page.wait_for_selector("#result:not([hidden])")

    # log out, and in again
    page.goto(f"{deployment.site}/#/account")
    page.click("#logout")
    page.wait_for_selector("#login")
    page.fill("#login-name", "ada")
    page.fill("#login-password", PASSWORD)
    page.click("#login button[type=submit]")
    page.wait_for_selector("#stats")
    assert page.inner_text("#nav a.who") == "Ada"
    assert page.locator("#stats .stat-group[data-game=golf]").count() == 1
    assert errors == []
    context.close()

    # every request came through nginx, from the browser's address as nginx saw it
    moves = wait_for(
        lambda: deployment.access("/api/accounts/login"), "the log-in's access line", 10
    )
    assert {line["client"] for line in moves} == {BROWSER_ADDRESS}
    played = [line for line in deployment.lines() if line.get("route", "").endswith("/moves")]
    assert len(played) >= 3
    assert {line["status"] for line in played} == {200}


def test_forwarded_headers_are_believed_from_the_proxy_only(deployment: Deployment) -> None:
    forged = {"X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "https"}
    # (the module's other tests wrote access lines of these paths: the new ones come after)
    games_before = len(deployment.access("/api/games"))
    sign_ups_before = len(deployment.access("/api/accounts"))
    # through nginx: the client's own X-Forwarded-For is replaced by its address
    through = httpx.get(f"{deployment.site}/api/games?via=proxy", headers=forged, verify=False)
    assert through.status_code == 200
    # straight to the server from another address: neither header is believed
    with httpx.Client(transport=httpx.HTTPTransport(local_address=OTHER_ADDRESS)) as client:
        direct = client.post(
            f"{deployment.app}/api/accounts",
            json={"name": "Forger", "password": PASSWORD},
            headers=forged | {"Origin": deployment.app},
        )
    assert direct.status_code == 201, direct.text
    assert "secure" not in direct.headers["set-cookie"].lower()  # plain HTTP, whatever it said
    lines = wait_for(
        lambda: deployment.access("/api/accounts")[sign_ups_before:],
        "the sign-up's access line",
        10,
    )
    assert [line["client"] for line in lines] == [OTHER_ADDRESS]
    through_lines = wait_for(
        lambda: deployment.access("/api/games")[games_before:],
        "the proxied request's access line",
        10,
    )
    assert [line["client"] for line in through_lines] == [BROWSER_ADDRESS]


def test_metrics_are_summed_over_the_processes_and_kept_off_the_proxy(
    deployment: Deployment,
) -> None:
    assert httpx.get(f"{deployment.site}/metrics", verify=False).status_code == 404
    with httpx.Client(transport=httpx.HTTPTransport(local_address=OTHER_ADDRESS)) as client:
        assert client.get(f"{deployment.app}/metrics").status_code == 403

    def served(text: str) -> float:
        pattern = r'patience_requests_total\{method="GET",route="/api/games",status="200"\} (\S+)'
        found = re.search(pattern, text)
        return float(found[1]) if found else 0.0

    before = served(httpx.get(f"{deployment.app}/metrics").text)
    for _ in range(20):  # a connection each: the kernel hands them to either process
        with httpx.Client() as client:
            assert client.get(f"{deployment.app}/api/games").status_code == 200
    scraped = httpx.get(f"{deployment.app}/metrics")
    assert scraped.status_code == 200
    assert served(scraped.text) - before == 20
    assert "patience_move_seconds_bucket" in scraped.text
    assert "patience_outages_total" in scraped.text

    # both processes answered (the access lines say which process)
    def pids() -> set[int]:
        return {line["pid"] for line in deployment.access("/api/games")}

    def both() -> bool:
        with httpx.Client() as client:
            client.get(f"{deployment.app}/api/games")
        return len(pids()) >= 2

    wait_for(both, "requests answered by both server processes")


def test_the_systemd_unit_is_valid(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    assert analyze, "the unit is checked with systemd-analyze (Debian's systemd package)"
    unit = (DEPLOY / "patience.service").read_text()
    assert "ExecStart=/opt/patience/bin/patience serve" in unit
    assert "EnvironmentFile=/etc/patience/patience.env" in unit
    patience_bin = Path(sys.executable).with_name("patience")
    unit = unit.replace("/opt/patience/bin/patience", str(patience_bin))
    (tmp_path / "patience.service").write_text(unit)
    checked = subprocess.run(
        [analyze, "verify", str(tmp_path / "patience.service")], capture_output=True, text=True
    )
    problems = [
        line
        for line in (checked.stdout + checked.stderr).splitlines()
        if "patience.service" in line
    ]
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert not problems, problems


def test_patience_ctl_runs_a_command_with_the_settings_file(tmp_path: Path) -> None:
    example = (DEPLOY / "patience.env.example").read_text()
    settings = example.replace(
        "postgresql+psycopg://patience@/patience?host=/var/run/postgresql",
        f"sqlite:///{tmp_path / 'games.sqlite3'}",
    ).replace("PATIENCE_WORKERS=2", "PATIENCE_WORKERS=1")
    (tmp_path / "patience.env").write_text(settings)
    user = subprocess.run(["id", "-un"], capture_output=True, text=True, check=True).stdout
    env = {
        "PATH": os.environ["PATH"],
        "PYTHONPATH": os.environ.get("PYTHONPATH", ""),  # the code under test
        "PATIENCE_ENV_FILE": str(tmp_path / "patience.env"),
        "PATIENCE_USER": user.strip(),
        "PATIENCE_BIN": str(Path(sys.executable).with_name("patience")),
        "PATIENCE_HOME": str(tmp_path),
    }
    ctl = str(DEPLOY / "patience-ctl")
    shown = subprocess.run([ctl, "settings"], env=env, capture_output=True, text=True)
    assert shown.returncode == 0, shown.stderr
    values = dict(
        line.split("#")[0].strip().split("=", 1) for line in shown.stdout.splitlines() if line
    )
    assert values["PATIENCE_TRUSTED_PROXIES"] == "127.0.0.1"
    assert values["PATIENCE_DATABASE_URL"].startswith("sqlite:///")
    assert all(line.endswith("# environment") for line in shown.stdout.splitlines()[:3])
    migrated = subprocess.run([ctl, "db", "migrate"], env=env, capture_output=True, text=True)
    assert migrated.returncode == 0, migrated.stderr
    assert (tmp_path / "games.sqlite3").exists()


def _start(client: httpx.Client, site: str, address: str) -> httpx.Response:
    """A request for a new game (one the server refuses as malformed, 422, which costs it
    nothing: nginx counts it all the same) from a client at ``address``."""
    headers = {CLIENT_HEADER: address, "Content-Type": "application/json"}
    return client.post(f"{site}/api/sessions", content=b"{}", headers=headers)


def _nginx_refused(answer: httpx.Response) -> bool:
    """Whether ``answer`` is nginx's refusal for its limit on new games: JSON with a reason
    and Retry-After, as the server's own."""
    if answer.status_code != 429 or "from your address" not in answer.text:
        return False
    assert answer.headers["content-type"] == "application/json"
    assert answer.json() == {"detail": "too many new games from your address: try again in 2 s"}
    assert answer.headers["retry-after"] == "2"
    return True


def test_nginx_counts_an_ipv6_client_by_its_64_and_refuses_in_json(
    deployment: Deployment,
) -> None:
    with httpx.Client(verify=False, timeout=WAIT) as client:
        one = [_start(client, deployment.site, f"2001:db8:7:1::{i:x}") for i in range(1, 15)]
        # each /64 its own count, and an IPv4 client its address's
        apart = [_start(client, deployment.site, f"2001:db8:7:{i:x}::1") for i in range(2, 16)]
        apart += [_start(client, deployment.site, f"198.51.100.{i}") for i in range(1, 15)]
    statuses = [answer.status_code for answer in one]
    assert 429 not in statuses[:10], statuses  # nginx lets 11 through at once
    assert _nginx_refused(one[-1]), statuses
    assert not any(_nginx_refused(answer) for answer in apart), [a.status_code for a in apart]
    assert {answer.status_code for answer in apart} == {422}


def test_the_browser_shows_why_nginx_refused_a_new_game(
    browser: Browser,  # noqa: F811
    deployment: Deployment,
) -> None:
    address = "2001:db8:7:100::1"  # a client of its own, that no other test uses
    context = browser.new_context(
        ignore_https_errors=True, bypass_csp=BYPASS_CSP, extra_http_headers={CLIENT_HEADER: address}
    )
    page = context.new_page()
    page.goto(f"{deployment.site}/")
    page.wait_for_selector("#start")
    page.check("input[name=game][value=golf]")
    page.check("input[name=mode][value=practice]")
    # requests for new games until nginx refuses one, and at once the lobby's Start
    last = page.evaluate(
        """async () => {
          for (let i = 0; i < 30; i++) {
            const answer = await fetch("/api/sessions", {
              method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
            if ((await answer.text()).includes("from your address")) {
              document.querySelector("#start").click();
              return answer.status;
            }
          }
          return 0;
        }"""
    )
    assert last == 429
    page.wait_for_function("document.querySelector('#lobby-error').textContent !== ''")
    assert page.inner_text("#lobby-error") == (
        "Too many new games from your address: try again in 2 s"
    )
    context.close()


def test_nginx_hides_its_version_and_static_files_are_revalidated(
    deployment: Deployment,
) -> None:
    redirected = httpx.get(f"{deployment.redirect}/static/app.js")
    assert redirected.status_code == 301
    assert redirected.headers["server"] == "nginx"
    with httpx.Client(verify=False) as client:
        page = client.get(f"{deployment.site}/")
        assert page.headers["server"] == "nginx"
        assert page.headers["cache-control"] == "no-cache"
        for path in ("/static/app.js", "/static/style.css", "/static/api.js"):
            first = client.get(f"{deployment.site}{path}")
            assert first.status_code == 200
            # kept, but asked about again each time: an upgrade's file is never kept stale
            assert first.headers["cache-control"] == "no-cache"
            again = client.get(
                f"{deployment.site}{path}", headers={"If-None-Match": first.headers["etag"]}
            )
            assert again.status_code == 304


def ctl_env(tmp_path: Path, settings: str) -> dict[str, str]:
    """The environment that runs ``patience-ctl`` with ``settings`` as its file, as the
    user running the test."""
    (tmp_path / "patience.env").write_text(settings)
    user = subprocess.run(["id", "-un"], capture_output=True, text=True, check=True).stdout
    return {
        "PATH": os.environ["PATH"],
        "PYTHONPATH": os.environ.get("PYTHONPATH", ""),
        "PATIENCE_ENV_FILE": str(tmp_path / "patience.env"),
        "PATIENCE_USER": user.strip(),
        "PATIENCE_BIN": str(Path(sys.executable).with_name("patience")),
        "PATIENCE_HOME": str(tmp_path),
    }


def test_patience_ctl_reads_the_settings_file_as_systemd_does(tmp_path: Path) -> None:
    # quotes around a value, blanks around a line, a name or a value, comments with # or ;
    # and a Windows line end: what systemd's EnvironmentFile= takes
    settings = (
        "# the database\n"
        f'  PATIENCE_DATABASE_URL="sqlite:///{tmp_path / "games.sqlite3"}"\n'
        "\tPATIENCE_SIGNUP = 'closed'  \n"
        "; a comment of systemd's other kind\n"
        "PATIENCE_PORT=8123\r\n"
        "\n"
        'PATIENCE_LOG_LEVEL="warning"'
    )
    env = ctl_env(tmp_path, settings)
    ctl = str(DEPLOY / "patience-ctl")
    shown = subprocess.run([ctl, "settings", "--json"], env=env, capture_output=True, text=True)
    assert shown.returncode == 0, shown.stderr
    values = json.loads(shown.stdout)
    assert values["PATIENCE_DATABASE_URL"] == f"sqlite:///{tmp_path / 'games.sqlite3'}"
    assert values["PATIENCE_SIGNUP"] == "closed"
    assert values["PATIENCE_PORT"] == "8123"
    assert values["PATIENCE_LOG_LEVEL"] == "warning"


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("PATIENCE_PORT=80\\\n80", "line 2: a backslash"),
        ('PATIENCE_SIGNUP="a\\"b"', "line 2: a backslash"),
        ("this is not a setting", "line 2: not VARIABLE=value"),
        ("PATIENCE PORT=1", "line 2: 'PATIENCE PORT' is not a variable's name"),
    ],
)
def test_patience_ctl_refuses_what_it_cannot_read_as_systemd_does(
    tmp_path: Path, line: str, said: str
) -> None:
    env = ctl_env(tmp_path, f"# settings\n{line}\n")
    ctl = str(DEPLOY / "patience-ctl")
    done = subprocess.run([ctl, "settings"], env=env, capture_output=True, text=True)
    assert done.returncode == 1
    assert done.stderr.startswith(f"patience-ctl: {tmp_path / 'patience.env'} {said}")
    assert done.stderr.count("\n") == 1, done.stderr
    assert done.stdout == ""

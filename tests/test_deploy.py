"""deploy/: the image's base and bytecode, its healthcheck script (run for real against a
server on 127.0.0.1), the compose files' restart policy and database password, and the
systemd unit. No Docker engine: the files are read as a reviewer reads them."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

import psycopg
import pytest
import yaml

from adapters.cli import SETUP_FAILED
from bot.persistence import Store

from .support.environment import REPO
from .support.postgres import Server, server_binaries, start, stop

pytestmark = pytest.mark.e2e

DEPLOY = REPO / "deploy"
HEALTHCHECK = DEPLOY / "healthcheck.py"
PORT_VARIABLE = "QUIZBOT_METRICS_PORT"
COMPOSE_FILES = ("compose.yaml", "compose.postgres.yaml")
# Every character that breaks a password pasted into a URL.
PASSWORD = "p@ss/w:rd#%?"


def instructions(dockerfile: str) -> list[str]:
    """The Dockerfile's instructions, continuation lines joined and comments left out."""
    joined = re.sub(r"\\\n\s*", " ", re.sub(r"(?m)^\s*#.*\n", "", dockerfile))
    return [line.strip() for line in joined.splitlines() if line.strip()]


def dockerfile_instructions() -> list[str]:
    return instructions((DEPLOY / "Dockerfile").read_text(encoding="utf-8"))


# The image.


def test_the_base_image_is_an_exact_python_and_debian_release() -> None:
    froms = [line for line in dockerfile_instructions() if line.startswith("FROM ")]
    assert len(froms) == 1
    assert re.fullmatch(r"FROM python:3\.11\.\d+-slim-\w+", froms[0]), froms[0]


def test_the_bytecode_is_compiled_at_build_time_and_never_at_run_time() -> None:
    steps = dockerfile_instructions()
    runs = [line for line in steps if line.startswith("RUN ")]
    assert not any("--no-compile" in line for line in steps)
    assert any("pip install" in line and "python -m compileall" in line for line in runs)
    env = next(line for line in steps if line.startswith("ENV "))
    assert "PYTHONDONTWRITEBYTECODE=1" in env.split()


def test_the_healthcheck_runs_the_script_the_image_ships() -> None:
    steps = dockerfile_instructions()
    check = next(line for line in steps if line.startswith("HEALTHCHECK "))
    command = json.loads(check.split(" CMD ", 1)[1])
    assert command[0] == "python" and command[-1].endswith("/healthcheck.py")
    assert f"COPY deploy/healthcheck.py {command[-1]}" in steps


# The healthcheck script, run as Docker runs it: a process, its exit status, its output.


@dataclass(frozen=True)
class Answer:
    status: int
    body: str


def run_healthcheck(port: str | None) -> subprocess.CompletedProcess[str]:
    """The script with QUIZBOT_METRICS_PORT set to ``port``, or unset for None."""
    env = {name: value for name, value in os.environ.items() if name != PORT_VARIABLE}
    if port is not None:
        env[PORT_VARIABLE] = port
    return subprocess.run(
        [sys.executable, str(HEALTHCHECK)],
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )


@pytest.fixture
def healthz() -> Iterator[Callable[[Answer], int]]:
    """Starts a tiny HTTP server on 127.0.0.1 giving ``answer`` on /healthz (404 on any
    other path); returns its port. Every server is stopped after the test."""
    servers: list[ThreadingHTTPServer] = []

    def serve(answer: Answer) -> int:
        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                found = self.path == "/healthz"
                body = answer.body.encode() if found else b""
                self.send_response(answer.status if found else 404)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: object) -> None:
                pass  # no request lines in the test output

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        servers.append(server)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        return int(server.server_address[1])

    try:
        yield serve
    finally:
        for server in servers:
            server.shutdown()
            server.server_close()


@pytest.mark.parametrize("port", [None, ""])
def test_metrics_off_passes_without_a_traceback(port: str | None) -> None:
    done = run_healthcheck(port)
    assert "Traceback" not in done.stderr
    assert done.returncode == 0
    assert "metrics are off" in done.stdout


def test_a_healthy_bot_passes(healthz: Callable[[Answer], int]) -> None:
    port = healthz(Answer(200, '{"status": "ok", "database": "ok"}'))
    done = run_healthcheck(str(port))
    assert done.returncode == 0, done.stderr
    assert done.stdout == f'127.0.0.1:{port}/healthz: 200 {{"status": "ok", "database": "ok"}}\n'


def test_an_unhealthy_bot_fails_saying_what_is_wrong(healthz: Callable[[Answer], int]) -> None:
    port = healthz(Answer(503, '{"status": "unhealthy", "database": "locked"}'))
    done = run_healthcheck(str(port))
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert f"127.0.0.1:{port}/healthz: 503" in done.stderr and '"database": "locked"' in done.stderr


def test_nothing_listening_fails_without_a_traceback() -> None:
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))  # bound and never listening: a connection is refused
        port = held.getsockname()[1]
        done = run_healthcheck(str(port))
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith(f"127.0.0.1:{port}/healthz: ")


@pytest.mark.parametrize("port", ["metrics", " ", "0", "70000"])
def test_a_port_that_is_no_port_fails_without_a_traceback(port: str) -> None:
    done = run_healthcheck(port)
    assert done.returncode == 1
    assert done.stderr == f"{PORT_VARIABLE} must be a port number, not '{port}'\n"


# Compose and systemd.


@pytest.mark.parametrize("name", COMPOSE_FILES)
def test_compose_restarts_a_crash_but_gives_up_on_a_setup_problem(name: str) -> None:
    text = (DEPLOY / name).read_text(encoding="utf-8")
    assert "restart: unless-stopped" not in text
    for service in yaml.safe_load(text)["services"].values():
        assert re.fullmatch(r"on-failure:\d+", service["restart"])


@pytest.mark.parametrize("name", COMPOSE_FILES)
def test_the_postgres_password_is_in_no_url(name: str) -> None:
    text = (DEPLOY / name).read_text(encoding="utf-8")
    assert not re.search(r"://\S*\$\{POSTGRES_PASSWORD", text)


def test_quizbot_gets_the_postgres_password_through_pgpassword() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.postgres.yaml").read_text(encoding="utf-8"))
    environment = compose["services"]["quizbot"]["environment"]
    assert urlsplit(environment["QUIZBOT_DB"]).password is None
    assert environment["PGPASSWORD"].startswith("${POSTGRES_PASSWORD:?")


def test_systemd_does_not_restart_a_setup_problem() -> None:
    lines = (DEPLOY / "quizbot.service").read_text(encoding="utf-8").splitlines()
    assert "Restart=on-failure" in lines
    assert f"RestartPreventExitStatus={SETUP_FAILED}" in lines


# The compose file's database settings against a real server that checks passwords.


@pytest.fixture(scope="module")
def password_server() -> Iterator[Server]:
    """A PostgreSQL server of its own (the shared one trusts everyone): scram passwords over
    TCP, except for the postgres superuser that sets it up."""
    binaries = server_binaries()
    if binaries is None:
        if os.environ.get("CI"):  # as the shared server: CI installs PostgreSQL
            pytest.fail("CI is set but PostgreSQL's server (initdb, pg_ctl) is not installed")
        pytest.skip("PostgreSQL's server (initdb, pg_ctl) is not installed")
    server = start(binaries)
    try:
        (server.directory / "data" / "pg_hba.conf").write_text(
            "local all all trust\n"
            "host all postgres 127.0.0.1/32 trust\n"
            "host all all 127.0.0.1/32 scram-sha-256\n",
            encoding="utf-8",
        )
        server.admin("SELECT pg_reload_conf()")
        server.admin(f"CREATE ROLE quizbot LOGIN PASSWORD '{PASSWORD}'")
        server.admin("CREATE DATABASE quizbot OWNER quizbot")
        yield server
    finally:
        stop(binaries, server)


def compose_database(server: Server, password: str) -> dict[str, str]:
    """QUIZBOT_DB and PGPASSWORD as compose.postgres.yaml gives them to quizbot, with
    POSTGRES_PASSWORD set to ``password`` and the host pointed at ``server``."""
    compose = yaml.safe_load((DEPLOY / "compose.postgres.yaml").read_text(encoding="utf-8"))
    environment = compose["services"]["quizbot"]["environment"]

    def interpolate(value: str) -> str:
        return re.sub(r"\$\{POSTGRES_PASSWORD(:\?[^}]*)?\}", lambda _: password, value)

    url = interpolate(environment["QUIZBOT_DB"]).replace(
        "@postgres:5432/", f"@127.0.0.1:{server.port}/"
    )
    return {"QUIZBOT_DB": url, "PGPASSWORD": interpolate(environment["PGPASSWORD"])}


async def test_quizbot_opens_the_database_with_any_password(
    password_server: Server, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    settings = compose_database(password_server, PASSWORD)
    with pytest.raises(psycopg.OperationalError, match="password authentication failed"):
        psycopg.connect(settings["QUIZBOT_DB"], password="wrong", connect_timeout=10).close()

    monkeypatch.setenv("PGPASSWORD", settings["PGPASSWORD"])
    store = await Store.open(settings["QUIZBOT_DB"])
    await store.close()
    assert PASSWORD not in caplog.text

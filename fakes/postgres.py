"""A throwaway PostgreSQL server: a cluster made by ``initdb`` in a temporary directory,
started by ``pg_ctl`` on a free 127.0.0.1 port, removed when stopped. The server runs as
the ``postgres`` user when started as root (``initdb`` refuses root)."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import psycopg

from .ports import free_port

SERVER_USER = "postgres"
SETTINGS = ("max_connections=200",)
# Throwaway data: nothing needs to survive a power loss, so the tests need not wait for it.
TEST_SETTINGS = (*SETTINGS, "fsync=off", "full_page_writes=off")


@dataclass(frozen=True)
class Server:
    port: int
    directory: Path

    def url(self, database: str) -> str:
        return f"postgresql://{SERVER_USER}@127.0.0.1:{self.port}/{database}"

    def admin(self, sql: str) -> None:
        """One statement outside a transaction (CREATE and DROP DATABASE need that)."""
        with psycopg.connect(self.url("postgres"), autocommit=True) as connection:
            connection.execute(sql.encode())


def server_binaries() -> Path | None:
    """Where ``initdb`` and ``pg_ctl`` are: on PATH, else Debian's versioned directory."""
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).resolve().parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    return Path(versions[-1]).parent if versions else None


def _as_server_user(command: list[str]) -> list[str]:
    return ["runuser", "-u", SERVER_USER, "--", *command] if os.geteuid() == 0 else command


def _run(program: Path, *args: str | Path) -> None:
    command = _as_server_user([str(program), *map(str, args)])
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{program.name} failed: {done.stderr or done.stdout}")


def start(binaries: Path, settings: tuple[str, ...] = TEST_SETTINGS) -> Server:
    directory = Path(tempfile.mkdtemp(prefix="quizbot-pg-"))
    if os.geteuid() == 0:
        user = pwd.getpwnam(SERVER_USER)
        os.chown(directory, user.pw_uid, user.pw_gid)
    data, port = directory / "data", free_port()
    options = " ".join(
        [f"-p {port}", "-c listen_addresses=127.0.0.1", f"-k {directory}"]
        + [f"-c {setting}" for setting in settings]
    )
    try:
        _run(binaries / "initdb", "-D", data, "-U", SERVER_USER, "--auth=trust", "--locale=C.UTF-8")
        _run(binaries / "pg_ctl", "-D", data, "-l", directory / "log", "-o", options, "-w", "start")
    except BaseException:
        shutil.rmtree(directory, ignore_errors=True)
        raise
    return Server(port, directory)


def stop(binaries: Path, server: Server) -> None:
    try:
        _run(binaries / "pg_ctl", "-D", server.directory / "data", "-m", "fast", "-w", "stop")
    finally:
        shutil.rmtree(server.directory, ignore_errors=True)

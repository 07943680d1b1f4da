"""``quizbot db``: check the database, back it up while the bot runs, or move it between
SQLite and PostgreSQL (``db forget`` is :mod:`adapters.cli.forget`'s)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from bot.operations.settings import database as database_location
from bot.operations.settings import is_postgres
from bot.persistence import StoreError, integrity_problems
from bot.persistence.transfer import TABLES, copy_database
from bot.services.engine import Engine

from ..errors import SetupError
from . import forget
from .options import Commands, add_db_option, settings, with_engine


def _cmd_check(args: argparse.Namespace) -> int:
    location = settings(args).core.db
    if is_postgres(location):
        from bot.persistence import postgres

        problems, checked = postgres.problems(str(location), TABLES)
        place = postgres.safe(str(location))
    else:
        problems, checked, place = integrity_problems(Path(location)), "", str(location)
    for problem in problems:
        print(f"quizbot: {problem}", file=sys.stderr)
    if not problems:
        print(f"{place}: ok" + (f" ({checked})" if checked else ""))
    return 1 if problems else 0


def _cmd_migrate(args: argparse.Namespace) -> int:
    """Copy a database (``--from``, else the configured one) into an empty one (``--to``):
    SQLite into PostgreSQL or back; the bot should be stopped meanwhile."""
    source = str(database_location(args.source) if args.source else settings(args).core.db)
    target = str(database_location(args.to))
    try:
        copied = copy_database(source, target, _progress() if sys.stderr.isatty() else None)
    except StoreError as exc:
        print(f"quizbot: {exc}", file=sys.stderr)
        return 1
    counts = ", ".join(f"{n} {table}" for table, n in copied.rows.items() if n)
    print(f"copied {_shown(source)} to {_shown(target)}: {counts or 'no rows'}")
    print(f"leaderboards identical: {copied.board_rows} rows")
    return 0


def _shown(location: str) -> str:
    if not is_postgres(location):
        return location
    from bot.persistence import postgres

    return postgres.safe(location)


def _progress() -> Callable[[str, int, int], None]:
    """A progress line on the terminal, rewritten in place, one per table."""

    def show(table: str, copied: int, total: int) -> None:
        end = "\n" if copied >= total else ""
        print(f"\r  {table:<16} {copied:>10,} / {total:,} rows", end=end, file=sys.stderr)

    return show


def _cmd_backup(args: argparse.Namespace) -> int:
    if is_postgres(settings(args).core.db):
        raise SetupError(
            "quizbot db backup copies a SQLite file; back PostgreSQL up with its own"
            " pg_dump (or pg_basebackup for the whole server)",
            2,
        )
    target = Path(args.target)
    if target.exists():
        print(f"quizbot: {target} exists already: choose a new file", file=sys.stderr)
        return 1

    async def work(engine: Engine) -> int:
        await engine.store.database.backup(target)
        print(f"backed up {engine.store.path} to {target}")
        return 0

    return with_engine(settings(args).core, work)


def add_parser(commands: Commands) -> None:
    database = commands.add_parser("db", help="check, back up or move the database")
    database_sub = database.add_subparsers(dest="db_command", required=True)
    check_db = database_sub.add_parser(
        "check", help="check the database: SQLite's integrity check, or PostgreSQL's tables"
    )
    add_db_option(check_db)
    check_db.set_defaults(func=_cmd_check)
    moving = database_sub.add_parser(
        "migrate", help="copy the database into an empty one: SQLite to PostgreSQL, or back"
    )
    moving.add_argument(
        "--from", dest="source", metavar="PATH_OR_URL", help="default: --db or QUIZBOT_DB"
    )
    moving.add_argument(
        "--to", required=True, metavar="PATH_OR_URL", help="postgresql://user@host/db or a file"
    )
    add_db_option(moving)
    moving.set_defaults(func=_cmd_migrate)
    forget.add_parser(database_sub)
    backup = database_sub.add_parser("backup", help="copy the database while the bot runs")
    backup.add_argument("target", help="the new backup file")
    add_db_option(backup)
    backup.set_defaults(func=_cmd_backup)

"""What the commands share: the settings with the command line's options over them, an
engine for the length of one command, the terminal's language, a file of questions read,
and option types."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path
from typing import TypeAlias, TypeVar

from bot.content.banks import BankError, Catalog
from bot.content.formats import UnknownFormat
from bot.content.formats.importer import Options
from bot.domain.identities import ScopeRef
from bot.operations.settings import CoreSettings, InvalidSettings, declared
from bot.operations.settings import database as database_location
from bot.services.engine import Engine
from bot.ui import i18n

from ..app import compose
from ..errors import SetupError
from ..settings import SECTIONS, Settings, load

T = TypeVar("T")
# What each group's module adds its commands to (argparse keeps the class private).
Commands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


def settings(
    args: argparse.Namespace, platforms: Iterable[str] | None = (), exit_code: int = 1
) -> Settings:
    """The validated settings, the command line's options over them; each problem is one
    line and stops the command (``platforms`` as :func:`adapters.settings.load` takes them)."""
    try:
        return load(os.environ, _options(args), platforms)
    except InvalidSettings as invalid:
        raise SetupError("\n".join(invalid.problems), exit_code) from None


def _options(args: argparse.Namespace) -> dict[str, object]:
    """The options the settings declare (``--db``, ``--port``, …) with their values as
    argparse keeps them; None for one this command does not have or was not given."""
    declared_options = (s.option for model in SECTIONS for _, s in declared(model) if s.option)
    return {o: getattr(args, o[2:].replace("-", "_"), None) for o in declared_options}


def with_engine(
    core: CoreSettings, work: Callable[[Engine], Awaitable[T]], catalog: Catalog | None = None
) -> T:
    """``work`` done on an engine made for it (on ``catalog`` when the caller has loaded
    the banks already), in an event loop of its own."""

    async def composed() -> T:
        async with compose(core, catalog=catalog) as engine:
            return await work(engine)

    return asyncio.run(composed())


def terminal_locale(asked: str | None, core: CoreSettings) -> str:
    """``--lang``, else the POSIX locale, else QUIZBOT_DEFAULT_LANG: the order a chat
    platform uses (the player's choice, their client's language, the default)."""
    posix = os.environ.get("LC_ALL") or os.environ.get("LC_MESSAGES") or os.environ.get("LANG")
    return i18n.choose(asked, posix, default=core.default_lang)


def read_bank_file(
    read: Callable[[Path, Options], tuple[T | None, list[BankError]]], path: Path, options: Options
) -> tuple[T | None, list[BankError]]:
    """What ``read`` makes of a file of questions, its problems printed one a line; a
    format neither named nor in the extension stops the command (exit 2)."""
    try:
        found, problems = read(path, options)
    except UnknownFormat as exc:
        raise SetupError(str(exc), 2) from None
    for problem in problems:
        print(problem, file=sys.stderr)
    return found, problems


def add_db_option(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--db",
        type=database_location,
        help="SQLite file or postgresql:// URL (default: $QUIZBOT_DB or the user data dir)",
    )


def add_lang_option(command: argparse.ArgumentParser) -> None:
    command.add_argument("--lang", choices=i18n.LOCALES, help="language (default: from $LANG)")


def platform_id(text: str) -> tuple[str, str]:
    """``PLATFORM:ID``: a workspace's or a player's id on a platform."""
    platform, _, found = text.partition(":")
    if platform not in ("slack", "discord", "terminal") or not found:
        raise argparse.ArgumentTypeError(f"must be PLATFORM:ID, e.g. slack:T0123, not '{text}'")
    return platform, found


def workspace(text: str) -> ScopeRef:
    return ScopeRef(*platform_id(text))

"""The player's commands: ``quizbot play`` and ``review`` (questions on standard input
and output), ``stats`` and ``leaderboard``."""

from __future__ import annotations

import argparse
import getpass
import sys
import tempfile
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path

from bot.content.banks import Catalog
from bot.content.formats import FORMATS
from bot.content.formats.importer import Options, load_bank_file
from bot.domain.identities import PlayerRef
from bot.domain.periods import CALENDAR_PERIODS
from bot.operations.settings import CoreSettings
from bot.services.engine import Engine
from bot.services.topics import topic_list
from bot.ui import i18n
from bot.ui.views import TopicList

from .. import console
from ..app import load_banks
from ..phrases import render
from ..screen import Screen
from .options import (
    Commands,
    add_db_option,
    add_lang_option,
    read_bank_file,
    settings,
    terminal_locale,
    with_engine,
)

# What `quizbot play` takes for a file rather than a topic.
_FILE_SUFFIXES = (".yaml", ".yml", *(f.extension for f in FORMATS.values() if f.extension))


def _me(name: str | None) -> PlayerRef:
    """The player named, else the one logged in."""
    return console.terminal_player(name or getpass.getuser() or "player")


def _bank_file(topic: str, form: str | None) -> Path | None:
    path = Path(topic)
    return path if form or path.is_file() or path.suffix.lower() in _FILE_SUFFIXES else None


def _cmd_play(args: argparse.Namespace) -> int:
    core = settings(args).core
    locale = terminal_locale(args.lang, core)
    if args.topic is None:  # what there is to play, rather than a usage error
        Screen().say(render(topic_list(load_banks(core), locale)))
        return 0
    return play(
        core,
        args.topic,
        locale,
        player=args.player,
        questions=args.questions,
        new=args.new,
        file_options=Options(args.format, language=args.file_lang, allow_missing=True),
    )


def play(
    core: CoreSettings,
    topic: str,
    locale: str,
    *,
    player: str | None = None,
    questions: int | None = None,
    new: bool = False,
    file_options: Options | None = None,
    banks: Catalog | None = None,
) -> int:
    """A quiz in the terminal: a topic from the banks (``banks`` when the caller has
    loaded them already), or a bank file tried out."""
    me = _me(player)
    options = file_options or Options(None, allow_missing=True)
    scratch_bank = None
    path = _bank_file(topic, options.format)
    if path is not None:
        # Trying a file out: nothing of it reaches the player's real database.
        bank, _ = read_bank_file(load_bank_file, path, options)
        if bank is None:
            return 1
        topic, scratch_bank = bank.id, Catalog((bank,))

    async def work(engine: Engine) -> int:
        # The streams as they are now: console's defaults are those of its import, and a
        # caller running main in its own process (a test) may have replaced them since.
        return await console.play(
            engine,
            topic,
            me,
            locale,
            questions=questions,
            new=new,
            stdin=sys.stdin,
            stdout=sys.stdout,
        )

    if scratch_bank is None:
        return _asking(core, locale, work, banks)
    with tempfile.TemporaryDirectory(prefix="quizbot-play-") as scratch:
        return _asking(replace(core, db=Path(scratch) / "play.db"), locale, work, scratch_bank)


def _asking(
    core: CoreSettings,
    locale: str,
    work: Callable[[Engine], Awaitable[int]],
    banks: Catalog | None = None,
) -> int:
    """Questions asked in the terminal until ``work`` ends or Ctrl-C stops it."""
    try:
        return with_engine(core, work, banks)
    except KeyboardInterrupt:  # Ctrl-C: every answer given is already on disk
        console.Terminal(locale).stopped()
        return 130


def _cmd_review(args: argparse.Namespace) -> int:
    player = _me(args.player)
    core = settings(args).core
    locale = terminal_locale(args.lang, core)

    async def work(engine: Engine) -> int:
        return await console.review(engine, player, locale, stdin=sys.stdin, stdout=sys.stdout)

    return _asking(core, locale, work)


def _cmd_stats(args: argparse.Namespace) -> int:
    player = _me(args.player)
    core = settings(args).core

    async def work(engine: Engine) -> int:
        stats = await engine.stats(player, console.SCOPE, terminal_locale(args.lang, core))
        Screen().say(render(stats))
        return 0

    return with_engine(core, work)


def _cmd_leaderboard(args: argparse.Namespace) -> int:
    player = _me(None)
    core = settings(args).core

    async def work(engine: Engine) -> int:
        board = await engine.leaderboard(
            player, console.SCOPE, terminal_locale(args.lang, core), args.period, args.topic
        )
        Screen().say(render(board))
        return 2 if isinstance(board, TopicList) else 0  # an unknown --bank

    return with_engine(core, work)


def _positive(raw: str) -> int:
    try:
        value = int(raw)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number ≥ 1, not '{raw}'")
    return value


def add_play(commands: Commands) -> None:
    play = commands.add_parser("play", help="play a quiz in the terminal")
    play.add_argument(
        "topic",
        nargs="?",
        help="bank id, alias or title, e.g. offloading (none: list the topics); or a bank"
        " file (.yaml or an import format) to try without touching your database",
    )
    play.add_argument(
        "--format", choices=list(FORMATS), help="the file's format (else its extension)"
    )
    play.add_argument(
        "--file-lang",
        choices=i18n.LOCALES,
        default=i18n.DEFAULT_LOCALE,
        help="the language an import-format file is written in (default en)",
    )
    add_lang_option(play)
    play.add_argument("--player", help="your name on the leaderboard (default: login name)")
    play.add_argument(
        "--questions", type=_positive, metavar="N", help="play N questions drawn at random"
    )
    play.add_argument("--new", action="store_true", help="start over instead of continuing")
    add_db_option(play)
    play.set_defaults(func=_cmd_play)


def add_review_and_stats(commands: Commands) -> None:
    review = commands.add_parser("review", help="review the questions due for you in the terminal")
    stats = commands.add_parser("stats", help="your answers and review cards per topic")
    for command, func in ((review, _cmd_review), (stats, _cmd_stats)):
        add_lang_option(command)
        command.add_argument("--player", help="whose cards (default: login name)")
        add_db_option(command)
        command.set_defaults(func=func)


def add_leaderboard(commands: Commands) -> None:
    board = commands.add_parser("leaderboard", help="show the terminal leaderboard")
    # --topic as in insights; --bank, its first name, still works.
    board.add_argument(
        "--topic", "--bank", dest="topic", help="one topic: its id or alias (default: all)"
    )
    board.add_argument(
        "--period",
        choices=CALENDAR_PERIODS,
        default="all",
        help="this ISO week, this month, or all time (default all)",
    )
    add_lang_option(board)
    add_db_option(board)
    board.set_defaults(func=_cmd_leaderboard)

"""quizbot: quizzes for ML engineering teams, on Slack, Discord and in the terminal."""

from __future__ import annotations

import argparse
import asyncio
import getpass
import json
import logging
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import replace
from importlib.metadata import version
from pathlib import Path
from typing import TypeVar

from adapters.phrases import TEXT, render
from bot.content.banks import SHIPPED_BANKS, Catalog, load_catalog, reload_catalog
from bot.content.export import export
from bot.content.formats import FORMATS, UnknownFormat
from bot.content.formats.importer import Options, import_file, load_bank_file, write_atomically
from bot.content.lint import lint, load_rules, rate_table
from bot.domain.identities import ScopeRef
from bot.operations import logs
from bot.operations.leadership import leadership_for
from bot.operations.process import tune_gc
from bot.operations.settings import CoreSettings, InvalidSettings, declared, is_postgres
from bot.operations.settings import database as database_location
from bot.persistence import StoreError, integrity_problems
from bot.persistence.transfer import TABLES, copy_database
from bot.services.engine import PERIODS, Engine, topic_list
from bot.ui import i18n
from bot.ui.views import TopicList

from . import console
from .app import compose, load_banks
from .discord import Discord
from .discord.settings import shard_range
from .errors import SetupError
from .insights_cli import TABLES as INSIGHT_TABLES
from .insights_cli import insights
from .ops import ops_app, serve
from .screen import Screen
from .settings import PLATFORMS, SECTIONS, Settings, load
from .web.server import dashboard_app

log = logging.getLogger("quizbot")
WORKER = "QUIZBOT_WORKER"  # set in each worker process: its number, from 1
SETUP_FAILED = 2  # the exit code of a setup problem (a bad token, the port taken)
RESTART_PAUSE = 1.0  # seconds: a worker that keeps dying is restarted at most this often
T = TypeVar("T")
NO_PLATFORM = (
    "no chat platform is configured: set SLACK_BOT_TOKEN (with SLACK_APP_TOKEN, or"
    " SLACK_SIGNING_SECRET for --http) for Slack, or DISCORD_TOKEN for Discord"
    " (see deploy/.env.example)"
)


def _settings(
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


async def _engine_work(
    core: CoreSettings, work: Callable[[Engine], Awaitable[T]], catalog: Catalog | None = None
) -> T:
    async with compose(core, catalog=catalog) as engine:
        return await work(engine)


def _shard_range(text: str) -> tuple[int, int]:
    try:
        return shard_range(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _terminal_locale(asked: str | None, core: CoreSettings) -> str:
    """``--lang``, else the POSIX locale, else QUIZBOT_DEFAULT_LANG: the order a chat
    platform uses (the player's choice, their client's language, the default)."""
    posix = os.environ.get("LC_ALL") or os.environ.get("LC_MESSAGES") or os.environ.get("LANG")
    return i18n.choose(asked, posix, default=core.default_lang)


# What `quizbot play` takes for a file rather than a topic.
_FILE_SUFFIXES = (".yaml", ".yml", *(f.extension for f in FORMATS.values() if f.extension))


def _bank_file(topic: str, form: str | None) -> Path | None:
    path = Path(topic)
    return path if form or path.is_file() or path.suffix.lower() in _FILE_SUFFIXES else None


def _cmd_play(args: argparse.Namespace) -> int:
    core = _settings(args).core
    locale = _terminal_locale(args.lang, core)
    if args.topic is None:  # what there is to play, rather than a usage error
        Screen().say(render(topic_list(load_banks(core), locale)))
        return 0
    return _play(
        core,
        args.topic,
        locale,
        player=args.player,
        questions=args.questions,
        new=args.new,
        file_options=Options(args.format, language=args.file_lang, allow_missing=True),
    )


def _play(
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
    me = console.terminal_player(player or getpass.getuser() or "player")
    options = file_options or Options(None, allow_missing=True)
    scratch_bank = None
    path = _bank_file(topic, options.format)
    if path is not None:
        # Trying a file out: nothing of it reaches the player's real database.
        try:
            bank, problems = load_bank_file(path, options)
        except UnknownFormat as exc:
            print(f"quizbot: {exc}", file=sys.stderr)
            return 2
        for problem in problems:
            print(problem, file=sys.stderr)
        if bank is None:
            return 1
        topic, scratch_bank = bank.id, Catalog((bank,))

    async def work(engine: Engine) -> int:
        return await console.play(engine, topic, me, locale, questions=questions, new=new)

    try:
        if scratch_bank is None:
            return asyncio.run(_engine_work(core, work, banks))
        with tempfile.TemporaryDirectory(prefix="quizbot-play-") as scratch:
            return asyncio.run(
                _engine_work(replace(core, db=Path(scratch) / "play.db"), work, scratch_bank)
            )
    except KeyboardInterrupt:  # Ctrl-C: every answer given is already on disk
        console.Terminal(locale).stopped()
        return 130


def _workers_refusal(names: Sequence[str], core: CoreSettings) -> str | None:
    if tuple(names) != ("slack",):
        return "--workers runs Slack's HTTP mode only: quizbot run slack --http --workers N"
    if not is_postgres(core.db):
        return (
            "--workers needs PostgreSQL (QUIZBOT_DB=postgresql://…): a SQLite file is"
            " written by one process"
        )
    return None


def _run_workers(count: int) -> int:
    """The same command in ``count`` processes sharing the port (each binds it with
    SO_REUSEPORT); one of them runs the scheduler (a PostgreSQL lock elects it). A worker
    that dies is started again, but a setup problem (exit 2: a bad token, the port taken)
    stops them all. SIGTERM and Ctrl-C reach every worker."""
    command = [sys.executable, "-m", "adapters.cli", *sys.argv[1:]]
    stopping = False

    def spawn(number: int) -> tuple[subprocess.Popen[bytes], float]:
        child = subprocess.Popen(command, env={**os.environ, WORKER: str(number)})
        return child, time.monotonic()

    workers = {number: spawn(number) for number in range(1, count + 1)}

    def stop(signum: int, _: object) -> None:
        nonlocal stopping
        stopping = True
        for child, _started in workers.values():
            if child.returncode is None:  # not reaped yet (only os.wait below reaps)
                child.send_signal(signum)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    code = 0
    while any(child.returncode is None for child, _ in workers.values()):
        pid, status = os.wait()
        number = next((n for n, (c, _) in workers.items() if c.pid == pid), None)
        if number is None:
            continue
        child, started = workers[number]
        child.returncode = os.waitstatus_to_exitcode(status)
        if stopping:
            continue
        if child.returncode == SETUP_FAILED:  # one line said why: starting again won't help
            code = SETUP_FAILED
            stop(signal.SIGTERM, None)
            continue
        log.warning("worker %d ended (exit %d): starting it again", number, child.returncode)
        time.sleep(max(0.0, RESTART_PAUSE - (time.monotonic() - started)))
        workers[number] = spawn(number)
    return code


def _cmd_run(args: argparse.Namespace) -> int:
    if args.platform == "terminal":
        return _run_terminal(args)
    every = args.platform in ("all", "auto")
    settings = _settings(args, None if every else (args.platform,), exit_code=2)
    names = settings.configured() if every else (args.platform,)
    if not names:
        if args.platform == "auto" and sys.stdin.isatty():
            return _run_terminal(args)
        # A container or a service with its tokens forgotten: say so and fail, rather
        # than quiz an empty standard input and "succeed" in a restart loop.
        terminal = ", and standard input is not a terminal" if args.platform == "auto" else ""
        print(f"quizbot: {NO_PLATFORM}{terminal}", file=sys.stderr)
        return 2
    core = settings.core
    logs.configure(core.log_level, core.log_format)
    workers = settings.slack.workers
    if workers > 1:
        refusal = _workers_refusal(names, core)
        if refusal:
            print(f"quizbot: {refusal}", file=sys.stderr)
            return 2
        if WORKER not in os.environ:
            return _run_workers(workers)

    async def work(engine: Engine) -> None:
        main = asyncio.current_task()
        assert main is not None
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGTERM, main.cancel)
        loop.add_signal_handler(signal.SIGHUP, _reload_banks, engine, core)
        services = [engine.scheduler.serve(leadership=leadership_for(core.db))]
        services += [settings.platform(name).serve(engine) for name in names]
        # Each worker its own ports: a scrape must see one process's counters, not a mix.
        number = int(os.environ.get(WORKER, "1"))
        signer = engine.insights.signer
        if core.metrics_port:
            on_metrics = signer if core.web_port is None else None
            app = ops_app(engine, on_metrics)
            services.append(serve(app, core.metrics_port + number - 1, "health and metrics"))
        if core.web_port and signer:
            app = dashboard_app(engine, signer)
            services.append(serve(app, core.web_port + number - 1, "the dashboard"))
        try:
            # A task group: when one service fails, the others stop before the store
            # closes, instead of running on against a closed database.
            async with asyncio.TaskGroup() as group:
                for service in services:
                    group.create_task(service)
        except ExceptionGroup as failed:
            raise failed.exceptions[0] from None

    tune_gc()
    try:
        asyncio.run(_engine_work(core, work))
    except asyncio.CancelledError:  # SIGTERM: the store was closed on the way out
        log.info("stopped")
    return 0


def _reload_banks(engine: Engine, core: CoreSettings) -> None:
    """SIGHUP: load the banks again; a broken file keeps its last good version."""
    catalog = reload_catalog(engine.catalog, [SHIPPED_BANKS, *core.banks])
    for error in catalog.errors:
        log.warning("bank not reloaded: %s", error)
    engine.replace_catalog(catalog)
    log.info("banks reloaded: %s", ", ".join(b.id for b in catalog.banks))


def _run_terminal(args: argparse.Namespace) -> int:
    core = _settings(args).core
    locale = _terminal_locale(None, core)
    out = console.Terminal(locale)
    out.say(TEXT.t(locale, "no_platform") + "\n")
    topic, banks = args.topic, load_banks(core)
    if not topic:
        topics = topic_list(banks, locale)
        out.say(render(topics))
        topic = first = topics.topics[0].id
        if sys.stdin.isatty():
            try:
                topic = input("\n" + TEXT.t(locale, "topic_prompt", default=first)).strip()
            except EOFError:  # Ctrl-D: like q
                topic = "q"
            if topic.lower() in console.STOP_WORDS:
                out.stopped()
                return 0
            topic = topic or first
    return _play(core, topic, locale, banks=banks)


def _cmd_discord_sync(args: argparse.Namespace) -> int:
    settings = _settings(args, ("discord",), exit_code=2)  # the same settings as `run`
    return asyncio.run(Discord(settings.discord).sync(settings.core))


def _cmd_banks_list(args: argparse.Namespace) -> int:
    catalog = load_banks(_settings(args).core)
    screen = Screen()
    for bank in catalog.banks:
        aliases = f" (also: {', '.join(bank.aliases)})" if bank.aliases else ""
        title = bank.text(bank.title, "en")
        screen.say(f"{bank.id}{aliases}: {title} — {len(bank.questions)} questions")
    return 0


def _cmd_db_check(args: argparse.Namespace) -> int:
    location = _settings(args).core.db
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


def _cmd_db_migrate(args: argparse.Namespace) -> int:
    """Copy a database (``--from``, else the configured one) into an empty one (``--to``):
    SQLite into PostgreSQL or back; the bot should be stopped meanwhile."""
    source = str(database_location(args.source) if args.source else _settings(args).core.db)
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


def _cmd_db_backup(args: argparse.Namespace) -> int:
    if is_postgres(_settings(args).core.db):
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

    return asyncio.run(_engine_work(_settings(args).core, work))


def _cmd_db_forget(args: argparse.Namespace) -> int:
    """Delete a player's data (in one workspace or all of theirs), or a whole workspace's."""
    if args.player is None and args.workspace is None:
        raise SetupError("quizbot db forget needs --player PLATFORM:ID, --workspace, or both", 2)
    if args.player and args.workspace and args.player[0] != args.workspace.platform:
        raise SetupError("--player and --workspace name different platforms", 2)

    async def work(engine: Engine) -> int:
        forget = engine.store.forget
        if args.player is None:
            scope = args.workspace
            done = {scope.workspace_id: await forget.workspace(scope.platform, scope.workspace_id)}
            who = f"workspace {scope.platform}:{scope.workspace_id}"
        else:
            platform, player_id = args.player
            where = args.workspace.workspace_id if args.workspace else None
            done = await forget.player(platform, player_id, where)
            who = f"{platform}:{player_id}"
        if not any(forgotten.total for forgotten in done.values()):
            print(f"nothing stored for {who}")
        for workspace, forgotten in done.items():
            tables = ", ".join(
                f"{table} {count}" for table, count in sorted(forgotten.rows.items())
            )
            print(f"forgot {who} in {workspace}: {forgotten.total} rows ({tables})")
        return 0

    return asyncio.run(_engine_work(_settings(args).core, work))


def _cmd_banks_check(args: argparse.Namespace) -> int:
    paths = [Path(p) for p in args.paths] or [SHIPPED_BANKS, *_settings(args).core.banks]
    missing = [p for p in paths if not p.exists()]
    catalog = load_catalog(p for p in paths if p.exists())
    for path in missing:
        print(f"{path}: no such file or directory", file=sys.stderr)
    for error in catalog.errors:
        print(error, file=sys.stderr)
    questions = sum(len(b.questions) for b in catalog.banks)
    print(
        f"{len(catalog.banks)} bank(s) valid, {questions} questions; {len(catalog.errors)} error(s)"
    )
    return 1 if catalog.errors or missing else 0


def _cmd_banks_lint(args: argparse.Namespace) -> int:
    paths = [Path(p) for p in args.paths] or [SHIPPED_BANKS, *_settings(args).core.banks]
    catalog = load_catalog(paths)
    for error in catalog.errors:
        print(error, file=sys.stderr)
    if catalog.errors:
        print("fix what 'quizbot banks check' reports first", file=sys.stderr)
        return 1
    rules = load_rules(SHIPPED_BANKS / "lint")
    report = lint(catalog.banks, rules)
    for finding in report.findings:
        print(finding)
    print("\n".join(["", *rate_table(report, rules.seed_banks)]))
    if report.notes:
        print("\nSeed banks (their choices are the seeds' own; reported apart, not failing):")
        for note in report.notes:
            print(f"  {note}")
    questions = sum(len(b.questions) for b in catalog.banks)
    print(
        f"\n{len(catalog.banks)} bank(s), {questions} questions; {len(report.findings)} finding(s)"
    )
    return 1 if report.findings else 0


def _cmd_banks_export(args: argparse.Namespace) -> int:
    catalog = load_banks(_settings(args).core)
    banks = list(catalog.banks)
    if args.ids:
        found = [catalog.find(i) for i in args.ids]
        unknown = [i for i, b in zip(args.ids, found, strict=True) if b is None]
        if unknown:
            print(f"unknown bank(s): {', '.join(unknown)}", file=sys.stderr)
            return 2
        banks = [b for b in found if b]
    if args.format == "json":
        json.dump(export(banks), sys.stdout, ensure_ascii=False, indent=2)
        print()
        return 0
    if len(banks) != 1:
        print(
            f"--format {args.format} writes one bank: name it"
            f" (quizbot banks export --format {args.format} ID)",
            file=sys.stderr,
        )
        return 2
    [bank] = banks
    language = args.lang or bank.locales[0]
    if language not in bank.locales:
        print(
            f"bank {bank.id} has no text in {language} (its languages: {', '.join(bank.locales)})",
            file=sys.stderr,
        )
        return 2
    sys.stdout.write(FORMATS[args.format].write(bank, language))
    return 0


def _cmd_banks_import(args: argparse.Namespace) -> int:
    options = Options(args.format, args.id, args.title, args.lang, args.allow_missing)
    try:
        imported, problems = import_file(Path(args.file), options)
    except UnknownFormat as exc:
        print(f"quizbot: {exc}", file=sys.stderr)
        return 2
    for problem in problems:
        print(problem, file=sys.stderr)
    if imported is None:
        print(f"{len(problems)} problem(s): nothing written", file=sys.stderr)
        return 1
    if args.output is None:
        sys.stdout.write(imported.text)
        return 0
    write_atomically(Path(args.output), imported.text)
    bank = imported.bank
    print(f"{args.output}: bank {bank.id}, {len(bank.questions)} question(s) in {bank.locales[0]}")
    return 0


def _cmd_review(args: argparse.Namespace) -> int:
    player = console.terminal_player(args.player or getpass.getuser() or "player")
    core = _settings(args).core
    locale = _terminal_locale(args.lang, core)

    async def work(engine: Engine) -> int:
        return await console.review(engine, player, locale)

    try:
        return asyncio.run(_engine_work(core, work))
    except KeyboardInterrupt:  # Ctrl-C: every answer given is already on disk
        console.Terminal(locale).stopped()
        return 130


def _platform_id(text: str) -> tuple[str, str]:
    """``PLATFORM:ID``: a workspace's or a player's id on a platform."""
    platform, _, found = text.partition(":")
    if platform not in ("slack", "discord", "terminal") or not found:
        raise argparse.ArgumentTypeError(f"must be PLATFORM:ID, e.g. slack:T0123, not '{text}'")
    return platform, found


def _workspace(text: str) -> ScopeRef:
    return ScopeRef(*_platform_id(text))


def _cmd_insights(args: argparse.Namespace) -> int:
    core = _settings(args).core

    async def work(engine: Engine) -> int:
        report = await insights(
            engine,
            args.workspace or [],
            period=args.period,
            topic=args.topic,
            form=args.format,
            table=args.table,
            locale=_terminal_locale(args.lang, core),
        )
        if args.format == "text":
            Screen().say(report)
        else:  # data for another program: exactly as made, never wrapped
            sys.stdout.write(report if args.format == "csv" else report + "\n")
        return 0

    return asyncio.run(_engine_work(core, work))


def _cmd_stats(args: argparse.Namespace) -> int:
    player = console.terminal_player(args.player or getpass.getuser() or "player")
    core = _settings(args).core

    async def work(engine: Engine) -> int:
        stats = await engine.stats(player, console.SCOPE, _terminal_locale(args.lang, core))
        Screen().say(render(stats))
        return 0

    return asyncio.run(_engine_work(core, work))


def _cmd_leaderboard(args: argparse.Namespace) -> int:
    player = console.terminal_player(getpass.getuser() or "player")
    core = _settings(args).core

    async def work(engine: Engine) -> int:
        board = await engine.leaderboard(
            player, console.SCOPE, _terminal_locale(args.lang, core), args.period, args.topic
        )
        Screen().say(render(board))
        return 2 if isinstance(board, TopicList) else 0  # an unknown --bank

    return asyncio.run(_engine_work(core, work))


def _positive(raw: str) -> int:
    try:
        value = int(raw)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number ≥ 1, not '{raw}'")
    return value


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="quizbot", description=__doc__)
    top.add_argument("--version", action="version", version=f"quizbot {version('quizbot')}")
    sub = top.add_subparsers(dest="command", required=True)

    def db_option(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--db",
            type=database_location,
            help="SQLite file or postgresql:// URL (default: $QUIZBOT_DB or the user data dir)",
        )

    formats = list(FORMATS)
    play = sub.add_parser("play", help="play a quiz in the terminal")
    play.add_argument(
        "topic",
        nargs="?",
        help="bank id, alias or title, e.g. offloading (none: list the topics); or a bank"
        " file (.yaml or an import format) to try without touching your database",
    )
    play.add_argument("--format", choices=formats, help="the file's format (else its extension)")
    play.add_argument(
        "--file-lang",
        choices=i18n.LOCALES,
        default=i18n.DEFAULT_LOCALE,
        help="the language an import-format file is written in (default en)",
    )
    play.add_argument("--lang", choices=i18n.LOCALES, help="language (default: from $LANG)")
    play.add_argument("--player", help="your name on the leaderboard (default: login name)")
    play.add_argument(
        "--questions", type=_positive, metavar="N", help="play N questions drawn at random"
    )
    play.add_argument("--new", action="store_true", help="start over instead of continuing")
    db_option(play)
    play.set_defaults(func=_cmd_play)

    review = sub.add_parser("review", help="review the questions due for you in the terminal")
    stats = sub.add_parser("stats", help="your answers and review cards per topic")
    for command, func in ((review, _cmd_review), (stats, _cmd_stats)):
        command.add_argument("--lang", choices=i18n.LOCALES, help="language (default: from $LANG)")
        command.add_argument("--player", help="whose cards (default: login name)")
        db_option(command)
        command.set_defaults(func=func)

    report = sub.add_parser("insights", help="what each team knows: per topic and question")
    report.add_argument(
        "--workspace",
        type=_workspace,
        action="append",
        metavar="PLATFORM:ID",
        help="one workspace, e.g. slack:T0123 (repeatable; default: every one with answers)",
    )
    report.add_argument(
        "--period",
        choices=("week", "month", "all"),
        default="all",
        help="the last 7 or 30 days, or all time (default all)",
    )
    report.add_argument("--topic", help="one topic: its id or alias, e.g. offloading")
    report.add_argument(
        "--format",
        choices=("text", "csv", "json"),
        default="text",
        help="text to read (default), one table as CSV (--table), or every number as JSON",
    )
    report.add_argument(
        "--table", choices=INSIGHT_TABLES, default="topics", help="which table --format csv prints"
    )
    report.add_argument("--lang", choices=i18n.LOCALES, help="language (default: from $LANG)")
    db_option(report)
    report.set_defaults(func=_cmd_insights)

    run = sub.add_parser("run", help="run the bot (terminal play when no platform is set up)")
    run.add_argument(
        "platform",
        nargs="?",
        default="auto",
        choices=("auto", "terminal", "all", *PLATFORMS),
        help="where to run (default: every platform whose tokens are set, else the terminal)",
    )
    run.add_argument("--topic", help="topic for terminal play")
    run.add_argument("--http", action="store_true", help="Slack: serve HTTP instead of Socket Mode")
    run.add_argument("--port", type=int, default=3000, help="Slack HTTP port (default 3000)")
    run.add_argument(
        "--metrics-port", type=int, help="serve /healthz and /metrics on this port (default off)"
    )
    run.add_argument(
        "--workers",
        type=int,
        metavar="N",
        help="Slack HTTP: N processes sharing --port (needs PostgreSQL)",
    )
    run.add_argument(
        "--shards",
        type=_shard_range,
        metavar="A-B",
        help="Discord: run shards A to B of --shard-count (several processes split the shards)",
    )
    run.add_argument("--shard-count", type=int, metavar="N", help="Discord: shards in all")
    db_option(run)
    run.set_defaults(func=_cmd_run)

    banks = sub.add_parser("banks", help="list, check, import or export question banks")
    banks_sub = banks.add_subparsers(dest="banks_command", required=True)
    banks_sub.add_parser("list", help="list the loaded banks").set_defaults(func=_cmd_banks_list)
    check = banks_sub.add_parser("check", help="validate bank files (default: all banks)")
    check.add_argument("paths", nargs="*", help="bank files or directories")
    check.set_defaults(func=_cmd_banks_check)
    lint_cmd = banks_sub.add_parser(
        "lint", help="check question quality: cues, leaks, languages, glossary, sources"
    )
    lint_cmd.add_argument("paths", nargs="*", help="bank files or directories")
    lint_cmd.set_defaults(func=_cmd_banks_lint)
    exp = banks_sub.add_parser("export", help="print banks as JSON or in an import format")
    exp.add_argument("--format", choices=["json", *formats], default="json")
    exp.add_argument(
        "--lang", choices=i18n.LOCALES, help="other formats: the language (default: the first)"
    )
    exp.add_argument("ids", nargs="*", help="bank ids (default: all; one for other formats)")
    exp.set_defaults(func=_cmd_banks_export)
    imp = banks_sub.add_parser("import", help="convert a GIFT, Aiken, XML, JSON or CSV file")
    imp.add_argument("file", help="the file (.gift, .xml, .json, .csv; Aiken: --format aiken)")
    imp.add_argument("--format", choices=formats, help="default: from the file's extension")
    imp.add_argument("--id", help="the bank's id (default: from the file's name)")
    imp.add_argument("--title", help="the bank's title (default: the file's category or name)")
    imp.add_argument(
        "--lang",
        choices=i18n.LOCALES,
        default=i18n.DEFAULT_LOCALE,
        help="the file's language (default en)",
    )
    imp.add_argument(
        "--allow-missing",
        action="store_true",
        help="mark explanations and references the file lacks as missing instead of failing",
    )
    imp.add_argument("-o", "--output", help="the bank file to write (default: standard output)")
    imp.set_defaults(func=_cmd_banks_import)

    database = sub.add_parser("db", help="check, back up or move the database")
    database_sub = database.add_subparsers(dest="db_command", required=True)
    check_db = database_sub.add_parser(
        "check", help="check the database: SQLite's integrity check, or PostgreSQL's tables"
    )
    db_option(check_db)
    check_db.set_defaults(func=_cmd_db_check)
    moving = database_sub.add_parser(
        "migrate", help="copy the database into an empty one: SQLite to PostgreSQL, or back"
    )
    moving.add_argument(
        "--from", dest="source", metavar="PATH_OR_URL", help="default: --db or QUIZBOT_DB"
    )
    moving.add_argument(
        "--to", required=True, metavar="PATH_OR_URL", help="postgresql://user@host/db or a file"
    )
    db_option(moving)
    moving.set_defaults(func=_cmd_db_migrate)
    forget = database_sub.add_parser(
        "forget", help="delete a player's data, or a workspace's, now (while the bot runs)"
    )
    forget.add_argument(
        "--player",
        type=_platform_id,
        metavar="PLATFORM:ID",
        help="the player, e.g. slack:U0123 (every workspace of theirs unless --workspace)",
    )
    forget.add_argument(
        "--workspace", type=_workspace, metavar="PLATFORM:ID", help="e.g. slack:T0123"
    )
    db_option(forget)
    forget.set_defaults(func=_cmd_db_forget)
    backup = database_sub.add_parser("backup", help="copy the database while the bot runs")
    backup.add_argument("target", help="the new backup file")
    db_option(backup)
    backup.set_defaults(func=_cmd_db_backup)

    discord = sub.add_parser("discord", help="Discord maintenance")
    discord_sub = discord.add_subparsers(dest="discord_command", required=True)
    sync = discord_sub.add_parser("sync", help="push the slash commands to Discord now")
    sync.set_defaults(func=_cmd_discord_sync)

    board = sub.add_parser("leaderboard", help="show the terminal leaderboard")
    # --topic as in insights; --bank, its first name, still works.
    board.add_argument(
        "--topic", "--bank", dest="topic", help="one topic: its id or alias (default: all)"
    )
    board.add_argument(
        "--period",
        choices=PERIODS,
        default="all",
        help="this ISO week, this month, or all time (default all)",
    )
    board.add_argument("--lang", choices=i18n.LOCALES, help="language (default: from $LANG)")
    db_option(board)
    board.set_defaults(func=_cmd_leaderboard)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    logs.configure("WARNING")
    args = parser().parse_args(argv)
    try:
        return args.func(args)
    except SetupError as exc:
        for line in str(exc).splitlines():
            print(f"quizbot: {line}", file=sys.stderr)
        return exc.exit_code
    except StoreError as exc:
        print(f"quizbot: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`quizbot banks export | head`): end quietly, and keep the
        # interpreter's final flush from raising again on the closed pipe.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # 128 + SIGPIPE, as a shell reports a tool the pipe closed on


if __name__ == "__main__":
    sys.exit(main())

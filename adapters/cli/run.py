"""``quizbot run``: the bot on every platform set up (its scheduler, the health and
metrics port, the dashboard), or a quiz in the terminal when none is."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys
from collections.abc import Coroutine, Sequence
from typing import Any

from bot.content.banks import SHIPPED_BANKS, reload_catalog
from bot.operations import logs
from bot.operations.leadership import leadership_for
from bot.operations.process import tune_gc
from bot.operations.settings import CoreSettings
from bot.operations.watchdog import LoopWatchdog
from bot.services.engine import Engine
from bot.services.topics import topic_list

from .. import console
from ..app import load_banks
from ..discord.settings import shard_range
from ..ops import ops_app, serve
from ..phrases import TEXT, render
from ..settings import PLATFORMS, Settings
from ..web.server import dashboard_app
from .options import Commands, add_db_option, settings, terminal_locale, with_engine
from .player import play
from .workers import WORKER, refusal, run_workers

log = logging.getLogger("quizbot")
NO_PLATFORM = (
    "no chat platform is configured: set SLACK_BOT_TOKEN (with SLACK_APP_TOKEN, or"
    " SLACK_SIGNING_SECRET for --http) for Slack, or DISCORD_TOKEN for Discord"
    " (see deploy/.env.example)"
)


def _cmd_run(args: argparse.Namespace) -> int:
    if args.platform == "terminal":
        return _run_terminal(args)
    every = args.platform in ("all", "auto")
    chosen = settings(args, None if every else (args.platform,), exit_code=2)
    names = chosen.configured() if every else (args.platform,)
    if not names:
        if args.platform == "auto" and sys.stdin.isatty():
            return _run_terminal(args)
        # A container or a service with its tokens forgotten: say so and fail, rather
        # than quiz an empty standard input and "succeed" in a restart loop.
        terminal = ", and standard input is not a terminal" if args.platform == "auto" else ""
        print(f"quizbot: {NO_PLATFORM}{terminal}", file=sys.stderr)
        return 2
    core = chosen.core
    logs.configure(core.log_level, core.log_format)
    workers = chosen.slack.workers
    if workers > 1:
        refused = refusal(names, core)
        if refused:
            print(f"quizbot: {refused}", file=sys.stderr)
            return 2
        if WORKER not in os.environ:
            return run_workers(workers)
    tune_gc()
    try:
        with_engine(core, lambda engine: _serve(engine, chosen, names))
    except asyncio.CancelledError:  # SIGTERM: the store was closed on the way out
        log.info("stopped")
    return 0


async def _serve(engine: Engine, chosen: Settings, names: Sequence[str]) -> None:
    """Every service until SIGTERM; SIGHUP loads the banks again."""
    main = asyncio.current_task()
    assert main is not None
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, main.cancel)
    loop.add_signal_handler(signal.SIGHUP, _reload_banks, engine, chosen.core)
    services = _services(engine, chosen, names)
    try:
        # A task group: when one service fails, the others stop before the store
        # closes, instead of running on against a closed database.
        async with asyncio.TaskGroup() as group:
            for service in services:
                group.create_task(service)
    except ExceptionGroup as failed:
        raise failed.exceptions[0] from None


def _services(
    engine: Engine, chosen: Settings, names: Sequence[str]
) -> list[Coroutine[Any, Any, None]]:
    """The scheduler, each platform, and the ports this worker serves."""
    core = chosen.core
    services = [engine.scheduler.serve(leadership=leadership_for(core.db))]
    services += [chosen.platform(name).serve(engine) for name in names]
    services.append(LoopWatchdog().serve())  # a held loop delays every chat: say so
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
    return services


def _reload_banks(engine: Engine, core: CoreSettings) -> None:
    """SIGHUP: load the banks again; a broken file keeps its last good version."""
    catalog = reload_catalog(engine.catalog, [SHIPPED_BANKS, *core.banks])
    for error in catalog.errors:
        log.warning("bank not reloaded: %s", error)
    engine.replace_catalog(catalog)
    log.info("banks reloaded: %s", ", ".join(b.id for b in catalog.banks))


def _run_terminal(args: argparse.Namespace) -> int:
    core = settings(args).core
    locale = terminal_locale(None, core)
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
    return play(core, topic, locale, banks=banks)


def _shard_range(text: str) -> tuple[int, int]:
    try:
        return shard_range(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_parser(commands: Commands) -> None:
    run = commands.add_parser("run", help="run the bot (terminal play when no platform is set up)")
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
    add_db_option(run)
    run.set_defaults(func=_cmd_run)

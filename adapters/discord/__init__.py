"""The Discord adapter: ``quizbot run discord`` and ``quizbot discord sync``.

Settings (environment): DISCORD_TOKEN; DISCORD_GUILD_ID (optional: commands go to that
one server, instantly); DISCORD_API_BASE_URL and DISCORD_GATEWAY_URL (optional: where
Discord's REST API and gateway are, e.g. a rate-limit proxy); QUIZBOT_ADMIN_ROLE
(optional: members with a role of that name may run the channel's daily question and
competitions, besides those with the Manage Server permission); QUIZBOT_DB.

Inside this package, ``import discord`` is the discord.py library (absolute imports).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Mapping

import discord

from bot.content.banks import SHIPPED_BANKS, load_catalog
from bot.operations.config import Config, load_config
from bot.persistence import Store, StoreError
from bot.play.engine import Engine

from .client import QuizClient, use_endpoints
from .settings import PORTAL, Settings, SettingsError
from .settings import settings_problems as _problems

__all__ = ["SettingsError", "configured", "serve", "settings_problems", "sync_command"]

REJECTED = (
    f"Discord rejected DISCORD_TOKEN (401 Unauthorized): copy the bot token again from {PORTAL} "
    "→ your app → Bot → Reset Token"
)


def configured(environ: Mapping[str, str]) -> bool:
    return bool(environ.get("DISCORD_TOKEN", "").strip())


def settings_problems(
    environ: Mapping[str, str], args: argparse.Namespace | None = None
) -> list[str]:
    return _problems(environ)


async def serve(engine: Engine, args: argparse.Namespace | None = None) -> None:
    """Run the bot on the running loop until cancelled. Raises SettingsError (one line
    for the user) when the settings are missing or Discord rejects the token."""
    settings = Settings.from_environ(os.environ)
    use_endpoints(settings)
    client = QuizClient(engine, settings)
    try:
        await client.start(settings.token)
    except discord.LoginFailure:
        raise SettingsError(REJECTED) from None
    finally:
        await client.close()


def sync_command(args: argparse.Namespace) -> int:
    """``quizbot discord sync``: upload the slash commands now, changed or not."""
    config, setting_problems = load_config()  # the same settings as `quizbot run`
    problems = [*setting_problems, *settings_problems(os.environ, args)]
    for line in problems:
        print(f"quizbot: {line}", file=sys.stderr)
    if problems:
        return 2
    try:
        settings = Settings.from_environ(os.environ)
        return asyncio.run(_sync(settings, config, getattr(args, "db", None)))
    except (SettingsError, StoreError) as exc:
        print(f"quizbot: {exc}", file=sys.stderr)
        return 1


async def _sync(settings: Settings, config: Config, db: str | None) -> int:
    use_endpoints(settings)
    store = await Store.open(db or config.db)
    catalog = load_catalog([SHIPPED_BANKS, *config.banks])
    client = QuizClient(Engine(catalog, store), settings, auto_sync=False)
    try:
        await client.login(settings.token)
        result = await client.sync_commands(force=True)
    except discord.LoginFailure:
        raise SettingsError(REJECTED) from None
    except discord.HTTPException as exc:
        print(f"quizbot: Discord refused the commands: {exc}", file=sys.stderr)
        return 1
    finally:
        await client.close()
        await store.close()
    where = f"server {result.guild_id}" if result.guild_id else "all servers"
    print(f"Synced {result.commands} slash commands to {where}.")
    return 0

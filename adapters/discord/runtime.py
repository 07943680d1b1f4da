"""Running on Discord: ``quizbot run discord`` and ``quizbot discord sync``."""

from __future__ import annotations

import sys

import discord

from bot.operations.settings import CoreSettings
from bot.services.engine import Engine

from ..app import compose
from .client import QuizClient, client_class, use_endpoints
from .settings import PORTAL, DiscordSettings, SettingsError

REJECTED = (
    f"Discord rejected DISCORD_TOKEN (401 Unauthorized): copy the bot token again from {PORTAL} "
    "→ your app → Bot → Reset Token"
)


async def serve(engine: Engine, settings: DiscordSettings) -> None:
    """Run the bot on the running loop until cancelled. Raises SettingsError (one line
    for the user) when Discord rejects the token."""
    use_endpoints(settings)
    client = client_class(settings)(engine, settings)
    try:
        await client.start(settings.token)
    except discord.LoginFailure:
        raise SettingsError(REJECTED) from None
    finally:
        await client.close()


async def sync(core: CoreSettings, settings: DiscordSettings) -> int:
    """``quizbot discord sync``: upload the slash commands now, changed or not, with the
    same settings as ``quizbot run`` (its database and bank directories)."""
    use_endpoints(settings)
    async with compose(core, report=False) as engine:
        client = QuizClient(engine, settings, auto_sync=False)
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
    where = f"server {result.guild_id}" if result.guild_id else "all servers"
    print(f"Synced {result.commands} slash commands to {where}.")
    return 0

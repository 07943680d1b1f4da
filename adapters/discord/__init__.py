"""The Discord adapter: ``quizbot run discord`` and ``quizbot discord sync`` call
``runtime.serve`` and ``runtime.sync`` with the Discord section of the settings
(``settings.DiscordSettings``): DISCORD_TOKEN; DISCORD_GUILD_ID (optional: commands go to
that one server, instantly); DISCORD_API_BASE_URL and DISCORD_GATEWAY_URL (optional:
where Discord's REST API and gateway are, e.g. a rate-limit proxy); QUIZBOT_ADMIN_ROLE
(optional: members with a role of that name may run the channel's daily question and
competitions, besides those with the Manage Server permission). Only ``runtime`` and
the modules it imports load discord.py, so reading the settings does not.

Inside this package, ``import discord`` is the discord.py library (absolute imports).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.operations.settings import CoreSettings
from bot.services.engine import Engine

from .settings import DiscordSettings


@dataclass(frozen=True)
class Discord:
    """The Discord platform (see adapters.platform.Platform), with its maintenance
    command ``quizbot discord sync``."""

    settings: DiscordSettings
    name: str = "discord"

    @property
    def configured(self) -> bool:
        return self.settings.configured

    async def serve(self, engine: Engine) -> None:
        from . import runtime  # discord.py is loaded only to run on Discord

        await runtime.serve(engine, self.settings)

    async def sync(self, core: CoreSettings) -> int:
        from . import runtime

        return await runtime.sync(core, self.settings)

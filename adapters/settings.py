"""All of quizbot's settings: the core's section and each platform's, read together
(one TOML file, one environment, the command line's options) into one frozen value."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from bot.operations.settings import CoreSettings, InvalidSettings, gather, read

from .discord import Discord
from .discord.settings import DiscordSettings
from .platform import Platform
from .slack import Slack
from .slack.settings import SlackSettings

PLATFORMS = ("slack", "discord")
SECTIONS = (CoreSettings, SlackSettings, DiscordSettings)


@dataclass(frozen=True)
class Settings:
    core: CoreSettings
    slack: SlackSettings
    discord: DiscordSettings

    def configured(self) -> tuple[str, ...]:
        """The platforms whose tokens are set."""
        return tuple(name for name in PLATFORMS if getattr(self, name).configured)

    def platform(self, name: str) -> Platform:
        """The platform of that name, with its section of the settings."""
        return Slack(self.slack) if name == "slack" else Discord(self.discord)


def load(
    environ: Mapping[str, str] = os.environ,
    overrides: Mapping[str, object] | None = None,
    platforms: Iterable[str] | None = (),
) -> Settings:
    """Every section, or InvalidSettings listing every problem: the file's, the core's,
    then those of the platforms to run (None: every configured one). A platform that
    is not run may be set up wrong: it is not reported."""
    sources = gather(SECTIONS, environ, overrides)
    core, core_problems = read(CoreSettings, sources)
    slack, slack_problems = read(SlackSettings, sources)
    discord, discord_problems = read(DiscordSettings, sources)
    settings = Settings(core, slack, discord)
    found = {"slack": slack_problems, "discord": discord_problems}
    checked = settings.configured() if platforms is None else platforms
    problems = [*sources.problems, *core_problems, *(p for name in checked for p in found[name])]
    if problems:
        raise InvalidSettings(problems)
    return settings

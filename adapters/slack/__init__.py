"""The Slack adapter: ``/quiz`` and quiz buttons on slack-bolt's AsyncApp.

``quizbot run slack`` calls ``runtime.serve`` with the Slack section of the settings
(``settings.SlackSettings``): Socket Mode with SLACK_APP_TOKEN, HTTP mode (signed
requests at /slack/events) with ``--http``. Only ``runtime`` imports slack-bolt, so
reading the settings does not.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.services.engine import Engine

from .settings import SlackSettings


@dataclass(frozen=True)
class Slack:
    """The Slack platform (see adapters.platform.Platform)."""

    settings: SlackSettings
    name: str = "slack"

    @property
    def configured(self) -> bool:
        return self.settings.configured

    async def serve(self, engine: Engine) -> None:
        from . import runtime  # slack-bolt is loaded only to run on Slack

        await runtime.serve(engine, self.settings)

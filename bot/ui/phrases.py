"""A platform's phrasebook read from its own catalogue: each adapter keeps its command
syntax in its own .po files (``start_command``, ``usage``, ``<command>_usage``)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.ui.messages import Messages


@dataclass(frozen=True)
class CataloguePhrases:
    messages: Messages
    topic_prefix: str  # what goes before a topic's id to start it, e.g. "/quiz "
    overview: tuple[str, ...] = ("usage",)  # the usage lines under the topic list

    def start_command(self, locale: str) -> str:
        return self.messages.t(locale, "start_command")

    def topic_command(self, topic_id: str) -> str:
        return self.topic_prefix + topic_id

    def usage(self, locale: str, command: str | None = None) -> tuple[str, ...]:
        keys = (f"{command}_usage",) if command else self.overview
        return tuple(self.messages.t(locale, key) for key in keys)

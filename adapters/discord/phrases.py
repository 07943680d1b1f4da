"""Discord's own text: its slash commands' names, descriptions, options and usage."""

from __future__ import annotations

from bot.ui.messages import Messages
from bot.ui.phrases import CataloguePhrases

TEXT = Messages("adapters.discord", "discord")
PHRASES = CataloguePhrases(TEXT, "/quiz ")

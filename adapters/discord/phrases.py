"""Discord's own text: its slash commands' names, descriptions, options and usage."""

from __future__ import annotations

from bot.ui.messages import CORE, Messages
from bot.ui.phrases import CataloguePhrases

# Falls back to the core's catalogue for the words both share (period names).
TEXT = Messages("adapters.discord", "discord", fallback=CORE)
PHRASES = CataloguePhrases(TEXT, "/quiz ")

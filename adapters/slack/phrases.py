"""Slack's own text: the ``/quiz`` command's syntax, in every language."""

from __future__ import annotations

from bot.ui.messages import Messages
from bot.ui.phrases import CataloguePhrases

TEXT = Messages("adapters.slack", "slack")
# One command for everything on Slack: the topic list shows every subcommand's usage.
PHRASES = CataloguePhrases(
    TEXT,
    "/quiz ",
    (
        "usage",
        "remind_usage",
        "daily_usage",
        "race_usage",
        "competition_usage",
        "bank_usage",
        "insights_usage",
    ),
)

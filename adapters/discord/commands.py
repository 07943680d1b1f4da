"""The application commands and their translations. Descriptions and choice names come
from bot/messages.py, so Discord shows them to Hindi clients in Hindi. Command and option
names stay English everywhere: every help line and notice, in every language, tells
players to type ``/quiz <topic>``, and Discord would show a Hindi client only the
translated name. Discord has no Bengali client locale; Bengali players use /quiz-lang bn."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot import i18n
from bot.engine import PERIODS
from bot.messages import CATALOG, t

from .handlers import Handlers, try_again

log = logging.getLogger(__name__)


def text(key: str) -> locale_str:
    """An English UI string that the translator can look up by key."""
    return locale_str(t(i18n.DEFAULT_LOCALE, key), key=key)


class CatalogTranslator(app_commands.Translator):
    async def translate(
        self,
        string: locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        language = i18n.supported(locale.value)
        if key is None or language in (None, i18n.DEFAULT_LOCALE):
            return None
        return CATALOG[key].get(language)


def build_tree(client: discord.Client, handlers: Handlers) -> app_commands.CommandTree:
    tree = app_commands.CommandTree(client)

    async def topic_choices(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await handlers.topic_choices(interaction, current)

    @tree.command(name="quiz", description=text("cmd_quiz"))
    @app_commands.describe(topic=text("opt_topic"))
    @app_commands.autocomplete(topic=topic_choices)
    async def quiz(interaction: discord.Interaction, topic: str) -> None:
        await handlers.quiz(interaction, topic)

    @tree.command(name="quiz-leaderboard", description=text("cmd_leaderboard"))
    @app_commands.describe(period=text("opt_period"), topic=text("opt_board_topic"))
    @app_commands.choices(
        period=[app_commands.Choice(name=text(f"period_{p}"), value=p) for p in PERIODS]
    )
    @app_commands.autocomplete(topic=topic_choices)
    async def leaderboard(
        interaction: discord.Interaction,
        period: app_commands.Choice[str] | None = None,
        topic: str | None = None,
    ) -> None:
        await handlers.leaderboard(interaction, period.value if period else None, topic)

    @tree.command(name="quiz-stats", description=text("cmd_stats"))
    async def stats(interaction: discord.Interaction) -> None:
        await handlers.stats(interaction)

    @tree.command(name="quiz-lang", description=text("cmd_lang"))
    @app_commands.describe(language=text("opt_language"))
    @app_commands.choices(
        language=[
            app_commands.Choice(name=name, value=code) for code, name in i18n.LOCALE_NAMES.items()
        ]
    )
    async def lang(interaction: discord.Interaction, language: app_commands.Choice[str]) -> None:
        await handlers.lang(interaction, language.value)

    @tree.command(name="quiz-topics", description=text("cmd_topics"))
    async def topics(interaction: discord.Interaction) -> None:
        await handlers.topics(interaction)

    @tree.error
    async def on_error(
        interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        # Commands Discord knows but we don't (or with other options) mean the synced
        # commands are out of date: answer politely instead of "This interaction failed".
        if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
            log.warning("%s: run `quizbot discord sync` to update the commands", error)
        else:
            log.error("a Discord command failed", exc_info=error)
        if interaction.response.is_done():
            return
        if interaction.type is discord.InteractionType.autocomplete:
            await interaction.response.autocomplete([])
        else:
            await interaction.response.send_message(
                ephemeral=True, **try_again(interaction).send_kwargs()
            )

    return tree

"""The application commands and their translations. Descriptions and choice names come
from this adapter's own catalogue (adapters/discord/locale), so Discord shows them to
Hindi clients in Hindi. Command and option
names stay English everywhere: every help line and notice, in every language, tells
players to type ``/quiz <topic>``, and Discord would show a Hindi client only the
translated name. Discord has no Bengali client locale; Bengali players use /quiz-lang bn.

A player's own commands are installable to a user account as well as to a server, and
usable in servers, the bot's DMs and private channels (DMs and group DMs the bot is not
in); channel play, a server's banks and its insights are for servers that added the bot."""

from __future__ import annotations

import logging
from typing import TypeVar

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.domain import race
from bot.domain.periods import CALENDAR_PERIODS, ROLLING_WINDOWS
from bot.services.requests import (
    CompetitionEnd,
    CompetitionStandings,
    CompetitionStart,
    DailyOff,
    DailyOn,
    DailyStatus,
    ForgetMe,
    ListBanks,
    RaceStart,
    RaceStop,
    RemindOff,
    RemindOn,
    RemindStatus,
    RemoveBank,
    Request,
    SetLanguage,
    SetSharing,
    ShowDashboard,
    ShowInsights,
    ShowLeaderboard,
    ShowMap,
    ShowProposals,
    ShowStats,
    ShowTopics,
    StartQuiz,
    StartReview,
    Usage,
)
from bot.ui import i18n

from .autocomplete import timezone_choices, topic_choices
from .deliver import try_again
from .handlers import Handlers
from .phrases import TEXT

COMPETITION = "competition"  # the leaderboard period that shows the competition's standings

log = logging.getLogger(__name__)

T = TypeVar("T")


def personal(command: T) -> T:
    """A player's own command: installable to a user account too, usable anywhere."""
    contexts = app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    return app_commands.allowed_installs(guilds=True, users=True)(contexts(command))


def server_only(command: T) -> T:
    """A command about a server: installed with the bot to a server, used in it alone."""
    return app_commands.allowed_installs(guilds=True, users=False)(
        app_commands.guild_only()(command)
    )


def text(key: str) -> locale_str:
    """An English UI string that the translator can look up by key."""
    return locale_str(TEXT.t(i18n.DEFAULT_LOCALE, key), key=key)


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
        return TEXT.t(language, key)


def choices(*values: str, prefix: str) -> list[app_commands.Choice[str]]:
    """Fixed choices: English values, names translated like the descriptions."""
    return [app_commands.Choice(name=text(f"{prefix}{value}"), value=value) for value in values]


async def timezones(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    return timezone_choices(current)


def languages() -> list[app_commands.Choice[str]]:
    """The quiz languages, each named in itself."""
    return [app_commands.Choice(name=name, value=code) for code, name in i18n.LOCALE_NAMES.items()]


_SUBCOMMAND_TYPES = (
    discord.AppCommandOptionType.subcommand.value,
    discord.AppCommandOptionType.subcommand_group.value,
)


def _listed(options: object) -> list[dict[str, object]]:
    """An interaction's option list as sent, skipping what is not an option (forgeries)."""
    return [o for o in options if isinstance(o, dict)] if isinstance(options, list) else []


class QuizTree(app_commands.CommandTree):
    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """An autocomplete for an option that has none (an out-of-date command): discord.py
        would log an ERROR and the user would see "Loading options failed". Answer it
        with no choices and one WARNING instead."""
        if interaction.type is not discord.InteractionType.autocomplete:
            return True
        data = dict(interaction.data or {})
        name = str(data.get("name", ""))
        command: object = self.get_command(name, guild=interaction.guild) or self.get_command(name)
        options = data.get("options")
        # A subcommand's options are nested in it (/quiz-remind on timezone:…).
        while isinstance(command, app_commands.Group):
            inner = _listed(options)
            if not inner or inner[0].get("type") not in _SUBCOMMAND_TYPES:
                break
            name = f"{name} {inner[0].get('name')}"
            command = command.get_command(str(inner[0].get("name")))
            options = inner[0].get("options")
        focused = next((o.get("name") for o in _listed(options) if o.get("focused")), None)
        if isinstance(command, app_commands.Command) and any(
            p.name == focused and p.autocomplete for p in command.parameters
        ):
            return True
        log.warning(
            "autocomplete for an option of /%s that completes nothing (%s):"
            " run `quizbot discord sync`",
            name,
            focused,
        )
        await interaction.response.autocomplete([])
        return False


def build_tree(client: discord.Client, handlers: Handlers) -> app_commands.CommandTree:
    """Every command, group by group, in the order Discord lists them."""
    tree = QuizTree(client)
    complete = Completions(handlers)
    for add in (
        _player_commands,
        _channel_commands,
        _bank_commands,
        _lead_commands,
        _data_commands,
    ):
        add(tree, handlers, complete)
    tree.error(_on_error)
    return tree


class Completions:
    """Topic suggestions as the player types, for the commands that name topics. Plain
    functions, not methods: discord.py binds a method's callback to a cog."""

    def __init__(self, handlers: Handlers) -> None:
        async def named(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            return await topic_choices(handlers.engine, interaction, current)

        async def listed(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            return await topic_choices(handlers.engine, interaction, current, listed=True)

        self.named, self.listed = named, listed


def _player_commands(
    tree: app_commands.CommandTree, handlers: Handlers, complete: Completions
) -> None:
    """A player's own: quizzes, boards, stats, review, language and topics."""

    @tree.command(name="quiz", description=text("cmd_quiz"))
    @personal
    @app_commands.describe(topic=text("opt_topic"))
    @app_commands.autocomplete(topic=complete.named)
    async def quiz(interaction: discord.Interaction, topic: str) -> None:
        await handlers.handle(interaction, StartQuiz(topic))

    @tree.command(name="quiz-leaderboard", description=text("cmd_leaderboard"))
    @personal
    @app_commands.describe(period=text("opt_period"), topic=text("opt_board_topic"))
    @app_commands.choices(period=choices(*CALENDAR_PERIODS, COMPETITION, prefix="period_"))
    @app_commands.autocomplete(topic=complete.named)
    async def leaderboard(
        interaction: discord.Interaction,
        period: app_commands.Choice[str] | None = None,
        topic: str | None = None,
    ) -> None:
        if period and period.value == COMPETITION:
            await handlers.handle(interaction, CompetitionStandings())
        else:
            await handlers.handle(
                interaction, ShowLeaderboard(period.value if period else "all", topic)
            )

    @tree.command(name="quiz-stats", description=text("cmd_stats"))
    @personal
    async def stats(interaction: discord.Interaction) -> None:
        await handlers.handle(interaction, ShowStats())

    @tree.command(name="quiz-review", description=text("cmd_review"))
    @personal
    async def review(interaction: discord.Interaction) -> None:
        await handlers.handle(interaction, StartReview())

    tree.add_command(personal(remind_group(handlers)))

    @tree.command(name="quiz-lang", description=text("cmd_lang"))
    @personal
    @app_commands.describe(language=text("opt_language"))
    @app_commands.choices(language=languages())
    async def lang(interaction: discord.Interaction, language: app_commands.Choice[str]) -> None:
        await handlers.handle(interaction, SetLanguage(language.value))

    @tree.command(name="quiz-topics", description=text("cmd_topics"))
    @personal
    async def topics(interaction: discord.Interaction) -> None:
        await handlers.handle(interaction, ShowTopics())


def _channel_commands(
    tree: app_commands.CommandTree, handlers: Handlers, complete: Completions
) -> None:
    """Channel play, in servers that added the bot (it posts there)."""

    # Channel play, in servers that added the bot (it posts there). Options are flat (an
    # action choice, then what it needs) rather than subcommands, so each is one command
    # line with Discord's own option hints.
    @tree.command(name="quiz-daily", description=text("cmd_daily"))
    @server_only
    @app_commands.describe(
        action=text("opt_daily_action"),
        topics=text("opt_topics"),
        time=text("opt_time"),
        timezone=text("opt_timezone"),
        reveal_hours=text("opt_reveal_hours"),
        prefer_missed=text("opt_prefer_missed"),
    )
    @app_commands.choices(action=choices("on", "off", "status", prefix="action_"))
    @app_commands.autocomplete(topics=complete.listed, timezone=timezones)
    async def daily(
        interaction: discord.Interaction,
        action: app_commands.Choice[str],
        topics: str | None = None,
        time: str | None = None,
        timezone: str | None = None,
        reveal_hours: app_commands.Range[float, 0.01, 24.0] | None = None,
        prefer_missed: bool = False,
    ) -> None:
        asked: dict[str, Request] = {
            "on": DailyOn(topics or "", time or "", timezone or "", reveal_hours, prefer_missed),
            "off": DailyOff(),
        }
        await handlers.handle(interaction, asked.get(action.value, DailyStatus()))

    @tree.command(name="quiz-race", description=text("cmd_race"))
    @server_only
    @app_commands.describe(
        topic=text("opt_topic"),
        questions=text("opt_race_questions"),
        seconds=text("opt_race_seconds"),
    )
    @app_commands.autocomplete(topic=complete.named)
    async def race_start(
        interaction: discord.Interaction,
        topic: str,
        questions: app_commands.Range[int, 1, race.MAX_QUESTIONS] | None = None,
        seconds: app_commands.Range[int, race.MIN_SECONDS, race.MAX_SECONDS] | None = None,
    ) -> None:
        await handlers.handle(interaction, RaceStart(topic, questions, seconds))

    @tree.command(name="quiz-race-stop", description=text("cmd_race_stop"))
    @server_only
    async def race_stop(interaction: discord.Interaction) -> None:
        await handlers.handle(interaction, RaceStop())

    @tree.command(name="quiz-competition", description=text("cmd_competition"))
    @server_only
    @app_commands.describe(
        action=text("opt_competition_action"),
        name=text("opt_competition_name"),
        until=text("opt_until"),
        topics=text("opt_competition_topics"),
    )
    @app_commands.choices(action=choices("start", "end", "standings", prefix="action_"))
    @app_commands.autocomplete(topics=complete.listed)
    async def competition(
        interaction: discord.Interaction,
        action: app_commands.Choice[str],
        name: app_commands.Range[str, 1, 100] | None = None,
        until: str | None = None,
        topics: str | None = None,
    ) -> None:
        asked: dict[str, Request] = {
            "start": CompetitionStart(name or "", until or "", topics),
            "end": CompetitionEnd(),
        }
        await handlers.handle(interaction, asked.get(action.value, CompetitionStandings()))


def _bank_commands(
    tree: app_commands.CommandTree, handlers: Handlers, complete: Completions
) -> None:
    """A server's own questions: its banks and proposals."""

    tree.add_command(server_only(bank_group(handlers)))

    # A workspace's own questions belong to a server: no commands for them in DMs.
    @tree.command(name="quiz-propose", description=text("cmd_propose"))
    @server_only
    async def propose(interaction: discord.Interaction) -> None:
        await handlers.propose(interaction)

    @tree.command(name="quiz-proposals", description=text("cmd_proposals"))
    @server_only
    async def proposals(interaction: discord.Interaction) -> None:
        await handlers.handle(interaction, ShowProposals())


def _lead_commands(
    tree: app_commands.CommandTree, handlers: Handlers, complete: Completions
) -> None:
    """For leads, about a server's team."""

    # For leads, about a server's team: not offered in DMs (nobody is an admin there).
    @tree.command(name="quiz-insights", description=text("cmd_insights"))
    @server_only
    @app_commands.describe(
        topic=text("opt_board_topic"), period=text("opt_period"), flagged=text("opt_flagged")
    )
    @app_commands.autocomplete(topic=complete.named)
    @app_commands.choices(period=choices(*ROLLING_WINDOWS, prefix="insights_period_"))
    async def insights(
        interaction: discord.Interaction,
        topic: str | None = None,
        period: app_commands.Choice[str] | None = None,
        flagged: bool = False,
    ) -> None:
        request = ShowInsights(topic, period.value if period else "all", flagged)
        await handlers.handle(interaction, request)

    # The map: for everyone, aggregates above the floor; names only of who opted in.
    @tree.command(name="quiz-map", description=text("cmd_map"))
    @server_only
    async def knowledge_map(interaction: discord.Interaction) -> None:
        await handlers.handle(interaction, ShowMap())

    @tree.command(name="quiz-share", description=text("cmd_share"))
    @server_only
    @app_commands.describe(on=text("opt_share"))
    async def share(interaction: discord.Interaction, on: bool) -> None:
        await handlers.handle(interaction, SetSharing(on))

    @tree.command(name="quiz-dashboard", description=text("cmd_dashboard"))
    @server_only
    async def dashboard(interaction: discord.Interaction) -> None:
        await handlers.handle(interaction, ShowDashboard())


def _data_commands(
    tree: app_commands.CommandTree, handlers: Handlers, complete: Completions
) -> None:
    """A player's data: deleting it."""

    @tree.command(name="quiz-forget-me", description=text("cmd_forget_me"))
    @personal
    async def forget_me(interaction: discord.Interaction) -> None:
        await handlers.handle(interaction, ForgetMe())


async def _on_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
    # Commands Discord knows but we don't (or with other options) mean the synced
    # commands are out of date: answer politely instead of "This interaction failed".
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        log.warning("%s: run `quizbot discord sync` to update the commands", error)
    elif isinstance(error, app_commands.TransformerError):
        # A value the command does not take (not one of its choices, say): Discord
        # only sends those for out-of-date commands. The value itself may be huge.
        log.warning(
            "an option value of /%s does not fit the command: run `quizbot discord sync`",
            interaction.command.name if interaction.command else "?",
        )
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


def remind_group(handlers: Handlers) -> app_commands.Group:
    """/quiz-remind on | off | status: the player's daily review reminder, a DM. Subcommands
    rather than an action option (as /quiz-daily has): only ``on`` takes a time and a
    timezone, so Discord itself requires both there and offers neither to off or status."""
    remind = app_commands.Group(name="quiz-remind", description=text("cmd_remind"))

    @remind.command(name="on", description=text("cmd_remind_on"))
    @app_commands.describe(time=text("opt_remind_time"), timezone=text("opt_timezone"))
    @app_commands.autocomplete(timezone=timezones)
    async def on(interaction: discord.Interaction, time: str, timezone: str) -> None:
        await handlers.handle(interaction, RemindOn(time, timezone))

    @remind.command(name="off", description=text("cmd_remind_off"))
    async def off(interaction: discord.Interaction) -> None:
        await handlers.handle(interaction, RemindOff())

    @remind.command(name="status", description=text("cmd_remind_status"))
    async def status(interaction: discord.Interaction) -> None:
        await handlers.handle(interaction, RemindStatus())

    return remind


def bank_group(handlers: Handlers) -> app_commands.Group:
    """/quiz-bank upload | list | remove: the server's own banks."""
    bank = app_commands.Group(name="quiz-bank", description=text("cmd_bank"))

    @bank.command(name="upload", description=text("cmd_bank_upload"))
    @app_commands.describe(
        file=text("opt_bank_file"),
        allow_missing=text("opt_allow_missing"),
        language=text("opt_bank_language"),
    )
    @app_commands.choices(language=languages())
    async def upload(
        interaction: discord.Interaction,
        file: discord.Attachment,
        allow_missing: bool = False,
        language: app_commands.Choice[str] | None = None,
    ) -> None:
        await handlers.upload(
            interaction, file, allow_missing, language.value if language else None
        )

    @bank.command(name="list", description=text("cmd_bank_list"))
    async def listing(interaction: discord.Interaction) -> None:
        await handlers.handle(interaction, ListBanks())

    @bank.command(name="remove", description=text("cmd_bank_remove"))
    @app_commands.describe(bank_id=text("opt_bank_id"))
    @app_commands.rename(bank_id="id")
    async def remove(interaction: discord.Interaction, bank_id: str) -> None:
        request = RemoveBank(bank_id) if bank_id.strip() else Usage("bank")
        await handlers.handle(interaction, request)

    return bank

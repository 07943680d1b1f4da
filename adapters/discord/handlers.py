"""Interaction handlers: turn a Discord interaction into an engine call, render the view
it returns and answer in time. Quiz rules stay in the engine; this module only parses,
renders and chooses how to respond (new message, edit, deferral)."""

from __future__ import annotations

import asyncio
import logging
import zoneinfo
from collections.abc import Awaitable, Callable
from contextlib import AbstractContextManager
from functools import cache

import aiohttp
import discord
from discord import app_commands

from bot.operations import logs
from bot.persistence import StoreError
from bot.play import codec
from bot.play.channel import Caller
from bot.play.engine import Engine
from bot.play.refs import PlayerRef, ScopeRef
from bot.ui import i18n
from bot.ui.messages import t
from bot.ui.views import Feedback, Notice, QuestionView, View

from .render import Reply, fit, render

log = logging.getLogger(__name__)

# Discord wants the first response within 3 s; work that takes longer than this is
# deferred first, leaving a margin for the network.
ACK_BUDGET = 2.0
PLATFORM = "discord"
# A request whose connection broke: Discord may or may not have it, so it is sent once more.
CONNECTION_ERRORS = (aiohttp.ClientError, OSError, TimeoutError)
ALREADY_ACKNOWLEDGED = 40060  # Discord's error code
CHOICE_LIMIT = 100  # autocomplete choice name and value
MAX_CHOICES = 25
COMPETITION = "competition"  # the leaderboard period that shows the competition's standings


def player_of(interaction: discord.Interaction) -> PlayerRef:
    user = interaction.user
    return PlayerRef(PLATFORM, str(user.id), user.display_name)


def scope_of(interaction: discord.Interaction) -> ScopeRef:
    """Points are per server; a DM is a workspace of its own."""
    workspace = str(interaction.guild_id) if interaction.guild_id else f"dm:{interaction.user.id}"
    return ScopeRef(PLATFORM, workspace, str(interaction.channel_id or ""))


def log_context(interaction: discord.Interaction) -> AbstractContextManager[None]:
    """Every log line about an interaction names the platform, where and which one."""
    scope = scope_of(interaction)
    return logs.bind(
        platform=PLATFORM,
        scope=f"{scope.workspace_id}/{scope.channel_id}",
        request_id=str(interaction.id),
    )


def is_admin(interaction: discord.Interaction, admin_role: str | None) -> bool:
    """Who runs the quiz in a server, in Discord's own terms: the Manage Server permission
    (Discord resolves it into every interaction), or a role named QUIZBOT_ADMIN_ROLE.
    Role names come from the guild cache, which the guilds intent keeps current; while a
    server is unavailable its roles are unknown and only the permission counts."""
    member = interaction.user
    if interaction.guild_id is None or not isinstance(member, discord.Member):
        return False
    permissions = interaction.permissions
    if permissions.manage_guild or permissions.administrator:
        return True
    return admin_role is not None and any(role.name == admin_role for role in member.roles)


def can_post(interaction: discord.Interaction) -> bool:
    """Whether the bot may post channel messages where the command was sent (every
    interaction carries the app's permissions there): a daily question scheduled where
    it can never be posted would fail silently hours later."""
    permissions = interaction.app_permissions
    in_thread = isinstance(interaction.channel, discord.Thread)
    send = permissions.send_messages_in_threads if in_thread else permissions.send_messages
    return permissions.view_channel and permissions.embed_links and send


@cache
def _timezones() -> tuple[str, ...]:
    return tuple(sorted(zoneinfo.available_timezones()))


def timezone_choices(current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete over the IANA timezone names, e.g. "kolk" → Asia/Kolkata."""
    typed = current.strip().casefold().replace(" ", "_")
    found = [zone for zone in _timezones() if typed in zone.casefold()]
    return [app_commands.Choice(name=zone, value=zone) for zone in found[:MAX_CHOICES]]


ChannelWork = Callable[[Caller], Awaitable[View]]


class Handlers:
    def __init__(
        self, engine: Engine, ack_budget: float = ACK_BUDGET, admin_role: str | None = None
    ):
        self.engine = engine
        self.ack_budget = ack_budget
        self.admin_role = admin_role

    async def _locale(self, interaction: discord.Interaction, player: PlayerRef) -> str:
        return await self.engine.locale_for(player, str(interaction.locale))

    # --- application commands ---------------------------------------------------------

    async def quiz(self, interaction: discord.Interaction, topic: str) -> None:
        player, scope = player_of(interaction), scope_of(interaction)

        async def work() -> View:
            locale = await self._locale(interaction, player)
            # An unfinished run of the topic continues: its ephemeral message may be gone.
            return await self.engine.start_quiz(player, scope, topic, locale, resume=True)

        await self._answer(interaction, work(), ephemeral=True)

    async def leaderboard(
        self, interaction: discord.Interaction, period: str | None, topic: str | None
    ) -> None:
        if period == COMPETITION:
            await self._channel_play(
                interaction, self.engine.competitions.standings, ephemeral=False
            )
            return
        player, scope = player_of(interaction), scope_of(interaction)

        async def work() -> View:
            locale = await self._locale(interaction, player)
            return await self.engine.leaderboard(player, scope, locale, period or "all", topic)

        # Public: a leaderboard is for the whole channel to see.
        await self._answer(interaction, work(), ephemeral=False)

    async def stats(self, interaction: discord.Interaction) -> None:
        player, scope = player_of(interaction), scope_of(interaction)

        async def work() -> View:
            locale = await self._locale(interaction, player)
            return await self.engine.stats(player, scope, locale)

        await self._answer(interaction, work(), ephemeral=True)

    async def lang(self, interaction: discord.Interaction, language: str) -> None:
        await self._answer(
            interaction, self.engine.set_locale(player_of(interaction), language), ephemeral=True
        )

    async def topics(self, interaction: discord.Interaction) -> None:
        async def work() -> View:
            return self.engine.topics(await self._locale(interaction, player_of(interaction)))

        await self._answer(interaction, work(), ephemeral=True)

    async def topic_choices(
        self, interaction: discord.Interaction, current: str, *, listed: bool = False
    ) -> list[app_commands.Choice[str]]:
        """Autocomplete over bank ids, aliases and titles, titled in the player's language.
        With ``listed``, the option is a comma-separated list: the last topic is completed
        and the ones before it are kept."""
        try:
            locale = await self._locale(interaction, player_of(interaction))
        except StoreError as exc:
            log.warning("autocomplete without the player's language: %s", exc)
            locale = i18n.choose(str(interaction.locale))
        head, _, typed = current.rpartition(",") if listed else ("", "", current)
        prefix = "".join(f"{part.strip()}," for part in head.split(",") if part.strip())
        return [
            app_commands.Choice(
                name=fit(f"{prefix}{i18n.pick(bank.title, locale)} ({bank.id})", CHOICE_LIMIT),
                value=prefix + bank.id,
            )
            for bank in self.engine.catalog.search(typed, locale, MAX_CHOICES)
            if len(prefix + bank.id) <= CHOICE_LIMIT
        ]

    # --- channel play ----------------------------------------------------------------------

    async def daily(
        self,
        interaction: discord.Interaction,
        action: str,
        topics: str | None,
        at: str | None,
        timezone: str | None,
        reveal_hours: float | None,
    ) -> None:
        daily = self.engine.daily

        async def work(caller: Caller) -> View:
            if action == "on":
                return await daily.on(caller, topics or "", at or "", timezone or "", reveal_hours)
            if action == "off":
                return await daily.off(caller)
            return await daily.status(caller)

        await self._channel_play(interaction, work, posts=action == "on")

    async def race(
        self,
        interaction: discord.Interaction,
        topic: str,
        questions: int | None,
        seconds: int | None,
    ) -> None:
        async def work(caller: Caller) -> View:
            return await self.engine.races.start(caller, topic, questions, seconds)

        await self._channel_play(interaction, work, posts=True)

    async def race_stop(self, interaction: discord.Interaction) -> None:
        await self._channel_play(interaction, self.engine.races.stop)

    async def competition(
        self,
        interaction: discord.Interaction,
        action: str,
        name: str | None,
        until: str | None,
        topics: str | None,
    ) -> None:
        competitions = self.engine.competitions

        async def work(caller: Caller) -> View:
            if action == "start":
                return await competitions.start(caller, name or "", until or "", topics)
            if action == "end":
                return await competitions.end(caller)
            return await competitions.standings(caller)

        # The standings are for the whole channel, like the leaderboard.
        public = action == "standings"
        await self._channel_play(interaction, work, ephemeral=not public, posts=action == "start")

    async def _channel_play(
        self,
        interaction: discord.Interaction,
        work: ChannelWork,
        *,
        ephemeral: bool = True,
        posts: bool = False,
    ) -> None:
        """A channel-play command: only in a server channel and, when it makes the bot post
        there (``posts``), only where the bot may post."""

        async def run() -> View:
            player = player_of(interaction)
            locale = await self._locale(interaction, player)
            if interaction.guild_id is None:
                return _notice(locale, "discord_dm_no_channel_play")
            if posts and not can_post(interaction):
                return _notice(locale, "discord_cannot_post")
            admin = is_admin(interaction, self.admin_role)
            return await work(Caller(player, scope_of(interaction), locale, admin))

        await self._answer(interaction, run(), ephemeral=ephemeral)

    # --- buttons -------------------------------------------------------------------------

    async def click(self, interaction: discord.Interaction, custom_id: str) -> None:
        """A quiz button: the answer or next question replaces the message in place; a
        refusal (someone else's quiz, a finished run, a forged id) comes as a new private
        message, leaving the quiz as it was. A daily or race button is on a public post
        everyone sees: its answer is always a new private message (a slow one is deferred
        as a private "thinking…", never as an update of the post)."""
        public_post = isinstance(codec.decode(custom_id), codec.DailyAction | codec.RaceAction)
        work = self.engine.click(player_of(interaction), custom_id, str(interaction.locale))
        await self._answer(interaction, work, ephemeral=True, update=not public_post)

    # --- responding ------------------------------------------------------------------------

    async def _answer(
        self,
        interaction: discord.Interaction,
        work: Awaitable[View],
        *,
        ephemeral: bool,
        update: bool = False,
    ) -> None:
        """Run the engine call; answer directly when it is quick, else defer first so
        Discord's 3 seconds are never missed."""
        with log_context(interaction):
            await self._respond(interaction, work, ephemeral=ephemeral, update=update)

    async def _respond(
        self,
        interaction: discord.Interaction,
        work: Awaitable[View],
        *,
        ephemeral: bool,
        update: bool,
    ) -> None:
        task = asyncio.ensure_future(work)
        replace = False
        try:
            # A budget of 0 means: always acknowledge first.
            done = self.ack_budget > 0 and bool(
                (await asyncio.wait({task}, timeout=self.ack_budget))[0]
            )
            if not done:
                await self._defer(interaction, ephemeral=ephemeral, update=update)
        except discord.HTTPException as exc:
            log.warning("could not defer a Discord interaction: %s", exc)
        except CONNECTION_ERRORS as exc:
            log.warning("could not defer a Discord interaction (connection failed): %r", exc)
        try:
            view = await task
        except StoreError as exc:
            log.warning("the quiz store failed during an interaction: %s", exc)
            reply = try_again(interaction)
        except Exception:
            log.exception("the quiz engine failed on a Discord interaction")
            reply = try_again(interaction)
        else:
            reply = render(view)
            # Only the personal quiz moves on in place; anything else is a private word.
            replace = (
                update
                and interaction.message is not None
                and isinstance(view, QuestionView | Feedback)
            )
        await self._deliver(interaction, reply, ephemeral=ephemeral, replace=replace)

    async def _defer(
        self, interaction: discord.Interaction, *, ephemeral: bool, update: bool
    ) -> None:
        if update:
            await interaction.response.defer()  # type 6: edit or follow up later
        else:
            await interaction.response.defer(ephemeral=ephemeral, thinking=True)  # type 5

    async def _deliver(
        self, interaction: discord.Interaction, reply: Reply, *, ephemeral: bool, replace: bool
    ) -> None:
        """Send the reply; a connection that broke on the way is tried once more (the
        answer is on disk already: only the player's view of it is at stake)."""
        try:
            await self._send(interaction, reply, ephemeral=ephemeral, replace=replace)
            return
        except CONNECTION_ERRORS as exc:
            failure = exc
        except RuntimeError:  # aiohttp's "Session is closed"
            if not interaction.client.is_closed():
                raise
        if interaction.client.is_closed():
            # Shutting down: Discord shows "interaction failed", the answer is on disk.
            log.info("shutting down: a Discord interaction is left unanswered")
            return
        try:
            await self._send(interaction, reply, ephemeral=ephemeral, replace=replace)
        except CONNECTION_ERRORS as exc:
            log.warning("could not answer a Discord interaction (connection failed): %r", exc)
        else:
            log.warning("answered a Discord interaction on a second try: %r", failure)

    async def _send(
        self, interaction: discord.Interaction, reply: Reply, *, ephemeral: bool, replace: bool
    ) -> None:
        response = interaction.response
        try:
            if replace and response.is_done():
                await interaction.edit_original_response(**reply.edit_kwargs())
            elif replace:
                await response.edit_message(**reply.edit_kwargs())  # type 7
            elif not response.is_done():
                await response.send_message(ephemeral=ephemeral, **reply.send_kwargs())
            elif response.type is discord.InteractionResponseType.deferred_channel_message:
                await interaction.edit_original_response(**reply.edit_kwargs())
            else:
                await interaction.followup.send(ephemeral=ephemeral, **reply.send_kwargs())
        except (discord.NotFound, discord.DiscordServerError) as exc:
            # An expired interaction or a Discord outage: nothing more we can do for it.
            log.warning("could not answer a Discord interaction: %s", exc)
        except discord.HTTPException as exc:
            if exc.code != ALREADY_ACKNOWLEDGED:
                raise
            log.warning(
                "a Discord interaction was already answered: is another instance of the bot "
                "running with the same token?"
            )


def _notice(locale: str, kind: str) -> Notice:
    return Notice(locale, kind, t(locale, kind))


def try_again(interaction: discord.Interaction) -> Reply:
    return Reply(content=t(i18n.choose(str(interaction.locale)), "try_again"))

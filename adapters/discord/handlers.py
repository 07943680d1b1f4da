"""Interaction handlers: turn a Discord interaction into an engine call, render the view
it returns and answer in time. Quiz rules stay in the engine; this module only parses,
renders and chooses how to respond (new message, edit, deferral)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable

import discord
from discord import app_commands

from bot import i18n
from bot.engine import Engine
from bot.messages import t
from bot.refs import PlayerRef, ScopeRef
from bot.store import StoreError
from bot.views import Feedback, QuestionView, View

from .render import Reply, fit, render

log = logging.getLogger(__name__)

# Discord wants the first response within 3 s; work that takes longer than this is
# deferred first, leaving a margin for the network.
ACK_BUDGET = 2.0
ALREADY_ACKNOWLEDGED = 40060  # Discord's error code
CHOICE_LIMIT = 100  # autocomplete choice name and value
MAX_CHOICES = 25


def player_of(interaction: discord.Interaction) -> PlayerRef:
    user = interaction.user
    return PlayerRef("discord", str(user.id), user.display_name)


def scope_of(interaction: discord.Interaction) -> ScopeRef:
    """Points are per server; a DM is a workspace of its own."""
    workspace = str(interaction.guild_id) if interaction.guild_id else f"dm:{interaction.user.id}"
    return ScopeRef("discord", workspace, str(interaction.channel_id or ""))


class Handlers:
    def __init__(self, engine: Engine, ack_budget: float = ACK_BUDGET):
        self.engine = engine
        self.ack_budget = ack_budget

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
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Autocomplete over bank ids, aliases and titles, titled in the player's language."""
        try:
            locale = await self._locale(interaction, player_of(interaction))
        except StoreError as exc:
            log.warning("autocomplete without the player's language: %s", exc)
            locale = i18n.choose(str(interaction.locale))
        return [
            app_commands.Choice(
                name=fit(f"{i18n.pick(bank.title, locale)} ({bank.id})", CHOICE_LIMIT),
                value=bank.id,
            )
            for bank in self.engine.catalog.search(current, locale, MAX_CHOICES)
        ]

    # --- buttons -------------------------------------------------------------------------

    async def click(self, interaction: discord.Interaction, custom_id: str) -> None:
        """A quiz button: the answer or next question replaces the message in place; a
        refusal (someone else's quiz, a finished run, a forged id) comes as a new private
        message, leaving the quiz as it was."""
        work = self.engine.click(player_of(interaction), custom_id, str(interaction.locale))
        await self._answer(interaction, work, ephemeral=True, update=True)

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


def try_again(interaction: discord.Interaction) -> Reply:
    return Reply(content=t(i18n.choose(str(interaction.locale)), "try_again"))

"""A Discord interaction read as the core's request context: who, where, with what rights."""

from __future__ import annotations

from contextlib import AbstractContextManager

import discord

from bot.domain.identities import PlayerRef, ScopeRef
from bot.operations import logs
from bot.services.requests import Context

PLATFORM = "discord"


def player_of(interaction: discord.Interaction) -> PlayerRef:
    """The player, named as on all of Discord (the global display name, else the user
    name): a name is kept per platform and shown on every server's boards, so a server
    nickname, which its member chose for that server alone, is never used."""
    user = interaction.user
    return PlayerRef(PLATFORM, str(user.id), user.global_name or user.name)


def user_installed_only(interaction: discord.Interaction) -> bool:
    """Whether only the player's own install of the app allows this interaction: in a
    private channel (a DM or group DM the bot is not in), in the bot's DM with a player who
    installed it, or in a server that did not add the bot. There the app may answer the
    interaction and nothing else."""
    return interaction.is_user_integration() and not interaction.is_guild_integration()


def in_server(interaction: discord.Interaction) -> bool:
    """In a server that added the bot: where its points, banks and channel play live."""
    return interaction.guild_id is not None and not user_installed_only(interaction)


def others_read(interaction: discord.Interaction) -> bool:
    """A player's own scope shown where others read along (a group DM, a friend's DM, a
    server without the bot): what is theirs alone is told to them alone."""
    return user_installed_only(interaction) and not interaction.context.dm_channel


def scope_of(interaction: discord.Interaction) -> ScopeRef:
    """Points are per server that added the bot. Anywhere else (its DMs, private channels,
    a server that did not add it) the player's own workspace, the same in every one of
    them, so their cards, points and language follow them from DM to DM."""
    workspace = str(interaction.guild_id) if in_server(interaction) else f"dm:{interaction.user.id}"
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
    if not in_server(interaction) or not isinstance(member, discord.Member):
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


def context_of(interaction: discord.Interaction, admin_role: str | None) -> Context:
    return Context(
        player_of(interaction),
        scope_of(interaction),
        str(interaction.locale),
        is_admin(interaction, admin_role),
        others_read=others_read(interaction),
        workspace_name=interaction.guild.name if interaction.guild else "",
    )

"""The JSON objects the fake Discord sends, shaped as Discord's: the bot's user, the
gateway's READY and GUILD_CREATE, the application, messages, attachments, synced commands
and INTERACTION_CREATE."""

from __future__ import annotations

import json
import secrets
from datetime import UTC, datetime
from typing import Any, TypedDict

from .world import (
    ALICE,
    APP_ID,
    CHANNEL_ID,
    FIONA,
    GUILD_ID,
    OWNER_ID,
    ROLES,
    USER_APP_PERMISSIONS,
    FakeFile,
    FakeUser,
    private_channel_of,
)

BOT_USER = {
    "id": APP_ID,
    "username": "quizbot",
    "discriminator": "0",
    "global_name": None,
    "avatar": None,
    "bot": True,
    "verified": True,
    "flags": 0,
    "mfa_enabled": False,
}


def now() -> str:
    return datetime.now(UTC).isoformat()


def snapshot(data: Any) -> Any:
    """A copy as it went over the wire: later edits of the original do not change it."""
    return json.loads(json.dumps(data))


def gateway_info(gateway_url: str) -> dict[str, Any]:
    """GET /gateway/bot: where to connect, with room for any number of sessions."""
    return {
        "url": gateway_url,
        "shards": 1,
        "session_start_limit": {
            "total": 1000,
            "remaining": 1000,
            "reset_after": 0,
            "max_concurrency": 1,
        },
    }


def ready(session: str, shard: tuple[int, int], gateway_url: str) -> dict[str, Any]:
    return {
        "shard": list(shard),
        "v": 10,
        "user": BOT_USER,
        "guilds": [{"id": GUILD_ID, "unavailable": True}],
        "session_id": session,
        "resume_gateway_url": gateway_url,
        "application": {"id": APP_ID, "flags": 0},
        "private_channels": [],
        "relationships": [],
    }


def text_channel(channel_id: str, guild_id: str) -> dict[str, Any]:
    """A server's text channel, named general as every channel of the fake is."""
    return {
        "id": channel_id,
        "type": 0,
        "name": "general",
        "position": 0,
        "guild_id": guild_id,
        "nsfw": False,
        "parent_id": None,
    }


def guild() -> dict[str, Any]:
    return {
        "id": GUILD_ID,
        "name": "ML team",
        "unavailable": False,
        "owner_id": OWNER_ID,
        "member_count": 4,
        "preferred_locale": "en-US",
        "features": [],
        "roles": ROLES,
        "emojis": [],
        "stickers": [],
        "channels": [{**text_channel(CHANNEL_ID, GUILD_ID), "permission_overwrites": []}],
        "threads": [],
        "members": [],
        "voice_states": [],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
    }


def application() -> dict[str, Any]:
    return {
        "id": APP_ID,
        "name": "quizbot",
        "description": "",
        "icon": None,
        "bot_public": True,
        "bot_require_code_grant": False,
        "verify_key": "00",
        "flags": 0,
        "team": None,
        "summary": "",
        "owner": {"id": OWNER_ID, "username": "owner", "discriminator": "0", "avatar": None},
    }


def synced_command(command_id: str, command: dict[str, Any], guild: str | None) -> dict[str, Any]:
    """A command as Discord stores it from a bulk overwrite, with its defaults filled in."""
    item = {"id": command_id, "application_id": APP_ID, "version": "1", **command}
    item.setdefault("type", 1)
    item.setdefault("dm_permission", True)
    item.setdefault("integration_types", [0])  # the app's default: servers
    item.setdefault("contexts", None)
    item.setdefault("default_member_permissions", None)
    if guild:
        item["guild_id"] = guild
    return item


def message(
    message_id: str, data: dict[str, Any], flags: int, channel_id: str, kind: int
) -> dict[str, Any]:
    """A message of the bot: an interaction response (type 20) or a channel post (0)."""
    made = {
        "id": message_id,
        "channel_id": channel_id,
        "type": kind,
        "content": data.get("content") or "",
        "author": BOT_USER,
        "embeds": data.get("embeds") or [],
        "components": data.get("components") or [],
        "flags": flags,
        "timestamp": now(),
        "edited_timestamp": None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "pinned": False,
        "application_id": APP_ID,
    }
    if kind == 20:
        made["webhook_id"] = APP_ID
    return made


def dm_channel(channel_id: str, member_id: str) -> dict[str, Any]:
    recipient = {"id": member_id, "username": "member", "discriminator": "0", "avatar": None}
    return {"id": channel_id, "type": 1, "recipients": [recipient], "last_message_id": None}


def attachment(attachment_id: str, file: FakeFile, url: str) -> dict[str, Any]:
    """An attachment as an interaction resolves it."""
    return {
        "id": attachment_id,
        "filename": file.filename,
        "size": len(file.data),
        "url": url,
        "proxy_url": url,
        "content_type": "application/octet-stream",
        "ephemeral": True,
    }


class Origin(TypedDict, total=False):
    """Who sends an interaction, and where from (see ``interaction``)."""

    user: FakeUser
    locale: str
    guild: bool  # False: a DM
    message: dict[str, Any] | None  # the message clicked
    guild_id: str
    install: str


def interaction(
    interaction_id: str,
    kind: int,
    data: dict[str, Any],
    app_permissions: int,
    *,
    user: FakeUser = ALICE,
    locale: str = "en-US",
    guild: bool = True,
    message: dict[str, Any] | None = None,
    guild_id: str = GUILD_ID,
    install: str = "guild",
) -> dict[str, Any]:
    """An INTERACTION_CREATE payload as Discord sends it (in the fake's server, or in
    ``guild_id``'s, whose channel is the next snowflake). ``install``: "guild", the bot's
    install (in a server or the bot's DMs), or "user", the player's own (in ``guild_id``, a
    server that did not add the bot, or a private channel: a DM with FIONA)."""
    channel_id = CHANNEL_ID if guild_id == GUILD_ID else str(int(guild_id) + 1)
    user_install = install == "user"
    payload: dict[str, Any] = {
        "id": interaction_id,
        "application_id": APP_ID,
        "type": kind,
        "data": data,
        "token": "itok-" + secrets.token_urlsafe(24),
        "version": 1,
        "locale": locale,
        "attachment_size_limit": 10 * 1024 * 1024,
        "app_permissions": "0",
        "entitlements": [],
    }
    if guild:
        payload |= {
            "guild_id": guild_id,
            "guild": {"id": guild_id, "locale": "en-US", "features": []},
            "guild_locale": "en-US",
            "channel_id": channel_id,
            "channel": text_channel(channel_id, guild_id),
            "member": {
                "user": user.to_dict(),
                "nick": user.nick,
                "roles": list(user.roles),
                "flags": 0,
                "joined_at": "2024-01-01T00:00:00+00:00",
                "deaf": False,
                "mute": False,
                "permissions": str(user.permissions),
            },
            "app_permissions": str(USER_APP_PERMISSIONS if user_install else app_permissions),
            "context": 0,
            "authorizing_integration_owners": {"1": user.id} if user_install else {"0": guild_id},
        }
    elif user_install:  # a DM between the player and a friend
        dm = private_channel_of(user)
        payload |= {
            "channel_id": dm,
            "channel": {"id": dm, "type": 1, "recipients": [FIONA.to_dict()]},
            "user": user.to_dict(),
            "app_permissions": str(USER_APP_PERMISSIONS),
            "context": 2,
            "authorizing_integration_owners": {"1": user.id},
        }
    else:
        dm = str(int(user.id) + 1)
        payload |= {
            "channel_id": dm,
            "channel": {"id": dm, "type": 1, "recipients": [user.to_dict()]},
            "user": user.to_dict(),
            "context": 1,
            "authorizing_integration_owners": {"0": "0"},
        }
    if message is not None:
        payload["message"] = message
    return payload

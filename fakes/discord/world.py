"""The fake Discord's fixed world: the app, its server, channel and roles, the players, and
the ids, permission bits and message flags Discord gives them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

TOKEN = "fake-bot-token"
APP_ID = "1100000000000000001"
GUILD_ID = "1200000000000000002"
CHANNEL_ID = "1300000000000000003"
OWNER_ID = "1400000000000000004"
STRANGER_GUILD_ID = "1800000000000000008"  # a server that did not add the bot
ADMIN_ROLE_ID = "1700000000000000001"
ADMIN_ROLE_NAME = "quiz-masters"  # QUIZBOT_ADMIN_ROLE in FakeDiscord.environ()
EPHEMERAL, LOADING = 1 << 6, 1 << 7
MANAGE_GUILD = 1 << 5
# What the bot may do in the channel when invited with the usual permissions: View
# Channel, Send Messages, Send Messages in Threads, Embed Links, Read Message History.
BOT_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 38) | (1 << 14) | (1 << 16)
# What a user-installed app may do in its answers where the bot is not (Embed Links,
# Attach Files): no View Channel nor Send Messages, it is not a member there.
USER_APP_PERMISSIONS = (1 << 14) | (1 << 15)


@dataclass(frozen=True)
class FakeUser:
    id: str
    name: str
    permissions: int = 0  # resolved in the channel, as Discord sends them
    roles: tuple[str, ...] = ()  # role ids
    nick: str | None = None  # a server nickname, that server's alone

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "username": self.name.lower(),
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
        }


ALICE = FakeUser("1500000000000000001", "Alice")
BOB = FakeUser("1500000000000000002", "Bob")
CAROL = FakeUser("1500000000000000005", "Carol", roles=(ADMIN_ROLE_ID,))  # admin by role
OWEN = FakeUser("1500000000000000006", "Owen", permissions=MANAGE_GUILD)  # Manage Server
FIONA = FakeUser("1500000000000000007", "Fiona")  # a friend the bot does not know
ROLES = [
    {"id": GUILD_ID, "name": "@everyone", "permissions": "0", "position": 0},
    {"id": ADMIN_ROLE_ID, "name": ADMIN_ROLE_NAME, "permissions": "0", "position": 1},
    {"id": "1700000000000000002", "name": "Quiz-Masters", "permissions": "0", "position": 2},
]


@dataclass(frozen=True)
class FakeFile:
    """A file a user attaches to a command option; the fake serves it as Discord's CDN
    would, at the attachment's url."""

    filename: str
    data: bytes


def private_channel_of(user: FakeUser) -> str:
    """The player's DM with FIONA, where their own install of the app is used."""
    return str(int(user.id) + 400_000_000_000_000_000)


def shard_of(guild_id: str, count: int) -> int:
    """Discord's rule for which shard carries a server's events."""
    return (int(guild_id) >> 22) % count

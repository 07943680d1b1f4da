"""A fake Discord on 127.0.0.1: the REST API and the gateway websocket on one aiohttp
server, so the real discord.py client runs offline. ``FakeDiscord`` is the server
(server.py, gateway.py, interactions.py) with what a test does to it (driver.py); its
checks of what the bot sends are Discord's limits (checks.py)."""

from .driver import FakeDiscord
from .faults import Fault
from .outcome import Outcome
from .world import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL_ID,
    FIONA,
    GUILD_ID,
    MANAGE_GUILD,
    OWEN,
    STRANGER_GUILD_ID,
    TOKEN,
    USER_APP_PERMISSIONS,
    FakeFile,
    FakeUser,
    private_channel_of,
)

__all__ = [
    "ALICE",
    "BOB",
    "CAROL",
    "CHANNEL_ID",
    "FIONA",
    "GUILD_ID",
    "MANAGE_GUILD",
    "OWEN",
    "STRANGER_GUILD_ID",
    "TOKEN",
    "USER_APP_PERMISSIONS",
    "FakeDiscord",
    "FakeFile",
    "FakeUser",
    "Fault",
    "Outcome",
    "private_channel_of",
]

"""Fixtures for the Discord adapter: a fake Discord and the real client running on it."""

from __future__ import annotations

from collections.abc import AsyncIterator

import discord
import pytest

from adapters.discord.client import QuizClient
from bot.services.engine import Engine
from fakes.discord import TOKEN, FakeDiscord

from .support import running_bot


async def _identify_at_once(
    client: discord.Client, shard_id: int | None, *, initial: bool = False
) -> None:
    """The fake limits no IDENTIFY rate: discord.py's 5 s pause before each IDENTIFY after
    the first (a second shard, a new session) would only make the tests wait."""


@pytest.fixture
async def fake(
    monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> AsyncIterator[FakeDiscord]:
    """The fake Discord; parametrize it indirectly with a bot token to use another."""
    # The endpoints are class attributes of discord.py: restore them after each test.
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    gateway = discord.gateway.DiscordWebSocket
    monkeypatch.setattr(gateway, "DEFAULT_GATEWAY", gateway.DEFAULT_GATEWAY)
    monkeypatch.setattr(discord.Client, "before_identify_hook", _identify_at_once)
    server = FakeDiscord(getattr(request, "param", TOKEN))
    await server.start()
    yield server
    await server.stop()
    assert server.violations == [], "Discord would have rejected these"
    assert server.unexpected == [], "calls the fake does not know"


@pytest.fixture
async def bot(fake: FakeDiscord, engine: Engine) -> AsyncIterator[QuizClient]:
    async with running_bot(fake, engine) as client:
        yield client

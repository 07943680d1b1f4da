"""Fixtures for the Discord adapter: a fake Discord and the real client running on it."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Mapping

import discord
import pytest

from adapters.discord.client import QuizClient, use_endpoints
from adapters.discord.settings import Settings
from bot.play.engine import Engine

from .fake_discord import TOKEN, FakeDiscord


@pytest.fixture
async def fake(
    monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> AsyncIterator[FakeDiscord]:
    """The fake Discord; parametrize it indirectly with a bot token to use another."""
    # The endpoints are class attributes of discord.py: restore them after each test.
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    gateway = discord.gateway.DiscordWebSocket
    monkeypatch.setattr(gateway, "DEFAULT_GATEWAY", gateway.DEFAULT_GATEWAY)
    server = FakeDiscord(getattr(request, "param", TOKEN))
    await server.start()
    yield server
    await server.stop()
    assert server.violations == [], "Discord would have rejected these"
    assert server.unexpected == [], "calls the fake does not know"


@contextlib.asynccontextmanager
async def running_bot(
    fake: FakeDiscord,
    engine: Engine,
    *,
    guild_id: str = "",
    environ: Mapping[str, str] | None = None,
    **options: object,
) -> AsyncIterator[QuizClient]:
    """The real client, connected to the fake, until the block ends."""
    settings = Settings.from_environ(
        {**fake.environ(), "DISCORD_GUILD_ID": guild_id, **(environ or {})}
    )
    use_endpoints(settings)
    client = QuizClient(engine, settings, **options)  # type: ignore[arg-type]
    task = asyncio.create_task(client.start(settings.token))
    ready = asyncio.create_task(client.wait_until_ready())
    await asyncio.wait({task, ready}, timeout=10, return_when=asyncio.FIRST_COMPLETED)
    if not ready.done():
        ready.cancel()
        await client.close()
        await task  # raises what kept the client from connecting
        raise AssertionError("the client did not connect to the fake Discord")
    try:
        yield client
    finally:
        await client.close()
        await task


@pytest.fixture
async def bot(fake: FakeDiscord, engine: Engine) -> AsyncIterator[QuizClient]:
    async with running_bot(fake, engine) as client:
        yield client

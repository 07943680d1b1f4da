"""Helpers the Discord tests share: playing a quiz through the fake, what is on disk,
what was logged."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import AsyncIterator, Mapping
from pathlib import Path

import pytest

from adapters.discord.client import QuizClient, client_class, use_endpoints
from adapters.discord.settings import DiscordSettings
from adapters.settings import load
from bot.content.banks import Bank, Question
from bot.domain import actions
from bot.services.engine import Engine
from fakes.discord import ALICE, FakeDiscord, FakeUser, Outcome


def discord_settings(
    environ: Mapping[str, str], options: Mapping[str, object] | None = None
) -> DiscordSettings:
    """The Discord section as `quizbot run discord` reads it from ``environ`` and its
    command-line ``options`` (``{"--shards": (0, 1)}``)."""
    return load(environ, options, platforms=("discord",)).discord


def answer_button(outcome: Outcome, question: Question, correct: bool) -> dict:
    """The button of the right answer, or of a wrong one (the id names the bank choice)."""
    for button in outcome.buttons:
        action = actions.decode(button["custom_id"])
        assert isinstance(action, actions.AnswerAction)
        if (action.choice == question.answer) == correct:
            return button
    raise AssertionError("no such button")


async def play(
    fake: FakeDiscord,
    bank: Bank,
    pattern: list[bool],
    user: FakeUser = ALICE,
    locale: str = "en-US",
) -> Outcome:
    """Start the bank's quiz and answer right or wrong by the pattern; the last outcome."""
    outcome = await fake.slash("quiz", topic=bank.id, user=user, locale=locale)
    message = outcome.message["id"]
    for position, correct in enumerate(pattern):
        if position:
            outcome = await fake.click(message, outcome.buttons[0]["custom_id"], user=user)
        button = answer_button(outcome, bank.questions[position], correct)
        outcome = await fake.click(message, button["custom_id"], user=user, locale=locale)
    return outcome


def answers_on_disk(db: Path) -> list[tuple[str, int, str, int, int, int]]:
    """Every recorded answer: (run, position, player, choice, correct, points)."""
    with sqlite3.connect(db) as connection:
        return connection.execute(
            "SELECT run_id, position, player_id, choice, correct, points FROM answers"
            " ORDER BY run_id, position"
        ).fetchall()


def warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.get_records("call") if r.levelno == logging.WARNING]


@contextlib.asynccontextmanager
async def running_bot(
    fake: FakeDiscord,
    engine: Engine,
    *,
    guild_id: str = "",
    environ: Mapping[str, str] | None = None,
    shards: tuple[int, int] | None = None,
    shard_count: int | None = None,
    **options: object,
) -> AsyncIterator[QuizClient]:
    """The real client, connected to the fake, until the block ends; with ``shard_count``,
    the sharded client running ``shards`` (default: all of them)."""
    settings = discord_settings(
        {**fake.environ(), "DISCORD_GUILD_ID": guild_id, **(environ or {})},
        {"--shards": shards, "--shard-count": shard_count},
    )
    use_endpoints(settings)
    client = client_class(settings)(engine, settings, **options)  # type: ignore[arg-type]
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

"""Fixtures for the Slack adapter: the real bolt app over HTTP on 127.0.0.1, a fake
Slack Web API, and a driver that sends it signed requests as Slack does."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.services.engine import Engine
from fakes.slack import FakeSlack, SlackDriver, User, message_problems

from .support import SECRET, USERS, start_http


@pytest.fixture
async def fake() -> AsyncIterator[FakeSlack]:
    """The fake Slack; at the end, every message it received must be valid Block Kit."""
    slack = FakeSlack(USERS)
    await slack.start()
    yield slack
    await slack.stop()
    problems = [(m.get("text", "")[:60], p) for m in slack.messages() for p in message_problems(m)]
    assert problems == []


@pytest.fixture
async def slack(engine: Engine, fake: FakeSlack) -> AsyncIterator[SlackDriver]:
    runner, url = await start_http(engine, fake)
    yield SlackDriver(fake, url, SECRET)
    await runner.cleanup()


@pytest.fixture
async def any_user_fake() -> AsyncIterator[FakeSlack]:
    """A fake Slack in which every user id is an English-speaking "Player": for tests that
    run real bot processes for many players."""
    slack = FakeSlack(anyone=User("en-US", "Player"))
    await slack.start()
    yield slack
    await slack.stop()

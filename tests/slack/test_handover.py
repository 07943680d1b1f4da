"""The scheduler's hand-over between real processes: two ``quizbot run slack --http`` on
one PostgreSQL database, the leader frozen and then killed at the daily question's time;
the other process takes the lock and posts the question, once."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from datetime import UTC, datetime

import psycopg
import pytest

from fakes.slack import FakeSlack, SlackDriver, shown_text

from .process import BotProcess, leader_gauge, scheduler_passes
from .support import SECRET

pytestmark = pytest.mark.e2e


@pytest.fixture
def fake(any_user_fake: FakeSlack) -> FakeSlack:
    return any_user_fake


async def leader_of(bots: list[BotProcess]) -> tuple[BotProcess, BotProcess]:
    """(the process that runs the scheduler, the other one), once exactly one does."""
    for _ in range(100):
        leads = [await leader_gauge(bot.metrics_port) for bot in bots]
        if sorted(leads) == [0.0, 1.0]:
            return (bots[0], bots[1]) if leads[0] == 1.0 else (bots[1], bots[0])
        await asyncio.sleep(0.1)
    raise AssertionError(f"no single scheduler: {leads}")


async def test_the_leader_killed_at_the_daily_time_the_other_process_posts_it_once(
    fake: FakeSlack, postgres_url: str
) -> None:
    bots = [BotProcess(fake, postgres_url, admins="UADMIN") for _ in range(2)]
    for bot in bots:
        await bot.start()
    try:
        leader, survivor = await leader_of(bots)
        os.kill(leader.pid, signal.SIGSTOP)  # it holds the lock but cannot post
        now = datetime.now(UTC)  # due at once: its time has come, its reveal has not
        slack = SlackDriver(fake, survivor.events_url, SECRET)
        on = shown_text(await slack.command(f"daily on offloading {now:%H:%M} UTC", "UADMIN"))
        assert "Daily question on: " in on, on
        await scheduler_passes(survivor.metrics_port, 2)  # it may not lead: nothing posted
        assert fake.calls_to("chat.postMessage") == []

        killed = time.monotonic()
        leader.kill_now()  # the dead session's lock is released by the server
        await fake.wait_for(lambda: fake.calls_to("chat.postMessage") or None, timeout=15)
        took_over = time.monotonic() - killed
        assert took_over < 5, f"the hand-over took {took_over:.1f} s"
        assert await leader_gauge(survivor.metrics_port) == 1.0
        await scheduler_passes(survivor.metrics_port, 2)  # more ticks: still one post
        posts = fake.calls_to("chat.postMessage")
        assert len(posts) == 1
        assert "Daily question" in shown_text(posts[0].body)
        with psycopg.connect(postgres_url) as db:
            assert db.execute(b"SELECT COUNT(*) FROM daily_posts").fetchone() == (1,)
    finally:
        for bot in bots:
            await bot.kill()
    assert all(bot.errors() == [] for bot in bots)

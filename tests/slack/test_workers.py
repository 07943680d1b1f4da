"""Several Slack HTTP workers on one PostgreSQL database: ``quizbot run slack --http
--workers 2`` serves a whole quiz, a worker killed mid-quiz loses no acknowledged
answer, and the supervisor starts it again."""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import psycopg
import pytest

from fakes.ports import free_port, free_port_run
from fakes.slack import FakeSlack, SlackDriver, buttons, shown_text
from fakes.slack.workers import start_workers

from .process import leader_gauge
from .support import SECRET

pytestmark = pytest.mark.e2e


def workers_of(parent: int) -> list[int]:
    return [int(pid) for pid in Path(f"/proc/{parent}/task/{parent}/children").read_text().split()]


@pytest.fixture
def fake(any_user_fake: FakeSlack) -> FakeSlack:
    return any_user_fake


@dataclass
class Workers:
    parent: asyncio.subprocess.Process
    port: int
    metrics: int  # worker k serves /metrics on metrics + k - 1

    def driver(self, fake: FakeSlack) -> SlackDriver:
        return SlackDriver(fake, f"http://127.0.0.1:{self.port}/slack/events", SECRET)


@pytest.fixture
async def workers(fake: FakeSlack, postgres_url: str) -> AsyncIterator[Workers]:
    """``quizbot run slack --http --workers 2`` on the test's database, both healthy;
    stopped with SIGTERM afterwards, which must end it cleanly."""
    port, metrics = free_port(), free_port_run(2)
    parent = await start_workers(fake, postgres_url, 2, port, metrics, secret=SECRET)
    try:
        yield Workers(parent, port, metrics)
    finally:
        parent.send_signal(signal.SIGTERM)
        await asyncio.wait_for(parent.wait(), 20)
        errors = (await parent.stderr.read()).decode() if parent.stderr else ""
    assert parent.returncode == 0, errors


async def test_two_workers_serve_a_quiz_and_a_killed_one_loses_nothing(
    fake: FakeSlack, workers: Workers, postgres_url: str
) -> None:
    leaders = [await leader_gauge(workers.metrics), await leader_gauge(workers.metrics + 1)]
    for _ in range(50):  # the election takes at most a scheduler interval
        if sorted(leaders) == [0.0, 1.0]:
            break
        await asyncio.sleep(0.1)
        leaders = [await leader_gauge(workers.metrics), await leader_gauge(workers.metrics + 1)]
    assert sorted(leaders) == [0.0, 1.0]  # exactly one worker runs the scheduler
    slack = workers.driver(fake)
    players = [f"U{n:02d}" for n in range(12)]
    questions = [await slack.command("offloading", p) for p in players]
    assert all("Question 1 of 17" in shown_text(q) for q in questions)
    for player, question in zip(players[:6], questions[:6], strict=True):
        assert "Right answer" in shown_text(await slack.click(buttons(question)["A"], player))
    victim = workers_of(workers.parent.pid)[0]
    os.kill(victim, signal.SIGKILL)  # mid-quiz, with answers acknowledged
    for player, question in zip(players[6:], questions[6:], strict=True):
        try:
            reply = await slack.click(buttons(question)["A"], player)
        except aiohttp.ClientOSError:  # a kept-alive connection to the dead worker:
            reply = await slack.click(buttons(question)["A"], player)  # click again
        assert "Right answer" in shown_text(reply)
    with psycopg.connect(postgres_url) as db:
        answers = db.execute("SELECT COUNT(*) FROM answers").fetchone()
    assert answers == (12,)  # every acknowledged answer, once
    for _ in range(100):  # the supervisor starts the killed worker again
        if (
            victim not in workers_of(workers.parent.pid)
            and len(workers_of(workers.parent.pid)) == 2
        ):
            break
        await asyncio.sleep(0.1)
    assert len(workers_of(workers.parent.pid)) == 2


async def test_a_worker_killed_mid_burst_loses_nothing_and_scores_nothing_twice(
    fake: FakeSlack, workers: Workers, postgres_url: str
) -> None:
    slack = workers.driver(fake)
    players = [f"U{n:02d}" for n in range(30)]
    questions = [await slack.command("offloading", p) for p in players]
    answered: list[str] = []

    async def answer(player: str, question: dict[str, object]) -> None:
        # No feedback: the player clicks again, as anyone would (on a loaded machine the
        # restarted worker may take the second click while it is still starting).
        for _ in range(3):
            try:
                reply = await slack.click(buttons(question)["B"], player)
            except (aiohttp.ClientError, TimeoutError):
                continue
            shown = shown_text(reply)
            assert "Right answer" in shown or "already answered" in shown
            answered.append(player)
            return

    burst = asyncio.gather(*(answer(p, q) for p, q in zip(players, questions, strict=True)))
    await asyncio.sleep(0.05)  # mid-burst
    os.kill(workers_of(workers.parent.pid)[0], signal.SIGKILL)
    await burst
    assert sorted(answered) == players  # every player heard back
    with psycopg.connect(postgres_url) as db:
        per_run = db.execute("SELECT COUNT(*), COUNT(DISTINCT run_id) FROM answers").fetchone()
        scored = db.execute("SELECT COUNT(*) FROM attempts").fetchone()
    assert per_run == (30, 30) and scored == (30,)  # on disk once each, scored once

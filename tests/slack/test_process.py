"""The real bot process (``quizbot run slack --http``) against the fake Slack: health and
metrics as an operator sees them, and what a SIGKILL mid-burst leaves on disk."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import subprocess
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlencode

import aiohttp
import pytest

from fakes.slack import Call, FakeSlack, SlackDriver, User, buttons, shown_text

from .process import BotProcess, counter, scheduler_passes
from .support import SECRET, db_problems

pytestmark = pytest.mark.e2e
PLAYERS = [f"U{n:02d}" for n in range(30)]
RESULT = ("Right!", "Not quite.")


@pytest.fixture
async def bot(tmp_path: Path) -> AsyncIterator[BotProcess]:
    fake = FakeSlack(anyone=User("en-US", "Player"))
    await fake.start()
    process = BotProcess(fake, tmp_path / "quiz.db", admins="UADMIN")
    await process.start()
    yield process
    await process.kill()
    await fake.stop()
    assert process.errors() == []


def driver(bot: BotProcess) -> SlackDriver:
    return SlackDriver(bot.fake, bot.events_url, SECRET)


async def get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(url) as resp:
        return resp.status, await resp.text()


@contextlib.contextmanager
def immutable(*paths: Path) -> Iterator[None]:
    """``chattr +i`` on the files (skip the test where that is not allowed), undone after."""
    done: list[Path] = []
    try:
        for path in paths:
            if subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode:
                pytest.skip("chattr +i is not allowed here")
            done.append(path)
        yield
    finally:
        for path in done:
            subprocess.run(["chattr", "-i", str(path)], check=True)


async def test_metrics_move_and_health_follows_the_database(bot: BotProcess) -> None:
    slack = driver(bot)
    _, before = await get(bot.ops_url("/metrics"))
    question = await slack.command("tiny", "U01")
    feedback = shown_text(await slack.click(buttons(question)["A"], "U01"))
    assert any(word in feedback for word in RESULT)

    _, after = await get(bot.ops_url("/metrics"))
    answers = "quizbot_answers_recorded_total"
    assert counter(after, answers, mode="quiz") == counter(before, answers, mode="quiz") + 1
    clicks = "quizbot_interactions_total"
    assert counter(after, clicks, platform="slack") >= counter(before, clicks, platform="slack") + 2
    status, body = await get(bot.ops_url("/healthz"))
    assert status == 200 and json.loads(body)["slack"] == "ok"

    with immutable(bot.db, bot.db.with_name(bot.db.name + "-wal")):
        status, body = await get(bot.ops_url("/healthz"))
        assert status == 503
        assert json.loads(body)["database"].startswith("not writable")
        assert json.loads(body)["slack"] == "ok"
    status, _ = await get(bot.ops_url("/healthz"))
    assert status == 200

    # A warning while handling a command names the platform, workspace/channel and the
    # interaction's trigger_id.
    bot.fake.faults["users.info"] = ["500", "500"]
    await slack.command("stats", "U02")
    await bot.kill()
    (line,) = [line for line in bot.logs[-1].splitlines() if "users.info failed" in line]
    assert " WARNING " in line and "platform=slack scope=T1/C1 request=trigger.T1r" in line


async def _click(slack: SlackDriver, action_id: str, user: str, key: str) -> None:
    """Send a click; the bot may die before it answers."""
    with contextlib.suppress(aiohttp.ClientError):
        await slack.post(slack.click_body(action_id, user, key))


def _answered(db: Path) -> dict[str, int]:
    """Answers on disk per player."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT player_id, COUNT(*) FROM answers GROUP BY player_id")
        return dict(rows.fetchall())


async def test_a_sigkill_mid_burst_loses_no_shown_answer_and_scores_none_twice(
    bot: BotProcess,
) -> None:
    slack, fake = driver(bot), bot.fake
    started = await asyncio.gather(*(slack.command("tiny", p) for p in PLAYERS))
    questions = dict(zip(PLAYERS, started, strict=True))
    keys = {player: f"burst-{player}" for player in PLAYERS}
    told: list[str] = []

    def tell(call: Call) -> None:  # the fake saw a player's feedback: kill at the fifth
        if call.method == "response_url" and call.key.startswith("burst-"):
            told.append(call.key.removeprefix("burst-"))
            if len(told) == 5:
                bot.kill_now()

    fake.on_call = tell
    clicks = []
    for player in PLAYERS:  # a stream of clicks, so the kill lands in its middle
        clicks.append(
            asyncio.create_task(
                _click(slack, buttons(questions[player])["A"], player, keys[player])
            )
        )
        await asyncio.sleep(0.01)
    await asyncio.gather(*clicks)
    await fake.wait_for(lambda: len(told) >= 5 or None)
    await bot.kill()
    fake.on_call = None
    assert 5 <= len(told) < len(PLAYERS)  # killed mid-burst

    answered = _answered(bot.db)
    assert all(answered.get(p) == 1 for p in told), (told, answered)
    assert all(n == 1 for n in answered.values())
    assert db_problems(bot.db) == []

    await bot.start()
    for player in PLAYERS:  # the same click again: counted now, or already counted
        again = shown_text(await slack.click(buttons(questions[player])["A"], player))
        if player in answered:
            assert "You already answered this question" in again, player
        else:
            assert any(word in again for word in RESULT), player
    for player in PLAYERS:
        # Next question: its id is on the quiz message; clicking it from the first one works.
        run = buttons(questions[player])["A"].split(":")[2]
        second = await slack.click(f"qz:n:{run}:1", player)
        assert "Question 2 of 2" in shown_text(second), player
        done = await slack.click(buttons(second)["A"], player)
        assert "Quiz complete" in shown_text(done), player
    assert _answered(bot.db) == dict.fromkeys(PLAYERS, 2)
    assert db_problems(bot.db) == []


async def test_a_daily_question_killed_while_posting_is_posted_once(bot: BotProcess) -> None:
    """SIGKILL the moment Slack receives the daily post, before the bot reads Slack's
    answer; after the restart the scheduler must not post that day's question again."""
    slack, fake = driver(bot), bot.fake
    fake.on_call = lambda call: bot.kill_now() if call.method == "chat.postMessage" else None
    now = datetime.now(UTC)  # due at once: its time has come, its reveal has not
    await slack.post(
        urlencode(slack.command_fields(f"daily on offloading {now:%H:%M} UTC", "UADMIN", "on"))
    )
    await fake.wait_for(lambda: fake.calls_to("chat.postMessage") or None)
    await bot.kill()
    fake.on_call = None

    await bot.start()
    status = shown_text(await slack.command("daily status", "U01"))
    assert "offloading" in status.casefold() or "Optimizer" in status
    await scheduler_passes(bot.metrics_port, 2)  # two chances to post it again
    assert len(fake.calls_to("chat.postMessage")) == 1
    with sqlite3.connect(bot.db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM daily_posts").fetchone()[0] == 1
    assert db_problems(bot.db) == []

"""Discord button clicks end to end: the real ``quizbot run discord`` process, connected
to the fake Discord's gateway, gets INTERACTION_CREATE button clicks from many players
with started quizzes, at open-loop Poisson arrivals. Latency is from the fake
dispatching the event to the interaction callback reaching the fake's REST API (and,
stricter, from the click's scheduled arrival, so queueing in the sender counts too).

The bot runs in its own process, as in production; the fake and the load share this
one. Each player clicks the first button of their quiz message: answer A, then Next.

    python -m bench.discord_clicks [--seconds 3] [--rates 250,500,750] [--players 800]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import subprocess
import sys
import tempfile
from collections import deque
from dataclasses import dataclass
from pathlib import Path

from fakes.discord import FakeDiscord, FakeUser
from fakes.ports import free_port

from .common import ms, percentile, record, steady_clock, table

REPO = Path(__file__).resolve().parent.parent
TOPIC = "offloading"  # a shipped bank: 8 questions, 15 clicks a player


@dataclass
class Player:
    user: FakeUser
    message: str  # the quiz message whose first button is clicked next


async def start_bot(fake: FakeDiscord, db: Path) -> subprocess.Popen[bytes]:
    environ = {**os.environ, **fake.environ(), "QUIZBOT_DB": str(db), "QUIZBOT_LOG_LEVEL": "ERROR"}
    bot = subprocess.Popen(
        [sys.executable, "-m", "adapters.cli", "run", "discord", "--db", str(db)],
        env=environ,
        cwd=REPO,
        stdout=subprocess.DEVNULL,
    )
    async with asyncio.timeout(60):
        await fake.connected.wait()
    while not fake.commands:  # synced: the bot has finished starting
        await asyncio.sleep(0.05)
    return bot


async def prepare(fake: FakeDiscord, count: int) -> deque[Player]:
    players: deque[Player] = deque()
    for start in range(0, count, 50):
        users = [
            FakeUser(str(1_800_000_000_000_000_000 + i), f"P{i}") for i in range(start, start + 50)
        ]
        outcomes = await asyncio.gather(*(fake.slash("quiz", topic=TOPIC, user=u) for u in users))
        players += [Player(u, o.message["id"]) for u, o in zip(users, outcomes, strict=True)]
    return players


async def open_loop(fake: FakeDiscord, idle: deque[Player], rate: float, seconds: float) -> dict:
    rng = random.Random(rate)
    arrivals: list[float] = []
    moment = rng.expovariate(rate)
    while moment < seconds:
        arrivals.append(moment)
        moment += rng.expovariate(rate)
    loop = asyncio.get_running_loop()
    dispatched: list[float] = []  # dispatch → callback
    scheduled: list[float] = []  # scheduled arrival → callback
    finished: list[float] = []
    failed = 0

    async def one(at: float, player: Player) -> None:
        nonlocal failed
        buttons = [
            c for row in fake.messages[player.message]["components"] for c in row["components"]
        ]
        try:
            outcome = await fake.click(player.message, buttons[0]["custom_id"], user=player.user)
        except AssertionError:
            failed += 1
            return
        done = loop.time() - start
        assert outcome.latency is not None and outcome.callback_type == 7, outcome
        dispatched.append(outcome.latency)
        scheduled.append(done - at)
        finished.append(done)
        if outcome.buttons:
            idle.append(player)

    tasks = []
    starved = 0
    with steady_clock():  # this process is the fake Discord and the load; the bot is a child
        start = loop.time()
        for at in arrivals:
            delay = at - (loop.time() - start)
            if delay > 0:
                await asyncio.sleep(delay)
            if not idle:
                starved += 1
                continue
            tasks.append(asyncio.create_task(one(at, idle.popleft())))
        await asyncio.gather(*tasks)
    return {
        "offered": rate,
        "clicks": len(tasks),
        "achieved": len(finished) / max(finished, default=1.0),
        "p50": percentile(dispatched, 50),
        "p99": percentile(dispatched, 99),
        "p99 scheduled": percentile(scheduled, 99),
        "failed": failed,
        "unsent": starved,
    }


async def measure(rates: list[int], seconds: float, players: int) -> str:
    fake = FakeDiscord()
    await fake.start(free_port())
    workdir = Path(tempfile.mkdtemp(prefix="quizbot-bench-discord-"))
    bot = await start_bot(fake, workdir / "quiz.db")
    try:
        idle = await prepare(fake, players)
        await open_loop(fake, idle, 100, 1.0)  # warm-up, not reported
        rows = []
        for rate in rates:
            result = await open_loop(fake, idle, rate, seconds)
            rows.append([
                str(rate), str(result["clicks"]), f"{result['achieved']:.0f}",
                ms(result["p50"]), ms(result["p99"]), ms(result["p99 scheduled"]),
                str(result["failed"]), str(result["unsent"]),
            ])  # fmt: skip
    finally:
        bot.terminate()
        bot.wait(30)
        await fake.stop()
    late = [v for v in fake.violations if "after 3 s" in v]
    body = table(
        [
            "offered/s", "clicks", "achieved/s", "p50 ms", "p99 ms",
            "p99 ms from arrival", "failed", "unsent (no idle player)",
        ],
        rows,
    )  # fmt: skip
    return (
        f"{body}\n\n{players} players with started `{TOPIC}` quizzes; {seconds:.0f} s per rate;"
        f" bot in its own process, fake Discord and load in another. Interactions answered"
        f" after Discord's 3 s: {len(late)}. Target: ≥ 500 clicks/s with p99 ≤ 100 ms."
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--rates", default="250,500,750")
    parser.add_argument("--players", type=int, default=800)
    args = parser.parse_args()
    rates = [int(r) for r in args.rates.split(",")]
    record("Discord clicks", asyncio.run(measure(rates, args.seconds, args.players)))


if __name__ == "__main__":
    main()

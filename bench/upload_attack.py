"""Slack clicks while admins upload bank files: does one workspace's upload slow every
other workspace's clicks? Three phases in one run, the same bot and load throughout:
clicks alone (the baseline), clicks while an admin uploads a hostile 1 MB file over and
over, and clicks while an admin uploads a legitimate 1 MB bank over and over. Uploads go
the whole way a member's does: the /quiz command opens the form, the form is submitted
with a file, the bot downloads it from the fake Slack, checks it and replies.

    python -m bench.upload_attack [--seconds 8] [--rate 200] [--rounds 3]

The three phases run in turn, ``--rounds`` times: this machine's tail latency varies
between runs of the same code by several times, so each phase is reported as the median
over rounds (and each round's figure). Reported per phase: click p50/p99 (request to
feedback, as bench.slack_clicks), the event-loop watchdog's longest stall in the bot, and
each upload's time from submitting the form to the bot's reply (file to stored bank for
the legitimate one).
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import io
import json
import statistics
import sys
import time
from typing import Any

from slack_sdk.web.async_client import AsyncWebClient

from adapters.slack.installations import Clients
from adapters.slack.people import People
from adapters.slack.settings import SlackSettings
from bot.operations.process import tune_gc
from bot.operations.watchdog import LoopWatchdog
from fakes.slack import FakeSlack, SlackDriver, User

from .common import ms, record, table
from .slack_clicks import SECRET, TOKEN, open_loop, rig, started_quizzes

ADMIN = "UADMIN"
PHASES = ("clicks alone", "hostile 1 MB upload", "legitimate 1 MB upload")
TARGET_BYTES = 1_000_000


def hostile_csv() -> bytes:
    """The review's slow file, at 1 MB: one prompt repeated on every row (the ids it
    needs made import time quadratic), far more rows than a bank may hold."""
    row = b"same prompt,a,b,1,why,https://example.org/a\n"
    header = b"prompt,choice_1,choice_2,answer,explanation,references\n"
    return header + row * ((TARGET_BYTES - len(header)) // len(row))


def legitimate_csv() -> bytes:
    """A real-looking 1 MB bank: distinct questions with explanations and references."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["id", "prompt", "choice_1", "choice_2", "choice_3", "choice_4", "answer",
                     "explanation", "references"])  # fmt: skip
    number = 0
    while out.tell() < TARGET_BYTES - 400:
        writer.writerow(
            [
                f"q{number}",
                f"With tensor parallelism of degree {number % 8 + 2}, how many all-reduces"
                f" does layer {number} need in its forward pass?",
                "One",
                "Two",
                "Four",
                "Eight",
                2,
                "Attention and the MLP each end in a row-parallel linear layer whose partial"
                " sums are reduced, so two.",
                "https://arxiv.org/abs/1909.08053",
            ]
        )
        number += 1
    return out.getvalue().encode()


async def uploads(
    driver: SlackDriver, fake: FakeSlack, name: str, data: bytes, until: float
) -> tuple[list[float], str]:
    """Upload the file again and again until ``until`` (loop time): each one's seconds
    from the form's submission to the bot's private reply, and the last reply."""
    loop = asyncio.get_running_loop()
    took: list[float] = []
    reply = ""
    while not took or loop.time() < until:
        before = len(fake.ephemerals(ADMIN))
        view = await driver.open_form("bank upload", ADMIN, fake)
        started = loop.time()
        file = fake.add_file(name, data)
        await driver.submit(view, {"file": [file]}, ADMIN)
        found = await fake.wait_for(lambda at=before: fake.ephemerals(ADMIN)[at:] or None, 60)
        took.append(loop.time() - started)
        reply = json.dumps(found[0])[:200]
    return took, reply


async def drive(port: int, app_url: str, seconds: float, rate: float, rounds: int) -> None:
    """The child: the fake Slack, the clicks and the uploads. Per phase it reads the
    clicks as one JSON line and prints that phase's results as one."""
    fake = FakeSlack({ADMIN: User("en-US", "Boss", admin=True)}, anyone=User("en-US", "Player"))
    await fake.start(port)
    print("ready", flush=True)
    loop = asyncio.get_running_loop()
    driver = SlackDriver(fake, app_url, SECRET)
    files = {PHASES[1]: ("hostile.csv", hostile_csv()), PHASES[2]: ("bank.csv", legitimate_csv())}
    # A warm-up, as in bench.slack_clicks: the first clicks of a process pay for its caches.
    warm = [tuple(c) for c in json.loads(await loop.run_in_executor(None, sys.stdin.readline))]
    await open_loop(driver, fake, warm, 50, 1.0)
    # The legitimate bank once with nothing else going on: what importing it costs.
    alone, _ = await uploads(driver, fake, *files[PHASES[2]], loop.time())
    print(json.dumps(alone), flush=True)
    for phase in PHASES * rounds:
        clicks = [
            tuple(c) for c in json.loads(await loop.run_in_executor(None, sys.stdin.readline))
        ]
        work = [open_loop(driver, fake, clicks, rate, seconds)]
        if phase in files:
            work.append(uploads(driver, fake, *files[phase], loop.time() + seconds))
        done = await asyncio.gather(*work)
        took, reply = done[1] if len(done) > 1 else ([], "")
        print(json.dumps({"clicks": done[0], "uploads": took, "reply": reply}), flush=True)
    await fake.stop()


async def measure(seconds: float, rate: float, rounds: int) -> list[dict[str, Any]]:
    """The bot (engine, SQLite store, the bolt app over HTTP, the watchdog) here; the fake
    Slack, the clicks and the uploads in a child process."""
    watchdog = LoopWatchdog()
    watching = asyncio.ensure_future(watchdog.serve())
    results = []
    args = ("--seconds", str(seconds), "--rate", str(rate), "--rounds", str(rounds))
    try:
        async with rig("bench.upload_attack", *args) as bot:
            people = People(Clients(AsyncWebClient(TOKEN, base_url=bot.api_url)))
            await bot.serve(SlackSettings(TOKEN, SECRET, api_url=bot.api_url), people)
            await bot.send(await started_quizzes(bot.engine, 100, people))  # the warm-up
            alone = await bot.receive()
            for phase in PHASES * rounds:
                clicks = await started_quizzes(bot.engine, int(rate * seconds * 1.3) + 50, people)
                watchdog.longest = 0.0
                started = time.perf_counter()
                await bot.send(clicks)
                found = await bot.receive()
                wall = time.perf_counter() - started
                found.update(phase=phase, stall=watchdog.longest, wall=wall)
                results.append(found)
        results.append({"phase": "alone", "uploads": alone})
    finally:
        watching.cancel()
    return results


def report(results: list[dict[str, Any]], seconds: float, rate: float) -> str:
    by_phase = {phase: [r for r in results if r["phase"] == phase] for phase in PHASES}
    [alone] = [r["uploads"][0] for r in results if r["phase"] == "alone"]
    base = statistics.median(r["clicks"]["p99"] for r in by_phase[PHASES[0]])
    rows = []
    for phase, found in by_phase.items():
        p99s = [r["clicks"]["p99"] for r in found]
        took = [t for r in found for t in r["uploads"]]
        p99 = statistics.median(p99s)
        rows.append(
            [
                phase, f"{statistics.median(r['clicks']['achieved'] for r in found):.0f}",
                ms(statistics.median(r["clicks"]["p50"] for r in found)), ms(p99),
                " / ".join(ms(v) for v in p99s), f"{p99 / base:.2f}×",
                ms(statistics.median(r["stall"] for r in found)),
                ms(max(r["stall"] for r in found)), str(len(took)),
                f"{statistics.median(took):.2f}" if took else "–",
                f"{max(took):.2f}" if took else "–",
            ]
        )  # fmt: skip
    header = [
        "phase", "clicks/s", "p50 ms", "p99 ms (median)", "p99 ms per round",
        "p99 vs alone", "stall ms (median)", "stall ms (max)", "uploads",
        "upload median s", "upload max s",
    ]  # fmt: skip
    replies = "; ".join(f"{r['phase']}: {r['reply'][:160]}" for r in results[1:3])
    return (
        f"{table(header, rows)}\n\n{rate:.0f} clicks/s offered for {seconds:.0f} s per phase,"
        f" {len(by_phase[PHASES[0]])} rounds of the three phases in turn; uploads back to back"
        " through the upload form (download, check, store, reply). Target: p99 during either"
        " upload within 2× of clicks alone and under 100 ms; the longest stall under 100 ms;"
        f" a legitimate 1 MB bank stored in ≤ 3 s: {alone:.2f} s from the form's submission"
        f" to the reply with no clicks going on.\n\nLast replies: {replies}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--rate", type=float, default=200.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-record", action="store_true", help="print, do not append")
    parser.add_argument(
        "--drive", nargs=2, metavar=("FAKE_PORT", "APP_URL"), help=argparse.SUPPRESS
    )
    args = parser.parse_args()
    if args.drive:
        asyncio.run(drive(int(args.drive[0]), args.drive[1], args.seconds, args.rate, args.rounds))
        return
    tune_gc()  # the bot runs in this process: tuned as `quizbot run` tunes it
    results = asyncio.run(measure(args.seconds, args.rate, args.rounds))
    body = report(results, args.seconds, args.rate)
    if args.no_record:
        print(body)
    else:
        record("Clicks during bank uploads", body)


if __name__ == "__main__":
    main()

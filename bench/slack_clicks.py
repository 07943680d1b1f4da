"""Slack clicks end to end: signed ``block_actions`` requests into the real bolt app over
HTTP on 127.0.0.1, from many players each with a started quiz, with open-loop arrivals.
Latency runs from sending a request to its feedback reaching the fake Slack's
response_url endpoint (ack, engine, group commit, render and the reply included).

    python -m bench.slack_clicks [--seconds 3] [--rates 250,500,750] [--modes token,oauth]

Each mode is measured in the same run: ``token`` is one workspace's SLACK_BOT_TOKEN,
``oauth`` the same workspace installed through Add to Slack (each request's token
looked up from its installation, sealed in the store), so their ratio is what many
workspaces cost a click.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import shutil
import sys
import tempfile
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web
from slack_sdk.oauth.installation_store import Installation
from slack_sdk.web.async_client import AsyncWebClient

from adapters.slack.installations import Clients, SlackInstallations
from adapters.slack.people import People
from adapters.slack.runtime import build_app, web_app
from adapters.slack.settings import SlackSettings
from bot.content.banks import SHIPPED_BANKS, load_catalog
from bot.domain.identities import PlayerRef, ScopeRef
from bot.operations.process import tune_gc
from bot.operations.sealing import Sealer
from bot.persistence import Store
from bot.services.engine import Engine
from bot.ui.views import QuestionView
from fakes.ports import free_port
from fakes.slack import Call, FakeSlack, SlackDriver, User
from fakes.slack.signing import signed_headers

from .common import ms, percentile, record, steady_clock, table

SECRET = "bench-signing-secret"
TOKEN = "xoxb-bench"
TOKEN_KEY = "bench-token-key-of-at-least-32-characters"
MODES = ("token", "oauth")
SCOPE = ScopeRef("slack", "T1", "C1")


async def started_quizzes(
    engine: Engine, count: int, people: People | None = None
) -> list[tuple[str, str]]:
    """``count`` players with a quiz waiting for its first answer (and, as after their
    /quiz, their users.info cached in ``people``): (player id, the action id they will
    click)."""
    clicks = []
    for start in range(0, count, 1000):
        ids = [f"U{n:06d}" for n in range(start, min(count, start + 1000))]
        views = await asyncio.gather(
            *(engine.start_quiz(PlayerRef("slack", i, i), SCOPE, "offloading", "en") for i in ids)
        )
        if people is not None:
            await asyncio.gather(*(people.lookup("T1", i, i) for i in ids))
        for index, (player, view) in enumerate(zip(ids, views, strict=True)):
            assert isinstance(view, QuestionView)
            clicks.append((player, view.choices[index % len(view.choices)].action_id))
    return clicks


async def open_loop(
    driver: SlackDriver, fake: FakeSlack, clicks: list[tuple[str, str]], rate: float, seconds: float
) -> dict[str, float]:
    """Poisson arrivals; each request is signed beforehand, so the clock measures the app."""
    rng = random.Random(rate)
    loop = asyncio.get_running_loop()
    arrivals, moment = [], rng.expovariate(rate)
    while moment < seconds and len(arrivals) < len(clicks):
        arrivals.append(moment)
        moment += rng.expovariate(rate)
    requests = []
    for number, (player, action_id) in enumerate(clicks[: len(arrivals)]):
        key = f"bench-{rate}-{number}"
        body = driver.click_body(action_id, player, key).encode()
        requests.append((key, body))
    del clicks[: len(arrivals)]
    sent: dict[str, float] = {}
    latencies: list[float] = []
    done = asyncio.Event()

    def arrived(call: Call) -> None:
        if call.method == "response_url" and call.key in sent:
            latencies.append(loop.time() - sent.pop(call.key))
            if len(latencies) == len(requests):
                done.set()

    fake.on_call = arrived
    failures = 0
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as session:

        async def one(key: str, body: bytes) -> None:
            nonlocal failures
            headers = signed_headers(SECRET, body)
            sent[key] = loop.time()
            async with session.post(driver.app_url, data=body, headers=headers) as resp:
                await resp.read()
                failures += resp.status != 200

        with steady_clock():  # this process is the fake and the load, never the bot
            start = loop.time()
            tasks = []
            for at, (key, body) in zip(arrivals, requests, strict=True):
                await asyncio.sleep(max(0.0, start + at - loop.time()))
                tasks.append(asyncio.create_task(one(key, body)))
            await asyncio.gather(*tasks)
            await asyncio.wait_for(done.wait(), 60)
            elapsed = loop.time() - start
    fake.on_call = None
    return {
        "offered": rate,
        "clicks": len(requests),
        "achieved": len(requests) / elapsed,
        "p50": percentile(latencies, 50),
        "p99": percentile(latencies, 99),
        "failures": failures,
        "elapsed": elapsed,
    }


async def drive(port: int, app_url: str, seconds: float) -> None:
    """The child process: the fake Slack and the load generator, off the bot's loop. It
    says "ready", reads the clicks and rates as one JSON line, prints the results."""
    fake = FakeSlack(anyone=User("en-US", "Player"))
    await fake.start(port)
    print("ready", flush=True)
    loop = asyncio.get_running_loop()
    line = await loop.run_in_executor(None, sys.stdin.readline)
    order = json.loads(line)
    clicks = [tuple(c) for c in order["clicks"]]
    driver = SlackDriver(fake, app_url, SECRET)
    results = [await open_loop(driver, fake, clicks, 50, 1.0)]  # warm-up
    for rate in order["rates"]:
        results.append(await open_loop(driver, fake, clicks, rate, seconds))
    await fake.stop()
    print(json.dumps(results[1:]), flush=True)


async def installed(engine: Engine, api_url: str) -> tuple[SlackSettings, People]:
    """Add to Slack's settings, with workspace T1 installed (its token the fake's)."""
    installations = SlackInstallations(engine.installs, Sealer([TOKEN_KEY]))
    await installations.async_save(
        Installation(
            team_id="T1",
            bot_token=TOKEN,
            bot_id="BQUIZBOT",
            bot_user_id="UQUIZBOT",
            bot_scopes="commands,chat:write,users:read,files:read",
            user_id="UADMIN",
        )
    )
    settings = SlackSettings(
        signing_secret=SECRET,
        client_id="1111.2222",
        client_secret="client-secret",
        token_key=TOKEN_KEY,
        http=True,
        api_url=api_url,
    )
    return settings, People(Clients(AsyncWebClient(base_url=api_url), installations))


@dataclass
class Rig:
    """The bot's side of a Slack benchmark: its engine on a throwaway SQLite store, and
    the child process running the fake Slack and the load (lines of JSON both ways)."""

    child: asyncio.subprocess.Process
    api_url: str
    app_port: int
    engine: Engine
    runner: web.AppRunner | None = None

    async def serve(self, settings: SlackSettings, people: People) -> None:
        """The real bolt app over HTTP on the port the child sends to."""
        app = build_app(self.engine, settings, people)
        self.runner = web.AppRunner(web_app(app), access_log=None)
        await self.runner.setup()
        await web.TCPSite(self.runner, "127.0.0.1", self.app_port).start()

    async def send(self, data: object) -> None:
        assert self.child.stdin is not None
        self.child.stdin.write(json.dumps(data).encode() + b"\n")
        await self.child.stdin.drain()

    async def receive(self) -> Any:
        assert self.child.stdout is not None
        return json.loads(await self.child.stdout.readline())


@contextlib.asynccontextmanager
async def rig(module: str, *args: str) -> AsyncIterator[Rig]:
    """Start ``python -m <module> --drive FAKE_PORT APP_URL *args`` and the engine; stop
    both, and remove the store, whatever happens."""
    workdir = Path(tempfile.mkdtemp(prefix="quizbot-slack-bench-"))
    fake_port, app_port = free_port(), free_port()
    app_url = f"http://127.0.0.1:{app_port}/slack/events"
    child = await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", module, "--drive", str(fake_port), app_url, *args),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    assert child.stdout is not None
    store = await Store.open(workdir / "bench.db")
    built = None
    try:
        assert (await child.stdout.readline()).strip() == b"ready"
        engine = Engine(load_catalog([SHIPPED_BANKS]), store)
        built = Rig(child, f"http://127.0.0.1:{fake_port}/api/", app_port, engine)
        yield built
        await child.wait()
    finally:
        if child.returncode is None:
            child.kill()
            await child.wait()
        if built is not None and built.runner is not None:
            await built.runner.cleanup()
        await store.close()
        shutil.rmtree(workdir, ignore_errors=True)


async def measure(rates: list[int], seconds: float, mode: str) -> list[dict[str, float]]:
    """The bot (engine, store, the bolt app over HTTP) in this process; the fake Slack and
    the load generator in a child, as Slack's servers are elsewhere."""
    async with rig("bench.slack_clicks", "--seconds", str(seconds)) as bot:
        if mode == "oauth":
            settings, people = await installed(bot.engine, bot.api_url)
        else:
            settings = SlackSettings(TOKEN, SECRET, api_url=bot.api_url)
            people = People(Clients(AsyncWebClient(TOKEN, base_url=bot.api_url)))
        await bot.serve(settings, people)
        needed = sum(int(r * seconds * 1.3) + 50 for r in rates) + 100
        clicks = await started_quizzes(bot.engine, needed, people)
        await bot.send({"clicks": clicks, "rates": rates})
        found: list[dict[str, float]] = await bot.receive()
    return found


def report(measured: dict[str, list[dict[str, float]]], seconds: float) -> str:
    rows = [
        [
            mode, str(r["offered"]), str(int(r["clicks"])), f"{r['achieved']:.0f}",
            ms(r["p50"]), ms(r["p99"]), str(int(r["failures"])),
        ]
        for mode, results in measured.items()
        for r in results
    ]  # fmt: skip
    header = ["mode", "offered/s", "clicks", "achieved/s", "p50 ms", "p99 ms", "non-200"]
    text = (
        f"{table(header, rows)}\n\nThe bot (bolt app over HTTP, engine, SQLite store) in one"
        " process and event loop; the fake Slack and the open-loop load generator in another."
        f" {seconds:.0f} s per rate. Target: ≥ 500 clicks/s sustained with p99 ≤ 100 ms"
        " request-to-feedback."
    )
    if set(MODES) <= set(measured):
        ratios = [
            f"{o['offered']:.0f}/s: p50 {o['p50'] / t['p50']:.2f}×, p99 {o['p99'] / t['p99']:.2f}×"
            for t, o in zip(measured["token"], measured["oauth"], strict=True)
        ]
        text += " Add to Slack against one token, same run: " + "; ".join(ratios) + "."
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--rates", default="250,500,750")
    parser.add_argument("--no-record", action="store_true", help="print, do not append")
    parser.add_argument("--modes", default=",".join(MODES), help="token, oauth or both")
    parser.add_argument(
        "--drive", nargs=2, metavar=("FAKE_PORT", "APP_URL"), help=argparse.SUPPRESS
    )
    args = parser.parse_args()
    if args.drive:
        asyncio.run(drive(int(args.drive[0]), args.drive[1], args.seconds))
        return
    rates = [int(r) for r in args.rates.split(",")]
    tune_gc()  # the bot runs in this process: tuned as `quizbot run` tunes it
    modes = [m for m in args.modes.split(",") if m in MODES]
    measured = {mode: asyncio.run(measure(rates, args.seconds, mode)) for mode in modes}
    body = report(measured, args.seconds)
    if args.no_record:
        print(body)
    else:
        record("Slack clicks", body)


if __name__ == "__main__":
    main()

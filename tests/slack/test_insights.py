"""Insights and the dashboard link on Slack end to end: the real bolt app over signed
HTTP, the real engine and store on a fake clock, the fake Slack; the link opens the
bot's own dashboard over HTTP on 127.0.0.1."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientSession, web

from adapters.web.server import dashboard_app
from bot.content.banks import Catalog
from bot.domain.insight_links import Signer
from bot.persistence import Store
from bot.services.engine import Engine
from fakes.slack import FakeSlack, SlackDriver, buttons, shown_text

from ..support.browser import CHROMIUM, DRIVER, browser, load, texts
from ..support.channel import FakeClock, moment
from .support import answer_key, right_letter

SECRET = "a-test-secret-of-32-characters!!"
ADMIN = "UADMIN"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(moment("2027-01-04T07:00"))


@pytest.fixture
async def dashboard(unused_port: int) -> str:
    return f"http://127.0.0.1:{unused_port}"


@pytest.fixture
async def engine(
    catalog: Catalog, tmp_path: Path, clock: FakeClock, dashboard: str
) -> AsyncIterator[Engine]:
    store = await Store.open(tmp_path / "insights.db")
    yield Engine(catalog, store, clock, count_refresh=0.0, dashboard=Signer(SECRET, dashboard))
    await store.close()


def private(reply: dict[str, Any]) -> str:
    assert reply["response_type"] == "ephemeral" and reply["replace_original"] is False
    return shown_text(reply)


async def play_tiny(slack: SlackDriver, catalog: Catalog, user: str, rights: list[bool]) -> None:
    key = answer_key(catalog)
    question = await slack.command("tiny", user)
    for right in rights:
        letter = right_letter(question, key)
        if not right:
            letter = next(c for c in buttons(question) if c != letter)
        feedback = await slack.click(buttons(question)[letter], user)
        follow = buttons(feedback)
        if not follow:
            return
        (next_id,) = follow.values()
        question = await slack.click(next_id, user)


async def test_an_admin_sees_the_teams_insights(slack: SlackDriver, catalog: Catalog) -> None:
    await play_tiny(slack, catalog, "U1", [True, False])
    await play_tiny(slack, catalog, "U2", [False, False])
    shown = private(await slack.command("insights tiny week", ADMIN))
    assert "Insights · last 7 days · Tiny test bank" in shown
    assert "Tiny test bank: players 2 · answers 4 · right at first try 25% · retention —" in shown
    assert "“Two times three?”: 0% right at first try (of 2) · most picked wrong: “Five”" in shown
    assert "No flagged questions." in shown
    assert "Active players per day: 01-04: 2" in shown
    refused = private(await slack.command("insights", "U1"))
    assert refused == "Only an admin can do that."
    hindi = private(await slack.command("insights week", "UHI"))
    assert hindi == "यह केवल एडमिन कर सकते हैं।"  # a member, in their own language


@pytest.mark.e2e  # a real browser
async def test_the_dashboard_link_opens_the_teams_dashboard(
    slack: SlackDriver, catalog: Catalog, engine: Engine, dashboard: str
) -> None:
    await play_tiny(slack, catalog, "U1", [True, True])
    assert private(await slack.command("dashboard", "U1")) == "Only an admin can do that."
    shown = private(await slack.command("dashboard", ADMIN))
    assert "Your team's dashboard, only for you: the link works for 24 hours." in shown
    (link,) = re.findall(rf"Open: ({re.escape(dashboard)}/dashboard/[0-9a-f.]+/)", shown)
    port = int(dashboard.rsplit(":", 1)[1])
    runner = web.AppRunner(dashboard_app(engine, engine.insights.signer))  # type: ignore[arg-type]
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    try:
        async with ClientSession() as http:
            async with http.get(link) as page:
                assert page.status == 200
                body = await page.text()
            async with http.get(link.replace("/dashboard/", "/dashboard/x")) as forged:
                assert forged.status == 403
        if CHROMIUM and DRIVER:  # and as the admin sees it, in a real browser
            chromium = await asyncio.to_thread(browser, "en")
            try:
                assert await load(chromium, link, "from-slack") == []
                assert texts(chromium, "svg#points g.bar text.label") == ["Ada"]
                assert texts(chromium, "svg#points g.bar text.value") == ["30"]
            finally:
                await asyncio.to_thread(chromium.quit)
    finally:
        await runner.cleanup()
    assert "<title>Leaderboard · all time · quizbot dashboard</title>" in body
    # The heading names the workspace as the command's team_domain gave it ("fake").
    assert "<h1>quizbot dashboard · fake</h1>" in body
    label = '<text class="label" x="232" y="24" text-anchor="end"><title>Ada</title>Ada</text>'
    assert label in body


async def test_the_daily_reveal_offers_admins_the_dashboard(
    slack: SlackDriver, fake: FakeSlack, engine: Engine, clock: FakeClock
) -> None:
    on = private(await slack.command("daily on tiny 07:30 UTC 1", ADMIN))
    assert on.startswith("Daily question on: Tiny test bank")
    clock.advance(31 * 60)
    await engine.scheduler.tick()
    clock.advance(3600)
    await engine.scheduler.tick()
    post, reveal = fake.channel_posts("C1")
    assert buttons({"blocks": post.blocks}).keys() != {"Dashboard (admins)"}
    assert buttons({"blocks": reveal.blocks}) == {"Dashboard (admins)": "qz:l:dashboard"}
    link = private(await slack.click("qz:l:dashboard", ADMIN, message_ts=reveal.ts))
    assert link.startswith("Your team's dashboard, only for you:")
    refused = private(await slack.click("qz:l:dashboard", "U1", message_ts=reveal.ts))
    assert refused == "Only an admin can do that."
    assert fake.channel_posts("C1")[1].edits == 0  # the public results stay as they are


async def test_forget_me_asks_then_deletes(slack: SlackDriver, catalog: Catalog) -> None:
    await play_tiny(slack, catalog, "U1", [True, True])
    await play_tiny(slack, catalog, "U2", [True, False])
    asked = await slack.command("forget-me", "U1")
    assert private(asked).startswith("This deletes everything quizbot keeps about you")
    assert buttons(asked) == {"Delete my data": "qz:f:confirmed"}
    done = await slack.click("qz:f:confirmed", "U1")
    assert shown_text(done).startswith("Done: your data in this workspace is deleted (")
    board = shown_text(await slack.command("leaderboard", "U2"))
    assert "Ada" not in board and "1. Grace Hopper — 10 pts" in board
    again = await slack.click("qz:f:confirmed", "U1")
    assert shown_text(again) == "quizbot keeps nothing about you in this workspace."


async def test_insights_show_the_trend_week_by_week(
    slack: SlackDriver, catalog: Catalog, clock: FakeClock
) -> None:
    await play_tiny(slack, catalog, "U1", [True, False])
    clock.advance(7 * 86400)
    await play_tiny(slack, catalog, "U2", [True, True])
    await play_tiny(slack, catalog, "U3", [True, True])
    shown = private(await slack.command("insights", ADMIN)).splitlines()
    assert shown[-2] == (
        "Week by week (from Monday): 01-04: 50% right at first try, 1 playing"
        " · 01-11: 100% right at first try, 2 playing"
    )


async def test_an_admin_sees_the_flagged_questions_with_why(
    slack: SlackDriver, catalog: Catalog
) -> None:
    # 20 players miss the first question with the same wrong choice: under 30 % right at
    # first try, and a choice nobody picks.
    for n in range(20):
        question = await slack.command("tiny", f"U{n:02d}")
        assert "One plus one?" in shown_text(question)
        (three,) = re.findall(r"^([A-E])\. Three$", shown_text(question), re.MULTILINE)
        await slack.click(buttons(question)[three], f"U{n:02d}")
    shown = private(await slack.command("insights flagged", ADMIN))
    assert shown.splitlines() == [
        "Flagged questions · all time",
        "quizbot's banks",
        "• Tiny test bank: “One plus one?” — 0% right at first try (0–16%, of 20)"
        " · most picked wrong: “Three”",
        "   ↳ under 30% right at first try: check the key and the wording; a choice nobody"
        " picks: it fools no one",
    ]
    refused = private(await slack.command("insights flagged", "U01"))
    assert refused == "Only an admin can do that."


async def test_the_knowledge_map_keeps_its_floor_and_names_only_who_opted_in(
    slack: SlackDriver, catalog: Catalog
) -> None:
    for n, rights in enumerate([[True, True]] * 3 + [[False, True]]):
        await play_tiny(slack, catalog, f"U{n + 1}", rights)
    assert private(await slack.command("share on", "U1")) == (
        "The team's knowledge map may now name you."
    )
    four = private(await slack.command("map", ADMIN))
    assert four.splitlines() == [
        "What the team knows",
        "• Tiny test bank: 4 started (the split shows from 5) · not started 0",
        "   solid: Ada",  # U1, who opted in
        "Solid: a chance to recall now of 90% or more, averaged over the questions met (from"
        " review cards). Counts show once 5 members have started a topic; only those who opted"
        " in are named.",
        "You have not opted in: the map counts you without your name.",
    ]
    await play_tiny(slack, catalog, "U5", [True, False])
    five = private(await slack.command("map", "U4")).splitlines()
    # Five have started: the split shows; U4 sees themselves, U1 is named by choice.
    assert five[1:3] == [
        "• Tiny test bank: solid 3 · shaky 2 · not started 0 · you: shaky",
        "   solid: Ada · shaky: u4",
    ]
    assert private(await slack.command("share off", "U1")) == (
        "The team's knowledge map no longer names you; you still count in its totals."
    )
    after = private(await slack.command("map", ADMIN)).splitlines()
    assert after[1:3] == [
        "• Tiny test bank: solid 3 · shaky 2 · not started 0",
        "Solid: a chance to recall now of 90% or more, averaged over the questions met (from"
        " review cards). Counts show once 5 members have started a topic; only those who opted"
        " in are named.",
    ]

"""Insights and the dashboard link on Discord, end to end: the real discord.py client
against the fake Discord, the real engine and store with a dashboard Signer, and a fake
clock (``engine.scheduler.tick()`` posts the daily question, its reveal and a race).

The fixture, by hand: Alice answers tiny-one right and tiny-two wrong ("Five"), Bob both
wrong (tiny-one "Four", tiny-two "Five"). That is 2 players, 4 answers, all first tries,
1 right: 25 %; no review was due, so no retention. The hardest question is tiny-two, 0 %
of 2 (wrong pick "Five"), then tiny-one, 50 % of 2 ("Four"); under 20 first tries nothing
is flagged; both played on one day, a streak of 1 day each."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

import pytest

from adapters.discord.phrases import TEXT
from bot.content.banks import Catalog
from bot.domain import actions
from bot.domain.identities import ScopeRef
from bot.domain.insight_links import Access, Signer
from bot.persistence import Store
from bot.services.engine import Engine
from bot.ui.messages import t
from fakes.discord import ALICE, BOB, CAROL, GUILD_ID, OWEN, FakeDiscord, FakeUser, Outcome

from ..support.channel import FakeClock, moment
from .support import running_bot

BERLIN = "Europe/Berlin"
BASE_URL = "https://quiz.example.com"
SIGNER = Signer("a-test-secret-of-32-characters!!", BASE_URL)
LINK = re.compile(re.escape(BASE_URL) + r"/dashboard/([0-9a-f]+\.[0-9a-f]{64})/")
ADMIN_ONLY = "Only an admin can do that."


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(moment("2026-11-02T08:00", BERLIN))


@pytest.fixture
async def engine(catalog: Catalog, store: Store, clock: FakeClock) -> Engine:
    return Engine(catalog, store, clock, dashboard=SIGNER)


@pytest.fixture
async def bot(fake: FakeDiscord, engine: Engine) -> AsyncIterator[None]:
    async with running_bot(fake, engine):
        yield


async def play_tiny(fake: FakeDiscord, user: FakeUser, picks: tuple[int, int]) -> None:
    """The tiny bank's quiz, picking these bank choices (by the id each button carries)."""
    outcome = await fake.slash("quiz", topic="tiny", user=user)
    message = outcome.message["id"]
    run = actions.decode(outcome.buttons[0]["custom_id"]).run_id  # type: ignore[union-attr]
    for position, choice in enumerate(picks):
        if position:
            outcome = await fake.click(message, outcome.buttons[0]["custom_id"], user=user)
        button = next(
            b
            for b in outcome.buttons
            if actions.decode(b["custom_id"]) == actions.AnswerAction(run, position, choice)
        )
        outcome = await fake.click(message, button["custom_id"], user=user)


async def play_fixture(fake: FakeDiscord) -> None:
    await play_tiny(fake, ALICE, (0, 0))  # right, then wrong ("Five")
    await play_tiny(fake, BOB, (2, 0))  # "Four", then "Five"


def dashboard_access(outcome: Outcome) -> Access | str:
    """What the link in a private reply grants, checked with the operator's secret."""
    found = LINK.search(outcome.text())
    assert found is not None, outcome.text()
    return SIGNER.check(found.group(1), moment("2026-11-02T09:00", BERLIN))


async def test_an_admin_sees_what_the_team_knows(fake: FakeDiscord, bot: None) -> None:
    await play_fixture(fake)
    shown = await fake.slash("quiz-insights", user=OWEN, topic="tiny", period="week")
    assert shown.ephemeral and shown.new_message
    [embed] = shown.embeds
    assert embed["title"] == "Insights · last 7 days · Tiny test bank"
    assert embed["description"].splitlines() == [
        "**Tiny test bank**: players 2 · answers 4 · right at first try 25% · retention —",
        "• “Two times three?”: 0% right at first try (of 2) · most picked wrong: “Five”",
        "• “One plus one?”: 50% right at first try (of 2) · most picked wrong: “Four”",
        "",
        "**Flagged questions**",
        "",
        "No flagged questions.",
    ]
    assert embed["footer"]["text"].splitlines() == [
        "Active players per day: 11-02: 2",
        "Streaks: Alice 1 day, Bob 1 day",
    ]
    # By role too; every topic and all time by default.
    everything = await fake.slash("quiz-insights", user=CAROL)
    assert everything.embeds[0]["title"] == "Insights · all time"
    assert "**Tiny test bank**: players 2 · answers 4 ·" in everything.text()


async def test_insights_are_for_admins_and_for_servers(fake: FakeDiscord, bot: None) -> None:
    await play_fixture(fake)
    refused = await fake.slash("quiz-insights", user=ALICE, topic="tiny", period="week")
    assert refused.ephemeral and refused.content == ADMIN_ONLY and refused.embeds == []
    unknown = await fake.slash("quiz-insights", user=OWEN, topic="nope")
    assert unknown.ephemeral
    assert unknown.content.splitlines() == [
        "Unknown topic(s): nope.",
        "",
        "Usage: /quiz-insights [topic:<topic>] [period:week\\|month\\|all] (admins);"
        " /quiz-dashboard (admins)",  # Discord shows "\\|" as "|" (not a spoiler)
    ]
    # Not offered in DMs; an out-of-date client sending it anyway is told where it works.
    for command in ("quiz-insights", "quiz-dashboard"):
        in_dm = await fake.slash(command, user=OWEN, guild=False)
        assert in_dm.ephemeral and in_dm.content == TEXT.t("en", "dm_no_insights")


async def test_a_hindi_admin_reads_insights_in_hindi(fake: FakeDiscord, bot: None) -> None:
    await play_fixture(fake)
    shown = await fake.slash("quiz-insights", user=OWEN, locale="hi", period="week")
    assert shown.embeds[0]["title"] == "Insights · पिछले 7 दिन"
    assert "**छोटा परीक्षण बैंक**: खिलाड़ी 2 · उत्तर 4 · पहली बार में सही 25% ·" in shown.text()


async def test_the_dashboard_link_is_an_admins_alone(
    fake: FakeDiscord, bot: None, engine: Engine
) -> None:
    link = await fake.slash("quiz-dashboard", user=OWEN)
    # The dashboard's heading names the server as Discord does.
    assert await engine.dashboard.workspace_name(ScopeRef("discord", GUILD_ID)) == "ML team"
    assert link.ephemeral and link.text().startswith(
        "Your team's dashboard, only for you: the link works for 24 hours.\n"
        f"Open {BASE_URL}/dashboard/"
    )
    access = dashboard_access(link)
    assert isinstance(access, Access) and access.scope == ScopeRef("discord", GUILD_ID)
    refused = await fake.slash("quiz-dashboard", user=ALICE)
    assert refused.ephemeral and refused.content == ADMIN_ONLY


async def test_without_a_secret_there_is_no_dashboard(
    fake: FakeDiscord, catalog: Catalog, store: Store, clock: FakeClock
) -> None:
    async with running_bot(fake, Engine(catalog, store, clock)):
        off = await fake.slash("quiz-dashboard", user=OWEN)
    assert off.ephemeral and off.content == (
        "The dashboard is not set up: the operator sets QUIZBOT\\_DASHBOARD\\_SECRET and a web"
        " port."  # Discord shows "\\_" as "_" (not italics)
    )


async def test_the_dashboard_button_on_a_daily_reveal(
    fake: FakeDiscord, bot: None, engine: Engine, clock: FakeClock
) -> None:
    on = await fake.slash(
        "quiz-daily",
        user=OWEN,
        action="on",
        topics="tiny",
        time="09:30",
        timezone=BERLIN,
        reveal_hours=2.0,
    )
    assert on.ephemeral
    clock.at = moment("2026-11-02T09:30", BERLIN)
    await engine.scheduler.tick()
    clock.at = moment("2026-11-02T11:30", BERLIN)
    await engine.scheduler.tick()
    reveal = fake.channel_posts()[-1]
    assert [(b["label"], b["custom_id"]) for b in reveal.buttons] == [
        ("Dashboard (admins)", "qz:l:dashboard")
    ]
    await assert_dashboard_button(fake, reveal)


async def test_the_dashboard_button_on_a_race_podium(
    fake: FakeDiscord, bot: None, engine: Engine, clock: FakeClock
) -> None:
    await fake.slash("quiz-race", user=BOB, topic="tiny", questions=1, seconds=10)
    question = fake.channel_posts()[-1]
    first = question.buttons[0]["custom_id"]
    await fake.click(question.message["id"], first, user=ALICE)
    clock.advance(10)
    await engine.scheduler.tick()
    podium = fake.channel_posts()[-1]
    assert podium.embeds[0]["title"] == t("en", "race_podium", topic="Tiny test bank")
    assert [b["label"] for b in podium.buttons] == ["Dashboard (admins)"]
    await assert_dashboard_button(fake, podium)


async def assert_dashboard_button(fake: FakeDiscord, post: Outcome) -> None:
    """An admin's click gets the link privately, a member's a refusal; the public post
    is never replaced or edited."""
    post_id = post.message["id"]
    before, edits = fake.messages[post_id], len(fake.edits)
    custom_id = post.button("Dashboard (admins)")["custom_id"]
    for user in (OWEN, CAROL):
        clicked = await fake.click(post_id, custom_id, user=user)
        assert (clicked.new_message, clicked.ephemeral) == (True, True)
        assert clicked.callback_type in (4, 5)  # never 7 (update) or 6 (deferred update)
        assert isinstance(dashboard_access(clicked), Access)
    member = await fake.click(post_id, custom_id, user=ALICE)
    assert (member.new_message, member.ephemeral) == (True, True)
    assert member.content == ADMIN_ONLY
    assert fake.messages[post_id] == before and len(fake.edits) == edits


async def test_forget_me_asks_then_deletes(fake: FakeDiscord, bot: None) -> None:
    await play_fixture(fake)
    asked = await fake.slash("quiz-forget-me", user=ALICE)
    assert asked.ephemeral and "This deletes everything quizbot keeps about you" in asked.text()
    assert [(b["label"], b["custom_id"]) for b in asked.buttons] == [
        ("Delete my data", "qz:f:confirmed")
    ]
    done = await fake.click(asked.message["id"], "qz:f:confirmed", user=ALICE)
    assert done.ephemeral
    assert done.text().startswith("Done: your data in this workspace is deleted (")
    board = (await fake.slash("quiz-leaderboard", user=BOB)).text()
    assert "Alice" not in board
    again = await fake.click(asked.message["id"], "qz:f:confirmed", user=ALICE)
    assert again.text() == "quizbot keeps nothing about you in this workspace."


async def test_the_knowledge_map_and_sharing_on_discord(fake: FakeDiscord, bot: None) -> None:
    await play_fixture(fake)
    shared = await fake.slash("quiz-share", user=ALICE, on=True)
    assert shared.ephemeral and shared.content == "The team's knowledge map may now name you."
    shown = await fake.slash("quiz-map", user=ALICE)
    # Two have started: under the floor, no split; Alice sees herself, named by her choice.
    assert shown.ephemeral and shown.text().splitlines() == [
        "What the team knows",
        "• **Tiny test bank**: 2 started (the split shows from 5) · not started 0 · you: shaky",
        "   shaky: Alice",
        "Solid: a chance to recall now of 90% or more, averaged over the questions met (from"
        " review cards). Counts show once 5 members have started a topic; only those who opted"
        " in are named.",
        "You opted in: the map names you.",
    ]
    assert (await fake.slash("quiz-share", user=ALICE, on=False)).content == (
        "The team's knowledge map no longer names you; you still count in its totals."
    )


async def test_the_flagged_questions_on_discord(fake: FakeDiscord, bot: None) -> None:
    await play_fixture(fake)
    shown = await fake.slash("quiz-insights", user=OWEN, flagged=True)
    assert shown.ephemeral
    assert shown.embeds[0]["title"] == "Flagged questions · all time"
    assert shown.embeds[0]["description"] == "No flagged questions."
    refused = await fake.slash("quiz-insights", user=ALICE, flagged=True)
    assert refused.content == ADMIN_ONLY

"""The App Home tab end to end: the real bolt app over signed HTTP (``app_home_opened``
events and clicks on the Home), the real engine and store on a fake clock, the fake Slack
recording each view the app publishes with ``views.publish``."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from slack_sdk.models.views import View

from adapters.slack import parse
from adapters.slack.home import HOME_REVIEW, SHOWN_TOPICS
from bot.content.banks import Catalog
from bot.domain.actions import AnswerAction, decode
from bot.domain.identities import PlayerRef
from bot.domain.insight_links import Signer
from bot.domain.memory import DAY, Memory
from bot.persistence import Store
from bot.services.engine import Engine
from bot.ui.views import Feedback, QuestionView
from fakes.slack import FakeSlack, SlackDriver, buttons, payloads, shown_text, view_problems

from ..support.channel import FakeClock, choices_only, moment
from ..support.quiz import TEAM, play, wrong_choice
from .support import answer, answer_key

__all__ = ["choices_only"]  # the module's catalogue: choice questions only

DASHBOARD = "https://quiz.example.com"
ADMIN = "UADMIN"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(moment("2026-11-02T07:00"))  # a Monday, 08:00 in Berlin


@pytest.fixture
async def engine(catalog: Catalog, tmp_path: Path, clock: FakeClock) -> AsyncIterator[Engine]:
    store = await Store.open(tmp_path / "home.db", memory=Memory(fuzz=False))
    signer = Signer("a-test-secret-of-32-characters!!", DASHBOARD)
    yield Engine(catalog, store, clock, count_refresh=0.0, dashboard=signer)
    await store.close()


async def home_of(slack: SlackDriver, fake: FakeSlack, user: str) -> dict[str, Any]:
    """Open the member's Home tab; the view the app publishes, checked as Slack would."""
    count = len(fake.published.get(user, [])) + 1
    assert await slack.open_home(user) == 200
    view = await fake.home(user, count)
    View(**view).validate_json()  # slack_sdk's own models, as Slack checks a view
    assert view_problems(view) == []
    return view


async def tiny_missed(slack: SlackDriver, fake: FakeSlack, catalog: Catalog, user: str) -> str:
    """The tiny quiz, both questions answered wrong (both cards are due tomorrow); the
    Home the app republishes after its last answer."""
    key, question = answer_key(catalog), await slack.command("tiny", user)
    before = len(fake.published.get(user, []))
    while True:
        feedback = await answer(slack, fake, question, key, user, right=False)
        follow = buttons(feedback)
        if not follow:
            return shown_text(await fake.home(user, before + 1))
        (next_id,) = follow.values()
        question = await slack.click(next_id, user)


async def test_a_member_sees_the_cards_due_their_streak_topics_and_reminder(
    slack: SlackDriver, fake: FakeSlack, clock: FakeClock, catalog: Catalog
) -> None:
    await slack.command("remind on 09:00 Europe/Berlin", "U1")
    learned = await tiny_missed(slack, fake, catalog, "U1")
    assert "Nothing to review today: your next card is due in 1 day." in learned
    clock.advance(DAY)
    assert await slack.open_home("U1", tab="messages") == 200  # nothing to publish there
    view = await home_of(slack, fake, "U1")
    assert shown_text(view) == (
        "Your quizbot\n"
        "2 cards due today\n"
        "The questions come one at a time in quizbot's Messages tab.\n"
        "Review now\n"
        "Streak: 1 day in a row with an answer\n"
        "Review reminder on: at 09:00 (Europe/Berlin), on days you have cards due.\n"
        "Your quiz stats\n"
        "Tiny test bank: 0/2 right (0%) · 0 points\n"
        "    2 seen · 2 due today · retention — · chance to recall now 0%\n"
        "A question you missed counts as not recalled until you answer it right in a review."
    )
    assert buttons(view) == {"Review now": HOME_REVIEW}
    assert len(fake.published["U1"]) == 2  # after the quiz, and on opening the Home tab


async def test_review_now_starts_the_review_and_the_home_follows_the_answers(
    slack: SlackDriver, fake: FakeSlack, clock: FakeClock, catalog: Catalog
) -> None:
    await tiny_missed(slack, fake, catalog, "U1")
    clock.advance(DAY)
    home = await home_of(slack, fake, "U1")
    assert await slack.click_home(HOME_REVIEW, home, "U1") == 200
    # The first question, in the app's DM (its Messages tab), as /quiz review asks it.
    (question,) = await fake.wait_for(lambda: fake.dms("U1") or None)
    shown = shown_text(question)
    assert shown.startswith("Review 1/2 · Tiny test bank\nOne plus one?\n")
    assert list(buttons(question)) == ["A", "B", "C"]
    published = len(fake.published["U1"])
    feedback = shown_text(await answer(slack, fake, question, answer_key(catalog), "U1", True))
    assert "Review 1/2 · Tiny test bank" in feedback and "✅ Right!" in feedback
    after = shown_text(await fake.home("U1", published + 1))
    assert "1 card due today" in after
    assert "Streak: 2 days in a row with an answer" in after  # yesterday's quiz, today's review
    assert "You have no review reminder." in after
    assert "Usage: /quiz remind on <HH:MM> <timezone, e.g. Europe/Berlin> | off | status" in after


async def test_an_admin_sees_the_flagged_questions_and_the_dashboard_a_member_does_not(
    slack: SlackDriver, fake: FakeSlack, engine: Engine
) -> None:
    # 20 first tries, all wrong: both tiny questions are flagged (too hard, a choice unpicked).
    for number in range(20):
        await play(engine, PlayerRef("slack", f"UP{number:02d}", "P"), "tiny", right=False)
    shown = shown_text(await home_of(slack, fake, ADMIN))
    assert (
        "For admins\n2 flagged questions: /quiz insights flagged says why.\n"
        # All 20 missed both: none solid.
        "Knowledge map: 0 solid of 20 who started, over the topics 5 or more have started (1);"
        " /quiz map shows each.\n"
    ) in shown
    assert "Your team's dashboard, only for you: the link works for 24 hours." in shown
    assert re.search(
        rf"\nOpen: {re.escape(DASHBOARD)}/dashboard/[0-9a-f]+\.[0-9a-f]{{64}}/\n", shown
    )
    assert shown.endswith("\nOpen this tab again for a fresh link.")
    member = shown_text(await home_of(slack, fake, "U1"))
    assert member.startswith("Your quizbot\nYou have no review cards yet")
    for admins_only in ("For admins", "flagged", "dashboard", DASHBOARD):
        assert admins_only not in member


async def test_a_hindi_member_gets_the_home_in_hindi_and_a_bengali_one_in_bengali(
    slack: SlackDriver, fake: FakeSlack, clock: FakeClock, catalog: Catalog
) -> None:
    await tiny_missed(slack, fake, catalog, "UHI")
    clock.advance(DAY)
    view = await home_of(slack, fake, "UHI")
    shown = shown_text(view)
    assert shown.startswith("आपका quizbot\nआज रिव्यू के लिए 2 कार्ड बाकी हैं\n")
    assert "प्रश्न quizbot के Messages टैब में एक-एक करके आएँगे।" in shown
    assert buttons(view) == {"अभी रिव्यू करें": HOME_REVIEW}
    assert "लगातार दिन: 1 (रोज़ कम से कम एक उत्तर)\nआपका कोई रिव्यू रिमाइंडर नहीं है।" in shown
    assert "छोटा परीक्षण बैंक: 2 में 0 सही (0%) · 0 अंक" in shown
    bengali = shown_text(await home_of(slack, fake, "UBN"))
    assert bengali.startswith("আপনার quizbot\nএখনও আপনার রিভিউয়ের কোনো কার্ড নেই")
    assert "টানা দিন: এখনও নেই। আজ একটি প্রশ্নের উত্তর দিয়ে শুরু করুন।" in bengali


async def test_a_member_of_many_topics_sees_ten_and_how_many_more(
    slack: SlackDriver, fake: FakeSlack, engine: Engine, clock: FakeClock
) -> None:
    ada = PlayerRef("slack", "U1", "Ada")
    banks = [bank for bank in engine.catalog.banks if bank.id != "tiny"][:12]
    for bank in banks:  # one question of each, missed
        question = await engine.start_quiz(ada, TEAM, bank.id, "en", 1)
        assert isinstance(question, QuestionView)
        missed = decode(wrong_choice(engine, question))
        assert isinstance(missed, AnswerAction)
        assert isinstance(await engine.click(ada, missed), Feedback)
    clock.advance(DAY)
    view = await home_of(slack, fake, "U1")
    shown = shown_text(view)
    assert "\n12 cards due today\n" in shown
    assert shown.count(" seen · 1 due today · ") == SHOWN_TOPICS
    assert "…and 2 more topics: /quiz stats shows them all." in shown
    assert len(view["blocks"]) <= 100
    texts = [block["text"]["text"] for block in view["blocks"] if block["type"] == "section"]
    assert all(len(text) <= 3000 for text in texts)


async def test_a_failing_views_publish_is_one_warning_and_the_play_goes_on(
    slack: SlackDriver, fake: FakeSlack, catalog: Catalog, caplog: pytest.LogCaptureFixture
) -> None:
    def warned() -> list[str]:
        return [
            r.getMessage()
            for r in caplog.records
            if r.levelno == logging.WARNING and "views.publish" in r.getMessage()
        ]

    fake.faults["views.publish"] = ["internal_error", "internal_error"]
    key, question = answer_key(catalog), await slack.command("tiny", "U1")
    first = await answer(slack, fake, question, key, "U1", right=True)
    last = await answer(
        slack, fake, await slack.click(buttons(first)["Next question"]), key, "U1", True
    )
    assert "You got 2 of 2 right" in shown_text(last)  # the Home after it could not be published
    assert await slack.open_home("U1") == 200
    for _ in range(500):  # until the app has had Slack's answer (a fault is not recorded)
        if len(warned()) == 2:
            break
        await asyncio.sleep(0.01)
    assert warned() == ["views.publish failed: internal_error"] * 2
    assert "Tiny test bank: 2/2 right (100%)" in shown_text(await home_of(slack, fake, "U1"))


def test_the_home_events_and_clicks_are_read() -> None:
    opened = payloads.event_callback("T1", payloads.app_home_opened("U1", "home"))
    assert parse.read(opened) == parse.HomeOpened("T1", "U1", "home")
    messages = payloads.event_callback("T1", payloads.app_home_opened("U1", "messages"))
    assert parse.read(messages) == parse.HomeOpened("T1", "U1", "messages")
    nobody = payloads.event_callback("T1", {"type": "app_home_opened", "tab": "home"})
    assert parse.read(nobody) is None
    view = {"id": "V1", "type": "home", "blocks": []}
    clicked = payloads.home_block_actions("T1", HOME_REVIEW, "U1", "k", view)
    assert parse.read(clicked) == parse.HomeClick("T1", "U1", "u1", HOME_REVIEW)
    modal = payloads.home_block_actions("T1", HOME_REVIEW, "U1", "k", {**view, "type": "modal"})
    assert parse.read(modal) is None  # neither a Home's click nor a message's

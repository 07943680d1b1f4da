"""Spaced-repetition review on Discord, end to end: the real discord.py client against
the fake Discord, the real engine and store (FSRS without fuzz, so intervals are exact),
and a fake clock moved a day at a time; reminders are sent by ``engine.scheduler.tick()``
as direct messages (POST /users/@me/channels, then a message in that channel)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from adapters.discord.render import safe
from bot.content.banks import Bank, Catalog, Question
from bot.domain.memory import Memory
from bot.persistence import Store
from bot.services.engine import Engine
from fakes.discord import ALICE, BOB, OWEN, FakeDiscord, FakeUser, Outcome

from ..support.channel import FakeClock, moment
from .support import answer_button, running_bot

BERLIN = "Europe/Berlin"
DAY = 24 * 3600
OFFLOADING = "Optimizer state offloading to CPU and NVMe"


def berlin(day: str, clock_time: str) -> float:
    return moment(f"{day}T{clock_time}", BERLIN)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(berlin("2026-11-02", "08:00"))


@contextlib.asynccontextmanager
async def quizbot(
    fake: FakeDiscord, catalog: Catalog, clock: FakeClock, db: Path
) -> AsyncIterator[Engine]:
    """The bot on its database, as `quizbot run discord` would run it (again, after a
    restart, on the same file)."""
    store = await Store.open(db, memory=Memory(fuzz=False))
    try:
        engine = Engine(catalog, store, clock)
        async with running_bot(fake, engine):
            yield engine
    finally:
        await store.close()


@pytest.fixture
async def engine(
    fake: FakeDiscord, catalog: Catalog, clock: FakeClock, tmp_path: Path
) -> AsyncIterator[Engine]:
    async with quizbot(fake, catalog, clock, tmp_path / "quiz.db") as running:
        yield running


def bank_of(catalog: Catalog, bank_id: str) -> Bank:
    bank = catalog.get(bank_id)
    assert bank is not None
    return bank


def shown(bank: Bank, outcome: Outcome, locale: str = "en") -> Question:
    """The bank question a quiz or review message shows."""
    [question] = [q for q in bank.questions if safe(bank.text(q.prompt, locale)) in outcome.text()]
    return question


async def play(
    fake: FakeDiscord,
    clock: FakeClock,
    bank: Bank,
    pattern: list[bool],
    user: FakeUser = ALICE,
    locale: str = "en-US",
) -> Outcome:
    """A whole quiz of the bank answered right or wrong by the pattern, a minute between
    answers (so the cards come due in the order they were answered); the last outcome."""
    outcome = await fake.slash("quiz", topic=bank.id, user=user, locale=locale)
    message = outcome.message["id"]
    for position, correct in enumerate(pattern):
        if position:
            outcome = await fake.click(message, outcome.buttons[0]["custom_id"], user=user)
        clock.advance(60)
        button = answer_button(outcome, bank.questions[position], correct)
        outcome = await fake.click(message, button["custom_id"], user=user, locale=locale)
    return outcome


async def review(
    fake: FakeDiscord, bank: Bank, pattern: list[bool], user: FakeUser = ALICE
) -> list[str]:
    """/quiz-review answered right or wrong by the pattern: what each answer said."""
    outcome = await fake.slash("quiz-review", user=user)
    message = outcome.message["id"]
    said = []
    for position, correct in enumerate(pattern):
        if position:
            outcome = await fake.click(message, outcome.buttons[0]["custom_id"], user=user)
        button = answer_button(outcome, shown(bank, outcome), correct)
        outcome = await fake.click(message, button["custom_id"], user=user)
        said.append(outcome.text())
    return said


async def test_review_offers_exactly_the_questions_answered_wrong(
    fake: FakeDiscord, engine: Engine, clock: FakeClock, catalog: Catalog
) -> None:
    bank = bank_of(catalog, "offloading")
    await play(fake, clock, bank, [False, True, False, True, True, False, True, True])
    board = (await fake.slash("quiz-leaderboard")).text()
    assert "**1.** Alice — 70 pts · 5/8 right" in board
    clock.advance(DAY)

    first = await fake.slash("quiz-review")
    assert first.ephemeral and first.new_message
    assert first.embeds[0]["title"] == f"Review 1/3 · {OFFLOADING}"
    assert [b["label"] for b in first.buttons] == ["A", "B", "C", "D"]
    outcome, seen = first, []
    for number in (1, 2, 3):
        assert outcome.embeds[0]["title"] == f"Review {number}/3 · {OFFLOADING}"
        question = shown(bank, outcome)
        seen.append(bank.text(question.prompt, "en"))
        outcome = await fake.click(
            first.message["id"], answer_button(outcome, question, number != 2)["custom_id"]
        )
        assert outcome.message["id"] == first.message["id"]  # updated in place
        assert f"\n{number} of 3 reviewed" in outcome.text()  # no running points
        assert "points so far" not in outcome.text()
        if number == 2:
            assert "**❌ Not quite.**" in outcome.text()
            assert "Review answer: no points. This card comes back in 1 day." in outcome.text()
        else:
            assert "**✅ Right!**" in outcome.text()
            assert "Review answer: no points. This card comes back in 2 days." in outcome.text()
        if number < 3:
            outcome = await fake.click(first.message["id"], outcome.buttons[0]["custom_id"])
    # The wrong ones, most overdue (first missed) first.
    assert seen == [
        "What is the primary goal of offloading optimizer state to CPU or NVMe?",
        "Which framework feature popularized optimizer offloading at scale?",
        "In ZeRO-Offload, where is the Adam optimizer step typically executed?",
    ]
    assert "Review finished: 2 of 3 right." in outcome.text()
    assert "What you missed comes back tomorrow; what you knew, later." in outcome.text()
    assert outcome.buttons == []  # the review is over
    # Practice: the leaderboard and the quiz accuracy are as before the review.
    assert (await fake.slash("quiz-leaderboard")).text() == board
    assert "5/8 right (62%) · 70 points" in (await fake.slash("quiz-stats")).text()


async def test_stats_show_the_cards_due_then_the_retention(
    fake: FakeDiscord, engine: Engine, clock: FakeClock, catalog: Catalog
) -> None:
    tiny = bank_of(catalog, "tiny")
    await play(fake, clock, tiny, [False, False])
    today = await fake.slash("quiz-stats")
    assert today.embeds[0]["description"] == (
        "**Tiny test bank**: 0/2 right (0%) · 0 points\n"
        "    2 seen · 0 due today · retention — · chance to recall now 0%"
    )
    clock.advance(DAY)
    due = await fake.slash("quiz-stats")
    assert due.ephemeral
    assert due.text() == (
        "Your quiz stats\n"
        "**Tiny test bank**: 0/2 right (0%) · 0 points\n"
        "    2 seen · 2 due today · retention — · chance to recall now 0%\n"
        "A question you missed counts as not recalled until you answer it right in a review.\n"
        "You have 2 cards due for review today.\n"
        "Start your review with /quiz-review."
    )
    await review(fake, tiny, [True, False])
    after = await fake.slash("quiz-stats")
    assert after.text() == (
        "Your quiz stats\n"
        "**Tiny test bank**: 0/2 right (0%) · 0 points\n"
        "    2 seen · 0 due today · retention 50% · chance to recall now 50%\n"
        "A question you missed counts as not recalled until you answer it right in a review."
    )


async def test_a_reminder_arrives_once_by_direct_message_at_the_set_time(
    fake: FakeDiscord, catalog: Catalog, clock: FakeClock, tmp_path: Path
) -> None:
    db = tmp_path / "quiz.db"
    async with quizbot(fake, catalog, clock, db) as engine:
        await play(fake, clock, bank_of(catalog, "tiny"), [False, False])
        bad = await fake.slash("quiz-remind", "on", time="25:00", timezone=BERLIN)
        assert bad.ephemeral and bad.text() == (
            "“25:00” is not a time of day like 09:30.\n\n"
            "Usage: /quiz-remind on time:<HH:MM> timezone:<e.g. Europe/Berlin>,"
            " /quiz-remind off, /quiz-remind status"
        )
        on = await fake.slash("quiz-remind", "on", time="09:00", timezone=BERLIN)
        assert on.ephemeral and on.text() == (
            "Review reminder on: at 09:00 (Europe/Berlin), on days you have cards due.\n\n"
            "Start your review with /quiz-review."
        )
        # Today nothing is due yet (what was missed comes back tomorrow): no message.
        clock.at = berlin("2026-11-02", "09:05")
        await engine.scheduler.tick()
        assert fake.dm_texts(ALICE) == []
        clock.at = berlin("2026-11-03", "08:59")
        await engine.scheduler.tick()
        assert fake.dm_texts(ALICE) == []
        clock.at = berlin("2026-11-03", "09:05")
        await engine.scheduler.tick()
        reminder = (
            "You have 2 questions due for review today.\n\nStart your review with /quiz-review."
        )
        assert fake.dm_texts(ALICE) == [reminder]
        opened = [c.body for c in fake.calls if c.path == "/api/v10/users/@me/channels"]
        assert opened == [{"recipient_id": int(ALICE.id)}]
        assert fake.posts == []  # nothing in the channel
        await engine.scheduler.tick()
        assert fake.dm_texts(ALICE) == [reminder]
    async with quizbot(fake, catalog, clock, db) as restarted:
        clock.advance(60)
        await restarted.scheduler.tick()
        assert fake.dm_texts(ALICE) == [reminder]
        status = await fake.slash("quiz-remind", "status")
        assert status.text().startswith("Review reminder on: at 09:00 (Europe/Berlin)")
        off = await fake.slash("quiz-remind", "off")
        assert off.ephemeral and off.text() == "Review reminder off."
        clock.at = berlin("2026-11-04", "09:05")  # the cards are still due
        await restarted.scheduler.tick()
        assert fake.dm_texts(ALICE) == [reminder]
        assert (await fake.slash("quiz-remind", "status")).text() == "You have no review reminder."


async def test_nothing_due_says_when_the_next_card_is(
    fake: FakeDiscord, engine: Engine, clock: FakeClock, catalog: Catalog
) -> None:
    tiny = bank_of(catalog, "tiny")
    assert (await fake.slash("quiz-review")).text() == (
        "You have no review cards yet: every question you answer becomes one. Play a quiz first."
    )
    await play(fake, clock, tiny, [True, True])
    nothing = await fake.slash("quiz-review")
    assert nothing.ephemeral and nothing.buttons == []
    assert nothing.text() == "Nothing to review today: your next card is due in 2 days."
    # Something missed but not due yet: it is offered for practice.
    await play(fake, clock, tiny, [False, True], user=BOB)
    practice = await fake.slash("quiz-review", user=BOB)
    assert practice.embeds[0]["title"] == "Review 1/1 · Tiny test bank"
    assert (
        "Nothing to review today: your next card is due in 1 day.\n"
        "For practice: the 1 question you missed most recently."
    ) in practice.text()
    assert shown(tiny, practice).id == "tiny-one"


async def test_a_hindi_player_reviews_in_hindi(
    fake: FakeDiscord, engine: Engine, clock: FakeClock, catalog: Catalog
) -> None:
    tiny = bank_of(catalog, "tiny")
    await play(fake, clock, tiny, [False, False], locale="hi")
    clock.advance(DAY)
    first = await fake.slash("quiz-review", locale="hi")
    assert first.embeds[0]["title"] == "रिव्यू 1/2 · छोटा परीक्षण बैंक"
    question = shown(tiny, first, "hi")
    answered = await fake.click(
        first.message["id"], answer_button(first, question, False)["custom_id"], locale="hi"
    )
    assert "रिव्यू का उत्तर: कोई अंक नहीं। यह कार्ड 1 दिन बाद फिर आएगा।" in answered.text()
    stats = await fake.slash("quiz-stats", locale="hi")
    assert "आज आपका 1 कार्ड रिव्यू के लिए बाकी है।\n/quiz-review से अपना रिव्यू शुरू करें।" in (stats.text())
    on = await fake.slash("quiz-remind", "on", time="09:00", timezone="Asia/Kolkata", locale="hi")
    assert on.text() == (
        "रिव्यू रिमाइंडर चालू: 09:00 (Asia/Kolkata) पर, जिन दिनों कार्ड बाकी हों।\n\n"
        "/quiz-review से अपना रिव्यू शुरू करें।"
    )


async def test_the_daily_question_can_prefer_what_the_team_missed(
    fake: FakeDiscord, engine: Engine, clock: FakeClock, catalog: Catalog
) -> None:
    tiny = bank_of(catalog, "tiny")
    for user in (ALICE, BOB):
        await play(fake, clock, tiny, [True, False], user=user)
    options = {"topics": "tiny", "time": "09:30", "timezone": BERLIN, "reveal_hours": 2.0}
    on = await fake.slash("quiz-daily", user=OWEN, action="on", prefer_missed=True, **options)
    assert on.ephemeral
    assert "Questions the team missed most are posted first." in on.text()
    status = await fake.slash("quiz-daily", action="status")
    assert "Questions the team missed most are posted first." in status.text()
    clock.at = berlin("2026-11-02", "09:30")
    await engine.scheduler.tick()
    [post] = fake.channel_posts()
    assert "Two times three?" in post.text()  # the one both missed
    plain = await fake.slash("quiz-daily", user=OWEN, action="on", **options)
    assert "missed most" not in plain.text()


async def test_a_review_shows_only_the_players_own_cards(
    fake: FakeDiscord, engine: Engine, clock: FakeClock, catalog: Catalog
) -> None:
    tiny = bank_of(catalog, "tiny")
    await play(fake, clock, tiny, [False, True], user=ALICE)
    await play(fake, clock, tiny, [True, False], user=BOB)
    clock.advance(DAY)
    alice = await fake.slash("quiz-review", user=ALICE)
    bob = await fake.slash("quiz-review", user=BOB)
    for outcome, prompt in ((alice, "One plus one?"), (bob, "Two times three?")):
        assert outcome.embeds[0]["title"] == "Review 1/1 · Tiny test bank"
        assert prompt in outcome.text()
    assert "Two times three?" not in alice.text() and "One plus one?" not in bob.text()
    # Bob cannot answer Alice's review.
    refused = await fake.click(alice.message["id"], alice.buttons[0]["custom_id"], user=BOB)
    assert refused.ephemeral and refused.new_message
    assert refused.text() == (
        "This review belongs to someone else.\n\nStart your review with /quiz-review."
    )
    assert "One plus one?" in (await fake.slash("quiz-review", user=ALICE)).text()


async def test_review_and_reminders_work_in_direct_messages(
    fake: FakeDiscord, engine: Engine, clock: FakeClock, catalog: Catalog
) -> None:
    """A DM is a workspace of its own: its cards are the ones played there."""
    tiny = bank_of(catalog, "tiny")
    await play(fake, clock, tiny, [False, False])
    empty = await fake.slash("quiz-review", guild=False)
    assert empty.text().startswith("You have no review cards yet")
    on = await fake.slash("quiz-remind", "on", guild=False, time="09:00", timezone=BERLIN)
    assert on.text().startswith("Review reminder on: at 09:00 (Europe/Berlin)")


async def test_the_timezone_is_completed_in_the_subcommand(
    fake: FakeDiscord, engine: Engine
) -> None:
    found = await fake.autocomplete("quiz-remind", "timezone", "kolk", subcommand="on")
    assert found == [{"name": "Asia/Kolkata", "value": "Asia/Kolkata"}]
    assert len(await fake.autocomplete("quiz-remind", "timezone", "", subcommand="on")) == 25


async def test_a_forged_reminder_command_is_refused_without_a_crash(
    fake: FakeDiscord, engine: Engine, caplog: pytest.LogCaptureFixture
) -> None:
    missing = await fake.slash("quiz-remind", "on", time="09:00")
    assert (
        missing.ephemeral
        and missing.text()
        == "Sorry, something went wrong on our side. Please try again in a moment."
    )
    unknown = await fake.slash("quiz-remind", "snooze")
    assert unknown.ephemeral and unknown.text() == missing.text()
    # A value no client lets anyone type: refused within Discord's limits (the fake
    # checks them), quoted cut short by the core, so the usage still follows.
    huge = await fake.slash("quiz-remind", "on", time="9" * 5000, timezone="x" * 5000)
    assert huge.ephemeral and huge.text() == (
        f"“{'9' * 60}…” is not a time of day like 09:30.\n\nUsage: /quiz-remind on"
        " time:<HH:MM> timezone:<e.g. Europe/Berlin>, /quiz-remind off, /quiz-remind status"
    )
    assert [r.levelname for r in caplog.records if r.name.startswith("adapters")] == [
        "WARNING",
        "WARNING",
    ]

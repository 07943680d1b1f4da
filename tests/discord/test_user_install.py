"""Discord user install, end to end: the real discord.py client against the fake Discord,
which sends interactions from a player's own install of the app — in a DM with a friend
(a private channel, context 2) and in a server that did not add the bot (context 0) —
where the bot is in no channel and may only answer the interaction. The fake refuses a
bot-API message to those channels (403, a violation that fails the test)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest

from adapters.discord.client import QuizClient
from adapters.discord.phrases import TEXT
from bot.content.banks import Bank, Catalog, Question
from bot.domain import actions
from bot.domain.memory import Memory
from bot.persistence import Store
from bot.services.engine import Engine
from fakes.discord import (
    ALICE,
    FIONA,
    STRANGER_GUILD_ID,
    USER_APP_PERMISSIONS,
    FakeDiscord,
    Outcome,
    private_channel_of,
)

from ..support.channel import FakeClock, moment
from .support import answer_button, running_bot

DAY = 24 * 3600
PRIVATE = {"guild": False, "install": "user"}  # Alice's DM with Fiona, her own install
UNADDED = {"guild_id": STRANGER_GUILD_ID, "install": "user"}  # a server without the bot
PERSONAL = {"integration_types": [0, 1], "contexts": [0, 1, 2]}
SERVER_ONLY = {"integration_types": [0], "contexts": [0]}


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(moment("2026-11-02T08:00"))


@pytest.fixture
async def bot(
    fake: FakeDiscord, catalog: Catalog, clock: FakeClock, tmp_path: Path
) -> AsyncIterator[QuizClient]:
    """The bot on a fake clock, FSRS without fuzz: a card's next review is exact."""
    store = await Store.open(tmp_path / "quiz.db", memory=Memory(fuzz=False))
    try:
        async with running_bot(fake, Engine(catalog, store, clock)) as client:
            yield client
    finally:
        await store.close()


@pytest.fixture
def tiny(catalog: Catalog) -> Bank:
    bank = catalog.get("tiny")
    assert bank is not None
    return bank


def labelled(outcome: Outcome, bank: Bank, question: Question) -> dict[str, str]:
    """The bank's choices as this message labels them (a run shuffles its choices): the
    English choice text by its button label."""
    labels = {}
    for button in outcome.buttons:
        action = actions.decode(button["custom_id"])
        assert isinstance(action, actions.AnswerAction)
        labels[button["label"]] = bank.text(question.choices[action.choice], "en")
    return labels


def asked(heading: str, prompt: str, labels: dict[str, str]) -> str:
    """A question message's text, as a player reads it."""
    lines = "".join(f"**{label}.** {choice}\n" for label, choice in labels.items())
    return f"{heading}\n{prompt}\n\n{lines}Pick an answer:"


def label_of(labels: dict[str, str], choice: str) -> str:
    return next(label for label, text in labels.items() if text == choice)


def bot_api_messages(fake: FakeDiscord) -> list[str]:
    """Channel messages posted or edited with the bot's token (not through an interaction)."""
    return [f"{c.method} {c.path}" for c in fake.calls if c.path.startswith("/api/v10/channels/")]


async def test_personal_commands_install_to_users_and_channel_play_stays_in_servers(
    fake: FakeDiscord, bot: QuizClient
) -> None:
    synced = {
        c["name"]: {k: c[k] for k in ("integration_types", "contexts")} for c in fake.commands[None]
    }
    assert synced == {
        "quiz": PERSONAL,
        "quiz-leaderboard": PERSONAL,
        "quiz-stats": PERSONAL,
        "quiz-review": PERSONAL,
        "quiz-remind": PERSONAL,
        "quiz-lang": PERSONAL,
        "quiz-topics": PERSONAL,
        "quiz-daily": SERVER_ONLY,
        "quiz-race": SERVER_ONLY,
        "quiz-race-stop": SERVER_ONLY,
        "quiz-competition": SERVER_ONLY,
        "quiz-bank": SERVER_ONLY,
        "quiz-propose": SERVER_ONLY,
        "quiz-proposals": SERVER_ONLY,
        "quiz-insights": SERVER_ONLY,
        "quiz-map": SERVER_ONLY,
        "quiz-share": SERVER_ONLY,
        "quiz-dashboard": SERVER_ONLY,
        "quiz-forget-me": PERSONAL,
    }
    # The older flag says the same for the bot's DMs.
    assert [c["name"] for c in fake.commands[None] if not c["dm_permission"]] == [
        name for name, where in synced.items() if where == SERVER_ONLY
    ]


async def test_a_user_installed_quiz_in_a_dm_plays_to_the_end(
    fake: FakeDiscord, bot: QuizClient, tiny: Bank
) -> None:
    dm = private_channel_of(ALICE)
    start = await fake.slash("quiz", topic="tiny", **PRIVATE)
    assert fake.calls[-1].path.endswith("/callback")  # answered through the interaction
    assert start.callback_type == 4 and start.ephemeral
    assert start.message["channel_id"] == dm
    one = labelled(start, tiny, tiny.questions[0])
    assert list(one) == ["A", "B", "C"] and sorted(one.values()) == ["Four", "Three", "Two"]
    assert start.text() == asked("Question 1 of 2 · Tiny test bank", "One plus one?", one)
    message = start.message["id"]

    right = await fake.click(
        message, answer_button(start, tiny.questions[0], True)["custom_id"], **PRIVATE
    )
    assert right.callback_type == 7 and right.message["id"] == message  # updated in place
    assert right.text() == (
        "Question 1 of 2 · Tiny test bank\n"
        "One plus one?\n\n"
        "**✅ Right!**\n"
        f"Right answer: {label_of(one, 'Two')}. Two\n"
        "+10 points\n\n"
        "One and one make two.\n"
        "Read more https://example.org/arithmetic\n"
        "1 of 2 answered · 10 points so far"
    )
    assert [b["label"] for b in right.buttons] == ["Next question"]

    second = await fake.click(message, right.buttons[0]["custom_id"], **PRIVATE)
    two = labelled(second, tiny, tiny.questions[1])
    assert sorted(two.values()) == ["Five", "Six"]
    assert second.text() == asked("Question 2 of 2 · Tiny test bank", "Two times three?", two)
    last = await fake.click(
        message, answer_button(second, tiny.questions[1], False)["custom_id"], **PRIVATE
    )
    assert last.text() == (
        "Question 2 of 2 · Tiny test bank\n"
        "Two times three?\n\n"
        "**❌ Not quite.**\n"
        f"Your answer: {label_of(two, 'Five')}. Five\n"
        f"Right answer: {label_of(two, 'Six')}. Six\n\n"
        "Two threes are six.\n"
        "Read more https://example.org/arithmetic\n"
        "2 of 2 answered · 10 points so far\n"
        "Quiz complete · Tiny test bank\n"
        "You got 1 of 2 right and earned 10 of 30 points.\n"
        "You are #1 of 1 on the Tiny test bank leaderboard."
    )
    assert last.buttons == []
    # Standings that are public in a server are Alice's alone in a DM with Fiona.
    board = await fake.slash("quiz-leaderboard", **PRIVATE)
    assert board.ephemeral and board.message["channel_id"] == dm
    assert board.text() == (
        "Leaderboard · all time\n**1.** Alice — 10 pts · 1/2 right\nYou: #1 · 10 points"
    )
    # Her points are her own workspace's, the bot's DMs included, not the server's.
    assert (await fake.slash("quiz-leaderboard", guild=False)).text() == board.text()
    in_server = await fake.slash("quiz-leaderboard")
    assert "No points yet: be the first with /quiz <topic>!" in in_server.text()
    assert bot_api_messages(fake) == [] and dm in fake.outside


async def test_review_and_stats_in_a_dm_from_a_user_install(
    fake: FakeDiscord, bot: QuizClient, clock: FakeClock, tiny: Bank
) -> None:
    start = await fake.slash("quiz", topic="tiny", **PRIVATE)
    message = start.message["id"]
    first = await fake.click(
        message, answer_button(start, tiny.questions[0], False)["custom_id"], **PRIVATE
    )
    second = await fake.click(message, first.buttons[0]["custom_id"], **PRIVATE)
    await fake.click(
        message, answer_button(second, tiny.questions[1], False)["custom_id"], **PRIVATE
    )
    clock.advance(DAY)

    stats = await fake.slash("quiz-stats", **PRIVATE)
    assert stats.ephemeral
    assert stats.text() == (
        "Your quiz stats\n"
        "**Tiny test bank**: 0/2 right (0%) · 0 points\n"
        "    2 seen · 2 due today · retention — · chance to recall now 0%\n"
        "A question you missed counts as not recalled until you answer it right in a review.\n"
        "You have 2 cards due for review today.\n"
        "Start your review with /quiz-review."
    )
    review = await fake.slash("quiz-review", **PRIVATE)
    assert review.ephemeral and review.message["channel_id"] == private_channel_of(ALICE)
    # Both were missed at once: either may come first.
    [question] = [q for q in tiny.questions if tiny.text(q.prompt, "en") in review.text()]
    prompt, labels = tiny.text(question.prompt, "en"), labelled(review, tiny, question)
    assert review.text() == asked("Review 1/2 · Tiny test bank", prompt, labels)
    answered = await fake.click(
        review.message["id"], answer_button(review, question, True)["custom_id"], **PRIVATE
    )
    assert answered.callback_type == 7 and answered.message["id"] == review.message["id"]
    answer = tiny.text(question.choices[question.answer], "en")
    assert answered.text() == (
        f"Review 1/2 · Tiny test bank\n{prompt}\n\n"
        "**✅ Right!**\n"
        f"Right answer: {label_of(labels, answer)}. {answer}\n"
        "Review answer: no points. This card comes back in 2 days.\n\n"
        f"{tiny.text(question.explanation, 'en')}\n"
        "Read more https://example.org/arithmetic\n"
        "1 of 2 reviewed"
    )
    assert [b["label"] for b in answered.buttons] == ["Next question"]
    # The same cards in a server that did not add the bot: they follow Alice.
    elsewhere = await fake.slash("quiz-stats", **UNADDED)
    assert elsewhere.ephemeral and "1 due today · retention 100%" in elsewhere.text()
    assert bot_api_messages(fake) == []


async def test_channel_commands_from_a_user_install_are_refused_privately(
    fake: FakeDiscord, bot: QuizClient
) -> None:
    """Discord offers them only where the bot was added; an out-of-date or forged one
    is told why, privately, and nothing is scheduled or posted."""
    channel_play = (
        (
            "quiz-daily",
            None,
            {"action": "on", "topics": "tiny", "time": "09:30", "timezone": "UTC"},
        ),
        ("quiz-race", None, {"topic": "tiny"}),
        ("quiz-competition", None, {"action": "start", "name": "Cup", "until": "2026-12-31"}),
        ("quiz-leaderboard", None, {"period": "competition"}),
    )
    elsewhere = (
        *channel_play,
        ("quiz-bank", "list", {}),
        ("quiz-proposals", None, {}),
        ("quiz-propose", None, {}),
        ("quiz-insights", None, {}),
        ("quiz-dashboard", None, {}),
    )
    unadded = TEXT.t("en", "not_added_here")
    assert unadded == (
        "quizbot is not added to this server, so its channel play, banks and insights are not"
        " here: ask an admin to add it. Your own /quiz, /quiz-review and /quiz-stats work"
        " anywhere."
    )
    for name, subcommand, options in elsewhere:
        outcome = await fake.slash(name, subcommand, **UNADDED, **options)
        assert (outcome.ephemeral, outcome.content) == (True, unadded), name
    in_dm = TEXT.t("en", "dm_no_channel_play")
    for name, subcommand, options in channel_play:
        outcome = await fake.slash(name, subcommand, **PRIVATE, **options)
        assert (outcome.ephemeral, outcome.content) == (True, in_dm), name
    assert bot_api_messages(fake) == [] and fake.posts == []


async def test_a_user_install_in_a_server_without_the_bot_plays_privately(
    fake: FakeDiscord, bot: QuizClient, tiny: Bank
) -> None:
    start = await fake.slash("quiz", topic="tiny", **UNADDED)
    assert start.ephemeral and start.message["channel_id"] == str(int(STRANGER_GUILD_ID) + 1)
    answered = await fake.click(
        start.message["id"], answer_button(start, tiny.questions[0], True)["custom_id"], **UNADDED
    )
    assert "**✅ Right!**" in answered.text()
    board = await fake.slash("quiz-leaderboard", **UNADDED)
    assert board.ephemeral and "**1.** Alice — 10 pts · 1/1 right" in board.text()
    # The bot's own server has a leaderboard of its own, public as before.
    in_server = await fake.slash("quiz-leaderboard")
    assert not in_server.ephemeral and "No points yet" in in_server.text()
    assert bot_api_messages(fake) == []


async def test_the_fake_refuses_a_bot_api_message_where_the_bot_is_not(
    fake: FakeDiscord, bot: QuizClient
) -> None:
    """The guard the tests above rely on: posting to Alice's DM with Fiona with the bot's
    token is what Discord refuses there."""
    await fake.slash("quiz-topics", **PRIVATE)
    dm = private_channel_of(ALICE)
    payload = fake.interaction(2, {}, user=ALICE, guild=False, install="user")
    assert payload["context"] == 2 and payload["authorizing_integration_owners"] == {"1": ALICE.id}
    assert payload["channel"]["recipients"] == [FIONA.to_dict()]
    assert payload["app_permissions"] == str(USER_APP_PERMISSIONS)
    with pytest.raises(discord.Forbidden):
        await bot.get_partial_messageable(int(dm)).send("hello")
    assert fake.violations == [f"a bot-API message to channel {dm}, which the bot is not in"]
    fake.violations.clear()


async def test_a_reminder_set_from_a_user_install_comes_by_the_bots_own_dm(
    fake: FakeDiscord, bot: QuizClient, clock: FakeClock, tiny: Bank
) -> None:
    """Set in a DM with a friend, the reminder is not posted there (the bot is not in
    it): it comes in the bot's own DM with the player."""
    start = await fake.slash("quiz", topic="tiny", **PRIVATE)
    wrong = answer_button(start, tiny.questions[0], False)["custom_id"]
    await fake.click(start.message["id"], wrong, **PRIVATE)
    on = await fake.slash("quiz-remind", "on", time="09:00", timezone="UTC", **PRIVATE)
    assert on.ephemeral and on.text() == (
        "Review reminder on: at 09:00 (UTC), on days you have cards due.\n\n"
        "Start your review with /quiz-review."
    )
    for day in ("2026-11-02", "2026-11-03"):  # nothing is due the first day
        clock.at = moment(f"{day}T09:05")
        await bot.engine.scheduler.tick()
    assert fake.dm_texts(ALICE) == [
        "You have 1 question due for review today.\n\nStart your review with /quiz-review."
    ]
    [opened] = [channel for channel, member in fake.dm_channels.items() if member == ALICE.id]
    assert opened not in fake.outside
    assert bot_api_messages(fake) == [f"POST /api/v10/channels/{opened}/messages"]

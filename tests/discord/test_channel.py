"""Channel play on Discord, end to end: the real discord.py client against the fake
Discord, the real engine and store, and a fake clock that runs a day or a race in
milliseconds (``engine.scheduler.tick()`` after moving it)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from adapters.discord.commands import build_tree
from adapters.discord.phrases import TEXT
from adapters.discord.render import safe
from bot.content.banks import Bank, Catalog, Question, load_catalog
from bot.domain import actions, scoring
from bot.persistence import Store
from bot.services.engine import Engine
from bot.ui.messages import t
from bot.ui.plain import bar_line
from bot.ui.views import BarRow
from fakes.discord import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL_ID,
    OWEN,
    FakeDiscord,
    FakeUser,
    Outcome,
)

from ..support.channel import FakeClock, moment
from ..support.environment import FIXTURES
from .support import running_bot

BERLIN = "Europe/Berlin"
DAY = "2026-11-02"
# A role whose name differs from QUIZBOT_ADMIN_ROLE only in case: no admin.
DORA = FakeUser("1500000000000000007", "Dora", roles=("1700000000000000002",))


def at(clock_time: str, zone: str = BERLIN) -> float:
    return moment(f"{DAY}T{clock_time}", zone)


def open_engine(catalog: Catalog, store: Store, clock: FakeClock) -> Engine:
    return Engine(catalog, store, clock, count_refresh=0.0)  # edit the public count at once


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(at("08:00"))


@pytest.fixture
async def channel_engine(catalog: Catalog, store: Store, clock: FakeClock) -> Engine:
    return open_engine(catalog, store, clock)


@pytest.fixture
async def bot(fake: FakeDiscord, channel_engine: Engine) -> AsyncIterator[None]:
    async with running_bot(fake, channel_engine):
        yield


def tiny(catalog: Catalog) -> Bank:
    bank = catalog.get("tiny")
    assert bank is not None
    return bank


def question_in(bank: Bank, post: Outcome, locale: str = "en") -> Question:
    """The bank question a post shows."""
    return next(q for q in bank.questions if safe(bank.text(q.prompt, locale)) in post.text())


def by_choice(post: Outcome) -> dict[int, dict[str, Any]]:
    """The post's buttons by the bank choice they stand for (decoded from the custom_id)."""
    buttons = {}
    for button in post.buttons:
        action = actions.decode(button["custom_id"])
        assert isinstance(action, actions.DailyAction | actions.RaceAction)
        buttons[action.choice] = button
    return buttons


def channel_bodies(fake: FakeDiscord) -> list[Any]:
    """Every channel message (post or edit) the bot sent with its own token."""
    return [c.body for c in fake.calls if c.path.startswith("/api/v10/channels/")]


def assert_private_reply(outcome: Outcome, post: Outcome) -> None:
    """A click on a public post is answered by a new private message; the post stays."""
    assert (outcome.new_message, outcome.ephemeral) == (True, True)
    assert outcome.message is not None and outcome.message["id"] != post.message["id"]
    assert outcome.callback_type in (4, 5)  # never 7 (update) or 6 (deferred update)


async def daily_on(fake: FakeDiscord, user: FakeUser = OWEN, **options: Any) -> Outcome:
    values = {"topics": "tiny", "time": "09:30", "timezone": BERLIN, "reveal_hours": 2.0}
    return await fake.slash("quiz-daily", user=user, action="on", **(values | options))


async def test_a_daily_question_from_switching_it_on_to_the_reveal(
    fake: FakeDiscord, bot: None, channel_engine: Engine, clock: FakeClock, catalog: Catalog
) -> None:
    bank = tiny(catalog)
    on = await daily_on(fake)
    assert on.ephemeral and on.callback_type == 4
    assert "Tiny test bank, every day at 09:30 (Europe/Berlin); results 2 h later" in on.content
    assert f"Next question: {DAY} 09:30 CET" in on.content

    clock.at = at("09:29")
    await channel_engine.scheduler.tick()
    assert fake.posts == []
    clock.at = at("09:30")
    await channel_engine.scheduler.tick()
    [post] = fake.channel_posts()
    post_id = post.message["id"]
    assert post.message["type"] == 0 and not post.ephemeral  # a public channel message
    assert post.message["channel_id"] == CHANNEL_ID
    question = question_in(bank, post)
    shown = post.text()
    assert post.embeds[0]["title"] == t("en", "daily_heading", topic="Tiny test bank", day=DAY)
    letters = "ABC"[: len(question.choices)]
    assert [b["label"] for b in post.buttons] == list(letters)
    for letter, button in zip(letters, post.buttons, strict=True):
        text = bank.text(question.choices[actions.decode(button["custom_id"]).choice], "en")  # type: ignore[union-attr]
        assert f"**{letter}.** {text}" in shown
    reveal = int(at("11:30"))
    assert t("en", "daily_count", count=0, reveal=f"<t:{reveal}:t> (<t:{reveal}:R>)") in shown
    # Nothing gives the answer away before the reveal.
    assert bank.text(question.explanation, "en") not in shown and "✅" not in shown
    assert "Right answer" not in shown

    buttons = by_choice(post)
    wrong = next(choice for choice in buttons if choice != question.answer)
    points = scoring.daily_points(True, question.difficulty, 1)
    for user, choice in ((ALICE, question.answer), (BOB, wrong), (CAROL, question.answer)):
        outcome = await fake.click(post_id, buttons[choice]["custom_id"], user=user)
        assert_private_reply(outcome, post)
        right = choice == question.answer
        assert outcome.embeds[0]["title"] == t("en", "right" if right else "wrong")
        text = outcome.text()
        answer_letter = buttons[question.answer]["label"]
        answer = bank.text(question.choices[question.answer], "en")
        assert t("en", "right_answer", letter=answer_letter, text=answer) in text
        assert bank.text(question.explanation, "en") in text
        assert t("en", "daily_streak", streak=1) in text
        assert (t("en", "points", points=points) in text) is right

    again = await fake.click(post_id, buttons[wrong]["custom_id"], user=ALICE)
    assert_private_reply(again, post)
    letter = buttons[question.answer]["label"]
    assert again.content == t("en", "daily_already", letter=letter)

    # The public post shows how many answered, edited in place, buttons kept.
    await fake.settled(
        lambda: "3 answered so far" in fake.messages[post_id]["embeds"][0]["description"]
    )
    assert fake.edits and {message_id for message_id, _ in fake.edits} == {post_id}
    assert fake.messages[post_id]["components"] == post.message["components"]
    explanation = bank.text(question.explanation, "en")
    assert explanation not in fake.messages[post_id]["embeds"][0]["description"]

    clock.at = at("11:30")
    await channel_engine.scheduler.tick()
    reveal_post = fake.channel_posts()[-1]
    assert len(fake.posts) == 2 and reveal_post.buttons == []
    title = t("en", "daily_reveal_heading", topic="Tiny test bank", day=DAY)
    assert reveal_post.embeds[0]["title"] == title
    text = reveal_post.text()
    for choice, button in buttons.items():
        count = {question.answer: 2, wrong: 1}.get(choice, 0)
        percent = round(100 * count / 3)
        bar = BarRow(button["label"], "", count, percent, choice == question.answer)
        assert bar_line(bar) in text
    answer = bank.text(question.choices[question.answer], "en")
    assert t("en", "right_answer", letter=letter, text=answer) in text
    assert bank.text(question.explanation, "en") in text
    assert t("en", "answered_total", count=3) in text
    [winners] = [line for line in text.splitlines() if line.startswith("Got it right: ")]
    assert sorted(winners.removeprefix("Got it right: ").split(", ")) == ["Alice", "Carol"]
    assert "https://example.org/arithmetic" in text

    late = await fake.click(post_id, buttons[question.answer]["custom_id"], user=OWEN)
    assert_private_reply(late, post)
    assert late.content == t("en", "daily_closed")
    # Every channel message said: no pings.
    assert all(body["allowed_mentions"] == {"parse": []} for body in channel_bodies(fake))
    assert all(callback["type"] not in (6, 7) for callback in fake.callbacks)

    off = await fake.slash("quiz-daily", user=CAROL, action="off")  # admin by role
    assert off.content == t("en", "daily_off")
    status = await fake.slash("quiz-daily", user=BOB, action="status")  # anyone may ask
    assert status.content == t("en", "daily_none")


async def test_a_race_of_two_questions_runs_to_its_podium(
    fake: FakeDiscord, bot: None, channel_engine: Engine, clock: FakeClock, catalog: Catalog
) -> None:
    bank = tiny(catalog)
    started = await fake.slash("quiz-race", user=BOB, topic="small-one", questions=2, seconds=10)
    assert started.ephemeral and started.content == t("en", "race_started", total=2, seconds=10)
    busy = await fake.slash("quiz-race", user=ALICE, topic="tiny")
    assert busy.content == t("en", "race_running")

    points = {"Alice": 0, "Bob": 0}
    streak = {"Alice": 0, "Bob": 0}
    posts = fake.channel_posts()
    for number in (1, 2):
        question_post = posts[-1]
        question = question_in(bank, question_post)
        heading = t(
            "en", "race_heading", topic="Tiny test bank", number=number, total=2, seconds=10
        )
        assert question_post.embeds[0]["title"] == heading
        assert question_post.embeds[0]["footer"]["text"] == t("en", "race_hint")
        closes = t("en", "race_closes", when=f"<t:{int(clock.now()) + 10}:R>")
        assert closes in question_post.text()
        buttons = by_choice(question_post)
        wrong = next(choice for choice in buttons if choice != question.answer)
        # Alice answers right at once; Bob halfway, wrong in question 1 and right in 2.
        bob = wrong if number == 1 else question.answer
        for user, choice, elapsed in ((ALICE, question.answer, 0), (BOB, bob, 5)):
            clock.advance(elapsed)
            locked = await fake.click(
                question_post.message["id"], buttons[choice]["custom_id"], user=user
            )
            assert_private_reply(locked, question_post)
            text = bank.text(question.choices[choice], "en")
            letter = buttons[choice]["label"]
            assert locked.content == t("en", "race_locked", letter=letter, text=text)
            right = choice == question.answer
            streak[user.name] = streak[user.name] + 1 if right else 0
            points[user.name] += scoring.race_points(
                right, question.difficulty, elapsed, 10, streak[user.name]
            )
        twice = await fake.click(
            question_post.message["id"], buttons[question.answer]["custom_id"], user=ALICE
        )
        assert twice.content == t("en", "race_already", letter=buttons[question.answer]["label"])
        assert "✅" not in fake.messages[question_post.message["id"]]["embeds"][0]["description"]

        clock.advance(5)  # 10 s after the question opened: time is up
        await channel_engine.scheduler.tick()
        posts = fake.channel_posts()
        reveal = posts[-2] if number == 2 else posts[-1]
        title = t("en", "race_reveal_heading", number=number, total=2, topic="Tiny test bank")
        assert reveal.embeds[0]["title"] == title
        assert bank.text(question.explanation, "en") in reveal.text()
        [standings] = reveal.embeds[0]["fields"]
        assert standings["name"] == t("en", "standings")
        assert standings["value"].splitlines()[0].startswith("🥇 Alice — ")
        late = await fake.click(
            question_post.message["id"], buttons[wrong]["custom_id"], user=CAROL
        )
        assert late.content == t("en", "race_late")
        if number == 1:
            clock.advance(5)  # the pause between questions
            await channel_engine.scheduler.tick()
            posts = fake.channel_posts()

    podium = fake.channel_posts()[-1]
    assert podium.embeds[0]["title"] == t("en", "race_podium", topic="Tiny test bank")
    row = t("en", "leaderboard_row", points=points["Alice"], correct=2, answered=2)
    second = t("en", "leaderboard_row", points=points["Bob"], correct=1, answered=2)
    assert podium.embeds[0]["description"].splitlines() == [
        f"🥇 Alice — {row}",
        f"🥈 Bob — {second}",
    ]
    assert len(fake.posts) == 5  # question, reveal, question, reveal, podium
    assert all(body["allowed_mentions"] == {"parse": []} for body in channel_bodies(fake))
    assert (await fake.slash("quiz-race-stop", user=BOB)).content == t("en", "race_none")


async def play_quiz(fake: FakeDiscord, bank: Bank, user: FakeUser) -> int:
    """Answer the bank's personal quiz right throughout; the points it earned."""
    outcome = await fake.slash("quiz", topic=bank.id, user=user)
    message = outcome.message["id"]
    for position, question in enumerate(bank.questions):
        if position:
            outcome = await fake.click(message, outcome.buttons[0]["custom_id"], user=user)
        right = next(
            b
            for b in outcome.buttons
            if actions.decode(b["custom_id"]).choice == question.answer  # type: ignore[union-attr]
        )
        outcome = await fake.click(message, right["custom_id"], user=user)
    return sum(scoring.answer_points(True, q.difficulty) for q in bank.questions)


async def test_a_competition_counts_personal_daily_and_race_points(
    fake: FakeDiscord, bot: None, channel_engine: Engine, clock: FakeClock, catalog: Catalog
) -> None:
    bank = tiny(catalog)
    none = await fake.slash("quiz-leaderboard", period="competition")
    assert none.content == t("en", "competition_none")
    started = await fake.slash(
        "quiz-competition", user=OWEN, action="start", name="November *cup*", until="2026-11-30"
    )
    assert started.ephemeral
    assert started.content == safe(
        t(
            "en",
            "competition_started",
            name="November *cup*",
            until="2026-11-30",
            topics=t("en", "all_topics"),
        )
    )

    total = await play_quiz(fake, bank, ALICE)  # a personal quiz

    await daily_on(fake)  # a daily answer
    clock.at = at("09:30")
    await channel_engine.scheduler.tick()
    post = fake.channel_posts()[-1]
    question = question_in(bank, post)
    await fake.click(post.message["id"], by_choice(post)[question.answer]["custom_id"], user=ALICE)
    total += scoring.daily_points(True, question.difficulty, 1)

    await fake.slash("quiz-race", user=BOB, topic="tiny", questions=1, seconds=10)  # a race
    race_post = fake.channel_posts()[-1]
    question = question_in(bank, race_post)
    custom_id = by_choice(race_post)[question.answer]["custom_id"]
    await fake.click(race_post.message["id"], custom_id, user=ALICE)
    total += scoring.race_points(True, question.difficulty, 0, 10, 1)
    clock.advance(10)
    await channel_engine.scheduler.tick()

    board = await fake.slash("quiz-leaderboard", period="competition", user=ALICE)
    assert not board.ephemeral  # for the whole channel, like every leaderboard
    title = t("en", "competition_title", name=safe("November *cup*"))
    assert board.embeds[0]["title"] == title
    assert board.embeds[0]["description"].startswith(f"**1.** Alice — {total} pts")
    assert board.embeds[0]["footer"]["text"] == t("en", "leaderboard_you", rank=1, points=total)
    standings = await fake.slash("quiz-competition", action="standings", user=BOB)
    assert not standings.ephemeral
    assert standings.embeds[0]["description"] == board.embeds[0]["description"]

    ended = await fake.slash("quiz-competition", user=CAROL, action="end")
    assert ended.ephemeral
    assert ended.content == t("en", "competition_ended", name=safe("November *cup*"))
    final = fake.channel_posts()[-1]
    assert final.embeds[0]["title"] == t("en", "competition_final", name=safe("November *cup*"))
    assert final.embeds[0]["description"].startswith(f"**1.** Alice — {total} pts")
    assert "footer" not in final.embeds[0]  # a channel post has no "you"
    hindi = await fake.slash("quiz-leaderboard", period="competition", locale="hi")
    assert hindi.embeds[0]["title"] == t("hi", "competition_final", name=safe("November *cup*"))


async def test_only_admins_run_the_channel_and_only_the_starter_stops_a_race(
    fake: FakeDiscord, bot: None, channel_engine: Engine, clock: FakeClock
) -> None:
    admin_only = t("en", "admin_only")
    for user in (BOB, DORA):  # no permission; a role named almost like the admin role
        refused = await daily_on(fake, user)
        assert (refused.ephemeral, refused.content) == (True, admin_only)
        start = await fake.slash(
            "quiz-competition", user=user, action="start", name="Cup", until="2026-12-31"
        )
        assert (start.ephemeral, start.content) == (True, admin_only)
    hindi = await daily_on(fake, BOB, locale="hi")
    assert hindi.content == t("hi", "admin_only")
    assert (await fake.slash("quiz-daily", action="status")).content == t("en", "daily_none")

    assert (await daily_on(fake, CAROL)).content.startswith("Daily question on")  # by role
    await fake.slash("quiz-competition", user=OWEN, action="start", name="Cup", until="2026-12-31")
    end = await fake.slash("quiz-competition", user=BOB, action="end")
    assert end.content == admin_only

    await fake.slash("quiz-race", user=ALICE, topic="tiny", questions=2)
    stop = await fake.slash("quiz-race-stop", user=BOB)
    assert (stop.ephemeral, stop.content) == (True, t("en", "race_not_starter"))
    stop = await fake.slash("quiz-race-stop", user=OWEN)  # an admin may
    assert stop.content == t("en", "race_stopped")
    podium = fake.channel_posts()[-1]
    assert podium.embeds[0]["title"] == t("en", "race_stopped_heading", topic="Tiny test bank")
    assert podium.embeds[0]["description"] == t("en", "no_winners")


async def test_no_channel_play_in_direct_messages_or_where_the_bot_cannot_post(
    fake: FakeDiscord,
    bot: None,
    channel_engine: Engine,
    clock: FakeClock,
    caplog: pytest.LogCaptureFixture,
) -> None:
    dm = TEXT.t("en", "dm_no_channel_play")
    for name, options in (
        ("quiz-daily", {"action": "on", "topics": "tiny", "time": "09:30", "timezone": "UTC"}),
        ("quiz-race", {"topic": "tiny"}),
        ("quiz-race-stop", {}),
        ("quiz-competition", {"action": "start", "name": "Cup", "until": "2026-12-31"}),
        ("quiz-leaderboard", {"period": "competition"}),
    ):
        outcome = await fake.slash(name, user=OWEN, guild=False, **options)
        assert outcome.content == dm, name

    # Invited without Embed Links: nothing is scheduled that could never be posted.
    fake.app_permissions = (1 << 10) | (1 << 11)
    for refused in (
        await daily_on(fake),
        await fake.slash("quiz-race", topic="tiny"),
        await fake.slash(
            "quiz-competition", user=OWEN, action="start", name="Cup", until="2026-12-31"
        ),
    ):
        assert (refused.ephemeral, refused.content) == (True, TEXT.t("en", "cannot_post_here"))
    assert (await fake.slash("quiz-daily", action="status")).content == t("en", "daily_none")
    assert fake.posts == []

    # Access lost after scheduling: Discord refuses the post, the core logs a warning and
    # skips the day rather than posting it twice.
    fake.app_permissions = (1 << 10) | (1 << 11) | (1 << 14)
    await daily_on(fake)
    fake.forbidden.add(CHANNEL_ID)
    clock.at = at("09:30")
    await channel_engine.scheduler.tick()
    fake.forbidden.clear()
    await channel_engine.scheduler.tick()
    assert fake.posts == []
    assert any("could not be posted" in r.getMessage() for r in caplog.records)


async def test_slow_answers_on_a_public_post_are_deferred_privately(
    fake: FakeDiscord, channel_engine: Engine, clock: FakeClock, catalog: Catalog
) -> None:
    async with running_bot(fake, channel_engine, ack_budget=0):
        started = await fake.slash("quiz-race", topic="tiny", questions=1, seconds=10)
        assert (started.callback_type, started.ephemeral) == (5, True)
        post = fake.channel_posts()[-1]
        question = question_in(tiny(catalog), post)
        custom_id = by_choice(post)[question.answer]["custom_id"]
        locked = await fake.click(post.message["id"], custom_id, user=BOB)
        assert locked.callback_type == 5  # "thinking…", privately: not a deferred update
        assert_private_reply(locked, post)
        assert locked.content.startswith("Locked in: ")
        assert fake.messages[post.message["id"]]["embeds"] == post.embeds


async def test_a_restart_in_the_middle_of_a_day_and_of_a_race(
    fake: FakeDiscord, catalog: Catalog, clock: FakeClock, tmp_path: Path
) -> None:
    bank = tiny(catalog)
    path = tmp_path / "restart.db"
    store = await Store.open(path)
    async with running_bot(fake, open_engine(catalog, store, clock)) as first:
        engine = first.engine
        await daily_on(fake)
        clock.at = at("09:30")
        await engine.scheduler.tick()
        daily = fake.channel_posts()[-1]
        daily_question = question_in(bank, daily)
        daily_buttons = by_choice(daily)
        await fake.click(
            daily.message["id"], daily_buttons[daily_question.answer]["custom_id"], user=ALICE
        )
        await fake.settled(
            lambda: "1 answered" in fake.messages[daily.message["id"]]["embeds"][0]["description"]
        )
        await fake.slash("quiz-race", user=ALICE, topic="tiny", questions=2, seconds=10)
        race = fake.channel_posts()[-1]
        race_question = question_in(bank, race)
        race_buttons = by_choice(race)
        await fake.click(
            race.message["id"], race_buttons[race_question.answer]["custom_id"], user=ALICE
        )
    await store.close()
    assert "discord" not in engine.publishers  # a closed client posts nothing

    store = await Store.open(path)
    try:
        async with running_bot(fake, open_engine(catalog, store, clock)) as second:
            engine = second.engine
            assert fake.command_syncs == 1  # the same commands: no second sync
            await engine.scheduler.tick()
            assert len(fake.posts) == 2  # the day's question is not posted again

            # The first client's buttons work on the second client.
            daily_wrong = next(c for c in daily_buttons if c != daily_question.answer)
            feedback = await fake.click(
                daily.message["id"], daily_buttons[daily_wrong]["custom_id"], user=BOB
            )
            assert_private_reply(feedback, daily)
            assert feedback.embeds[0]["title"] == t("en", "wrong")
            await fake.settled(
                lambda: (
                    "2 answered" in fake.messages[daily.message["id"]]["embeds"][0]["description"]
                )
            )
            locked = await fake.click(
                race.message["id"], race_buttons[race_question.answer]["custom_id"], user=BOB
            )
            assert locked.content.startswith("Locked in: ")

            clock.advance(10)
            await engine.scheduler.tick()  # reveal of question 1
            reveal = fake.channel_posts()[-1]
            [standings] = reveal.embeds[0]["fields"]
            assert [line.split(" — ")[0] for line in standings["value"].splitlines()] == [
                "🥇 Alice",
                "🥈 Bob",
            ]
            clock.advance(5)
            await engine.scheduler.tick()  # question 2
            second_post = fake.channel_posts()[-1]
            assert "question 2 of 2" in second_post.embeds[0]["title"]
            clock.advance(10)
            await engine.scheduler.tick()
            podium = fake.channel_posts()[-1]
            assert podium.embeds[0]["title"] == t("en", "race_podium", topic="Tiny test bank")

            clock.at = at("11:30")
            await engine.scheduler.tick()
            daily_reveal = fake.channel_posts()[-1]
            assert daily_reveal.embeds[0]["title"].startswith("📊")
            assert t("en", "answered_total", count=2) in daily_reveal.text()
            assert t("en", "winners", names="Alice") in daily_reveal.text()
    finally:
        await store.close()


async def test_the_channel_commands_their_options_and_their_sync(
    fake: FakeDiscord, channel_engine: Engine
) -> None:
    async with running_bot(fake, channel_engine):
        zones = await fake.autocomplete("quiz-daily", "timezone", "kolk")
        assert [c["value"] for c in zones] == ["Asia/Kolkata"]
        assert len(await fake.autocomplete("quiz-daily", "timezone", "")) == 25
        topics = await fake.autocomplete("quiz-daily", "topics", "tiny, amp")
        assert [c["value"] for c in topics] == ["tiny,mixed-precision"]
        race = await fake.autocomplete("quiz-race", "topic", "offl")
        assert race[0]["value"] == "offloading"
    assert fake.command_syncs == 1
    commands = {c["name"]: c for c in fake.commands[None]}
    for name, key in (
        ("quiz-daily", "cmd_daily"),
        ("quiz-race", "cmd_race"),
        ("quiz-race-stop", "cmd_race_stop"),
        ("quiz-competition", "cmd_competition"),
    ):
        assert commands[name]["description"] == TEXT.t("en", key)
        assert commands[name]["description_localizations"] == {"hi": TEXT.t("hi", key)}
    daily = {o["name"]: o for o in commands["quiz-daily"]["options"]}
    assert list(daily) == ["action", "topics", "time", "timezone", "reveal_hours", "prefer_missed"]
    assert [c["value"] for c in daily["action"]["choices"]] == ["on", "off", "status"]
    assert daily["action"]["choices"][0]["name_localizations"] == {"hi": TEXT.t("hi", "action_on")}
    assert daily["topics"]["autocomplete"] and daily["timezone"]["autocomplete"]
    assert (daily["reveal_hours"]["type"], daily["reveal_hours"]["min_value"]) == (10, 0.01)
    assert (daily["prefer_missed"]["type"], daily["prefer_missed"]["required"]) == (5, False)
    race = {o["name"]: o for o in commands["quiz-race"]["options"]}
    assert (race["seconds"]["min_value"], race["seconds"]["max_value"]) == (5, 120)
    competition = {o["name"]: o for o in commands["quiz-competition"]["options"]}
    assert [c["value"] for c in competition["action"]["choices"]] == ["start", "end", "standings"]
    period = commands["quiz-leaderboard"]["options"][0]
    assert [c["value"] for c in period["choices"]] == ["all", "week", "month", "competition"]
    assert period["choices"][3]["name_localizations"] == {"hi": TEXT.t("hi", "period_competition")}

    # A changed set of commands is synced once; the same set again is not.
    def older_tree(*args: Any) -> Any:
        tree = build_tree(*args)
        tree.remove_command("quiz-race-stop")
        return tree

    async with running_bot(fake, channel_engine, commands=older_tree):
        pass
    assert fake.command_syncs == 2 and len(fake.commands[None]) == 18
    for _ in range(2):
        async with running_bot(fake, channel_engine):
            pass
    assert fake.command_syncs == 3 and len(fake.commands[None]) == 19


async def test_the_admin_role_is_optional(fake: FakeDiscord, channel_engine: Engine) -> None:
    async with running_bot(fake, channel_engine, environ={"QUIZBOT_ADMIN_ROLE": ""}):
        assert (await daily_on(fake, CAROL)).content == t("en", "admin_only")
        assert (await daily_on(fake, OWEN)).content.startswith("Daily question on")


async def test_a_daily_estimate_is_answered_in_a_modal_privately_and_revealed(
    fake: FakeDiscord, store: Store, clock: FakeClock
) -> None:
    estimates = load_catalog([FIXTURES / "estimates" / "kv.yaml"])
    async with running_bot(fake, open_engine(estimates, store, clock)) as client:
        engine = client.engine
        await daily_on(fake, topics="kv")
        clock.at = at("09:30")
        await engine.scheduler.tick()
        [post] = fake.channel_posts()
        assert "Answer with a number and a unit (B, KiB, MB, GiB …)" in post.text()
        [answer] = post.buttons
        assert answer["label"] == "Answer" and answer["custom_id"].startswith("qz:g:")
        message = post.message["id"]

        opened = await fake.click(message, answer["custom_id"], user=ALICE)
        assert opened.callback_type == 9 and opened.modal is not None  # the form, at once
        assert opened.modal["custom_id"] == answer["custom_id"]
        wrong = await fake.submit(opened.modal, {"estimate": "512 ms"}, user=ALICE, message=message)
        assert wrong.ephemeral is True
        assert wrong.text().startswith("“512 ms” is a time, but this question asks for an amount")
        done = await fake.submit(opened.modal, {"estimate": "1 MiB"}, user=ALICE, message=message)
        assert_private_reply(done, post)  # the public post stays for everyone
        for line in ("Within 2×!", "Your estimate: 1 MiB (= 1,024 KiB)", "Off by +100 %."):
            assert line in done.text(), line
        opened = await fake.click(message, answer["custom_id"], user=BOB)
        assert opened.modal is not None
        await fake.submit(opened.modal, {"estimate": "40 KiB"}, user=BOB, message=message)
        again = await fake.click(message, answer["custom_id"], user=ALICE)
        assert again.modal is None and again.ephemeral is True
        assert "your estimate: 1,024 KiB" in again.text()
        await fake.settled(
            lambda: "2 answered" in fake.messages[message]["embeds"][0]["description"]
        )

        clock.at = at("11:30")
        await engine.scheduler.tick()
        reveal = fake.channel_posts()[-1].text()
        for line in (
            "The answer: 512 KiB",
            "28.8 KiB – 91 KiB ██████░░░░░░ 1 (50%)",
            "288 KiB – 910 KiB ░░░░░░░░░░░░ 0 (0%) ✅",
            "The team's median: 202 KiB. 2.5× too low.",
            "Closest: Alice (1,024 KiB)",
            "Within 2×: Alice",
        ):
            assert line in reveal, line

"""Channel play on Slack end to end: the real bolt app in HTTP mode, the real engine and
store on a fake clock, and the fake Slack recording chat.postMessage and chat.update.
The scheduler is driven by ``engine.scheduler.tick()`` after moving the clock, so a day or
a race runs in milliseconds."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.content.banks import Catalog, load_catalog
from bot.persistence import Store
from bot.services.engine import Engine
from fakes.slack import ChannelPost, FakeSlack, SlackDriver, buttons, shown_text

from ..support.channel import FakeClock, choices_only, moment
from ..support.environment import FIXTURES
from .support import SECRET, answer_key, right_letter, start_http

# These tests script choices: the catalogue without estimates (tested apart).
catalog = choices_only

OFFLOADING = "Optimizer state offloading to CPU and NVMe"
ADMIN = "UADMIN"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(moment("2026-11-02T08:00"))  # a Monday


@pytest.fixture
async def engine(catalog: Catalog, store: Store, clock: FakeClock) -> Engine:
    """The engine on the fake clock; the public answer count is edited at once."""
    engine = Engine(catalog, store, clock, count_refresh=0.0)
    return engine


def shown(post: ChannelPost) -> str:
    return shown_text({"blocks": post.blocks})


def private(reply: dict[str, Any]) -> str:
    """The text of a reply only its recipient sees, and that replaced nothing."""
    assert reply["response_type"] == "ephemeral"
    assert reply["replace_original"] is False
    return shown_text(reply)


def public(reply: dict[str, Any]) -> str:
    """The text of a reply the whole channel sees (standings, leaderboards)."""
    assert reply["response_type"] == "in_channel"
    assert reply["replace_original"] is False
    return shown_text(reply)


async def tick_at(engine: Engine, clock: FakeClock, when: str) -> None:
    clock.at = moment(when)
    await engine.scheduler.tick()


async def edited_to(fake: FakeSlack, post: ChannelPost, text: str) -> ChannelPost:
    """The post once chat.update has made it show ``text``."""

    def found() -> ChannelPost | None:
        now = next(p for p in fake.channel_posts() if p.ref == post.ref)
        return now if text in shown(now) else None

    return await fake.wait_for(found)


def choices(post: ChannelPost, catalog: Catalog) -> tuple[dict[str, str], str, str]:
    """The post's buttons by letter, its right letter and a wrong one, read as a player."""
    labels = buttons({"blocks": post.blocks})
    right = right_letter({"blocks": post.blocks}, answer_key(catalog))
    return labels, right, next(c for c in labels if c != right)


def points_of(board: str) -> dict[str, int]:
    """Name → points, from leaderboard lines like "*1.* Ada — 30 pts · 2/2 right"."""
    return {m[1]: int(m[2]) for m in re.finditer(r"^\d+\. (.+?) — (\d+) pts", board, re.M)}


async def test_a_daily_question_from_the_admin_command_to_its_reveal(
    slack: SlackDriver, fake: FakeSlack, engine: Engine, clock: FakeClock, catalog: Catalog
) -> None:
    on = private(await slack.command("daily on offloading 09:30 Europe/Berlin 2", ADMIN))
    assert f"Daily question on: {OFFLOADING}, every day at 09:30 (Europe/Berlin)" in on
    assert "results 2 h later" in on and "Next question: 2026-11-02 09:30 CET." in on
    status = private(await slack.command("daily status", "U1"))  # anyone may ask
    assert "09:30 (Europe/Berlin)" in status
    await engine.scheduler.tick()
    assert fake.channel_posts() == []  # not before its time

    await tick_at(engine, clock, "2026-11-02T08:30:20")  # 09:30 in Berlin
    (post,) = fake.channel_posts("C1")
    public = shown(post)
    assert f"☀️ Daily question · {OFFLOADING} · 2026-11-02" in public
    assert "0 answered so far. Answers are private; results at 10:30 UTC." in public
    # The reveal time in each reader's own timezone, with a UTC fallback.
    reveal_at = int(moment("2026-11-02T10:30"))
    assert f"<!date^{reveal_at}^{{time}}|10:30 UTC>" in json.dumps(post.blocks)
    labels, right, wrong = choices(post, catalog)
    assert list(labels) == ["A", "B", "C", "D"]
    assert all(action.startswith("qz:d:") for action in labels.values())
    question = next(q for b in catalog.banks for q in b.questions if q.prompt["en"] in public)
    assert question.explanation["en"] not in public and "✅" not in public  # nothing to copy

    ada = private(await slack.click(labels[right], "U1", message_ts=post.ts))
    grace = private(await slack.click(labels[wrong], "U2", message_ts=post.ts))
    asha = private(await slack.click(labels[right], "UHI", message_ts=post.ts))
    assert "✅ Right!" in ada and "Daily streak: 1 day." in ada
    assert question.explanation["en"] in ada and "Read more: https://" in ada
    assert "❌ Not quite." in grace and f"Right answer: {right}. " in grace
    assert "✅ सही!" in asha  # her own language, though the channel's post is in English
    again = private(await slack.click(labels[wrong], "U1", message_ts=post.ts))
    assert f"You already answered today's question (your answer: {right})" in again

    updated = await edited_to(fake, post, "3 answered so far")
    assert updated.ts == post.ts and buttons({"blocks": updated.blocks}) == labels
    assert "आशा" not in shown(updated) and "✅" not in shown(updated)  # no names, no verdicts
    assert {(c.body["channel"], c.body["ts"]) for c in fake.calls_to("chat.update")} == {
        ("C1", post.ts)
    }
    assert fake.calls_to("chat.postEphemeral") == []  # private replies go by response_url
    assert len(fake.channel_posts()) == 1

    await tick_at(engine, clock, "2026-11-02T10:30:30")
    first, reveal = fake.channel_posts("C1")
    assert first.ref == post.ref
    results = shown(reveal)
    assert f"📊 Daily question results · {OFFLOADING} · 2026-11-02" in results
    assert re.search(rf"^{right} █{{8}}░{{4}} 2 \(67%\) ✅$", results, re.M)
    assert re.search(rf"^{wrong} █{{4}}░{{8}} 1 \(33%\)$", results, re.M)
    assert f"Right answer: {right}. {question.choices[question.answer]['en']}" in results
    assert question.explanation["en"] in results
    assert "3 answered." in results and "Got it right: Ada, आशा" in results
    late = private(await slack.click(labels[right], "U2", message_ts=post.ts))
    assert "This daily question is closed" in late


async def test_a_race_of_two_questions_runs_to_its_podium(
    slack: SlackDriver, fake: FakeSlack, engine: Engine, clock: FakeClock, catalog: Catalog
) -> None:
    started = private(await slack.command("race offloading 2 10", "U1"))
    assert started == "Race on! Questions: 2, 10 seconds each."
    (first,) = fake.channel_posts("C1")
    assert f"🏁 Race · {OFFLOADING} · question 1 of 2 · 10 s" in shown(first)
    assert "Answers are locked in privately" in shown(first)
    labels, right, wrong = choices(first, catalog)
    assert all(action.startswith("qz:r:") for action in labels.values())

    locked = private(await slack.click(labels[right], "U1", message_ts=first.ts))
    assert locked.startswith(f"Locked in: {right}. ")
    assert private(await slack.click(labels[wrong], "U2", message_ts=first.ts)).startswith(
        f"Locked in: {wrong}. "
    )
    again = private(await slack.click(labels[right], "U2", message_ts=first.ts))
    assert again == f"Your answer is already locked in: {wrong}."
    clock.advance(11)
    await engine.scheduler.tick()
    reveal = fake.channel_posts("C1")[1]
    text = shown(reveal)
    assert f"⏱️ Time's up · question 1 of 2 · {OFFLOADING}" in text
    assert re.search(rf"^{right} █{{6}}░{{6}} 1 \(50%\) ✅$", text, re.M)
    assert "Standings" in text and "🥇 Ada — " in text and "🥈 Grace Hopper — 0 pts" in text

    clock.advance(6)  # the pause between questions
    await engine.scheduler.tick()
    second = fake.channel_posts("C1")[2]
    assert "question 2 of 2" in shown(second)
    labels2, right2, _ = choices(second, catalog)
    private(await slack.click(labels2[right2], "U2", message_ts=second.ts))
    clock.advance(5)
    private(await slack.click(labels2[right2], "U1", message_ts=second.ts))
    late = private(await slack.click(labels[right], ADMIN, message_ts=first.ts))
    assert late == "Too late: this question is closed."
    clock.advance(6)
    await engine.scheduler.tick()

    posts = fake.channel_posts("C1")
    assert len(posts) == 5  # two questions, two reveals, the podium
    assert "⏱️ Time's up · question 2 of 2" in shown(posts[3])
    podium = shown(posts[4])
    assert f"🏆 Race over · {OFFLOADING}" in podium
    assert re.search(r"🥇 Ada — \d+ pts · 2/2 right", podium)
    assert re.search(r"🥈 Grace Hopper — \d+ pts · 1/2 right", podium)
    assert buttons({"blocks": posts[4].blocks}) == {}
    clock.advance(60)
    await engine.scheduler.tick()
    assert len(fake.channel_posts()) == 5  # nothing after the podium


async def play_right(slack: SlackDriver, topic: str, user: str, catalog: Catalog) -> None:
    """A whole personal quiz, every answer right."""
    key = answer_key(catalog)
    question = await slack.command(topic, user)
    while True:
        feedback = await slack.click(buttons(question)[right_letter(question, key)], user)
        assert "✅ Right!" in shown_text(feedback)
        follow = buttons(feedback)
        if not follow:
            return
        question = await slack.click(follow["Next question"], user)


async def test_competition_standings_count_quiz_daily_and_race_points(
    slack: SlackDriver, fake: FakeSlack, engine: Engine, clock: FakeClock, catalog: Catalog
) -> None:
    started = private(
        await slack.command(
            "competition start “Q4 systems cup” until 2026-11-30 topics tiny, offloading", ADMIN
        )
    )
    assert started == (
        "Competition “Q4 systems cup” is on until 2026-11-30 (UTC)."
        f" Topics: Tiny test bank, {OFFLOADING}."
    )
    # A personal quiz (Ada), the daily question (Grace) and a race (Asha).
    await play_right(slack, "tiny", "U1", catalog)
    await slack.command("daily on offloading 09:30 UTC", ADMIN)
    await tick_at(engine, clock, "2026-11-02T09:30:10")
    (daily,) = fake.channel_posts("C1")
    labels, right, _ = choices(daily, catalog)
    grace = private(await slack.click(labels[right], "U2", message_ts=daily.ts))
    daily_points = int(re.search(r"\+(\d+) points", grace)[1])  # type: ignore[index]
    await slack.command("race offloading 1 5", "U1")  # Ada starts it; Asha answers
    race = fake.channel_posts("C1")[-1]
    labels, right, _ = choices(race, catalog)
    private(await slack.click(labels[right], "UHI", message_ts=race.ts))
    clock.advance(6)
    await engine.scheduler.tick()
    podium = shown(fake.channel_posts("C1")[-1])
    race_points = int(re.search(r"🥇 आशा — (\d+) pts", podium)[1])  # type: ignore[index]

    standings = await slack.command("competition standings", "U1")
    board = public(standings)
    assert board.startswith("🏆 Q4 systems cup · standings")
    tiny_points = points_of(public(await slack.command("leaderboard tiny", "U1")))["Ada"]
    assert points_of(board) == {
        "Ada": tiny_points,
        "Grace Hopper": daily_points,
        "आशा": race_points,
    }
    assert "You: #" in board
    assert public(await slack.command("leaderboard competition", "U2")).startswith(
        "🏆 Q4 systems cup · standings"
    )

    ended = private(await slack.command("competition end", ADMIN))
    assert ended == "Competition “Q4 systems cup” ended: the final standings are in the channel."
    final = fake.channel_posts("C1")[-1]
    assert shown(final).startswith("🏆 Q4 systems cup · final standings")
    assert points_of(shown(final)) == points_of(board)
    assert "You" not in shown(final)  # a public post has no "you"


async def test_admin_commands_refuse_members(
    slack: SlackDriver, fake: FakeSlack, engine: Engine, clock: FakeClock
) -> None:
    only_admins = "Only an admin can do that."
    for text in (
        "daily on offloading 09:30 UTC",
        "daily off",
        'competition start "Cup" until 2026-12-31',
        "competition end",
    ):
        assert private(await slack.command(text, "U1")) == only_admins, text
    assert private(await slack.command("daily status", "U1")) == (
        "There is no daily question in this channel."
    )
    assert private(await slack.command("competition standings", "U1")) == (
        "No competition is running."
    )
    await tick_at(engine, clock, "2026-11-02T09:31")
    assert fake.channel_posts() == []

    # A race: anyone starts one; only its starter or an admin stops it.
    private(await slack.command("race tiny 2 30", "U1"))
    refused = private(await slack.command("race stop", "U2"))
    assert refused == "Only whoever started the race, or an admin, can stop it."
    assert len(fake.channel_posts()) == 1
    assert private(await slack.command("race stop", "UOWNER")) == "Race stopped."  # an owner
    assert shown(fake.channel_posts()[-1]).startswith("🛑 Race stopped · Tiny test bank")
    assert private(await slack.command("race stop", "U1")) == "No race is running in this channel."

    # Admins: per users.info (is_admin, is_owner) or listed in QUIZBOT_SLACK_ADMINS.
    assert private(await slack.command("daily on tiny 10:00 UTC", "UENV")).startswith(
        "Daily question on: Tiny test bank"
    )
    assert private(await slack.command('competition start "Cup" until 2026-12-31', ADMIN))
    assert private(await slack.command("daily off", "UOWNER")) == (
        "Daily question turned off in this channel."
    )


async def test_malformed_channel_commands_get_their_usage(slack: SlackDriver) -> None:
    cases = {
        "daily": "Usage: /quiz daily on <topic,topic> <HH:MM>",
        "daily on offloading": "Usage: /quiz daily on",
        "race": "Usage: /quiz race <topic> [questions] [seconds] | stop",
        "competition start Cup until 2026-12-31": 'Usage: /quiz competition start "<name>"',
    }
    for text, usage in cases.items():
        assert private(await slack.command(text, ADMIN)).startswith(usage), text
    # Values the core checks come back named, with the usage line.
    bad_time = private(await slack.command("daily on offloading 9h30 UTC", ADMIN))
    assert bad_time.startswith("“9h30” is not a time of day") and "Usage: /quiz daily" in bad_time
    bad_zone = private(await slack.command("daily on offloading 09:30 Mars/Olympus", ADMIN))
    assert bad_zone.startswith("“Mars/Olympus” is not a timezone")
    unknown = private(await slack.command("race cooking", "U1"))
    assert unknown.startswith("Unknown topic(s): cooking.") and "Usage: /quiz race" in unknown
    # /quiz help lists the channel commands too.
    help_text = shown_text(await slack.command("help", "U1"))
    for usage in ("/quiz daily on", "/quiz race <topic>", "/quiz competition start"):
        assert usage in help_text


async def open_app(
    db: Path, catalog: Catalog, clock: FakeClock, fake: FakeSlack
) -> tuple[Engine, SlackDriver, Any]:
    """A fresh process's worth: a new Store on the file, engine, bolt app and client."""
    engine = Engine(catalog, await Store.open(db), clock, count_refresh=0.0)
    runner, url = await start_http(engine, fake)
    # Response URLs come from the one count every driver shares, so no two drivers of a
    # test ever use the same one (a count of its own could meet the shared one's).
    return engine, SlackDriver(fake, url, SECRET), runner


@pytest.fixture
async def restartable(
    tmp_path: Path, catalog: Catalog, clock: FakeClock, fake: FakeSlack
) -> AsyncIterator[Any]:
    """Opens apps on one database file, and closes whatever is still open at the end."""
    opened: list[tuple[Engine, Any]] = []

    async def open_one() -> tuple[Engine, SlackDriver]:
        engine, slack, runner = await open_app(tmp_path / "restart.db", catalog, clock, fake)
        opened.append((engine, runner))
        return engine, slack

    async def close_last() -> None:
        engine, runner = opened.pop()
        await runner.cleanup()
        await engine.store.close()

    yield open_one, close_last
    while opened:
        await close_last()


async def test_a_restart_mid_day_keeps_the_daily_question_going(
    restartable: Any, fake: FakeSlack, clock: FakeClock, catalog: Catalog
) -> None:
    open_one, close_last = restartable
    engine, slack = await open_one()
    await slack.command("daily on offloading 09:30 UTC 4", ADMIN)
    await tick_at(engine, clock, "2026-11-02T09:30:10")
    (post,) = fake.channel_posts("C1")
    labels, right, wrong = choices(post, catalog)
    private(await slack.click(labels[right], "U1", message_ts=post.ts))
    await edited_to(fake, post, "1 answered so far")
    await close_last()

    engine, slack = await open_one()  # a new app, client and store on the same file
    await tick_at(engine, clock, "2026-11-02T11:00")
    assert len(fake.channel_posts()) == 1  # not posted twice
    grace = private(await slack.click(labels[wrong], "U2", message_ts=post.ts))
    assert "❌ Not quite." in grace
    again = private(await slack.click(labels[wrong], "U1", message_ts=post.ts))
    assert "You already answered today's question" in again
    await edited_to(fake, post, "2 answered so far")  # the old message, edited by the new app
    await tick_at(engine, clock, "2026-11-02T13:30:20")
    reveal = shown(fake.channel_posts("C1")[-1])
    assert "📊 Daily question results" in reveal and "2 answered." in reveal
    assert "Got it right: Ada" in reveal


async def test_a_restart_mid_race_keeps_the_race_going(
    restartable: Any, fake: FakeSlack, clock: FakeClock, catalog: Catalog
) -> None:
    open_one, close_last = restartable
    engine, slack = await open_one()
    await slack.command("race offloading 2 20", "U1")
    (first,) = fake.channel_posts("C1")
    labels, right, _ = choices(first, catalog)
    private(await slack.click(labels[right], "U1", message_ts=first.ts))
    await close_last()

    engine, slack = await open_one()
    clock.advance(5)
    locked = private(await slack.click(labels[right], "U2", message_ts=first.ts))
    assert locked.startswith(f"Locked in: {right}. ")  # an old button, a new process
    clock.advance(16)
    await engine.scheduler.tick()
    assert re.search(rf"^{right} █{{12}} 2 \(100%\) ✅$", shown(fake.channel_posts()[1]), re.M)
    clock.advance(6)
    await engine.scheduler.tick()
    second = fake.channel_posts("C1")[2]
    labels, right, _ = choices(second, catalog)
    private(await slack.click(labels[right], "U2", message_ts=second.ts))
    clock.advance(21)
    await engine.scheduler.tick()
    podium = shown(fake.channel_posts("C1")[-1])
    assert podium.startswith(f"🏆 Race over · {OFFLOADING}")
    assert "🥇 Grace Hopper" in podium and "🥈 Ada" in podium


async def test_a_channel_without_the_bot_gets_one_warning_to_invite_it(
    slack: SlackDriver,
    fake: FakeSlack,
    engine: Engine,
    clock: FakeClock,
    caplog: pytest.LogCaptureFixture,
) -> None:
    fake.absent.add("C1")
    await slack.command("daily on offloading 09:30 UTC", ADMIN)
    await tick_at(engine, clock, "2026-11-02T09:30:10")
    await tick_at(engine, clock, "2026-11-03T09:30:10")  # refused again: no second hint
    invites = [r for r in caplog.records if "/invite @quizbot" in r.getMessage()]
    assert len(invites) == 1 and invites[0].levelno == logging.WARNING
    assert "C1" in invites[0].getMessage() and "not_in_channel" in invites[0].getMessage()
    assert fake.channel_posts() == []

    fake.absent.clear()  # someone ran /invite @quizbot
    await tick_at(engine, clock, "2026-11-04T09:30:10")
    assert len(fake.channel_posts("C1")) == 1
    assert not any("xoxb-" in r.getMessage() for r in caplog.records)


async def test_a_daily_estimate_is_answered_in_forms_across_a_restart_and_revealed(
    tmp_path: Path, fake: FakeSlack, clock: FakeClock
) -> None:
    """Members estimate privately in a modal (a value that does not read is refused in
    place, a Hindi member reads Hindi); a new process takes the old post's button; the
    reveal shows the estimates on a log axis, the team's median and who came closest."""
    estimates = load_catalog([FIXTURES / "estimates" / "kv.yaml"])
    engine, slack, runner = await open_app(tmp_path / "day.db", estimates, clock, fake)
    try:
        await slack.command("daily on kv 09:30 UTC 4", ADMIN)
        await tick_at(engine, clock, "2026-11-02T09:30:10")
        (post,) = fake.channel_posts("C1")
        public = shown(post)
        assert "☀️ Daily question · KV napkin · 2026-11-02" in public
        assert "Answer with a number and a unit (B, KiB, MB, GiB …)" in public
        assert "0 answered so far. Answers are private" in public
        assert "512 KiB" not in public  # nothing to copy
        answer = buttons({"blocks": post.blocks})["Answer"]
        assert answer.startswith("qz:g:")

        key, form = await slack.click_form(answer, "U1", fake, message_ts=post.ts)
        assert form["title"]["text"] == "Your estimate"
        assert form["blocks"][0]["text"]["text"] == (
            "How much KV cache does one Llama-2-7B token take in FP16?"
        )
        assert await slack.submit(form, {"estimate": "512 ms"}, "U1") == {
            "response_action": "errors",
            "errors": {
                "estimate": "“512 ms” is a time, but this question asks for an amount of"
                " memory. Write a number and a unit: B, KiB, MB, GiB …"
            },
        }
        assert await slack.submit(form, {"estimate": "600 KiB"}, "U1") == {}
        ada = private(await fake.response(key))
        for line in (
            "✅ Within 2×!",
            "Your estimate: 600 KiB",
            "The answer: 512 KiB",
            "Off by +17 %.",
            "+15 points",
            "Daily streak: 1 day.",
            "2 × 32 layers × 32 heads × 128 × 2 bytes = 524288 bytes = 512 KiB.",
        ):
            assert line in ada, line

        key, form = await slack.click_form(answer, "UHI", fake, message_ts=post.ts)
        assert form["title"]["text"] == "आपका अनुमान"
        assert form["blocks"][0]["text"]["text"] == (
            "FP16 में Llama-2-7B का एक टोकन कितना KV कैश लेता है?"
        )
        assert await slack.submit(form, {"estimate": "2 MiB"}, "UHI") == {}
        asha = private(await fake.response(key))
        for line in ("❌ 2× के भीतर नहीं।", "आपका अनुमान: 2 MiB (= 2,048 KiB)", "4× ज़्यादा।"):
            assert line in asha, line
        await edited_to(fake, post, "2 answered so far")
    finally:
        await runner.cleanup()
        await engine.store.close()

    # A new process on the same database: the first one's button opens its form.
    engine, slack, runner = await open_app(tmp_path / "day.db", estimates, clock, fake)
    try:
        key, form = await slack.click_form(answer, "U2", fake, message_ts=post.ts)
        assert await slack.submit(form, {"estimate": "300 KiB"}, "U2") == {}
        assert "✅ Within 2×!" in private(await fake.response(key))
        again = private(await slack.click(answer, "U1", message_ts=post.ts))
        assert again == (
            "You already answered today's question (your estimate: 600 KiB). Results come later."
        )
        await edited_to(fake, post, "3 answered so far")

        await tick_at(engine, clock, "2026-11-02T13:30:20")
        results = shown(fake.channel_posts("C1")[-1])
        for line in (
            "📊 Daily question results · KV napkin · 2026-11-02",
            "The answer: 512 KiB",
            "288 KiB – 910 KiB ████████░░░░ 2 (67%) ✅",
            "910 KiB – 2,879 KiB ████░░░░░░░░ 1 (33%)",
            "The team's median: 600 KiB. Off by +17 %.",
            "Closest: Ada (600 KiB)",
            "3 answered.",
            "Within 2×: Ada, Grace",
        ):
            assert line in results, line
        late = private(await slack.click(answer, "U2", message_ts=post.ts))
        assert "This daily question is closed" in late
    finally:
        await runner.cleanup()
        await engine.store.close()

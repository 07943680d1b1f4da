"""The Slack adapter end to end: the real bolt AsyncApp in HTTP mode on 127.0.0.1,
driven by signed slash commands and clicks, replying to a fake Slack."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from bot.content.banks import Catalog
from bot.persistence import Store
from bot.services.engine import Engine
from fakes.slack import FakeSlack, SlackDriver, buttons, shown_text

from .support import SECRET, Key, answer, answer_key, db_counts, right_letter, start_http

OFFLOADING_EN = "Optimizer state offloading to CPU and NVMe"
OFFLOADING_HI = "CPU और NVMe पर ऑप्टिमाइज़र स्टेट ऑफलोडिंग"


async def play_through(
    slack: SlackDriver, fake: FakeSlack, first: dict[str, Any], key: Key, user: str
) -> list[dict[str, Any]]:
    """Answer every question (right on odd numbers, wrong on even ones; an estimate in its
    form), clicking "Next question" in between; returns every feedback message."""
    feedback, question, number = [], first, 1
    while True:
        answered = await answer(slack, fake, question, key, user, right=number % 2 == 1)
        assert answered["replace_original"] is True  # the quiz message is updated in place
        feedback.append(answered)
        follow = buttons(answered)
        if not follow:
            return feedback
        (next_id,) = follow.values()
        question = await slack.click(next_id, user)
        assert question["replace_original"] is True
        number += 1


async def test_whole_quiz_in_english(
    slack: SlackDriver, fake: FakeSlack, catalog: Catalog, engine: Engine
) -> None:
    first = await slack.command("offloading", "U1")
    assert first["response_type"] == "ephemeral"
    shown = shown_text(first)
    assert f"Question 1 of 17 · {OFFLOADING_EN}" in shown
    assert "What is the primary goal of offloading optimizer state" in shown
    assert "To fit larger models by freeing scarce GPU memory" in shown  # choices in full
    assert list(buttons(first)) == ["A", "B", "C", "D"]
    assert "Question 1 of 17" in first["text"]

    feedback = await play_through(slack, fake, first, answer_key(catalog), "U1")

    assert len(feedback) == 17
    for number, message in enumerate(feedback, start=1):
        shown = shown_text(message)
        assert f"Question {number} of 17" in shown
        if number <= 14:  # choices; the last three are estimates
            assert ("✅ Right!" if number % 2 else "❌ Not quite.") in shown
            assert "Right answer: " in shown
        else:
            assert ("✅ Within 10%!" if number % 2 else "❌ Not within 10%.") in shown
            assert "The answer: " in shown
            assert ("100× too high." in shown) == (number % 2 == 0)
        assert "Read more: https://" in shown
        assert f"{number} of 17 answered" in shown
        assert ("Next question" in buttons(message)) == (number < 17)
    last = shown_text(feedback[-1])
    assert f"Quiz complete · {OFFLOADING_EN}" in last
    assert "You got 9 of 17 right" in last
    assert f"You are #1 of 1 on the {OFFLOADING_EN} leaderboard." in last

    asked = await slack.command("leaderboard", "U1")
    assert asked["response_type"] == "in_channel"  # a leaderboard is for the whole channel
    board = shown_text(asked)
    assert "Leaderboard · all time" in board and "1. Ada — " in board and "9/17 right" in board
    assert "You: #1" in board
    weekly = shown_text(await slack.command("leaderboard week offloading", "U2"))
    assert f"Leaderboard · this week · {OFFLOADING_EN}" in weekly and "Ada" in weekly
    assert "You have no points here yet." in weekly
    stats = shown_text(await slack.command("stats", "U1"))
    assert f"{OFFLOADING_EN}: 9/17 right (53%)" in stats

    # users.info was asked for the locale, once per user (then cached).
    asked = [c.body for c in fake.calls_to("users.info")]
    assert [a["user"] for a in asked] == ["U1", "U2"]
    assert all(a["include_locale"] in ("1", "true") for a in asked)


async def test_whole_quiz_in_hindi_from_the_slack_locale(
    slack: SlackDriver, fake: FakeSlack, catalog: Catalog
) -> None:
    first = await slack.command("offloading", "UHI")
    assert f"प्रश्न 1 / 17 · {OFFLOADING_HI}" in shown_text(first)
    feedback = await play_through(slack, fake, first, answer_key(catalog), "UHI")
    assert "अगला प्रश्न" in buttons(feedback[0])
    assert "✅ सही!" in shown_text(feedback[0]) and "❌ सही नहीं।" in shown_text(feedback[1])
    assert "सही उत्तर: " in shown_text(feedback[1])
    last = shown_text(feedback[-1])
    assert f"क्विज़ पूरा · {OFFLOADING_HI}" in last and "आपने 17 में से 9 सही किए" in last
    board = shown_text(await slack.command("leaderboard", "UHI"))
    assert "लीडरबोर्ड · अब तक" in board and "आशा" in board


async def test_lang_setting_beats_the_slack_locale(slack: SlackDriver) -> None:
    assert shown_text(await slack.command("lang hi", "U1")) == "भाषा हिन्दी पर सेट की गई।"
    assert "प्रश्न 1 / 2 · छोटा परीक्षण बैंक" in shown_text(await slack.command("tiny", "U1"))
    assert shown_text(await slack.command("lang bn", "UHI")) == "ভাষা বাংলা করা হয়েছে।"
    assert "কুইজের বিষয়" in shown_text(await slack.command("help", "UHI"))
    unknown = shown_text(await slack.command("lang xx", "U2"))
    assert "Unknown language “xx”" in unknown and "hi (हिन्दी)" in unknown


async def test_help_lists_topics_with_usage(slack: SlackDriver, catalog: Catalog) -> None:
    for text in ("", "help", "topics"):
        message = await slack.command(text, "U1")
        assert message["response_type"] == "ephemeral"
        shown = shown_text(message)
        assert "Quiz topics" in shown
        for bank in catalog.banks:
            assert (
                f"{bank.title['en']} · /quiz {bank.id} · {len(bank.questions)} questions" in shown
            )
            assert bank.description["en"] not in shown  # one line a topic: 17 fit a screen
        assert "Data loading and input pipelines · /quiz data-loading · 15 questions" in shown
        assert "Start a quiz with /quiz <topic>." in shown
        # <topic> is escaped in the mrkdwn, so Slack cannot read it as a link.
        assert "/quiz &lt;topic&gt;" in json.dumps(message["blocks"], ensure_ascii=False)


async def test_unknown_topic_suggests_the_closest(slack: SlackDriver) -> None:
    shown = shown_text(await slack.command("ofloading", "U1"))
    assert "I don't know the topic “ofloading”." in shown
    assert f"Did you mean {OFFLOADING_EN} (offloading)?" in shown
    assert "Quiz topics" in shown


async def test_echoed_command_text_cannot_ping(slack: SlackDriver) -> None:
    message = await slack.command("<!channel> &lt;!here&gt; @here", "U1")
    raw = json.dumps(message, ensure_ascii=False)
    assert "<!channel>" not in raw and "<!here>" not in raw
    assert "&lt;!channel&gt;" in raw
    assert all(b["text"].get("verbatim") for b in message["blocks"] if b["type"] == "section")


async def test_bad_signature_and_stale_timestamp_get_401(
    slack: SlackDriver, fake: FakeSlack, engine: Engine
) -> None:
    before = db_counts(engine.store.path)
    body = urlencode(slack.command_fields("offloading", "U1", "forged"))
    assert await slack.post(body, secret="not-the-secret") == 401
    assert await slack.post(body, timestamp=int(time.time()) - 6 * 60) == 401
    other = body.replace("offloading", "mixed-precision")
    assert await slack.post(other, signed=body) == 401  # body changed after signing
    assert await slack.post(body, timestamp=int(time.time()) + 6 * 60) == 401
    click = urlencode({"payload": json.dumps(slack.click_payload("qz:x", "U1", "forged"))})
    assert await slack.post(click, secret="not-the-secret") == 401
    assert fake.responses("forged") == [] and fake.calls_to("users.info") == []
    assert db_counts(engine.store.path) == before
    # The same command, signed properly, is served.
    assert "Question 1 of 17" in shown_text(await slack.command("offloading", "U1"))


def _payload(value: object) -> str:
    return urlencode({"payload": value if isinstance(value, str) else json.dumps(value)})


async def test_garbage_is_refused_quietly(
    slack: SlackDriver, fake: FakeSlack, engine: Engine
) -> None:
    before = db_counts(engine.store.path)
    click = slack.click_payload("qz:a:0123456789abcdef:0:0", "U1", "garbage")
    no_user = {k: v for k, v in click.items() if k != "user"}
    command = slack.command_fields("offloading", "U1", "garbage")
    garbage = [
        "",
        "payload=not json",
        "payload=%7B%22type%22",  # truncated JSON
        _payload([1, 2]),
        _payload({}),
        _payload({**click, "actions": []}),
        _payload({**click, "actions": "qz:a"}),
        _payload({**click, "actions": [5]}),
        _payload({**click, "actions": [{"type": "button"}]}),
        _payload({**click, "actions": [{"action_id": 5}]}),
        _payload(no_user),
        _payload({**click, "user": 5}),
        _payload({**click, "user": {"id": 7}}),
        _payload({**click, "response_url": "file:///etc/passwd"}),
        _payload({**click, "event": 5}),
        urlencode({k: v for k, v in command.items() if k != "user_id"}),
        urlencode({**command, "response_url": ""}),
        "team_id=T1&command=%2Fquiz",
        urlencode({**command, "type": "event_callback", "event": "type"}),
        urlencode({**command, "type": "view_submission", "view": "callback_id"}),
    ]
    statuses = [await slack.post(body) for body in garbage]
    assert all(status == 400 for status in statuses), statuses
    assert fake.responses("garbage") == []
    assert db_counts(engine.store.path) == before


async def test_forged_and_stale_clicks_get_a_private_notice(
    slack: SlackDriver, fake: FakeSlack, engine: Engine
) -> None:
    question = await slack.command("tiny", "U1")
    answer_a = buttons(question)["A"]
    run = answer_a.split(":")[2]
    before = db_counts(engine.store.path)
    cases = {
        "someone else's quiz": (answer_a, "U2", "This quiz belongs to someone else."),
        "a later question": (f"qz:a:{run}:1:0", "U1", "That button is no longer valid."),
        "a choice that does not exist": (f"qz:a:{run}:0:7", "U1", "no longer valid"),
        "an unknown run": ("qz:a:0123456789abcdef:0:0", "U1", "no longer valid"),
        "a garbled id": ("qz:a:NOT-A-RUN", "U1", "no longer valid"),
        "an unknown daily question": ("qz:d:0123456789abcdef:0", "U1", "no longer valid"),
        "an unknown race": ("qz:r:0123456789abcdef:1:0", "U1", "no longer valid"),
        "a next button from the future": (f"qz:n:{run}:5", "U1", "Question 1 of 2"),
    }
    for case, (action_id, user, expected) in cases.items():
        notice = await slack.click(action_id, user)
        assert expected in shown_text(notice), case
        if "Question" not in expected:
            assert notice["response_type"] == "ephemeral", case
            assert notice["replace_original"] is False, case  # the quiz stays playable
    assert db_counts(engine.store.path) == before  # no answer, no point

    # The quiz itself still works, and a double click counts once.
    first = shown_text(await slack.click(answer_a, "U1"))
    assert "Right!" in first or "Not quite." in first
    again = await slack.click(answer_a, "U1")
    assert "You already answered this question" in shown_text(again)
    assert again["replace_original"] is False
    assert db_counts(engine.store.path)["answers"] == 1


async def test_buttons_work_after_a_restart(
    fake: FakeSlack, catalog: Catalog, tmp_path: Path
) -> None:
    db = tmp_path / "restart.db"
    key = answer_key(catalog)

    store = await Store.open(db)
    runner, url = await start_http(Engine(catalog, store), fake)
    slack = SlackDriver(fake, url, SECRET)
    question = await slack.command("offloading", "U1")
    feedback = await slack.click(buttons(question)[right_letter(question, key)], "U1")
    next_question = buttons(feedback)["Next question"]
    await runner.cleanup()
    await store.close()

    store = await Store.open(db)
    try:
        runner, url = await start_http(Engine(catalog, store), fake)
        slack = SlackDriver(fake, url, SECRET)  # response URLs from the count all drivers share
        question = await slack.click(next_question, "U1")
        assert "Question 2 of 17" in shown_text(question)
        feedback = await slack.click(buttons(question)[right_letter(question, key)], "U1")
        assert "✅ Right!" in shown_text(feedback)
        assert "2 of 17 answered · " in shown_text(feedback)
        board = shown_text(await slack.command("leaderboard offloading", "U1"))
        assert "1. Ada — " in board and "2/2 right" in board
        await runner.cleanup()
    finally:
        await store.close()


async def test_a_user_slack_cannot_describe_still_plays(
    slack: SlackDriver, fake: FakeSlack, catalog: Catalog
) -> None:
    question = await slack.command("tiny", "U404")  # users.info: user_not_found
    assert "Question 1 of 2 · Tiny test bank" in shown_text(question)
    feedback = await play_through(slack, fake, question, answer_key(catalog), "U404")
    assert "Quiz complete · Tiny test bank" in shown_text(feedback[-1])
    board = shown_text(await slack.command("leaderboard tiny", "U404"))
    assert "1. u404 — " in board  # the Slack handle stands in for the display name

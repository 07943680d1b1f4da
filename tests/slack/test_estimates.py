"""An estimate on Slack, through the real bolt app: the question's Answer button opens a
modal; a value that does not read is refused in place (``response_action: errors``);
one that does closes it and the feedback replaces the question."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from urllib.parse import urlencode

import pytest

from bot.content.banks import load_catalog
from bot.persistence import Store
from bot.services.engine import Engine
from fakes.slack import FakeSlack, SlackDriver, buttons, shown_text

from ..support.environment import FIXTURES
from .support import SECRET, start_http


@pytest.fixture
async def slack(store: Store, fake: FakeSlack) -> AsyncIterator[SlackDriver]:
    engine = Engine(load_catalog([FIXTURES / "estimates"]), store)
    runner, url = await start_http(engine, fake)
    yield SlackDriver(fake, url, SECRET)
    await runner.cleanup()


async def test_an_estimate_is_typed_in_a_modal_checked_in_place_and_scored(
    slack: SlackDriver, fake: FakeSlack
) -> None:
    question = await slack.command("kv", "U1")
    assert "Answer with a number and a unit (B, KiB, MB, GiB …)" in shown_text(question)
    answer = buttons(question)["Answer"]
    assert answer.startswith("qz:e:")
    key = slack.new_key()
    assert await slack.post(slack.click_body(answer, "U1", key)) == 200
    opened = await fake.wait_for(
        lambda: next((v for v in fake.views if v.trigger_id.startswith(f"trigger.{key}.")), None)
    )
    view = opened.view
    assert view["title"]["text"] == "Your estimate" and view["submit"]["text"] == "Answer"
    assert view["blocks"][0]["text"]["text"] == (
        "How much KV cache does one Llama-2-7B token take in FP16?"
    )
    assert view["blocks"][1]["label"]["text"] == "A number and a unit"
    refused = await slack.submit(view, {"estimate": "512 ms"}, "U1")
    assert refused == {
        "response_action": "errors",
        "errors": {
            "estimate": "“512 ms” is a time, but this question asks for an amount of memory."
            " Write a number and a unit: B, KiB, MB, GiB …"
        },
    }
    assert await slack.submit(view, {"estimate": "0.3 MiB"}, "U1") == {}  # closes
    feedback = await fake.response(key)
    assert feedback["replace_original"] is True
    shown = shown_text(feedback)
    for line in (
        "✅ Within 2×!",
        "Your estimate: 0.3 MiB (= 307 KiB)",
        "The answer: 512 KiB",
        "Off by -40 %.",
        "+15 points",
        "2 × 32 layers × 32 heads × 128 × 2 bytes = 524288 bytes = 512 KiB.",
    ):
        assert line in shown, line


async def test_someone_elses_estimate_button_opens_no_form(
    slack: SlackDriver, fake: FakeSlack
) -> None:
    question = await slack.command("kv", "U1")
    key = slack.new_key()
    body = urlencode(
        {"payload": json.dumps(slack.click_payload(buttons(question)["Answer"], "U2", key))}
    )
    assert await slack.post(body) == 200
    told = await fake.response(key)
    assert shown_text(told) == "This quiz belongs to someone else. Start your own with /quiz kv."
    assert fake.views == []

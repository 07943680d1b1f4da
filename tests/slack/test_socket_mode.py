"""`quizbot run slack` in Socket Mode: the real serve() connects to a fake websocket
that Slack's apps.connections.open points it to, and answers envelopes with acks."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from adapters.settings import load
from adapters.slack import runtime
from bot.services.engine import Engine
from fakes.slack import FakeSlack, SlackDriver, buttons, shown_text


async def test_socket_mode_serves_a_quiz(
    fake: FakeSlack, engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SLACK_BOT_TOKEN", "xoxb-test")
    monkeypatch.setenv("SLACK_APP_TOKEN", "xapp-test")
    monkeypatch.setenv("SLACK_API_URL", fake.api_url)
    monkeypatch.delenv("SLACK_SIGNING_SECRET", raising=False)
    settings = load(platforms=("slack",)).slack  # no problem: it would raise

    # Slack's side, minus HTTP: envelopes carry the same payloads.
    slack = SlackDriver(fake, app_url="", secret="")
    server = asyncio.create_task(runtime.serve(engine, settings))
    try:
        envelope = await fake.send_envelope(
            "slash_commands", slack.command_fields("tiny", "U1", "s1")
        )
        await fake.wait_for(lambda: [a for a in fake.socket_acks if a["envelope_id"] == envelope])
        question = await fake.response("s1")
        assert "Question 1 of 2 · Tiny test bank" in shown_text(question)

        click = slack.click_payload(buttons(question)["A"], "U1", "s2")
        envelope = await fake.send_envelope("interactive", click)
        await fake.wait_for(lambda: [a for a in fake.socket_acks if a["envelope_id"] == envelope])
        feedback = await fake.response("s2")
        assert "Right answer: " in shown_text(feedback)
        assert feedback["replace_original"] is True

        # serve() also gave the engine its Slack publisher: a race posts in the channel.
        race_command = slack.command_fields("race tiny 1 5", "U1", "s3")
        envelope = await fake.send_envelope("slash_commands", race_command)
        await fake.wait_for(lambda: [a for a in fake.socket_acks if a["envelope_id"] == envelope])
        assert "Race on! Questions: 1, " in shown_text(await fake.response("s3"))
        (race,) = await fake.wait_for(lambda: fake.channel_posts("C1") or None)
        assert "🏁 Race · Tiny test bank · question 1 of 1" in shown_text({"blocks": race.blocks})
    finally:
        server.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await server
    opened = fake.calls_to("apps.connections.open")
    assert len(opened) == 1

"""Secrets stay secret: a session with a known bot token, a rejected token and failing
API calls leaves the token in no log record and in nothing sent to Discord's users."""

from __future__ import annotations

import json
import logging

import pytest

from adapters.discord import runtime
from adapters.discord.settings import SettingsError
from bot.content.banks import Catalog
from bot.services.engine import Engine
from bot.ui.messages import t
from fakes.discord import CHANNEL_ID, OWEN, FakeDiscord, Fault

from .support import answer_button, discord_settings, running_bot

SECRET = "MTEwMDAwMDAwMDAwMDAwMDAwMQ.Gsecret.known-value-that-must-never-show"
WRONG = "MTEwMDAwMDAwMDAwMDAwMDAwMQ.Gwrong.another-value-that-must-never-show"


def logged(caplog: pytest.LogCaptureFixture) -> str:
    """Everything the log records carry, formatted as a handler would, tracebacks too."""
    formatter = logging.Formatter("%(name)s %(message)s")
    return "\n".join(formatter.format(r) for r in caplog.get_records("call"))


@pytest.mark.parametrize("fake", [SECRET], indirect=True)
async def test_the_token_shows_nowhere(
    fake: FakeDiscord,
    engine: Engine,
    catalog: Catalog,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)  # even discord.py's debug lines
    # A rejected token: the operator gets one clear line, without the token.
    settings = discord_settings({**fake.environ(), "DISCORD_TOKEN": WRONG})
    with pytest.raises(SettingsError) as rejected:
        await runtime.serve(engine, settings)
    assert "401 Unauthorized" in str(rejected.value)

    bank = catalog.get("tiny")
    assert bank is not None
    async with running_bot(fake, engine):
        quiz = await fake.slash("quiz", topic="tiny")
        fake.faults += [Fault("/callback", status=429), Fault("/callback", drop=True)]
        right = answer_button(quiz, bank.questions[0], True)["custom_id"]
        answered = await fake.click(quiz.message["id"], right)
        assert t("en", "right") in answered.text()
        fake.forbidden.add(CHANNEL_ID)  # posting fails: 403
        race = await fake.slash("quiz-race", user=OWEN, topic="tiny")
        assert race.content  # told why, privately
    assert len(fake.faults_served) == 2

    everything_sent = json.dumps([call.body for call in fake.calls], ensure_ascii=False)
    for secret in (SECRET, WRONG):
        assert secret not in logged(caplog)
        assert secret not in str(rejected.value)
        assert secret not in everything_sent
    # The test can fail: the fake did get the token, in the Authorization header.
    assert fake.identifies == 1

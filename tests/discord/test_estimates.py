"""An estimate on Discord, through the real discord.py client on the fake Discord: the
question's Answer button opens a modal; a value that does not read gets a private
try-again and leaves the question; one that does replaces the question with its feedback."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from adapters.discord.client import QuizClient
from bot.content.banks import load_catalog
from bot.persistence import Store
from bot.services.engine import Engine
from fakes.discord import BOB, FakeDiscord

from ..support.environment import FIXTURES
from .support import running_bot


@pytest.fixture
async def bot(fake: FakeDiscord, store: Store) -> AsyncIterator[QuizClient]:
    engine = Engine(load_catalog([FIXTURES / "estimates"]), store)
    async with running_bot(fake, engine) as client:
        yield client


async def test_an_estimate_is_typed_in_a_modal_and_scored_in_place(
    fake: FakeDiscord, bot: QuizClient
) -> None:
    question = await fake.slash("quiz", topic="kv")
    assert "Answer with a number and a unit (B, KiB, MB, GiB …)" in question.text()
    [answer] = question.buttons
    assert answer["label"] == "Answer" and answer["custom_id"].startswith("qz:e:")
    message = question.message["id"]
    opened = await fake.click(message, answer["custom_id"])
    assert opened.callback_type == 9 and opened.modal is not None  # the form, at once
    assert opened.modal["title"] == "Your estimate"
    assert opened.modal["custom_id"] == answer["custom_id"]
    [field] = [row["components"][0] for row in opened.modal["components"]]
    assert (field["label"], field["placeholder"]) == ("A number and a unit", "B, KiB, MB, GiB …")
    wrong = await fake.submit(opened.modal, {"estimate": "512 ms"}, message=message)
    assert wrong.ephemeral is True
    assert wrong.text() == (
        "“512 ms” is a time, but this question asks for an amount of memory. Write a number"
        " and a unit: B, KiB, MB, GiB …"
    )
    again = await fake.click(message, answer["custom_id"])
    assert again.modal is not None
    done = await fake.submit(again.modal, {"estimate": "0.3 MiB"}, message=message)
    assert done.callback_type == 7  # the question, replaced by its feedback
    shown = done.text()
    for line in (
        "Within 2×!",
        "Your estimate: 0.3 MiB (= 307 KiB)",
        "The answer: 512 KiB",
        "Off by -40 %.",
        "+15 points",
    ):
        assert line in shown, line


async def test_someone_elses_estimate_button_opens_no_form(
    fake: FakeDiscord, bot: QuizClient
) -> None:
    question = await fake.slash("quiz", topic="kv")
    [answer] = question.buttons
    told = await fake.click(question.message["id"], answer["custom_id"], user=BOB)
    assert told.modal is None and told.ephemeral is True
    assert told.text() == "This quiz belongs to someone else. Start your own with /quiz kv."

"""Fuzzed input through the real discord.py client: button ids, slash command options and
interaction fields. Never a crash (any ERROR log fails the test), never a point that
should not be, always a short clear answer for the person waiting."""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adapters.discord.client import QuizClient
from bot.content.banks import Catalog
from fakes.discord import ALICE, BOB, FakeDiscord, FakeUser, Outcome

from .support import answers_on_disk, play

FUZZ = settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
TEXT = st.text(st.characters(exclude_categories=["Cs"]), max_size=300)
# Lone surrogates: JSON can carry them (as \ud800), so discord.py can hand them to us.
ODD = st.one_of(
    TEXT,
    st.text(st.characters(categories=["Cs", "Cf", "Mn", "Zl", "Zp", "Co"]), max_size=50),
    st.text(string.printable, min_size=101, max_size=6000),  # oversized
    st.just(""),
)


def assert_short_clear_reply(outcome: Outcome) -> None:
    """A private word or a quiz view that fits Discord's limits (the fake rejects the
    rest with a 400, which would fail the test as an ERROR log)."""
    assert outcome.message is not None
    assert 0 < len(outcome.text()) <= 4096


@pytest.fixture
async def quizzes(fake: FakeDiscord, bot: QuizClient, catalog: Catalog) -> dict[str, str]:
    """Bob's quiz and Alice's finished one: their messages by button id. Nothing on them
    is Alice's to score."""
    bank = catalog.get("tiny")
    assert bank is not None
    bobs = await fake.slash("quiz", topic="tiny", user=BOB)
    ids = {b["custom_id"]: bobs.message["id"] for b in bobs.buttons}
    first = await fake.slash("quiz", topic="tiny")
    ids |= {b["custom_id"]: first.message["id"] for b in first.buttons}
    await play(fake, bank, [True, False])  # the same run, finished
    return ids


def _mutated(ids: list[str]) -> st.SearchStrategy[str]:
    known = st.sampled_from(ids)
    return st.one_of(
        ODD,
        known,
        st.builds(lambda i, n: i[:n], known, st.integers(0, 40)),  # truncated
        st.builds(lambda i, extra: i + extra, known, ODD),  # extended, oversized
        st.builds(lambda i, n: i[:5] + "0123456789abcdef" + i[5 + n :], known, st.integers(8, 32)),
        st.builds(lambda extra: "qz:a:" + extra, ODD),
        st.builds(lambda extra: "qz:n:" + extra, ODD),
    )


@FUZZ
@given(data=st.data())
async def test_no_fuzzed_button_scores_or_crashes(
    fake: FakeDiscord, quizzes: dict[str, str], tmp_path: Path, data: st.DataObject
) -> None:
    before = answers_on_disk(tmp_path / "quiz.db")
    custom_id = data.draw(_mutated(list(quizzes)))
    message = data.draw(st.sampled_from(sorted(set(quizzes.values()))))
    outcome = await fake.click(message, custom_id)
    assert_short_clear_reply(outcome)
    assert answers_on_disk(tmp_path / "quiz.db") == before


COMMANDS = [
    ("quiz", "topic"),
    ("quiz-leaderboard", "topic"),
    ("quiz-leaderboard", "period"),
    ("quiz-lang", "language"),
]


@FUZZ
@given(command=st.sampled_from(COMMANDS), value=ODD)
async def test_any_option_value_gets_a_short_clear_reply(
    fake: FakeDiscord, bot: QuizClient, tmp_path: Path, command: tuple[str, str], value: str
) -> None:
    name, option = command
    outcome = await fake.slash(name, **{option: value})
    assert_short_clear_reply(outcome)
    assert answers_on_disk(tmp_path / "quiz.db") == []


@FUZZ
@given(
    typed=ODD,
    locale=st.one_of(st.sampled_from(["en-US", "hi", "pt-BR", ""]), TEXT),
    name=ODD,
)
async def test_odd_people_and_locales_are_served(
    fake: FakeDiscord, bot: QuizClient, typed: str, locale: str, name: str
) -> None:
    user = FakeUser(ALICE.id, name or "x")
    choices = await fake.autocomplete("quiz", "topic", typed, user=user, locale=locale)
    assert len(choices) <= 25
    outcome = await fake.slash("quiz-topics", user=user, locale=locale)
    assert_short_clear_reply(outcome)

"""Helpers the Discord tests share: playing a quiz through the fake, what is on disk,
what was logged."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from bot.content.banks import Bank, Question
from bot.play import codec

from .fake_discord import ALICE, FakeDiscord, FakeUser, Outcome


def answer_button(outcome: Outcome, question: Question, correct: bool) -> dict:
    """The button of the right answer, or of a wrong one (the id names the bank choice)."""
    for button in outcome.buttons:
        action = codec.decode(button["custom_id"])
        assert isinstance(action, codec.AnswerAction)
        if (action.choice == question.answer) == correct:
            return button
    raise AssertionError("no such button")


async def play(
    fake: FakeDiscord,
    bank: Bank,
    pattern: list[bool],
    user: FakeUser = ALICE,
    locale: str = "en-US",
) -> Outcome:
    """Start the bank's quiz and answer right or wrong by the pattern; the last outcome."""
    outcome = await fake.slash("quiz", topic=bank.id, user=user, locale=locale)
    message = outcome.message["id"]
    for position, correct in enumerate(pattern):
        if position:
            outcome = await fake.click(message, outcome.buttons[0]["custom_id"], user=user)
        button = answer_button(outcome, bank.questions[position], correct)
        outcome = await fake.click(message, button["custom_id"], user=user, locale=locale)
    return outcome


def answers_on_disk(db: Path) -> list[tuple[str, int, str, int, int, int]]:
    """Every recorded answer: (run, position, player, choice, correct, points)."""
    with sqlite3.connect(db) as connection:
        return connection.execute(
            "SELECT run_id, position, player_id, choice, correct, points FROM answers"
            " ORDER BY run_id, position"
        ).fetchall()


def warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.get_records("call") if r.levelno == logging.WARNING]

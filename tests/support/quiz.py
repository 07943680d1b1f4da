"""Players and a team, and playing a personal quiz through the engine."""

from __future__ import annotations

import re

from bot.domain.actions import AnswerAction, decode
from bot.domain.identities import PlayerRef, ScopeRef
from bot.services.engine import Engine
from bot.services.requests import button
from bot.ui.views import Feedback, QuestionView

ANA = PlayerRef("slack", "U1", "Ana")


BO = PlayerRef("slack", "U2", "Bo")


TEAM = ScopeRef("slack", "T1", "C1")


def far_off(written: str) -> str:
    """An estimate a hundred times the true value, in its unit: "512 KiB" → "51200 KiB";
    it scores nothing (beyond 10× off)."""
    found = re.match(r"^([0-9.]+)\s*(.*)$", written)
    assert found is not None, written
    return f"{float(found[1]) * 100:g} {found[2]}".strip()


def right_choice(engine: Engine, view: QuestionView) -> str:
    """The action id of the right answer, found from the bank, not the view."""
    action = decode(view.choices[0].action_id)
    assert isinstance(action, AnswerAction)
    bank = engine.catalog.get(view.topic)
    assert bank is not None
    question = next(q for q in bank.questions if q.prompt[view.locale] == view.prompt)
    return AnswerAction(action.run_id, action.position, question.answer).encode()


def wrong_choice(engine: Engine, view: QuestionView) -> str:
    right = right_choice(engine, view)
    return next(c.action_id for c in view.choices if c.action_id != right)


async def play(
    engine: Engine, player: PlayerRef, topic: str, *, right: bool, scope: ScopeRef = TEAM
) -> Feedback:
    view = await engine.start_quiz(player, scope, topic, "en")
    assert isinstance(view, QuestionView)
    while True:
        pick = right_choice if right else wrong_choice
        feedback = await engine.click(player, button(pick(engine, view)))
        assert isinstance(feedback, Feedback)
        if feedback.next_action is None:
            return feedback
        view = await engine.click(player, button(feedback.next_action))  # type: ignore[assignment]
        assert isinstance(view, QuestionView)

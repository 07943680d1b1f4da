"""The terminal's own text: ``quizbot play`` and its prompts, in every language."""

from __future__ import annotations

from bot.ui import plain
from bot.ui.messages import Messages
from bot.ui.phrases import CataloguePhrases

TEXT = Messages("adapters", "terminal")
PHRASES = CataloguePhrases(TEXT, "quizbot play ")


def render(view: object) -> str:
    """A view as the terminal shows it: a stream, which never repeats a question."""
    return plain.render(view, PHRASES, stream=True)

"""The proposal form: a Discord modal of five text inputs (Discord's most), and its
submission read back as the core's request. The modal has a fixed custom_id and is not
tracked by discord.py: a submission is routed by that id alone (in on_interaction), so
it reaches the core on any process, also after a restart."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import discord

from bot.domain import actions
from bot.services.requests import (
    AnswerDailyEstimate,
    AnswerEstimate,
    ProposeQuestion,
    estimate_answer,
)

from .phrases import TEXT
from .render import fit

PROPOSAL_FORM = "quiz-propose"  # the modal's custom_id (no quiz button's: see codec)
TITLE, LABEL, PLACEHOLDER = 45, 45, 100  # Discord's limits for a modal


@dataclass(frozen=True)
class Field:
    name: str  # the input's custom_id, the ProposeQuestion field it fills
    key: str  # its label in the catalogue; its placeholder is key + "_hint"
    long: bool  # a paragraph rather than one line
    max_length: int
    required: bool = True


FIELDS = (
    Field("topic", "form_topic", long=False, max_length=64),
    Field("prompt", "form_question", long=True, max_length=1000),
    Field("choices", "form_choices", long=True, max_length=1000),
    Field("explanation", "form_explanation", long=True, max_length=2000),
    Field("reference", "form_reference", long=False, max_length=500, required=False),
)


def proposal_form(locale: str) -> discord.ui.Modal:
    """The form in the member's language."""
    modal = discord.ui.Modal(
        title=fit(TEXT.t(locale, "form_title"), TITLE), custom_id=PROPOSAL_FORM, timeout=None
    )
    for field in FIELDS:
        modal.add_item(
            discord.ui.TextInput(
                label=fit(TEXT.t(locale, field.key), LABEL),
                custom_id=field.name,
                style=discord.TextStyle.paragraph if field.long else discord.TextStyle.short,
                placeholder=fit(TEXT.t(locale, f"{field.key}_hint"), PLACEHOLDER),
                max_length=field.max_length,
                required=field.required,
            )
        )
    modal.stop()  # see the module's docstring, and Message.view for buttons
    return modal


ESTIMATE = "estimate"  # the estimate form's one input


def estimate_form(locale: str, action_id: str, units: str) -> discord.ui.Modal:
    """The form an estimate's Answer button opens: one line for a value and its unit.
    Its custom_id is the button's, which names the run and question."""
    modal = discord.ui.Modal(
        title=fit(TEXT.t(locale, "estimate_title"), TITLE), custom_id=action_id, timeout=None
    )
    modal.add_item(
        discord.ui.TextInput(
            label=fit(TEXT.t(locale, "estimate_label"), LABEL),
            custom_id=ESTIMATE,
            style=discord.TextStyle.short,
            placeholder=fit(units, PLACEHOLDER),
            max_length=100,
        )
    )
    modal.stop()
    return modal


def estimate_of(data: Mapping[str, Any]) -> AnswerEstimate | AnswerDailyEstimate | None:
    """A submitted estimate form (a quiz's or a daily's) as the core's request; None for
    any other modal."""
    typed = dict(_inputs(data.get("components"))).get(ESTIMATE, "")
    return estimate_answer(actions.decode(data.get("custom_id")), typed)


def proposal_of(data: Mapping[str, Any]) -> ProposeQuestion | None:
    """A submitted proposal form as the core's request; None for any other modal. A
    forged submission's missing or odd inputs read as empty, for the core to refuse."""
    if data.get("custom_id") != PROPOSAL_FORM:
        return None
    values = dict(_inputs(data.get("components")))
    return ProposeQuestion(**{field.name: values.get(field.name, "") for field in FIELDS})


def _inputs(components: object) -> Iterator[tuple[str, str]]:
    """(custom_id, value) of every text input, in action rows or label components."""
    for component in components if isinstance(components, list) else ():
        if not isinstance(component, dict):
            continue
        if component.get("type") == 1:
            yield from _inputs(component.get("components"))
        elif component.get("type") == 18:
            yield from _inputs([component.get("component")])
        elif isinstance(component.get("custom_id"), str) and isinstance(
            component.get("value"), str
        ):
            yield component["custom_id"], component["value"]

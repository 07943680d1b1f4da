"""The forms a command opens on Slack — uploading a bank, proposing a question — as modal
views in the member's language, and the requests a submitted form makes.

Pure: no I/O. Every input is an ``input`` block whose block id is its action id, so a
form's problem can be shown under the input it is about (``response_action: errors``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.content.banks import MAX_CHOICES, MIN_CHOICES
from bot.content.formats.model import slug
from bot.domain import actions
from bot.services.requests import (
    AnswerDailyEstimate,
    AnswerEstimate,
    ProposeQuestion,
    estimate_answer,
)
from bot.services.workspace_banks import UPLOAD_LIMIT
from bot.ui.i18n import DEFAULT_LOCALE, LOCALE_NAMES

from .parse import ESTIMATE_FORM, PROPOSAL_FORM, UPLOAD_FORM, SlackFile, Submission, metadata
from .phrases import TEXT

Json = dict[str, Any]

FILE, PASTED, FORMAT, PASTED_ID, OPTIONS = "file", "pasted", "format", "pasted_id", "options"
LANGUAGE = "language"
ESTIMATE = "estimate"
ESTIMATE_LIMIT = 100  # a value and a unit: far more than one needs
ALLOW_MISSING = "allow_missing"
TOPIC, PROMPT, CHOICES, EXPLANATION, REFERENCE = (
    "topic",
    "prompt",
    "choices",
    "explanation",
    "reference",
)
FILETYPES = ("yaml", "yml", "gift", "xml", "json", "csv", "txt")
PASTE_LIMIT = 3000  # the most a plain_text_input takes
# What pasted text may be: the select's value, its label, and the extension that tells
# the importer its format (Aiken has none of its own: .txt).
PASTED_FORMATS = (
    ("yaml", "YAML", ".yaml"),
    ("gift", "Moodle GIFT", ".gift"),
    ("aiken", "Aiken", ".txt"),
    ("moodle-xml", "Moodle XML", ".xml"),
    ("opentdb", "Open Trivia DB JSON", ".json"),
    ("csv", "CSV", ".csv"),
)
# The pasted text's file name, in errors (pasted.gift:3) and as an import format's bank
# id (a YAML bank names its own), unless the member gives a topic id.
PASTED_NAME = "pasted"


def _plain(text: str) -> Json:
    return {"type": "plain_text", "text": text, "emoji": False}


def _option(label: str, value: str) -> Json:
    return {"text": _plain(label), "value": value}


def _input(
    locale: str, action_id: str, element: Json, optional: bool = False, **values: object
) -> Json:
    """An input labelled ``<action>_label``, hinted by ``<action>_hint`` (filled with
    ``values``) where there is one."""
    block: Json = {
        "type": "input",
        "block_id": action_id,
        "label": _plain(TEXT.t(locale, f"{action_id}_label")),
        "element": {**element, "action_id": action_id},
        "optional": optional,
    }
    hint = f"{action_id}_hint"
    if hint in TEXT.catalogue(locale).keys:
        block["hint"] = _plain(TEXT.t(locale, hint, **values))
    return block


def _text_input(multiline: bool, max_length: int = PASTE_LIMIT) -> Json:
    return {"type": "plain_text_input", "multiline": multiline, "max_length": max_length}


def _modal(
    form: str, locale: str, channel_id: str, blocks: list[Json], private_metadata: str = ""
) -> Json:
    return {
        "type": "modal",
        "callback_id": form,
        "title": _plain(TEXT.t(locale, f"{form}_title")),
        "submit": _plain(TEXT.t(locale, f"{form}_submit")),
        "close": _plain(TEXT.t(locale, "form_close")),
        "private_metadata": private_metadata or metadata(channel_id, locale),
        "blocks": blocks,
    }


def estimate_view(
    locale: str, channel_id: str, action_id: str, reply_url: str, prompt: str, how: str
) -> Json:
    """The form an estimate's Answer button opens: the question again and one line for a
    value with its unit (checked when submitted: a value that does not read keeps the
    form open, saying why under it)."""
    question = {"type": "section", "text": {"type": "plain_text", "text": prompt[:3000]}}
    answer = _input(locale, ESTIMATE, _text_input(multiline=False, max_length=ESTIMATE_LIMIT))
    answer["hint"] = _plain(how[:2000])
    return _modal(
        ESTIMATE_FORM, locale, channel_id, [question, answer],
        metadata(channel_id, locale, action_id, reply_url),
    )  # fmt: skip


def estimate(sent: Submission) -> AnswerEstimate | AnswerDailyEstimate | None:
    """The estimate a submitted form gives, or None for a form that names no estimate."""
    if not sent.reply_url:
        return None
    return estimate_answer(actions.decode(sent.action_id), _str(sent.values, ESTIMATE))


def upload_view(locale: str, channel_id: str) -> Json:
    """A file, or pasted text in a format the member picks; whether questions may lack
    an explanation or a reference."""
    formats = [_option(label, value) for value, label, _ in PASTED_FORMATS]
    languages = [_option(name, code) for code, name in LOCALE_NAMES.items()]
    mine = next((o for o in languages if o["value"] == locale), languages[0])
    return _modal(
        UPLOAD_FORM,
        locale,
        channel_id,
        [
            _input(
                locale,
                FILE,
                {"type": "file_input", "filetypes": list(FILETYPES), "max_files": 1},
                optional=True,
                limit=UPLOAD_LIMIT,
            ),
            _input(locale, PASTED, _text_input(multiline=True), optional=True, most=PASTE_LIMIT),
            _input(
                locale,
                FORMAT,
                {"type": "static_select", "options": formats, "initial_option": formats[0]},
            ),
            _input(locale, PASTED_ID, _text_input(multiline=False, max_length=100), optional=True),
            _input(
                locale,
                LANGUAGE,
                {"type": "static_select", "options": languages, "initial_option": mine},
            ),
            _input(
                locale,
                OPTIONS,
                {
                    "type": "checkboxes",
                    "options": [_option(TEXT.t(locale, "allow_missing"), ALLOW_MISSING)],
                },
                optional=True,
            ),
        ],
    )


def proposal_view(locale: str, channel_id: str) -> Json:
    return _modal(
        PROPOSAL_FORM,
        locale,
        channel_id,
        [
            _input(locale, TOPIC, _text_input(multiline=False, max_length=100)),
            _input(locale, PROMPT, _text_input(multiline=True)),
            _input(
                locale, CHOICES, _text_input(multiline=True), least=MIN_CHOICES, most=MAX_CHOICES
            ),
            _input(locale, EXPLANATION, _text_input(multiline=True)),
            _input(locale, REFERENCE, _text_input(multiline=False), optional=True),
        ],
    )


@dataclass(frozen=True)
class Upload:
    """A submitted upload form."""

    files: tuple[SlackFile, ...]
    pasted: str
    pasted_format: str  # a PASTED_FORMATS value
    pasted_id: str  # the topic id for pasted text in an import format ("" if none given)
    allow_missing: bool
    language: str  # what a one-language import format is written in

    @property
    def problem(self) -> str | None:
        """Why the form cannot be sent on (a key of the Slack catalogue), if it cannot."""
        if not self.files and not self.pasted.strip():
            return "upload_empty"
        if self.files and self.pasted.strip():
            return "upload_both"
        return None

    @property
    def pasted_name(self) -> str:
        extension = next((e for v, _, e in PASTED_FORMATS if v == self.pasted_format), ".yaml")
        return (slug(self.pasted_id.strip()) or PASTED_NAME) + extension


def _str(values: Mapping[str, object], key: str) -> str:
    value = values.get(key)
    return value if isinstance(value, str) else ""


def _tuple(values: Mapping[str, object], key: str) -> tuple[object, ...]:
    value = values.get(key)
    return value if isinstance(value, tuple) else ()


def upload(values: Mapping[str, object]) -> Upload:
    files = tuple(f for f in _tuple(values, FILE) if isinstance(f, SlackFile))
    allow_missing = ALLOW_MISSING in _tuple(values, OPTIONS)
    pasted, pasted_format = _str(values, PASTED), _str(values, FORMAT) or "yaml"
    language = _str(values, LANGUAGE) or DEFAULT_LOCALE
    return Upload(files, pasted, pasted_format, _str(values, PASTED_ID), allow_missing, language)


def errors(locale: str, problem: str) -> dict[str, str]:
    """``response_action: errors`` for an upload form: shown under the file input."""
    return {FILE: TEXT.t(locale, problem)}


def proposal(values: Mapping[str, object]) -> ProposeQuestion:
    topic, prompt, choices, explanation, reference = (
        _str(values, key) for key in (TOPIC, PROMPT, CHOICES, EXPLANATION, REFERENCE)
    )
    return ProposeQuestion(topic, prompt, choices, explanation, reference)

"""Neutral views to Slack messages: Block Kit blocks plus a plain ``text`` fallback.

Pure: no I/O. Blocks are built with slack_sdk's block classes, whose ``to_dict()``
checks per-element lengths; what no library checks (blocks per message, long text
split across sections) is done here against ``LIMITS``. Bank text and player names
go into mrkdwn escaped and ``verbatim``, so neither ``<!channel>`` nor ``@here`` in a
question can ping anyone.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import singledispatch
from typing import Any

from slack_sdk.models.blocks import (
    ActionsBlock,
    Block,
    ButtonElement,
    ContextBlock,
    DividerBlock,
    HeaderBlock,
    MarkdownTextObject,
    PlainTextObject,
    SectionBlock,
)

from bot import plain
from bot.messages import t
from bot.views import (
    Feedback,
    Leaderboard,
    Notice,
    QuestionView,
    Stats,
    Summary,
    TopicList,
)


@dataclass(frozen=True)
class Limits:
    """Slack's limits for a message (see PLATFORM_LIMITS.md)."""

    blocks: int = 50
    text_object: int = 3000  # a section's or context element's mrkdwn text
    header: int = 150
    button_text: int = 75
    action_id: int = 255
    buttons_per_block: int = 25
    context_elements: int = 10
    fallback_text: int = 4000  # Slack advises keeping `text` under this


LIMITS = Limits()


class LimitError(ValueError):
    """A rendered message would break a Slack limit that no library checks."""


@dataclass(frozen=True)
class SlackMessage:
    text: str  # the fallback shown in notifications and by screen readers
    blocks: tuple[dict[str, Any], ...]

    def payload(self) -> dict[str, Any]:
        return {"text": self.text, "blocks": list(self.blocks)}


def escape(text: str) -> str:
    """Escape the three characters mrkdwn treats as control characters."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def render(view: object) -> SlackMessage:
    """The Slack message for any engine view."""
    return _message(view, _blocks(view))


def _message(view: object, blocks: Sequence[Block]) -> SlackMessage:
    if len(blocks) > LIMITS.blocks:
        raise LimitError(f"{type(view).__name__} needs {len(blocks)} blocks (max {LIMITS.blocks})")
    text = escape(plain.render(view))
    if len(text) > LIMITS.fallback_text:
        # Only the notification preview; the blocks carry the whole message.
        text = text[: LIMITS.fallback_text - 1].rsplit(" ", 1)[0] + "…"
    return SlackMessage(text, tuple(block.to_dict() for block in blocks))


# --- building blocks ---------------------------------------------------------------------


def _mrkdwn(text: str) -> MarkdownTextObject:
    return MarkdownTextObject(text=text, verbatim=True)


def _chunks(text: str, size: int = LIMITS.text_object) -> Iterator[str]:
    """Split text into pieces of at most ``size`` characters, at paragraph, line or
    word boundaries, so long bank text is split across blocks, never cut off."""
    while len(text) > size:
        cut = max(text.rfind(sep, 0, size) for sep in ("\n\n", "\n", " "))
        cut = cut if cut > 0 else size
        yield text[:cut].rstrip()
        text = text[cut:].lstrip()
    if text:
        yield text


def _sections(text: str) -> list[Block]:
    return [SectionBlock(text=_mrkdwn(chunk)) for chunk in _chunks(text)]


def _context(text: str) -> list[Block]:
    pieces = list(_chunks(text))
    groups = range(0, len(pieces), LIMITS.context_elements)
    return [
        ContextBlock(elements=[_mrkdwn(p) for p in pieces[i : i + LIMITS.context_elements]])
        for i in groups
    ]


def _heading(text: str) -> Block:
    if len(text) <= LIMITS.header:
        return HeaderBlock(text=PlainTextObject(text=text, emoji=False))
    return SectionBlock(text=_mrkdwn(f"*{escape(text)}*"))


def _buttons(buttons: Sequence[ButtonElement]) -> list[Block]:
    step = LIMITS.buttons_per_block
    return [
        ActionsBlock(elements=list(buttons[i : i + step])) for i in range(0, len(buttons), step)
    ]


def _button(label: str, action_id: str, primary: bool = False) -> ButtonElement:
    if len(label) > LIMITS.button_text or len(action_id) > LIMITS.action_id:
        raise LimitError(f"button {label!r} / {action_id!r} is too long for Slack")
    return ButtonElement(
        text=PlainTextObject(text=label, emoji=False),
        action_id=action_id,
        style="primary" if primary else None,
    )


def _link(url: str) -> str:
    safe = escape(url).replace("|", "%7C")  # `|` would end the link's URL part
    return f"<{safe}>"


# --- one function per view -----------------------------------------------------------------


@singledispatch
def _blocks(view: object) -> list[Block]:
    raise TypeError(f"no Slack rendering for {type(view).__name__}")


def _question_heading(view: QuestionView) -> Block:
    return _heading(
        t(
            view.locale,
            "question_heading",
            number=view.number,
            total=view.total,
            topic=view.topic_title,
        )
    )


@_blocks.register
def _question(view: QuestionView) -> list[Block]:
    # Choices go in the body in full: bank choices are longer than a button's 75 characters.
    choices = "\n".join(f"*{c.letter}.* {escape(c.text)}" for c in view.choices)
    return [
        _question_heading(view),
        *_sections(escape(view.prompt)),
        *_sections(choices),
        *_context(escape(t(view.locale, "choose"))),
        *_buttons([_button(c.letter, c.action_id) for c in view.choices]),
    ]


@_blocks.register
def _feedback(view: Feedback) -> list[Block]:
    verdict, *details = [escape(line) for line in plain.feedback_lines(view)]
    blocks = [
        _question_heading(view.question),
        *_sections(escape(view.question.prompt)),
        *_sections("\n".join([f"*{verdict}*", *details])),
        *_sections(escape(view.explanation)),
    ]
    if view.references:
        links = " · ".join(_link(ref) for ref in view.references)
        blocks += _context(f"{escape(t(view.locale, 'reference'))}: {links}")
    blocks += _context(escape(plain.progress_line(view)))
    if view.next_action:
        blocks += _buttons([_button(t(view.locale, "next_button"), view.next_action, True)])
    if view.summary:
        blocks += [DividerBlock(), *_summary(view.summary)]
    return blocks


@_blocks.register
def _summary(view: Summary) -> list[Block]:
    title = escape(t(view.locale, "summary_title", topic=view.topic_title))
    return _sections("\n".join([f"*{title}*", *map(escape, plain.summary_lines(view))]))


@_blocks.register
def _notice(view: Notice) -> list[Block]:
    return _sections(escape(view.text))


@_blocks.register
def _topics(view: TopicList) -> list[Block]:
    blocks: list[Block] = []
    if view.unknown is not None:
        blocks += _sections("\n".join(escape(line) for line in plain.topic_lines(view)))
    blocks.append(_heading(t(view.locale, "topics_title")))
    entries = [
        f"*{escape(topic.title)}* · `{escape(topic.id)}` · "
        f"{escape(t(view.locale, 'topic_line', questions=topic.questions))}\n"
        f"{escape(topic.description)}"
        for topic in view.topics
    ]
    # Topics share sections (split only at 3000 characters) so the list fits in 50 blocks.
    blocks += _sections("\n\n".join(entries))
    blocks += _context(escape(t(view.locale, "usage")))
    return blocks


@_blocks.register
def _leaderboard(view: Leaderboard) -> list[Block]:
    rows = [
        f"*{row.rank}.* {escape(row.name)} — "
        + escape(
            t(
                view.locale,
                "leaderboard_row",
                points=row.points,
                correct=row.correct,
                answered=row.answered,
            )
        )
        for row in view.rows
    ] or [escape(t(view.locale, "leaderboard_empty"))]
    return [
        _heading(plain.leaderboard_title(view)),
        *_sections("\n".join(rows)),
        *_context(escape(plain.you_line(view))),
    ]


@_blocks.register
def _stats(view: Stats) -> list[Block]:
    rows = [
        f"*{escape(row.topic_title)}*: "
        + escape(
            t(
                view.locale,
                "stats_row",
                correct=row.correct,
                answered=row.answered,
                accuracy=row.accuracy,
                points=row.points,
            )
        )
        for row in view.rows
    ] or [escape(t(view.locale, "stats_empty"))]
    return [_heading(t(view.locale, "stats_title")), *_sections("\n".join(rows))]

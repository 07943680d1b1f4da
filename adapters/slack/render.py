"""Neutral views to Slack messages: Block Kit blocks plus a plain ``text`` fallback.

Pure: no I/O. Blocks are built with slack_sdk's block classes, whose ``to_dict()``
checks per-element lengths; what no library checks (blocks per message, long text
split across sections) is done here against ``LIMITS``. Bank text and player names
go into mrkdwn escaped and ``verbatim``, so neither ``<!channel>`` nor ``@here`` in a
question can ping anyone. The only markup added is Slack's ``<!date^…>``, which shows a
moment in each reader's own timezone.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
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

from bot.ui import plain
from bot.ui.messages import t
from bot.ui.views import (
    ChannelFeedback,
    ChoiceView,
    DailyPostView,
    DailyRevealView,
    Feedback,
    Leaderboard,
    LeaderRow,
    Notice,
    QuestionView,
    RaceLockedView,
    RacePodiumView,
    RaceQuestionView,
    RaceRevealView,
    Stats,
    Summary,
    TopicList,
)


@dataclass(frozen=True)
class Limits:
    """Slack's limits for a message (see docs/PLATFORM_LIMITS.md)."""

    blocks: int = 50
    text_object: int = 3000  # a section's or context element's mrkdwn text
    header: int = 150
    button_text: int = 75
    action_id: int = 255
    buttons_per_block: int = 25
    context_elements: int = 10
    fallback_text: int = 4000  # Slack advises keeping `text` under this
    names: int = 2000  # display names listed in one reveal, before "… +N"


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


def _local_time(at: float) -> str:
    """A moment in each reader's timezone; clients that cannot show it use the fallback."""
    return f"<!date^{int(at)}^{{time}}|{escape(plain.clock_label(at))}>"


def _choice_list(choices: Iterable[tuple[str, str]]) -> list[Block]:
    """Lettered choices in full in the body: bank choices are longer than a button allows."""
    return _sections("\n".join(f"*{letter}.* {escape(text)}" for letter, text in choices))


def _answer_buttons(choices: Sequence[ChoiceView]) -> list[Block]:
    return _buttons([_button(c.letter, c.action_id) for c in choices])


def _verdict(lines: Sequence[str]) -> list[Block]:
    """A verdict line in bold over its details (right answer, points)."""
    verdict, *details = [escape(line) for line in lines]
    return _sections("\n".join([f"*{verdict}*", *details]))


def _references(locale: str, references: Sequence[str]) -> list[Block]:
    if not references:
        return []
    links = " · ".join(_link(ref) for ref in references)
    return _context(f"{escape(t(locale, 'reference'))}: {links}")


def _names(names: Sequence[str]) -> str:
    """Names, comma-separated, as many as fit in ``LIMITS.names``; then "… +N"."""
    shown: list[str] = []
    used = 0
    for name in names:
        used += len(name) + 2
        if used > LIMITS.names:
            break
        shown.append(name)
    more = len(names) - len(shown)
    return ", ".join(shown) + (f" … +{more}" if more else "")


def _standings(locale: str, rows: tuple[LeaderRow, ...]) -> list[str]:
    """Medal lines, escaped (names are players' own)."""
    return [
        escape(line) for line in plain.standing_lines(rows, locale) or [t(locale, "no_winners")]
    ]


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
    return [
        _question_heading(view),
        *_sections(escape(view.prompt)),
        *_choice_list((c.letter, c.text) for c in view.choices),
        *_context(escape(t(view.locale, "choose"))),
        *_answer_buttons(view.choices),
    ]


@_blocks.register
def _feedback(view: Feedback) -> list[Block]:
    blocks = [
        _question_heading(view.question),
        *_sections(escape(view.question.prompt)),
        *_verdict(plain.feedback_lines(view)),
        *_sections(escape(view.explanation)),
        *_references(view.locale, view.references),
    ]
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
    # One line a topic (a shelf of 17 descriptions would be a wall of text); topics share
    # sections, split only at 3000 characters, so the list fits in 50 blocks.
    entries = [
        f"*{escape(topic.title)}* · `{escape(topic.id)}` · "
        f"{escape(t(view.locale, 'topic_line', questions=topic.questions))}"
        for topic in view.topics
    ]
    blocks += _sections("\n".join(entries))
    # The core's usage line covers the personal quiz; channel play has one per command.
    usages = ("usage", "daily_usage", "race_usage", "competition_usage")
    blocks += _context("\n".join(escape(t(view.locale, key)) for key in usages))
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
    ] or [escape(t(view.locale, view.empty_key))]
    blocks = [_heading(plain.leaderboard_title(view)), *_sections("\n".join(rows))]
    if not view.final:  # final standings are posted in the channel: there is no "you"
        blocks += _context(escape(plain.you_line(view)))
    return blocks


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


# --- channel play: public posts and private replies to their buttons -------------------------


@_blocks.register
def _daily_post(view: DailyPostView) -> list[Block]:
    marker = "\x00"  # where the local-time markup goes, after escaping the rest
    count = escape(t(view.locale, "daily_count", count=view.answered, reveal=marker))
    return [
        _heading(t(view.locale, "daily_heading", topic=view.topic_title, day=view.day)),
        *_sections(escape(view.prompt)),
        *_choice_list((c.letter, c.text) for c in view.choices),
        *_context(count.replace(marker, _local_time(view.reveal_at))),
        *_answer_buttons(view.choices),
    ]


def _reveal(view: DailyRevealView | RaceRevealView) -> list[Block]:
    """The prompt, every choice in full, then the distribution, right answer and why."""
    return [
        *_sections(escape(view.prompt)),
        *_choice_list((bar.letter, bar.text) for bar in view.bars),
        *_sections(escape("\n".join(plain.reveal_lines(view)))),
    ]


@_blocks.register
def _daily_reveal(view: DailyRevealView) -> list[Block]:
    loc = view.locale
    winners = (
        t(loc, "winners", names=_names(view.winners)) if view.winners else t(loc, "no_winners")
    )
    return [
        _heading(t(loc, "daily_reveal_heading", topic=view.topic_title, day=view.day)),
        *_reveal(view),
        *_references(loc, view.references),
        *_context(escape(t(loc, "answered_total", count=view.answered))),
        *_sections(escape(winners)),
    ]


@_blocks.register
def _channel_feedback(view: ChannelFeedback) -> list[Block]:
    return [
        *_verdict(plain.channel_feedback_lines(view)),
        *_sections(escape(view.explanation)),
        *_references(view.locale, view.references),
    ]


@_blocks.register
def _race_question(view: RaceQuestionView) -> list[Block]:
    return [
        _heading(plain.race_heading(view)),
        *_sections(escape(view.prompt)),
        *_choice_list((c.letter, c.text) for c in view.choices),
        *_context(escape(t(view.locale, "race_hint"))),
        *_answer_buttons(view.choices),
    ]


@_blocks.register
def _race_locked(view: RaceLockedView) -> list[Block]:
    return _sections(escape(plain.render(view)))


@_blocks.register
def _race_reveal(view: RaceRevealView) -> list[Block]:
    loc = view.locale
    heading = t(loc, "race_reveal_heading", number=view.number, total=view.total,
                topic=view.topic_title)  # fmt: skip
    return [
        _heading(heading),
        *_reveal(view),
        *_sections(
            "\n".join([f"*{escape(t(loc, 'standings'))}*", *_standings(loc, view.standings)])
        ),
    ]


@_blocks.register
def _race_podium(view: RacePodiumView) -> list[Block]:
    key = "race_stopped_heading" if view.stopped else "race_podium"
    return [
        _heading(t(view.locale, key, topic=view.topic_title)),
        *_sections("\n".join(_standings(view.locale, view.standings))),
    ]

"""Pure rendering of the engine's neutral views into Discord messages: embeds plus
lettered buttons. No I/O; every length limit Discord enforces (and discord.py does not
check) is applied here, from the limits declared as data below."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import singledispatch
from typing import Any

import discord

from bot import plain
from bot.messages import t
from bot.plain import (
    feedback_lines,
    leaderboard_title,
    progress_line,
    summary_lines,
    topic_lines,
    you_line,
)
from bot.views import Feedback, Leaderboard, Notice, QuestionView, Stats, Summary, TopicList


@dataclass(frozen=True)
class Limits:
    """Discord's message limits (see PLATFORM_LIMITS.md)."""

    content: int = 2000
    embeds_total: int = 6000  # across all embeds of a message
    title: int = 256
    description: int = 4096
    fields: int = 25
    field_name: int = 256
    field_value: int = 1024
    footer: int = 2048
    button_label: int = 80
    custom_id: int = 100
    buttons_per_row: int = 5
    rows: int = 5


LIMITS = Limits()
ELLIPSIS = "…"

BLURPLE = discord.Colour.blurple()
GREEN = discord.Colour.green()
RED = discord.Colour.red()
GOLD = discord.Colour.gold()


@dataclass(frozen=True)
class Button:
    label: str
    custom_id: str
    style: discord.ButtonStyle = discord.ButtonStyle.secondary


@dataclass(frozen=True)
class Reply:
    """One message: optional text, embeds and buttons (buttons are always wholly
    replaced, so an edit without buttons removes the old ones)."""

    content: str | None = None
    embeds: tuple[discord.Embed, ...] = ()
    buttons: tuple[Button, ...] = ()

    def view(self) -> discord.ui.View | None:
        """The buttons as a discord.py view. Clicks are routed by custom_id through a
        registered DynamicItem, so the view is stopped before it is sent: discord.py then
        does not track it (an ephemeral view would time out after 15 minutes and, on
        removal, unregister the DynamicItem's pattern for every message)."""
        if not self.buttons:
            return None
        view = discord.ui.View(timeout=None)
        for button in self.buttons:
            view.add_item(
                discord.ui.Button(
                    label=button.label, custom_id=button.custom_id, style=button.style
                )
            )
        view.stop()
        return view

    def send_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for a new message (send_message, followup.send)."""
        kwargs: dict[str, Any] = {
            "embeds": list(self.embeds),
            "allowed_mentions": discord.AllowedMentions.none(),
        }
        if self.content:
            kwargs["content"] = self.content
        view = self.view()
        if view is not None:
            kwargs["view"] = view
        return kwargs

    def edit_kwargs(self) -> dict[str, Any]:
        """Keyword arguments that replace a whole message (edit_message and the like)."""
        return {
            "content": self.content,
            "embeds": list(self.embeds),
            "view": self.view(),
            "allowed_mentions": discord.AllowedMentions.none(),
        }

    def to_dict(self) -> dict[str, Any]:
        """The message payload as Discord receives it (for tests and debugging)."""
        view = self.view()
        return {
            "content": self.content or "",
            "embeds": [embed.to_dict() for embed in self.embeds],
            "components": view.to_components() if view else [],
        }


def safe(text: str) -> str:
    """Bank text or a name, shown literally: no markdown, no pings."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text))


def fit(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - len(ELLIPSIS)] + ELLIPSIS


def _embed(
    title: str,
    description: str,
    colour: discord.Colour,
    footer: str | None = None,
    fields: tuple[tuple[str, str], ...] = (),
) -> discord.Embed:
    embed = discord.Embed(
        title=fit(title, LIMITS.title),
        description=fit(description, LIMITS.description),
        colour=colour,
    )
    for name, value in fields[: LIMITS.fields]:
        embed.add_field(
            name=fit(name, LIMITS.field_name), value=fit(value, LIMITS.field_value), inline=False
        )
    if footer:
        embed.set_footer(text=fit(footer, LIMITS.footer))
    return embed


def _bounded(*embeds: discord.Embed) -> tuple[discord.Embed, ...]:
    """Keep a message within Discord's 6000 characters across its embeds: drop trailing
    fields first, then shorten the longest description."""
    while (over := sum(len(e) for e in embeds) - LIMITS.embeds_total) > 0:
        with_fields = [e for e in embeds if e.fields]
        if with_fields:
            with_fields[-1].remove_field(len(with_fields[-1].fields) - 1)
            continue
        longest = max(embeds, key=lambda e: len(e.description or ""))
        text = longest.description or ""
        if len(text) <= len(ELLIPSIS):
            break  # unreachable for our at most two embeds: titles and footers stay < 6000
        longest.description = fit(text, max(len(text) - over, len(ELLIPSIS)))
    return embeds


def _buttons(buttons: list[Button]) -> tuple[Button, ...]:
    # Banks allow at most five choices, one row; the cap keeps the rule structural.
    return tuple(
        Button(fit(b.label, LIMITS.button_label), b.custom_id, b.style)
        for b in buttons[: LIMITS.rows * LIMITS.buttons_per_row]
    )


def _heading(view: QuestionView) -> str:
    return t(
        view.locale,
        "question_heading",
        number=view.number,
        total=view.total,
        topic=safe(view.topic_title),
    )


@singledispatch
def render(view: object) -> Reply:
    """A view without a Discord layout of its own falls back to the core's plain text."""
    return Reply(content=fit(safe(plain.render(view)), LIMITS.content))


@render.register
def _question(view: QuestionView) -> Reply:
    # Choices go in full into the embed; the buttons carry only their letters, since
    # choices are often longer than a button label's 80 characters.
    choices = "\n".join(f"**{c.letter}.** {safe(c.text)}" for c in view.choices)
    embed = _embed(
        _heading(view),
        f"{safe(view.prompt)}\n\n{choices}",
        BLURPLE,
        footer=t(view.locale, "choose"),
    )
    buttons = [Button(c.letter, c.action_id, discord.ButtonStyle.primary) for c in view.choices]
    return Reply(embeds=_bounded(embed), buttons=_buttons(buttons))


def _escaped(view: Feedback) -> Feedback:
    """The feedback with its bank text escaped, so the shared line helpers can lay it out."""
    return replace(
        view,
        chosen=replace(view.chosen, text=safe(view.chosen.text)),
        answer=replace(view.answer, text=safe(view.answer.text)),
    )


def _summary_embed(view: Summary) -> discord.Embed:
    shown = replace(view, topic_title=safe(view.topic_title))
    return _embed(
        t(view.locale, "summary_title", topic=shown.topic_title),
        "\n".join(summary_lines(shown)),
        GOLD,
    )


@render.register
def _feedback(view: Feedback) -> Reply:
    lines = feedback_lines(_escaped(view))
    description = "\n".join([safe(view.question.prompt), "", *lines, "", safe(view.explanation)])
    references = "\n".join(safe(ref) for ref in view.references)
    embed = _embed(
        _heading(view.question),
        description,
        GREEN if view.correct else RED,
        footer=progress_line(view),
        fields=((t(view.locale, "reference"), references),) if references else (),
    )
    embeds = (embed, _summary_embed(view.summary)) if view.summary else (embed,)
    buttons = []
    if view.next_action:
        label = t(view.locale, "next_button")
        buttons.append(Button(label, view.next_action, discord.ButtonStyle.primary))
    return Reply(embeds=_bounded(*embeds), buttons=_buttons(buttons))


@render.register
def _summary(view: Summary) -> Reply:
    return Reply(embeds=_bounded(_summary_embed(view)))


@render.register
def _notice(view: Notice) -> Reply:
    return Reply(content=fit(safe(view.text), LIMITS.content))


@render.register
def _topics(view: TopicList) -> Reply:
    suggestion = view.suggestion
    shown = replace(
        view,
        unknown=None if view.unknown is None else safe(view.unknown),
        suggestion=replace(suggestion, title=safe(suggestion.title)) if suggestion else None,
    )
    description = "\n".join([*topic_lines(shown), t(view.locale, "discord_usage")])
    fields = tuple(
        (
            safe(topic.title),
            f"`/quiz {topic.id}` · {t(view.locale, 'topic_line', questions=topic.questions)}\n"
            f"{safe(topic.description)}",
        )
        for topic in view.topics
    )
    embed = _embed(t(view.locale, "topics_title"), description, BLURPLE, fields=fields)
    return Reply(embeds=_bounded(embed))


@render.register
def _leaderboard(view: Leaderboard) -> Reply:
    title = leaderboard_title(
        replace(view, topic_title=safe(view.topic_title) if view.topic_title else None)
    )
    rows = [
        f"**{row.rank}.** {safe(fit(row.name, 64))} — "
        + t(
            view.locale,
            "leaderboard_row",
            points=row.points,
            correct=row.correct,
            answered=row.answered,
        )
        for row in view.rows
    ]
    description = "\n".join(rows) or t(view.locale, "leaderboard_empty")
    embed = _embed(title, description, GOLD, footer=you_line(view))
    return Reply(embeds=_bounded(embed))


@render.register
def _stats(view: Stats) -> Reply:
    rows = [
        f"**{safe(row.topic_title)}**: "
        + t(
            view.locale,
            "stats_row",
            correct=row.correct,
            answered=row.answered,
            accuracy=row.accuracy,
            points=row.points,
        )
        for row in view.rows
    ]
    description = "\n".join(rows) or t(view.locale, "stats_empty")
    embed = _embed(t(view.locale, "stats_title"), description, BLURPLE)
    return Reply(embeds=_bounded(embed))

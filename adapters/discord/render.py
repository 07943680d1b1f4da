"""Pure rendering of the engine's neutral views into Discord messages: embeds plus
lettered buttons. No I/O; every length limit Discord enforces (and discord.py does not
check) is applied here, from the limits declared as data below."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import singledispatch
from typing import Any

import discord

from bot.ui import plain
from bot.ui.messages import t
from bot.ui.plain import (
    channel_feedback_lines,
    feedback_lines,
    leaderboard_title,
    progress_line,
    race_heading,
    reveal_lines,
    standing_lines,
    summary_lines,
    topic_lines,
    you_line,
)
from bot.ui.views import (
    BarRow,
    ChannelFeedback,
    ChannelView,
    ChoiceView,
    DailyPostView,
    DailyRevealView,
    Feedback,
    Leaderboard,
    LeaderRow,
    Notice,
    QuestionView,
    RacePodiumView,
    RaceQuestionView,
    RaceRevealView,
    Stats,
    Summary,
    TopicList,
)


@dataclass(frozen=True)
class Limits:
    """Discord's message limits (see docs/PLATFORM_LIMITS.md)."""

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
NAME_WIDTH = 64  # a display name in a list: one long name must not crowd out the others
TAIL_WIDTH = 1024  # closing lines kept below a long description (a count, the winners)

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


def _choice_text(choices: tuple[ChoiceView, ...] | tuple[BarRow, ...]) -> str:
    return "\n".join(f"**{c.letter}.** {safe(c.text)}" for c in choices)


def _choice_buttons(choices: tuple[ChoiceView, ...]) -> tuple[Button, ...]:
    # Choices go in full into the embed; the buttons carry only their letters, since
    # choices are often longer than a button label's 80 characters.
    return _buttons([Button(c.letter, c.action_id, discord.ButtonStyle.primary) for c in choices])


def _with_tail(body: str, tail: str) -> str:
    """A description whose closing lines (a count, a deadline, the winners) survive when
    the body above them has to be shortened."""
    tail = fit(tail, TAIL_WIDTH)
    return f"{fit(body, LIMITS.description - len(tail) - 2)}\n\n{tail}"


def timestamp(at: float, style: str) -> str:
    """Discord's time markup: every reader sees the moment in their own timezone and
    language (``t`` a time of day, ``R`` relative, e.g. "in 20 seconds")."""
    return f"<t:{int(at)}:{style}>"


def _safe_choice(choice: ChoiceView) -> ChoiceView:
    return replace(choice, text=safe(choice.text))


def _safe_rows(rows: tuple[LeaderRow, ...]) -> tuple[LeaderRow, ...]:
    return tuple(replace(row, name=safe(fit(row.name, NAME_WIDTH))) for row in rows)


def _references(locale: str, references: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    text = "\n".join(safe(ref) for ref in references)
    return ((t(locale, "reference"), text),) if text else ()


@render.register
def _question(view: QuestionView) -> Reply:
    embed = _embed(
        _heading(view),
        f"{safe(view.prompt)}\n\n{_choice_text(view.choices)}",
        BLURPLE,
        footer=t(view.locale, "choose"),
    )
    return Reply(embeds=_bounded(embed), buttons=_choice_buttons(view.choices))


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
    embed = _embed(
        _heading(view.question),
        description,
        GREEN if view.correct else RED,
        footer=progress_line(view),
        fields=_references(view.locale, view.references),
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
            f"`/quiz {topic.id}` · {t(view.locale, 'topic_line', questions=topic.questions)}",
        )
        for topic in view.topics
    )
    embed = _embed(t(view.locale, "topics_title"), description, BLURPLE, fields=fields)
    return Reply(embeds=_bounded(embed))


@render.register
def _leaderboard(view: Leaderboard, personal: bool = True) -> Reply:
    """A leaderboard; ``personal`` adds the asker's own rank, which a channel post lacks."""
    title = leaderboard_title(
        replace(
            view,
            topic_title=safe(view.topic_title) if view.topic_title else None,
            competition=safe(view.competition) if view.competition else None,
        )
    )
    rows = [
        f"**{row.rank}.** {row.name} — "
        + t(
            view.locale,
            "leaderboard_row",
            points=row.points,
            correct=row.correct,
            answered=row.answered,
        )
        for row in _safe_rows(view.rows)
    ]
    description = "\n".join(rows) or t(view.locale, view.empty_key)
    embed = _embed(title, description, GOLD, footer=you_line(view) if personal else None)
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


# --- channel play -------------------------------------------------------------------------


def render_channel(view: ChannelView) -> Reply:
    """A public channel post. It is addressed to nobody, so a leaderboard (a competition's
    final standings) has no "you" line."""
    if isinstance(view, Leaderboard):
        return _leaderboard(view, personal=False)
    return render(view)


@render.register
def _daily_post(view: DailyPostView) -> Reply:
    # Only the count is public before the reveal: nobody can copy an answer.
    reveal = f"{timestamp(view.reveal_at, 't')} ({timestamp(view.reveal_at, 'R')})"
    embed = _embed(
        t(view.locale, "daily_heading", topic=safe(view.topic_title), day=view.day),
        _with_tail(
            f"{safe(view.prompt)}\n\n{_choice_text(view.choices)}",
            t(view.locale, "daily_count", count=view.answered, reveal=reveal),
        ),
        BLURPLE,
    )
    return Reply(embeds=_bounded(embed), buttons=_choice_buttons(view.choices))


def _reveal_body(view: DailyRevealView | RaceRevealView) -> str:
    """The question, its choices, the distribution, the right answer and why."""
    shown = replace(view, answer=_safe_choice(view.answer), explanation=safe(view.explanation))
    return "\n".join([safe(view.prompt), "", _choice_text(view.bars), "", *reveal_lines(shown)])


@render.register
def _daily_reveal(view: DailyRevealView) -> Reply:
    loc = view.locale
    winners = (
        t(loc, "winners", names=", ".join(safe(fit(n, NAME_WIDTH)) for n in view.winners))
        if view.winners
        else t(loc, "no_winners")
    )
    embed = _embed(
        t(loc, "daily_reveal_heading", topic=safe(view.topic_title), day=view.day),
        _with_tail(
            _reveal_body(view), f"{t(loc, 'answered_total', count=view.answered)}\n{winners}"
        ),
        GOLD,
        fields=_references(loc, view.references),
    )
    return Reply(embeds=_bounded(embed))


@render.register
def _channel_feedback(view: ChannelFeedback) -> Reply:
    shown = replace(view, chosen=_safe_choice(view.chosen), answer=_safe_choice(view.answer))
    verdict, *lines = channel_feedback_lines(shown)
    embed = _embed(
        verdict,
        "\n".join([*lines, "", safe(view.explanation)]),
        GREEN if view.correct else RED,
        fields=_references(view.locale, view.references),
    )
    return Reply(embeds=_bounded(embed))


@render.register
def _race_question(view: RaceQuestionView) -> Reply:
    closes = t(view.locale, "race_closes", when=timestamp(view.closes_at, "R"))
    embed = _embed(
        race_heading(replace(view, topic_title=safe(view.topic_title))),
        _with_tail(f"{safe(view.prompt)}\n\n{_choice_text(view.choices)}", closes),
        BLURPLE,
        footer=t(view.locale, "race_hint"),
    )
    return Reply(embeds=_bounded(embed), buttons=_choice_buttons(view.choices))


def _standings(rows: tuple[LeaderRow, ...], locale: str) -> str:
    return "\n".join(standing_lines(_safe_rows(rows), locale)) or t(locale, "no_winners")


@render.register
def _race_reveal(view: RaceRevealView) -> Reply:
    loc = view.locale
    title = t(loc, "race_reveal_heading", number=view.number, total=view.total,
              topic=safe(view.topic_title))  # fmt: skip
    standings = ((t(loc, "standings"), _standings(view.standings, loc)),)
    embed = _embed(title, _reveal_body(view), GOLD, fields=standings)
    return Reply(embeds=_bounded(embed))


@render.register
def _race_podium(view: RacePodiumView) -> Reply:
    key = "race_stopped_heading" if view.stopped else "race_podium"
    embed = _embed(
        t(view.locale, key, topic=safe(view.topic_title)),
        _standings(view.standings, view.locale),
        GOLD,
    )
    return Reply(embeds=_bounded(embed))

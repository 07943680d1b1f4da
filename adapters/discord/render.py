"""Documents to Discord messages: a card is an embed (its tone the colour), a plain card
is message text, buttons carry their letters. Pure: no I/O. Discord's limits (which
discord.py does not check) are applied here from ``LIMITS``, by one policy: text is
shortened, never refused — the longest paragraph first, so closing lines (a count, the
winners) survive, then trailing fields when the embeds together are too long.

Why embeds, not components v2 (``LayoutView``/``TextDisplay``): a v2 message allows 4000
characters of text in all, an embed 4096 in its description alone and 6000 per message —
the longest real questions with their explanations in Hindi need that room — and an
embed's colour carries right and wrong at a glance.
"""

from __future__ import annotations

from dataclasses import dataclass

import discord

from bot.ui import document as doc
from bot.ui import plain
from bot.ui.layout import layout

from .deliver import Button, Message
from .phrases import PHRASES


@dataclass(frozen=True)
class Limits:
    """Discord's message limits (see docs/PLATFORM_LIMITS.md), and two of our own."""

    content: int = 2000
    embeds_total: int = 6000  # across all embeds of a message
    title: int = 256
    description: int = 4096
    fields: int = 25
    field_name: int = 256
    field_value: int = 1024
    footer: int = 2048
    button_label: int = 80
    buttons: int = 25  # five rows of five
    name: int = 64  # one long display name must not crowd out the others
    names: int = 1024  # names listed in one message, before "… +N"


LIMITS = Limits()
ELLIPSIS = "…"
COLOURS = {
    doc.Tone.INFO: discord.Colour.blurple(),
    doc.Tone.RIGHT: discord.Colour.green(),
    doc.Tone.WRONG: discord.Colour.red(),
    doc.Tone.RESULT: discord.Colour.gold(),
}


def safe(text: str) -> str:
    """Bank text or a name, shown literally: no markdown, no pings."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text))


def fit(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - len(ELLIPSIS)] + ELLIPSIS


def render(view: object) -> Message:
    return message(layout(view, PHRASES))


def message(document: doc.Document) -> Message:
    buttons = tuple(
        Button(fit(b.label, LIMITS.button_label), b.action_id)
        for b in document.buttons[: LIMITS.buttons]
    )
    plain_cards = [card for card in document.cards if card.tone is doc.Tone.PLAIN]
    content = "\n\n".join(_paragraph(b) for card in plain_cards for b in card.blocks)
    embeds = tuple(_embed(card) for card in document.cards if card.tone is not doc.Tone.PLAIN)
    return Message(fit(content, LIMITS.content) or None, _bounded(embeds), buttons)


# --- inline markup ---------------------------------------------------------------------------


def timestamp(at: float, style: str) -> str:
    """Discord's time markup: every reader sees the moment in their own timezone and
    language (``t`` a time of day, ``R`` relative, e.g. "in 20 seconds")."""
    return f"<t:{int(at)}:{style}>"


def _inline(piece: doc.Inline) -> str:
    match piece:
        case doc.Strong(text):
            return f"**{safe(text)}**"
        case doc.Code(text):
            return f"`{text.replace('`', '')}`"
        case doc.Moment(at, relative):
            when = timestamp(at, "R")
            return when if relative else f"{timestamp(at, 't')} ({when})"
        case doc.Names(names):
            return plain.listed(names, LIMITS.names, lambda name: safe(fit(name, LIMITS.name)))
    return safe(piece)


def _line(pieces: doc.Line) -> str:
    return "".join(_inline(piece) for piece in pieces)


def _rank(rank: int, medals: bool) -> str:
    return (plain.medal(rank) or f"{rank}.") if medals else f"**{rank}.**"


def _paragraph(block: doc.Block) -> str:
    match block:
        case doc.Text(rows) | doc.Note(rows):
            return "\n".join(_line(row) for row in rows)
        case doc.Choices(items):
            return "\n".join(f"**{letter}.** {safe(text)}" for letter, text in items)
        case doc.Bars(bars):
            return "\n".join(plain.bar_line(bar) for bar in bars)
        case doc.Ranking(rows, empty, medals):
            found = [
                f"{_rank(row.rank, medals)} {safe(fit(row.name, LIMITS.name))} — {row.detail}"
                for row in rows
            ]
            return "\n".join(found) or empty
        case doc.Heading(text):
            return f"**{safe(text)}**"
        case doc.Links(_, urls):
            return "\n".join(safe(url) for url in urls)
    raise TypeError(f"no Discord text for {type(block).__name__}")


def _markup(block: doc.Note) -> bool:
    """Footers show plain text only: a note with a moment or names goes in the body."""
    return any(isinstance(p, doc.Moment | doc.Names) for row in block.lines for p in row)


# --- one card, one embed -----------------------------------------------------------------------


def _embed(card: doc.Card) -> discord.Embed:
    # The first heading is the embed's title; a later one (insights' "Flagged questions")
    # heads its part of the description.
    heading = next((b for b in card.blocks if isinstance(b, doc.Heading)), None)
    title = heading.text if heading else None
    body: list[str] = []
    fields: list[tuple[str, str]] = []
    footer: list[str] = []
    for block in card.blocks:
        match block:
            case doc.Heading() if block is heading:
                continue
            case doc.Links(label, _) | doc.Ranking(title=str(label)):
                fields.append((label, _paragraph(block)))
            case doc.Note() if not _markup(block):
                footer += [plain.line(row) for row in block.lines]
            case _:
                body.append(_paragraph(block))
    embed = discord.Embed(
        title=fit(safe(title), LIMITS.title) if title else None,
        description=_shortened(body, LIMITS.description) or None,
        colour=COLOURS[card.tone],
    )
    for name, value in fields[: LIMITS.fields]:
        embed.add_field(
            name=fit(name, LIMITS.field_name), value=fit(value, LIMITS.field_value), inline=False
        )
    if footer:
        embed.set_footer(text=fit("\n".join(footer), LIMITS.footer))
    return embed


def _shortened(paragraphs: list[str], limit: int) -> str:
    """Paragraphs within ``limit`` characters, shortening the longest first."""
    paragraphs = list(paragraphs)
    while (over := len("\n\n".join(paragraphs)) - limit) > 0:
        longest = max(range(len(paragraphs)), key=lambda i: len(paragraphs[i]))
        text = paragraphs[longest]
        if len(text) <= len(ELLIPSIS):
            break  # only separators left over: unreachable for real documents
        paragraphs[longest] = fit(text, max(len(text) - over, len(ELLIPSIS)))
    return "\n\n".join(paragraphs)


def _bounded(embeds: tuple[discord.Embed, ...]) -> tuple[discord.Embed, ...]:
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
            break  # titles and footers alone stay well under 6000
        longest.description = fit(text, max(len(text) - over, len(ELLIPSIS)))
    return embeds

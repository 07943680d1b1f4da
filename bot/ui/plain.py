"""The text rendering of a document: the terminal plays it, logs and Slack's notification
fallback use it. No markup: bold and code are plain words, a moment is shown in UTC."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from bot.ui import document as doc
from bot.ui.layout import layout

BAR_WIDTH = 12
MEDALS = ("🥇", "🥈", "🥉")


def clock_label(at: float) -> str:
    """A moment as plain text, where the reader's own timezone is unknown."""
    return datetime.fromtimestamp(at, UTC).strftime("%H:%M UTC")


def medal(rank: int) -> str | None:
    return MEDALS[rank - 1] if 1 <= rank <= len(MEDALS) else None


def bar_line(bar: doc.Bar) -> str:
    filled = round(BAR_WIDTH * bar.percent / 100)
    meter = "█" * filled + "░" * (BAR_WIDTH - filled)
    return f"{bar.letter} {meter} {bar.count} ({bar.percent}%)" + (" ✅" if bar.correct else "")


def rank_label(rank: int, medals: bool) -> str:
    """A podium's medal (or "4."), else the rank right-aligned."""
    return (medal(rank) or f"{rank}.") if medals else f"{rank:>3}."


def listed(names: tuple[str, ...], budget: int, show: Callable[[str], str] = str) -> str:
    """Names, comma-separated, as many as fit in ``budget`` characters once shown, then
    "… +N" for the rest: a reveal must not be refused for having many winners."""
    shown: list[str] = []
    used = 0
    for name in names:
        entry = show(name)
        used += len(entry) + 2
        if used > budget:
            break
        shown.append(entry)
    more = len(names) - len(shown)
    return ", ".join(shown) + (f" … +{more}" if more else "")


def inline(piece: doc.Inline) -> str:
    match piece:
        case doc.Strong(text) | doc.Code(text):
            return text
        case doc.Moment(at):
            return clock_label(at)
        case doc.Names(names):
            return ", ".join(names)
    return piece


def line(pieces: doc.Line) -> str:
    return "".join(inline(piece) for piece in pieces)


def block_lines(block: doc.Block) -> list[str]:
    match block:
        case doc.Heading(text):
            return [text]
        case doc.Text(rows) | doc.Note(rows):
            return [line(row) for row in rows]
        case doc.Choices(items):
            return [f"  {letter}. {text}" for letter, text in items]
        case doc.Bars(bars):
            return [bar_line(bar) for bar in bars]
        case doc.Ranking(rows, empty, medals, title):
            shown = [f"{rank_label(row.rank, medals)} {row.name} — {row.detail}" for row in rows]
            return ([title] if title else []) + (shown or [empty])
        case doc.Links(label, urls):
            return [f"{label}: {url}" for url in urls]
    raise TypeError(f"no text for {type(block).__name__}")


def text(document: doc.Document, stream: bool = False) -> str:
    """Blocks one after another, a blank line between them and between cards. A
    ``stream`` (the terminal) has shown what a replacing message recaps: it is left out."""
    parts = [
        "\n".join(block_lines(block))
        for card in document.cards
        for block in card.blocks
        if not (stream and getattr(block, "recap", False))
    ]
    return "\n\n".join(part for part in parts if part)


def render(view: object, phrases: doc.Phrasebook, stream: bool = False) -> str:
    return text(layout(view, phrases), stream)

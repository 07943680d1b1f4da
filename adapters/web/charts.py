"""Bar charts as inline SVG: horizontal bars, each with its label and value as text, a
title and a description for screen readers (``role="img"``), and dark-on-light colours
with at least 4.5:1 contrast."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from html import escape

ROW = 30  # px per bar
LABEL_WIDTH = 240
BAR_WIDTH = 260
VALUE_WIDTH = 90
BAR_COLOUR = "#1f4e79"  # on white: 8.8:1
HIGHLIGHT = "#1b6e3a"  # the right answer's bar: 6.3:1


@dataclass(frozen=True)
class Bar:
    label: str
    value: float
    shown: str  # the value as printed beside the bar, e.g. "42%" or "7"
    highlight: bool = False


FONT_PX = 16  # the charts' text size (pages.py's CSS)
LABEL_ROOM = LABEL_WIDTH - 12  # px a label may take, right-aligned before its bar


def _em(char: str) -> float:
    """A character's width in em, estimated on the wide side for the fonts the page names
    (system-ui, Noto Sans and its Devanagari and Bengali): a label must never be wider
    than estimated, or it would leave its chart on the left."""
    if unicodedata.category(char) in ("Mn", "Me", "Cf"):
        return 0.0  # a vowel sign, virama or joiner: drawn on its consonant
    if char == " ":
        return 0.3
    if char in "iIjl.,:;'|!()[]-":
        return 0.35
    if char.isascii():
        return 0.75 if char.isupper() or char in "mwMW@%&" else 0.6
    return 0.85  # Devanagari, Bengali and other scripts' letters


def fitted(text: str, room: float = LABEL_ROOM) -> str:
    """The label as it fits in ``room`` px: whole, or shortened with "…" (the full text is
    the label's <title>)."""
    budget = room / FONT_PX
    if sum(_em(c) for c in text) <= budget:
        return text
    used, kept = _em("…"), []
    for char in text:
        used += _em(char)
        if used > budget:
            break
        kept.append(char)
    return "".join(kept).rstrip() + "…"


def bar_chart(chart_id: str, title: str, description: str, bars: list[Bar]) -> str:
    """An SVG bar chart; the caller escapes nothing (every text is escaped here)."""
    top = max((b.value for b in bars), default=0) or 1
    height = ROW * len(bars) + 8
    width = LABEL_WIDTH + BAR_WIDTH + VALUE_WIDTH
    rows = []
    for index, bar in enumerate(bars):
        y = 4 + index * ROW
        length = round(BAR_WIDTH * bar.value / top, 1)
        colour = HIGHLIGHT if bar.highlight else BAR_COLOUR
        rows.append(
            f'<g class="bar"><text class="label" x="{LABEL_WIDTH - 8}" y="{y + 20}"'
            f' text-anchor="end"><title>{escape(bar.label)}</title>'
            f"{escape(fitted(bar.label))}</text>"
            f'<rect x="{LABEL_WIDTH}" y="{y + 4}" width="{length}" height="{ROW - 8}"'
            f' fill="{colour}"><title>{escape(bar.label)}: {escape(bar.shown)}</title></rect>'
            f'<text class="value" x="{LABEL_WIDTH + length + 6}" y="{y + 20}">'
            f"{escape(bar.shown)}</text></g>"
        )
    return (
        f'<svg class="chart" id="{escape(chart_id)}" role="img" viewBox="0 0 {width} {height}"'
        f' width="100%" preserveAspectRatio="xMinYMin meet"'
        f' aria-labelledby="{escape(chart_id)}-title {escape(chart_id)}-desc"'
        ' xmlns="http://www.w3.org/2000/svg">'
        f'<title id="{escape(chart_id)}-title">{escape(title)}</title>'
        f'<desc id="{escape(chart_id)}-desc">{escape(description)}</desc>'
        f"{''.join(rows)}</svg>"
    )

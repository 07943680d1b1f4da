"""Bar charts laid out for inline SVG (``templates/macros.html`` draws them): horizontal
bars, each with its label and value as text, a title and a description for screen readers
(``role="img"``), and dark-on-light colours with at least 4.5:1 contrast."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

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


@dataclass(frozen=True)
class DrawnBar:
    """A bar as drawn: its texts and where they go (``macros.html`` writes the SVG)."""

    label: str
    fitted: str  # the label as it fits its room; the whole label is its title
    shown: str
    label_x: int
    value_x: float
    text_y: int
    bar_x: int
    bar_y: int
    length: float
    height: int
    colour: str


@dataclass(frozen=True)
class Chart:
    id: str
    title: str
    description: str
    width: int
    height: int
    bars: tuple[DrawnBar, ...]


def bar_chart(chart_id: str, title: str, description: str, bars: list[Bar]) -> Chart:
    """A horizontal bar chart, laid out: bars scaled to the largest value."""
    top = max((b.value for b in bars), default=0) or 1
    drawn = []
    for index, bar in enumerate(bars):
        y = 4 + index * ROW
        length = round(BAR_WIDTH * bar.value / top, 1)
        drawn.append(
            DrawnBar(
                bar.label, fitted(bar.label), bar.shown, LABEL_WIDTH - 8,
                LABEL_WIDTH + length + 6, y + 20, LABEL_WIDTH, y + 4, length, ROW - 8,
                HIGHLIGHT if bar.highlight else BAR_COLOUR,
            )
        )  # fmt: skip
    width = LABEL_WIDTH + BAR_WIDTH + VALUE_WIDTH
    return Chart(chart_id, title, description, width, ROW * len(bars) + 8, tuple(drawn))

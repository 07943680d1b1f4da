"""The neutral message document: what every view looks like, written once in the core
(``bot.ui.layout``) and rendered by each platform, which implements only these block
kinds, its escaping and one limits policy.

Text in a document is literal (bank text, players' names): a renderer escapes every
``str`` it places. The only markup is the document's own: ``Strong``, ``Code``, a
``Moment`` each reader sees in their own timezone, and a bounded list of ``Names``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Protocol


@dataclass(frozen=True)
class Strong:
    text: str


@dataclass(frozen=True)
class Code:
    text: str


@dataclass(frozen=True)
class Moment:
    """A moment, as a time of day; ``relative``: as how far away it is ("in 2 minutes"),
    where the platform can show that."""

    at: float
    relative: bool = False


@dataclass(frozen=True)
class Names:
    """Players' names, comma-separated, as many as the platform's limit allows, then "… +N"."""

    names: tuple[str, ...]


Inline = str | Strong | Code | Moment | Names
Line = tuple[Inline, ...]


@dataclass(frozen=True)
class Heading:
    text: str
    recap: bool = False  # repeats the message this one replaces (a stream has shown it)


@dataclass(frozen=True)
class Text:
    """A paragraph of lines; long text is split (Slack) or shortened (Discord) by the
    platform's own policy."""

    lines: tuple[Line, ...]
    recap: bool = False  # as for Heading


@dataclass(frozen=True)
class Choices:
    """Lettered choices, in full: bank choices are longer than any button label allows."""

    items: tuple[tuple[str, str], ...]  # (letter, text)


@dataclass(frozen=True)
class Bar:
    letter: str
    count: int
    percent: int
    correct: bool


@dataclass(frozen=True)
class Bars:
    """An answer distribution."""

    bars: tuple[Bar, ...]


@dataclass(frozen=True)
class Ranked:
    rank: int
    name: str
    detail: str


@dataclass(frozen=True)
class Ranking:
    """Ranked players; ``medals`` for a podium, ``title`` when the ranking is one part of a
    larger message (a field of its own on Discord)."""

    rows: tuple[Ranked, ...]
    empty: str
    medals: bool = False
    title: str | None = None


@dataclass(frozen=True)
class Links:
    label: str
    urls: tuple[str, ...]


@dataclass(frozen=True)
class Note:
    """Small print under a card: a hint, progress, the reader's own rank."""

    lines: tuple[Line, ...]


Block = Heading | Text | Choices | Bars | Ranking | Links | Note


class Tone(Enum):
    PLAIN = "plain"  # a short private word: no card around it
    INFO = "info"
    RIGHT = "right"
    WRONG = "wrong"
    RESULT = "result"


@dataclass(frozen=True)
class Card:
    tone: Tone
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class Button:
    label: str
    action_id: str
    primary: bool = False


@dataclass(frozen=True)
class Document:
    cards: tuple[Card, ...]
    buttons: tuple[Button, ...] = ()


class Phrasebook(Protocol):
    """What only the asking platform can say: its own command syntax, localized."""

    def start_command(self, locale: str) -> str:
        """How to start a quiz, e.g. ``/quiz <topic>``."""
        ...

    def topic_command(self, topic_id: str) -> str:
        """What to type to start this topic."""
        ...

    def usage(self, locale: str, command: str | None = None) -> tuple[str, ...]:
        """Usage lines: for one command (``daily``, ``race``, ``competition``), or all."""
        ...

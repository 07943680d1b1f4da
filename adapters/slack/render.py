"""Documents to Slack messages: Block Kit blocks plus a plain ``text`` fallback.

Pure: no I/O. Blocks are built as plain dicts (slack_sdk's model classes validate every
element on every message, which costs more than the rest of an answer); the limits are
checked here, from ``LIMITS``, and a test parses every rendered message with slack_sdk's
models. Nothing is ever rejected: long text is split across sections, and a message
that would need more than 50 blocks is cut, saying so. Bank text and names go into
mrkdwn escaped and ``verbatim``, so neither ``<!channel>`` nor ``@here`` in a question can
ping anyone; the only markup added is Slack's ``<!date^…>`` for a moment.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from bot.ui import document as doc
from bot.ui import plain
from bot.ui.layout import layout

from .phrases import PHRASES

Json = dict[str, Any]


@dataclass(frozen=True)
class Limits:
    """Slack's limits for a message (see docs/PLATFORM_LIMITS.md)."""

    blocks: int = 50
    home_blocks: int = 100  # in the App Home tab's view (as in a modal)
    text_object: int = 3000  # a section's or context element's mrkdwn text
    header: int = 150
    button_text: int = 75
    action_id: int = 255
    buttons_per_block: int = 25
    context_elements: int = 10
    fallback_text: int = 4000  # Slack advises keeping `text` under this
    names: int = 2000  # display names listed in one message, before "… +N"


LIMITS = Limits()
ELLIPSIS = "…"


@dataclass(frozen=True)
class SlackMessage:
    text: str  # the fallback shown in notifications and by screen readers
    blocks: tuple[Json, ...]

    def payload(self) -> Json:
        return {"text": self.text, "blocks": list(self.blocks)}


def escape(text: str) -> str:
    """Escape the three characters mrkdwn treats as control characters."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def render(view: object) -> SlackMessage:
    """The Slack message for any engine view."""
    return message(layout(view, PHRASES))


def message(document: doc.Document) -> SlackMessage:
    blocks: list[Json] = []
    for number, card in enumerate(document.cards):
        if number:
            blocks.append({"type": "divider"})
        blocks += [raw for block in card.blocks for raw in _block(block)]
    actions = _actions(document.buttons)
    return SlackMessage(_fallback(document), (*cut(blocks, LIMITS.blocks - len(actions)), *actions))


def cut(blocks: list[Json], room: int) -> list[Json]:
    """At most ``room`` blocks: more are cut, saying so, rather than have Slack refuse
    the message or view."""
    return blocks if len(blocks) <= room else [*blocks[: room - 1], _context([ELLIPSIS])]


def _fallback(document: doc.Document) -> str:
    text = escape(plain.text(document))
    if len(text) <= LIMITS.fallback_text:
        return text
    # Only the notification preview; the blocks carry the whole message.
    return text[: LIMITS.fallback_text - 1].rsplit(" ", 1)[0] + ELLIPSIS


# --- inline markup ---------------------------------------------------------------------------


def _inline(piece: doc.Inline) -> str:
    match piece:
        case doc.Strong(text):
            return f"*{escape(text)}*"
        case doc.Code(text):
            return f"`{escape(text)}`"
        case doc.Moment(at):
            # Each reader's own timezone; clients that cannot show it use the fallback.
            return f"<!date^{int(at)}^{{time}}|{escape(plain.clock_label(at))}>"
        case doc.Names(names):
            return plain.listed(names, LIMITS.names, escape)
    return escape(piece)


def _line(pieces: doc.Line) -> str:
    return "".join(_inline(piece) for piece in pieces)


def _rank(rank: int, medals: bool) -> str:
    return (plain.medal(rank) or f"{rank}.") if medals else f"*{rank}.*"


def _link(url: str) -> str:
    return f"<{escape(url).replace('|', '%7C')}>"  # `|` would end the link's URL part


# --- blocks -----------------------------------------------------------------------------------


def _chunks(text: str, size: int = LIMITS.text_object) -> Iterator[str]:
    """Pieces of at most ``size`` characters, cut at paragraph, line or word boundaries,
    so long bank text is split across blocks, never cut off."""
    while len(text) > size:
        cut = max(text.rfind(sep, 0, size) for sep in ("\n\n", "\n", " "))
        cut = cut if cut > 0 else size
        yield text[:cut].rstrip()
        text = text[cut:].lstrip()
    if text:
        yield text


def _mrkdwn(text: str) -> Json:
    return {"type": "mrkdwn", "text": text, "verbatim": True}


def _sections(text: str) -> list[Json]:
    return [{"type": "section", "text": _mrkdwn(chunk)} for chunk in _chunks(text)]


def _context(texts: list[str]) -> Json:
    return {"type": "context", "elements": [_mrkdwn(text) for text in texts]}


def _contexts(text: str) -> list[Json]:
    pieces = list(_chunks(text))
    step = LIMITS.context_elements
    return [_context(pieces[i : i + step]) for i in range(0, len(pieces), step)]


def _heading(text: str) -> Json:
    # A header is plain_text, which nothing escapes: a title with "<" in it (a bank's
    # "<!channel>") goes, escaped, into a bold section instead.
    if len(text) <= LIMITS.header and "<" not in text:
        return {"type": "header", "text": {"type": "plain_text", "text": text, "emoji": False}}
    return {"type": "section", "text": _mrkdwn(f"*{escape(text)}*")}


def _block(block: doc.Block) -> list[Json]:
    match block:
        case doc.Heading(text):
            return [_heading(text)]
        case doc.Text(rows):
            return _sections("\n".join(_line(row) for row in rows))
        case doc.Note(rows):
            return _contexts("\n".join(_line(row) for row in rows))
        case doc.Choices(items):
            return _sections("\n".join(f"*{letter}.* {escape(text)}" for letter, text in items))
        case doc.Bars(bars):
            return _sections("\n".join(plain.bar_line(bar) for bar in bars))
        case doc.Ranking(rows, empty, medals, title):
            found = [
                f"{_rank(row.rank, medals)} {escape(row.name)} — {escape(row.detail)}"
                for row in rows
            ] or [escape(empty)]
            return _sections("\n".join([f"*{escape(title)}*", *found] if title else found))
        case doc.Links(label, urls):
            return _contexts(f"{escape(label)}: " + " · ".join(_link(url) for url in urls))
    raise TypeError(f"no Slack block for {type(block).__name__}")


def _button(button: doc.Button) -> Json:
    if len(button.action_id) > LIMITS.action_id:
        raise ValueError(f"action id {button.action_id!r} is too long for Slack")
    label = button.label
    if len(label) > LIMITS.button_text:
        label = label[: LIMITS.button_text - 1] + ELLIPSIS
    raw: Json = {
        "type": "button",
        "text": {"type": "plain_text", "text": label, "emoji": False},
        "action_id": button.action_id,
    }
    if button.primary:
        raw["style"] = "primary"
    return raw


def _actions(buttons: tuple[doc.Button, ...]) -> list[Json]:
    step = LIMITS.buttons_per_block
    return [
        {"type": "actions", "elements": [_button(b) for b in buttons[i : i + step]]}
        for i in range(0, len(buttons), step)
    ]

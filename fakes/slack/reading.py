"""Reading a message the app sent as a player does: its buttons, and its text roughly as
Slack shows it."""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from typing import Any

_LINK = re.compile(r"<([^|>]+)(?:\|([^>]+))?>")  # <url> or <url|label>
# *bold*, _italic_, ~strike~, `code`: as in Slack, only at word boundaries, so the
# underscores of offload_param are not italics.
_STYLE = re.compile(r"(?<!\w)([*_~`])([^*_~`\n]+)\1(?!\w)")


def buttons(message: Mapping[str, Any]) -> dict[str, str]:
    """Button label → action_id, for every button in a message."""
    return {
        element["text"]["text"]: element["action_id"]
        for block in message.get("blocks", [])
        if block["type"] == "actions"
        for element in block["elements"]
    }


def shown_text(message: Mapping[str, Any]) -> str:
    """The message's text roughly as Slack shows it (links, styles and entities resolved)."""
    parts = []
    for block in message.get("blocks", []):
        for item in [block.get("text"), *block.get("elements", []), *block.get("fields", [])]:
            text = item.get("text") if isinstance(item, dict) else None
            text = text.get("text") if isinstance(text, dict) else text  # a button's label
            if isinstance(text, str):
                text = _STYLE.sub(r"\2", _LINK.sub(lambda m: m[2] or m[1], text))
                parts.append(html.unescape(text))
    return "\n".join(parts)

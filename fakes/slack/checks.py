"""Slack's checks of what an app sends: Block Kit messages and modal views, as slack_sdk's
own models validate them, plus what no library checks (a plain-text fallback, pings)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from slack_sdk.models.blocks import Block
from slack_sdk.models.views import View

MAX_BLOCKS = 50
# A broadcast or mention Slack would act on: anything but the <!date^…> time markup.
_PING = re.compile(r"<(?:!(?!date\^)|@|#)")


def message_problems(message: Mapping[str, Any]) -> list[str]:
    """Why a message would not be valid Block Kit for Slack (empty if it is), or could
    ping someone."""
    problems = []
    if not isinstance(message.get("text"), str) or not message["text"].strip():
        problems.append("no plain `text` fallback")
    if _PING.search(json.dumps([message.get("text"), message.get("blocks")])):
        problems.append("unescaped <!…>, <@…> or <#…> markup")
    blocks = message.get("blocks") or []
    if len(blocks) > MAX_BLOCKS:
        problems.append(f"{len(blocks)} blocks (max {MAX_BLOCKS})")
    for raw in blocks:
        try:
            block = Block.parse(raw)
            if block is None:
                raise ValueError(f"unknown block type {raw.get('type')!r}")
            block.to_dict()  # slack_sdk checks lengths here
        except Exception as exc:  # any failure is what we report
            problems.append(f"{raw.get('type')} block: {exc}")
    return problems


def view_problems(view: Mapping[str, Any]) -> list[str]:
    """Why a modal view would not be valid for views.open (empty if it is)."""
    problems = []
    try:
        View(**view).to_dict()  # slack_sdk checks the view and each block and element
    except Exception as exc:  # any failure is what we report
        problems.append(f"view: {exc}")
    for raw in view.get("blocks") or []:
        if raw.get("type") != "input":
            continue
        element = raw.get("element") or {}
        if raw.get("block_id") is None or element.get("action_id") is None:
            problems.append("an input block without a block_id or action_id")
        if element.get("type") == "plain_text_input" and element.get("max_length", 0) > 3000:
            problems.append("a plain_text_input longer than 3000 characters")
    return problems

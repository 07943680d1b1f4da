"""Every platform's rendering seen the same way: what a player would see (the text and
the buttons) and what the platform would refuse (its limits, raw pings)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord

from adapters.discord.render import render as render_discord
from adapters.phrases import render as render_terminal
from adapters.slack.render import render as render_slack
from fakes.discord.checks import message_problems as discord_problems
from fakes.slack import message_problems as slack_problems


@dataclass(frozen=True)
class Seen:
    text: str  # every text shown, one part per line (Slack's &lt; &gt; &amp; as shown)
    buttons: tuple[str, ...]  # labels
    actions: tuple[str, ...]  # their action ids
    problems: tuple[str, ...]  # why the platform would refuse it or someone would be pinged


def _slack(view: object) -> Seen:
    payload = render_slack(view).payload()
    texts: list[str] = []
    buttons: list[Any] = []
    for block in payload["blocks"]:
        for item in [block.get("text"), *block.get("elements", [])]:
            if isinstance(item, dict) and item.get("type") == "button":
                buttons.append(item)
            elif isinstance(item, dict) and isinstance(item.get("text"), str):
                texts.append(item["text"])
    return Seen(
        "\n".join(texts).replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&"),
        tuple(b["text"]["text"] for b in buttons),
        tuple(b["action_id"] for b in buttons),
        tuple(slack_problems(payload)),
    )


def _discord(view: object) -> Seen:
    payload = render_discord(view).to_dict()
    parts = [payload["content"]]
    for embed in payload["embeds"]:
        parts += [embed.get("title", ""), embed.get("description", "")]
        parts += [f"{f['name']}\n{f['value']}" for f in embed.get("fields", [])]
        parts.append(embed.get("footer", {}).get("text", ""))
    buttons = [c for row in payload["components"] for c in row["components"]]
    return Seen(
        "\n".join(part for part in parts if part),
        tuple(b["label"] for b in buttons),
        tuple(b["custom_id"] for b in buttons),
        tuple(discord_problems(payload)),
    )


def _terminal(view: object) -> Seen:
    return Seen(render_terminal(view), (), (), ())


PLATFORMS: dict[str, Callable[[object], Seen]] = {
    "slack": _slack,
    "discord": _discord,
    "terminal": _terminal,
}
CHAT = ("slack", "discord")


def seen(platform: str, view: object) -> Seen:
    return PLATFORMS[platform](view)


def literal(platform: str, text: str) -> str:
    """Bank text as it appears in ``Seen.text``: Discord's markdown escapes stay."""
    if platform == "discord":
        return discord.utils.escape_mentions(discord.utils.escape_markdown(text))
    return text

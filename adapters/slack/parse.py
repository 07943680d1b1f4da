"""Slack payloads to typed requests. Pure: anything malformed becomes None, so a
garbage payload is refused before any handler (or bolt's own matchers) reads it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.engine import PERIODS

COMMAND = "/quiz"
HELP = "help"
TOPICS = "topics"
LEADERBOARD = "leaderboard"
STATS = "stats"
LANG = "lang"
QUIZ = "quiz"
_WORDS = {
    "help": HELP,
    "?": HELP,
    "topics": TOPICS,
    "list": TOPICS,
    "leaderboard": LEADERBOARD,
    "top": LEADERBOARD,
    "stats": STATS,
    "lang": LANG,
    "language": LANG,
}


@dataclass(frozen=True)
class Command:
    """A ``/quiz`` slash command."""

    team_id: str
    channel_id: str
    user_id: str
    user_name: str  # the Slack handle: a fallback when users.info gives no display name
    text: str
    response_url: str


@dataclass(frozen=True)
class Click:
    """A button click (``block_actions``)."""

    team_id: str
    channel_id: str
    user_id: str
    action_id: str
    response_url: str
    user_name: str  # the Slack handle, as for Command


@dataclass(frozen=True)
class Invocation:
    """What the text after ``/quiz`` asks for."""

    kind: str  # HELP, TOPICS, LEADERBOARD, STATS, LANG or QUIZ
    topic: str | None = None
    period: str = "all"
    tag: str = ""


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def _url(value: object) -> str | None:
    url = _text(value)
    return url if url and url.startswith(("https://", "http://")) else None


def _get(value: object, key: str) -> object:
    return value.get(key) if isinstance(value, Mapping) else None


def command(body: Mapping[str, Any]) -> Command | None:
    if "type" in body:  # slash commands have none; bolt would read it as another kind
        return None
    team, channel, user = (_text(body.get(k)) for k in ("team_id", "channel_id", "user_id"))
    response_url = _url(body.get("response_url"))
    text = body.get("text", "")
    if not (_text(body.get("command")) and team and channel and user and response_url):
        return None
    if not isinstance(text, str):
        return None
    return Command(team, channel, user, _text(body.get("user_name")) or user, text, response_url)


def click(body: Mapping[str, Any]) -> Click | None:
    if body.get("type") != "block_actions":
        return None
    actions = body.get("actions")
    action = actions[0] if isinstance(actions, list) and actions else None
    user = body.get("user")
    team = _text(_get(body.get("team"), "id")) or _text(_get(user, "team_id"))
    channel = _text(_get(body.get("channel"), "id")) or _text(
        _get(body.get("container"), "channel_id")
    )
    user_id = _text(_get(user, "id"))
    action_id = _text(_get(action, "action_id"))
    response_url = _url(body.get("response_url"))
    if not (team and channel and user_id and action_id and response_url):
        return None
    handle = _text(_get(user, "username")) or _text(_get(user, "name")) or user_id
    return Click(team, channel, user_id, action_id, response_url, handle)


def understood(body: object) -> bool:
    """Whether a request is one this app serves, in a shape it can read."""
    if not isinstance(body, Mapping) or "event" in body:
        # Neither kind has an `event`; bolt reads it on every request and fails on a non-dict.
        return False
    return command(body) is not None or click(body) is not None


def invocation(text: str) -> Invocation:
    """Parse ``/quiz`` text: ``help``, ``topics``, ``leaderboard [week|month|all] [topic]``,
    ``stats``, ``lang <code>``, or else a topic to start a quiz on."""
    # Slack sends &, < and > in command text as HTML entities.
    words = text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&").split()
    if not words:
        return Invocation(HELP)
    kind = _WORDS.get(words[0].casefold())
    rest = words[1:]
    if kind == LEADERBOARD:
        period = next((w.casefold() for w in rest if w.casefold() in PERIODS), "all")
        topic = " ".join(w for w in rest if w.casefold() not in PERIODS) or None
        return Invocation(LEADERBOARD, topic=topic, period=period)
    if kind == LANG:
        return Invocation(LANG, tag=" ".join(rest))
    if kind is None:
        return Invocation(QUIZ, topic=" ".join(words))
    return Invocation(kind)

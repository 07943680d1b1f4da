"""Parsing ``/quiz`` text and Slack payloads (pure)."""

from __future__ import annotations

import pytest

from adapters.slack import parse
from adapters.slack.parse import Invocation


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", Invocation(parse.HELP)),
        ("  help ", Invocation(parse.HELP)),
        ("topics", Invocation(parse.TOPICS)),
        ("offloading", Invocation(parse.QUIZ, topic="offloading")),
        ("Mixed Precision", Invocation(parse.QUIZ, topic="Mixed Precision")),
        ("leaderboard", Invocation(parse.LEADERBOARD)),
        ("leaderboard WEEK", Invocation(parse.LEADERBOARD, period="week")),
        ("leaderboard month offloading", Invocation(parse.LEADERBOARD, "offloading", "month")),
        ("leaderboard offloading all", Invocation(parse.LEADERBOARD, "offloading", "all")),
        ("stats", Invocation(parse.STATS)),
        ("lang hi", Invocation(parse.LANG, tag="hi")),
        ("lang", Invocation(parse.LANG, tag="")),
        ("a &amp; b &lt;x&gt;", Invocation(parse.QUIZ, topic="a & b <x>")),
    ],
)
def test_invocation(text: str, expected: Invocation) -> None:
    assert parse.invocation(text) == expected


COMMAND = {
    "team_id": "T1",
    "channel_id": "C1",
    "user_id": "U1",
    "user_name": "ada",
    "command": "/quiz",
    "text": "offloading",
    "response_url": "https://hooks.slack.com/commands/1/2/3",
}


def test_command() -> None:
    assert parse.command(COMMAND) == parse.Command(
        "T1", "C1", "U1", "ada", "offloading", COMMAND["response_url"]
    )
    assert parse.command({**COMMAND, "user_name": ""}).user_name == "U1"  # type: ignore[union-attr]
    for broken in ({"user_id": ""}, {"response_url": "ftp://x"}, {"type": "shortcut"}):
        assert parse.command({**COMMAND, **broken}) is None
    assert not parse.understood({**COMMAND, "event": {}})


def test_click() -> None:
    body = {
        "type": "block_actions",
        "user": {"id": "U1", "team_id": "T1"},
        "container": {"channel_id": "C1"},
        "response_url": "https://hooks.slack.com/actions/1/2/3",
        "actions": [{"action_id": "qz:n:0123456789abcdef:1"}],
    }
    assert parse.click(body) == parse.Click(
        "T1", "C1", "U1", "qz:n:0123456789abcdef:1", body["response_url"], "U1"
    )
    for broken in ({"actions": []}, {"user": "U1"}, {"type": "view_submission"}):
        assert parse.click({**body, **broken}) is None
    assert parse.understood(body) and not parse.understood([body])

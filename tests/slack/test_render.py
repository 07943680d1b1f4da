"""Slack's block kinds on their own: each document block as Block Kit, escaping, and the
limits no library checks; every message parses as slack_sdk's models."""

from __future__ import annotations

import re
from typing import Any

from slack_sdk.models.blocks import Block

from adapters.slack.render import LIMITS, message
from bot.ui.document import (
    Bar,
    Bars,
    Button,
    Card,
    Choices,
    Code,
    Document,
    Heading,
    Links,
    Moment,
    Names,
    Note,
    Ranked,
    Ranking,
    Strong,
    Text,
    Tone,
)
from fakes.slack import message_problems

REVEAL_AT = 1_793_615_400.0  # 2026-11-02 10:30 UTC


def blocks(*parts: Any, buttons: tuple[Button, ...] = ()) -> list[dict[str, Any]]:
    """Render one card of blocks; check it the way Slack would."""
    payload = message(Document((Card(Tone.INFO, parts),), buttons)).payload()
    assert message_problems(payload) == []
    for raw in payload["blocks"]:
        parsed = Block.parse(raw)
        assert parsed is not None and parsed.to_dict() == raw  # slack_sdk's own checks
    return payload["blocks"]


def test_each_block_kind() -> None:
    header, section, choices, bars, ranking, links, note = blocks(
        Heading("Question 1 of 8 · Offloading"),
        Text(((Strong("Right!"), " and ", Code("x & y")), ("second line",))),
        Choices((("A", "CPU <-> GPU"), ("B", "NVMe"))),
        Bars((Bar("A", 3, 75, True), Bar("B", 1, 25, False))),
        Ranking((Ranked(1, "Asha", "30 pts"), Ranked(2, "Bo", "10 pts")), "nobody", title="Top"),
        Links("Read more", ("https://example.org/a|b",)),
        Note((("Pick an answer:",),)),
    )
    assert header == {
        "type": "header",
        "text": {"type": "plain_text", "text": "Question 1 of 8 · Offloading", "emoji": False},
    }
    assert section["text"] == {
        "type": "mrkdwn",
        "text": "*Right!* and `x &amp; y`\nsecond line",
        "verbatim": True,
    }
    assert choices["text"]["text"] == "*A.* CPU &lt;-&gt; GPU\n*B.* NVMe"
    assert bars["text"]["text"] == "A █████████░░░ 3 (75%) ✅\nB ███░░░░░░░░░ 1 (25%)"
    assert ranking["text"]["text"] == "*Top*\n*1.* Asha — 30 pts\n*2.* Bo — 10 pts"
    assert links == {
        "type": "context",
        "elements": [
            {"type": "mrkdwn", "text": "Read more: <https://example.org/a%7Cb>", "verbatim": True}
        ],
    }
    assert note["type"] == "context" and note["elements"][0]["text"] == "Pick an answer:"


def test_buttons_and_cards() -> None:
    payload = message(
        Document(
            (Card(Tone.RIGHT, (Text((("a",),)),)), Card(Tone.RESULT, (Text((("b",),)),))),
            (Button("A", "qz:a:1:0:0"), Button("Next question", "qz:n:1:1", primary=True)),
        )
    ).payload()
    assert [b["type"] for b in payload["blocks"]] == ["section", "divider", "section", "actions"]
    first, second = payload["blocks"][-1]["elements"]
    assert first == {
        "type": "button",
        "text": {"type": "plain_text", "text": "A", "emoji": False},
        "action_id": "qz:a:1:0:0",
    }
    assert second["style"] == "primary"
    assert payload["text"] == "a\n\nb"  # the notification fallback: the plain text


def test_a_moment_shows_in_each_readers_timezone() -> None:
    (note,) = blocks(Note((("Results at ", Moment(REVEAL_AT), "."),)))
    assert note["elements"][0]["text"] == f"Results at <!date^{int(REVEAL_AT)}^{{time}}|10:30 UTC>."
    payload = message(Document((Card(Tone.INFO, (Note((("at ", Moment(REVEAL_AT)),)),)),)))
    assert payload.text == "at 10:30 UTC"  # the fallback has no markup


def test_names_are_escaped_and_bounded() -> None:
    names = ("<!channel> & <@U2>", *(f"Player {i}" for i in range(5000)))
    (section,) = blocks(Text((("Got it right: ", Names(names)),)))
    text = section["text"]["text"]
    assert text.startswith("Got it right: &lt;!channel&gt; &amp; &lt;@U2&gt;, Player 0, ")
    assert re.search(r"Player \d+ … \+\d+$", text)
    assert len(text) <= LIMITS.names + 40


def test_long_text_is_split_across_sections_never_cut() -> None:
    words = " ".join(f"word{i}" for i in range(1500))  # 12,389 characters
    found = blocks(Heading("A title " * 30), Text(((words,),)))
    assert found[0]["type"] == "section"  # a heading over 150 characters: bold section
    sections = [b["text"]["text"] for b in found[1:]]
    assert len(sections) == 5 and all(len(s) <= LIMITS.text_object for s in sections)
    assert " ".join(sections) == words


def test_a_heading_with_markup_is_escaped_not_plain_text() -> None:
    (heading,) = blocks(Heading("🛑 Race stopped · <!here>"))
    assert heading["text"]["text"] == "*🛑 Race stopped · &lt;!here&gt;*"


def test_too_many_blocks_are_cut_saying_so_and_the_buttons_kept() -> None:
    many = tuple(Text(((f"paragraph {i}",),)) for i in range(80))
    found = blocks(*many, buttons=(Button("A", "qz:a:1:0:0"),))
    assert len(found) == LIMITS.blocks
    assert found[-2]["elements"][0]["text"] == "…" and found[-1]["type"] == "actions"
    assert found[47]["text"]["text"] == "paragraph 47"

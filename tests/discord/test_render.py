"""Discord's block kinds on their own: a card as an embed, a plain card as text, escaping
and the one shortening policy under Discord's limits."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import discord

from adapters.discord.deliver import Message
from adapters.discord.render import LIMITS, message, render
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
from bot.ui.views import ProposalItem, ProposalList
from fakes.discord.checks import message_problems

AT = 1_793_615_400


def rendered(*cards: Card, buttons: tuple[Button, ...] = ()) -> tuple[Message, dict[str, Any]]:
    reply = message(Document(cards, buttons))
    payload = reply.to_dict()
    assert message_problems(payload) == []
    return reply, payload


def test_a_card_is_an_embed() -> None:
    _, payload = rendered(
        Card(
            Tone.WRONG,
            (
                Heading("Question 1 of 8 · a_b"),
                Text(((Strong("❌ Not quite."),), ("Your answer: ", Code("x_y")))),
                Choices((("A", "**CPU**"), ("B", "NVMe"))),
                Bars((Bar("A", 3, 75, True),)),
                Links("Read more", ("https://example.org/a_b_c",)),
                Ranking((Ranked(1, "Asha", "30 pts"),), "nobody", medals=True, title="Standings"),
                Note((("1 of 8 answered",),)),
            ),
        )
    )
    (embed,) = payload["embeds"]
    assert embed["title"] == r"Question 1 of 8 · a\_b"
    assert embed["color"] == discord.Colour.red().value
    assert embed["description"] == (
        "**❌ Not quite.**\nYour answer: `x_y`\n\n**A.** \\*\\*CPU\\*\\*\n**B.** NVMe\n\n"
        "A █████████░░░ 3 (75%) ✅"
    )
    assert embed["fields"] == [
        {"name": "Read more", "value": "https://example.org/a_b_c", "inline": False},
        {"name": "Standings", "value": "🥇 Asha — 30 pts", "inline": False},
    ]
    assert embed["footer"] == {"text": "1 of 8 answered"}


def test_a_later_heading_heads_its_part_of_the_description() -> None:
    _, payload = rendered(
        Card(
            Tone.INFO,
            (
                Heading("Insights · all time"),
                Text((("Tiny: players 2",),)),
                Heading("Flagged questions"),
                Text((("No flagged questions.",),)),
            ),
        )
    )
    (embed,) = payload["embeds"]
    assert embed["title"] == "Insights · all time"
    assert embed["description"] == (
        "Tiny: players 2\n\n**Flagged questions**\n\nNo flagged questions."
    )


async def test_a_plain_card_is_message_text_and_buttons_are_stopped_views() -> None:
    reply, payload = rendered(
        Card(Tone.PLAIN, (Text((("This quiz belongs to someone else.",),)),)),
        buttons=(Button("A", "qz:a:1:0:0"), Button("Next question", "qz:n:1:1", True)),
    )
    assert payload["content"] == "This quiz belongs to someone else." and payload["embeds"] == []
    assert [c["label"] for row in payload["components"] for c in row["components"]] == [
        "A",
        "Next question",
    ]
    view = reply.view()
    # A stopped view is not stored by discord.py: on_interaction answers every click by
    # its custom_id, and no view is kept for each message sent.
    assert view is not None and view.is_finished()
    assert message(Document((Card(Tone.PLAIN, ()),))).edit_kwargs()["view"] is None


def test_markup_notes_go_in_the_body_others_in_the_footer() -> None:
    _, payload = rendered(
        Card(
            Tone.INFO,
            (
                Heading("☀️ Daily question"),
                Note((("Results at ", Moment(AT), "."),)),
                Note((("Closes ", Moment(AT, relative=True)),)),
                Note((("Answers are private.",),)),
            ),
        )
    )
    (embed,) = payload["embeds"]
    assert embed["description"] == f"Results at <t:{AT}:t> (<t:{AT}:R>).\n\nCloses <t:{AT}:R>"
    assert embed["footer"]["text"] == "Answers are private."


def test_names_are_escaped_cut_and_counted() -> None:
    names = ("@everyone", "N" * 500, *(f"Player {i}" for i in range(400)))
    _, payload = rendered(Card(Tone.RESULT, (Text((("Got it right: ", Names(names)),)),)))
    text = payload["embeds"][0]["description"]
    assert text.startswith("Got it right: @\u200beveryone, " + "N" * 63 + "…, Player 0, ")
    assert text.endswith(" +" + str(len(names) - text.count(", ") - 1))
    assert len(text) <= LIMITS.names + 40


def test_the_longest_paragraph_is_shortened_first_so_closing_lines_survive() -> None:
    _, payload = rendered(
        Card(
            Tone.RESULT,
            (
                Heading("T" * 400),
                Text(((("P" * 9000),),)),
                Text(((("E" * 6000),),)),
                Text((("42 answered.",),)),
            ),
        )
    )
    (embed,) = payload["embeds"]
    assert len(embed["title"]) == LIMITS.title and embed["title"].endswith("…")
    assert len(embed["description"]) == LIMITS.description
    assert embed["description"].endswith("\n\n42 answered.")


def test_a_message_too_long_in_all_drops_trailing_fields_first() -> None:
    links = tuple(Links(f"Link {i}", (f"https://example.org/{'r' * 900}",)) for i in range(10))
    card = Card(Tone.INFO, (Heading("Question"), Text((("P" * 4000,),)), *links))
    _, payload = rendered(card, Card(Tone.RESULT, (Heading("Summary"), Text((("ok",),)))))
    first, second = payload["embeds"]
    assert len(first["description"]) == 4000  # the question itself is kept whole
    assert 0 < len(first["fields"]) < 10 and second["description"] == "ok"


def test_a_full_page_of_long_proposals_fits_one_message() -> None:
    """Five proposals (the core's page), each as long as the form lets it be, in Hindi."""
    item = ProposalItem(
        number=12345678,
        topic="t" * 64,
        title="शीर्षक " * 28,
        author_id="1500000000000000001",
        prompt="प्रश्न " * 166,
        choices=tuple(f"{n} " + "विकल्प " * 40 for n in range(5)),
        explanation="व्याख्या " * 250,
        references=("https://example.org/" + "r" * 480,),
        approve="qz:p:12345678:1",
        reject="qz:p:12345678:0",
    )
    items = tuple(
        replace(item, approve=f"qz:p:0000000{n}:1", reject=f"qz:p:0000000{n}:0") for n in range(5)
    )
    payload = render(ProposalList("hi", items, pending=40, decided="स्वीकृत #9")).to_dict()
    assert message_problems(payload) == []
    assert len(payload["embeds"]) == 5
    assert [len(row["components"]) for row in payload["components"]] == [5, 5]

"""The neutral documents the core lays out, once per view, with no platform involved."""

from __future__ import annotations

import pytest

from adapters.phrases import PHRASES as TERMINAL
from adapters.phrases import render as render_terminal
from adapters.slack.phrases import PHRASES as SLACK
from bot.content.banks import Bank, Question
from bot.ui import i18n
from bot.ui.document import (
    Bar,
    Bars,
    Button,
    Card,
    Choices,
    Document,
    Heading,
    Moment,
    Names,
    Note,
    Ranking,
    Text,
    Tone,
)
from bot.ui.layout import layout
from bot.ui.plain import render
from bot.ui.views import ChannelFeedback, Notice

from .support.views import REVEAL_AT, channel_views, feedback, personal_views, question_view

QUESTION = Question(
    "q",
    {"en": "Which collective sums gradients?", "hi": "कौन-सा collective ग्रेडिएंट जोड़ता है?"},
    ({"en": "all-reduce"}, {"en": "broadcast"}),
    0,
    {"en": "All-reduce sums and shares the result."},
    (),
)
BANK = Bank("collectives", {"en": "Collectives"}, {"en": "About them"}, (QUESTION,))


def test_a_question_is_one_card_with_lettered_buttons() -> None:
    view = question_view(BANK, QUESTION, "en")
    assert layout(view, SLACK) == Document(
        (
            Card(
                Tone.INFO,
                (
                    Heading("Question 1 of 1 · Collectives"),
                    Text((("Which collective sums gradients?",),)),
                    Choices((("A", "all-reduce"), ("B", "broadcast"))),
                    Note((("Pick an answer:",),)),
                ),
            ),
        ),
        (Button("A", "qz:a:0123456789abcdef:0:0"), Button("B", "qz:a:0123456789abcdef:0:1")),
    )


def test_the_terminal_text_of_a_question() -> None:
    assert render(question_view(BANK, QUESTION, "hi"), TERMINAL) == (
        "प्रश्न 1 / 1 · Collectives\n\nकौन-सा collective ग्रेडिएंट जोड़ता है?\n\n"
        "  A. all-reduce\n  B. broadcast\n\nएक उत्तर चुनें:"
    )


def test_a_daily_answer_leads_with_its_verdict() -> None:
    view = channel_views(BANK, QUESTION, "en")[3]
    assert isinstance(view, ChannelFeedback) and not view.correct
    (card,) = layout(view, SLACK).cards
    assert card.tone is Tone.WRONG
    assert card.blocks[:2] == (
        Heading("❌ Not quite."),
        Text(
            (
                ("Your answer: B. broadcast",),
                ("Right answer: A. all-reduce",),
                ("Daily streak: 1 day.",),
            )
        ),
    )


def test_channel_posts_keep_moments_and_names_as_markup() -> None:
    post, reveal, *_ = (layout(view, SLACK) for view in channel_views(BANK, QUESTION, "en"))
    note = post.cards[0].blocks[-1]
    count = "1000000 answered so far. Answers are private; results at "
    assert note == Note(((count, Moment(REVEAL_AT), "."),))
    blocks = reveal.cards[0].blocks
    assert Bars((Bar("A", 10**6, 50, True), Bar("B", 10**6, 50, False))) in blocks
    assert blocks[-1] == Text((("Got it right: ", Names(("Asha", "Bo"))),))


def test_a_refusal_carries_the_platforms_usage_for_its_command() -> None:
    notice = Notice("en", "bad_time", "“25:00” is not a time.", usage="daily")
    (card,) = layout(notice, SLACK).cards
    assert card.tone is Tone.PLAIN
    assert card.blocks[1] == Text(((SLACK.usage("en", "daily")[0],),))
    assert SLACK.usage("en", "daily")[0].startswith("Usage: /quiz daily on ")


def test_the_podium_ranks_with_medals_and_says_when_nobody_scored() -> None:
    *_, podium, stopped, final = (layout(v, SLACK) for v in channel_views(BANK, QUESTION, "en"))
    ranking = podium.cards[0].blocks[1]
    assert isinstance(ranking, Ranking) and ranking.medals
    assert [(r.rank, r.name) for r in ranking.rows] == [(1, "Asha"), (2, "Bo")]
    assert stopped.cards[0].blocks == (
        Heading("🛑 Race stopped · Collectives"),
        Ranking((), "Nobody got it right this time.", medals=True),
    )
    assert final.cards[0].blocks[0] == Heading("🏆 Collectives · final standings")
    assert not any(isinstance(b, Note) for b in final.cards[0].blocks)  # no "you"


@pytest.mark.parametrize("locale", i18n.LOCALES)
def test_every_view_has_one_layout_in_every_language(locale: str) -> None:
    for view in personal_views(BANK, QUESTION, locale) + channel_views(BANK, QUESTION, locale):
        document = layout(view, SLACK)
        assert document.cards and all(card.blocks for card in document.cards), view
        assert render(view, TERMINAL).strip()
    with pytest.raises(TypeError):
        layout(object(), SLACK)


def test_the_terminal_stream_does_not_repeat_the_question_in_its_feedback() -> None:
    view = question_view(BANK, QUESTION, "en")
    shown = render_terminal(feedback(view, QUESTION, correct=True, last=False))
    assert shown.startswith("✅ Right!\nRight answer: A. all-reduce\n+20 points")
    assert "Which collective sums gradients?" not in shown
    # A chat message replaces the question, so it shows it again.
    assert render(feedback(view, QUESTION, True, False), SLACK).startswith("Question 1 of 1")

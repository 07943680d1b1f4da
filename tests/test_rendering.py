"""Every view on every platform, written once: what a player sees, in every language,
within every platform's limits, with bank text and names shown literally."""

from __future__ import annotations

import pytest

from bot.content.banks import Bank, Catalog, Question
from bot.ui import i18n
from bot.ui.views import Leaderboard, LeaderRow, Notice, TopicList, TopicView

from .support.rendering import CHAT, PLATFORMS, literal, seen
from .support.views import channel_views, feedback, personal_views, question_view

HOSTILE = "@everyone **bold** <!channel> <@U2> `code` ||spoiler|| & <b>"
QUESTION = Question(
    id="sum",
    prompt={"en": "Which collective leaves the sum of every rank's gradients on every rank?"},
    choices=({"en": "all-reduce"}, {"en": "broadcast"}, {"en": "scatter"}),
    answer=0,
    explanation={"en": "All-reduce sums across ranks and gives every rank the result."},
    references=("https://docs.pytorch.org/docs/stable/distributed.html",),
)
BANK = Bank("collectives", {"en": "Collectives"}, {"en": "About them"}, (QUESTION,))
LETTER = {"slack": "*{}.* ", "discord": "**{}.** ", "terminal": "  {}. "}


@pytest.mark.parametrize("platform", CHAT)
def test_every_view_of_every_real_question_fits_in_every_language(
    catalog: Catalog, platform: str
) -> None:
    for bank in catalog.banks:
        for question in bank.questions:
            for locale in i18n.LOCALES:
                views = personal_views(bank, question, locale)
                # Channel play draws no estimates (it has no form for one yet).
                channel = channel_views(bank, question, locale) if not question.estimate else []
                for view in views + channel:
                    assert seen(platform, view).problems == (), (bank.id, question.id, view)


@pytest.mark.parametrize("platform", PLATFORMS)
def test_a_question_and_its_feedback_as_the_player_sees_them(platform: str) -> None:
    view = question_view(BANK, QUESTION, "en")
    shown = seen(platform, view)
    assert "Question 1 of 1 · Collectives" in shown.text
    assert "Which collective leaves the sum of every rank's gradients on every rank?" in shown.text
    for letter, text in (("A", "all-reduce"), ("B", "broadcast"), ("C", "scatter")):
        assert LETTER[platform].format(letter) + text in shown.text
    assert "Pick an answer:" in shown.text
    if platform in CHAT:
        assert shown.buttons == ("A", "B", "C")
        assert shown.actions == tuple(c.action_id for c in view.choices)

    wrong = seen(platform, feedback(view, QUESTION, correct=False, last=False))
    assert "❌ Not quite." in wrong.text
    assert "Your answer: B. broadcast" in wrong.text
    assert "Right answer: A. all-reduce" in wrong.text
    assert "All-reduce sums across ranks and gives every rank the result." in wrong.text
    assert "https://docs.pytorch.org/docs/stable/distributed.html" in wrong.text
    assert "1 of 1 answered · 120 points so far" in wrong.text
    if platform in CHAT:
        assert wrong.buttons == ("Next question",)

    last = seen(platform, feedback(view, QUESTION, correct=True, last=True))
    assert "✅ Right!" in last.text and "+20 points" in last.text
    assert "Your answer" not in last.text
    assert "Quiz complete · Collectives" in last.text
    assert "You got 7 of 8 right and earned 150 of 180 points." in last.text
    assert last.buttons == ()


@pytest.mark.parametrize("platform", PLATFORMS)
def test_leaderboards_address_the_reader_only_when_asked_privately(platform: str) -> None:
    you = LeaderRow(1, "7", "Asha", 30, 2, 3)
    asked = seen(platform, Leaderboard("en", "week", "Collectives", (you,), you))
    assert "Leaderboard · this week · Collectives" in asked.text
    assert "Asha — 30 pts · 2/3 right" in asked.text
    assert "You: #1 · 30 points" in asked.text
    running = Leaderboard("en", "competition", None, (you,), you, competition="Cup")
    assert "You: #1 · 30 points" in seen(platform, running).text
    final = seen(platform, Leaderboard("en", "competition", None, (you,), you, "Cup", final=True))
    assert "🏆 Cup · final standings" in final.text
    assert "You" not in final.text  # posted to the whole channel: nobody's "you"


@pytest.mark.parametrize(
    ("platform", "usage", "start"),
    [
        ("slack", "Usage: /quiz daily on <topic,topic>", "/quiz <topic>"),
        ("discord", "/quiz-leaderboard, /quiz-stats", "/quiz <topic>"),
        ("terminal", "Play with: quizbot play <topic>", "quizbot play <topic>"),
    ],
)
def test_each_platform_gives_its_own_command_syntax(platform: str, usage: str, start: str) -> None:
    topic = TopicView("collectives", "Collectives", "About them", 1)
    listed = seen(platform, TopicList("en", (topic,), unknown="colectives", suggestion=topic))
    assert "I don't know the topic “colectives”." in listed.text
    assert "Did you mean Collectives (" in listed.text and "collectives" in listed.text
    assert "Quiz topics" in listed.text
    assert usage in listed.text
    assert f"{start.removesuffix('<topic>')}collectives" in listed.text
    assert "1 question" in listed.text
    empty = seen(platform, Leaderboard("en", "all", None, (), None))
    assert f"No points yet: be the first with {start}!" in empty.text


@pytest.mark.parametrize(
    ("platform", "usage"),
    [("slack", "Usage: /quiz race <topic>"), ("discord", "Usage: /quiz-race topic:<topic>")],
)
def test_a_refusal_is_followed_by_the_platforms_own_usage(platform: str, usage: str) -> None:
    notice = Notice("en", "bad_topics", "Unknown topics: nope.", usage="race")
    shown = seen(platform, notice)
    assert shown.text.startswith("Unknown topics: nope.")
    assert usage in shown.text


@pytest.mark.parametrize("platform", CHAT)
def test_bank_text_and_names_are_literal_and_never_ping(platform: str) -> None:
    question = Question(
        "q", {"en": HOSTILE}, ({"en": HOSTILE}, {"en": "ok"}), 0, {"en": HOSTILE}, ()
    )
    bank = Bank("evil", {"en": HOSTILE}, {"en": HOSTILE}, (question,))
    views = personal_views(bank, question, "en") + channel_views(bank, question, "en", (HOSTILE,))
    for view in views:
        shown = seen(platform, view)
        assert shown.problems == (), view  # includes: no raw @everyone, <!channel>, <@U2>
        if platform == "discord":  # Slack's mrkdwn has no "**": the text shows as typed
            assert "**bold**" not in shown.text
    assert literal(platform, HOSTILE) in seen(platform, views[0]).text


@pytest.mark.parametrize("platform", CHAT)
def test_extreme_sizes_are_never_refused(platform: str) -> None:
    huge = Question(
        id="huge",
        prompt={"en": "P" * 5000},
        choices=tuple({"en": letter * 1500} for letter in "VWXYZ"),
        answer=2,
        explanation={"en": "E" * 6000},
        references=tuple(f"https://example.org/{'r' * 300}/{i}" for i in range(8)),
    )
    bank = Bank("huge", {"en": "T" * 400}, {"en": "D" * 3000}, (huge,))
    names = tuple(f"{HOSTILE} {'N' * 500} {i}" for i in range(300))
    topics = tuple(TopicView(f"topic-{i}", "T" * 300, "D", 8) for i in range(60))
    views = [
        *personal_views(bank, huge, "en"),
        *channel_views(bank, huge, "en", names),
        TopicList("en", topics, unknown="x" * 5000),
    ]
    for view in views:
        shown = seen(platform, view)
        assert shown.problems == (), type(view).__name__
    assert seen(platform, views[0]).buttons == ("A", "B", "C", "D", "E")
    reveal = seen(platform, channel_views(bank, huge, "en", names)[1])
    assert "1000000 answered." in reveal.text  # closing lines survive
    assert "Got it right: " in reveal.text and "+" in reveal.text  # "… +N" more names

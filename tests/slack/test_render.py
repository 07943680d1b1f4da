"""The pure Block Kit renderer: every view type, every real bank question in every
locale, and the limits no library checks."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from slack_sdk.models.blocks import Block

from adapters.slack.render import LIMITS, LimitError, escape, render
from bot.content.banks import Bank, Catalog, Question
from bot.play import codec
from bot.play.runs import LETTERS
from bot.ui import i18n
from bot.ui.views import (
    BarRow,
    ChannelFeedback,
    ChoiceView,
    DailyPostView,
    DailyRevealView,
    Leaderboard,
    LeaderRow,
    Notice,
    QuestionView,
    RaceLockedView,
    RacePodiumView,
    RaceQuestionView,
    RaceRevealView,
    StatRow,
    Stats,
    Summary,
    TopicList,
    TopicView,
)

from ..support.views import RUN, feedback, question_view
from .fake_slack import message_problems

REVEAL_AT = 1_793_615_400.0  # 2026-11-02 10:30 UTC


def checked(view: object) -> dict[str, Any]:
    """Render a view and check it the way Slack would; returns the payload."""
    payload = render(view).payload()
    assert payload["text"].strip()
    assert len(payload["blocks"]) <= LIMITS.blocks
    for raw in payload["blocks"]:
        block = Block.parse(raw)
        assert block is not None
        assert block.to_dict() == raw  # validates every length slack_sdk knows
        if raw["type"] == "section":
            assert len(raw["text"]["text"]) <= LIMITS.text_object
    action_ids = [
        e["action_id"] for b in payload["blocks"] if b["type"] == "actions" for e in b["elements"]
    ]
    assert len(action_ids) == len(set(action_ids))
    assert message_problems(payload) == []  # Block Kit, and no <!…>/<@…> but <!date^…>
    return payload


def body_text(payload: dict[str, Any]) -> str:
    """Every text in the blocks (raw mrkdwn), one per line."""
    texts = []
    for block in payload["blocks"]:
        for item in [block.get("text"), *block.get("elements", [])]:
            text = item.get("text") if isinstance(item, dict) else None
            texts.append(text.get("text") if isinstance(text, dict) else text)
    return "\n".join(t for t in texts if isinstance(t, str))


@pytest.mark.parametrize("locale", i18n.LOCALES)
def test_every_bank_question_renders_in_full(catalog: Catalog, locale: str) -> None:
    for bank in catalog.banks:
        for number, question in enumerate(bank.questions, start=1):
            view = question_view(bank, question, locale, number)
            payload = checked(view)
            body = body_text(payload)
            for choice in view.choices:  # in full in the body, lettered buttons below
                assert f"*{choice.letter}.* {escape(choice.text)}" in body
            labels = [
                e["text"]["text"]
                for b in payload["blocks"]
                if b["type"] == "actions"
                for e in b["elements"]
            ]
            assert labels == [c.letter for c in view.choices]
            last = number == len(bank.questions)
            answered = checked(feedback(view, question, False, last))
            assert escape(view.choices[question.answer].text) in body_text(answered)
            assert ("qz:n:" in json.dumps(answered)) == (not last)


def test_the_longest_question_in_every_locale(catalog: Catalog) -> None:
    def size(bank: Bank, q: Question, loc: str) -> int:
        texts = [q.prompt, q.explanation, *q.choices]
        return sum(len(i18n.pick(t, loc)) for t in texts)

    bank, question, _ = max(
        ((b, q, loc) for b in catalog.banks for q in b.questions for loc in i18n.LOCALES),
        key=lambda found: size(*found),
    )
    for loc in i18n.LOCALES:
        view = question_view(bank, question, loc)
        for rendered in (view, feedback(view, question, False, last=True)):
            payload = checked(rendered)
            assert escape(i18n.pick(question.prompt, loc)) in body_text(payload)


def test_long_text_is_split_across_sections_never_cut() -> None:
    words = " ".join(f"word{i}" for i in range(1500))  # ~11,000 characters
    view = QuestionView(
        "en",
        RUN,
        "t",
        "A title " * 30,
        1,
        1,
        words,
        tuple(
            ChoiceView(L, words[:2500], codec.AnswerAction(RUN, 0, i).encode())
            for i, L in enumerate("ABCDE")
        ),
        "hard",
    )
    payload = checked(view)
    sections = [b["text"]["text"] for b in payload["blocks"] if b["type"] == "section"]
    assert "word1499" in " ".join(sections)
    assert " ".join(sections).count("word0 ") >= 6  # the prompt and all five choices
    # A heading over 150 characters falls back from a header block to a section.
    assert payload["blocks"][0]["type"] == "section"
    assert len(payload["text"]) <= LIMITS.fallback_text


def test_too_many_blocks_is_an_error_not_a_rejected_message() -> None:
    topics = tuple(TopicView(f"t{i}", "x" * 2900, f"Topic {i}", 8) for i in range(60))
    with pytest.raises(LimitError):
        render(TopicList("en", topics))


def test_markup_in_names_and_bank_text_is_escaped() -> None:
    rows = (LeaderRow(1, "U1", "<!channel> & <@U2>", 30, 3, 4),)
    board = checked(Leaderboard("en", "week", "A & B", rows, rows[0]))
    assert "&lt;!channel&gt; &amp; &lt;@U2&gt;" in body_text(board)
    topics = checked(TopicList("en", (TopicView("x", "<b> <!here>", "Ping", 1),), "<!everyone>"))
    assert "&lt;!everyone&gt;" in body_text(topics) and "&lt;!here&gt;" in body_text(topics)
    assert "&lt;!everyone&gt;" in topics["text"]  # the fallback is escaped too
    for block in topics["blocks"]:
        if block["type"] == "section":
            assert block["text"]["verbatim"] is True  # no auto-linking of @here or #channel


def test_every_other_view_type() -> None:
    summary = checked(Summary("bn", "বিষয়", 3, 8, 30, 120, None, 0))
    assert "কুইজ সম্পূর্ণ · বিষয়" in body_text(summary)
    notice = checked(Notice("hi", "invalid", "यह बटन अब मान्य नहीं है।"))
    assert notice["text"] == "यह बटन अब मान्य नहीं है।"
    empty_board = checked(Leaderboard("en", "all", None, (), None))
    assert "No points yet" in body_text(empty_board)
    assert "You have no points here yet." in body_text(empty_board)
    rows = tuple(LeaderRow(i, f"U{i}", f"Player {i}", 100 - i, 5, 8) for i in range(1, 11))
    full_board = checked(
        Leaderboard("hi", "month", "विषय", rows, LeaderRow(14, "U", "Me", 3, 1, 2))
    )
    assert "लीडरबोर्ड · इस महीने · विषय" in body_text(full_board)
    assert "*10.* Player 10" in body_text(full_board) and "#14" in body_text(full_board)
    stats = checked(Stats("en", (StatRow("Offloading", 8, 6, 70),)))
    assert "*Offloading*: 6/8 right (75%) · 70 points" in body_text(stats)
    assert "No answers yet" in body_text(checked(Stats("en", ())))
    with pytest.raises(TypeError):
        render(object())


# --- channel play --------------------------------------------------------------------------


def channel_choices(question: Question, locale: str, race: bool) -> tuple[ChoiceView, ...]:
    def action(i: int) -> str:
        return (codec.RaceAction(RUN, 19, i) if race else codec.DailyAction(RUN, i)).encode()

    return tuple(
        ChoiceView(LETTERS[i], i18n.pick(text, locale), action(i))
        for i, text in enumerate(question.choices)
    )


def bars(choices: tuple[ChoiceView, ...], answer: int) -> tuple[BarRow, ...]:
    return tuple(
        BarRow(c.letter, c.text, 3 * i, 100 * i // 6, i == answer) for i, c in enumerate(choices)
    )


def standings(count: int, name: str = "Player") -> tuple[LeaderRow, ...]:
    return tuple(LeaderRow(i, f"U{i}", f"{name} {i}", 100 - i, 5, 8) for i in range(1, count + 1))


def channel_views(bank: Bank, question: Question, locale: str) -> list[object]:
    """Every channel-play view of one question, as large as the core makes them."""
    title = i18n.pick(bank.title, locale)
    prompt = i18n.pick(question.prompt, locale)
    explanation = i18n.pick(question.explanation, locale)
    daily, race = channel_choices(question, locale, False), channel_choices(question, locale, True)
    winners = tuple(f"Player {i}" for i in range(200))
    daily_bars, race_bars = bars(daily, question.answer), bars(race, question.answer)
    return [
        DailyPostView(locale, RUN, "2026-11-02", title, prompt, daily, 42, REVEAL_AT),
        DailyRevealView(
            locale=locale,
            day="2026-11-02",
            topic_title=title,
            prompt=prompt,
            bars=daily_bars,
            answer=daily[question.answer],
            explanation=explanation,
            references=question.references,
            winners=winners,
            answered=250,
        ),
        ChannelFeedback(
            locale=locale,
            correct=False,
            chosen=daily[0],
            answer=daily[question.answer],
            explanation=explanation,
            references=question.references,
            points=0,
            streak=3,
            duplicate=False,
        ),
        RaceQuestionView(locale, RUN, title, 20, 20, prompt, race, 120, REVEAL_AT),
        RaceLockedView(locale, race[1], False),
        RaceRevealView(
            locale=locale,
            topic_title=title,
            number=20,
            total=20,
            prompt=prompt,
            bars=race_bars,
            answer=race[question.answer],
            explanation=explanation,
            standings=standings(5),
        ),
        RacePodiumView(locale, title, standings(10), False),
    ]


@pytest.mark.parametrize("locale", i18n.LOCALES)
def test_every_channel_view_of_every_bank_question(catalog: Catalog, locale: str) -> None:
    for bank in catalog.banks:
        for question in bank.questions:
            for view in channel_views(bank, question, locale):
                payload = checked(view)
                body = body_text(payload)
                if hasattr(view, "choices"):  # the public questions: choices in full, A-D
                    for choice in view.choices:
                        assert f"*{choice.letter}.* {escape(choice.text)}" in body
                    assert [e["text"]["text"] for b in payload["blocks"] if b["type"] == "actions"
                            for e in b["elements"]] == [c.letter for c in view.choices]  # fmt: skip
                    # Public before the reveal: nothing says which choice is right.
                    assert escape(i18n.pick(question.explanation, locale)) not in body
                if hasattr(view, "bars"):
                    assert escape(view.answer.text) in body and "█" in body


def test_the_daily_post_shows_the_reveal_in_local_time() -> None:
    choices = tuple(ChoiceView(L, f"Choice {L}", codec.DailyAction(RUN, i).encode())
                    for i, L in enumerate("ABCD"))  # fmt: skip
    view = DailyPostView("hi", RUN, "2026-11-02", "विषय", "Q?", choices, 3, REVEAL_AT)
    payload = checked(view)
    assert f"<!date^{int(REVEAL_AT)}^{{time}}|10:30 UTC>" in body_text(payload)
    assert "अब तक 3 ने उत्तर दिया" in body_text(payload)
    assert "10:30 UTC" in payload["text"] and "<!date" not in payload["text"]


def test_names_in_channel_posts_are_escaped_and_bounded() -> None:
    pinger = "<!channel> & <@U2>"
    choices = (ChoiceView("A", "<!here>", codec.DailyAction(RUN, 0).encode()),)
    names = (pinger, *(f"Player {i}" for i in range(5000)))
    reveal_view = DailyRevealView(
        "en", "2026-11-02", "T", "Q", bars(choices, 0), choices[0], "Why", (), names, 5001
    )
    reveal = checked(reveal_view)
    body = body_text(reveal)
    assert "Got it right: &lt;!channel&gt; &amp; &lt;@U2&gt;, Player 0" in body
    assert re.search(r"Player \d+ … \+\d+$", body, re.M)  # the rest is counted, not listed
    assert "&lt;!here&gt;" in body
    rows = (LeaderRow(1, "U1", pinger, 30, 3, 3),)
    podium = checked(RacePodiumView("en", "<b>", rows, stopped=True))
    assert body_text(podium).startswith("🛑 Race stopped · <b>")  # plain_text header
    assert "🥇 &lt;!channel&gt; &amp; &lt;@U2&gt; — 30 pts" in body_text(podium)
    nobody = checked(RacePodiumView("bn", "বিষয়", (), stopped=False))
    assert "🏆 রেস শেষ · বিষয়" in body_text(nobody) and "এবার কেউ" in body_text(nobody)


def test_a_competitions_final_standings_have_no_you_line() -> None:
    rows = standings(10, "<!everyone>")
    final = checked(Leaderboard("en", "competition", None, rows, None, "Q4 & cup", final=True))
    assert body_text(final).startswith("🏆 Q4 & cup · final standings")
    assert "You" not in body_text(final)
    running = checked(Leaderboard("en", "competition", None, rows, rows[2], "Q4 & cup"))
    assert "🏆 Q4 & cup · standings" in body_text(running)
    assert "You: #3 · 97 points" in body_text(running)

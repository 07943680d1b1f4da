"""The Discord renderer on its own: every view type, the longest real questions in every
language, extreme sizes and hostile text, all checked against Discord's limits."""

from __future__ import annotations

from dataclasses import replace

import discord
import pytest

from adapters.discord.render import Reply, render, render_channel, safe
from bot.content.banks import Bank, Catalog, Question
from bot.play import codec
from bot.play.runs import LETTERS
from bot.ui import i18n
from bot.ui.messages import t
from bot.ui.views import (
    BarRow,
    ChannelFeedback,
    ChoiceView,
    DailyPostView,
    DailyRevealView,
    Leaderboard,
    LeaderRow,
    Notice,
    RaceLockedView,
    RacePodiumView,
    RaceQuestionView,
    RaceRevealView,
    StatRow,
    Stats,
    TopicList,
    TopicView,
)

from ..support.views import RUN, feedback, question_view, summary
from .limits import message_problems

HOSTILE = "@everyone **bold** __u__ `code` <@123456789012345678> ||spoiler|| > quote"


def problems(reply: Reply) -> list[str]:
    return message_problems(reply.to_dict())


def visible(reply: Reply) -> str:
    payload = reply.to_dict()
    parts = [payload["content"]]
    for embed in payload["embeds"]:
        parts += [embed.get("title", ""), embed.get("description", "")]
        parts += [f"{f['name']}\n{f['value']}" for f in embed.get("fields", [])]
        parts.append(embed.get("footer", {}).get("text", ""))
    return "\n".join(parts)


def labels(reply: Reply) -> list[str]:
    return [b.label for b in reply.buttons]


def longest_question(catalog: Catalog, locale: str) -> tuple[Bank, Question]:
    def size(question: Question) -> int:
        texts = [question.prompt, *question.choices, question.explanation]
        return sum(len(i18n.pick(text, locale)) for text in texts)

    return max(
        ((bank, q) for bank in catalog.banks for q in bank.questions), key=lambda bq: size(bq[1])
    )


@pytest.mark.parametrize("locale", i18n.LOCALES)
def test_the_longest_real_question_fits_in_full(catalog: Catalog, locale: str) -> None:
    bank, question = longest_question(catalog, locale)
    view = question_view(bank, question, locale)
    reply = render(view)
    assert problems(reply) == []
    text = visible(reply)
    assert safe(view.prompt) in text
    for choice in view.choices:  # every choice in full, with its letter
        assert f"**{choice.letter}.** {safe(choice.text)}" in text
    assert labels(reply) == list(LETTERS[: len(view.choices)])
    assert [b.custom_id for b in reply.buttons] == [c.action_id for c in view.choices]
    assert (
        t(locale, "question_heading", number=1, total=view.total, topic=safe(view.topic_title))
        in text
    )

    for correct, last in ((True, False), (False, True)):
        reply = render(feedback(view, question, correct, last))
        assert problems(reply) == []
        text = visible(reply)
        assert t(locale, "right" if correct else "wrong") in text
        assert safe(view.choices[question.answer].text) in text
        assert safe(i18n.pick(question.explanation, locale)) in text
        assert all(ref in text for ref in question.references)
        if last:
            assert labels(reply) == []
            assert t(locale, "summary_title", topic=safe(view.topic_title)) in text
        else:
            assert labels(reply) == [t(locale, "next_button")]


def test_every_bank_question_renders_within_limits(catalog: Catalog) -> None:
    for bank in catalog.banks:
        for number, question in enumerate(bank.questions, 1):
            for locale in i18n.LOCALES:
                view = question_view(bank, question, locale, number)
                assert problems(render(view)) == [], (bank.id, question.id, locale)
                last = number == len(bank.questions)
                assert problems(render(feedback(view, question, False, last))) == []


def test_extreme_sizes_are_cut_to_discords_limits() -> None:
    huge = Question(
        id="huge",
        prompt={"en": "P" * 5000},
        choices=tuple({"en": letter * 1500} for letter in "VWXYZ"),
        answer=2,
        explanation={"en": "E" * 6000},
        references=tuple(f"https://example.org/{'r' * 300}/{i}" for i in range(8)),
    )
    bank = Bank("huge", {"en": "T" * 400}, {"en": "D" * 3000}, (huge,))
    view = question_view(bank, huge, "en")
    for reply in (
        render(view),
        render(feedback(view, huge, False, False)),
        render(feedback(view, huge, True, True)),
    ):
        assert problems(reply) == []
        assert "…" in visible(reply)
    assert labels(render(view)) == ["A", "B", "C", "D", "E"]

    many = TopicList(
        "en",
        tuple(TopicView(f"topic-{i}", "T" * 300, "D" * 2000, 8) for i in range(40)),
        unknown="x" * 5000,
        suggestion=TopicView("topic-1", "T" * 300, "D", 8),
    )
    reply = render(many)
    assert problems(reply) == []
    assert 1 <= len(reply.embeds[0].fields) <= 25

    names = tuple(LeaderRow(i, str(i), "N" * 500, 10**9, 10**6, 10**6) for i in range(1, 200))
    you = names[0]
    assert problems(render(Leaderboard("hi", "all", "T" * 400, names, you))) == []
    rows = tuple(StatRow("T" * 500, 10**6, 10**5, 10**9) for _ in range(200))
    assert problems(render(Stats("bn", rows))) == []
    assert problems(render(Notice("en", "invalid", "N" * 3000))) == []


def test_bank_text_and_names_are_shown_literally_and_never_ping() -> None:
    bank = Bank("evil", {"en": HOSTILE}, {"en": HOSTILE}, ())
    question = Question(
        "q",
        {"en": HOSTILE},
        ({"en": HOSTILE}, {"en": "ok"}),
        0,
        {"en": HOSTILE},
        ("https://example.org/a_b_c",),
    )
    view = question_view(bank, question, "en")
    board = Leaderboard(
        "en",
        "week",
        HOSTILE,
        (LeaderRow(1, "1", HOSTILE, 5, 1, 1),),
        LeaderRow(1, "1", "x", 5, 1, 1),
    )
    topics = TopicList(
        "en",
        (TopicView("evil", HOSTILE, HOSTILE, 2),),
        HOSTILE,
        TopicView("evil", HOSTILE, HOSTILE, 2),
    )
    replies = [
        render(view),
        render(feedback(view, question, False, True)),
        render(board),
        render(Stats("en", (StatRow(HOSTILE, 1, 1, 5),))),
        render(topics),
        render(Notice("en", "lang_unknown", t("en", "lang_unknown", tag=HOSTILE, choices="en"))),
    ]
    for reply in replies:
        assert problems(reply) == []  # includes: no unescaped @everyone / @here
        text = visible(reply)
        assert "**bold**" not in text and r"\*\*bold\*\*" in text
        assert "<@123456789012345678>" not in text
    # Links stay clickable: escaping leaves URLs alone.
    assert "https://example.org/a_b_c" in visible(replies[1])
    # Our own formatting survives: the letters are bold.
    assert "**A.** " in visible(replies[0])


def test_every_view_type_in_every_language() -> None:
    for locale in i18n.LOCALES:
        board = Leaderboard(
            locale,
            "month",
            "Topic",
            (LeaderRow(1, "7", "Asha", 30, 2, 3),),
            LeaderRow(1, "7", "Asha", 30, 2, 3),
        )
        empty = Leaderboard(locale, "all", None, (), None)
        text = visible(render(board))
        assert "**1.** Asha" in text
        assert t(locale, "leaderboard_you", rank=1, points=30) in text
        assert t(locale, "leaderboard_empty") in visible(render(empty))
        assert t(locale, "leaderboard_you_none") in visible(render(empty))

        stats = Stats(locale, (StatRow("Topic", 4, 3, 40),))
        assert "75%" in visible(render(stats))
        assert t(locale, "stats_empty") in visible(render(Stats(locale, ())))

        topics = TopicList(
            locale,
            (TopicView("offloading", "Offload", "About it", 8),),
            "ofload",
            TopicView("offloading", "Offload", "About it", 8),
        )
        text = visible(render(topics))
        assert "`/quiz offloading`" in text
        assert t(locale, "unknown_topic", topic="ofload") in text
        assert t(locale, "discord_usage") in text

        for kind in ("not_yours", "finished", "invalid", "already_answered"):
            notice = Notice(locale, kind, t(locale, kind, topic="offloading"))
            reply = render(notice)
            assert reply.content == notice.text and reply.embeds == () and reply.buttons == ()

        for rank in (3, None):
            reply = render(summary(locale, "Topic", rank))
            assert problems(reply) == []
            assert t(locale, "summary_title", topic="Topic") in visible(reply)


async def test_buttons_are_routed_by_custom_id_not_tracked_by_discord_py(catalog: Catalog) -> None:
    bank = catalog.banks[0]
    reply = render(question_view(bank, bank.questions[0], "en"))
    view = reply.view()
    assert isinstance(view, discord.ui.View)
    # A stopped view is not stored by discord.py: the registered DynamicItem answers
    # every click, and no 15-minute view timeout can unregister it.
    assert view.is_finished()
    assert [c["custom_id"] for row in view.to_components() for c in row["components"]] == [
        c.action_id for c in question_view(bank, bank.questions[0], "en").choices
    ]
    assert reply.edit_kwargs()["view"] is not None
    assert render(Notice("en", "invalid", "x")).edit_kwargs()["view"] is None  # edits clear


def test_other_views_fall_back_to_the_cores_plain_text() -> None:
    choice = ChoiceView("B", HOSTILE, codec.AnswerAction(RUN, 0, 1).encode())
    reply = render(RaceLockedView("en", choice, duplicate=False))
    assert reply.content and reply.embeds == () and reply.buttons == ()
    assert problems(reply) == []


# --- channel play ---------------------------------------------------------------------------

POST = "0123456789abcdef"
REVEAL_AT = 1_793_000_000.0


def channel_views(bank: Bank, question: Question, locale: str, names: tuple[str, ...] = ()) -> (
    list[object]
):  # fmt: skip
    """Every channel-play view of one question, as the core would build them."""
    choices = tuple(
        ChoiceView(LETTERS[i], i18n.pick(text, locale), codec.DailyAction(POST, i).encode())
        for i, text in enumerate(question.choices)
    )
    race_choices = tuple(
        replace(c, action_id=codec.RaceAction(POST, 19, i).encode()) for i, c in enumerate(choices)
    )
    answer = choices[question.answer]
    other = choices[(question.answer + 1) % len(choices)]
    bars = tuple(BarRow(c.letter, c.text, 10**6, 100 // len(choices), c is answer) for c in choices)
    title, prompt = i18n.pick(bank.title, locale), i18n.pick(question.prompt, locale)
    explanation = i18n.pick(question.explanation, locale)
    names = names or ("Asha", "Bo")
    rows = tuple(LeaderRow(i, str(i), n, 10**6, 20, 20) for i, n in enumerate(names[:10], 1))
    return [
        DailyPostView(locale, POST, "2026-11-02", title, prompt, choices, 10**6, REVEAL_AT),
        DailyRevealView(
            locale,
            "2026-11-02",
            title,
            prompt,
            bars,
            answer,
            explanation,
            question.references,
            names,
            10**6,
        ),
        ChannelFeedback(
            locale, True, answer, answer, explanation, question.references, 30, 6, False
        ),
        ChannelFeedback(
            locale, False, other, answer, explanation, question.references, 0, 1, False
        ),
        RaceQuestionView(locale, POST, title, 20, 20, prompt, race_choices, 120, REVEAL_AT),
        RaceRevealView(locale, title, 20, 20, prompt, bars, answer, explanation, rows[:5]),
        RacePodiumView(locale, title, rows, stopped=False),
        RacePodiumView(locale, title, (), stopped=True),
        Leaderboard(locale, "competition", None, rows, None, competition=title, final=True),
    ]


def test_every_channel_view_of_every_real_question_fits(catalog: Catalog) -> None:
    for bank in catalog.banks:
        for question in bank.questions:
            for locale in i18n.LOCALES:
                for view in channel_views(bank, question, locale):
                    assert problems(render_channel(view)) == [], (bank.id, question.id, view)


@pytest.mark.parametrize("locale", i18n.LOCALES)
def test_channel_views_show_everything_in_the_channels_language(
    catalog: Catalog, locale: str
) -> None:
    bank, question = longest_question(catalog, locale)
    post, reveal, right, wrong, race, race_reveal, podium, stopped, final = (
        render_channel(view) for view in channel_views(bank, question, locale)
    )
    title = safe(i18n.pick(bank.title, locale))
    text = visible(post)
    assert post.embeds[0].title == t(locale, "daily_heading", topic=title, day="2026-11-02")
    assert safe(i18n.pick(question.prompt, locale)) in text
    assert all(f"**{c}.** " in text for c in LETTERS[: len(question.choices)])
    markup = f"<t:{int(REVEAL_AT)}:t> (<t:{int(REVEAL_AT)}:R>)"  # the reader's own time
    assert t(locale, "daily_count", count=10**6, reveal=markup) in text
    assert labels(post) == list(LETTERS[: len(question.choices)])
    assert all(codec.decode(b.custom_id) for b in post.buttons)
    explanation = safe(i18n.pick(question.explanation, locale))
    assert explanation not in text  # not before the reveal

    text = visible(reveal)
    assert explanation in text and "✅" in text
    assert t(locale, "winners", names="Asha, Bo") in text
    assert t(locale, "answered_total", count=10**6) in text
    assert reveal.buttons == ()

    assert right.embeds[0].title == t(locale, "right")
    assert t(locale, "daily_streak", streak=6) in visible(right)
    assert wrong.embeds[0].title == t(locale, "wrong") and explanation in visible(wrong)

    assert race.embeds[0].title == t(locale, "race_heading", topic=title, number=20, total=20,
                                     seconds=120)  # fmt: skip
    assert t(locale, "race_closes", when=f"<t:{int(REVEAL_AT)}:R>") in visible(race)
    assert race.embeds[0].footer.text == t(locale, "race_hint")
    assert race_reveal.embeds[0].fields[0].name == t(locale, "standings")
    assert visible(podium).count("🥇") == 1 and t(locale, "no_winners") in visible(stopped)
    assert final.embeds[0].title == t(locale, "competition_final", name=title)


def test_channel_views_at_extreme_sizes_keep_their_closing_lines() -> None:
    huge = Question(
        id="huge",
        prompt={"en": "P" * 5000},
        choices=tuple({"en": letter * 1500} for letter in "VWXYZ"),
        answer=2,
        explanation={"en": "E" * 6000},
        references=tuple(f"https://example.org/{'r' * 300}/{i}" for i in range(8)),
    )
    bank = Bank("huge", {"en": "T" * 400}, {"en": "D"}, (huge,))
    names = tuple(f"{HOSTILE} {'N' * 500} {i}" for i in range(300))
    replies = [render_channel(view) for view in channel_views(bank, huge, "en", names)]
    for reply in replies:
        assert problems(reply) == []
    post, reveal, _, _, race, _, podium, _, final = replies
    assert "answered so far" in visible(post) and "<t:" in visible(post)
    assert "Closes <t:" in visible(race)
    assert "answered." in visible(reveal) and "Got it right: " in visible(reveal)
    assert labels(post) == ["A", "B", "C", "D", "E"]
    assert len(podium.embeds[0].description.splitlines()) == 10
    assert visible(final).count("**") == 20  # ten rows, each with its bold rank


def test_channel_text_and_names_are_shown_literally_and_never_ping() -> None:
    bank = Bank("evil", {"en": HOSTILE}, {"en": HOSTILE}, ())
    question = Question(
        "q", {"en": HOSTILE}, ({"en": HOSTILE}, {"en": "ok"}), 0, {"en": HOSTILE},
        ("https://example.org/a_b_c",),
    )  # fmt: skip
    for view in channel_views(bank, question, "en", (HOSTILE,)):
        reply = render_channel(view)
        assert problems(reply) == []  # includes: no unescaped @everyone / @here
        text = visible(reply)
        assert "**bold**" not in text and "<@123456789012345678>" not in text


def test_a_leaderboard_posted_in_a_channel_addresses_nobody() -> None:
    you = LeaderRow(1, "7", "Asha", 30, 2, 3)
    board = Leaderboard("en", "competition", None, (you,), you, competition="Cup")
    assert render(board).embeds[0].footer.text == t("en", "leaderboard_you", rank=1, points=30)
    assert render_channel(board).embeds[0].footer.text is None
    assert render_channel(board).embeds[0].title == t("en", "competition_title", name="Cup")

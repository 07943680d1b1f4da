"""The real discord.py client against a fake Discord: what a player sees, end to end."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from adapters.discord.client import QuizClient
from adapters.discord.phrases import TEXT
from adapters.discord.render import safe
from bot.content.banks import Catalog
from bot.domain import actions, scoring
from bot.persistence import Store
from bot.services.engine import Engine
from bot.ui.messages import t
from fakes.discord import ALICE, BOB, GUILD_ID, FakeDiscord, FakeUser

from ..support.quiz import far_off
from .support import answer_button, play, running_bot, warnings


async def test_autocomplete_finds_topics_by_id_alias_and_title(
    fake: FakeDiscord, bot: QuizClient
) -> None:
    for typed in ("offl", "zero-off", "Optimizer state", "OFFLOADING"):
        choices = await fake.autocomplete("quiz", "topic", typed)
        assert "offloading" in [c["value"] for c in choices], typed
    assert [c["value"] for c in await fake.autocomplete("quiz", "topic", "amp")] == [
        "mixed-precision"
    ]
    everything = await fake.autocomplete("quiz-leaderboard", "topic", "")
    assert len(everything) == 25  # Discord's most: typing narrows the rest down
    assert {"offloading", "mixed-precision"} <= {c["value"] for c in everything}
    assert [c["value"] for c in await fake.autocomplete("quiz", "topic", "small-one")] == ["tiny"]
    hindi = await fake.autocomplete("quiz", "topic", "offloading", locale="hi")
    assert hindi[0]["name"].startswith("CPU और NVMe पर ऑप्टिमाइज़र स्टेट")
    assert await fake.autocomplete("quiz", "topic", "no such topic at all") == []


async def test_autocomplete_for_an_option_that_completes_nothing(
    fake: FakeDiscord, bot: QuizClient, caplog: pytest.LogCaptureFixture
) -> None:
    # An out-of-date command on Discord's side: `questions` has no autocomplete here.
    assert await fake.autocomplete("quiz-race", "questions", "5") == []
    assert await fake.autocomplete("quiz-nosuch", "topic", "x") == []
    assert warnings(caplog) == [
        "autocomplete for an option of /quiz-race that completes nothing (questions):"
        " run `quizbot discord sync`",
        "autocomplete for an option of /quiz-nosuch that completes nothing (topic):"
        " run `quizbot discord sync`",
    ]


@pytest.mark.parametrize(
    ("client_locale", "locale", "user"), [("en-US", "en", ALICE), ("hi", "hi", BOB)]
)
async def test_a_whole_quiz_from_slash_command_to_summary(
    fake: FakeDiscord,
    bot: QuizClient,
    catalog: Catalog,
    client_locale: str,
    locale: str,
    user: FakeUser,
) -> None:
    bank = catalog.get("offloading")
    assert bank is not None and len(bank.questions) == 17
    total = len(bank.questions)
    title = safe(bank.text(bank.title, locale))
    outcome = await fake.slash("quiz", topic="offloading", user=user, locale=client_locale)
    assert (outcome.callback_type, outcome.new_message, outcome.ephemeral) == (4, True, True)
    message = outcome.message["id"]
    points = 0
    for position, question in enumerate(bank.questions):
        shown = outcome.text()
        assert t(locale, "question_heading", number=position + 1, total=total, topic=title) in shown
        assert safe(bank.text(question.prompt, locale)) in shown
        correct = position % 2 == 0
        if question.estimate is None:
            assert all(safe(bank.text(choice, locale)) in shown for choice in question.choices)
            assert [b["label"] for b in outcome.buttons] == ["A", "B", "C", "D"]
            right = answer_button(outcome, question, True)
            outcome = await fake.click(
                message,
                answer_button(outcome, question, correct)["custom_id"],
                user=user,
                locale=client_locale,
            )
        else:  # the last three: an Answer button, a form, a value with its unit
            [ask] = outcome.buttons
            assert ask["label"] == t(locale, "estimate_button")
            form = await fake.click(message, ask["custom_id"], user=user, locale=client_locale)
            assert form.modal is not None
            truth = question.estimate.written
            outcome = await fake.submit(
                form.modal, {"estimate": truth if correct else far_off(truth)},
                user=user, locale=client_locale, message=message,
            )  # fmt: skip
        assert (outcome.callback_type, outcome.message["id"]) == (7, message)  # in place
        points += scoring.answer_points(correct, question.difficulty)  # 100× off scores 0
        shown = outcome.text()
        if question.estimate is None:
            assert t(locale, "right" if correct else "wrong") in shown
            answer = safe(bank.text(question.choices[question.answer], locale))
            assert t(locale, "right_answer", letter=right["label"], text=answer) in shown
        else:
            verdict = "estimate_inside" if correct else "estimate_outside"
            assert t(locale, verdict, tolerance=question.estimate.tolerance.written) in shown
            assert t(locale, "estimate_truth", truth=question.estimate.written) in shown
        assert safe(bank.text(question.explanation, locale)) in shown
        assert question.references[0] in shown
        assert t(locale, "progress", done=position + 1, total=total, points=points) in shown
        if position < total - 1:
            assert [b["label"] for b in outcome.buttons] == [t(locale, "next_button")]
            outcome = await fake.click(message, outcome.buttons[0]["custom_id"], user=user)
            assert (outcome.callback_type, outcome.message["id"]) == (7, message)

    assert outcome.buttons == []
    shown = outcome.text()
    assert t(locale, "summary_title", topic=title) in shown
    max_points = scoring.max_points([q.difficulty for q in bank.questions])
    assert (
        t(locale, "summary_score", correct=9, total=17, points=points, max_points=max_points)
        in shown
    )
    assert t(locale, "summary_rank", rank=1, players=1, topic=title) in shown

    board = await fake.slash("quiz-leaderboard", user=user, locale=client_locale)
    assert f"**1.** {user.name} — " in board.text()


async def test_leaderboard_and_stats(fake: FakeDiscord, bot: QuizClient, catalog: Catalog) -> None:
    tiny = catalog.get("tiny")
    assert tiny is not None
    pinger = FakeUser("1500000000000000003", "@everyone *star*")
    # Her nickname here is this server's alone: every server's boards show her as Alice.
    await play(fake, tiny, [True, True], replace(ALICE, nick="Alice Smith (Acme red team)"))
    await play(fake, tiny, [True, False], pinger)
    alice_points = sum(scoring.answer_points(True, q.difficulty) for q in tiny.questions)
    pinger_points = scoring.answer_points(True, tiny.questions[0].difficulty)

    board = await fake.slash("quiz-leaderboard", user=pinger)
    assert board.callback_type == 4 and not board.ephemeral  # for the whole channel
    lines = board.embeds[0]["description"].splitlines()
    assert lines[0].startswith("**1.** Alice — ")
    assert lines[1].startswith(f"**2.** {safe(pinger.name)} — ")  # escaped: no ping
    assert "@\u200beveryone" in lines[1]
    assert board.embeds[0]["footer"]["text"] == t(
        "en", "leaderboard_you", rank=2, points=pinger_points
    )

    weekly = await fake.slash("quiz-leaderboard", period="week", topic="small-one")
    assert weekly.embeds[0]["title"] == "Leaderboard · this week · Tiny test bank"
    assert f"{alice_points} pts · 2/2 right" in weekly.text()
    hindi = await fake.slash("quiz-leaderboard", period="month", locale="hi")
    assert hindi.embeds[0]["title"] == t("hi", "leaderboard_title", period="इस महीने")
    unknown = await fake.slash("quiz-leaderboard", topic="nope-nope")
    # A mistyped topic is for the asker alone, not the channel.
    assert unknown.ephemeral is True and "I don't know the topic “nope-nope”" in unknown.text()

    stats = await fake.slash("quiz-stats")
    assert stats.ephemeral
    assert stats.embeds[0]["description"] == (
        f"**Tiny test bank**: 2/2 right (100%) · {alice_points} points\n"
        "    2 seen · 0 due today · retention — · chance to recall now 100%"
    )
    nothing = await fake.slash("quiz-stats", user=BOB)
    assert nothing.embeds[0]["description"] == t("en", "stats_empty")


async def test_topics_language_and_unknown_topics(fake: FakeDiscord, bot: QuizClient) -> None:
    topics = await fake.slash("quiz-topics")
    assert topics.ephemeral
    assert "`/quiz offloading`" in topics.text() and "`/quiz mixed-precision`" in topics.text()
    typo = await fake.slash("quiz", topic="ofloading")
    assert typo.ephemeral and "I don't know the topic “ofloading”." in typo.text()
    assert "(`offloading`)" in typo.text()  # did you mean …

    # /quiz-lang beats the client's language; Discord has no Bengali client locale.
    changed = await fake.slash("quiz-lang", language="bn")
    assert changed.ephemeral and changed.content == t("bn", "lang_set")
    quiz = await fake.slash("quiz", topic="offloading", locale="en-US")
    assert quiz.embeds[0]["title"].startswith("প্রশ্ন 1 / 17")
    assert "কুইজের বিষয়" in (await fake.slash("quiz-topics", locale="hi")).text()


async def test_buttons_keep_working_after_a_restart(
    fake: FakeDiscord, catalog: Catalog, tmp_path: Path
) -> None:
    bank = catalog.get("offloading")
    assert bank is not None
    path = tmp_path / "restart.db"
    store = await Store.open(path)
    async with running_bot(fake, Engine(catalog, store)):
        first = await play(fake, bank, [True])
        message = first.message["id"]
        next_id = first.buttons[0]["custom_id"]
    await store.close()
    points = scoring.answer_points(True, bank.questions[0].difficulty)

    store = await Store.open(path)
    try:
        async with running_bot(fake, Engine(catalog, store)):
            assert fake.identifies == 2
            assert fake.command_syncs == 1  # unchanged commands: no second sync
            # "Next" on the message the first client sent.
            second = await fake.click(message, next_id)
            assert (second.callback_type, second.message["id"]) == (7, message)
            assert "Question 2 of 17" in second.text()
            question = bank.questions[1]
            answered = await fake.click(message, answer_button(second, question, True)["custom_id"])
            points += scoring.answer_points(True, question.difficulty)
            assert t("en", "progress", done=2, total=17, points=points) in answered.text()
            board = await fake.slash("quiz-leaderboard", topic="offloading")
            assert f"**1.** Alice — {points} pts · 2/2 right" in board.text()
    finally:
        await store.close()


async def test_clicks_that_cannot_count_get_a_private_explanation(
    fake: FakeDiscord, bot: QuizClient, catalog: Catalog
) -> None:
    tiny = catalog.get("tiny")
    assert tiny is not None
    first = await fake.slash("quiz", topic="tiny")
    again = await fake.slash("quiz", topic="tiny")  # the same unfinished run, a second message
    m1, m2 = first.message["id"], again.message["id"]
    right = answer_button(first, tiny.questions[0], True)["custom_id"]
    wrong = answer_button(first, tiny.questions[0], False)["custom_id"]
    run = actions.decode(right)
    assert isinstance(run, actions.AnswerAction)

    async def refused(message: str, custom_id: str, user: FakeUser = ALICE, **kw: int) -> str:
        before = fake.messages[message]["embeds"]
        outcome = await fake.click(message, custom_id, user=user, **kw)
        assert (outcome.callback_type, outcome.new_message, outcome.ephemeral) == (4, True, True)
        assert outcome.embeds == [] and outcome.buttons == []
        assert fake.messages[message]["embeds"] == before  # the quiz stays as it was
        return outcome.content

    # Someone else's quiz, in the clicker's language (their /quiz-lang setting: the
    # engine's click takes no client locale).
    assert await refused(m1, right, BOB) == t("en", "not_yours", topic="tiny")
    await fake.slash("quiz-lang", language="hi", user=BOB)
    assert await refused(m1, right, BOB) == t("hi", "not_yours", topic="tiny")
    answered = await fake.click(m2, wrong)
    assert t("en", "wrong") in answered.text()
    # The same question again, from the older message: the first answer counts.
    assert await refused(m1, right) == t("en", "already_answered")
    invalid = t("en", "invalid")
    forged = [
        "hello",  # not ours at all
        "qz:a:ffffffffffffffff:0:1",  # no such run
        f"qz:a:{run.run_id}:1:9",  # no such choice
        f"qz:a:{run.run_id}:5:0",  # a question not reached
        f"qz:n:{run.run_id}:1:1",  # malformed
        "qz:a:" + "a" * 200,  # too long
    ]
    for custom_id in forged:
        assert await refused(m1, custom_id) == invalid, custom_id
    # A forged id that is really on a message is refused alike: one entry for every button.
    planted = fake.create_message(
        {
            "components": [
                {
                    "type": 1,
                    "components": [
                        {
                            "type": 2,
                            "style": 1,
                            "label": "A",
                            "custom_id": "qz:a:ffffffffffffffff:0:1",
                        }
                    ],
                }
            ]
        },
        64,
    )
    assert await refused(planted["id"], "qz:a:ffffffffffffffff:0:1") == invalid
    # A button's id sent as another kind of component: discord.py routes it nowhere
    # (its view store matches the component type too), so the engine answers it.
    assert await refused(m1, right, component_type=3) == t("en", "already_answered")

    third = await fake.slash("quiz", topic="tiny")  # resumes at question 2
    done = await fake.click(
        third.message["id"], answer_button(third, tiny.questions[1], True)["custom_id"]
    )
    assert t("en", "summary_title", topic="Tiny test bank") in done.text()
    # "Next" on an older message of the finished run.
    assert await refused(m2, answered.buttons[0]["custom_id"]) == t("en", "finished", topic="tiny")

    # No points for any of it: Bob has none, Alice has only her one right answer.
    bob = await fake.slash("quiz-stats", user=BOB)
    assert bob.embeds[0]["description"] == t("hi", "stats_empty")
    points = scoring.answer_points(True, tiny.questions[1].difficulty)
    assert f"{points} points" in (await fake.slash("quiz-stats")).text()


async def test_slow_work_is_deferred_then_delivered(
    fake: FakeDiscord, engine: Engine, catalog: Catalog
) -> None:
    """With no time budget every interaction defers first (type 5 or 6), then edits the
    response or follows up: the path taken when the engine is slow."""
    tiny = catalog.get("tiny")
    assert tiny is not None
    async with running_bot(fake, engine, ack_budget=0):
        start = await fake.slash("quiz", topic="tiny")
        assert (start.callback_type, start.ephemeral) == (5, True)
        assert start.message["flags"] == 64  # loading is over
        assert "Question 1 of 2" in start.text()
        message = start.message["id"]
        button = answer_button(start, tiny.questions[0], True)["custom_id"]
        answered = await fake.click(message, button)
        assert (answered.callback_type, answered.new_message) == (6, False)
        assert answered.message["id"] == message and t("en", "right") in answered.text()
        refused = await fake.click(message, answered.buttons[0]["custom_id"], user=BOB)
        assert (refused.callback_type, refused.new_message, refused.ephemeral) == (6, True, True)
        assert refused.content == t("en", "not_yours", topic="tiny")
        board = await fake.slash("quiz-leaderboard")
        assert (board.callback_type, board.ephemeral) == (5, False)
        assert "**1.** Alice" in board.text()


async def test_commands_sync_only_when_they_change(
    fake: FakeDiscord, engine: Engine, catalog: Catalog
) -> None:
    async with running_bot(fake, engine):
        pass
    commands = fake.commands[None]
    assert [c["name"] for c in commands] == [
        "quiz",
        "quiz-leaderboard",
        "quiz-stats",
        "quiz-review",
        "quiz-remind",
        "quiz-lang",
        "quiz-topics",
        "quiz-daily",
        "quiz-race",
        "quiz-race-stop",
        "quiz-competition",
        "quiz-bank",
        "quiz-propose",
        "quiz-proposals",
        "quiz-insights",
        "quiz-map",
        "quiz-share",
        "quiz-dashboard",
        "quiz-forget-me",
    ]
    quiz = commands[0]
    assert quiz["description_localizations"] == {"hi": TEXT.t("hi", "cmd_quiz")}
    assert quiz["options"][0]["autocomplete"] is True
    assert all("bn" not in c["description_localizations"] for c in commands)
    # Review and its reminder are a player's own: in DMs too; only `on` takes options.
    named = {c["name"]: c for c in commands}
    assert named["quiz-review"]["dm_permission"] and named["quiz-remind"]["dm_permission"]
    assert named["quiz-review"]["options"] == []
    remind = named["quiz-remind"]["options"]
    assert [(o["name"], o["type"], len(o.get("options", []))) for o in remind] == [
        ("on", 1, 2),
        ("off", 1, 0),
        ("status", 1, 0),
    ]
    assert [
        (o["name"], o["type"], o["required"], o.get("autocomplete", False))
        for o in remind[0]["options"]
    ] == [
        ("time", 3, True, False),
        ("timezone", 3, True, True),
    ]
    for name, key in (("quiz-review", "cmd_review"), ("quiz-remind", "cmd_remind")):
        assert named[name]["description_localizations"] == {"hi": TEXT.t("hi", key)}
    # A server's own banks: a group of three subcommands; none of it in DMs.
    bank = commands[11]
    assert [(o["name"], o["type"]) for o in bank["options"]] == [
        ("upload", 1),
        ("list", 1),
        ("remove", 1),
    ]
    upload = {o["name"]: o for o in bank["options"][0]["options"]}
    assert [(name, o["type"], o["required"]) for name, o in upload.items()] == [
        ("file", 11, True),
        ("allow_missing", 5, False),
        ("language", 3, False),
    ]
    assert [c["value"] for c in upload["language"]["choices"]] == ["en", "hi", "bn"]
    assert bank["options"][2]["options"][0]["name"] == "id"
    assert [c["dm_permission"] for c in commands[11:18]] == [False] * 7
    assert commands[18]["dm_permission"]  # forget-me: a DM keeps data of its own too
    # Insights: a topic completed like /quiz's, a period of three choices, named in Hindi.
    insights = {o["name"]: o for o in named["quiz-insights"]["options"]}
    assert [(name, o["type"], o["required"]) for name, o in insights.items()] == [
        ("topic", 3, False),
        ("period", 3, False),
        ("flagged", 5, False),  # a boolean: only the flagged questions, with why
    ]
    assert insights["topic"]["autocomplete"] is True
    assert [
        (c["value"], c["name"], c["name_localizations"]) for c in insights["period"]["choices"]
    ] == [
        ("week", "last 7 days", {"hi": "पिछले 7 दिन"}),
        ("month", "last 30 days", {"hi": "पिछले 30 दिन"}),
        ("all", "all time", {"hi": "अब तक"}),
    ]
    assert named["quiz-dashboard"]["options"] == []
    for name, key in (("quiz-insights", "cmd_insights"), ("quiz-dashboard", "cmd_dashboard")):
        assert named[name]["description_localizations"] == {"hi": TEXT.t("hi", key)}
    async with running_bot(fake, engine):
        pass
    assert fake.command_syncs == 1
    # One server only: a different target, so a new sync, and commands work there.
    async with running_bot(fake, engine, guild_id=GUILD_ID):
        assert fake.command_syncs == 2 and GUILD_ID in fake.commands
        assert "`/quiz tiny`" in (await fake.slash("quiz-topics")).text()


async def test_an_out_of_date_command_gets_an_answer(
    fake: FakeDiscord, bot: QuizClient, caplog: pytest.LogCaptureFixture
) -> None:
    outcome = await fake.slash("quiz-old", topic="x")
    assert outcome.ephemeral and outcome.content == t("en", "try_again")
    assert await fake.autocomplete("quiz-old", "topic", "x") == []
    assert any("quizbot discord sync" in r.getMessage() for r in caplog.records)


async def test_direct_messages_are_a_workspace_of_their_own(
    fake: FakeDiscord, bot: QuizClient, catalog: Catalog
) -> None:
    tiny = catalog.get("tiny")
    assert tiny is not None
    start = await fake.slash("quiz", topic="tiny", guild=False)
    answered = await fake.click(
        start.message["id"], answer_button(start, tiny.questions[0], True)["custom_id"], guild=False
    )
    assert t("en", "right") in answered.text()
    in_dm = await fake.slash("quiz-leaderboard", guild=False)
    assert "**1.** Alice" in in_dm.text()
    in_server = await fake.slash("quiz-leaderboard")
    assert "No points yet: be the first with /quiz <topic>!" in in_server.text()


async def test_a_second_instance_answering_too_is_only_a_warning(
    fake: FakeDiscord, engine: Engine, caplog: pytest.LogCaptureFixture
) -> None:
    """Two bots on one token (a rolling deploy) both get every interaction: the slower
    one is refused by Discord, and that is worth a warning, not an error."""
    async with running_bot(fake, engine), running_bot(fake, engine):
        outcome = await fake.slash("quiz-topics")
        assert "`/quiz offloading`" in outcome.text()
        await fake.settled(lambda: len(fake.violations) == 1)
    assert fake.violations == [f"interaction {outcome.interaction_id} answered twice"]
    fake.violations.clear()
    assert any("another instance" in r.getMessage() for r in caplog.records)

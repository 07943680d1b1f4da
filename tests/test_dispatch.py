"""The one dispatch, without any platform: every request type, the reply's view and how
it is delivered, decided by the core."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import get_args

import pytest

from bot.content.banks import Catalog
from bot.persistence import Store
from bot.services.dispatch import ROUTES, expected_delivery
from bot.services.engine import Engine
from bot.services.requests import (
    CompetitionEnd,
    CompetitionStandings,
    CompetitionStart,
    Context,
    DailyOff,
    DailyOn,
    DailyStatus,
    Delivery,
    RaceStart,
    RaceStop,
    Reply,
    Request,
    SetLanguage,
    ShowLeaderboard,
    ShowStats,
    ShowTopics,
    StartQuiz,
    Usage,
    button,
)
from bot.ui.views import Feedback, Leaderboard, Notice, QuestionView, Stats, TopicList

from .support.channel import ADMIN, CHANNEL, PLAYERS, FakeClock, moment, open_engine

ANA = Context(PLAYERS[0], CHANNEL, "en-US")
BOSS = Context(ADMIN, CHANNEL, "hi", is_admin=True)


def notice(reply: Reply) -> tuple[Delivery, str]:
    """How a short word was delivered, and which it was."""
    assert isinstance(reply.view, Notice), reply.view
    return reply.delivery, reply.view.kind


@pytest.fixture
async def engine(tmp_path: Path, catalog: Catalog) -> AsyncIterator[Engine]:
    engine, _ = await open_engine(tmp_path / "d.db", catalog, FakeClock(moment("2026-11-02T08:00")))
    yield engine
    await engine.store.close()


def test_every_request_type_is_declared_once() -> None:
    assert set(get_args(Request)) == set(ROUTES)


async def test_a_quiz_from_start_to_answer(engine: Engine) -> None:
    started = await engine.handle(StartQuiz("tiny"), ANA)
    assert started.delivery is Delivery.PRIVATE
    question = started.view
    assert isinstance(question, QuestionView) and question.prompt == "One plus one?"
    answer = button(question.choices[[c.text for c in question.choices].index("Two")].action_id)
    assert expected_delivery(answer, ANA) is Delivery.REPLACE
    answered = await engine.handle(answer, ANA)
    assert answered.delivery is Delivery.REPLACE  # the quiz message moves on in place
    assert isinstance(answered.view, Feedback) and answered.view.correct
    again = await engine.handle(answer, ANA)
    assert again.delivery is Delivery.PRIVATE  # a refusal leaves the quiz as it was
    assert isinstance(again.view, Notice) and again.view.kind == "already_answered"
    theirs = await engine.handle(answer, Context(PLAYERS[1], CHANNEL))
    assert notice(theirs) == (Delivery.PRIVATE, "not_yours")
    forged = await engine.handle(button("qz:a:nonsense"), ANA)
    assert isinstance(forged.view, Notice) and forged.view.kind == "invalid"


async def test_topics_boards_stats_and_language(engine: Engine) -> None:
    topics = await engine.handle(ShowTopics(), ANA)
    assert topics.delivery is Delivery.PRIVATE and isinstance(topics.view, TopicList)
    board = await engine.handle(ShowLeaderboard("week", "tiny"), ANA)
    assert board.delivery is Delivery.PUBLIC  # standings are for the whole channel
    assert isinstance(board.view, Leaderboard) and board.view.topic_title == "Tiny test bank"
    typo = await engine.handle(ShowLeaderboard("week", "tinyy"), ANA)
    assert typo.delivery is Delivery.PRIVATE  # an unknown topic is for the asker alone
    assert isinstance(typo.view, TopicList) and typo.view.unknown == "tinyy"
    stats = await engine.handle(ShowStats(), ANA)
    assert stats.delivery is Delivery.PRIVATE and isinstance(stats.view, Stats)
    hindi = await engine.handle(SetLanguage("hindi"), ANA)
    assert isinstance(hindi.view, Notice) and hindi.view.text == "भाषा हिन्दी पर सेट की गई।"
    assert (await engine.handle(ShowTopics(), ANA)).view.locale == "hi"  # kept from now on
    usage = await engine.handle(Usage("race"), ANA)
    assert isinstance(usage.view, Notice) and (usage.view.text, usage.view.usage) == ("", "race")


async def test_channel_play_requests(engine: Engine) -> None:
    refused = await engine.handle(DailyOn("tiny", "09:30", "UTC"), ANA)
    assert notice(refused) == (Delivery.PRIVATE, "admin_only")
    on = await engine.handle(DailyOn("tiny", "09:30", "UTC"), BOSS)
    assert notice(on) == (Delivery.PRIVATE, "daily_on")
    status = await engine.handle(DailyStatus(), ANA)
    assert isinstance(status.view, Notice) and "09:30" in status.view.text
    assert notice(await engine.handle(DailyOff(), BOSS)) == (Delivery.PRIVATE, "daily_off")

    race = await engine.handle(RaceStart("tiny", 2, 30), ANA)
    assert notice(race) == (Delivery.PRIVATE, "race_started")
    stopped = await engine.handle(RaceStop(), ANA)  # whoever started it may stop it
    assert notice(stopped) == (Delivery.PRIVATE, "race_stopped")

    none = await engine.handle(CompetitionStandings(), ANA)
    assert notice(none) == (Delivery.PRIVATE, "competition_none")
    cup = await engine.handle(CompetitionStart("Cup", "2026-12-31", "tiny"), BOSS)
    assert notice(cup) == (Delivery.PRIVATE, "competition_started")
    standings = await engine.handle(CompetitionStandings(), ANA)
    assert standings.delivery is Delivery.PUBLIC
    assert isinstance(standings.view, Leaderboard) and standings.view.competition == "Cup"
    assert notice(await engine.handle(CompetitionEnd(), BOSS)) == (
        Delivery.PRIVATE,
        "competition_ended",
    )


async def test_a_database_failure_is_a_private_try_again(tmp_path: Path, catalog: Catalog) -> None:
    store = await Store.open(tmp_path / "locked.db", busy_timeout_ms=100)
    engine = Engine(catalog, store)
    blocker = sqlite3.connect(store.path, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    try:
        reply = await engine.handle(StartQuiz("tiny"), Context(PLAYERS[0], CHANNEL, "bn"))
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
        await store.close()
    assert reply.delivery is Delivery.PRIVATE
    assert isinstance(reply.view, Notice) and reply.view.kind == "try_again"
    assert reply.view.locale == "bn"

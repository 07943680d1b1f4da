"""The scheduler and channel play under faults: one bad channel never stops the bot, a
daily reveal the platform refuses is retried rather than lost, a count refresh that fails
crashes nothing, and bad competition input is named for what it is."""

from __future__ import annotations

import asyncio
import gc
import logging
from datetime import time
from typing import Any

import pytest

from bot.content.banks import Catalog
from bot.domain.daily import DailySchedule
from bot.domain.identities import ScopeRef
from bot.operations import metrics
from bot.services.requests import Context, button
from bot.ui.views import ChannelFeedback, ChannelView, DailyPostView, DailyRevealView

from .support.channel import (
    ADMIN,
    CHANNEL,
    PLAYERS,
    FakeClock,
    RecordingPublisher,
    choices_only,
    moment,
    open_engine,
    right_and_wrong,
    run_until,
    switch_on,
)

# These tests script choices: the catalogue without estimates (tested apart).
catalog = choices_only


class RefusingPublisher(RecordingPublisher):
    """A platform that refuses posts of one kind of view until told otherwise."""

    def __init__(self, clock: FakeClock, refuse: type) -> None:
        super().__init__(clock)
        self.refuse: type | None = refuse

    async def post(self, channel: ScopeRef, view: ChannelView) -> str:
        if self.refuse is not None and isinstance(view, self.refuse):
            raise RuntimeError("503 Service Unavailable")
        return await super().post(channel, view)


async def test_one_broken_channel_never_stops_the_others(
    location: str, catalog: Catalog, caplog: pytest.LogCaptureFixture
) -> None:
    clock = FakeClock(moment("2026-11-02T07:00"))
    engine, publisher = await open_engine(location, catalog, clock)
    # A schedule row no command would write (a zone the tz database lacks), stored first.
    broken = ScopeRef("slack", "T1", "C-broken")
    await engine.store.dailies.save_schedule(
        DailySchedule(broken, ("offloading",), time(9), "Mars/Olympus", "en")
    )
    await switch_on(engine, "offloading", "09:00", "UTC")
    before = metrics.sample("quizbot_scheduler_errors_total", work="the daily question")
    serving = asyncio.create_task(engine.scheduler.serve(interval=0.01))
    clock.advance(3 * 3600)  # 10:00 UTC: both are due
    for _ in range(300):
        if publisher.of(DailyPostView):
            break
        await asyncio.sleep(0.01)
    assert not serving.done(), "the scheduler keeps running"
    serving.cancel()
    posts = publisher.of(DailyPostView)
    assert [p.channel for p in posts] == [CHANNEL]  # the good channel got its question
    failures = [r for r in caplog.get_records("call") if r.levelno == logging.ERROR]
    assert failures and failures[0].getMessage().startswith("the daily question failed for")
    assert failures[0].exc_info is not None  # with its traceback, for the operator
    assert metrics.sample("quizbot_scheduler_errors_total", work="the daily question") > before
    caplog.clear()  # those ERROR records were the point of this test
    await engine.store.close()


async def test_a_refused_reveal_is_retried_not_lost(location: str, catalog: Catalog) -> None:
    clock = FakeClock(moment("2026-11-02T08:00"))
    engine, _ = await open_engine(location, catalog, clock)
    publisher = RefusingPublisher(clock, refuse=DailyRevealView)
    engine.publishers.register("slack", publisher)
    await switch_on(engine, "offloading", "09:00", "UTC")
    await run_until(engine, clock, moment("2026-11-02T09:10"))
    (post,) = publisher.of(DailyPostView)
    failed = metrics.sample("quizbot_daily_reveals_total", outcome="failed")
    await run_until(engine, clock, moment("2026-11-02T17:10"))  # past its reveal at 17:00
    assert publisher.of(DailyRevealView) == []
    # Tried at 17:00 and again on the 17:10 tick (a refused reveal waits a minute).
    assert metrics.sample("quizbot_daily_reveals_total", outcome="failed") == failed + 2
    publisher.refuse = None  # the platform is back
    await run_until(engine, clock, moment("2026-11-02T17:30"), step=60)
    reveals = publisher.of(DailyRevealView)
    assert len(reveals) == 1 and reveals[0].channel == CHANNEL
    assert isinstance(post.view, DailyPostView)
    assert reveals[0].view.prompt == post.view.prompt  # type: ignore[attr-defined]
    await run_until(engine, clock, moment("2026-11-02T18:00"), step=60)
    assert len(publisher.of(DailyRevealView)) == 1  # and only once
    await engine.store.close()


async def test_a_count_refresh_that_fails_crashes_nothing(
    location: str, catalog: Catalog, caplog: pytest.LogCaptureFixture
) -> None:
    clock = FakeClock(moment("2026-11-02T08:00"))
    engine, publisher = await open_engine(location, catalog, clock, count_refresh=0.05)
    unhandled: list[dict[str, Any]] = []
    asyncio.get_running_loop().set_exception_handler(lambda _, context: unhandled.append(context))
    await switch_on(engine, "offloading", "09:00", "UTC")
    await run_until(engine, clock, moment("2026-11-02T09:10"))
    (post,) = publisher.of(DailyPostView)
    assert isinstance(post.view, DailyPostView)
    right, _ = right_and_wrong(engine, post.view)
    answer = await engine.click(PLAYERS[0], button(right), where=CHANNEL)
    assert isinstance(answer, ChannelFeedback)
    await engine.store.close()  # the refresh, still waiting, finds no database
    await asyncio.sleep(0.3)
    gc.collect()  # a failed task nobody awaited reports itself when collected
    assert unhandled == []
    warnings = [r.getMessage() for r in caplog.get_records("call") if r.levelno == logging.WARNING]
    assert any(m.startswith("could not update the daily question's answer count") for m in warnings)


async def test_a_competition_without_a_name_is_told_so(location: str, catalog: Catalog) -> None:
    clock = FakeClock(moment("2026-11-02T08:00"))
    engine, _ = await open_engine(location, catalog, clock)
    admin = Context(ADMIN, CHANNEL, is_admin=True)
    refused = await engine.competitions.start(admin, "  ", "2026-12-31", None)
    assert refused.kind == "competition_no_name"
    assert (refused.text, refused.usage) == ("A competition needs a name.", "competition")
    await engine.store.close()


class GatedPublisher(RecordingPublisher):
    """Once armed, holds the first post it is given until the test releases it."""

    def __init__(self, clock: FakeClock) -> None:
        super().__init__(clock)
        self.armed = False
        self.held: ScopeRef | None = None
        self.holding, self.release = asyncio.Event(), asyncio.Event()

    async def post(self, channel: ScopeRef, view: ChannelView) -> str:
        if self.armed and self.held is None:
            self.held = channel
            self.holding.set()
            await self.release.wait()
        return await super().post(channel, view)


async def test_a_race_stopped_mid_step_stays_stopped(location: str, catalog: Catalog) -> None:
    clock = FakeClock(moment("2026-11-02T08:00"))
    engine, _ = await open_engine(location, catalog, clock)
    publisher = GatedPublisher(clock)
    engine.publishers.register("slack", publisher)
    channels = [ScopeRef("slack", "T1", f"C-race-{n}") for n in (1, 2)]
    for channel in channels:
        started = await engine.races.start(Context(ADMIN, channel), "offloading", 3, 20)
        assert started.kind == "race_started"
    clock.advance(21)  # both questions' time is up
    publisher.armed = True
    stepping = asyncio.create_task(engine.scheduler.run(engine.races.advancing))
    await asyncio.wait_for(publisher.holding.wait(), 5)  # one race's reveal is being posted
    other = next(c for c in channels if c != publisher.held)
    stopped = await engine.races.stop(Context(ADMIN, other))
    assert stopped.kind == "race_stopped"
    publisher.release.set()
    await asyncio.wait_for(stepping, 5)
    assert [r.scope for r in await engine.store.races.running()] == [publisher.held]
    after_stop = publisher.posts[-1]
    assert after_stop.channel == publisher.held  # nothing more was posted in the stopped one
    clock.advance(60)
    await engine.scheduler.tick()
    assert other not in [p.channel for p in publisher.posts if p.at == clock.now()]
    await engine.store.close()

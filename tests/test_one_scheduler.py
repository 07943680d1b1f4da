"""Two bot processes on one PostgreSQL database: the daily question is posted once,
whether one scheduler leads (the lock) or both tick during a hand-over (the database's
constraints)."""

from __future__ import annotations

import asyncio

from bot.content.banks import Catalog
from bot.operations.leadership import AdvisoryLock
from bot.ui.views import DailyPostView, DailyRevealView

from .support.channel import FakeClock, moment, open_engine, switch_on


async def test_a_daily_question_is_posted_once_by_two_processes(
    postgres_url: str, catalog: Catalog
) -> None:
    clock = FakeClock(moment("2026-11-02T09:00"))
    (first, posts_a), (second, posts_b) = [
        await open_engine(postgres_url, catalog, clock) for _ in range(2)
    ]
    try:
        assert (await switch_on(first, "tiny", "09:30", "UTC")).kind == "daily_on"
        clock.at = moment("2026-11-02T09:31")
        leaders = [
            asyncio.create_task(engine.scheduler.serve(0.02, AdvisoryLock(postgres_url)))
            for engine in (first, second)
        ]
        await asyncio.sleep(0.5)
        for task in leaders:
            task.cancel()
        await asyncio.gather(*leaders, return_exceptions=True)
        assert len(posts_a.posts) + len(posts_b.posts) == 1
        # A hand-over: both schedulers tick at once; the day's reveal and the next day's
        # question are each claimed once.
        clock.at = moment("2026-11-03T09:31")
        await asyncio.gather(first.scheduler.tick(), second.scheduler.tick())
        for kind in (DailyPostView, DailyRevealView):
            assert len(posts_a.of(kind)) + len(posts_b.of(kind)) == (
                2 if kind is DailyPostView else 1
            )
    finally:
        await first.store.close()
        await second.store.close()

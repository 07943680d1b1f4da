"""The daily question, on the real engine and store with a fake clock: a week of posts,
answers, reveals, streaks across midnight and DST, no repeats, restarts, no double post."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from bot.content.banks import Catalog
from bot.domain.identities import ScopeRef
from bot.services.engine import Engine
from bot.services.requests import Context, DailyOff, DailyOn, button
from bot.ui.views import ChannelFeedback, DailyPostView, DailyRevealView, Leaderboard, Notice

from .support.channel import (
    ADMIN,
    CHANNEL,
    PLAYERS,
    FakeClock,
    choices_only,
    moment,
    open_engine,
    right_and_wrong,
    run_until,
    switch_on,
)

# These tests script choices: the catalogue without estimates (tested apart).
catalog = choices_only


async def test_a_week_of_daily_questions_across_dst(location: str, catalog: Catalog) -> None:
    # Europe/Berlin leaves summer time on 2026-10-25: 09:30 local is 07:30 UTC before, 08:30 after.
    clock = FakeClock(moment("2026-10-21T00:00"))
    engine, publisher = await open_engine(location, catalog, clock)
    on = await switch_on(engine, "offloading,amp", "09:30", "Europe/Berlin")
    assert on.kind == "daily_on" and "09:30 (Europe/Berlin)" in on.text
    assert "Next question: 2026-10-21 09:30 CEST" in on.text

    for _ in range(7):
        await run_until(engine, clock, clock.now() + 86400)
    posts = publisher.of(DailyPostView)
    reveals = publisher.of(DailyRevealView)
    assert len(posts) == len(reveals) == 7
    berlin = ZoneInfo("Europe/Berlin")
    local_times = {datetime.fromtimestamp(p.at, berlin).strftime("%H:%M") for p in posts}
    assert local_times <= {"09:30", "09:40"}  # within one scheduler step of 09:30
    utc_hours = [datetime.fromtimestamp(p.at, ZoneInfo("UTC")).hour for p in posts]
    assert utc_hours[0] == 7 and utc_hours[-1] == 8
    prompts = [p.view.prompt for p in posts]  # type: ignore[attr-defined]
    assert len(set(prompts)) == 7  # no repeats
    for reveal, post in zip(reveals, posts, strict=True):
        hours = (reveal.at - post.at) / 3600
        assert 7.8 <= hours <= 8.2  # revealed about 8 hours later
    await engine.store.close()


async def test_answers_are_private_and_revealed_with_streaks(
    location: str, catalog: Catalog
) -> None:
    # Asia/Kolkata at 00:30: each local day starts at 19:00 UTC the evening before.
    clock = FakeClock(moment("2026-11-01T18:00"))
    engine, publisher = await open_engine(location, catalog, clock)
    await switch_on(engine, "offloading", "00:30", "Asia/Kolkata")
    for day in range(3):
        await run_until(engine, clock, clock.now() + 3600)  # past 00:30 IST
        post = publisher.of(DailyPostView)[-1]
        view = post.view
        assert isinstance(view, DailyPostView)
        assert view.day == f"2026-11-0{day + 2}"  # the local date, not the UTC one
        right, wrong = right_and_wrong(engine, view)
        ana = await engine.click(PLAYERS[0], button(right), where=CHANNEL)
        assert isinstance(ana, ChannelFeedback) and ana.correct and ana.streak == day + 1
        assert ana.points - 2 * day in (10, 15, 20)  # the question's points + streak bonus
        again = await engine.click(PLAYERS[0], button(wrong), where=CHANNEL)
        assert isinstance(again, Notice) and again.kind == "daily_already"
        assert f"your answer: {ana.chosen.letter}" in again.text
        if day != 1:  # Bo skips the second day: his streak restarts
            bo = await engine.click(PLAYERS[1], button(right), where=CHANNEL)
            assert isinstance(bo, ChannelFeedback) and bo.streak == 1
        cy = await engine.click(PLAYERS[2], button(wrong), where=CHANNEL)
        assert isinstance(cy, ChannelFeedback) and not cy.correct and cy.points == 0
        assert cy.answer == ana.answer and cy.explanation
        answered = 3 if day != 1 else 2
        for _ in range(500):  # the coalesced count refresh runs on its own task
            if f"{answered} answered so far" in post.text:
                break
            await asyncio.sleep(0.01)
        assert post.updates, "the public post shows how many answered"
        public = post.text
        assert f"{answered} answered so far" in public
        assert "Ana" not in public and "✅" not in public  # nothing to copy
        await run_until(engine, clock, clock.now() + 9 * 3600)
        reveal = publisher.of(DailyRevealView)[-1].view
        assert isinstance(reveal, DailyRevealView)
        assert reveal.answered == answered
        assert [b.count for b in reveal.bars if b.correct] == [answered - 1]
        assert "Ana" in reveal.winners and "Cy" not in reveal.winners
        assert sum(b.percent for b in reveal.bars) in (99, 100, 101)
        text = publisher.of(DailyRevealView)[-1].text
        assert "Right answer:" in text and "Got it right: Ana" in text
        late = await engine.click(PLAYERS[2], button(right), where=CHANNEL)
        assert isinstance(late, Notice) and late.kind == "daily_closed"
        await run_until(engine, clock, clock.now() + 86400 - 10 * 3600)
    board = await engine.leaderboard(PLAYERS[0], CHANNEL, "en")
    assert isinstance(board, Leaderboard) and board.rows[0].name == "Ana"
    await engine.store.close()


async def test_no_repeats_until_a_topic_is_exhausted(location: str, catalog: Catalog) -> None:
    clock = FakeClock(moment("2026-11-01T00:00"))
    engine, publisher = await open_engine(location, catalog, clock)
    await switch_on(engine, "tiny", "06:00", "UTC")
    for _ in range(6):
        await run_until(engine, clock, clock.now() + 86400, step=3600)
    prompts = [p.view.prompt for p in publisher.of(DailyPostView)]  # type: ignore[attr-defined]
    assert len(prompts) == 6
    for cycle in range(3):
        assert len(set(prompts[2 * cycle : 2 * cycle + 2])) == 2
    await engine.store.close()


async def test_restart_mid_day_and_missed_posts(location: str, catalog: Catalog) -> None:
    path = location
    clock = FakeClock(moment("2026-11-02T05:00"))
    engine, publisher = await open_engine(path, catalog, clock)
    await switch_on(engine, "offloading", "06:00", "UTC")
    await run_until(engine, clock, moment("2026-11-02T07:00"))
    assert len(publisher.of(DailyPostView)) == 1
    view = publisher.of(DailyPostView)[0].view
    await engine.store.close()

    # Restarted mid-day: no second post, clicks on the old message still work, reveal comes.
    engine, again = await open_engine(path, catalog, clock)
    await engine.scheduler.tick()
    assert again.of(DailyPostView) == []
    right, _ = right_and_wrong(engine, view)  # type: ignore[arg-type]
    assert isinstance(await engine.click(PLAYERS[0], button(right), where=CHANNEL), ChannelFeedback)
    await run_until(engine, clock, moment("2026-11-02T15:00"))
    assert len(again.of(DailyRevealView)) == 1
    await engine.store.close()

    # Down over the next post time: posted on start-up while inside the day's window...
    clock.at = moment("2026-11-03T10:00")
    engine, late = await open_engine(path, catalog, clock)
    await engine.scheduler.tick()
    assert len(late.of(DailyPostView)) == 1
    await engine.store.close()
    # ...but a day whose window has passed (after its reveal time) is skipped.
    clock.at = moment("2026-11-04T15:00")
    engine, skipped = await open_engine(path, catalog, clock)
    await engine.scheduler.tick()
    assert skipped.of(DailyPostView) == []
    assert len(skipped.of(DailyRevealView)) == 1  # the 3rd's reveal was still owed
    await engine.store.close()


async def test_two_processes_never_double_post(location: str, catalog: Catalog) -> None:
    path = location
    clock = FakeClock(moment("2026-11-02T05:59"))
    first, one = await open_engine(path, catalog, clock)
    await switch_on(first, "offloading", "06:00", "UTC")
    second, two = await open_engine(path, catalog, clock)
    clock.advance(120)
    await asyncio.gather(first.scheduler.tick(), second.scheduler.tick(), first.scheduler.tick())
    assert len(one.of(DailyPostView)) + len(two.of(DailyPostView)) == 1
    await first.store.close()
    await second.store.close()


async def test_daily_commands_need_an_admin_and_valid_input(engine: Engine) -> None:
    member = Context(PLAYERS[0], CHANNEL)
    admin = Context(ADMIN, CHANNEL, is_admin=True)
    # Who may is the dispatch's to check, once, for every request.
    on_by_member = await engine.handle(DailyOn("offloading", "09:30", "UTC"), member)
    assert on_by_member.view.kind == "admin_only"  # type: ignore[union-attr]
    off_by_member = await engine.handle(DailyOff(), member)
    assert off_by_member.view.kind == "admin_only"  # type: ignore[union-attr]
    bad_time = await engine.daily.on(admin, "offloading", "25:00", "UTC", None)
    assert (bad_time.kind, bad_time.usage) == ("bad_time", "daily")  # the platform adds it
    bad_zone = await engine.daily.on(admin, "offloading", "09:30", "Mars/Olympus", None)
    assert bad_zone.kind == "bad_timezone"
    bad_topic = await engine.daily.on(admin, "offloading,cooking", "09:30", "UTC", None)
    assert bad_topic.kind == "bad_topics" and "cooking" in bad_topic.text
    assert (await engine.daily.status(member)).kind == "daily_none"
    on = await engine.daily.on(admin, "amp", "9.30", "Asia/Dhaka", 2)
    assert on.kind == "daily_on" and "2 h later" in on.text
    status = await engine.daily.status(member)
    assert status.kind == "daily_status" and "Mixed precision training" in status.text
    assert (await engine.daily.off(admin)).kind == "daily_off"
    assert (await engine.daily.off(admin)).kind == "daily_none"


def test_reveal_always_comes_before_the_next_post() -> None:
    from datetime import time

    from bot.domain.daily import DailySchedule, post_time, reveal_time

    schedule = DailySchedule(CHANNEL, ("x",), time(9, 0), "UTC", "en", reveal_after=30 * 3600)
    day = datetime(2026, 11, 2).date()
    assert reveal_time(schedule, day) < post_time(schedule, day + timedelta(days=1))


async def test_a_click_from_another_workspace_counts_nowhere(
    location: str, catalog: Catalog
) -> None:
    """A daily post's button id copied into another workspace (or a forged click) must not
    score on the post's boards: the click counts only from the post's own workspace."""
    clock = FakeClock(moment("2026-11-02T08:00"))
    engine, publisher = await open_engine(location, catalog, clock)
    try:
        await switch_on(engine, "offloading", "09:00", "UTC")
        await run_until(engine, clock, moment("2026-11-02T09:10"))
        (post,) = publisher.of(DailyPostView)
        assert isinstance(post.view, DailyPostView)
        right, _ = right_and_wrong(engine, post.view)
        for elsewhere in (ScopeRef("slack", "T2", "C-daily"), ScopeRef("discord", "T1", "C")):
            foreign = await engine.handle(button(right), Context(PLAYERS[0], elsewhere))
            assert isinstance(foreign.view, Notice) and foreign.view.kind == "invalid"
        here = await engine.handle(button(right), Context(PLAYERS[0], CHANNEL))
        assert isinstance(here.view, ChannelFeedback) and here.view.correct  # its first answer
    finally:
        await engine.store.close()

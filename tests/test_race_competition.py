"""Live races and competitions on the real engine and store with a fake clock."""

from __future__ import annotations

from bot.content.banks import Catalog
from bot.domain.actions import RaceAction, decode
from bot.domain.identities import PlayerRef, ScopeRef
from bot.persistence import Store
from bot.services.engine import Engine
from bot.services.requests import CompetitionStart, Context, button
from bot.ui.views import (
    ChannelFeedback,
    DailyPostView,
    Leaderboard,
    Notice,
    RaceLockedView,
    RacePodiumView,
    RaceQuestionView,
    RaceRevealView,
)

from .support.channel import (
    FakeClock,
    RecordingPublisher,
    choices_only,
    moment,
    right_and_wrong,
    run_until,
)
from .support.quiz import play

# These tests script choices: the catalogue without estimates (tested apart).
catalog = choices_only

CHANNEL = ScopeRef("discord", "G1", "C-race")
ANA, BO, CY = (PlayerRef("discord", f"{i}", n) for i, n in enumerate(["Ana", "Bo", "Cy"], 1))
ADMIN = PlayerRef("discord", "99", "Admin")


async def open_engine(
    path: str, catalog: Catalog, clock: FakeClock
) -> tuple[Engine, RecordingPublisher]:
    engine = Engine(catalog, await Store.open(path), clock, count_refresh=0.0)
    publisher = RecordingPublisher(clock)
    engine.publishers.register("discord", publisher)
    return engine, publisher


def race_answer(engine: Engine, view: RaceQuestionView, right: bool) -> str:
    action = decode(view.choices[0].action_id)
    assert isinstance(action, RaceAction)
    bank = engine.catalog.get("offloading")
    assert bank is not None
    question = next(q for q in bank.questions if q.prompt[view.locale] == view.prompt)
    choice = question.answer if right else (question.answer + 1) % len(question.choices)
    return RaceAction(action.race_id, action.number, choice).encode()


async def test_a_race_with_speed_points_late_clicks_and_a_tie(
    location: str, catalog: Catalog
) -> None:
    clock = FakeClock(moment("2026-11-02T12:00"))
    engine, publisher = await open_engine(location, catalog, clock)
    starter = Context(ANA, CHANNEL)
    started = await engine.races.start(starter, "offloading", 2, 20)
    assert started.kind == "race_started" and "Questions: 2, 20 seconds each" in started.text
    again = await engine.races.start(Context(BO, CHANNEL), "amp", None, None)
    assert again.kind == "race_running"

    first = publisher.of(RaceQuestionView)[0].view
    assert isinstance(first, RaceQuestionView) and (first.number, first.total) == (1, 2)
    # Instant: full points.
    locked = await engine.click(ANA, button(race_answer(engine, first, right=True)), where=CHANNEL)
    assert isinstance(locked, RaceLockedView) and not locked.duplicate
    clock.advance(10)
    bo = await engine.click(
        BO, button(race_answer(engine, first, right=True)), where=CHANNEL
    )  # halfway: 3/4
    assert isinstance(bo, RaceLockedView)
    second_click = await engine.click(
        BO, button(race_answer(engine, first, right=False)), where=CHANNEL
    )
    assert isinstance(second_click, RaceLockedView) and second_click.duplicate
    assert second_click.chosen == bo.chosen  # the first click stays locked in
    clock.advance(5)
    await engine.click(CY, button(race_answer(engine, first, right=False)), where=CHANNEL)
    clock.advance(6)  # 21 s: the buzzer has gone
    late = await engine.click(CY, button(race_answer(engine, first, right=True)), where=CHANNEL)
    assert isinstance(late, Notice) and late.kind == "race_late"

    await engine.scheduler.tick()  # reveal question 1
    reveal = publisher.of(RaceRevealView)[0].view
    assert isinstance(reveal, RaceRevealView)
    assert [b.count for b in reveal.bars if b.correct] == [2]
    assert sum(b.count for b in reveal.bars) == 3
    assert [r.name for r in reveal.standings] == ["Ana", "Bo", "Cy"]
    ana_points, bo_points = reveal.standings[0].points, reveal.standings[1].points
    assert ana_points in (10, 15, 20) and bo_points == round(ana_points * 0.75)

    await run_until(engine, clock, clock.now() + 6, step=1)  # the pause, then question 2
    second = publisher.of(RaceQuestionView)[1].view
    assert isinstance(second, RaceQuestionView) and second.number == 2
    stale = await engine.click(CY, button(race_answer(engine, first, right=True)), where=CHANNEL)
    assert isinstance(stale, Notice) and stale.kind == "race_late"
    await engine.click(
        BO, button(race_answer(engine, second, right=True)), where=CHANNEL
    )  # instant, streak 2
    clock.advance(20)
    await engine.click(
        ANA, button(race_answer(engine, second, right=True)), where=CHANNEL
    )  # at the buzzer: late
    await run_until(engine, clock, clock.now() + 2, step=1)
    podium = publisher.of(RacePodiumView)
    assert len(podium) == 1 and not podium[0].view.stopped  # type: ignore[attr-defined]
    standings = podium[0].view.standings  # type: ignore[attr-defined]
    assert standings[0].name == "Bo"  # speed and streak beat Ana's late second answer
    assert "🥇 Bo" in podium[0].text and "🥈 Ana" in podium[0].text
    # The race is over: the channel can start another.
    assert (await engine.races.start(starter, "tiny", 1, 5)).kind == "race_started"
    await engine.store.close()


async def test_equal_points_rank_whoever_got_there_first(location: str, catalog: Catalog) -> None:
    clock = FakeClock(moment("2026-11-02T12:00"))
    engine, publisher = await open_engine(location, catalog, clock)
    await engine.races.start(Context(ANA, CHANNEL), "tiny", 1, 10)
    view = publisher.of(RaceQuestionView)[0].view
    assert isinstance(view, RaceQuestionView)
    bank = catalog.get("tiny")
    assert bank is not None
    question = next(q for q in bank.questions if q.prompt["en"] == view.prompt)
    action = decode(view.choices[0].action_id)
    assert isinstance(action, RaceAction)
    right = RaceAction(action.race_id, 0, question.answer).encode()
    await engine.click(BO, button(right), where=CHANNEL)
    clock.advance(0.1)  # Ana a moment later: the same points after rounding
    await engine.click(ANA, button(right), where=CHANNEL)
    clock.advance(11)
    await engine.scheduler.tick()
    podium = publisher.of(RacePodiumView)[0].view
    assert [r.name for r in podium.standings] == ["Bo", "Ana"]  # type: ignore[attr-defined]
    assert podium.standings[0].points == podium.standings[1].points  # type: ignore[attr-defined]
    await engine.store.close()


async def test_only_the_starter_or_an_admin_stops_a_race(location: str, catalog: Catalog) -> None:
    clock = FakeClock(moment("2026-11-02T12:00"))
    engine, publisher = await open_engine(location, catalog, clock)
    assert (await engine.races.stop(Context(ANA, CHANNEL))).kind == "race_none"
    await engine.races.start(Context(ANA, CHANNEL), "offloading", 3, 30)
    refused = await engine.races.stop(Context(BO, CHANNEL))
    assert refused.kind == "race_not_starter"
    stopped = await engine.races.stop(Context(ADMIN, CHANNEL, is_admin=True))
    assert stopped.kind == "race_stopped"
    assert publisher.of(RacePodiumView)[0].view.stopped  # type: ignore[attr-defined]
    clock.advance(60)
    await engine.scheduler.tick()
    assert len(publisher.of(RaceQuestionView)) == 1  # nothing more after the stop
    await engine.store.close()


async def test_a_race_survives_a_restart(location: str, catalog: Catalog) -> None:
    clock = FakeClock(moment("2026-11-02T12:00"))
    path = location
    engine, _ = await open_engine(path, catalog, clock)
    await engine.races.start(Context(ANA, CHANNEL), "offloading", 2, 20)
    await engine.store.close()
    engine, publisher = await open_engine(path, catalog, clock)
    await run_until(engine, clock, clock.now() + 60, step=2)
    assert len(publisher.of(RaceRevealView)) == 2 and len(publisher.of(RacePodiumView)) == 1
    await engine.store.close()


async def test_competition_counts_all_three_modes_in_its_window(
    location: str, catalog: Catalog
) -> None:
    clock = FakeClock(moment("2026-12-01T08:00"))
    engine, publisher = await open_engine(location, catalog, clock)
    admin = Context(ADMIN, CHANNEL, is_admin=True)
    member = Context(ANA, CHANNEL)
    refused = await engine.handle(CompetitionStart("Q4 cup", "2026-12-31"), member)
    assert refused.view.kind == "admin_only"  # type: ignore[union-attr]
    bad = await engine.competitions.start(admin, "Q4 cup", "2026-11-30", None)
    assert bad.kind == "competition_bad_date"
    started = await engine.competitions.start(
        admin, "Q4 systems cup", "2026-12-02", "offloading,tiny"
    )
    assert started.kind == "competition_started" and "Q4 systems cup" in started.text
    twice = await engine.competitions.start(admin, "Other", "2026-12-31", None)
    assert twice.kind == "competition_running"

    # Personal quiz: tiny counts (a listed topic), mixed precision does not.
    await play_in(engine, ANA, "tiny")
    await play_in(engine, BO, "mixed-precision")
    # Daily question on offloading.
    await engine.daily.on(admin, "offloading", "09:00", "UTC", None)
    await run_until(engine, clock, moment("2026-12-01T09:10"))
    daily = publisher.of(DailyPostView)[0].view
    assert isinstance(daily, DailyPostView)
    right, _ = right_and_wrong(engine, daily)
    feedback = await engine.click(BO, button(right), where=CHANNEL)
    assert isinstance(feedback, ChannelFeedback) and feedback.points > 0
    # A race on offloading.
    await engine.races.start(member, "offloading", 1, 10)
    question = publisher.of(RaceQuestionView)[0].view
    assert isinstance(question, RaceQuestionView)
    await engine.click(CY, button(race_answer(engine, question, right=True)), where=CHANNEL)
    clock.advance(11)
    await engine.scheduler.tick()

    standings = await engine.competitions.standings(member)
    assert isinstance(standings, Leaderboard) and standings.competition == "Q4 systems cup"
    by_name = {r.name: r.points for r in standings.rows}
    assert set(by_name) == {"Ana", "Bo", "Cy"}
    assert by_name["Ana"] == 30  # tiny, personal
    assert by_name["Bo"] == feedback.points  # the daily only: mixed precision is outside
    assert by_name["Cy"] > 0  # the race
    assert standings.you and standings.you.name == "Ana"

    # After the end date, points no longer count and the final standings are posted once.
    await run_until(engine, clock, moment("2026-12-03T01:00"), step=3600)
    finals = [p for p in publisher.of(Leaderboard) if p.view.final]  # type: ignore[attr-defined]
    assert len(finals) == 1 and finals[0].channel == CHANNEL
    assert "🏆 Q4 systems cup · final standings" in finals[0].text
    await play_in(engine, CY, "tiny")
    final = await engine.competitions.standings(member)
    assert isinstance(final, Leaderboard) and final.final
    assert {r.name: r.points for r in final.rows} == by_name
    assert (await engine.competitions.end(admin)).kind == "competition_none"
    await engine.store.close()


async def play_in(engine: Engine, player: PlayerRef, topic: str) -> None:
    """A whole personal quiz in the competition's workspace, answered right."""
    await play(engine, player, topic, right=True, scope=ScopeRef("discord", "G1", "C-quiz"))


async def test_a_race_click_from_another_workspace_counts_nowhere(
    location: str, catalog: Catalog
) -> None:
    clock = FakeClock(moment("2026-11-02T09:00"))
    engine, publisher = await open_engine(location, catalog, clock)
    try:
        await engine.races.start(Context(ANA, CHANNEL), "offloading", 1, 10)
        await run_until(engine, clock, clock.now() + 1, step=1)
        question = publisher.of(RaceQuestionView)[0].view
        assert isinstance(question, RaceQuestionView)
        right = race_answer(engine, question, right=True)
        elsewhere = ScopeRef("discord", "G2", "C-race")
        foreign = await engine.handle(button(right), Context(BO, elsewhere))
        assert isinstance(foreign.view, Notice) and foreign.view.kind == "invalid"
        here = await engine.handle(button(right), Context(BO, CHANNEL))
        assert isinstance(here.view, RaceLockedView) and not here.view.duplicate
    finally:
        await engine.store.close()

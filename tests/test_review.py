"""Spaced repetition on the real engine and store (both backends) with a fake clock:
cards from every answer source, review runs, stats, reminders and the daily question's
preference for what the team missed."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.content.banks import Catalog
from bot.domain.daily import draw
from bot.domain.identities import PlayerRef, ScopeRef
from bot.domain.memory import CardState, Memory, due_cutoff, zone_of
from bot.persistence import Store
from bot.services.engine import Engine
from bot.services.requests import Context, button
from bot.ui.views import (
    ChannelFeedback,
    DailyPostView,
    Feedback,
    Leaderboard,
    Notice,
    QuestionView,
    RaceQuestionView,
    Stats,
)

from .support.channel import (
    ADMIN,
    CHANNEL,
    PLAYERS,
    FakeClock,
    RecordingPublisher,
    moment,
    right_and_wrong,
    run_until,
)
from .support.quiz import right_choice, wrong_choice

ANA, BO, CY = PLAYERS
DAY = 86400.0


async def open_engine(location: str, catalog: Catalog, clock: FakeClock) -> Engine:
    store = await Store.open(location, memory=Memory(fuzz=False))
    engine = Engine(catalog, store, clock, count_refresh=0.0)
    engine.publishers.register("slack", RecordingPublisher(clock))
    return engine


def told(engine: Engine) -> list[tuple[ScopeRef, str, Notice]]:
    publisher = engine.publishers.get("slack")
    assert isinstance(publisher, RecordingPublisher)
    return publisher.told


async def answer_quiz(
    engine: Engine, player: PlayerRef, topic: str, rights: list[bool], fresh: bool = True
) -> list[Feedback]:
    """Play a run of ``topic`` answering question i right when ``rights[i]``."""
    view: object = await engine.start_quiz(player, CHANNEL, topic, "en", resume=not fresh)
    feedback = []
    for right in rights:
        assert isinstance(view, QuestionView)
        pick = right_choice if right else wrong_choice
        result = await engine.click(player, button(pick(engine, view)))
        assert isinstance(result, Feedback)
        feedback.append(result)
        if result.next_action is None:
            break
        view = await engine.click(player, button(result.next_action))
    return feedback


async def review_all(engine: Engine, player: PlayerRef, right: bool) -> list[Feedback]:
    """Start /quiz review and answer every question it offers."""
    view = await engine.review(player, CHANNEL, "en")
    assert isinstance(view, QuestionView), view
    results = []
    while True:
        result = await engine.click(
            player, button((right_choice if right else wrong_choice)(engine, view))
        )
        assert isinstance(result, Feedback)
        results.append(result)
        if result.next_action is None:
            return results
        view = await engine.click(player, button(result.next_action))  # type: ignore[assignment]
        assert isinstance(view, QuestionView)


async def log_rows(engine: Engine, player: PlayerRef) -> list[tuple[str, str, int, int]]:
    return [
        (question, source, rating, was_due)
        for question, source, rating, was_due in await engine.store.database.read(
            "SELECT question_id, source, rating, was_due FROM review_log"
            " WHERE player_id = ? ORDER BY review_id",
            (player.id,),
        )
    ]


def test_intervals_for_a_right_and_wrong_sequence() -> None:
    memory = Memory(fuzz=False)
    at = datetime(2027, 1, 4, 10, tzinfo=UTC).timestamp()
    card: CardState | None = None
    intervals = []
    for correct in (True, True, False, True, False):
        card = memory.grade(card, correct, at)
        intervals.append(round((card.due - at) / DAY, 3))
        at = card.due
    assert intervals == [2.0, 11.0, 2.0, 5.0, 1.0]
    assert card is not None and card.reviews == 5 and card.lapses == 2
    assert not card.last_correct
    # A first wrong answer comes back the next day, not in minutes: no learning steps.
    first = memory.grade(None, False, at)
    assert first.due - at == DAY and first.lapses == 0


async def test_wrong_answers_come_back_the_next_day_in_review(
    location: str, catalog: Catalog
) -> None:
    clock = FakeClock(moment("2027-01-04T10:00"))
    engine = await open_engine(location, catalog, clock)
    await answer_quiz(engine, ANA, "offloading", [True, False, True, False, True, True, True, True])
    before = await engine.leaderboard(ANA, CHANNEL, "en", topic="offloading")
    assert isinstance(before, Leaderboard) and before.you is not None
    today = await engine.review(ANA, CHANNEL, "en")
    # Nothing due today: the two missed questions are offered for practice instead.
    assert isinstance(today, QuestionView) and today.review and today.total == 2
    assert today.note == (
        "Nothing to review today: your next card is due in 1 day.\n"
        "For practice: the 2 questions you missed most recently."
    )
    clock.advance(DAY)
    view = await engine.review(ANA, CHANNEL, "en")
    assert isinstance(view, QuestionView) and view.note is None
    bank = engine.catalog.get("offloading")
    assert bank is not None
    missed = [bank.questions[1].prompt["en"], bank.questions[3].prompt["en"]]
    assert view.total == 2 and view.prompt == missed[0] and view.number == 1
    assert view.topic_title == "Optimizer state offloading to CPU and NVMe"
    first = await engine.click(ANA, button(right_choice(engine, view)))
    assert isinstance(first, Feedback) and first.correct and first.points == 0
    assert first.practice and first.due_in_days == 2
    second_view = await engine.click(ANA, button(str(first.next_action)))
    assert isinstance(second_view, QuestionView) and second_view.prompt == missed[1]
    second = await engine.click(ANA, button(wrong_choice(engine, second_view)))
    assert isinstance(second, Feedback) and not second.correct and second.due_in_days == 1
    assert second.summary is not None and second.summary.review
    assert (second.summary.correct, second.summary.total) == (1, 2)
    after = await engine.leaderboard(ANA, CHANNEL, "en", topic="offloading")
    assert isinstance(after, Leaderboard) and after.you == before.you  # no points
    rows = await log_rows(engine, ANA)
    assert [r[1] for r in rows] == ["quiz"] * 8 + ["review", "review"]
    assert rows[-2:] == [
        ("offloading-adam-bytes-per-param", "review", 3, 1),
        ("offloading-performance-cost", "review", 1, 1),
    ]
    await engine.store.close()


async def test_every_answer_source_updates_the_card(location: str, catalog: Catalog) -> None:
    clock = FakeClock(moment("2027-01-04T06:00"))
    engine = await open_engine(location, catalog, clock)
    await answer_quiz(engine, ANA, "tiny", [True, False])
    clock.advance(60)
    await answer_quiz(engine, ANA, "tiny", [False, True])  # a replay: practice
    # The daily question, on a tiny-only channel.
    await engine.daily.on(Context(ADMIN, CHANNEL, is_admin=True), "tiny", "07:00", "UTC", None)
    await run_until(engine, clock, moment("2027-01-04T07:05"))
    posted = engine.publishers.get("slack")
    assert isinstance(posted, RecordingPublisher)
    daily = posted.of(DailyPostView)[0].view
    assert isinstance(daily, DailyPostView)
    right, _ = right_and_wrong(engine, daily)
    assert isinstance(await engine.click(ANA, button(right), where=CHANNEL), ChannelFeedback)
    # A race over the same bank.
    await engine.races.start(Context(ANA, CHANNEL), "tiny", 1, 20)
    race = posted.of(RaceQuestionView)[0].view
    assert isinstance(race, RaceQuestionView)
    clock.advance(3)
    await engine.click(ANA, button(race.choices[0].action_id), where=CHANNEL)
    rows = await engine.store.database.read(
        "SELECT source, question_id, rating, duration_ms FROM review_log WHERE player_id = ?"
        " ORDER BY review_id",
        (ANA.id,),
    )
    sources = [row[0] for row in rows]
    assert sources == ["quiz", "quiz", "practice", "practice", "daily", "race"]
    assert rows[0][3] == 0 and rows[4][3] is None and rows[5][3] == 3000
    cards = await engine.store.cards.all(ANA, CHANNEL)
    assert sorted((c.question_id, c.card.reviews) for c in cards) == [
        ("tiny-one", 2 + (daily.prompt == "One plus one?") + (race.prompt == "One plus one?")),
        ("tiny-two", 2 + (daily.prompt != "One plus one?") + (race.prompt != "One plus one?")),
    ]
    await engine.store.close()


async def test_due_cards_most_overdue_first_and_at_most_ten(
    location: str, catalog: Catalog
) -> None:
    clock = FakeClock(moment("2027-01-04T10:00"))
    engine = await open_engine(location, catalog, clock)
    await answer_quiz(engine, ANA, "offloading", [False] * 8)  # all due on the 5th
    clock.advance(DAY)
    await answer_quiz(engine, ANA, "amp", [False] * 8)  # due on the 6th
    clock.advance(2 * DAY)
    view = await engine.review(ANA, CHANNEL, "en")
    assert isinstance(view, QuestionView) and view.total == 10
    run = await engine.store.runs.load(view.run_id)
    assert run is not None
    topics = [ref.split("/")[0] for ref in run.question_ids]
    assert topics == ["offloading"] * 8 + ["mixed-precision"] * 2
    await engine.store.close()


async def test_nothing_to_review_says_when_the_next_card_is_due(
    location: str, catalog: Catalog
) -> None:
    clock = FakeClock(moment("2027-01-04T10:00"))
    engine = await open_engine(location, catalog, clock)
    empty = await engine.review(ANA, CHANNEL, "en")
    assert isinstance(empty, Notice) and empty.kind == "review_empty"
    assert empty.text.startswith("You have no review cards yet")
    await answer_quiz(engine, ANA, "tiny", [True, True])
    nothing = await engine.review(ANA, CHANNEL, "en")
    assert isinstance(nothing, Notice)
    assert nothing.text == "Nothing to review today: your next card is due in 2 days."
    hindi = await engine.review(ANA, CHANNEL, "hi")
    assert isinstance(hindi, Notice)
    assert hindi.text == "आज रिव्यू के लिए कुछ नहीं है: आपका अगला कार्ड 2 दिन बाद आएगा।"
    await engine.store.close()


async def test_a_players_cards_are_never_anothers(location: str, catalog: Catalog) -> None:
    clock = FakeClock(moment("2027-01-04T10:00"))
    engine = await open_engine(location, catalog, clock)
    await answer_quiz(engine, ANA, "tiny", [False, True])
    await answer_quiz(engine, BO, "tiny", [True, False])
    clock.advance(DAY)
    ana = await engine.review(ANA, CHANNEL, "en")
    bo = await engine.review(BO, CHANNEL, "en")
    assert isinstance(ana, QuestionView) and isinstance(bo, QuestionView)
    assert (ana.total, ana.prompt) == (1, "One plus one?")
    assert (bo.total, bo.prompt) == (1, "Two times three?")
    stolen = await engine.click(BO, button(ana.choices[0].action_id))
    assert isinstance(stolen, Notice) and stolen.kind == "not_yours"
    cy = await engine.review(CY, CHANNEL, "en")
    assert isinstance(cy, Notice) and cy.kind == "review_empty"
    elsewhere = ScopeRef("slack", "T-other", "C1")
    assert await engine.review(ANA, elsewhere, "en") == Notice(
        "en", "review_empty", cy.text
    )  # another workspace: no cards
    await engine.store.close()


async def test_stats_show_seen_due_retention_and_recall(location: str, catalog: Catalog) -> None:
    clock = FakeClock(moment("2027-01-04T10:00"))
    engine = await open_engine(location, catalog, clock)
    await answer_quiz(engine, ANA, "tiny", [False, False])
    clock.advance(DAY)
    stats = await engine.stats(ANA, CHANNEL, "en")
    assert isinstance(stats, Stats) and stats.due == 2
    (row,) = stats.rows
    assert (row.seen, row.due, row.retention, row.answered, row.correct) == (2, 2, None, 2, 0)
    await review_all(engine, ANA, right=True)  # both due: both count for retention
    clock.advance(DAY)
    view = await engine.review(ANA, CHANNEL, "en")  # none due: practice of the missed
    assert isinstance(view, Notice) and view.kind == "review_not_due"
    await answer_quiz(engine, ANA, "tiny", [True, False], fresh=True)  # not due: no retention
    after = await engine.stats(ANA, CHANNEL, "en")
    (row,) = after.rows
    assert (row.seen, row.retention, row.answered, row.points) == (2, 100, 2, 0)
    assert (row.due, after.due) == (0, 0)  # the one missed just now is due tomorrow
    assert row.recall is not None and 0 < row.recall <= 100
    await engine.store.close()


async def test_reminders_once_a_day_across_dst_and_restarts(
    location: str, catalog: Catalog
) -> None:
    # Europe/Berlin moves to summer time on 2027-03-28: 09:00 is 08:00 UTC before, 07:00 after.
    clock = FakeClock(moment("2027-03-25T12:00"))
    engine = await open_engine(location, catalog, clock)
    on = await engine.reminders.on(Context(ANA, CHANNEL), "09:00", "Europe/Berlin")
    assert on.text == "Review reminder on: at 09:00 (Europe/Berlin), on days you have cards due."
    bad = await engine.reminders.on(Context(ANA, CHANNEL), "25:00", "Europe/Berlin")
    assert bad.kind == "bad_time" and bad.usage == "remind"
    await run_until(engine, clock, moment("2027-03-26T12:00"))
    assert told(engine) == []  # no cards: nothing is due, nothing is sent
    await answer_quiz(engine, ANA, "tiny", [False, False])  # due on the 27th
    sent_at: list[str] = []
    for day in ("27", "28", "29"):
        await run_until(engine, clock, moment(f"2027-03-{day}T12:00"), step=300)
        for _, player_id, notice in told(engine)[len(sent_at) :]:
            assert player_id == ANA.id and notice.kind == "reminder"
            assert notice.text == "You have 2 questions due for review today."
            assert notice.usage == "review"
            sent_at.append(datetime.fromtimestamp(clock.now(), UTC).strftime("%d"))
    assert sent_at == ["27", "28", "29"]  # once a day while the cards stay due
    rows = await engine.store.database.read(
        "SELECT day, sent_at FROM reminder_sends ORDER BY day", ()
    )
    assert [(day, datetime.fromtimestamp(at, UTC).strftime("%H:%M")) for day, at in rows] == [
        ("2027-03-27", "08:00"),
        ("2027-03-28", "07:00"),
        ("2027-03-29", "07:00"),
    ]
    # A restart the same day sends nothing more; tomorrow's comes once.
    await engine.store.close()
    engine = await open_engine(location, catalog, clock)
    await run_until(engine, clock, moment("2027-03-29T23:00"), step=300)
    assert told(engine) == []
    await run_until(engine, clock, moment("2027-03-30T08:00"), step=300)
    assert len(told(engine)) == 1
    off = await engine.reminders.off(Context(ANA, CHANNEL))
    assert off.text == "Review reminder off."
    await run_until(engine, clock, moment("2027-04-01T12:00"), step=900)
    assert len(told(engine)) == 1
    await engine.store.close()


async def test_a_reminder_missed_while_down_is_not_sent_late(
    location: str, catalog: Catalog
) -> None:
    clock = FakeClock(moment("2027-01-04T10:00"))
    engine = await open_engine(location, catalog, clock)
    await answer_quiz(engine, ANA, "tiny", [False, False])
    await engine.reminders.on(Context(ANA, CHANNEL), "09:00", "UTC")
    clock.at = moment("2027-01-06T08:00")  # down through the 5th's reminder
    await engine.scheduler.tick()
    assert told(engine) == []
    await run_until(engine, clock, moment("2027-01-06T09:10"), step=300)
    assert [n.text for _, _, n in told(engine)] == ["You have 2 questions due for review today."]
    await engine.store.close()


def test_the_daily_draw_prefers_what_the_team_missed() -> None:
    candidates = [("b", "q1"), ("b", "q2"), ("b", "q3"), ("b", "q4")]
    misses = {("b", "q2"): 3, ("b", "q3"): 5, ("b", "q4"): 5}
    drawn = {draw(candidates, {("b", "q3")}, seed, misses)[0] for seed in range(40)}
    assert drawn == {("b", "q4")}  # q3 was posted already: q4 is the one missed most left
    plain = {draw(candidates, set(), seed)[0] for seed in range(40)}
    assert plain == set(candidates)


async def test_the_daily_question_posts_the_missed_one_first(
    location: str, catalog: Catalog
) -> None:
    clock = FakeClock(moment("2027-01-04T06:00"))
    engine = await open_engine(location, catalog, clock)
    await answer_quiz(engine, ANA, "tiny", [True, False])
    await answer_quiz(engine, BO, "tiny", [True, False])
    admin = Context(ADMIN, CHANNEL, is_admin=True)
    status = await engine.daily.on(admin, "tiny", "07:00", "UTC", None, prefer_missed=True)
    assert status.text.endswith("Questions the team missed most are posted first.")
    await run_until(engine, clock, moment("2027-01-04T07:05"))
    publisher = engine.publishers.get("slack")
    assert isinstance(publisher, RecordingPublisher)
    first = publisher.of(DailyPostView)[0].view
    assert isinstance(first, DailyPostView) and first.prompt == "Two times three?"
    await engine.store.close()


def test_a_card_is_due_all_of_its_due_day_in_the_players_zone() -> None:
    now = moment("2027-01-04T09:00", "Asia/Kolkata")
    cutoff = due_cutoff(now, zone_of("Asia/Kolkata"))
    assert cutoff == moment("2027-01-05T00:00", "Asia/Kolkata")
    assert due_cutoff(now, zone_of(None)) == moment("2027-01-05T00:00")


async def test_asking_for_review_again_continues_todays_instead_of_adding_runs(
    location: str, catalog: Catalog
) -> None:
    clock = FakeClock(moment("2027-01-04T10:00"))
    engine = await open_engine(location, catalog, clock)
    await answer_quiz(engine, ANA, "offloading", [True, False, True, False, True, True, True, True])
    clock.advance(DAY)
    first = await engine.review(ANA, CHANNEL, "en")
    assert isinstance(first, QuestionView) and first.total == 2 and not first.resumed
    for _ in range(5):
        again = await engine.review(ANA, CHANNEL, "hi")
        assert isinstance(again, QuestionView) and again.resumed
        assert (again.run_id, again.number, again.locale) == (first.run_id, 1, "hi")
    runs = await engine.store.database.read(
        "SELECT COUNT(*) FROM runs WHERE player_id = ? AND bank_id = '@review'", (ANA.id,)
    )
    assert runs == [(1,)]
    clock.advance(DAY)  # left unfinished: the next day brings the cards due then
    tomorrow = await engine.review(ANA, CHANNEL, "en")
    assert isinstance(tomorrow, QuestionView) and tomorrow.run_id != first.run_id
    await engine.store.close()

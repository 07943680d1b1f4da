"""The insight numbers as pure functions of the answer log (``review_log``: every answer
from every source, in order), so they can be checked against a hand-computed fixture.

- A **first try** is a player's first answer ever to a question, whatever the source;
  first-try accuracy is what the team knew before practice.
- **Retention** is the share of answers to cards that were due which were right.
- Each question's item analysis (facility with its Wilson interval, discrimination)
  and the rules that flag it: ``bot.domain.item_analysis``.
- Days are UTC days; a report's period is a rolling window (``bot.domain.periods``):
  "week" and "month" are the last 7 and 30 days.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from bot.domain.item_analysis import discrimination, flags, wilson
from bot.domain.periods import window_start

MIN_ESTIMATES = 3  # first estimates of a question before its median and spread are shown


@dataclass(frozen=True)
class LoggedAnswer:
    review_id: int
    player_id: str
    bank_id: str
    question_id: str
    source: str
    choice: int
    correct: bool
    at: float
    was_due: bool


@dataclass(frozen=True)
class QuestionInsight:
    bank_id: str
    question_id: str
    answers: int
    first_tries: int
    first_right: int
    picks: tuple[int, ...]  # answers per choice (bank order)
    answer: int  # the right choice's index
    flags: tuple[str, ...]
    discrimination: float | None = None  # corrected item–rest point-biserial
    discriminated: int = 0  # the players it rests on

    @property
    def accuracy(self) -> int | None:
        """First-try accuracy (the facility) in %, None before any first try."""
        return percent(self.first_right, self.first_tries)

    @property
    def interval(self) -> tuple[int, int] | None:
        """The facility's 95 % Wilson interval in whole %, None before any first try."""
        bounds = wilson(self.first_right, self.first_tries)
        return (round(100 * bounds[0]), round(100 * bounds[1])) if bounds else None

    @property
    def pick_rates(self) -> tuple[int | None, ...]:
        """Each choice's share of the answers in %."""
        return tuple(percent(count, sum(self.picks)) for count in self.picks)

    @property
    def top_wrong(self) -> int | None:
        """The wrong choice picked most (the lowest index on a tie), None if none was."""
        wrong = [(count, -i) for i, count in enumerate(self.picks) if i != self.answer and count]
        return -max(wrong)[1] if wrong else None


@dataclass(frozen=True)
class TopicInsight:
    bank_id: str
    players: int
    answers: int
    first_tries: int
    first_right: int
    due_reviews: int
    due_passed: int
    questions: tuple[QuestionInsight, ...]  # hardest first

    @property
    def accuracy(self) -> int | None:
        return percent(self.first_right, self.first_tries)

    @property
    def retention(self) -> int | None:
        return percent(self.due_passed, self.due_reviews)


@dataclass(frozen=True)
class DayActivity:
    day: str  # ISO date, UTC
    players: int
    answers: int


@dataclass(frozen=True)
class WeekActivity:
    """A week's trend: who took part, how much, and how well at first try."""

    monday: str  # ISO date, UTC
    players: int
    answers: int
    first_tries: int
    first_right: int

    @property
    def accuracy(self) -> int | None:
        return percent(self.first_right, self.first_tries)


@dataclass(frozen=True)
class Streak:
    player_id: str
    days: int  # consecutive days with an answer, up to today or yesterday


@dataclass(frozen=True)
class Report:
    period: str
    since: float | None  # the period's start (None: all time)
    topics: tuple[TopicInsight, ...]
    days: tuple[DayActivity, ...]  # every day of the period with answers, oldest first
    streaks: tuple[Streak, ...]  # longest first
    weeks: tuple[WeekActivity, ...] = ()  # every week of the period with answers, oldest first

    @property
    def flagged(self) -> tuple[QuestionInsight, ...]:
        return tuple(q for topic in self.topics for q in topic.questions if q.flags)


@dataclass(frozen=True)
class LoggedEstimate:
    player_id: str
    bank_id: str
    question_id: str
    value: float  # in the dimension's base unit
    at: float


@dataclass(frozen=True)
class EstimateInsight:
    """How a team estimates one quantity, from each player's first estimate: the median
    of answer / truth, its bias (below 1: the team underestimates), the median error
    (the factor a typical estimate is off by, either way) and the spread, the factor
    between the upper and lower quartile of those ratios."""

    bank_id: str
    question_id: str
    answers: int
    median: float
    spread: float
    error: float = 1.0


def first_estimates(
    log: Iterable[LoggedEstimate], since: float | None = None
) -> dict[tuple[str, str], dict[str, float]]:
    """Each player's first estimate of each question (bank id, question id), in a quiz or
    a daily post, made from ``since`` on: a replay is practice, as for choices."""
    firsts: dict[tuple[str, str], dict[str, float]] = {}
    for entry in sorted(log, key=lambda e: e.at):
        players = firsts.setdefault((entry.bank_id, entry.question_id), {})
        if entry.player_id not in players and (since is None or entry.at >= since):
            players[entry.player_id] = entry.value
    return firsts


def estimate_insights(
    log: Iterable[LoggedEstimate],
    truth: Callable[[str, str], float | None],
    since: float | None = None,
) -> tuple[EstimateInsight, ...]:
    """Per estimate question with at least MIN_ESTIMATES first estimates (in the period,
    from ``since``), most biased first; ``truth``: a question's true value, None for one
    the catalog no longer has."""
    found = []
    for (bank_id, question_id), values in first_estimates(log, since).items():
        true = truth(bank_id, question_id)
        if true is None or len(values) < MIN_ESTIMATES:
            continue
        logs = sorted(math.log(v / true) for v in values.values())
        low, _, high = statistics.quantiles(logs, n=4, method="inclusive")
        found.append(
            EstimateInsight(
                bank_id, question_id, len(logs),
                math.exp(statistics.median(logs)), math.exp(high - low),
                math.exp(statistics.median(abs(v) for v in logs)),
            )
        )  # fmt: skip
    return tuple(sorted(found, key=lambda e: -abs(math.log(e.median))))


def percent(part: float, whole: int) -> int | None:
    """``part`` of ``whole`` in whole percent; None of nothing."""
    return round(100 * part / whole) if whole else None


def day_of(at: float) -> date:
    return datetime.fromtimestamp(at, UTC).date()


def build(
    log: Iterable[LoggedAnswer],
    period: str,
    now: float,
    question: Callable[[str, str], tuple[int, int] | None],
    topic: str | None = None,
) -> Report:
    """The report of the answers in ``period`` (of ``topic``, else every topic).
    ``question(bank_id, question_id)`` gives (choices, right choice) for a question that
    still exists; answers to questions gone from their banks are left out."""
    since = window_start(period, now)
    seen: set[tuple[str, str, str]] = set()
    picks: dict[tuple[str, str], list[int]] = {}
    firsts: dict[tuple[str, str], list[int]] = {}  # [first tries, right]
    due: dict[str, list[int]] = {}  # bank -> [due reviews, passed]
    players: dict[str, set[str]] = {}
    answers: Counter[str] = Counter()
    active: dict[date, set[str]] = {}
    per_day: Counter[date] = Counter()
    # Monday -> (players, [answers, first tries, right at first try])
    weekly: dict[date, tuple[set[str], list[int]]] = {}
    shape: dict[tuple[str, str], tuple[int, int] | None] = {}
    asked: Counter[tuple[str, str]] = Counter()  # answers per question
    first_right: dict[tuple[str, str], dict[str, bool]] = {}  # each player's first try
    by_topic: dict[str, dict[str, list[int]]] = {}  # bank -> player -> [first tries, right]
    for row in sorted(log, key=lambda r: r.review_id):
        key = (row.bank_id, row.question_id)
        first = (row.player_id, *key) not in seen
        seen.add((row.player_id, *key))
        if (since is not None and row.at < since) or (topic and row.bank_id != topic):
            continue
        if key not in shape:
            shape[key] = question(*key)
        known = shape[key]
        estimate = known is not None and known[0] == 0 and row.choice == -1  # no choices
        if known is None or not (estimate or 0 <= row.choice < known[0]):
            continue
        chosen = picks.setdefault(key, [0] * known[0])
        asked[key] += 1
        if not estimate:
            chosen[row.choice] += 1
        counts = firsts.setdefault(key, [0, 0])
        if first and not estimate:
            first_right.setdefault(key, {})[row.player_id] = row.correct
            mine = by_topic.setdefault(row.bank_id, {}).setdefault(row.player_id, [0, 0])
            mine[0] += 1
            mine[1] += row.correct
        if first:
            counts[0] += 1
            counts[1] += row.correct
        if row.was_due:
            kept = due.setdefault(row.bank_id, [0, 0])
            kept[0] += 1
            kept[1] += row.correct
        players.setdefault(row.bank_id, set()).add(row.player_id)
        answers[row.bank_id] += 1
        active.setdefault(day_of(row.at), set()).add(row.player_id)
        per_day[day_of(row.at)] += 1
        monday = day_of(row.at) - timedelta(days=day_of(row.at).weekday())
        week_players, week = weekly.setdefault(monday, (set(), [0, 0, 0]))
        week_players.add(row.player_id)
        week[0] += 1
        if first:
            week[1] += 1
            week[2] += row.correct
    topics = []
    for bank_id in sorted(players):
        questions = []
        for (bank, qid), chosen in picks.items():
            if bank != bank_id:
                continue
            tries, right = firsts[(bank, qid)]
            known = shape[(bank, qid)]
            assert known is not None
            r, based = discrimination(first_right.get((bank, qid), {}), by_topic.get(bank, {}))
            questions.append(
                QuestionInsight(
                    bank, qid, asked[(bank, qid)], tries, right, tuple(chosen), known[1],
                    flags(tries, right, chosen, r), r, based,
                )
            )  # fmt: skip
        questions.sort(key=lambda q: (q.accuracy if q.accuracy is not None else 101, q.question_id))
        kept = due.get(bank_id, [0, 0])
        topics.append(
            TopicInsight(
                bank_id,
                len(players[bank_id]),
                answers[bank_id],
                sum(q.first_tries for q in questions),
                sum(q.first_right for q in questions),
                kept[0],
                kept[1],
                tuple(questions),
            )
        )
    days = tuple(
        DayActivity(day.isoformat(), len(active[day]), per_day[day]) for day in sorted(active)
    )
    weeks = tuple(
        WeekActivity(monday.isoformat(), len(weekly[monday][0]), *weekly[monday][1])
        for monday in sorted(weekly)
    )
    return Report(period, since, tuple(topics), days, streaks(active, day_of(now)), weeks)


def streaks(active: dict[date, set[str]], today: date) -> tuple[Streak, ...]:
    """Each player's run of consecutive active days that reaches today or yesterday."""
    found = []
    for player in set().union(*active.values()) if active else set():
        end = today if player in active.get(today, ()) else today - timedelta(days=1)
        length = 0
        while player in active.get(end - timedelta(days=length), ()):
            length += 1
        if length:
            found.append(Streak(player, length))
    return tuple(sorted(found, key=lambda s: (-s.days, s.player_id)))

"""Neutral views: what the engine hands to adapters to render. All text is already
resolved into the player's locale; adapters only lay it out."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ChoiceView:
    letter: str  # "A".."E", as shown in this run
    text: str
    action_id: str  # the button id, from bot.codec


@dataclass(frozen=True)
class QuestionView:
    locale: str
    run_id: str
    topic: str  # the bank's id, for "/quiz <topic>" hints
    topic_title: str
    number: int  # 1-based
    total: int
    prompt: str
    choices: tuple[ChoiceView, ...]
    difficulty: str


@dataclass(frozen=True)
class Summary:
    locale: str
    topic_title: str
    correct: int
    total: int
    points: int
    max_points: int
    rank: int | None  # on the topic's all-time leaderboard in the workspace
    players: int


@dataclass(frozen=True)
class Feedback:
    locale: str
    question: QuestionView
    chosen: ChoiceView
    answer: ChoiceView
    correct: bool
    explanation: str
    references: tuple[str, ...]
    points: int
    practice: bool  # a replayed question: recorded, scores nothing
    answered: int  # questions answered in this run so far
    run_points: int
    next_action: str | None  # None after the last question
    summary: Summary | None  # set after the last question


@dataclass(frozen=True)
class Notice:
    """A short private message: a refusal, a confirmation or an error."""

    locale: str
    kind: str  # not_yours, already_answered, finished, invalid, lang_set, lang_unknown, try_again
    text: str


@dataclass(frozen=True)
class TopicView:
    id: str
    title: str
    description: str
    questions: int


@dataclass(frozen=True)
class TopicList:
    locale: str
    topics: tuple[TopicView, ...]
    unknown: str | None = None  # the topic asked for, when it did not match
    suggestion: TopicView | None = None


@dataclass(frozen=True)
class LeaderRow:
    rank: int
    player_id: str
    name: str
    points: int
    correct: int
    answered: int


@dataclass(frozen=True)
class Leaderboard:
    locale: str
    period: str  # all, week, month
    topic_title: str | None  # None: all topics
    rows: tuple[LeaderRow, ...]
    you: LeaderRow | None


@dataclass(frozen=True)
class StatRow:
    topic_title: str
    answered: int
    correct: int
    points: int

    @property
    def accuracy(self) -> int:
        return round(100 * self.correct / self.answered) if self.answered else 0


@dataclass(frozen=True)
class Stats:
    locale: str
    rows: tuple[StatRow, ...]


View = QuestionView | Feedback | Notice | TopicList | Leaderboard | Stats

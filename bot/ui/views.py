"""Neutral views: what the engine hands to adapters to render. All text is already
resolved into the player's locale; adapters only lay it out."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ChoiceView:
    letter: str  # "A".."E", as shown in this run
    text: str
    action_id: str  # the button id, from bot.domain.actions
    choice: int  # the choice's index in the bank (its stable key), as its action id holds it


@dataclass(frozen=True)
class EstimateAsk:
    """An estimate question's way to answer: a button that opens a form (a prompt in the
    terminal) for a number with a unit of the question's dimension."""

    action_id: str
    dimension: str  # memory, time, compute, compute rate, bandwidth, count, ratio
    unit: str  # the unit the question is written in ("" for a count)
    tolerance: str  # "2×", "10%": inside it scores in full


@dataclass(frozen=True)
class EstimateForm:
    """An estimate's form, to open: the question (in the asker's language) and how to
    answer it (``estimate_form_of`` reads one from a quiz's question view too)."""

    locale: str
    prompt: str
    ask: EstimateAsk


@dataclass(frozen=True)
class EstimateResult:
    """How an estimate came out, each part as shown: "0.5 MiB", "512 KiB", "exact"."""

    given: str
    truth: str
    off: float  # answer / truth (2: twice the truth, 0.5: half)
    tolerance: str


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
    resumed: bool = False  # continues a run the player left unfinished
    review: bool = False  # a review run's question: practice, across topics
    note: str | None = None  # said above the first question (why a review holds these)
    # The language the bank's text is in when the bank lacks the player's: set on a run's
    # first question, so the player is told once.
    text_language: str | None = None
    estimate: EstimateAsk | None = None  # an estimate question (it has no choices)


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
    review: bool = False  # the end of a review run: no points, no rank


@dataclass(frozen=True)
class Feedback:
    locale: str
    question: QuestionView
    chosen: ChoiceView | None  # None for an estimate: ``estimate`` says how it went
    answer: ChoiceView | None
    correct: bool  # for an estimate: inside its tolerance
    explanation: str
    references: tuple[str, ...]
    points: int
    practice: bool  # a replayed question: recorded, scores nothing
    answered: int  # questions answered in this run so far
    run_points: int
    next_action: str | None  # None after the last question
    summary: Summary | None  # set after the last question
    due_in_days: int | None = None  # a review answer: when the card comes back
    estimate: EstimateResult | None = None


@dataclass(frozen=True)
class Notice:
    """A short private message: a refusal, a confirmation or an error."""

    locale: str
    kind: str  # not_yours, already_answered, finished, invalid, lang_set, lang_unknown, try_again
    text: str
    usage: str | None = None  # a command (daily, race, competition) whose usage follows


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
    period: str  # a calendar period (all, week, month) or competition
    topic_title: str | None  # None: all topics
    rows: tuple[LeaderRow, ...]
    you: LeaderRow | None
    competition: str | None = None  # the competition's name, for its standings
    final: bool = False  # a competition's final standings


@dataclass(frozen=True)
class StatRow:
    topic_title: str
    answered: int  # first attempts, as the leaderboards count them
    correct: int
    points: int
    seen: int = 0  # questions with a card (answered anywhere)
    due: int = 0  # cards due today
    retention: int | None = None  # % of reviews of due cards answered right; None: none yet
    recall: int | None = None  # the estimated chance, in %, of recalling a card now
    missed: int = 0  # cards whose last answer was wrong (counted as not recalled)

    @property
    def accuracy(self) -> int:
        return round(100 * self.correct / self.answered) if self.answered else 0


@dataclass(frozen=True)
class Stats:
    locale: str
    rows: tuple[StatRow, ...]
    due: int = 0  # cards due today across topics, for /quiz review


@dataclass(frozen=True)
class BarRow:
    """One choice in an answer distribution."""

    letter: str
    text: str
    count: int
    percent: int
    correct: bool


@dataclass(frozen=True)
class DailyPostView:
    """The public daily question: choices and how many have answered, nothing more."""

    locale: str
    post_id: str
    day: str
    topic_title: str
    prompt: str
    choices: tuple[ChoiceView, ...]
    answered: int
    reveal_at: float
    estimate: EstimateAsk | None = None  # a daily estimate: one Answer button, no choices


@dataclass(frozen=True)
class DailyRevealView:
    locale: str
    day: str
    topic_title: str
    prompt: str
    bars: tuple[BarRow, ...]
    answer: ChoiceView
    explanation: str
    references: tuple[str, ...]
    winners: tuple[str, ...]  # display names of those who got it right
    answered: int
    dashboard: str | None = None  # the button an admin asks for the dashboard link with


@dataclass(frozen=True)
class ChannelFeedback:
    """What a daily question tells one player, privately, after their click."""

    locale: str
    correct: bool  # for an estimate: inside its tolerance
    chosen: ChoiceView | None  # None for an estimate: ``estimate`` says how it went
    answer: ChoiceView | None
    explanation: str
    references: tuple[str, ...]
    points: int
    streak: int
    duplicate: bool  # a second click: nothing changed
    estimate: EstimateResult | None = None


@dataclass(frozen=True)
class DailyEstimateRevealView:
    """A daily estimate's results: the team's estimates on a log axis (each bar a range of
    values, the truth's marked), the team's median against the truth, who came closest."""

    locale: str
    day: str
    topic_title: str
    prompt: str
    bars: tuple[BarRow, ...]  # ``letter``: the range, "160 KiB – 510 KiB"
    truth: str  # as the bank writes it
    tolerance: str
    median: str | None  # the team's median estimate, None when nobody answered
    median_off: float  # the median / the truth
    closest: tuple[str, ...]  # names of those nearest the truth
    closest_value: str | None
    inside: tuple[str, ...]  # names of those inside the tolerance
    explanation: str
    references: tuple[str, ...]
    answered: int
    dashboard: str | None = None


@dataclass(frozen=True)
class RaceQuestionView:
    locale: str
    race_id: str
    topic_title: str
    number: int  # 1-based
    total: int
    prompt: str
    choices: tuple[ChoiceView, ...]
    seconds: int
    closes_at: float


@dataclass(frozen=True)
class RaceLockedView:
    """A race click, locked in privately; revealed when the time is up."""

    locale: str
    chosen: ChoiceView
    duplicate: bool


@dataclass(frozen=True)
class RaceRevealView:
    locale: str
    topic_title: str
    number: int
    total: int
    prompt: str
    bars: tuple[BarRow, ...]
    answer: ChoiceView
    explanation: str
    standings: tuple[LeaderRow, ...]


@dataclass(frozen=True)
class RacePodiumView:
    locale: str
    topic_title: str
    standings: tuple[LeaderRow, ...]
    stopped: bool  # ended early by /quiz race stop
    dashboard: str | None = None  # as on a daily reveal


@dataclass(frozen=True)
class ProposalItem:
    number: int
    topic: str  # the workspace bank it would join
    title: str  # the topic as the member typed it: a new bank's title
    author_id: str
    prompt: str
    choices: tuple[str, ...]  # the right one first, as proposed
    explanation: str
    references: tuple[str, ...]
    approve: str  # action ids
    reject: str


@dataclass(frozen=True)
class ProposalList:
    """Questions members proposed, for an admin to approve or reject (a page of them)."""

    locale: str
    items: tuple[ProposalItem, ...]
    pending: int  # all pending, shown or not
    decided: str = ""  # what the last click did, shown above the list


@dataclass(frozen=True)
class QuestionRow:
    """One question in the insights: how it went, and what fooled people."""

    topic_title: str
    bank_id: str
    question_id: str
    prompt: str
    answers: int
    first_tries: int
    accuracy: int | None  # first-try accuracy in %
    top_wrong: str | None  # the text of the wrong choice picked most
    flags: tuple[str, ...]  # what is wrong with it (bot.domain.item_analysis)
    interval: tuple[int, int] | None = None  # first-try accuracy's 95 % interval, in %
    discrimination: float | None = None  # corrected item–rest point-biserial


@dataclass(frozen=True)
class TopicRow:
    title: str
    players: int
    answers: int
    accuracy: int | None  # first-try accuracy in %
    retention: int | None  # % of due reviews answered right
    hardest: tuple[QuestionRow, ...]


@dataclass(frozen=True)
class ActiveDay:
    day: str  # ISO date
    players: int


@dataclass(frozen=True)
class ForgetConfirm:
    """What forgetting deletes, and the button that confirms it."""

    locale: str
    confirm: str  # the button's action id


@dataclass(frozen=True)
class DashboardLink:
    """An admin's private link to the workspace's dashboard."""

    locale: str
    url: str
    hours: int  # how long it works


@dataclass(frozen=True)
class EstimateRow:
    """How the team estimates one quantity (bot.domain.insight_report.EstimateInsight)."""

    prompt: str
    answers: int
    median: float  # the team's median answer / the truth
    spread: float  # the factor between its upper and lower quartile
    error: float = 1.0  # the factor a typical estimate is off by, either way


@dataclass(frozen=True)
class InsightsView:
    """What the team knows, for a lead: per topic, flagged questions, participation."""

    locale: str
    period: str  # a rolling window: week, month (the last 7, 30 days) or all
    topic_title: str | None  # None: every topic
    topics: tuple[TopicRow, ...]
    flagged: tuple[QuestionRow, ...]
    days: tuple[ActiveDay, ...]  # the most recent days with answers, oldest first
    streaks: tuple[tuple[str, int], ...]  # (name, days), longest first
    estimates: tuple[EstimateRow, ...] = ()  # the most biased first
    # The trend: (Monday, players, first-try accuracy in %) per recent week, oldest first.
    weeks: tuple[tuple[str, int, int | None], ...] = ()


@dataclass(frozen=True)
class FlaggedView:
    """A lead's queue of flagged questions, each with why: the workspace's own banks'
    (theirs to fix) apart from the shipped ones'."""

    locale: str
    period: str
    own: tuple[QuestionRow, ...]
    shipped: tuple[QuestionRow, ...]
    more: int = 0  # flagged questions left out of chat (the dashboard lists them all)


@dataclass(frozen=True)
class MapRow:
    """One topic of the team's knowledge map (bot.domain.knowledge_map)."""

    title: str
    members: int
    started: int
    solid: int | None  # None: under the privacy floor, the split is not shown
    shaky: int | None
    solid_names: tuple[str, ...]  # opted in, or the viewer
    shaky_names: tuple[str, ...]
    mine: str | None  # the viewer's own: solid, shaky, or None (not started)


@dataclass(frozen=True)
class MapView:
    locale: str
    rows: tuple[MapRow, ...]
    floor: int
    sharing: bool  # whether the viewer lets the map name them
    more: int = 0  # topics left out of chat


ChannelView = (
    DailyPostView
    | DailyRevealView
    | DailyEstimateRevealView
    | RaceQuestionView
    | RaceRevealView
    | RacePodiumView
    | Leaderboard
)
View = (
    QuestionView
    | Feedback
    | Notice
    | TopicList
    | Leaderboard
    | Stats
    | ChannelFeedback
    | EstimateForm
    | RaceLockedView
    | ProposalList
    | InsightsView
    | FlaggedView
    | MapView
    | DashboardLink
    | ForgetConfirm
    | ChannelView
)


def estimate_form_of(view: View) -> EstimateForm | None:
    """The estimate form a button's answer asks to open: a daily estimate's, or the
    question a quiz waits on when it is an estimate; None for anything else."""
    if isinstance(view, EstimateForm):
        return view
    if isinstance(view, QuestionView) and view.estimate is not None:
        return EstimateForm(view.locale, view.prompt, view.estimate)
    return None

"""Neutral requests: every command and click a player can make, whatever the platform.
An adapter parses its platform's event into one of these and a ``Context``; the core's
``handle`` answers with a ``Reply``. What is true of each request type (who may make it,
what it is about, how its reply is delivered) is declared once, in the dispatch's table,
as its ``Traits``."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from bot.domain import actions
from bot.domain.identities import PlayerRef, ScopeRef
from bot.ui import i18n
from bot.ui.views import Notice, TopicList, View


@dataclass(frozen=True)
class Context:
    """Who asks, where, and what the platform knows about them; the services' ``locale``
    is the player's language, which the dispatch resolves before handing it on."""

    player: PlayerRef
    scope: ScopeRef
    platform_locale: str | None = None  # the client's language, when the platform sends it
    is_admin: bool = False  # may manage the channel's daily question and competitions
    locale: str = i18n.DEFAULT_LOCALE
    # The player's own scope shown where others read along (Discord: a user install in a
    # group DM or a server without the bot): what is theirs alone is told to them alone.
    others_read: bool = False
    workspace_name: str = ""  # the workspace's name, when the platform sends it


@dataclass(frozen=True)
class StartQuiz:
    topic: str
    questions: int | None = None
    # An unfinished run of the topic continues: a private quiz message may be gone.
    resume: bool = True


@dataclass(frozen=True)
class ShowTopics:
    pass


@dataclass(frozen=True)
class ShowLeaderboard:
    period: str = "all"  # a calendar period (bot.domain.periods): all, week, month
    topic: str | None = None


@dataclass(frozen=True)
class ShowStats:
    pass


@dataclass(frozen=True)
class StartReview:
    """A private run of the player's due cards, across topics."""


@dataclass(frozen=True)
class RemindOn:
    at: str  # HH:MM, checked by the core
    timezone: str


@dataclass(frozen=True)
class RemindOff:
    pass


@dataclass(frozen=True)
class RemindStatus:
    pass


@dataclass(frozen=True)
class ShowInsights:
    """For leads: what the team knows (admins, unless the settings open it)."""

    topic: str | None = None
    period: str = "all"  # a rolling window (bot.domain.periods): week, month, all
    flagged: bool = False  # only the flagged questions, each with why


@dataclass(frozen=True)
class ShowMap:
    """The team's knowledge map: per topic, who is solid, shaky or not started."""


@dataclass(frozen=True)
class SetSharing:
    """Whether the knowledge map may name the member (``/quiz share on|off``)."""

    on: bool


@dataclass(frozen=True)
class ShowDashboard:
    """An admin's private, signed and expiring link to the workspace's dashboard."""


@dataclass(frozen=True)
class ForgetMe:
    """Asks to delete the player's data in this workspace (a button confirms it)."""


@dataclass(frozen=True)
class SetLanguage:
    tag: str


@dataclass(frozen=True)
class DailyOn:
    topics: str  # comma-separated, as typed
    at: str  # HH:MM, checked by the core
    timezone: str
    reveal_hours: float | None = None
    prefer_missed: bool = False  # among unposted questions, those the team missed most


@dataclass(frozen=True)
class DailyOff:
    pass


@dataclass(frozen=True)
class DailyStatus:
    pass


@dataclass(frozen=True)
class RaceStart:
    topic: str
    questions: int | None = None
    seconds: int | None = None


@dataclass(frozen=True)
class RaceStop:
    pass


@dataclass(frozen=True)
class CompetitionStart:
    name: str
    until: str  # YYYY-MM-DD, checked by the core
    topics: str | None = None  # comma-separated; None: every topic


@dataclass(frozen=True)
class CompetitionEnd:
    pass


@dataclass(frozen=True)
class CompetitionStandings:
    pass


@dataclass(frozen=True)
class UploadBank:
    """A bank file an admin sent (the adapter has downloaded it)."""

    name: str  # the file's name: its extension says its format
    data: bytes
    allow_missing: bool = False  # questions without an explanation or references may stay so
    language: str | None = None  # the language of a one-language import format file
    size: int | None = None  # the size the platform declares, known before downloading


@dataclass(frozen=True)
class ListBanks:
    pass


@dataclass(frozen=True)
class RemoveBank:
    bank_id: str


@dataclass(frozen=True)
class ProposeQuestion:
    """The proposal form: the topic (a workspace bank, made if new), the question, its
    choices one per line with the right one first, why, and a reference."""

    topic: str
    prompt: str
    choices: str
    explanation: str
    reference: str = ""


@dataclass(frozen=True)
class ShowProposals:
    pass


@dataclass(frozen=True)
class Usage:
    """A command the platform could not read: answer with its usage."""

    command: str  # daily, race, competition, bank, remind or insights


@dataclass(frozen=True)
class UnknownButton:
    """A button whose id stands for no action (malformed, forged, another app's): refused,
    as "invalid", without reading anything it claims."""


@dataclass(frozen=True)
class AnswerEstimate:
    """What a player typed into a quiz estimate's form (``action``: the button that asked)."""

    action: actions.EstimateAction
    text: str


@dataclass(frozen=True)
class AnswerDailyEstimate:
    """What a player typed into a daily estimate's form: answered privately."""

    action: actions.DailyEstimateAction
    text: str


def estimate_answer(action: object, text: str) -> AnswerEstimate | AnswerDailyEstimate | None:
    """The answer a submitted estimate form gives, by the button that opened it (its id,
    decoded); None for a form that names no estimate."""
    if isinstance(action, actions.EstimateAction):
        return AnswerEstimate(action, text)
    if isinstance(action, actions.DailyEstimateAction):
        return AnswerDailyEstimate(action, text)
    return None


# A button in play, answered by the engine's ``click``: a quiz answer, "next question", a
# daily or a race answer, or an id that reads as none of them. An estimate's button (a
# quiz's or a daily's) is answered with the form to open (``views.estimate_form_of``), or why
# there is none.
PlayButton = (
    actions.AnswerAction
    | actions.NextAction
    | actions.EstimateAction
    | actions.DailyAction
    | actions.DailyEstimateAction
    | actions.RaceAction
    | UnknownButton
)
# Any button: in play, or one that acts for its clicker (a proposal decided, the dashboard's
# link, their data deleted).
Click = PlayButton | actions.ProposalAction | actions.DashboardAction | actions.ForgetAction


def button(action_id: object) -> Click:
    """The request a button's id stands for, decoded once where the click comes in."""
    action = actions.decode(action_id)
    return UnknownButton() if action is None else action


ChannelRequest = (
    DailyOn | DailyOff | DailyStatus | RaceStart | RaceStop | CompetitionStart | CompetitionEnd
)
BankRequest = UploadBank | ListBanks | RemoveBank | ProposeQuestion | ShowProposals
ReviewRequest = StartReview | RemindOn | RemindOff | RemindStatus
InsightRequest = ShowInsights | ShowDashboard | ShowMap | SetSharing
Request = (
    StartQuiz
    | ShowTopics
    | ShowLeaderboard
    | ShowStats
    | ReviewRequest
    | InsightRequest
    | ForgetMe
    | SetLanguage
    | Click
    | AnswerEstimate
    | AnswerDailyEstimate
    | ChannelRequest
    | CompetitionStandings
    | BankRequest
    | Usage
)


class Delivery(Enum):
    REPLACE = "replace"  # update the message the click came from, in place
    PRIVATE = "private"  # a new message only the player sees
    PUBLIC = "public"  # a reply the whole channel sees


class Who(Enum):
    """Who may make a request: anyone else is refused ("admin_only")."""

    ANYONE = "anyone"
    ADMINS = "admins"  # who runs the quiz in the workspace, as the platform says
    LEADS = "leads"  # admins, unless the settings open insights to everyone


class About(Enum):
    """What a request is about: the player's own things, served anywhere, or a workspace's
    channel play, banks or insights (a platform with direct messages and installs of its
    own serves those only in a workspace that added the bot)."""

    PLAYER = "player"
    CHANNEL_PLAY = "channel_play"
    BANKS = "banks"
    INSIGHTS = "insights"


@dataclass(frozen=True)
class Traits:
    """What is true of a request type, whoever makes it."""

    delivery: Delivery = Delivery.PRIVATE  # how its reply is delivered (Reply.of)
    who: Who = Who.ANYONE
    about: About = About.PLAYER
    posts: bool = False  # the bot posts in the channel later: refused where it may not


@dataclass(frozen=True)
class Reply:
    view: View
    delivery: Delivery

    @classmethod
    def of(cls, view: View, declared: Delivery) -> Reply:
        """The reply delivered as its request declares, but a refusal (a notice, or the
        topic list for an unknown topic) privately: it leaves a quiz message playable, and
        an asker's slip is theirs alone."""
        refused = isinstance(view, Notice | TopicList)
        return cls(view, Delivery.PRIVATE if refused else declared)

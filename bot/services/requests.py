"""Neutral requests: every command and click a player can make, whatever the platform.
An adapter parses its platform's event into one of these and a ``Context``; the core's
``handle`` answers with a ``Reply``."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from bot.domain.identities import PlayerRef, ScopeRef
from bot.ui.views import View


@dataclass(frozen=True)
class Context:
    """Who asks, where, and what the platform knows about them."""

    player: PlayerRef
    scope: ScopeRef
    platform_locale: str | None = None  # the client's language, when the platform sends it
    is_admin: bool = False  # may manage the channel's daily question and competitions


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
    period: str = "all"  # all, week, month
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
    period: str = "all"  # week, month, all


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
class Click:
    """Any button: a quiz answer, "next question", a daily or a race answer."""

    action_id: str


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


ChannelRequest = (
    DailyOn | DailyOff | DailyStatus | RaceStart | RaceStop | CompetitionStart | CompetitionEnd
)
BankRequest = UploadBank | ListBanks | RemoveBank | ProposeQuestion | ShowProposals
ReviewRequest = StartReview | RemindOn | RemindOff | RemindStatus
InsightRequest = ShowInsights | ShowDashboard
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
    | ChannelRequest
    | CompetitionStandings
    | BankRequest
    | Usage
)


class Delivery(Enum):
    REPLACE = "replace"  # update the message the click came from, in place
    PRIVATE = "private"  # a new message only the player sees
    PUBLIC = "public"  # a reply the whole channel sees


@dataclass(frozen=True)
class Reply:
    view: View
    delivery: Delivery

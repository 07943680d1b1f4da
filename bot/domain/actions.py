"""The one codec for button/action ids, shared by every adapter.

An id carries everything needed to act on a click after a restart, so buttons keep
working without any state in memory: ``qz:a:<run>:<position>:<choice>`` answers,
``qz:e:<run>:<position>`` asks for an estimate (the value typed comes back with it),
``qz:n:<run>:<position>`` shows the next question, ``qz:d:<post>:<choice>`` answers a
daily question, ``qz:g:<post>`` asks for a daily estimate, ``qz:r:<race>:<number>:<choice>``
answers a race question, ``qz:p:<proposal>:<1|0>`` approves or rejects a proposed question
and ``qz:l:dashboard`` asks for the dashboard's link (an admin's button on results);
``qz:f:confirmed`` confirms that the clicker's data be deleted. Ids are at most 100
characters (Discord's custom_id limit; Slack allows 255).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_LENGTH = 100
PREFIX = "qz:"
_ANSWER = re.compile(r"^qz:a:([a-z0-9]{8,32}):(\d{1,3}):(\d)$")
_ESTIMATE = re.compile(r"^qz:e:([a-z0-9]{8,32}):(\d{1,3})$")
_NEXT = re.compile(r"^qz:n:([a-z0-9]{8,32}):(\d{1,3})$")
_DAILY = re.compile(r"^qz:d:([a-z0-9]{8,32}):(\d)$")
_DAILY_ESTIMATE = re.compile(r"^qz:g:([a-z0-9]{8,32})$")
_RACE = re.compile(r"^qz:r:([a-z0-9]{8,32}):(\d{1,3}):(\d)$")
_PROPOSAL = re.compile(r"^qz:p:(\d{8,18}):([01])$")
_DASHBOARD = "qz:l:dashboard"
_FORGET = "qz:f:confirmed"


@dataclass(frozen=True)
class AnswerAction:
    run_id: str
    position: int  # 0-based index of the question within the run
    choice: int  # the choice's index in the bank file (its stable key)

    def encode(self) -> str:
        return f"{PREFIX}a:{self.run_id}:{self.position}:{self.choice}"


@dataclass(frozen=True)
class EstimateAction:
    """The button that asks for an estimate: a form where a value is typed (a modal in
    chat, a prompt in the terminal); what is typed comes back with this id."""

    run_id: str
    position: int

    def encode(self) -> str:
        return f"{PREFIX}e:{self.run_id}:{self.position}"


@dataclass(frozen=True)
class NextAction:
    run_id: str
    position: int

    def encode(self) -> str:
        return f"{PREFIX}n:{self.run_id}:{self.position}"


@dataclass(frozen=True)
class DailyAction:
    post_id: str
    choice: int

    def encode(self) -> str:
        return f"{PREFIX}d:{self.post_id}:{self.choice}"


@dataclass(frozen=True)
class DailyEstimateAction:
    """The daily estimate's Answer button: like ``EstimateAction``, it opens a form."""

    post_id: str

    def encode(self) -> str:
        return f"{PREFIX}g:{self.post_id}"


# The buttons that open a form for an estimate, in a quiz or in a daily post.
AsksEstimate = EstimateAction | DailyEstimateAction


@dataclass(frozen=True)
class RaceAction:
    race_id: str
    number: int  # 0-based question index in the race
    choice: int

    def encode(self) -> str:
        return f"{PREFIX}r:{self.race_id}:{self.number}:{self.choice}"


@dataclass(frozen=True)
class ProposalAction:
    """An admin's decision on a proposed question (its number, zero-padded to 8 digits)."""

    proposal_id: int
    approve: bool

    def encode(self) -> str:
        return f"{PREFIX}p:{self.proposal_id:08d}:{int(self.approve)}"


@dataclass(frozen=True)
class DashboardAction:
    """An admin asks for the dashboard's link from a public post (results)."""

    def encode(self) -> str:
        return _DASHBOARD


@dataclass(frozen=True)
class ForgetAction:
    """The clicker confirms: delete their data in this workspace. It acts on whoever
    clicks, so a copied button can only ever delete its clicker's own data."""

    def encode(self) -> str:
        return _FORGET


Action = (
    AnswerAction
    | NextAction
    | EstimateAction
    | DailyAction
    | DailyEstimateAction
    | RaceAction
    | ProposalAction
    | DashboardAction
    | ForgetAction
)


def decode(value: object) -> Action | None:
    """The action an id stands for, or None for anything malformed or forged."""
    if not isinstance(value, str) or len(value) > MAX_LENGTH:
        return None
    if match := _ANSWER.match(value):
        return AnswerAction(match[1], int(match[2]), int(match[3]))
    if match := _NEXT.match(value):
        return NextAction(match[1], int(match[2]))
    if match := _ESTIMATE.match(value):
        return EstimateAction(match[1], int(match[2]))
    if match := _DAILY.match(value):
        return DailyAction(match[1], int(match[2]))
    if match := _DAILY_ESTIMATE.match(value):
        return DailyEstimateAction(match[1])
    if match := _RACE.match(value):
        return RaceAction(match[1], int(match[2]), int(match[3]))
    if match := _PROPOSAL.match(value):
        return ProposalAction(int(match[1]), match[2] == "1")
    if value == _DASHBOARD:
        return DashboardAction()
    if value == _FORGET:
        return ForgetAction()
    return None

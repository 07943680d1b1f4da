"""What the store hands back: plain frozen rows, and its one error type."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from bot.domain.identities import PlayerRef, ScopeRef
from bot.domain.quiz_runs import Run

ALL_BANKS = "*"  # the bank id of the all-topics leaderboards


class StoreError(Exception):
    """The database could not do what was asked; the message is safe to show operators."""


@dataclass(frozen=True)
class AnswerRecord:
    run: Run  # the run as it was when the answer arrived
    question_id: str
    choice: int
    correct: bool
    points: int  # what the answer earns if it is the player's first attempt
    at: float
    bank_id: str = ""  # the question's bank, when not the run's (a review run mixes them)

    @property
    def bank(self) -> str:
        return self.bank_id or self.run.bank_id


class Credit(NamedTuple):
    """Points an answer adds to the totals. A tuple, since the ledger unpacks many at a
    time in the writer's hot loop."""

    player: PlayerRef
    scope: ScopeRef
    bank_id: str
    points: int
    correct: bool
    at: float


@dataclass(frozen=True)
class Recorded:
    points: int  # points actually awarded
    practice: bool  # not the first attempt at this question: no points
    duplicate: bool  # this position was already answered; nothing changed
    choice: int  # the choice on record (the first one, for a duplicate)
    correct: bool
    due: float | None = None  # when the card comes back (None for a duplicate)


@dataclass(frozen=True)
class TotalRow:
    player_id: str
    name: str
    points: int
    correct: int
    answered: int
    rank: int = 0


@dataclass(frozen=True)
class Standing:
    rows: tuple[TotalRow, ...]
    you: TotalRow | None
    players: int


@dataclass(frozen=True)
class ChannelAnswer:
    """A daily or race answer on record."""

    choice: int
    correct: bool
    points: int
    streak: int
    duplicate: bool  # the player had already answered: this click changed nothing


@dataclass(frozen=True)
class ChannelResults:
    counts: dict[int, int]  # choice (bank index) -> answers
    winners: tuple[TotalRow, ...]  # who answered right, most points first


@dataclass(frozen=True)
class BankTotals:
    bank_id: str
    points: int
    correct: int
    answered: int

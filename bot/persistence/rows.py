"""What the store hands back: plain frozen rows, and its one error type."""

from __future__ import annotations

from dataclasses import dataclass

ALL_BANKS = "*"  # the bank id of the all-topics leaderboards


class StoreError(Exception):
    """The database could not do what was asked; the message is safe to show operators."""


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
    estimate: float | None = None  # a daily estimate's value (base unit); choice is -1


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

"""Persistence on SQLite through aiosqlite. All of quizbot's SQL lives in this package.

One writer connection is owned by a writer task that commits whatever writes have
arrived in one transaction (group commit); each caller awaits its own batch's commit,
so an answer is on disk before its feedback is shown. Reads use their own connection,
so a leaderboard never waits behind writes (WAL mode).
"""

from __future__ import annotations

from bot.persistence.channel import ChannelTables
from bot.persistence.quiz import QuizTables
from bot.persistence.rows import (
    ALL_BANKS,
    AnswerRecord,
    BankTotals,
    ChannelAnswer,
    ChannelResults,
    Recorded,
    Standing,
    StoreError,
    TotalRow,
)
from bot.persistence.schema import MIGRATIONS, integrity_problems


class Store(QuizTables, ChannelTables):
    """The async interface to the database; open with ``await Store.open(path)``."""


__all__ = [
    "ALL_BANKS",
    "MIGRATIONS",
    "AnswerRecord",
    "BankTotals",
    "ChannelAnswer",
    "ChannelResults",
    "Recorded",
    "Standing",
    "Store",
    "StoreError",
    "TotalRow",
    "integrity_problems",
]

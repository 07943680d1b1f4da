"""Persistence on SQLite (aiosqlite) or PostgreSQL (psycopg 3). All of quizbot's SQL
lives in this package, one portable text per statement (``dialect.py`` says what differs).

One ``Database`` owns the connections: a writer task commits whatever writes have
arrived in one transaction (group commit), and each caller awaits its own batch's commit,
so an answer is on disk before its feedback is shown; reads use their own connection, so
a leaderboard never waits behind writes (WAL mode). A repository per aggregate holds its
tables' SQL and writes only through that one writer; ``Store`` opens the database and
hands out the repositories.
"""

from __future__ import annotations

from pathlib import Path

from bot.domain.memory import Memory
from bot.persistence.boards import BoardRepository
from bot.persistence.cards import CardRepository, Retention, StoredCard
from bot.persistence.competitions import CompetitionRepository
from bot.persistence.dailies import DailyRepository
from bot.persistence.database import BUSY_TIMEOUT_MS, MAX_BATCH, Database
from bot.persistence.forgetting import ForgetRepository, Forgotten
from bot.persistence.insights import InsightRepository
from bot.persistence.installs import Departure, InstallRepository
from bot.persistence.knowledge import KnowledgeRepository
from bot.persistence.races import RaceRepository
from bot.persistence.reminders import ReminderRepository
from bot.persistence.rows import (
    ALL_BANKS,
    BankTotals,
    ChannelAnswer,
    ChannelResults,
    Standing,
    StoreError,
    TotalRow,
)
from bot.persistence.runs import RunRepository
from bot.persistence.schema import MIGRATIONS, integrity_problems
from bot.persistence.workspace_banks import Proposal, StoredBank, WorkspaceBankRepository


class Store:
    """The database and its repositories; open with ``await Store.open(location)``: a
    SQLite path (or ``sqlite:///path``) or a ``postgresql://`` URL."""

    def __init__(self, database: Database, runs: RunRepository):
        self.database = database
        self.cards = CardRepository(database)
        self.reminders = ReminderRepository(database)
        self.insights = InsightRepository(database)
        self.knowledge = KnowledgeRepository(database)
        self.forget = ForgetRepository(database, runs)
        self.installs = InstallRepository(database, runs)
        self.path = database.path
        self.runs = runs
        self.boards = BoardRepository(database)
        self.dailies = DailyRepository(database)
        self.races = RaceRepository(database)
        self.competitions = CompetitionRepository(database)
        self.workspace_banks = WorkspaceBankRepository(database)

    @classmethod
    async def open(
        cls,
        location: str | Path,
        max_batch: int = MAX_BATCH,
        busy_timeout_ms: int = BUSY_TIMEOUT_MS,
        memory: Memory | None = None,
    ) -> Store:
        """Open (creating and migrating) the database; see ``Database.open``. ``memory``
        schedules the cards that answers update (default: FSRS with fuzzing)."""
        database = await Database.open(location, max_batch, busy_timeout_ms)
        if memory is not None:
            database.ledger.memory = memory
        try:
            runs = await RunRepository.open(database)
        except BaseException:
            await database.close()
            raise
        return cls(database, runs)

    @property
    def memory(self) -> Memory:
        """The FSRS scheduler the writer grades cards with (and recall is estimated by)."""
        return self.database.ledger.memory

    async def close(self) -> None:
        await self.database.close()


__all__ = [
    "ALL_BANKS",
    "MIGRATIONS",
    "BankTotals",
    "BoardRepository",
    "CardRepository",
    "ChannelAnswer",
    "ChannelResults",
    "CompetitionRepository",
    "DailyRepository",
    "Database",
    "Departure",
    "ForgetRepository",
    "Forgotten",
    "InsightRepository",
    "InstallRepository",
    "KnowledgeRepository",
    "Proposal",
    "RaceRepository",
    "ReminderRepository",
    "Retention",
    "RunRepository",
    "Standing",
    "Store",
    "StoreError",
    "StoredBank",
    "StoredCard",
    "TotalRow",
    "WorkspaceBankRepository",
    "integrity_problems",
]

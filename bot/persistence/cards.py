"""Spaced-repetition cards: every answer is graded into its card (in the writer thread,
in the answer's own transaction, so a card can never disagree with the answers on
disk) and appended to the review log; and the reads of a player's cards."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from bot.domain.identities import PlayerRef, ScopeRef
from bot.domain.memory import AGAIN, GOOD, CardState, Memory, due_cutoff, zone_of
from bot.persistence.dialect import Connection, Cursor, by_workspace

if TYPE_CHECKING:  # the writer (database.py, through the ledger) imports this module
    from bot.persistence.database import Database

CARD_COLUMNS = "stability, difficulty, due, last_review, reviews, lapses, last_correct"


class Review(NamedTuple):
    """One answer, as a review of its card."""

    platform: str
    workspace_id: str
    player_id: str
    bank_id: str
    question_id: str
    choice: int  # the bank index of the choice picked (for the answer distributions)
    correct: bool
    at: float
    duration_ms: int | None  # how long the player took, when known (not used to schedule)
    source: str  # quiz (a first attempt), practice (a replay), review, daily or race


def card_state(row: Sequence[Any]) -> CardState:
    stability, difficulty, due, last_review, reviews, lapses, last_correct = row
    return CardState(stability, difficulty, due, last_review, reviews, lapses, bool(last_correct))


class CardReads:
    """Some cards (platform, workspace, player, bank, question) and their players'
    reminder timezones, asked for at once and read when needed: sent beside a batch's
    other reads, they cost PostgreSQL's pipeline no wait of their own."""

    def __init__(self, db: Connection, wanted: Iterable[tuple[str, str, str, str, str]]):
        self._wanted = set(wanted)
        self._asked: list[tuple[str, str, Cursor, Cursor]] = []
        self.cards: dict[tuple[str, str, str, str, str], CardState] = {}
        self.zones: dict[tuple[str, str, str], str] = {}
        for platform, workspace, chunk in by_workspace(card[:3] for card in self._wanted):
            marks = ",".join("?" * len(chunk))
            cards = db.execute(
                f"SELECT player_id, bank_id, question_id, {CARD_COLUMNS} FROM cards"
                f" WHERE platform = ? AND workspace_id = ? AND player_id IN ({marks})",
                [platform, workspace, *chunk],
            )
            zones = db.execute(
                "SELECT player_id, timezone FROM reminders WHERE platform = ?"
                f" AND workspace_id = ? AND player_id IN ({marks})",
                [platform, workspace, *chunk],
            )
            self._asked.append((platform, workspace, cards, zones))

    def fetch(self) -> None:
        """Read what was asked for (once): the wanted cards among the players' (a player
        may have hundreds), and their zones."""
        for platform, workspace, found, timezones in self._asked:
            for player, bank, question, *card in found.fetchall():
                key = (platform, workspace, player, bank, question)
                if key in self._wanted:
                    self.cards[key] = card_state(card)
            for player, timezone in timezones.fetchall():
                self.zones[(platform, workspace, player)] = timezone
        self._asked.clear()


def grade_many(
    db: Connection, memory: Memory, reviews: Sequence[Review], asked: CardReads | None = None
) -> list[CardState]:
    """Grade each answer into its card, in order (one player answering one question twice
    in a batch is two reviews), and log it. A review "was due" when the card's due day
    had come in the player's timezone: those are the reviews that measure retention.
    ``asked``: the players' cards, if already asked for."""
    if not reviews:
        return []
    if asked is None:
        asked = CardReads(db, {review[:5] for review in reviews})
    asked.fetch()
    cards, zones = dict(asked.cards), asked.zones
    wanted = {r[:5] for r in reviews}
    logged, after = [], []
    for review in reviews:
        key = review[:5]
        before = cards.get(key)
        zone = zone_of(zones.get(key[:3]))
        was_due = before is not None and before.due < due_cutoff(review.at, zone)
        card = memory.grade(before, review.correct, review.at)
        cards[key] = card
        after.append(card)
        logged.append(
            (
                *key,
                review.source,
                review.choice,
                GOOD if review.correct else AGAIN,
                review.at,
                review.duration_ms,
                int(was_due),
            )
        )
    db.executemany(
        "INSERT INTO cards (platform, workspace_id, player_id, bank_id, question_id,"
        f" {CARD_COLUMNS})"
        " VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"
        " ON CONFLICT (platform, workspace_id, player_id, bank_id, question_id) DO UPDATE SET"
        " stability = excluded.stability, difficulty = excluded.difficulty,"
        " due = excluded.due, last_review = excluded.last_review, reviews = excluded.reviews,"
        " lapses = excluded.lapses, last_correct = excluded.last_correct",
        [
            (
                *key,
                c.stability,
                c.difficulty,
                c.due,
                c.last_review,
                c.reviews,
                c.lapses,
                int(c.last_correct),
            )
            for key, c in cards.items()
            if key in wanted
        ],
    )
    db.executemany(
        "INSERT INTO review_log (platform, workspace_id, player_id, bank_id, question_id,"
        " source, choice, rating, reviewed_at, duration_ms, was_due)"
        " VALUES (?,?,?,?,?,?,?,?,?,?,?)",
        logged,
    )
    return after


@dataclass(frozen=True)
class StoredCard:
    bank_id: str
    question_id: str
    card: CardState


@dataclass(frozen=True)
class Retention:
    """Reviews of cards that were due, per topic: how many, and how many were right."""

    bank_id: str
    reviews: int
    passed: int


def _stored(rows: Sequence[Sequence[Any]]) -> list[StoredCard]:
    return [StoredCard(bank, question, card_state(card)) for bank, question, *card in rows]


class CardRepository:
    """A player's cards, always read by (platform, workspace, player): one player's
    cards are never in another's answer."""

    def __init__(self, database: Database):
        self._database = database

    def _key(self, player: PlayerRef, scope: ScopeRef) -> tuple[str, str, str]:
        return (player.platform, scope.workspace_id, player.id)

    async def due(
        self, player: PlayerRef, scope: ScopeRef, before: float, limit: int
    ) -> list[StoredCard]:
        """Cards due before ``before``, most overdue first."""
        rows = await self._database.read(
            f"SELECT bank_id, question_id, {CARD_COLUMNS} FROM cards WHERE platform = ?"
            " AND workspace_id = ? AND player_id = ? AND due < ?"
            " ORDER BY due, bank_id, question_id LIMIT ?",
            (*self._key(player, scope), before, limit),
        )
        return _stored(rows)

    async def missed(self, player: PlayerRef, scope: ScopeRef, limit: int) -> list[StoredCard]:
        """Cards whose last answer was wrong, the most recent first."""
        rows = await self._database.read(
            f"SELECT bank_id, question_id, {CARD_COLUMNS} FROM cards WHERE platform = ?"
            " AND workspace_id = ? AND player_id = ? AND last_correct = 0"
            " ORDER BY last_review DESC, bank_id, question_id LIMIT ?",
            (*self._key(player, scope), limit),
        )
        return _stored(rows)

    async def next_due(self, player: PlayerRef, scope: ScopeRef) -> float | None:
        rows = await self._database.read(
            "SELECT MIN(due) FROM cards WHERE platform = ? AND workspace_id = ? AND player_id = ?",
            self._key(player, scope),
        )
        return rows[0][0] if rows and rows[0][0] is not None else None

    async def count_due(self, player: PlayerRef, scope: ScopeRef, before: float) -> int:
        rows = await self._database.read(
            "SELECT COUNT(*) FROM cards WHERE platform = ? AND workspace_id = ?"
            " AND player_id = ? AND due < ?",
            (*self._key(player, scope), before),
        )
        return int(rows[0][0])

    async def all(self, player: PlayerRef, scope: ScopeRef) -> list[StoredCard]:
        rows = await self._database.read(
            f"SELECT bank_id, question_id, {CARD_COLUMNS} FROM cards"
            " WHERE platform = ? AND workspace_id = ? AND player_id = ?",
            self._key(player, scope),
        )
        return _stored(rows)

    async def retention(self, player: PlayerRef, scope: ScopeRef) -> list[Retention]:
        rows = await self._database.read(
            "SELECT bank_id, COUNT(*), SUM(CASE WHEN rating > ? THEN 1 ELSE 0 END)"
            " FROM review_log WHERE platform = ? AND workspace_id = ? AND player_id = ?"
            " AND was_due = 1 GROUP BY bank_id ORDER BY bank_id",
            (AGAIN, *self._key(player, scope)),
        )
        return [Retention(bank, int(count), int(passed)) for bank, count, passed in rows]

    async def misses(self, scope: ScopeRef) -> dict[tuple[str, str], int]:
        """Wrong answers per (bank, question) in the workspace: its weak spots."""
        rows = await self._database.read(
            "SELECT bank_id, question_id, COUNT(*) FROM review_log WHERE platform = ?"
            " AND workspace_id = ? AND rating = ? GROUP BY bank_id, question_id",
            (scope.platform, scope.workspace_id, AGAIN),
        )
        return {(bank, question): int(count) for bank, question, count in rows}

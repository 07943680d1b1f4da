"""What the writer thread does with answers: set-wise answer writes and the maintained
leaderboard totals."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from bot.domain.clock import period_keys
from bot.domain.identities import PlayerRef, ScopeRef
from bot.domain.memory import Memory
from bot.domain.quiz_runs import REVIEW
from bot.persistence.cards import Review, grade_many
from bot.persistence.dialect import Connection
from bot.persistence.rows import ALL_BANKS, AnswerRecord, Credit, Recorded

T = TypeVar("T")

_TOTALS_UPSERT = """
    INSERT INTO totals (board_id, player_id, points, correct, answered, reached_at)
    VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (board_id, player_id) DO UPDATE SET
        points = totals.points + excluded.points,
        correct = totals.correct + excluded.correct,
        answered = totals.answered + excluded.answered,
        reached_at = CASE WHEN excluded.points > 0 THEN excluded.reached_at
            ELSE totals.reached_at END
"""


class Ledger:
    """Adds answers to the maintained totals and grades them into their cards. Its
    caches (board ids, running competitions) belong to the writer thread and are cleared
    when a batch rolls back."""

    def __init__(self, memory: Memory | None = None) -> None:
        self.memory = memory or Memory()
        self._boards: dict[tuple[str, str, str, str], int] = {}
        self._competitions: dict[tuple[str, str], list[tuple[int, float, float, set[str]]]] = {}

    def clear(self) -> None:
        self._boards.clear()
        self._competitions.clear()

    def forget_competitions(self) -> None:
        self._competitions.clear()

    def review(
        self,
        db: Connection,
        player: PlayerRef,
        scope: ScopeRef,
        question: tuple[str, str],
        choice: int,
        correct: bool,
        at: float,
        duration_ms: int | None,
        source: str,
    ) -> None:
        """One channel answer (daily, race) to ``question`` (bank id, question id) as a
        review of its card."""
        platform, workspace = player.platform, scope.workspace_id
        review = Review(
            platform, workspace, player.id, *question, choice, correct, at, duration_ms, source
        )
        grade_many(db, self.memory, [review])

    def board(self, db: Connection, key: tuple[str, str, str, str]) -> int:
        board_id = self._boards.get(key)
        if board_id is None:
            db.execute(
                "INSERT INTO boards (platform, workspace_id, bank_id, period)"
                " VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                key,
            )
            (board_id,) = db.execute(
                "SELECT board_id FROM boards WHERE platform = ? AND workspace_id = ?"
                " AND bank_id = ? AND period = ?",
                key,
            ).fetchone()
            self._boards[key] = board_id
        return board_id

    def _running(self, db: Connection, scope: ScopeRef) -> list[tuple[int, float, float, set[str]]]:
        key = (scope.platform, scope.workspace_id)
        if key not in self._competitions:
            rows = db.execute(
                "SELECT competition_id, starts_at, ends_at, topics FROM competitions"
                " WHERE platform = ? AND workspace_id = ? AND ended_at IS NULL",
                key,
            ).fetchall()
            self._competitions[key] = [(c, s, e, set(json.loads(t))) for c, s, e, t in rows]
        return self._competitions[key]

    def credit(
        self,
        db: Connection,
        player: PlayerRef,
        scope: ScopeRef,
        bank_id: str,
        points: int,
        correct: bool,
        at: float,
    ) -> None:
        self.credit_many(db, [Credit(player, scope, bank_id, points, correct, at)])

    def credit_many(self, db: Connection, answers: Sequence[Credit]) -> None:
        """Add answers to their topic and to all topics, in every period they fall in and
        in each running competition whose window and topics they fit; answers to the same
        leaderboard row are summed first, so each row is written once."""
        rows: dict[tuple[int, str], list[float]] = {}
        for player, scope, bank_id, points, correct, at in answers:
            periods = [
                *period_keys(at),
                *(
                    f"competition:{cid}"
                    for cid, starts, ends, topics in self._running(db, scope)
                    if starts <= at < ends and (not topics or bank_id in topics)
                ),
            ]
            for bank in (bank_id, ALL_BANKS):
                for period in periods:
                    board = self.board(db, (scope.platform, scope.workspace_id, bank, period))
                    row = rows.setdefault((board, player.id), [0, 0, 0, 0.0])
                    row[0] += points
                    row[1] += int(correct)
                    row[2] += 1
                    if points > 0:
                        row[3] = max(row[3], at)
        db.executemany(
            _TOTALS_UPSERT, [(board, pid, *values) for (board, pid), values in rows.items()]
        )


def upsert_player(db: Connection, player: PlayerRef) -> None:
    db.execute(
        "INSERT INTO players (platform, player_id, name) VALUES (?, ?, ?)"
        " ON CONFLICT (platform, player_id) DO UPDATE SET"
        " name = CASE WHEN excluded.name != '' THEN excluded.name ELSE players.name END",
        (player.platform, player.id, player.name),
    )


@dataclass(frozen=True)
class AnswerWork:
    """A queued answer: the writer merges consecutive ones into one set-wise write."""

    record: AnswerRecord
    ledger: Ledger

    def __call__(self, db: Connection) -> Recorded:
        return record_answers(db, self.ledger, [self.record])[0]


def _chunks(items: list[T], size: int = 300) -> list[list[T]]:
    return [items[i : i + size] for i in range(0, len(items), size)]


def _milliseconds(seconds: float) -> int:
    return max(0, round(seconds * 1000))


def record_answers(db: Connection, ledger: Ledger, records: list[AnswerRecord]) -> list[Recorded]:
    """Write answers set-wise: duplicates (the same run position, already on disk or
    earlier in this set) change nothing; only a player's first attempt at a question
    scores (a review run's answers never do); totals, run progress and cards follow."""
    results: list[Recorded | None] = [None] * len(records)
    first: dict[tuple[str, int], int] = {}
    repeats: dict[int, int] = {}
    for i, record in enumerate(records):
        key = (record.run.id, record.run.position)
        if key in first:
            repeats[i] = first[key]
        else:
            first[key] = i
    run_ids = list({run_id for run_id, _ in first})
    shown: dict[str, float] = {}  # run id -> its last answer (the next question shows after)
    for chunk in _chunks(run_ids):  # by the primary key's first column: an index lookup
        rows = db.execute(
            "SELECT run_id, position, choice, correct, points, answered_at FROM answers"
            f" WHERE run_id IN ({','.join('?' * len(chunk))})",
            chunk,
        ).fetchall()
        for run_id, position, choice, correct, points, answered_at in rows:
            shown[run_id] = max(shown.get(run_id, 0.0), answered_at)
            if (run_id, position) in first:
                results[first[(run_id, position)]] = Recorded(
                    points, points == 0, True, choice, bool(correct)
                )
    fresh = [i for i in first.values() if results[i] is None]

    def attempt(record: AnswerRecord) -> tuple[str, str, str, str, str]:
        run = record.run
        return (
            run.player.platform,
            run.scope.workspace_id,
            run.player.id,
            record.bank,
            record.question_id,
        )

    wanted = {attempt(records[i]) for i in fresh if records[i].run.bank_id != REVIEW}
    players: dict[tuple[str, str], set[str]] = {}
    for platform, workspace, player, _, _ in wanted:
        players.setdefault((platform, workspace), set()).add(player)
    tried: set[tuple[str, str, str, str, str]] = set()
    for (platform, workspace), ids in players.items():
        for chunk in _chunks(sorted(ids)):  # by the primary key's prefix
            rows = db.execute(
                "SELECT * FROM attempts WHERE platform = ? AND workspace_id = ?"
                f" AND player_id IN ({','.join('?' * len(chunk))})",
                [platform, workspace, *chunk],
            ).fetchall()
            tried.update(row for row in rows if row in wanted)
    answers, attempts, credits, progress, reviews = [], [], [], [], []
    for i in fresh:
        record, run = records[i], records[i].run
        tried_key = attempt(record)
        review = run.bank_id == REVIEW  # practice by definition: never scores
        practice = review or tried_key in tried
        tried.add(tried_key)
        points = 0 if practice else record.points
        if not practice:
            attempts.append(tried_key)
        answers.append(
            (
                run.id,
                run.position,
                run.player.platform,
                run.scope.workspace_id,
                run.player.id,
                record.bank,
                record.question_id,
                record.choice,
                int(record.correct),
                points,
                record.at,
            )
        )
        if not practice:  # boards count first attempts, like the points they show
            credits.append(
                Credit(run.player, run.scope, record.bank, points, record.correct, record.at)
            )
        progress.append((int(record.correct), points, record.at, run.id))
        # The first question shows when the run starts; a later one after the previous
        # answer's feedback (so its time includes reading that explanation).
        since = run.created_at if run.position == 0 else shown.get(run.id)
        shown[run.id] = record.at
        source = "review" if review else "practice" if practice else "quiz"
        duration = _milliseconds(record.at - since) if since is not None else None
        reviews.append(
            Review(*tried_key, record.choice, record.correct, record.at, duration, source)
        )
        results[i] = Recorded(points, practice, False, record.choice, record.correct)
    db.executemany("INSERT INTO answers VALUES (?,?,?,?,?,?,?,?,?,?,?)", answers)
    db.executemany("INSERT INTO attempts VALUES (?,?,?,?,?)", attempts)
    ledger.credit_many(db, credits)
    db.executemany(
        "UPDATE runs SET position = position + 1, correct = correct + ?, points = points + ?,"
        " updated_at = ? WHERE run_id = ?",
        progress,
    )
    cards = grade_many(db, ledger.memory, reviews)
    for i, card in zip(fresh, cards, strict=True):
        done = results[i]
        assert done is not None
        results[i] = replace(done, due=card.due)
    for i, original in repeats.items():
        done = results[original]
        assert done is not None
        results[i] = Recorded(done.points, done.practice, True, done.choice, done.correct)
    return [r for r in results if r is not None]

"""What the writer thread does with answers: set-wise answer writes and the maintained
leaderboard totals."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.domain.answers import AnswerRecord, Attempt, Credit, Recorded, score
from bot.domain.identities import PlayerRef, ScopeRef
from bot.domain.memory import Memory
from bot.domain.periods import calendar_keys
from bot.persistence.cards import CardReads, Review, grade_many
from bot.persistence.dialect import Connection, by_workspace, chunks
from bot.persistence.rows import ALL_BANKS

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


_RUNNING = (
    "SELECT competition_id, starts_at, ends_at, topics FROM competitions"
    " WHERE platform = ? AND workspace_id = ? AND ended_at IS NULL"
)
Running = list[tuple[int, float, float, set[str]]]


def _competitions(rows: list[Any]) -> Running:
    return [(c, s, e, set(json.loads(t))) for c, s, e, t in rows]


class Ledger:
    """Adds answers to the maintained totals and grades them into their cards. Its
    caches (board ids, running competitions) belong to the writer thread and are cleared
    when a batch rolls back."""

    def __init__(self, memory: Memory | None = None) -> None:
        self.memory = memory or Memory()
        self._boards: dict[tuple[str, str, str, str], int] = {}
        self._competitions: dict[tuple[str, str], Running] = {}

    def clear(self) -> None:
        self._boards.clear()
        self._competitions.clear()

    def forget_competitions(self) -> None:
        self._competitions.clear()

    def ask_running(self, db: Connection, scopes: Iterable[ScopeRef]) -> Callable[[], None]:
        """Ask for the running competitions of the workspaces not known yet; the function
        returned reads the answers (sent beside a batch's other reads, they cost
        PostgreSQL's pipeline no wait of their own)."""
        asked = {
            key: db.execute(_RUNNING, key)
            for key in {(scope.platform, scope.workspace_id) for scope in scopes}
            if key not in self._competitions
        }

        def read() -> None:
            for key, cursor in asked.items():
                self._competitions[key] = _competitions(cursor.fetchall())

        return read

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

    def _running(self, db: Connection, scope: ScopeRef) -> Running:
        key = (scope.platform, scope.workspace_id)
        if key not in self._competitions:
            self._competitions[key] = _competitions(db.execute(_RUNNING, key).fetchall())
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
                *calendar_keys(at),
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


def upsert_player(db: Connection, player: PlayerRef, workspace_id: str) -> None:
    """The player's name, and that they are seen in the workspace (see ``forgetting``)."""
    db.execute(
        "INSERT INTO players (platform, player_id, name) VALUES (?, ?, ?)"
        " ON CONFLICT (platform, player_id) DO UPDATE SET"
        " name = CASE WHEN excluded.name != '' THEN excluded.name ELSE players.name END",
        (player.platform, player.id, player.name),
    )
    db.execute(
        "INSERT INTO members (platform, workspace_id, player_id) VALUES (?, ?, ?)"
        " ON CONFLICT DO NOTHING",
        (player.platform, workspace_id, player.id),
    )


@dataclass(frozen=True)
class AnswerWork:
    """A queued answer: the writer merges consecutive ones into one set-wise write."""

    record: AnswerRecord
    ledger: Ledger

    def __call__(self, db: Connection) -> Recorded:
        return record_answers(db, self.ledger, [self.record])[0]


def _milliseconds(seconds: float) -> int:
    return max(0, round(seconds * 1000))


def record_answers(db: Connection, ledger: Ledger, records: list[AnswerRecord]) -> list[Recorded]:
    """Write answers set-wise: duplicates (the same run position, already on disk or
    earlier in this set) change nothing; each other answer counts as ``answers.score``
    says, given the attempts on record; totals, run progress and cards follow."""
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
    # Every read the batch needs is sent before the first is read, and all are read before
    # the first write: on PostgreSQL's pipeline that is one wait for the server, not one
    # per read (a wait that also costs the writer thread its turn at the interpreter).
    # The runs with their answers, by the primary key's first column: a process that
    # serves clicks from its cached runs learns here, in the same transaction, of a run
    # deleted meanwhile (no row) and of a position answered in another process.
    runs = [
        db.execute(
            "SELECT r.run_id, a.position, a.choice, a.correct, a.points, a.answered_at"
            " FROM runs r LEFT JOIN answers a ON a.run_id = r.run_id"
            f" WHERE r.run_id IN ({','.join('?' * len(chunk))})",
            chunk,
        )
        for chunk in chunks(run_ids)
    ]
    # A review never scores: its attempt needs no look-up.
    tried = _ask_attempts(db, {record.attempt for record in records if not record.review})
    competitions = ledger.ask_running(db, {record.run.scope for record in records})
    cards = CardReads(db, {record.attempt for record in records})
    shown: dict[str, float] = {}  # run id -> its last answer (the next question shows after)
    on_record: set[str] = set()
    for cursor in runs:
        for run_id, position, choice, correct, points, answered_at in cursor.fetchall():
            on_record.add(run_id)
            if position is None:  # a run with no answer yet
                continue
            shown[run_id] = max(shown.get(run_id, 0.0), answered_at)
            if (run_id, position) in first:
                results[first[(run_id, position)]] = Recorded(
                    points=points,
                    practice=points == 0,
                    duplicate=True,
                    choice=choice,
                    correct=bool(correct),
                )
    for (run_id, _), i in first.items():
        if run_id not in on_record:
            record = records[i]
            results[i] = Recorded(
                points=0, practice=True, duplicate=True, choice=record.choice, correct=False,
                gone=True,
            )  # fmt: skip
    competitions()
    cards.fetch()
    on_file = tried()
    fresh = [i for i in first.values() if results[i] is None]
    batch = [records[i] for i in fresh]
    answers, attempts, credits, progress, reviews = [], [], [], [], []
    scored = score(batch, on_file)
    for i, record, (attempt, practice, points, source) in zip(fresh, batch, scored, strict=True):
        run = record.run
        if not practice:  # boards count first attempts, like the points they show
            attempts.append(attempt)
            credits.append(
                Credit(run.player, run.scope, record.bank, points, record.correct, record.at)
            )
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
                record.estimate,
            )
        )
        progress.append((int(record.correct), points, record.at, run.id))
        # The first question shows when the run starts; a later one after the previous
        # answer's feedback (so its time includes reading that explanation).
        since = run.created_at if run.position == 0 else shown.get(run.id)
        shown[run.id] = record.at
        duration = _milliseconds(record.at - since) if since is not None else None
        reviews.append(Review(*attempt, record.choice, record.correct, record.at, duration, source))
        results[i] = Recorded(
            points=points,
            practice=practice,
            duplicate=False,
            choice=record.choice,
            correct=record.correct,
        )
    db.executemany("INSERT INTO answers VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", answers)
    db.executemany("INSERT INTO attempts VALUES (?,?,?,?,?)", attempts)
    ledger.credit_many(db, credits)
    db.executemany(
        "UPDATE runs SET position = position + 1, correct = correct + ?, points = points + ?,"
        " updated_at = ? WHERE run_id = ?",
        progress,
    )
    graded = grade_many(db, ledger.memory, reviews, cards)
    for i, card in zip(fresh, graded, strict=True):
        done = results[i]
        assert done is not None
        results[i] = replace(done, due=card.due)
    for i, original in repeats.items():
        done = results[original]
        assert done is not None
        results[i] = replace(done, duplicate=True, due=None)
    return [r for r in results if r is not None]


def _ask_attempts(db: Connection, wanted: set[Attempt]) -> Callable[[], set[Attempt]]:
    """Ask which of these attempts are on record; the function returned reads the
    answer."""
    asked = [
        db.execute(
            "SELECT * FROM attempts WHERE platform = ? AND workspace_id = ?"
            f" AND player_id IN ({','.join('?' * len(chunk))})",
            [platform, workspace, *chunk],
        )
        for platform, workspace, chunk in by_workspace(attempt[:3] for attempt in wanted)
    ]

    def read() -> set[Attempt]:
        return {row for cursor in asked for row in cursor.fetchall() if row in wanted}

    return read

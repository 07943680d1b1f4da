"""Personal quizzes: runs, their answers (written with the totals in ``ledger.py``, as the
first-attempt rule in ``bot.domain.answers`` scores them) and players' names and languages."""

from __future__ import annotations

import json

from cachetools import LRUCache

from bot.domain.answers import AnswerRecord, Recorded
from bot.domain.identities import PlayerRef, ScopeRef
from bot.domain.quiz_runs import Run
from bot.persistence.database import Database
from bot.persistence.dialect import Connection
from bot.persistence.ledger import AnswerWork, upsert_player

CACHED_RUNS = 50_000
CACHED_PLAYERS = 50_000


class RunRepository:
    """Open with ``await RunRepository.open(database)``, which counts the runs in progress."""

    def __init__(self, database: Database, in_progress: int):
        self._database = database
        self._in_progress = in_progress
        # Hot rows (runs in progress, player languages), so a click needs no database
        # read. On SQLite only this process writes the database, and every write goes
        # through here, which updates these after the commit. On PostgreSQL another
        # process may have moved a run on or set a language: both are read afresh.
        self._cached = not database.postgres
        self._runs: LRUCache[str, Run] = LRUCache(CACHED_RUNS)
        self._locales: LRUCache[tuple[str, str], tuple[str | None]] = LRUCache(CACHED_PLAYERS)

    @classmethod
    async def open(cls, database: Database) -> RunRepository:
        rows = await database.read(
            "SELECT COUNT(*) FROM runs WHERE position < json_array_length(question_ids)", ()
        )
        return cls(database, rows[0][0])

    @property
    def in_progress(self) -> int:
        """Runs started and not finished (for the metrics): counted at open, then kept."""
        return self._in_progress

    async def save(self, run: Run) -> None:
        def work(db: Connection) -> None:
            db.execute(
                "INSERT INTO runs (run_id, platform, workspace_id, channel_id, player_id,"
                " bank_id, locale, seed, question_ids, position, correct, points,"
                " created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    run.id,
                    run.player.platform,
                    run.scope.workspace_id,
                    run.scope.channel_id,
                    run.player.id,
                    run.bank_id,
                    run.locale,
                    run.seed,
                    json.dumps(run.question_ids),
                    run.position,
                    run.correct,
                    run.points,
                    run.created_at,
                    run.created_at,
                ),
            )
            upsert_player(db, run.player, run.scope.workspace_id)

        await self._database.write(work)
        self._runs[run.id] = run
        self._in_progress += 1

    def forget_cached(
        self, platform: str, player_id: str | None, workspace: str | None = None
    ) -> None:
        """Drop cached runs of a player (or of a workspace) whose rows were deleted, and
        the player's language."""
        gone = [
            run_id
            for run_id, run in self._runs.items()
            if run.player.platform == platform
            and player_id in (None, run.player.id)
            and workspace in (None, run.scope.workspace_id)
        ]
        for run_id in gone:
            self._runs.pop(run_id, None)
        if player_id is not None:
            self._locales.pop((platform, player_id), None)
        else:
            self._locales.clear()

    async def set_locale(self, run: Run) -> None:
        """The run continues in another language (the player asked for it on resuming)."""

        def work(db: Connection) -> None:
            db.execute("UPDATE runs SET locale = ? WHERE run_id = ?", (run.locale, run.id))

        await self._database.write(work)
        self._runs[run.id] = run

    async def record_answer(self, record: AnswerRecord) -> Recorded:
        """Write one answer with its totals and run progress; a repeat of an answered
        position changes nothing and reports the answer on record. Answers that arrive
        together are written set-wise (see ``ledger.record_answers``)."""
        recorded = await self._database.write(AnswerWork(record, self._database.ledger))
        if recorded.gone:
            self._runs.pop(record.run.id, None)
        elif not recorded.duplicate:
            after = record.run.after_answer(recorded.correct, recorded.points)
            self._runs[after.id] = after
            self._in_progress -= after.finished
        return recorded

    async def load(self, run_id: str, position: int | None = None) -> Run | None:
        """The run. On a store only this process writes (SQLite) the cached copy is the
        run. On a shared one (PostgreSQL) another process may have moved the run on, so a
        cached copy serves only a click made at the position it is cached at — the answer's
        transaction then checks that position against the rows (``record_answers``) — and
        anything else is read."""
        cached = self._runs.get(run_id)
        if cached is not None and (self._cached or cached.position == position):
            return cached
        rows = await self._database.read(
            "SELECT r.platform, r.workspace_id, r.channel_id, r.player_id, r.bank_id, r.locale,"
            " r.seed, r.question_ids, r.position, r.correct, r.points, r.created_at,"
            " COALESCE(p.name, '') FROM runs r LEFT JOIN players p"
            " ON p.platform = r.platform AND p.player_id = r.player_id WHERE r.run_id = ?",
            (run_id,),
        )
        if not rows:
            return None
        (
            platform,
            workspace,
            channel,
            player_id,
            bank_id,
            locale,
            seed,
            qids,
            position,
            correct,
            points,
            created_at,
            name,
        ) = rows[0]
        run = Run(
            id=run_id,
            player=PlayerRef(platform, player_id, name),
            scope=ScopeRef(platform, workspace, channel),
            bank_id=bank_id,
            locale=locale,
            seed=seed,
            question_ids=tuple(json.loads(qids)),
            position=position,
            correct=correct,
            points=points,
            created_at=created_at,
        )
        self._runs[run_id] = run
        return run

    async def open_run_id(self, player: PlayerRef, scope: ScopeRef, bank_id: str) -> str | None:
        """The player's newest unfinished run of a bank in a workspace, if any."""
        rows = await self._database.read(
            "SELECT run_id FROM runs WHERE platform = ? AND workspace_id = ? AND player_id = ?"
            " AND bank_id = ? AND position < json_array_length(question_ids)"
            " ORDER BY created_at DESC LIMIT 1",
            (player.platform, scope.workspace_id, player.id, bank_id),
        )
        return rows[0][0] if rows else None

    async def set_player_locale(
        self, player: PlayerRef, locale: str | None, workspace_id: str
    ) -> None:
        def work(db: Connection) -> None:
            upsert_player(db, player, workspace_id)
            db.execute(
                "UPDATE players SET locale = ? WHERE platform = ? AND player_id = ?",
                (locale, player.platform, player.id),
            )

        await self._database.write(work)
        self._locales[(player.platform, player.id)] = (locale,)

    async def player_locale(self, platform: str, player_id: str) -> str | None:
        cached = self._locales.get((platform, player_id)) if self._cached else None
        if cached is None:
            rows = await self._database.read(
                "SELECT locale FROM players WHERE platform = ? AND player_id = ?",
                (platform, player_id),
            )
            cached = (rows[0][0] if rows else None,)
            self._locales[(platform, player_id)] = cached
        return cached[0]

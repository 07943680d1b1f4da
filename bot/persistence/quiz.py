"""Players, personal quiz runs, their answers and the leaderboards."""

from __future__ import annotations

import json
import sqlite3

from bot.persistence.base import StoreBase
from bot.persistence.ledger import AnswerWork, upsert_player
from bot.persistence.rows import ALL_BANKS, AnswerRecord, BankTotals, Recorded, Standing, TotalRow
from bot.play.refs import PlayerRef, ScopeRef
from bot.play.runs import Run


class QuizTables(StoreBase):
    async def save_run(self, run: Run) -> None:
        def work(db: sqlite3.Connection) -> None:
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
            upsert_player(db, run.player)

        await self._write(work)
        self._runs[run.id] = run
        self.runs_in_progress += 1

    async def set_run_locale(self, run: Run) -> None:
        """The run continues in another language (the player asked for it on resuming)."""

        def work(db: sqlite3.Connection) -> None:
            db.execute("UPDATE runs SET locale = ? WHERE run_id = ?", (run.locale, run.id))

        await self._write(work)
        self._runs[run.id] = run

    async def record_answer(self, record: AnswerRecord) -> Recorded:
        """Write one answer with its totals and run progress; a repeat of an answered
        position changes nothing and reports the answer on record. Answers that arrive
        together are written set-wise (see ``_record_answers``)."""
        recorded = await self._write(AnswerWork(record, self._ledger))
        if not recorded.duplicate:
            after = record.run.after_answer(recorded.correct, recorded.points)
            self._runs[after.id] = after
            self.runs_in_progress -= after.finished
        return recorded

    async def save_player(self, player: PlayerRef) -> None:
        """Refresh a player's display name."""

        def work(db: sqlite3.Connection) -> None:
            upsert_player(db, player)

        await self._write(work)

    async def set_player_locale(self, player: PlayerRef, locale: str | None) -> None:
        def work(db: sqlite3.Connection) -> None:
            upsert_player(db, player)
            db.execute(
                "UPDATE players SET locale = ? WHERE platform = ? AND player_id = ?",
                (locale, player.platform, player.id),
            )

        await self._write(work)
        self._locales[(player.platform, player.id)] = (locale,)

    async def player_locale(self, platform: str, player_id: str) -> str | None:
        cached = self._locales.get((platform, player_id))
        if cached is None:
            rows = await self._fetchall(
                "SELECT locale FROM players WHERE platform = ? AND player_id = ?",
                (platform, player_id),
            )
            cached = (rows[0][0] if rows else None,)
            self._locales[(platform, player_id)] = cached
        return cached[0]

    async def load_run(self, run_id: str) -> Run | None:
        cached = self._runs.get(run_id)
        if cached is not None:
            return cached
        rows = await self._fetchall(
            "SELECT r.platform, r.workspace_id, r.channel_id, r.player_id, r.bank_id, r.locale,"
            " r.seed, r.question_ids, r.position, r.correct, r.points, r.created_at,"
            " COALESCE(p.name, '') FROM runs r LEFT JOIN players p"
            " ON p.platform = r.platform AND p.player_id = r.player_id WHERE r.run_id = ?",
            (run_id,),
        )
        if not rows:
            return None
        (platform, workspace, channel, player_id, bank_id, locale, seed, qids, position,
         correct, points, created_at, name) = rows[0]  # fmt: skip
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
        rows = await self._fetchall(
            "SELECT run_id FROM runs WHERE platform = ? AND workspace_id = ? AND player_id = ?"
            " AND bank_id = ? AND position < json_array_length(question_ids)"
            " ORDER BY created_at DESC LIMIT 1",
            (player.platform, scope.workspace_id, player.id, bank_id),
        )
        return rows[0][0] if rows else None

    async def standing(
        self,
        scope: ScopeRef,
        bank_id: str,
        period: str,
        player_id: str | None,
        limit: int = 10,
        count: bool = False,
    ) -> Standing:
        """Top ``limit`` of a leaderboard, the asking player's row and (with ``count``)
        how many have points. Served from the maintained totals through the
        ``totals_rank`` index: the cost grows with the rank, not with the answers."""
        board = (
            "(SELECT board_id FROM boards WHERE platform = ? AND workspace_id = ?"
            " AND bank_id = ? AND period = ?)"
        )
        key = (scope.platform, scope.workspace_id, bank_id, period)
        top = await self._fetchall(
            "SELECT t.player_id, COALESCE(p.name, ''), t.points, t.correct, t.answered"
            " FROM totals t LEFT JOIN players p ON p.platform = ? AND p.player_id = t.player_id"
            f" WHERE t.board_id = {board} AND t.points > 0"
            " ORDER BY t.points DESC, t.reached_at, t.player_id LIMIT ?",
            (scope.platform, *key, limit),
        )
        rows = tuple(
            TotalRow(pid, name, points, correct, answered, rank=i)
            for i, (pid, name, points, correct, answered) in enumerate(top, start=1)
        )
        you = next((row for row in rows if row.player_id == player_id), None)
        if you is None and player_id is not None:
            mine = await self._fetchall(
                # Players ahead, counted as three index ranges: one OR of them would
                # make SQLite merge row sets (about 20x slower on a 10,000-row board).
                "SELECT t.points, t.correct, t.answered, COALESCE(p.name, ''),"
                " (SELECT COUNT(*) FROM totals o WHERE o.board_id = t.board_id"
                "  AND o.points > t.points)"
                " + (SELECT COUNT(*) FROM totals o WHERE o.board_id = t.board_id"
                "  AND o.points = t.points AND o.reached_at < t.reached_at)"
                " + (SELECT COUNT(*) FROM totals o WHERE o.board_id = t.board_id"
                "  AND o.points = t.points AND o.reached_at = t.reached_at"
                "  AND o.player_id < t.player_id)"
                " FROM totals t LEFT JOIN players p ON p.platform = ? AND p.player_id = ?"
                f" WHERE t.board_id = {board} AND t.player_id = ? AND t.points > 0",
                (scope.platform, player_id, *key, player_id),
            )
            if mine:
                points, correct, answered, name, ahead = mine[0]
                you = TotalRow(player_id, name, points, correct, answered, rank=ahead + 1)
        players = 0
        if count:
            found = await self._fetchall(
                f"SELECT COUNT(*) FROM totals WHERE board_id = {board} AND points > 0", key
            )
            players = found[0][0]
        return Standing(rows, you, players)

    async def bank_totals(self, scope: ScopeRef, player_id: str) -> list[BankTotals]:
        rows = await self._fetchall(
            "SELECT b.bank_id, t.points, t.correct, t.answered FROM boards b JOIN totals t"
            " ON t.board_id = b.board_id WHERE b.platform = ? AND b.workspace_id = ?"
            " AND b.period = 'all' AND t.player_id = ? AND b.bank_id != ? ORDER BY b.bank_id",
            (scope.platform, scope.workspace_id, player_id, ALL_BANKS),
        )
        return [BankTotals(*row) for row in rows]

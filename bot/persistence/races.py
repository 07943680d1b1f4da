"""Live races: one running per channel (a UNIQUE index), their compare-and-set state
and their locked-in answers."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from bot.domain.identities import PlayerRef, ScopeRef
from bot.domain.race import Race
from bot.persistence.channels import channel_key, tally
from bot.persistence.database import Database
from bot.persistence.dialect import Connection
from bot.persistence.ledger import upsert_player
from bot.persistence.rows import ChannelAnswer, ChannelResults, TotalRow

_COLUMNS = (
    "race_id, platform, workspace_id, channel_id, bank_id, question_ids, seconds,"
    " starter_id, locale, seed, current, phase, phase_until, opened_at"
)


class RaceRepository:
    def __init__(self, database: Database):
        self._database = database

    async def create(self, race: Race, at: float) -> bool:
        """False when the channel already has a race running (a UNIQUE index says so)."""

        def work(db: Connection) -> bool:
            cursor = db.execute(
                f"INSERT INTO races ({_COLUMNS}, created_at)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING",
                (*_row(race), at),
            )
            return cursor.rowcount == 1

        return await self._database.write(work)

    async def update(self, before: Race, after: Race) -> bool:
        """Move a race from the state it was read in to the next, compare-and-set: False
        when it moved on meanwhile (stopped, or advanced by another scheduler)."""

        def work(db: Connection) -> bool:
            cursor = db.execute(
                "UPDATE races SET current = ?, phase = ?, phase_until = ?, opened_at = ?"
                " WHERE race_id = ? AND current = ? AND phase = ? AND phase_until = ?",
                (
                    *(after.current, after.phase, after.phase_until, after.opened_at),
                    *(before.id, before.current, before.phase, before.phase_until),
                ),
            )
            return cursor.rowcount == 1

        return await self._database.write(work)

    async def get(self, race_id: str) -> Race | None:
        rows = await self._database.read(
            f"SELECT {_COLUMNS} FROM races WHERE race_id = ?", (race_id,)
        )
        return _race(rows[0]) if rows else None

    async def running(self, scope: ScopeRef | None = None) -> list[Race]:
        """Races not done: all of them, or the one in a channel."""
        channel = channel_key(scope) if scope else (None, None, None)
        rows = await self._database.read(
            f"SELECT {_COLUMNS} FROM races WHERE phase != 'done'"
            " AND (CAST(? AS TEXT) IS NULL"
            " OR (platform = ? AND workspace_id = ? AND channel_id = ?))",
            (channel[0], *channel),
        )
        return [_race(row) for row in rows]

    async def record_answer(
        self,
        race: Race,
        player: PlayerRef,
        choice: int,
        correct: bool,
        points_for_streak: Callable[[int], int],
        at: float,
    ) -> ChannelAnswer:
        """The first click of a player on a race question is locked in."""
        number = race.current
        ledger = self._database.ledger

        def work(db: Connection) -> ChannelAnswer:
            found = db.execute(
                "SELECT choice, correct, points, streak FROM race_answers"
                " WHERE race_id = ? AND number = ? AND player_id = ?",
                (race.id, number, player.id),
            ).fetchone()
            if found:
                return ChannelAnswer(found[0], bool(found[1]), found[2], found[3], True)
            before = db.execute(
                "SELECT streak FROM race_answers WHERE race_id = ? AND number = ?"
                " AND player_id = ? AND correct = 1",
                (race.id, number - 1, player.id),
            ).fetchone()
            streak = (before[0] if before else 0) + 1 if correct else 0
            points = points_for_streak(streak)
            db.execute(
                "INSERT INTO race_answers VALUES (?,?,?,?,?,?,?,?)",
                (race.id, number, player.id, choice, int(correct), points, streak, at),
            )
            upsert_player(db, player, race.scope.workspace_id)
            ledger.credit(db, player, race.scope, race.bank_id, points, correct, at)
            question = (race.bank_id, race.question_ids[number])
            took = round(1000 * max(0.0, at - race.opened_at))  # the question opened then
            ledger.review(db, player, race.scope, question, choice, correct, at, took, "race")
            return ChannelAnswer(choice, correct, points, streak, False)

        return await self._database.write(work)

    async def results(self, race: Race) -> ChannelResults:
        """The tally of the race's current question."""
        return await tally(
            self._database,
            "race_answers",
            "a.race_id = ? AND a.number = ?",
            (race.id, race.current),
            race.scope.platform,
        )

    async def standings(self, race: Race, limit: int = 10) -> list[TotalRow]:
        """Points in this race so far; ties go to whoever got there first."""
        rows = await self._database.read(
            # One name per player: MAX only satisfies PostgreSQL's GROUP BY rule; the
            # sums cast back from its NUMERIC.
            "SELECT a.player_id, COALESCE(MAX(p.name), ''), CAST(SUM(a.points) AS INTEGER),"
            " CAST(SUM(a.correct) AS INTEGER), COUNT(*),"
            " MAX(CASE WHEN a.points > 0 THEN a.answered_at ELSE 0 END) AS reached"
            " FROM race_answers a LEFT JOIN players p"
            " ON p.platform = ? AND p.player_id = a.player_id WHERE a.race_id = ?"
            " GROUP BY a.player_id ORDER BY SUM(a.points) DESC, reached, a.player_id LIMIT ?",
            (race.scope.platform, race.id, limit),
        )
        return [
            TotalRow(pid, name, points, correct, answered, rank=i)
            for i, (pid, name, points, correct, answered, _) in enumerate(rows, start=1)
        ]


def _row(race: Race) -> tuple[Any, ...]:
    return (
        race.id,
        *channel_key(race.scope),
        race.bank_id,
        json.dumps(race.question_ids),
        race.seconds,
        race.starter_id,
        race.locale,
        race.seed,
        race.current,
        race.phase,
        race.phase_until,
        race.opened_at,
    )


def _race(row: Sequence[Any]) -> Race:
    race_id, platform, workspace, channel, bank_id, qids, *rest = row
    scope = ScopeRef(platform, workspace, channel)
    return Race(race_id, scope, bank_id, tuple(json.loads(qids)), *rest)

"""Channel play's tables: daily schedules and posts, races and competitions."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence
from datetime import date
from datetime import time as dt_time
from typing import Any

from bot.persistence.base import StoreBase
from bot.persistence.ledger import upsert_player
from bot.persistence.rows import ChannelAnswer, ChannelResults, TotalRow
from bot.play.competition import Competition
from bot.play.daily import DailyPost, DailySchedule, next_streak
from bot.play.race import Race
from bot.play.refs import PlayerRef, ScopeRef


class ChannelTables(StoreBase):
    async def set_daily(self, schedule: DailySchedule) -> None:
        scope = schedule.scope

        def work(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO daily_schedules VALUES (?,?,?,?,?,?,?,?)"
                " ON CONFLICT (platform, workspace_id, channel_id) DO UPDATE SET"
                " topics = excluded.topics, at = excluded.at, timezone = excluded.timezone,"
                " locale = excluded.locale, reveal_after = excluded.reveal_after",
                (
                    scope.platform,
                    scope.workspace_id,
                    scope.channel_id,
                    json.dumps(schedule.topics),
                    schedule.at.strftime("%H:%M"),
                    schedule.timezone,
                    schedule.locale,
                    schedule.reveal_after,
                ),
            )

        await self._write(work)

    async def remove_daily(self, scope: ScopeRef) -> bool:
        def work(db: sqlite3.Connection) -> bool:
            cursor = db.execute(
                "DELETE FROM daily_schedules WHERE platform = ? AND workspace_id = ?"
                " AND channel_id = ?",
                (scope.platform, scope.workspace_id, scope.channel_id),
            )
            return cursor.rowcount > 0

        return await self._write(work)

    async def daily_schedules(self, platform: str | None = None) -> list[DailySchedule]:
        rows = await self._fetchall(
            "SELECT platform, workspace_id, channel_id, topics, at, timezone, locale,"
            " reveal_after FROM daily_schedules WHERE ? IS NULL OR platform = ?",
            (platform, platform),
        )
        return [
            DailySchedule(
                ScopeRef(p, w, c),
                tuple(json.loads(topics)),
                dt_time.fromisoformat(at),
                tz,
                locale,
                reveal_after,
            )
            for p, w, c, topics, at, tz, locale, reveal_after in rows
        ]

    async def daily_history(self, scope: ScopeRef) -> tuple[int, set[tuple[str, str]]]:
        """The channel's current cycle and the questions already posted in it."""
        rows = await self._fetchall(
            "SELECT cycle, bank_id, question_id FROM daily_posts WHERE platform = ?"
            " AND workspace_id = ? AND channel_id = ? AND cycle = (SELECT MAX(cycle)"
            " FROM daily_posts WHERE platform = ? AND workspace_id = ? AND channel_id = ?)",
            (*_channel(scope), *_channel(scope)),
        )
        cycle = rows[0][0] if rows else 0
        return cycle, {(bank, question) for _, bank, question in rows}

    async def claim_daily_post(self, post: DailyPost) -> bool:
        """Reserve the channel's post for its day; False when the day is already taken.
        The UNIQUE key, not memory, is what keeps a day from being posted twice."""

        def work(db: sqlite3.Connection) -> bool:
            cursor = db.execute(
                "INSERT INTO daily_posts (post_id, platform, workspace_id, channel_id, day,"
                " cycle, bank_id, question_id, seed, locale, posted_at, reveal_at)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING",
                (
                    post.id,
                    *_channel(post.scope),
                    post.day,
                    post.cycle,
                    post.bank_id,
                    post.question_id,
                    post.seed,
                    post.locale,
                    post.posted_at,
                    post.reveal_at,
                ),
            )
            return cursor.rowcount == 1

        return await self._write(work)

    async def set_daily_message(self, post_id: str, message_ref: str) -> None:
        def work(db: sqlite3.Connection) -> None:
            db.execute(
                "UPDATE daily_posts SET message_ref = ? WHERE post_id = ?", (message_ref, post_id)
            )

        await self._write(work)

    async def mark_daily_revealed(self, post_id: str, at: float) -> bool:
        """Claim a post's reveal: False when it is revealed (or being revealed) already."""

        def work(db: sqlite3.Connection) -> bool:
            cursor = db.execute(
                "UPDATE daily_posts SET revealed_at = ? WHERE post_id = ? AND revealed_at IS NULL",
                (at, post_id),
            )
            return cursor.rowcount == 1

        return await self._write(work)

    async def unmark_daily_revealed(self, post_id: str) -> None:
        """Give a claimed reveal back: its post failed and is tried again."""

        def work(db: sqlite3.Connection) -> None:
            db.execute("UPDATE daily_posts SET revealed_at = NULL WHERE post_id = ?", (post_id,))

        await self._write(work)

    _DAILY_COLUMNS = (
        "post_id, platform, workspace_id, channel_id, day, cycle, bank_id, question_id, seed,"
        " locale, posted_at, reveal_at, message_ref, revealed_at"
    )

    async def daily_post(self, post_id: str) -> DailyPost | None:
        rows = await self._fetchall(
            f"SELECT {self._DAILY_COLUMNS} FROM daily_posts WHERE post_id = ?", (post_id,)
        )
        return _daily_post(rows[0]) if rows else None

    async def daily_posts_to_reveal(self, now: float) -> list[DailyPost]:
        rows = await self._fetchall(
            f"SELECT {self._DAILY_COLUMNS} FROM daily_posts"
            " WHERE revealed_at IS NULL AND reveal_at <= ? ORDER BY reveal_at",
            (now,),
        )
        return [_daily_post(row) for row in rows]

    async def record_daily_answer(
        self,
        post: DailyPost,
        player: PlayerRef,
        choice: int,
        correct: bool,
        points_for_streak: Callable[[int], int],
        at: float,
    ) -> ChannelAnswer:
        """One answer per player per post; the streak is counted in the post's day."""

        def work(db: sqlite3.Connection) -> ChannelAnswer:
            found = db.execute(
                "SELECT choice, correct, points, streak FROM daily_answers"
                " WHERE post_id = ? AND player_id = ?",
                (post.id, player.id),
            ).fetchone()
            if found:
                return ChannelAnswer(found[0], bool(found[1]), found[2], found[3], True)
            key = (*_channel(post.scope), player.id)
            previous = db.execute(
                "SELECT streak, last_day FROM daily_streaks WHERE platform = ?"
                " AND workspace_id = ? AND channel_id = ? AND player_id = ?",
                key,
            ).fetchone()
            streak = next_streak(
                previous[0] if previous else 0,
                date.fromisoformat(previous[1]) if previous else None,
                date.fromisoformat(post.day),
            )
            points = points_for_streak(streak)
            db.execute(
                "INSERT INTO daily_answers VALUES (?,?,?,?,?,?,?)",
                (post.id, player.id, choice, int(correct), points, streak, at),
            )
            db.execute(
                "INSERT INTO daily_streaks VALUES (?,?,?,?,?,?) ON CONFLICT DO UPDATE SET"
                " streak = excluded.streak, last_day = excluded.last_day",
                (*key, streak, post.day),
            )
            upsert_player(db, player)
            self._ledger.credit(db, player, post.scope, post.bank_id, points, correct, at)
            return ChannelAnswer(choice, correct, points, streak, False)

        return await self._write(work)

    async def daily_results(self, post: DailyPost) -> ChannelResults:
        return await self._results(
            "daily_answers", "a.post_id = ?", (post.id,), post.scope.platform
        )

    async def _results(
        self, table: str, where: str, params: Sequence[Any], platform: str
    ) -> ChannelResults:
        """Answer counts by choice, and who answered right (most points first), for a
        reveal."""
        counts = await self._fetchall(
            f"SELECT a.choice, COUNT(*) FROM {table} a WHERE {where} GROUP BY a.choice", params
        )
        winners = await self._fetchall(
            f"SELECT a.player_id, COALESCE(p.name, ''), a.points FROM {table} a"
            " LEFT JOIN players p ON p.platform = ? AND p.player_id = a.player_id"
            f" WHERE {where} AND a.correct = 1 ORDER BY a.points DESC, a.answered_at",
            (platform, *params),
        )
        return ChannelResults(
            {int(choice): int(n) for choice, n in counts},
            tuple(TotalRow(pid, name, pts, 1, 1) for pid, name, pts in winners),
        )

    _RACE_COLUMNS = (
        "race_id, platform, workspace_id, channel_id, bank_id, question_ids, seconds,"
        " starter_id, locale, seed, current, phase, phase_until, opened_at"
    )

    async def create_race(self, race: Race, at: float) -> bool:
        """False when the channel already has a race running (a UNIQUE index says so)."""

        def work(db: sqlite3.Connection) -> bool:
            try:
                db.execute(
                    f"INSERT INTO races ({self._RACE_COLUMNS}, created_at)"
                    " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    (*_race_row(race), at),
                )
            except sqlite3.IntegrityError:
                return False
            return True

        return await self._write(work)

    async def update_race(self, before: Race, after: Race) -> bool:
        """Move a race from the state it was read in to the next, compare-and-set: False
        when it moved on meanwhile (stopped, or advanced by another scheduler)."""

        def work(db: sqlite3.Connection) -> bool:
            cursor = db.execute(
                "UPDATE races SET current = ?, phase = ?, phase_until = ?, opened_at = ?"
                " WHERE race_id = ? AND current = ? AND phase = ? AND phase_until = ?",
                (
                    *(after.current, after.phase, after.phase_until, after.opened_at),
                    *(before.id, before.current, before.phase, before.phase_until),
                ),
            )
            return cursor.rowcount == 1

        return await self._write(work)

    async def race(self, race_id: str) -> Race | None:
        rows = await self._fetchall(
            f"SELECT {self._RACE_COLUMNS} FROM races WHERE race_id = ?", (race_id,)
        )
        return _race(rows[0]) if rows else None

    async def running_races(self, scope: ScopeRef | None = None) -> list[Race]:
        """Races not done: all of them, or the one in a channel."""
        channel = _channel(scope) if scope else (None, None, None)
        rows = await self._fetchall(
            f"SELECT {self._RACE_COLUMNS} FROM races WHERE phase != 'done'"
            " AND (? IS NULL OR (platform = ? AND workspace_id = ? AND channel_id = ?))",
            (channel[0], *channel),
        )
        return [_race(row) for row in rows]

    async def record_race_answer(
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

        def work(db: sqlite3.Connection) -> ChannelAnswer:
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
            upsert_player(db, player)
            self._ledger.credit(db, player, race.scope, race.bank_id, points, correct, at)
            return ChannelAnswer(choice, correct, points, streak, False)

        return await self._write(work)

    async def race_results(self, race: Race) -> ChannelResults:
        return await self._results(
            "race_answers", "a.race_id = ? AND a.number = ?", (race.id, race.current),
            race.scope.platform,
        )  # fmt: skip

    async def race_standings(self, race: Race, limit: int = 10) -> list[TotalRow]:
        """Points in this race so far; ties go to whoever got there first."""
        rows = await self._fetchall(
            "SELECT a.player_id, COALESCE(p.name, ''), SUM(a.points), SUM(a.correct),"
            " COUNT(*), MAX(CASE WHEN a.points > 0 THEN a.answered_at ELSE 0 END) AS reached"
            " FROM race_answers a LEFT JOIN players p"
            " ON p.platform = ? AND p.player_id = a.player_id WHERE a.race_id = ?"
            " GROUP BY a.player_id ORDER BY SUM(a.points) DESC, reached, a.player_id LIMIT ?",
            (race.scope.platform, race.id, limit),
        )
        return [
            TotalRow(pid, name, points, correct, answered, rank=i)
            for i, (pid, name, points, correct, answered, _) in enumerate(rows, start=1)
        ]

    _COMPETITION_COLUMNS = (
        "competition_id, platform, workspace_id, channel_id, name, topics, starts_at, ends_at,"
        " created_by, ended_at"
    )

    async def create_competition(
        self,
        scope: ScopeRef,
        name: str,
        topics: tuple[str, ...],
        starts_at: float,
        ends_at: float,
        created_by: str,
    ) -> Competition | None:
        """None when the workspace already has a competition running."""

        def work(db: sqlite3.Connection) -> int | None:
            try:
                cursor = db.execute(
                    "INSERT INTO competitions (platform, workspace_id, channel_id, name, topics,"
                    " starts_at, ends_at, created_by) VALUES (?,?,?,?,?,?,?,?)",
                    (*_channel(scope), name, json.dumps(topics), starts_at, ends_at, created_by),
                )
            except sqlite3.IntegrityError:
                return None
            self._ledger.forget_competitions()
            return cursor.lastrowid

        competition_id = await self._write(work)
        if competition_id is None:
            return None
        return Competition(competition_id, scope, name, topics, starts_at, ends_at, created_by)

    async def running_competition(self, scope: ScopeRef) -> Competition | None:
        rows = await self._fetchall(
            f"SELECT {self._COMPETITION_COLUMNS} FROM competitions WHERE platform = ?"
            " AND workspace_id = ? AND ended_at IS NULL",
            (scope.platform, scope.workspace_id),
        )
        return _competition(rows[0]) if rows else None

    async def latest_competition(self, scope: ScopeRef) -> Competition | None:
        rows = await self._fetchall(
            f"SELECT {self._COMPETITION_COLUMNS} FROM competitions WHERE platform = ?"
            " AND workspace_id = ? ORDER BY ended_at IS NULL DESC, competition_id DESC LIMIT 1",
            (scope.platform, scope.workspace_id),
        )
        return _competition(rows[0]) if rows else None

    async def competitions_to_end(self, now: float) -> list[Competition]:
        rows = await self._fetchall(
            f"SELECT {self._COMPETITION_COLUMNS} FROM competitions"
            " WHERE ended_at IS NULL AND ends_at <= ?",
            (now,),
        )
        return [_competition(row) for row in rows]

    async def end_competition(self, competition: Competition, at: float) -> bool:
        """False when it had already ended (so its results are announced once)."""

        def work(db: sqlite3.Connection) -> bool:
            cursor = db.execute(
                "UPDATE competitions SET ended_at = ? WHERE competition_id = ?"
                " AND ended_at IS NULL",
                (at, competition.id),
            )
            self._ledger.forget_competitions()
            return cursor.rowcount == 1

        return await self._write(work)


def _channel(scope: ScopeRef) -> tuple[str, str, str]:
    return (scope.platform, scope.workspace_id, scope.channel_id)


def _daily_post(row: Sequence[Any]) -> DailyPost:
    post_id, platform, workspace, channel, *rest = row
    return DailyPost(post_id, ScopeRef(platform, workspace, channel), *rest)


def _race_row(race: Race) -> tuple[Any, ...]:
    return (
        race.id, *_channel(race.scope), race.bank_id, json.dumps(race.question_ids),
        race.seconds, race.starter_id, race.locale, race.seed, race.current, race.phase,
        race.phase_until, race.opened_at,
    )  # fmt: skip


def _race(row: Sequence[Any]) -> Race:
    race_id, platform, workspace, channel, bank_id, qids, *rest = row
    scope = ScopeRef(platform, workspace, channel)
    return Race(race_id, scope, bank_id, tuple(json.loads(qids)), *rest)


def _competition(row: Sequence[Any]) -> Competition:
    cid, platform, workspace, channel, name, topics, *rest = row
    return Competition(
        cid, ScopeRef(platform, workspace, channel), name, tuple(json.loads(topics)), *rest
    )

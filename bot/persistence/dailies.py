"""The daily question: channels' schedules, the posts (one per channel and day, by a
UNIQUE key), their answers and players' streaks."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import date
from datetime import time as dt_time
from typing import Any

from bot.domain.daily import DailyPost, DailySchedule, next_streak
from bot.domain.identities import PlayerRef, ScopeRef
from bot.persistence.channels import channel_key, tally
from bot.persistence.database import Database
from bot.persistence.dialect import Connection
from bot.persistence.ledger import upsert_player
from bot.persistence.rows import ChannelAnswer, ChannelResults

_POST_COLUMNS = (
    "post_id, platform, workspace_id, channel_id, day, cycle, bank_id, question_id, seed,"
    " locale, posted_at, reveal_at, message_ref, revealed_at"
)


class DailyRepository:
    def __init__(self, database: Database):
        self._database = database

    async def save_schedule(self, schedule: DailySchedule) -> None:
        def work(db: Connection) -> None:
            db.execute(
                "INSERT INTO daily_schedules VALUES (?,?,?,?,?,?,?,?,?)"
                " ON CONFLICT (platform, workspace_id, channel_id) DO UPDATE SET"
                " topics = excluded.topics, at = excluded.at, timezone = excluded.timezone,"
                " locale = excluded.locale, reveal_after = excluded.reveal_after,"
                " prefer_missed = excluded.prefer_missed",
                (
                    *channel_key(schedule.scope),
                    json.dumps(schedule.topics),
                    schedule.at.strftime("%H:%M"),
                    schedule.timezone,
                    schedule.locale,
                    schedule.reveal_after,
                    int(schedule.prefer_missed),
                ),
            )

        await self._database.write(work)

    async def remove_schedule(self, scope: ScopeRef) -> bool:
        def work(db: Connection) -> bool:
            cursor = db.execute(
                "DELETE FROM daily_schedules WHERE platform = ? AND workspace_id = ?"
                " AND channel_id = ?",
                channel_key(scope),
            )
            return cursor.rowcount > 0

        return await self._database.write(work)

    async def schedules(self, platform: str | None = None) -> list[DailySchedule]:
        rows = await self._database.read(
            "SELECT platform, workspace_id, channel_id, topics, at, timezone, locale,"
            " reveal_after, prefer_missed FROM daily_schedules"
            " WHERE CAST(? AS TEXT) IS NULL OR platform = ?",
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
                bool(prefer),
            )
            for p, w, c, topics, at, tz, locale, reveal_after, prefer in rows
        ]

    async def history(self, scope: ScopeRef) -> tuple[int, set[tuple[str, str]]]:
        """The channel's current cycle and the questions already posted in it."""
        rows = await self._database.read(
            "SELECT cycle, bank_id, question_id FROM daily_posts WHERE platform = ?"
            " AND workspace_id = ? AND channel_id = ? AND cycle = (SELECT MAX(cycle)"
            " FROM daily_posts WHERE platform = ? AND workspace_id = ? AND channel_id = ?)",
            (*channel_key(scope), *channel_key(scope)),
        )
        cycle = rows[0][0] if rows else 0
        return cycle, {(bank, question) for _, bank, question in rows}

    async def claim_post(self, post: DailyPost) -> bool:
        """Reserve the channel's post for its day; False when the day is already taken.
        The UNIQUE key, not memory, is what keeps a day from being posted twice."""

        def work(db: Connection) -> bool:
            cursor = db.execute(
                "INSERT INTO daily_posts (post_id, platform, workspace_id, channel_id, day,"
                " cycle, bank_id, question_id, seed, locale, posted_at, reveal_at)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING",
                (
                    post.id,
                    *channel_key(post.scope),
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

        return await self._database.write(work)

    async def set_message(self, post_id: str, message_ref: str) -> None:
        def work(db: Connection) -> None:
            db.execute(
                "UPDATE daily_posts SET message_ref = ? WHERE post_id = ?", (message_ref, post_id)
            )

        await self._database.write(work)

    async def mark_revealed(self, post_id: str, at: float) -> bool:
        """Claim a post's reveal: False when it is revealed (or being revealed) already."""

        def work(db: Connection) -> bool:
            cursor = db.execute(
                "UPDATE daily_posts SET revealed_at = ? WHERE post_id = ? AND revealed_at IS NULL",
                (at, post_id),
            )
            return cursor.rowcount == 1

        return await self._database.write(work)

    async def unmark_revealed(self, post_id: str) -> None:
        """Give a claimed reveal back: its post failed and is tried again."""

        def work(db: Connection) -> None:
            db.execute("UPDATE daily_posts SET revealed_at = NULL WHERE post_id = ?", (post_id,))

        await self._database.write(work)

    async def post(self, post_id: str) -> DailyPost | None:
        rows = await self._database.read(
            f"SELECT {_POST_COLUMNS} FROM daily_posts WHERE post_id = ?", (post_id,)
        )
        return _post(rows[0]) if rows else None

    async def posts_to_reveal(self, now: float) -> list[DailyPost]:
        rows = await self._database.read(
            f"SELECT {_POST_COLUMNS} FROM daily_posts"
            " WHERE revealed_at IS NULL AND reveal_at <= ? ORDER BY reveal_at",
            (now,),
        )
        return [_post(row) for row in rows]

    async def record_answer(
        self,
        post: DailyPost,
        player: PlayerRef,
        choice: int,
        correct: bool,
        points_for_streak: Callable[[int], int],
        at: float,
        estimate: float | None = None,
    ) -> ChannelAnswer:
        """One answer per player per post (a choice, or -1 and an estimate's value in its
        base unit); the streak is counted in the post's day."""
        ledger = self._database.ledger

        def work(db: Connection) -> ChannelAnswer:
            found = db.execute(
                "SELECT choice, correct, points, streak, estimate FROM daily_answers"
                " WHERE post_id = ? AND player_id = ?",
                (post.id, player.id),
            ).fetchone()
            if found:
                given, right, scored, days, value = found
                return ChannelAnswer(given, bool(right), scored, days, True, value)
            key = (*channel_key(post.scope), player.id)
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
                "INSERT INTO daily_answers VALUES (?,?,?,?,?,?,?,?)",
                (post.id, player.id, choice, int(correct), points, streak, at, estimate),
            )
            db.execute(
                "INSERT INTO daily_streaks VALUES (?,?,?,?,?,?)"
                " ON CONFLICT (platform, workspace_id, channel_id, player_id) DO UPDATE SET"
                " streak = excluded.streak, last_day = excluded.last_day",
                (*key, streak, post.day),
            )
            upsert_player(db, player, post.scope.workspace_id)
            ledger.credit(db, player, post.scope, post.bank_id, points, correct, at)
            # No answer time: nobody knows when the player first saw the post.
            question = (post.bank_id, post.question_id)
            ledger.review(db, player, post.scope, question, choice, correct, at, None, "daily")
            return ChannelAnswer(choice, correct, points, streak, False, estimate)

        return await self._database.write(work)

    async def answer_of(self, post: DailyPost, player: PlayerRef) -> float | None:
        """The value of a player's daily estimate, None while they have not answered."""
        rows = await self._database.read(
            "SELECT estimate FROM daily_answers WHERE post_id = ? AND player_id = ?",
            (post.id, player.id),
        )
        return float(rows[0][0]) if rows and rows[0][0] is not None else None

    async def estimates(self, post: DailyPost) -> list[tuple[str, float]]:
        """A daily estimate's answers as (name, value), first answered first; a player
        without a known name goes by their id."""
        rows = await self._database.read(
            "SELECT COALESCE(NULLIF(p.name, ''), a.player_id), a.estimate FROM daily_answers a"
            " LEFT JOIN players p ON p.platform = ? AND p.player_id = a.player_id"
            " WHERE a.post_id = ? AND a.estimate IS NOT NULL ORDER BY a.answered_at",
            (post.scope.platform, post.id),
        )
        return [(str(name), float(value)) for name, value in rows]

    async def results(self, post: DailyPost) -> ChannelResults:
        return await tally(
            self._database, "daily_answers", "a.post_id = ?", (post.id,), post.scope.platform
        )


def _post(row: Sequence[Any]) -> DailyPost:
    post_id, platform, workspace, channel, *rest = row
    return DailyPost(post_id, ScopeRef(platform, workspace, channel), *rest)

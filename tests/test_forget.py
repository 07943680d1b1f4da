"""A player's data is theirs to delete (issue 18, part 5): /quiz forget-me with its
confirmation, and ``quizbot db forget``, on both backends — answers, totals, cards,
reminders, channel answers and a running competition; others' standings unchanged."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.content.banks import Catalog
from bot.domain.identities import ScopeRef
from bot.domain.memory import Memory
from bot.persistence import Store
from bot.services.engine import Engine
from bot.services.requests import (
    Context,
    Delivery,
    ForgetMe,
    ProposeQuestion,
    SetSharing,
    ShowDashboard,
    button,
)
from bot.ui.views import DailyPostView, ForgetConfirm, Leaderboard, Notice

from .support.channel import (
    ADMIN,
    CHANNEL,
    PLAYERS,
    FakeClock,
    RecordingPublisher,
    moment,
    right_and_wrong,
    run_until,
)
from .support.cli import run_quizbot
from .support.environment import FIXTURES
from .test_review import answer_quiz

ANA, BO, _ = PLAYERS
ELSEWHERE = ScopeRef("slack", "T2", "C9")
PER_PLAYER = (
    "SELECT (SELECT COUNT(*) FROM answers WHERE player_id = ?),"
    " (SELECT COUNT(*) FROM runs WHERE player_id = ?),"
    " (SELECT COUNT(*) FROM attempts WHERE player_id = ?),"
    " (SELECT COUNT(*) FROM totals WHERE player_id = ?),"
    " (SELECT COUNT(*) FROM daily_answers WHERE player_id = ?),"
    " (SELECT COUNT(*) FROM cards WHERE player_id = ?),"
    " (SELECT COUNT(*) FROM review_log WHERE player_id = ?),"
    " (SELECT COUNT(*) FROM reminders WHERE player_id = ?),"
    " (SELECT COUNT(*) FROM players WHERE player_id = ?)"
)


async def played(location: str, catalog: Catalog, clock: FakeClock) -> Engine:
    """Ana and Bo play tiny in the team, during a competition, answer the daily question
    and set reminders; Ana also plays in another workspace."""
    engine = Engine(catalog, await Store.open(location, memory=Memory(fuzz=False)), clock)
    engine.publishers.register("slack", RecordingPublisher(clock))
    admin = Context(ADMIN, CHANNEL, is_admin=True)
    await engine.competitions.start(admin, "January cup", "2027-01-31", None)
    for player in (ANA, BO):
        await answer_quiz(engine, player, "tiny", [True, True])
        await engine.reminders.on(Context(player, CHANNEL), "09:00", "UTC")
    await engine.daily.on(admin, "tiny", "07:00", "UTC", None)
    await run_until(engine, clock, moment("2027-01-04T07:05"))
    publisher = engine.publishers.get("slack")
    assert isinstance(publisher, RecordingPublisher)
    daily = publisher.of(DailyPostView)[0].view
    assert isinstance(daily, DailyPostView)
    right, _ = right_and_wrong(engine, daily)
    for player in (ANA, BO):
        await engine.click(player, button(right), where=CHANNEL)
    view = await engine.start_quiz(ANA, ELSEWHERE, "tiny", "en")
    assert view is not None
    return engine


async def counts(engine: Engine, player_id: str) -> tuple[int, ...]:
    (row,) = await engine.store.database.read(PER_PLAYER, (player_id,) * 9)
    return tuple(row)


async def test_forget_me_deletes_the_players_data_in_the_workspace(
    location: str, catalog: Catalog
) -> None:
    clock = FakeClock(moment("2027-01-04T06:00"))
    engine = await played(location, catalog, clock)
    before = await engine.leaderboard(BO, CHANNEL, "en")
    assert isinstance(before, Leaderboard) and [r.name for r in before.rows] == ["Ana", "Bo"]
    ana = Context(ANA, CHANNEL)
    asked = await engine.handle(ForgetMe(), ana)
    assert isinstance(asked.view, ForgetConfirm) and asked.delivery is Delivery.PRIVATE
    assert asked.view.confirm == "qz:f:confirmed"
    # answers 2+1 (one run elsewhere: none), runs 2 here + 1 elsewhere, attempts 2, totals,
    # the daily answer, cards 2, log 3, the reminder, the name.
    assert (await counts(engine, ANA.id))[:3] == (2, 2, 2)
    done = await engine.handle(button("qz:f:confirmed"), ana)
    assert isinstance(done.view, Notice) and done.view.kind == "forget_done"
    assert done.view.text.startswith("Done: your data in this workspace is deleted (")
    # Elsewhere Ana keeps her run (and so her name); here nothing of hers is left.
    assert await counts(engine, ANA.id) == (0, 1, 0, 0, 0, 0, 0, 0, 1)
    assert await counts(engine, BO.id) == (2, 1, 2, 8, 1, 2, 3, 1, 1)  # 2 banks × 4 periods
    board = await engine.leaderboard(BO, CHANNEL, "en")
    assert isinstance(board, Leaderboard) and [r.name for r in board.rows] == ["Bo"]
    assert board.rows[0].points == before.rows[1].points
    standings = await engine.competitions.standings(Context(BO, CHANNEL))
    assert isinstance(standings, Leaderboard) and [r.name for r in standings.rows] == ["Bo"]
    review = await engine.review(ANA, CHANNEL, "en")
    assert isinstance(review, Notice) and review.kind == "review_empty"
    again = await engine.handle(button("qz:f:confirmed"), ana)
    assert again.view == Notice(
        "en", "forget_nothing", "quizbot keeps nothing about you in this workspace."
    )
    # Forgotten in the other workspace too: the name goes with the last of her data.
    await engine.handle(button("qz:f:confirmed"), Context(ANA, ELSEWHERE))
    assert await counts(engine, ANA.id) == (0,) * 9
    await engine.store.close()


def test_db_forget_on_the_command_line(tmp_path: Path, catalog: Catalog) -> None:
    import asyncio

    db = tmp_path / "q.db"

    async def setup() -> None:
        engine = await played(str(db), catalog, FakeClock(moment("2027-01-04T06:00")))
        await engine.store.close()

    asyncio.run(setup())
    env = {"QUIZBOT_BANKS": str(FIXTURES), "LANG": "C"}
    player = run_quizbot("db", "forget", "--db", str(db), "--player", "slack:U1", env=env)
    assert player.returncode == 0, player.stderr
    assert player.stdout.startswith("forgot slack:U1 in T1: 23 rows (")
    workspace = run_quizbot("db", "forget", "--db", str(db), "--workspace", "slack:T1", env=env)
    assert workspace.returncode == 0, workspace.stderr
    assert workspace.stdout.startswith("forgot workspace slack:T1 in T1: ")
    with sqlite3.connect(db) as conn:
        left = {
            table: conn.execute(
                f"SELECT COUNT(*) FROM {table} WHERE workspace_id = 'T1'"
            ).fetchone()[0]
            for table in ("runs", "boards", "daily_posts", "competitions", "cards", "reminders")
        }
        assert set(left.values()) == {0}
        assert conn.execute("SELECT player_id FROM players ORDER BY 1").fetchall() == [("U0",)]
        assert conn.execute("SELECT COUNT(*) FROM runs WHERE workspace_id = 'T2'").fetchone() == (
            1,
        )
    nothing = run_quizbot("db", "forget", "--db", str(db), "--workspace", "slack:T1", env=env)
    assert nothing.stdout.startswith("nothing stored for workspace slack:T1")
    usage = run_quizbot("db", "forget", "--db", str(db), env=env)
    assert usage.returncode == 2 and "needs --player PLATFORM:ID" in usage.stderr


PERSON_COLUMNS = {"player_id", "author_id", "decided_by", "starter_id", "created_by", "updated_by"}


async def columns(engine: Engine) -> dict[str, set[str]]:
    """Every table of the schema and its columns, as the database itself lists them."""
    if engine.store.database.postgres:
        rows = await engine.store.database.read(
            "SELECT table_name, column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema()",
            (),
        )
    else:
        rows = await engine.store.database.read(
            "SELECT m.name, p.name FROM sqlite_master m, pragma_table_info(m.name) p"
            " WHERE m.type = 'table'",
            (),
        )
    found: dict[str, set[str]] = {}
    for table, column in rows:
        found.setdefault(table, set()).add(column)
    return found


async def holding(engine: Engine, column_names: set[str], value: str) -> dict[str, int]:
    """Rows, per table, with ``value`` in any of the columns named."""
    found = {}
    for table, names in sorted((await columns(engine)).items()):
        for column in sorted(names & column_names):
            (count,) = (
                await engine.store.database.read(
                    f"SELECT COUNT(*) FROM {table} WHERE {column} = ?", (value,)
                )
            )[0]
            if count:
                found[f"{table}.{column}"] = int(count)
    return found


async def test_forgetting_a_member_or_a_workspace_leaves_nothing_in_any_table(
    location: str, catalog: Catalog
) -> None:
    clock = FakeClock(moment("2027-01-04T06:00"))
    engine = await played(location, catalog, clock)
    cy = PLAYERS[2]
    await engine.players.set_locale(cy, "hi", CHANNEL.workspace_id)  # all Cy ever did
    await engine.players.set_locale(ANA, "bn", CHANNEL.workspace_id)
    bo = Context(BO, CHANNEL)
    proposal = ProposeQuestion("ours", "Which?", "Right\nWrong", "Because.", "https://a.example/")
    assert (await engine.handle(proposal, bo)).view.kind == "proposal_sent"  # type: ignore[union-attr]
    await engine.handle(SetSharing(True), bo)  # the knowledge map may name Bo
    lead = Context(ADMIN, CHANNEL, None, True, workspace_name="Acme ML")
    await engine.handle(ShowDashboard(), lead)  # the workspace's name is kept
    tables = await columns(engine)
    # Every table naming a person or a workspace: a new one must be added to forgetting.
    assert sorted(t for t, c in tables.items() if c & PERSON_COLUMNS) == [
        "answers", "attempts", "cards", "competitions", "daily_answers", "daily_streaks",
        "members", "players", "proposals", "race_answers", "races", "reminder_sends",
        "reminders", "review_log", "runs", "sharing", "totals", "workspace_banks",
    ]  # fmt: skip
    assert await holding(engine, PERSON_COLUMNS, BO.id) != {}
    await engine.handle(button("qz:f:confirmed"), bo)
    assert await holding(engine, PERSON_COLUMNS, BO.id) == {}
    assert "proposals.workspace_id" not in await holding(engine, {"workspace_id"}, "T1")  # text too
    assert await holding(engine, {"workspace_id"}, "T1") != {}
    gone = await engine.store.forget.workspace("slack", "T1")
    assert gone.total > 0
    assert await holding(engine, {"workspace_id"}, "T1") == {}
    # Cy was known in T1 only: her name and language went with it; Ana plays in T2.
    assert await holding(engine, PERSON_COLUMNS, cy.id) == {}
    assert await holding(engine, PERSON_COLUMNS, ANA.id) == {
        "members.player_id": 1,
        "players.player_id": 1,
        "runs.player_id": 1,
    }
    await engine.store.close()

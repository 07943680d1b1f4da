"""Two processes on one PostgreSQL database: what one changes, the other sees at once —
a run moved on, a language set, a competition started (no cache serves stale state)."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.content.banks import Catalog
from bot.domain.identities import PlayerRef
from bot.services.requests import Context, button
from bot.ui.views import Feedback, Notice, QuestionView

from .support.channel import ADMIN, FakeClock, moment, open_engine
from .support.databases import query
from .support.quiz import ANA, TEAM, right_choice


async def test_each_process_sees_what_the_other_wrote(postgres_url: str, catalog: Catalog) -> None:
    clock = FakeClock(moment("2026-11-02T09:00"))
    (first, _), (second, _) = [await open_engine(postgres_url, catalog, clock) for _ in range(2)]
    try:
        started = await first.start_quiz(ANA, TEAM, "tiny", "en")
        assert isinstance(started, QuestionView)
        answered = await first.click(ANA, button(right_choice(first, started)))  # cached in `first`
        assert isinstance(answered, Feedback) and answered.next_action
        on_second = await second.click(ANA, button(answered.next_action))  # "next", in the other
        assert isinstance(on_second, QuestionView) and on_second.number == 2
        last = await second.click(ANA, button(right_choice(second, on_second)))
        assert isinstance(last, Feedback) and last.summary is not None
        again = await first.click(ANA, button(right_choice(first, on_second)))
        assert isinstance(again, Notice) and again.kind == "finished"  # read afresh, not stale

        hindi = await second.set_locale(ANA, "hi")
        assert hindi.kind == "lang_set"
        assert await first.locale_for(ANA) == "hi"

        cup = Context(ADMIN, TEAM, is_admin=True)
        assert (await second.competitions.start(cup, "Cup", "2026-12-31", None)).kind == (
            "competition_started"
        )
        run = await first.start_quiz(ANA, TEAM, "tiny", "en", resume=False)
        assert isinstance(run, QuestionView)
        await first.click(ANA, button(right_choice(first, run)))  # a practice answer now: 0 points
        fresh = await first.start_quiz(ANA, TEAM, "mixed-precision", "en")
        assert isinstance(fresh, QuestionView)
        scored = await first.click(ANA, button(right_choice(first, fresh)))
        assert isinstance(scored, Feedback) and scored.points > 0
        standings = await second.competitions.standings(Context(ANA, TEAM))
        assert [(row.name, row.points) for row in standings.rows] == [  # type: ignore[union-attr]
            ("Ana", scored.points)
        ]
    finally:
        await first.store.close()
        await second.store.close()


async def test_clicks_arriving_together_share_one_check_of_the_workspaces_banks(
    postgres_url: str, catalog: Catalog
) -> None:
    engine, _ = await open_engine(postgres_url, catalog, FakeClock(moment("2026-11-02T09:00")))
    library = engine.library
    real = library._banks.fingerprint  # the real read, counted
    reads: list[tuple[str, str]] = []

    async def counted(platform: str, workspace_id: str) -> Any:
        reads.append((platform, workspace_id))
        return await real(platform, workspace_id)

    library._banks.fingerprint = counted  # type: ignore[method-assign]
    try:
        await library.of(TEAM)
        assert len(reads) == 1  # the first: nothing cached
        library._recheck = 0.0  # every later call finds its cache stale
        catalogs = await asyncio.gather(*(library.of(TEAM) for _ in range(20)))
        assert len(reads) == 2 and all(c is catalogs[0] for c in catalogs)
        await library.of(TEAM)
        assert len(reads) == 3  # the shared read is over: a later call reads afresh
        # A bank a caller needs that the cache lacks (uploaded in another process) is
        # read for at once, never from a read that began before it asked.
        await asyncio.gather(library.of(TEAM), library.of(TEAM, "uploaded-elsewhere"))
        assert len(reads) == 5
    finally:
        await engine.store.close()


async def test_one_click_delivered_to_two_processes_at_once_counts_once(
    postgres_url: str, catalog: Catalog
) -> None:
    """Slack retries a click, and the retry reaches the other worker while the first is
    still writing: both batches (each with other players' answers) try to write it. The
    later one meets the earlier's row, is rolled back whole and written answer by answer:
    the repeat is "already answered", and every other answer still counts."""
    clock = FakeClock(moment("2026-11-02T09:00"))
    (first, _), (second, _) = [await open_engine(postgres_url, catalog, clock) for _ in range(2)]
    players = [PlayerRef("slack", f"U{n:03d}", f"P{n}") for n in range(12)]
    try:
        clicks = []
        for player in players:
            view = await first.start_quiz(player, TEAM, "tiny", "en")
            assert isinstance(view, QuestionView)
            clicks.append(button(right_choice(first, view)))
        # Each player's click reaches both processes at once, and the two processes'
        # batches mix the players: every batch meets another process's row for some.
        outcomes = await asyncio.gather(
            *(first.click(p, c) for p, c in zip(players, clicks, strict=True)),
            *(second.click(p, c) for p, c in zip(players, clicks, strict=True)),
        )
    finally:
        await first.store.close()
        await second.store.close()
    for n in range(len(players)):
        pair = outcomes[n], outcomes[n + len(players)]
        scored = [o for o in pair if isinstance(o, Feedback)]
        repeated = [o for o in pair if isinstance(o, Notice)]
        assert len(scored) == 1 and scored[0].correct and scored[0].points == 10
        assert [notice.kind for notice in repeated] == ["already_answered"]
    assert query(postgres_url, "SELECT COUNT(*), SUM(points) FROM answers") == [(12, 120)]
    assert query(
        postgres_url,
        "SELECT COUNT(*), SUM(points) FROM totals t JOIN boards b USING (board_id)"
        " WHERE b.period = 'all' AND b.bank_id = 'tiny'",
    ) == [(12, 120)]

"""Two processes on one PostgreSQL database: what one changes, the other sees at once —
a run moved on, a language set, a competition started (no cache serves stale state)."""

from __future__ import annotations

from bot.content.banks import Catalog
from bot.services.requests import Context, button
from bot.ui.views import Feedback, Notice, QuestionView

from .support.channel import ADMIN, FakeClock, moment, open_engine
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

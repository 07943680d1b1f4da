"""Channel play in tests: a clock the test moves, a publisher that records what would be
posted in channels, an engine wired to them, and a channel with its admin and players."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from adapters.phrases import render
from bot.content.banks import Catalog
from bot.domain.actions import DailyAction, decode
from bot.domain.identities import PlayerRef, ScopeRef
from bot.persistence import Store
from bot.services.engine import Engine
from bot.services.requests import Context
from bot.ui.views import ChannelView, DailyPostView, Notice


def without_estimates(catalog: Catalog) -> Catalog:
    """The catalogue with its choice questions only: a daily draw on it is always a choice
    (the daily estimate has tests of its own), and a scripted player clicks a letter."""
    return Catalog(
        tuple(
            replace(bank, questions=tuple(q for q in bank.questions if q.estimate is None))
            for bank in catalog.banks
        )
    )


@pytest.fixture(name="catalog")
def choices_only(catalog: Catalog) -> Catalog:
    """Overrides ``catalog`` in a module that imports it: choice questions only, for
    tests that script choices (the estimates are tested apart)."""
    return without_estimates(catalog)


class FakeClock:
    def __init__(self, start: float):
        self.at = start

    def now(self) -> float:
        return self.at

    def advance(self, seconds: float) -> None:
        self.at += seconds


def moment(text: str, zone: str = "UTC") -> float:
    return datetime.fromisoformat(text).replace(tzinfo=ZoneInfo(zone)).timestamp()


@dataclass
class Posted:
    channel: ScopeRef
    view: ChannelView
    at: float
    updates: list[ChannelView] = field(default_factory=list)

    @property
    def text(self) -> str:
        return render(self.updates[-1] if self.updates else self.view)


class RecordingPublisher:
    def __init__(self, clock: FakeClock):
        self.clock = clock
        self.posts: list[Posted] = []
        self.told: list[tuple[ScopeRef, str, Notice]] = []  # private messages to members

    async def post(self, channel: ScopeRef, view: ChannelView) -> str:
        self.posts.append(Posted(channel, view, self.clock.now()))
        return str(len(self.posts) - 1)

    async def update(self, channel: ScopeRef, ref: str, view: ChannelView) -> None:
        self.posts[int(ref)].updates.append(view)

    async def tell(self, workspace: ScopeRef, player_id: str, view: Notice) -> None:
        self.told.append((workspace, player_id, view))

    def of(self, kind: type) -> list[Posted]:
        return [p for p in self.posts if isinstance(p.view, kind)]


CHANNEL = ScopeRef("slack", "T1", "C-daily")


ADMIN = PlayerRef("slack", "UADMIN", "Admin")


PLAYERS = [PlayerRef("slack", f"U{i}", name) for i, name in enumerate(["Ana", "Bo", "Cy"])]


async def open_engine(
    path: str | Path, catalog: Catalog, clock: FakeClock, count_refresh: float = 0.0
) -> tuple[Engine, RecordingPublisher]:
    """The engine on the fake clock, posting to a recording publisher; the public
    answer count is edited ``count_refresh`` seconds after a click (at once by default)."""
    engine = Engine(catalog, await Store.open(path), clock, count_refresh=count_refresh)
    publisher = RecordingPublisher(clock)
    engine.publishers.register("slack", publisher)
    return engine, publisher


async def run_until(engine: Engine, clock: FakeClock, end: float, step: float = 600) -> None:
    """Tick the scheduler every ``step`` seconds of fake time up to ``end``."""
    while clock.now() < end:
        clock.advance(min(step, end - clock.now()))
        await engine.scheduler.tick()


def right_and_wrong(engine: Engine, view: DailyPostView) -> tuple[str, str]:
    action = decode(view.choices[0].action_id)
    assert isinstance(action, DailyAction)
    post_question = next(
        q for b in engine.catalog.banks for q in b.questions if q.prompt[view.locale] == view.prompt
    )
    right = DailyAction(action.post_id, post_question.answer).encode()
    wrong = next(c.action_id for c in view.choices if c.action_id != right)
    return right, wrong


async def switch_on(engine: Engine, topics: str, at: str, zone: str) -> Notice:
    return await engine.daily.on(Context(ADMIN, CHANNEL, is_admin=True), topics, at, zone, None)

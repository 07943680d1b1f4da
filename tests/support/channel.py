"""Test doubles at the platform boundary for channel play: a clock the test moves and a
publisher that records what would be posted in channels."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from zoneinfo import ZoneInfo

from bot.play.refs import ScopeRef
from bot.ui.plain import render
from bot.ui.views import ChannelView


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

    async def post(self, channel: ScopeRef, view: ChannelView) -> str:
        self.posts.append(Posted(channel, view, self.clock.now()))
        return str(len(self.posts) - 1)

    async def update(self, channel: ScopeRef, ref: str, view: ChannelView) -> None:
        self.posts[int(ref)].updates.append(view)

    def of(self, kind: type) -> list[Posted]:
        return [p for p in self.posts if isinstance(p.view, kind)]

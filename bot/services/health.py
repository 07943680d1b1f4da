"""Readiness: the database takes writes and every configured platform is connected."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from bot.domain.clock import Clock
from bot.persistence import Database, StoreError

WRITE_TIMEOUT = 2.0


@dataclass
class Health:
    database: Database
    clock: Clock
    platforms: dict[str, bool] = field(default_factory=dict)

    def set_platform(self, name: str, connected: bool) -> None:
        """Adapters report here when they connect and disconnect."""
        self.platforms[name] = connected

    async def check(self) -> dict[str, str]:
        """Each component's state: "ok" or what is wrong."""
        try:
            await asyncio.wait_for(self.database.heartbeat(self.clock.now()), WRITE_TIMEOUT)
            database = "ok"
        except (StoreError, TimeoutError) as exc:
            database = f"not writable: {exc or 'timed out'}"
        states = {"database": database}
        for name, connected in sorted(self.platforms.items()):
            states[name] = "ok" if connected else "not connected"
        return states

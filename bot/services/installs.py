"""Where the app is installed: a workspace's credentials kept for its adapter, the
install flow's one-time states, and a workspace's departure. A workspace that removes
the app loses its installation at once and its quiz data when the grace period has
passed (a scheduler Duty), unless it installs the app again first."""

from __future__ import annotations

import logging
import secrets
from datetime import UTC, datetime

from bot.domain.clock import Clock
from bot.domain.identities import ScopeRef
from bot.persistence import Departure, InstallRepository
from bot.services.scheduler import Duty

log = logging.getLogger(__name__)

DAY = 86400.0
GRACE_DAYS = 30.0  # the default: a team that removed the app by mistake has a month
STATE_SECONDS = 600.0  # how long an install link stays valid (bolt's default too)


class Installs:
    def __init__(self, installs: InstallRepository, clock: Clock, grace_days: float = GRACE_DAYS):
        self._installs = installs
        self._clock = clock
        self.grace_days = grace_days
        self.forgetting = Duty("forgetting departed workspaces", self._due, self._forget)

    async def saved(self, workspace: ScopeRef, credentials: str) -> None:
        """Keep a workspace's (sealed) credentials; it may play from now on."""
        if await self._installs.save(workspace, credentials, self._clock.now()):
            _came_back(workspace)

    async def returned(self, workspace: ScopeRef) -> None:
        """The workspace uses the app again without an installation kept here (a
        single-token setup started with its new token): its data is kept."""
        if await self._installs.stay(workspace):
            _came_back(workspace)

    async def credentials(self, workspace: ScopeRef) -> str | None:
        return await self._installs.credentials(workspace)

    async def count(self, platform: str) -> int:
        return await self._installs.count(platform)

    async def issue_state(self, seconds: float = STATE_SECONDS) -> str:
        """A new install flow's state: random, kept until it is used or expires."""
        state = secrets.token_urlsafe(32)
        now = self._clock.now()
        await self._installs.issue_state(state, now + seconds, now)
        return state

    async def consume_state(self, state: str) -> bool:
        """Whether the state was issued here, is still valid and not used before."""
        return await self._installs.consume_state(state, self._clock.now())

    async def left(self, workspace: ScopeRef) -> Departure:
        """The workspace removed the app (or revoked its token)."""
        now = self._clock.now()
        departure = await self._installs.depart(workspace, now, now + self.grace_days * DAY)
        log.info(
            "%s workspace %s removed the app: its installation is deleted; its quiz data"
            " will be deleted on %s UTC",
            workspace.platform,
            workspace.workspace_id,
            _day(departure.forget_at),
        )
        return departure

    async def _due(self) -> list[Departure]:
        return await self._installs.due(self._clock.now())

    async def _forget(self, departure: Departure) -> bool:
        done = await self._installs.forget(departure, self._clock.now())
        if done is None:
            return False
        log.info(
            "deleted the quiz data of %s workspace %s (%d rows), %g days after it removed the app",
            departure.scope.platform,
            departure.scope.workspace_id,
            done.total,
            self.grace_days,
        )
        return True


def _came_back(workspace: ScopeRef) -> None:
    log.info(
        "%s workspace %s installed the app again: its data is kept",
        workspace.platform,
        workspace.workspace_id,
    )


def _day(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, UTC).strftime("%Y-%m-%d %H:%M")

"""Many workspaces (Add to Slack): bolt's installation and OAuth-state stores over
quizbot's own store (either backend), the authorize step that serves each request with
its workspace's bot token, and the Web API client for a workspace that channel posts
and user lookups use. A token is sealed (``bot.operations.sealing``) before it reaches
the database and never logged.

Installs are per workspace: the manifest leaves org-wide deployment off, and an org-wide
install is refused (quizbot's data is per workspace; an org install has no one team)."""

from __future__ import annotations

import json
import logging
from datetime import datetime
from typing import Any

from cachetools import TTLCache
from slack_bolt.async_app import AsyncBoltContext
from slack_bolt.authorization import AuthorizeResult
from slack_bolt.authorization.async_authorize import AsyncAuthorize
from slack_bolt.error import BoltError
from slack_sdk.oauth.installation_store import Bot, Installation
from slack_sdk.oauth.installation_store.async_installation_store import AsyncInstallationStore
from slack_sdk.oauth.state_store.async_state_store import AsyncOAuthStateStore
from slack_sdk.web.async_client import AsyncWebClient

from bot.domain.identities import ScopeRef
from bot.operations.sealing import Sealer, SealError
from bot.services.installs import Installs

from .retries import PLATFORM

log = logging.getLogger(__name__)

# Seconds a workspace's installation is reused from memory: another process's uninstall
# or reinstall shows within this time (its own show at once).
CACHE_SECONDS = 60.0


def _scope(team_id: str) -> ScopeRef:
    return ScopeRef(PLATFORM, team_id)


def _timestamp(value: object) -> float:
    if isinstance(value, datetime):
        return value.timestamp()
    raise TypeError(f"{type(value).__name__} is not JSON")


def dump(installation: Installation) -> str:
    return json.dumps(installation.to_dict(), default=_timestamp, sort_keys=True)


def load(text: str) -> Installation:
    fields: dict[str, Any] = json.loads(text)
    return Installation(**fields)


class SlackInstallations(AsyncInstallationStore):
    """bolt's installation store (bot installs only), in quizbot's store. Removal is
    the core's (``Installs.left``, from the Removals middleware), not bolt's own
    revocation listeners."""

    def __init__(self, installs: Installs, sealer: Sealer):
        self._installs = installs
        self._sealer = sealer
        self._cache: TTLCache[str, Installation | None] = TTLCache(10_000, CACHE_SECONDS)

    @property
    def logger(self) -> logging.Logger:
        return log

    async def async_save(self, installation: Installation) -> None:
        team = installation.team_id
        if installation.is_enterprise_install or not team:
            # bolt answers with its failure page ("storage_error"), status 500.
            raise BoltError("an org-wide install: quizbot is installed per workspace")
        await self._installs.saved(_scope(team), self._sealer.seal(dump(installation)))
        self._cache.pop(team, None)
        log.info("Slack workspace %s installed the app (scopes %s)", team, installation.bot_scopes)

    async def installation(self, team_id: str) -> Installation | None:
        if team_id in self._cache:
            return self._cache[team_id]
        sealed = await self._installs.credentials(_scope(team_id))
        if sealed is None:  # not kept: an install in another process shows at once
            return None
        found = None
        try:
            found = load(self._sealer.open(sealed))
        except SealError:  # kept as None: said once a minute, not at every request
            log.warning(
                "the stored installation of Slack workspace %s does not open with"
                " QUIZBOT_TOKEN_KEY (was the key changed?): keep the old key after the"
                " new one in QUIZBOT_TOKEN_KEY, or install the app there again",
                team_id,
            )
        if found is not None and found.team_id != team_id:
            # The team is sealed with the token: a row moved to another workspace (by a
            # writer to the database without the key) never serves that workspace.
            log.warning(
                "the stored installation of Slack workspace %s was sealed for another"
                " workspace: refused (install the app there again)",
                team_id,
            )
            found = None
        self._cache[team_id] = found
        return found

    async def async_find_installation(
        self,
        *,
        enterprise_id: str | None,
        team_id: str | None,
        user_id: str | None = None,
        is_enterprise_install: bool | None = False,
    ) -> Installation | None:
        # Only bot installs are kept: there is no installation of a user's own token.
        if not team_id or user_id is not None:
            return None
        return await self.installation(team_id)

    async def async_find_bot(
        self,
        *,
        enterprise_id: str | None,
        team_id: str | None,
        is_enterprise_install: bool | None = False,
    ) -> Bot | None:
        found = await self.installation(team_id) if team_id else None
        return found.to_bot() if found is not None and found.bot_token else None

    def drop(self, team_id: str) -> None:
        """Forget the workspace's cached installation (it removed the app)."""
        self._cache.pop(team_id, None)


class StoredStates(AsyncOAuthStateStore):
    """The install flow's states, one-time, in quizbot's store: any of several processes
    behind one URL can finish an install another one started."""

    def __init__(self, installs: Installs):
        self._installs = installs

    @property
    def logger(self) -> logging.Logger:
        return log

    async def async_issue(self, *args: object, **kwargs: object) -> str:
        return await self._installs.issue_state()

    async def async_consume(self, state: str) -> bool:
        if not isinstance(state, str) or not state:
            return False
        return await self._installs.consume_state(state)


class StoredAuthorize(AsyncAuthorize):
    """Each request's bot token, from its workspace's installation. bolt's own authorize
    would call auth.test before every request (its result cache is off in the OAuth
    settings): a Web API round trip before each click's reply. What auth.test says is
    in the installation already."""

    def __init__(self, installations: SlackInstallations):
        self._installations = installations

    async def __call__(
        self,
        *,
        context: AsyncBoltContext,
        enterprise_id: str | None,
        team_id: str | None,
        user_id: str | None,
        actor_enterprise_id: str | None = None,
        actor_team_id: str | None = None,
        actor_user_id: str | None = None,
    ) -> AuthorizeResult | None:
        bot = await self._installations.async_find_bot(enterprise_id=enterprise_id, team_id=team_id)
        if bot is None:  # bolt logs it and tells the member to install the app
            return None
        return AuthorizeResult(
            enterprise_id=enterprise_id,
            team_id=team_id,
            bot_user_id=bot.bot_user_id,
            bot_id=bot.bot_id,
            bot_token=bot.bot_token,
            bot_scopes=bot.bot_scopes,
            user_id=user_id,
        )


class Clients:
    """The Web API client to call a workspace with: the app's own in single-token mode;
    with Add to Slack, one with that workspace's bot token (None where it is not
    installed)."""

    def __init__(self, base: AsyncWebClient, installations: SlackInstallations | None = None):
        self._base = base
        self.installations = installations

    def drop(self, team_id: str) -> None:
        """The workspace removed the app: no more calls with its cached token."""
        if self.installations is not None:
            self.installations.drop(team_id)

    async def of(self, team_id: str) -> AsyncWebClient | None:
        if self.installations is None:
            return self._base
        found = await self.installations.installation(team_id)
        if found is None or not found.bot_token:
            return None
        base = self._base
        return AsyncWebClient(
            token=found.bot_token,
            base_url=base.base_url,
            timeout=base.timeout,
            retry_handlers=list(base.retry_handlers),
            logger=base.logger,
        )

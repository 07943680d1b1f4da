"""A player's own settings and data: the language they chose, and deleting what the bot
keeps of them in a workspace."""

from __future__ import annotations

import logging

from bot.domain.identities import PlayerRef
from bot.persistence import ForgetRepository, RunRepository
from bot.services.channel import notice
from bot.services.requests import Context
from bot.ui import i18n
from bot.ui.views import Notice

log = logging.getLogger(__name__)


class Players:
    def __init__(self, runs: RunRepository, forget: ForgetRepository, default_locale: str):
        self._runs = runs
        self._forget = forget
        self._default_locale = default_locale

    async def locale(self, player: PlayerRef, platform_locale: str | None = None) -> str:
        """The player's language: their own setting, else their client's, else the
        default (English unless the settings say otherwise)."""
        chosen = await self._runs.player_locale(player.platform, player.id)
        return i18n.choose(chosen, platform_locale, default=self._default_locale)

    async def set_locale(self, player: PlayerRef, tag: str, workspace_id: str = "") -> Notice:
        """``workspace_id``: where the player set it (their name is kept for it)."""
        locale = i18n.supported(tag)
        if locale is None:
            current = await self.locale(player)
            choices = ", ".join(f"{code} ({name})" for code, name in i18n.LOCALE_NAMES.items())
            return notice(current, "lang_unknown", tag=tag, choices=choices)
        await self._runs.set_player_locale(player, locale, workspace_id)
        return notice(locale, "lang_set")

    async def forget(self, context: Context) -> Notice:
        """Delete the context's data in this workspace (they confirmed with the button)."""
        player, workspace = context.player, context.scope.workspace_id
        done = await self._forget.player(player.platform, player.id, workspace)
        rows = sum(forgotten.total for forgotten in done.values())
        if not rows:
            return notice(context.locale, "forget_nothing")
        log.info("a player's data was deleted at their request: %d rows", rows)
        return notice(context.locale, "forget_done", rows=rows)

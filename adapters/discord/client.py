"""The Discord runtime: a discord.py client with the quiz's application commands, every
button and form answered by its custom_id alone (so buttons keep working after a
restart), the publisher through which the core posts channel play, and a command sync
that only calls Discord when the commands changed."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
import yarl
from discord import app_commands

from bot.services.engine import Engine

from .commands import CatalogTranslator, build_tree
from .handlers import ACK_BUDGET, Handlers
from .outage import LIBRARY_LOGGER, OutageFilter
from .parse import PLATFORM
from .publisher import DiscordPublisher
from .settings import DiscordSettings, SettingsError

log = logging.getLogger(__name__)

COMMANDS_HASH = "discord.commands_hash"


def use_endpoints(settings: DiscordSettings) -> None:
    """Point discord.py at another REST API and gateway (a rate-limit proxy, a test fake).
    discord.py reads both from class attributes, so this applies to the whole process."""
    if settings.api_base_url:
        discord.http.Route.BASE = settings.api_base_url
    if settings.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)


@dataclass(frozen=True)
class SyncResult:
    synced: bool  # False: the commands were unchanged, Discord was not called
    commands: int
    guild_id: int | None


class QuizClient(discord.Client):
    def __init__(
        self,
        engine: Engine,
        settings: DiscordSettings,
        *,
        auto_sync: bool = True,
        ack_budget: float = ACK_BUDGET,
        commands: Callable[[discord.Client, Handlers], app_commands.CommandTree] = build_tree,
    ) -> None:
        # quizbot has no voice: spare the operator warnings about missing voice libraries.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        # Interactions need no intents; the (unprivileged) guilds intent keeps discord.py's
        # state consistent. Nothing here needs the guild caches filled before on_ready.
        sharding: dict[str, Any] = {}
        if isinstance(self, discord.AutoShardedClient):
            sharding = {"shard_ids": settings.shard_ids, "shard_count": settings.shard_count}
        super().__init__(
            intents=discord.Intents(guilds=True),
            allowed_mentions=discord.AllowedMentions.none(),
            guild_ready_timeout=0,
            **sharding,
        )
        self.engine = engine
        self.settings = settings
        self.auto_sync = auto_sync
        self.handlers = Handlers(engine, ack_budget, settings.admin_role)
        self.publisher = DiscordPublisher(self)
        self.tree = commands(self, self.handlers)
        self._guild = discord.Object(settings.guild_id) if settings.guild_id else None
        self._online = False  # connected to the gateway, as far as we know
        self._down_since: float | None = None  # monotonic time the outage began
        self._outages = OutageFilter()
        self._unreadable: set[str] = set()  # gateway events already warned about
        parsers = self._connection.parsers  # this client's own, not discord.py's classes
        for event, parse in list(parsers.items()):
            parsers[event] = self._guarded(event, parse)
        engine.health.set_platform(PLATFORM, False)  # not ready until connected
        if self._guild:
            self.tree.copy_global_to(guild=self._guild)

    def _guarded(self, event: str, parse: Callable[[Any], None]) -> Callable[[Any], None]:
        """A gateway event this discord.py cannot read (Discord changes payloads without
        notice) is dropped with one WARNING per event type, instead of ending the client
        with a traceback (and a service restarting into the same event, in a loop)."""

        def parse_or_drop(data: Any) -> None:
            try:
                parse(data)
            except Exception as exc:
                level = logging.DEBUG if event in self._unreadable else logging.WARNING
                self._unreadable.add(event)
                log.log(
                    level,
                    "dropped a %s event this discord.py cannot read (%s: %s)",
                    event,
                    type(exc).__name__,
                    exc,
                )

        return parse_or_drop

    async def start(self, token: str, *, reconnect: bool = True) -> None:
        """Log in and stay connected. Discord unreachable at start (API or gateway) is a
        SettingsError: one line for the operator, not a reconnect loop."""
        library = logging.getLogger(LIBRARY_LOGGER)
        failed = self._outages.arm()
        library.addFilter(self._outages)
        try:
            try:
                await self.login(token)
            except (aiohttp.ClientError, OSError, TimeoutError) as exc:
                raise SettingsError(
                    self._unreachable("API", discord.http.Route.BASE, exc)
                ) from None
            connecting = asyncio.ensure_future(self.connect(reconnect=reconnect))
            waiting: set[asyncio.Future[Any]] = {connecting, failed}
            await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
            if failed.done() and not self._outages.connected_once:
                connecting.cancel()
                gateway = self.settings.gateway_url or "wss://gateway.discord.gg"
                raise SettingsError(self._unreachable("gateway", gateway, failed.result()))
            await connecting
        finally:
            library.removeFilter(self._outages)

    @staticmethod
    def _unreachable(what: str, url: str, exc: BaseException) -> str:
        reason = str(exc) or type(exc).__name__
        return f"cannot reach Discord's {what} at {url} ({reason}): check the network"

    async def setup_hook(self) -> None:
        await self.tree.set_translator(CatalogTranslator())
        # Logged in from here on: the core's scheduler may post in Discord channels.
        self.engine.publishers.register("discord", self.publisher)
        if self.auto_sync:
            try:
                await self.sync_commands()
            except discord.HTTPException as exc:
                log.warning("could not sync the slash commands (the bot still runs): %s", exc)

    async def close(self) -> None:
        # A closed client cannot post: unless another client took over, stop the
        # scheduler from trying (it keeps the work due until a publisher is back).
        if self.engine.publishers.unregister("discord", self.publisher):
            self.engine.health.set_platform(PLATFORM, False)
        self._online = False
        await super().close()

    async def on_ready(self) -> None:
        if self._back():
            log.info("connected to Discord as %s (id %s)", self.user, self.user and self.user.id)

    async def on_resumed(self) -> None:
        if self._back():
            log.info("resumed the Discord session")

    def _back(self) -> bool:
        """Online again; True when this ends no outage (an outage ends with its own line)."""
        self._online = self._outages.connected_once = True
        self.engine.health.set_platform(PLATFORM, True)
        if self._down_since is None:
            return True
        log.info("Discord is back after %.0f s", time.monotonic() - self._down_since)
        self._down_since = None
        return False

    async def on_disconnect(self) -> None:
        # discord.py reconnects by itself and dispatches this on every failed attempt
        # too: one warning per outage, from connected to not.
        if self.is_closed():
            return
        self.engine.health.set_platform(PLATFORM, False)
        if self._online:
            self._online = False
            self._down_since = time.monotonic()
            log.warning("lost the connection to Discord's gateway: reconnecting")

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        # The one entry of buttons and forms: discord.py tracks no view or modal of this
        # bot (see deliver and forms), so each is answered here, by its custom_id alone,
        # a forged one too (never "This interaction failed").
        if interaction.type is discord.InteractionType.component:
            await self.handlers.click(interaction)
        elif interaction.type is discord.InteractionType.modal_submit:
            await self.handlers.submitted(interaction)

    async def commands_payload(self) -> list[dict[str, Any]]:
        """The commands exactly as a sync sends them, translations included."""
        translator = self.tree.translator
        assert translator is not None  # set in setup_hook
        return [
            await command.get_translated_payload(self.tree, translator)
            for command in self.tree.get_commands(guild=self._guild)
        ]

    async def sync_commands(self, force: bool = False) -> SyncResult:
        """Upload the commands when they differ from the last upload (Discord rate-limits
        syncs), or always with ``force``."""
        payload = await self.commands_payload()
        digest = hashlib.sha256(
            json.dumps(
                {"app": self.application_id, "guild": self.settings.guild_id, "commands": payload},
                sort_keys=True,
                ensure_ascii=False,
            ).encode()
        ).hexdigest()
        if not force and await self.engine.remembered(COMMANDS_HASH) == digest:
            log.info("slash commands unchanged: not syncing")
            return SyncResult(False, len(payload), self.settings.guild_id)
        synced = await self.tree.sync(guild=self._guild)
        await self.engine.remember(COMMANDS_HASH, digest)
        where = f"server {self.settings.guild_id}" if self._guild else "all servers"
        log.info("synced %d slash commands to %s", len(synced), where)
        return SyncResult(True, len(synced), self.settings.guild_id)


class ShardedQuizClient(QuizClient, discord.AutoShardedClient):
    """The same bot over a range of the shard space (``--shards A-B --shard-count N``):
    discord.py's sharded client runs one gateway connection per shard in this process.
    Discord delivers direct-message interactions to shard 0 only."""


def client_class(settings: DiscordSettings) -> type[QuizClient]:
    return ShardedQuizClient if settings.shard_count is not None else QuizClient

"""What a test does to the fake Discord: a user's slash command, click, form submission or
autocomplete, dispatched on the gateway as Discord does, waited on until the bot has
answered. An interaction comes from the bot's install in the server (or its DMs), or,
with ``install="user"``, from a player's own install: in a server that did not add the
bot (``STRANGER_GUILD_ID``) or in a private channel (a DM with a friend, the bot not in
it)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Unpack

from . import payloads
from .outcome import Outcome
from .server import DiscordServer
from .world import ALICE, GUILD_ID, FakeFile, FakeUser

OPTION_TYPES = {str: 3, int: 4, float: 10, bool: 5, FakeFile: 11}  # Discord's option types


class FakeDiscord(DiscordServer):
    def interaction(
        self, kind: int, data: dict[str, Any], **origin: Unpack[payloads.Origin]
    ) -> dict[str, Any]:
        """An INTERACTION_CREATE payload (see ``payloads.interaction``); with a user
        install the bot is not in the channel."""
        payload = payloads.interaction(self.snowflake(), kind, data, self.app_permissions, **origin)
        if origin.get("install") == "user":
            self.outside.add(payload["channel_id"])
        return payload

    async def interact(self, payload: dict[str, Any], timeout: float = 10.0) -> Outcome:
        """Dispatch an interaction and wait until the bot has answered it completely."""
        pending = self.interactions.expect(payload)
        await self.dispatch("INTERACTION_CREATE", payload)
        try:
            await asyncio.wait_for(pending.done.wait(), timeout)
        except TimeoutError:
            kind = payload["type"]
            raise AssertionError(f"the bot did not answer interaction type {kind}") from None
        assert pending.outcome is not None
        return pending.outcome

    async def settled(self, done: Callable[[], bool], timeout: float = 10.0) -> None:
        """Wait until the bot's asynchronous work has reached a state."""
        async with asyncio.timeout(timeout):
            while not done():
                await asyncio.sleep(0.01)

    def command_id(self, name: str) -> str:
        for commands in self.commands.values():
            for command in commands:
                if command["name"] == name:
                    return command["id"]
        return self.snowflake()  # an unsynced command: Discord would not send it, but tests may

    def _declared(self, command: str, subcommand: str | None) -> list[dict[str, Any]]:
        """The options the synced command (or its subcommand) declares."""
        for commands in self.commands.values():
            for synced in commands:
                if synced["name"] != command:
                    continue
                options = synced.get("options", [])
                if subcommand is None:
                    return list(options)
                inner: dict[str, Any] = next((o for o in options if o["name"] == subcommand), {})
                return list(inner.get("options", []))
        return []

    def _option(
        self,
        declared: list[dict[str, Any]],
        name: str,
        value: str | int | float | FakeFile,
        resolved: dict[str, Any],
    ) -> dict[str, Any]:
        """An option as Discord sends it: with the type the synced command declares (so a
        number typed by hand arrives as a number), else the value's own; a file becomes an
        attachment id, the attachment itself among the resolved data."""
        kind = next((o["type"] for o in declared if o["name"] == name), OPTION_TYPES[type(value)])
        if isinstance(value, FakeFile):
            attachment = self.attachment(value)
            resolved[attachment["id"]] = attachment
            return {"name": name, "type": kind, "value": attachment["id"]}
        cast: dict[int, Callable[[Any], Any]] = {4: int, 10: float, 5: bool}
        return {"name": name, "type": kind, "value": cast.get(kind, str)(value)}

    async def slash(
        self,
        name: str,
        /,
        subcommand: str | None = None,
        *,
        user: FakeUser = ALICE,
        locale: str = "en-US",
        guild: bool = True,
        guild_id: str = GUILD_ID,
        install: str = "guild",
        **options: str | int | float | FakeFile,
    ) -> Outcome:
        """A slash command (``slash("quiz-bank", "upload", file=FakeFile(...))`` for a
        subcommand)."""
        declared = self._declared(name, subcommand)
        resolved: dict[str, Any] = {}
        given = [self._option(declared, k, v, resolved) for k, v in options.items()]
        if subcommand is not None:
            given = [{"name": subcommand, "type": 1, "options": given}]
        data: dict[str, Any] = {
            "id": self.command_id(name),
            "name": name,
            "type": 1,
            "options": given,
        }
        if resolved:
            data["resolved"] = {"attachments": resolved}
        if guild:
            data["guild_id"] = guild_id
        payload = self.interaction(
            2, data, user=user, locale=locale, guild=guild, guild_id=guild_id, install=install
        )
        return await self.interact(payload)

    async def submit(
        self,
        modal: dict[str, Any],
        values: dict[str, str],
        *,
        user: FakeUser = ALICE,
        locale: str = "en-US",
        guild_id: str = GUILD_ID,
        message: str | None = None,
    ) -> Outcome:
        """Fill in and submit a modal the bot opened (a MODAL_SUBMIT interaction, type 5),
        as the Discord client does: every input in its row, typed or left empty. The
        client enforces required inputs and lengths, so a test may not break them.
        ``message``: the message whose button opened the modal (Discord sends it along,
        and the bot may then update it)."""
        rows = []
        for row in modal["components"]:
            [field] = row["components"]
            value = values.get(field["custom_id"], "")
            if field.get("required", True) and not value:
                raise AssertionError(f"the client requires {field['custom_id']!r}")
            if len(value) > field.get("max_length", 4000):
                raise AssertionError(f"the client stops {field['custom_id']!r} at its max_length")
            rows.append(
                {
                    "type": 1,
                    "components": [{"type": 4, "custom_id": field["custom_id"], "value": value}],
                }
            )
        data = {"custom_id": modal["custom_id"], "components": rows}
        clicked = payloads.snapshot(self.messages[message]) if message else None
        return await self.interact(
            self.interaction(5, data, user=user, locale=locale, guild_id=guild_id, message=clicked)
        )

    async def autocomplete(
        self,
        name: str,
        option: str,
        typed: str,
        *,
        subcommand: str | None = None,
        user: FakeUser = ALICE,
        locale: str = "en-US",
    ) -> list[dict[str, Any]]:
        options: list[dict[str, Any]] = [
            {"name": option, "type": 3, "value": typed, "focused": True}
        ]
        if subcommand is not None:
            options = [{"name": subcommand, "type": 1, "options": options}]
        data = {
            "id": self.command_id(name),
            "name": name,
            "type": 1,
            "guild_id": GUILD_ID,
            "options": options,
        }
        outcome = await self.interact(self.interaction(4, data, user=user, locale=locale))
        assert outcome.choices is not None
        return outcome.choices

    async def click(
        self,
        message_id: str,
        custom_id: str,
        *,
        user: FakeUser = ALICE,
        locale: str = "en-US",
        guild: bool = True,
        timeout: float = 10.0,
        component_type: int = 2,
        guild_id: str = GUILD_ID,
        install: str = "guild",
    ) -> Outcome:
        """A click on a button of a message (the custom_id need not be on it, nor the
        component be a button: forgeries)."""
        data = {"custom_id": custom_id, "component_type": component_type}
        payload = self.interaction(
            3,
            data,
            user=user,
            locale=locale,
            guild=guild,
            message=payloads.snapshot(self.messages[message_id]),
            guild_id=guild_id,
            install=install,
        )
        return await self.interact(payload, timeout)

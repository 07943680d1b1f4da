"""Autocomplete: topics by id, alias or title in the player's language; IANA timezones."""

from __future__ import annotations

import logging
import zoneinfo
from functools import cache

import discord
from discord import app_commands

from bot.services.engine import Engine
from bot.services.errors import StoreError
from bot.ui import i18n

from .parse import player_of, scope_of
from .render import fit

log = logging.getLogger(__name__)

CHOICE_LIMIT = 100  # autocomplete choice name and value
MAX_CHOICES = 25


@cache
def _timezones() -> tuple[str, ...]:
    return tuple(sorted(zoneinfo.available_timezones()))


def timezone_choices(current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete over the IANA timezone names, e.g. "kolk" → Asia/Kolkata."""
    typed = current.strip().casefold().replace(" ", "_")
    found = [zone for zone in _timezones() if typed in zone.casefold()]
    return [app_commands.Choice(name=zone, value=zone) for zone in found[:MAX_CHOICES]]


async def topic_choices(
    engine: Engine, interaction: discord.Interaction, current: str, *, listed: bool = False
) -> list[app_commands.Choice[str]]:
    """Autocomplete over bank ids, aliases and titles, titled in the player's language.
    With ``listed``, the option is a comma-separated list: the last topic is completed
    and the ones before it are kept."""
    try:
        locale = await engine.locale_for(player_of(interaction), str(interaction.locale))
        catalog = await engine.library.of(scope_of(interaction))
    except StoreError as exc:
        log.warning("autocomplete without the player's language or banks: %s", exc)
        locale, catalog = i18n.choose(str(interaction.locale)), engine.catalog
    head, _, typed = current.rpartition(",") if listed else ("", "", current)
    prefix = "".join(f"{part.strip()}," for part in head.split(",") if part.strip())
    return [
        app_commands.Choice(
            name=fit(f"{prefix}{bank.text(bank.title, locale)} ({bank.id})", CHOICE_LIMIT),
            value=prefix + bank.id,
        )
        for bank in catalog.search(typed, locale, MAX_CHOICES)
        if len(prefix + bank.id) <= CHOICE_LIMIT
    ]

"""Who a Slack user is: display name, client locale and whether they administer the
workspace, from ``users.info``.

Slack payloads carry none of these, and users.info is rate limited, so answers are kept
in a small cache whose entries expire (names, languages and roles do change)."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass

import aiohttp
from cachetools import TTLCache
from slack_sdk.errors import SlackApiError

from .installations import Clients
from .retries import api_error

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Person:
    name: str
    locale: str | None  # Slack's tag, e.g. "hi-IN"; None when unknown
    is_admin: bool = False  # a workspace admin or owner (False when users.info failed)


class People:
    def __init__(self, clients: Clients, cache: TTLCache[tuple[str, str], Person] | None = None):
        self._clients = clients
        # An hour: a new name, language or admin role shows within that time.
        self._cache = TTLCache(maxsize=10_000, ttl=3600.0) if cache is None else cache

    async def lookup(self, team_id: str, user_id: str, fallback_name: str) -> Person:
        """Name, locale and role of a user; on any failure, the fallback name, no locale
        (the player then gets their saved language or English) and no admin rights."""
        key = (team_id, user_id)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        client = await self._clients.of(team_id)
        if client is None:  # not installed there: authorize has refused the request already
            return Person(fallback_name, None)
        try:
            response = await client.users_info(user=user_id, include_locale=True)
        except SlackApiError as exc:
            log.warning("users.info failed for %s: %s", user_id, api_error(exc))
            return Person(fallback_name, None)
        except (aiohttp.ClientError, TimeoutError) as exc:
            log.warning("users.info failed for %s: %s", user_id, type(exc).__name__)
            return Person(fallback_name, None)
        person = _person(response.get("user"), fallback_name)
        self._cache[key] = person
        return person


def _person(user: object, fallback_name: str) -> Person:
    if not isinstance(user, Mapping):
        return Person(fallback_name, None)
    found = user.get("profile")
    profile: Mapping[str, object] = found if isinstance(found, Mapping) else {}
    names = (profile.get("display_name"), profile.get("real_name"), user.get("real_name"))
    name = next((n for n in names if isinstance(n, str) and n.strip()), fallback_name)
    locale = user.get("locale")
    admin = user.get("is_admin") is True or user.get("is_owner") is True
    return Person(name.strip(), locale if isinstance(locale, str) and locale else None, admin)

"""Who a Slack user is: users.info through the real slack_sdk client, cached."""

from __future__ import annotations

from cachetools import TTLCache
from slack_sdk.web.async_client import AsyncWebClient

from adapters.slack.installations import Clients
from adapters.slack.people import People, Person
from fakes.slack import FakeSlack


async def test_who_someone_is_is_asked_again_after_the_cache_expires(fake: FakeSlack) -> None:
    now = [0.0]
    cache: TTLCache[tuple[str, str], Person] = TTLCache(maxsize=2, ttl=60, timer=lambda: now[0])
    people = People(Clients(AsyncWebClient(token="xoxb-test", base_url=fake.api_url)), cache)
    for _ in range(3):
        assert await people.lookup("T1", "UHI", "asha") == Person("आशा", "hi-IN")
    assert len(fake.calls_to("users.info")) == 1
    now[0] = 61
    await people.lookup("T1", "UHI", "asha")
    assert len(fake.calls_to("users.info")) == 2
    for user in ("U2", "UADMIN", "UOWNER"):  # more people than it holds: bounded
        await people.lookup("T1", user, user)
    assert len(cache) == 2


async def test_lookup_uses_users_info_once_and_falls_back(fake: FakeSlack) -> None:
    people = People(Clients(AsyncWebClient(token="xoxb-test", base_url=fake.api_url)))
    assert await people.lookup("T1", "UHI", "asha") == Person("आशा", "hi-IN")
    assert await people.lookup("T1", "U2", "grace") == Person("Grace Hopper", "en-GB")
    assert await people.lookup("T1", "UHI", "asha") == Person("आशा", "hi-IN")
    assert len(fake.calls_to("users.info")) == 2
    # Unknown to Slack (or no users:read scope): the handle, and no locale.
    assert await people.lookup("T1", "U404", "nobody") == Person("nobody", None)
    bad_token = People(Clients(AsyncWebClient(token="xapp-wrong", base_url=fake.api_url)))
    assert await bad_token.lookup("T1", "U1", "ada") == Person("ada", None)


async def test_admins_and_owners_come_from_users_info(fake: FakeSlack) -> None:
    people = People(Clients(AsyncWebClient(token="xoxb-test", base_url=fake.api_url)))
    assert (await people.lookup("T1", "UADMIN", "boss")).is_admin
    assert (await people.lookup("T1", "UOWNER", "owner")).is_admin
    assert not (await people.lookup("T1", "U1", "ada")).is_admin
    assert not (await people.lookup("T1", "U404", "nobody")).is_admin  # unknown: no rights

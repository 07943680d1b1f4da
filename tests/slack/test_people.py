"""Who a Slack user is: users.info through the real slack_sdk client, cached."""

from __future__ import annotations

from slack_sdk.web.async_client import AsyncWebClient

from adapters.slack.people import People, Person, TtlCache

from .fake_slack import FakeSlack


def test_the_cache_expires_and_stays_bounded() -> None:
    now = [0.0]
    cache = TtlCache(size=2, ttl=60, clock=lambda: now[0])
    cache.put(("T", "a"), Person("A", "hi"))
    cache.put(("T", "b"), Person("B", None))
    assert cache.get(("T", "a")) == Person("A", "hi")  # now the most recently used
    cache.put(("T", "c"), Person("C", None))
    assert cache.get(("T", "b")) is None  # the least recently used went first
    now[0] = 61
    assert cache.get(("T", "a")) is None and cache.get(("T", "c")) is None


async def test_lookup_uses_users_info_once_and_falls_back(fake: FakeSlack) -> None:
    people = People(AsyncWebClient(token="xoxb-test", base_url=fake.api_url))
    assert await people.lookup("T1", "UHI", "asha") == Person("आशा", "hi-IN")
    assert await people.lookup("T1", "U2", "grace") == Person("Grace Hopper", "en-GB")
    assert await people.lookup("T1", "UHI", "asha") == Person("आशा", "hi-IN")
    assert len(fake.calls_to("users.info")) == 2
    # Unknown to Slack (or no users:read scope): the handle, and no locale.
    assert await people.lookup("T1", "U404", "nobody") == Person("nobody", None)
    bad_token = People(AsyncWebClient(token="xapp-wrong", base_url=fake.api_url))
    assert await bad_token.lookup("T1", "U1", "ada") == Person("ada", None)


async def test_admins_and_owners_come_from_users_info(fake: FakeSlack) -> None:
    people = People(AsyncWebClient(token="xoxb-test", base_url=fake.api_url))
    assert (await people.lookup("T1", "UADMIN", "boss")).is_admin
    assert (await people.lookup("T1", "UOWNER", "owner")).is_admin
    assert not (await people.lookup("T1", "U1", "ada")).is_admin
    assert not (await people.lookup("T1", "U404", "nobody")).is_admin  # unknown: no rights

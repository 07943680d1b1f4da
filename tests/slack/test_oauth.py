"""Add to Slack: the real bolt app serving its OAuth flow at /slack/install and
/slack/oauth_redirect against the fake Slack's authorize page and oauth.v2.access, two
workspaces playing with their own tokens (the fake refuses a token of the wrong team),
uninstalling and token revocation, and forged or replayed states."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlsplit

import aiohttp
import pytest

from adapters.slack import runtime
from adapters.slack.settings import SlackSettings
from adapters.slack.throttle import Throttle
from bot.content.banks import SHIPPED_BANKS, Catalog, load_catalog
from bot.persistence import Store
from bot.services.engine import Engine
from fakes.slack import CLIENT_ID, CLIENT_SECRET, FakeSlack, SlackDriver, User, buttons, shown_text

from ..support.channel import FakeClock
from .support import SECRET, USERS, answer_key, right_letter, start_http
from .test_http import play_through

TOKEN_KEY = "a-token-key-of-at-least-32-characters"
DAY = 86400.0
KEY = answer_key(load_catalog([SHIPPED_BANKS]))


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(1_800_000_000.0)


@pytest.fixture
async def two_teams() -> AsyncIterator[FakeSlack]:
    """The fake Slack with a second workspace, T2: its member UT2 and channel C2."""
    slack = FakeSlack({**USERS, "UT2": User("en-US", "Bea")})
    slack.homes.update({"UT2": "T2", "C2": "T2"})
    slack.team_names["T2"] = "Second team"
    await slack.start()
    yield slack
    await slack.stop()


@pytest.fixture
async def oauth_engine(catalog: Catalog, store: Store, clock: FakeClock) -> Engine:
    return Engine(catalog, store, clock=clock)


def add_to_slack(fake: FakeSlack, token_key: str = TOKEN_KEY) -> SlackSettings:
    """HTTP mode with Add to Slack, against the fake's Web API and authorize page."""
    return SlackSettings(
        signing_secret=SECRET,
        client_id=CLIENT_ID,
        client_secret=CLIENT_SECRET,
        token_key=token_key,
        http=True,
        api_url=fake.api_url,
        authorize_url=fake.authorize_url,
    )


@pytest.fixture
async def app(oauth_engine: Engine, two_teams: FakeSlack) -> AsyncIterator[str]:
    """The app in HTTP mode with Add to Slack; returns its events URL."""
    runner, url = await start_http(oauth_engine, two_teams, add_to_slack(two_teams))
    two_teams.redirect_url = url.replace("/slack/events", "/slack/oauth_redirect")
    yield url
    await runner.cleanup()


def installations(store: Store) -> list[tuple[str, str]]:
    with sqlite3.connect(store.path) as db:
        return db.execute(
            "SELECT workspace_id, credentials FROM installations ORDER BY workspace_id"
        ).fetchall()


def rows(store: Store, sql: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(store.path) as db:
        return db.execute(sql).fetchall()


async def first_answer(slack: SlackDriver, user: str) -> str:
    """Start the offloading quiz and answer its first question right; the feedback as
    the player reads it."""
    question = await slack.command("offloading", user)
    assert "Question 1 of 17" in shown_text(question)
    letter = right_letter(question, KEY)
    return shown_text(await slack.click(buttons(question)[letter], user))


async def test_two_workspaces_install_and_play_with_their_own_tokens(
    app: str, two_teams: FakeSlack, store: Store
) -> None:
    one = SlackDriver(two_teams, app, SECRET)
    two = SlackDriver(two_teams, app, SECRET, team="T2", channel="C2")

    for team in ("T1", "T2"):
        status, page = await one.install(team)
        assert status == 200 and "Thank you!" in page
    # The app asked for the manifest's bot scopes and no user scopes.
    asked = two_teams.authorize_requests[0]
    assert asked["scope"] == "commands,chat:write,users:read,files:read"
    assert asked.get("user_scope", "") == ""
    assert [team for team, _ in installations(store)] == ["T1", "T2"]
    # Sealed at rest: no token in the database file.
    assert all("xoxb-" not in sealed for _, sealed in installations(store))
    assert b"xoxb-" not in Path(store.path).read_bytes()

    # Both play a whole quiz.
    for slack, user in ((one, "U1"), (two, "UT2")):
        first = await slack.command("offloading", user)
        feedback = await play_through(slack, two_teams, first, KEY, user)
        assert len(feedback) == 17
        assert "You got 9 of 17 right" in shown_text(feedback[-1])

    # No auth.test per request: only the install flow asks it, once per workspace.
    assert [c.team for c in two_teams.calls_to("auth.test")] == ["T1", "T2"]
    # Each workspace's calls carried its own token (a wrong one is refused by the fake).
    assert [c.body["user"] for c in two_teams.calls_in("T2", "users.info")] == ["UT2"]
    assert [c.body["user"] for c in two_teams.calls_in("T1", "users.info")] == ["U1"]
    assert all(c.team for c in two_teams.calls_to("users.info"))
    # A channel post, made by the scheduler's side (no request to take a token from).
    started = await two.command("race offloading 2 30", "UT2")
    assert "race" in shown_text(started).lower()
    posts = two_teams.calls_in("T2", "chat.postMessage")
    assert [c.body["channel"] for c in posts] == ["C2"]
    assert two_teams.channel_posts("C2") and not two_teams.channel_posts("C1")

    board = shown_text(await two.command("leaderboard", "UT2"))
    assert "1. Bea — " in board and "9/17 right" in board and "Ada" not in board
    assert rows(store, "SELECT workspace_id, COUNT(*) FROM answers GROUP BY 1 ORDER BY 1") == [
        ("T1", 17),
        ("T2", 17),
    ]


async def test_uninstalling_removes_the_installation_then_the_data(
    app: str, two_teams: FakeSlack, store: Store, oauth_engine: Engine, clock: FakeClock
) -> None:
    one = SlackDriver(two_teams, app, SECRET)
    two = SlackDriver(two_teams, app, SECRET, team="T2", channel="C2")
    for team in ("T1", "T2"):
        await one.install(team)
    await first_answer(one, "U1")
    await first_answer(two, "UT2")

    two_teams.uninstall("T2")
    assert await two.event({"type": "app_uninstalled"}) == 200
    assert [team for team, _ in installations(store)] == ["T1"]
    assert rows(store, "SELECT workspace_id, forget_at - left_at FROM departures") == [
        ("T2", 30 * DAY)
    ]
    # The data stays for the grace period…
    assert rows(store, "SELECT COUNT(*) FROM answers WHERE workspace_id = 'T2'") == [(1,)]
    forgetting = oauth_engine.installs.forgetting
    clock.advance(30 * DAY - 60)
    assert await oauth_engine.scheduler.run(forgetting) == 0
    assert rows(store, "SELECT COUNT(*) FROM answers WHERE workspace_id = 'T2'") == [(1,)]
    # … and then goes, with everything else of that workspace; the other one keeps its.
    clock.advance(120)
    assert await oauth_engine.scheduler.run(forgetting) == 1
    assert rows(store, "SELECT workspace_id, COUNT(*) FROM answers GROUP BY 1") == [("T1", 1)]
    assert rows(store, "SELECT COUNT(*) FROM runs WHERE workspace_id = 'T2'") == [(0,)]
    assert rows(store, "SELECT COUNT(*) FROM departures") == [(0,)]
    assert await oauth_engine.scheduler.run(forgetting) == 0
    # Still installed in T1, which plays on with its token.
    assert "1. Ada — " in shown_text(await one.command("leaderboard", "U1"))
    assert two_teams.calls_in("T1", "users.info") and not two_teams.calls_in("", "users.info")


async def test_installing_again_within_the_grace_period_keeps_the_data(
    app: str, two_teams: FakeSlack, store: Store
) -> None:
    two = SlackDriver(two_teams, app, SECRET, team="T2", channel="C2")
    await two.install("T2")
    await first_answer(two, "UT2")
    two_teams.uninstall("T2")
    # Slack sends both when the app is removed: the second keeps the first date.
    assert await two.event({"type": "tokens_revoked", "tokens": {"bot": ["UQUIZBOTT2"]}}) == 200
    assert await two.event({"type": "app_uninstalled"}) == 200
    assert installations(store) == [] and len(rows(store, "SELECT * FROM departures")) == 1

    status, _ = await two.install("T2")
    assert status == 200
    assert [team for team, _ in installations(store)] == ["T2"]
    assert rows(store, "SELECT COUNT(*) FROM departures") == [(0,)]
    stats = shown_text(await two.command("stats", "UT2"))
    assert "1 seen" in stats  # the card from before is still there


async def test_a_revoked_user_token_changes_nothing(
    app: str, two_teams: FakeSlack, store: Store
) -> None:
    two = SlackDriver(two_teams, app, SECRET, team="T2", channel="C2")
    await two.install("T2")
    assert await two.event({"type": "tokens_revoked", "tokens": {"oauth": ["UT2"]}}) == 200
    assert [team for team, _ in installations(store)] == ["T2"]
    assert rows(store, "SELECT COUNT(*) FROM departures") == [(0,)]


async def test_a_workspace_that_has_not_installed_the_app_is_told_to(
    app: str, two_teams: FakeSlack, caplog: pytest.LogCaptureFixture
) -> None:
    two = SlackDriver(two_teams, app, SECRET, team="T2", channel="C2")
    reply = await two.command("offloading", "UT2")
    assert reply["text"] == (
        "quizbot is not installed in this workspace (any more): an admin can add it again"
        " from its Add to Slack page."
    )
    assert two_teams.calls_to("users.info") == []
    # bolt logs it as an error: Slack sends requests only from workspaces with the app,
    # so the installation is missing here (say, installed from the app's settings page
    # rather than through /slack/install).
    (logged,) = [r for r in caplog.records if r.levelname == "ERROR"]
    assert "AuthorizeResult" in logged.getMessage() and logged.name.startswith("slack_bolt")
    caplog.clear()


async def test_a_forged_replayed_or_expired_state_is_refused(
    app: str, two_teams: FakeSlack, store: Store, clock: FakeClock
) -> None:
    slack = SlackDriver(two_teams, app, SECRET)
    redirect, cookie = await slack.approve("T2")
    code = parse_qs(urlsplit(redirect).query)["code"][0]

    # A state the app never issued, with a cookie to match it.
    forged = f"{two_teams.redirect_url}?{urlencode({'code': code, 'state': 'forged'})}"
    status, page = await slack.finish_install(forged, "slack-app-oauth-state=forged")
    assert status == 401 and "invalid_state" in page
    # The right state from another browser (no cookie: a link sent to someone).
    status, page = await slack.finish_install(redirect)
    assert status == 400 and "invalid_browser" in page
    assert installations(store) == [] and two_teams.calls_to("oauth.v2.access") == []

    status, _ = await slack.finish_install(redirect, cookie)
    assert status == 200 and [team for team, _ in installations(store)] == ["T2"]
    # The same redirect again: the state was used.
    status, page = await slack.finish_install(redirect, cookie)
    assert status == 401 and "invalid_state" in page
    assert len(two_teams.calls_to("oauth.v2.access")) == 1

    # A state older than ten minutes.
    late, late_cookie = await slack.approve("T2")
    clock.advance(601)
    status, page = await slack.finish_install(late, late_cookie)
    assert status == 401 and "invalid_state" in page
    assert len(two_teams.calls_to("oauth.v2.access")) == 1


async def test_the_install_page_offers_add_to_slack(app: str, two_teams: FakeSlack) -> None:
    slack = SlackDriver(two_teams, app, SECRET)
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"{slack.base_url}/slack/install") as page,
    ):
        assert page.status == 200 and 'alt="Add to Slack"' in await page.text()
        set_cookie = page.headers["Set-Cookie"]
        assert "HttpOnly" in set_cookie and "Max-Age=600" in set_cookie
    link, _ = await slack.install_page()
    assert link.startswith(two_teams.authorize_url + "?")
    assert parse_qs(urlsplit(link).query)["client_id"] == [CLIENT_ID]


async def test_forged_or_malformed_events_change_nothing(
    app: str, two_teams: FakeSlack, store: Store
) -> None:
    two = SlackDriver(two_teams, app, SECRET, team="T2", channel="C2")
    await two.install("T2")
    forger = SlackDriver(two_teams, app, "not-the-signing-secret", team="T2")
    assert await forger.event({"type": "app_uninstalled"}) == 401
    for body in (
        '{"type": "event_callback", "team_id": "T2", "event": "app_uninstalled"}',
        '{"type": "event_callback", "team_id": "T2", "event": {"type": "message"}}',
        '{"type": "event_callback", "event": {"type": "app_uninstalled"}}',
        "[1, 2]",
    ):
        assert await two.post(body.encode(), headers=two.json_headers(body.encode())) == 400
    assert [team for team, _ in installations(store)] == ["T2"]
    assert rows(store, "SELECT COUNT(*) FROM departures") == [(0,)]


async def test_slack_can_verify_the_events_url(app: str, two_teams: FakeSlack) -> None:
    slack = SlackDriver(two_teams, app, SECRET)
    challenge = "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P"
    body = f'{{"token": "t", "challenge": "{challenge}", "type": "url_verification"}}'.encode()
    status, answer = await slack.send(body, headers=slack.json_headers(body))
    assert status == 200 and challenge in answer


async def test_with_one_token_removing_the_app_schedules_the_deletion_too(
    slack: SlackDriver, fake: FakeSlack, engine: Engine, store: Store
) -> None:
    assert await slack.event({"type": "app_uninstalled"}) == 200
    assert rows(store, "SELECT platform, workspace_id FROM departures") == [("slack", "T1")]
    # Added again, the operator starts quizbot with the new token: the workspace is back.
    settings = SlackSettings(
        bot_token="xoxb-new", signing_secret=SECRET, http=True, port=0, api_url=fake.api_url
    )
    serving = asyncio.create_task(runtime.serve(engine, settings))
    try:
        await fake.wait_for(lambda: fake.calls_to("auth.test") or None)
        for _ in range(100):
            if rows(store, "SELECT COUNT(*) FROM departures") == [(0,)]:
                break
            await asyncio.sleep(0.05)
        assert rows(store, "SELECT COUNT(*) FROM departures") == [(0,)]
    finally:
        serving.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await serving


async def test_a_changed_token_key_is_said_and_a_rotated_one_still_opens(
    app: str,
    two_teams: FakeSlack,
    oauth_engine: Engine,
    caplog: pytest.LogCaptureFixture,
) -> None:
    await SlackDriver(two_teams, app, SECRET).install("T1")
    new_key = "another-token-key-of-32-characters-or-more"
    for keys, works in ((new_key, False), (f"{new_key},{TOKEN_KEY}", True)):
        runner, url = await start_http(oauth_engine, two_teams, add_to_slack(two_teams, keys))
        try:
            reply = await SlackDriver(two_teams, url, SECRET).command("offloading", "U1")
        finally:
            await runner.cleanup()
        assert ("Question 1 of 17" in shown_text(reply)) is works
        if not works:
            assert reply["text"].startswith("quizbot is not installed in this workspace")
            warned = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
            assert any("does not open with QUIZBOT_TOKEN_KEY" in m for m in warned)
            assert not any("xoxb-" in r.getMessage() for r in caplog.records)
            caplog.clear()  # bolt's error line for the request it could not authorize


async def test_the_install_page_is_throttled_per_address(app: str, store: Store) -> None:
    """A script asking for /slack/install in a loop stores ten states, not thousands."""
    install = app.replace("/slack/events", "/slack/install")
    statuses = []
    async with aiohttp.ClientSession() as session:
        for _ in range(25):
            async with session.get(install, allow_redirects=False) as response:
                statuses.append(response.status)
                text = await response.text()
    assert statuses.count(429) == 15 and set(statuses[:10]) != {429}
    assert text == "Too many install attempts: try again in a minute."
    assert rows(store, "SELECT COUNT(*) FROM install_states") == [(10,)]
    indexes = rows(store, "SELECT name FROM sqlite_master WHERE tbl_name = 'install_states'")
    assert ("install_states_expiry",) in indexes  # expired ones are found, not scanned for


def test_a_throttle_refills_with_time_and_counts_everyone_too() -> None:
    now = [0.0]
    throttle = Throttle(per_address=2, in_all=3, clock=lambda: now[0])
    assert [throttle.allow("a") for _ in range(3)] == [True, True, False]
    assert [throttle.allow("b"), throttle.allow("c")] == [True, False]  # 3 in all
    now[0] = 30.0  # half a minute: one more for a (2 a minute), 1.5 more in all
    assert [throttle.allow("a"), throttle.allow("a")] == [True, False]


async def test_a_token_moved_to_another_workspace_serves_neither(
    app: str,
    two_teams: FakeSlack,
    store: Store,
    oauth_engine: Engine,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Someone who can write the database but lacks the key swaps two workspaces' sealed
    installations: each is sealed with its team, so neither serves the other."""
    await SlackDriver(two_teams, app, SECRET).install("T1")
    await SlackDriver(two_teams, app, SECRET).install("T2")
    with sqlite3.connect(store.path) as db:
        for old, new in (("T1", "swap"), ("T2", "T1"), ("swap", "T2")):
            db.execute(
                "UPDATE installations SET workspace_id = ? WHERE workspace_id = ?", (new, old)
            )
    runner, url = await start_http(oauth_engine, two_teams, add_to_slack(two_teams))
    try:
        reply = await SlackDriver(two_teams, url, SECRET).command("offloading", "U1")
    finally:
        await runner.cleanup()
    assert reply["text"].startswith("quizbot is not installed in this workspace")
    warned = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert (
        "the stored installation of Slack workspace T1 was sealed for another workspace:"
        " refused (install the app there again)" in warned
    )
    caplog.clear()  # bolt's error line for the request it could not authorize

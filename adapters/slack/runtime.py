"""The Slack runtime: the bolt app, its HTTP server or Socket Mode connection."""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
from aiohttp import web
from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler
from slack_bolt.async_app import AsyncApp
from slack_bolt.oauth.async_oauth_settings import AsyncOAuthSettings
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.domain.identities import ScopeRef
from bot.operations.sealing import Sealer, keys_of
from bot.services.engine import Engine

from ..errors import SetupError
from . import handlers, retries
from .deliver import PLATFORM, Replier
from .installations import Clients, SlackInstallations, StoredAuthorize, StoredStates
from .middleware import RefuseUnreadable
from .people import People
from .publisher import SlackPublisher
from .settings import EVENTS_PATH, INSTALL_PATH, REDIRECT_PATH, SlackSettings
from .throttle import Throttle

log = logging.getLogger(__name__)

_Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
# Seconds per Web API call or reply: a player is waiting on every one.
TIMEOUT = 10.0
_REPLIERS: weakref.WeakKeyDictionary[AsyncApp, Replier] = weakref.WeakKeyDictionary()
# What an install grants the bot: the manifests' bot scopes (a test keeps them equal).
BOT_SCOPES = ("commands", "chat:write", "users:read", "files:read")
# A request from a workspace without an installation (bolt tells the member this). In
# English: who it is and their language are unknown without the workspace's token.
NOT_INSTALLED = (
    "quizbot is not installed in this workspace (any more): an admin can add it again"
    " from its Add to Slack page."
)


def _add_to_slack(
    engine: Engine, settings: SlackSettings, installations: SlackInstallations
) -> dict[str, Any]:
    """bolt's arguments for the OAuth flow at /slack/install and /slack/oauth_redirect,
    with installations and states in quizbot's store."""
    oauth = AsyncOAuthSettings(
        client_id=settings.client_id,
        client_secret=settings.client_secret,
        scopes=list(BOT_SCOPES),
        user_scopes=[],
        install_path=INSTALL_PATH,
        redirect_uri_path=REDIRECT_PATH,
        authorization_url=settings.authorize_url,
        installation_store=installations,
        installation_store_bot_only=True,
        state_store=StoredStates(engine.installs),
    )
    return {
        "oauth_settings": oauth,
        "authorize": StoredAuthorize(installations),
        "user_facing_authorize_error_message": NOT_INSTALLED,
    }


def build_app(
    engine: Engine,
    settings: SlackSettings,
    people: People | None = None,
    timeout: float = TIMEOUT,
) -> AsyncApp:
    """The bolt app with quizbot's handlers, and the engine's publisher for Slack channels:
    for the one workspace of SLACK_BOT_TOKEN, or with Add to Slack (SLACK_CLIENT_ID) for
    every workspace that installs it, each with its own token. It makes no call until the
    first request (in single-token mode bolt then calls auth.test once) or the first
    channel post. Call ``close(app)`` when it stops serving."""
    installations = (
        SlackInstallations(engine.installs, Sealer(keys_of(settings.token_key)))
        if settings.oauth
        else None
    )
    app = AsyncApp(
        token=None if installations else settings.bot_token,
        # Passed explicitly so bolt never reads it from the environment ("" in Socket Mode,
        # where requests are not signed).
        signing_secret=settings.signing_secret,
        name="quizbot",
        before_authorize=RefuseUnreadable(),
        **(_add_to_slack(engine, settings, installations) if installations else {}),
    )
    # Point bolt's own client at SLACK_API_URL rather than passing `client=`: with the
    # token also in the environment, bolt would warn at every start that it is unused.
    # Bolt copies base_url and timeout into the client it gives each request.
    app.client.base_url = settings.api_url
    app.client.timeout = timeout  # type: ignore[assignment]  # aiohttp takes a float
    # Wait out a 429's Retry-After, try a 500 or a dropped connection once more; callers
    # warn once when a call still fails (bolt copies these into each request's client).
    app.client.retry_handlers = retries.handlers()
    replier = _REPLIERS.setdefault(app, Replier(timeout))
    clients = Clients(app.client, installations)
    handlers.register(app, engine, people or People(clients), clients, replier, settings.admins)
    engine.publishers.register(PLATFORM, SlackPublisher(clients))
    return app


@web.middleware
async def _refuse_unparsable(request: web.Request, handler: _Handler) -> web.StreamResponse:
    """Bolt reads the body before any of its middleware runs and raises on one it cannot
    parse (say ``payload=`` that is not JSON). Everything after that is caught inside
    bolt's dispatch, so these errors can only come from reading the request."""
    try:
        return await handler(request)
    except (ValueError, TypeError, AttributeError, KeyError, IndexError) as exc:
        log.warning("refused an unreadable Slack request (%s)", type(exc).__name__)
        return web.Response(status=400, text="invalid request")


@web.middleware
async def _refuse_bad_timestamp(request: web.Request, handler: _Handler) -> web.StreamResponse:
    """A request timestamp that is not an integer is a forgery like any other: 401. Bolt's
    signature check would raise on it (``int(timestamp)``) and answer 500."""
    timestamp = request.headers.get("X-Slack-Request-Timestamp")
    if timestamp is not None and not (timestamp.isascii() and timestamp.isdigit()):
        log.info("refused a Slack request with a malformed timestamp")
        return web.Response(status=401, text="invalid request")
    return await handler(request)


async def close(app: AsyncApp) -> None:
    """Release what the app's handlers hold (its replies' session)."""
    replier = _REPLIERS.pop(app, None)
    if replier is not None:
        await replier.close()


def _throttled_installs(throttle: Throttle) -> Callable[..., Any]:
    """/slack/install beyond the throttle's rate: 429, and no state stored."""

    @web.middleware
    async def middleware(request: web.Request, handler: _Handler) -> web.StreamResponse:
        if request.path == INSTALL_PATH and not throttle.allow(request.remote or ""):
            log.info("refused an install page visit: too many from %s", request.remote)
            return web.Response(
                status=429,
                text="Too many install attempts: try again in a minute.",
                headers={"Retry-After": "60"},
            )
        return await handler(request)

    return middleware


def web_app(app: AsyncApp, throttle: Throttle | None = None) -> web.Application:
    """The aiohttp application serving HTTP mode at /slack/events (and, with Add to
    Slack, /slack/install and /slack/oauth_redirect)."""
    application = app.web_app(path=EVENTS_PATH)
    application.middlewares.extend(
        [_throttled_installs(throttle or Throttle()), _refuse_bad_timestamp, _refuse_unparsable]
    )

    async def release(_: web.Application) -> None:
        await close(app)

    application.on_cleanup.append(release)
    return application


async def _check_token(client: AsyncWebClient) -> str:
    """Fail at start with one clear line, not at a player's first command; returns the
    token's workspace."""
    try:
        found = await client.auth_test()
    except SlackApiError as exc:
        raise SetupError(
            f"Slack refused SLACK_BOT_TOKEN ({retries.api_error(exc)}): copy the"
            " Bot User OAuth Token again from OAuth & Permissions → OAuth Tokens"
        ) from None
    except (aiohttp.ClientError, TimeoutError) as exc:
        raise SetupError(
            f"cannot reach the Slack Web API ({type(exc).__name__}):"
            " check the network and SLACK_API_URL"
        ) from None
    return str(found.get("team_id", ""))


async def _run_http(engine: Engine, app: AsyncApp, port: int, shared: bool) -> None:
    """``shared``: one of several worker processes on this port (SO_REUSEPORT: the kernel
    spreads the connections over them)."""
    runner = web.AppRunner(web_app(app), access_log=None)
    await runner.setup()
    try:
        await web.TCPSite(runner, port=port, reuse_port=shared or None).start()
        engine.health.set_platform(PLATFORM, True)
        log.info("Slack: serving HTTP mode on port %d at %s", port, EVENTS_PATH)
        await asyncio.Event().wait()  # until cancelled
    finally:
        engine.health.set_platform(PLATFORM, False)
        await runner.cleanup()


async def _run_socket_mode(engine: Engine, app: AsyncApp, app_token: str) -> None:
    handler = AsyncSocketModeHandler(app, app_token, web_client=app.client)
    try:
        await handler.connect_async()
        engine.health.set_platform(PLATFORM, True)
        log.info("Slack: connected in Socket Mode")
        await asyncio.Event().wait()  # until cancelled
    finally:
        engine.health.set_platform(PLATFORM, False)
        await handler.close_async()
        await close(app)


async def serve(engine: Engine, settings: SlackSettings) -> None:
    """Run the Slack app until cancelled: Socket Mode, or HTTP mode with ``--http``."""
    # Not ready until it listens: /healthz must not say ok while Slack's requests would
    # still be refused (a restarted worker, an orchestrator routing to it too early).
    engine.health.set_platform(PLATFORM, False)
    app = build_app(engine, settings)
    if settings.oauth:
        installed = await engine.installs.count(PLATFORM)
        log.info("Slack: Add to Slack at %s; installed in %d workspaces", INSTALL_PATH, installed)
    else:
        # A workspace that removed the app and then added it again starts with its new
        # token: it is back, and its data stays.
        await engine.installs.returned(ScopeRef(PLATFORM, await _check_token(app.client)))
    if settings.http:
        await _run_http(engine, app, settings.port, settings.workers > 1)
    else:
        await _run_socket_mode(engine, app, settings.app_token)

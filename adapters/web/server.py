"""The dashboard's routes. Every page sits under its link's token
(``/dashboard/<token>/…``): the token names the one workspace the page may show, so
nothing of a workspace is visible without its link; a forged or expired one gets 403.
What a page shows comes from the core (``bot.services.dashboard``), drawn by ``render``."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

from aiohttp import web
from markupsafe import Markup

from bot.domain.clock import Clock
from bot.domain.insight_links import Access, Signer
from bot.services.dashboard import Dashboard
from bot.services.engine import Engine
from bot.ui import i18n

from . import render
from .pages import Page, refused, shell

# A page: its title and body (HTML), or None for one that does not exist.
Builder = Callable[[web.Request, Access, Page], Awaitable[tuple[str, Markup] | None]]


def viewer_locale(request: web.Request, granted: str | None) -> str:
    """``?lang=``, else the browser's Accept-Language, else the link's language."""
    asked = i18n.supported(request.query.get("lang", ""))
    if asked:
        return asked
    for part in request.headers.get("Accept-Language", "").split(","):
        found = i18n.supported(part.split(";")[0].strip())
        if found:
            return found
    return granted or i18n.DEFAULT_LOCALE


class Site:
    def __init__(self, dashboard: Dashboard, signer: Signer, clock: Clock):
        self._dashboard = dashboard
        self._signer = signer
        self._clock = clock

    def routes(self, app: web.Application) -> None:
        app.router.add_get("/dashboard/{token}/", self._page(self._leaderboards, ""))
        app.router.add_get("/dashboard/{token}/insights", self._page(self._insights, "insights"))
        app.router.add_get(
            "/dashboard/{token}/participation", self._page(self._participation, "participation")
        )
        app.router.add_get("/dashboard/{token}/map", self._page(self._map, "map"))
        app.router.add_get(
            "/dashboard/{token}/question/{bank}/{question}", self._page(self._question, "question")
        )
        app.router.add_get("/dashboard/{tail:.*}", self._unknown)

    def _page(self, build: Builder, path: str) -> Callable[[web.Request], Awaitable[web.Response]]:
        async def handle(request: web.Request) -> web.Response:
            access = self._signer.check(request.match_info["token"], self._clock.now())
            if isinstance(access, str):
                locale = viewer_locale(request, None)
                return _html(refused(locale, access), 403)
            page = Page(
                viewer_locale(request, access.locale),
                f"/dashboard/{request.match_info['token']}/",
                path,
                # An empty value is no choice: the topic drop-down's "all topics".
                {k: v for k, v in request.query.items() if k != "lang" and v},
            )
            found = await build(request, access, page)
            if found is None:
                return _html(refused(page.locale, "not_found"), 404)
            title, body = found
            workspace = await self._dashboard.workspace_name(access.scope)
            expires = datetime.fromtimestamp(access.expires, UTC).strftime("%Y-%m-%d %H:%M")
            return _html(shell(page, title, body, workspace, expires))

        return handle

    async def _unknown(self, request: web.Request) -> web.Response:
        return _html(refused(viewer_locale(request, None), "not_found"), 404)

    # --- pages ---------------------------------------------------------------------

    async def _leaderboards(
        self, request: web.Request, access: Access, page: Page
    ) -> tuple[str, Markup] | None:
        shown = await self._dashboard.leaderboard(
            access.scope, page.locale, page.query.get("period"), page.query.get("topic")
        )
        return None if shown is None else render.leaderboards(page, shown)

    async def _insights(
        self, request: web.Request, access: Access, page: Page
    ) -> tuple[str, Markup] | None:
        shown = await self._dashboard.insights(
            access.scope,
            page.locale,
            page.query.get("period"),
            page.query.get("topic"),
            page.query.get("sort"),
        )
        return None if shown is None else render.insights(page, shown)

    async def _question(
        self, request: web.Request, access: Access, page: Page
    ) -> tuple[str, Markup] | None:
        shown = await self._dashboard.question(
            access.scope, page.locale, request.match_info["bank"], request.match_info["question"]
        )
        return None if shown is None else render.question(page, shown)

    async def _map(
        self, request: web.Request, access: Access, page: Page
    ) -> tuple[str, Markup] | None:
        return render.knowledge_map(
            page, await self._dashboard.knowledge(access.scope, page.locale)
        )

    async def _participation(
        self, request: web.Request, access: Access, page: Page
    ) -> tuple[str, Markup] | None:
        shown = await self._dashboard.participation(access.scope, page.query.get("period"))
        return None if shown is None else render.participation(page, shown)


def _html(body: str, status: int = 200) -> web.Response:
    return web.Response(
        text=body,
        status=status,
        content_type="text/html",
        headers={
            # Nothing but what the bot serves; no script at all; the token stays private.
            "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline';"
            " img-src data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
            "Referrer-Policy": "no-referrer",
            "Cache-Control": "no-store",
            "X-Content-Type-Options": "nosniff",
        },
    )


def dashboard_app(
    engine: Engine, signer: Signer, app: web.Application | None = None
) -> web.Application:
    """The dashboard's routes, on their own application or added to ``app``."""
    app = app or web.Application()
    Site(engine.dashboard, signer, engine.clock).routes(app)
    return app

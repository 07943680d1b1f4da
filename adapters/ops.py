"""The operator's HTTP listener: /healthz for orchestrators, /metrics for Prometheus."""

from __future__ import annotations

import asyncio
import json
import logging

from aiohttp import web

from adapters.web.server import dashboard_app
from bot.domain.insight_links import Signer
from bot.operations.metrics import exposition
from bot.services.engine import Engine

log = logging.getLogger(__name__)


def ops_app(engine: Engine, dashboard: Signer | None = None) -> web.Application:
    """/healthz and /metrics; with ``dashboard``, the dashboard's pages too (when it has
    no port of its own)."""

    async def healthz(_: web.Request) -> web.Response:
        states = await engine.health.check()
        healthy = all(state == "ok" for state in states.values())
        body = json.dumps({"status": "ok" if healthy else "unhealthy", **states})
        return web.Response(
            status=200 if healthy else 503, text=body, content_type="application/json"
        )

    async def metrics(_: web.Request) -> web.Response:
        body, content_type = exposition()
        return web.Response(body=body, headers={"Content-Type": content_type})

    app = web.Application()
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/metrics", metrics)
    return dashboard_app(engine, dashboard, app) if dashboard else app


async def serve(app: web.Application, port: int, what: str, host: str = "0.0.0.0") -> None:
    """Serve ``app`` until cancelled."""
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
        log.info("%s on port %d", what, port)
        await asyncio.Event().wait()  # until cancelled
    finally:
        await runner.cleanup()

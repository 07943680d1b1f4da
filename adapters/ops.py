"""The operator's HTTP listener: /healthz for orchestrators, /metrics for Prometheus."""

from __future__ import annotations

import asyncio
import json
import logging

from aiohttp import web

from bot.operations.metrics import exposition
from bot.play.engine import Engine

log = logging.getLogger(__name__)


def ops_app(engine: Engine) -> web.Application:
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
    return app


async def serve_ops(engine: Engine, port: int, host: str = "0.0.0.0") -> None:
    """Serve until cancelled."""
    runner = web.AppRunner(ops_app(engine), access_log=None)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
        log.info("health and metrics on port %d", port)
        await asyncio.Event().wait()  # until cancelled
    finally:
        await runner.cleanup()

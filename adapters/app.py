"""The composition root: the one place that wires the catalog, the store, the supervised
background tasks, the engine and its services, and the metrics together — through
constructors — and takes them down again in order."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from bot.content.banks import SHIPPED_BANKS, Catalog, load_catalog
from bot.domain.insight_links import Signer
from bot.operations import metrics
from bot.operations.settings import CoreSettings
from bot.operations.tasks import Supervisor
from bot.persistence import Store
from bot.services.engine import Engine

from .errors import SetupError


def load_banks(core: CoreSettings, report: bool = True) -> Catalog:
    """The banks; none at all is a setup error (a bot without questions must not start)."""
    directories = [SHIPPED_BANKS, *core.banks]
    found = load_catalog(directories)
    if report:
        for error in found.errors:
            print(f"warning: skipped a broken bank: {error}", file=sys.stderr)
    if not found.banks:
        where = ", ".join(str(d) for d in directories)
        raise SetupError(f"no question banks found (looked in {where})", exit_code=2)
    return found


def dashboard_port(core: CoreSettings) -> int | None:
    """Where the dashboard is served: its own port, else the metrics port."""
    return core.web_port or core.metrics_port


def dashboard_signer(core: CoreSettings) -> Signer | None:
    """The dashboard's link signer, when it is set up (a secret and a port to serve on)."""
    port = dashboard_port(core)
    if core.dashboard_secret is None or port is None:
        return None
    return Signer(core.dashboard_secret, core.public_url or f"http://localhost:{port}")


@asynccontextmanager
async def compose(
    core: CoreSettings, *, report: bool = True, catalog: Catalog | None = None
) -> AsyncIterator[Engine]:
    """The engine on the settings' store and banks (or ``catalog``'s), for the length of
    the block."""
    banks = catalog or load_banks(core, report)
    store = await Store.open(core.db)
    tasks = Supervisor()
    try:  # closing the store on every way out: its threads would keep the process alive
        metrics.RUNS_IN_PROGRESS.set_function(lambda: store.runs.in_progress)
        yield Engine(
            banks,
            store,
            default_locale=core.default_lang,
            quiz_length=core.quiz_length,
            reveal_hours=core.reveal_hours,
            tasks=tasks,
            insights_for_everyone=core.insights_for_everyone,
            dashboard=dashboard_signer(core),
            forget_after_days=core.forget_after_days,
        )
    finally:
        await tasks.close()  # before the store: a task may still be writing
        await store.close()
